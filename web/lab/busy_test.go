package lab_test

import (
	"locklab/web"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/site"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLabSafetyStopIsBusy: a search the server's clock cuts short is no
// verdict: 503, "try again", no ✓, and it is not cached.
func TestLabSafetyStopIsBusy(t *testing.T) {
	h := sitetest.Handler(t, web.Config{Config: site.Config{Version: "test", LabDeadline: time.Nanosecond}})
	for _, lang := range i18n.Codes() {
		r := webtest.Get(t, h, "/"+lang+"/lab?lesson=fencing")
		if r.Status != http.StatusServiceUnavailable {
			t.Errorf("%s: %d", lang, r.Status)
		}
		for _, bad := range []string{"✓", i18n.For(lang).Verdict.Within} { // only a finished search may show them
			if strings.Contains(r.Body, bad) {
				t.Errorf("%s: a search stopped by the clock shows %q", lang, bad)
			}
		}
		if r.Header.Get("X-Cache") == "hit" {
			t.Errorf("%s: a busy answer was cached", lang)
		}

	}
}

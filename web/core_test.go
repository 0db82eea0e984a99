package web_test

import (
	"context"
	"fmt"
	"locklab/web"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-chi/chi/v5"

	"locklab/sim"
	"locklab/web/site"
)

// TestReplayPanicFreesSlots: a replay that panics answers 500 and gives
// its slot back, so more panics than there are slots never leave the
// site answering 503.
func TestReplayPanicFreesSlots(t *testing.T) {
	var panicking atomic.Bool
	panicking.Store(true)
	replay := func(ctx context.Context, sc *sim.Scenario, o sim.Opts, as []sim.Action) (*sim.Timeline, error) {
		if panicking.Load() {
			panic("replay blew up")
		}
		return sim.ReplayContext(ctx, sc, o, as)
	}
	const slots = 2
	srv := sitetest.Server(t, replay, web.Config{Config: site.Config{Version: "t", Replays: slots}})
	h := srv.Handler()
	for i := range 3 * slots {
		url := fmt.Sprintf("/en/lessons/fencing?do=wait.%ds", i+1)
		if r := webtest.Get(t, h, url); r.Status != http.StatusInternalServerError {
			t.Fatalf("panicking replay %s: %d, want 500", url, r.Status)
		}
	}
	if n := srv.Site().ReplaysRunning(); n != 0 {
		t.Errorf("%d of %d replay slots still taken after the panics", n, slots)
	}
	panicking.Store(false)
	if r := webtest.Get(t, h, "/en/lessons/fencing?do=a.acquire"); r.Status != http.StatusOK {
		t.Errorf("after the panics: %d, want 200", r.Status)
	}
}

// TestHeadOnEveryGetRoute: HEAD answers every GET route with GET's status
// and headers and no body (never 405 or a 404 the GET does not give).
func TestHeadOnEveryGetRoute(t *testing.T) {
	h := sitetest.Default(t)
	css := regexp.MustCompile(`/static/[^"]+/css/app\.css`).FindString(webtest.MustGet(t, h, "/en/"))
	if css == "" {
		t.Fatal("no stylesheet link on /en/")
	}
	params := strings.NewReplacer("{lang}", "en", "{slug}", "fencing", "{code}", "ABCD2345", "{hash}", strings.Split(css, "/")[2], "*", "css/app.css")
	var urls []string
	err := chi.Walk(h.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if method == http.MethodGet && !strings.HasSuffix(route, "/events") { // an event stream stays open
			urls = append(urls, params.Replace(route))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	urls = append(urls, "/en/lessons/fencing?do=a.acquire", "/en/lessons/fencing?do=a.bogus", "/en/nowhere")
	if len(urls) < 15 {
		t.Fatalf("only %d GET routes found: %v", len(urls), urls)
	}
	for _, u := range urls {
		g := webtest.Get(t, h, u)
		req := httptest.NewRequest(http.MethodHead, u, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != g.Status || rec.Code == http.StatusMethodNotAllowed {
			t.Errorf("HEAD %s = %d, GET = %d", u, rec.Code, g.Status)
		}
		for _, k := range []string{"Content-Type", "Location", "ETag", "Cache-Control"} {
			if a, b := rec.Header().Get(k), g.Header.Get(k); a != b {
				t.Errorf("HEAD %s: %s %q, GET %q", u, k, a, b)
			}
		}
		if rec.Body.Len() != 0 {
			t.Errorf("HEAD %s: a body of %d bytes", u, rec.Body.Len())
		}
	}
}

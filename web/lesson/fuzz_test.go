package lesson_test

import (
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// FuzzLessonURL: whatever a URL's path and query carry, the site answers
// with a status below 500 (no panic, no internal error).
func FuzzLessonURL(f *testing.F) {
	h := sitetest.Default(f)
	for _, s := range []string{"do=a.acquire", "do=a.fly", "opt=fence.off&do=a.acquire,a.write", "guess=2&do=a.acquire",
		"do=n3.jump.10s", "opt-release=del", "do=%ff", "do=" + webtest.Guided} {
		f.Add("fencing", s)
		f.Add("redlock", s)
	}
	f.Fuzz(func(t *testing.T, slug, rawQuery string) {
		u := &url.URL{Path: "/en/lessons/" + slug, RawQuery: rawQuery}
		for _, path := range []string{u.String(), "/ja/lessons/" + url.PathEscape(slug) + ".json?" + rawQuery,
			"/en/lessons/" + url.PathEscape(slug) + "/timeline.json?" + rawQuery,
			"/ja/lessons/" + url.PathEscape(slug) + "/timeline.svg?" + rawQuery,
			"/en/lessons/" + url.PathEscape(slug) + "/qr.svg?" + rawQuery} {
			req, err := http.NewRequest(http.MethodGet, path, nil)
			if err != nil {
				return
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code >= 500 {
				t.Fatalf("GET %s = %d\n%s", path, rec.Code, rec.Body.String())
			}
		}
	})
}

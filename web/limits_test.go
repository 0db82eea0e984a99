package web_test

import (
	"context"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"locklab/web"
	"locklab/web/class"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/limits"
	"locklab/web/site"
)

// from sends a GET (or, with form, a POST) as the client at addr.
func from(h http.Handler, addr, method, path string, form url.Values) *httptest.ResponseRecorder {
	var r *http.Request
	if form != nil {
		r = httptest.NewRequest(method, path, strings.NewReader(form.Encode()))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Origin", "http://example.com")
		r.Host = "example.com"
	} else {
		r = httptest.NewRequest(method, path, nil)
	}
	r.RemoteAddr = addr
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestFloodGets429: one client that keeps exploring meets its share — 429
// with Retry-After and a page in its language that keeps its design form —
// while a second client's Lab runs, design grades, lesson pages and class
// creation are served as before.
func TestFloodGets429(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	classes, err := class.NewClassroom(context.Background(), rdb, class.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(classes.Close)
	h := sitetest.Handler(t, web.Config{Config: site.Config{Version: "test", LabDeadline: 30 * time.Second,
		Limits: limits.New(false, map[limits.Kind]limits.Rule{
			limits.Explore: {Every: time.Hour, Burst: 2},
			limits.Create:  {Every: time.Hour, Burst: 1},
		})}, Class: classes})
	flood, other := "10.0.0.1:40000", "10.0.0.2:40000"
	labs := []string{"/ja/lab?lesson=fencing&opt=fence.off", "/ja/lab?lesson=fencing&opt=release.del", "/ja/lab?lesson=ttl"}
	for i, p := range labs {
		w := from(h, flood, "GET", p, nil)
		if i < 2 && w.Code != http.StatusOK {
			t.Fatalf("%s: %d within the share", p, w.Code)
		}
		if i == 2 {
			u := i18n.For("ja")
			if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), html.EscapeString(u.TooManyTitle)) {
				t.Fatalf("past the share: %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
			}
		}
	}
	// Its design grade is refused too, and the page keeps what it typed.
	mine := "return redis.call('DEL', KEYS[1])"
	w := from(h, flood, "GET", "/en/lab/design?release="+url.QueryEscape(mine), nil)
	if w.Code == http.StatusSeeOther {
		w = from(h, flood, "GET", w.Header().Get("Location"), nil)
	}
	if w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), html.EscapeString(mine)) {
		t.Errorf("the flooding client's grade: %d, or its script is lost", w.Code)
	}
	// A page already explored costs nothing: it comes from the cache.
	if w := from(h, flood, "GET", labs[0], nil); w.Code != http.StatusOK {
		t.Errorf("a cached Lab page: %d", w.Code)
	}
	// The other client is served as before.
	for _, p := range []string{"/en/lab?lesson=fencing&opt=fence.strict", "/en/lab/design?write=strict", "/en/lessons/fencing?do=a.acquire"} {
		if w := from(h, other, "GET", p, nil); w.Code != http.StatusOK {
			t.Errorf("the other client, %s: %d", p, w.Code)
		}
	}
	// Class creation: one each.
	form := url.Values{"lesson": {"fencing"}, "do": {"a.acquire"}}
	if w := from(h, flood, "POST", "/en/class", form); w.Code >= 400 {
		t.Fatalf("the first class: %d", w.Code)
	}
	if w := from(h, flood, "POST", "/en/class", form); w.Code != http.StatusTooManyRequests {
		t.Errorf("a second class from the same client: %d", w.Code)
	}
	if w := from(h, other, "POST", "/en/class", form); w.Code >= 400 {
		t.Errorf("the other client's class: %d", w.Code)
	}
}

// TestGradeMemo: a grade does not depend on the language, so a design
// graded once is graded again — in another language too — without
// exploring, and without taking from the client's share; a design never
// graded still takes its share.
func TestGradeMemo(t *testing.T) {
	h := sitetest.Handler(t, web.Config{Config: site.Config{Version: "test", LabDeadline: 30 * time.Second,
		Limits: limits.New(false, map[limits.Kind]limits.Rule{limits.Explore: {Every: time.Hour, Burst: 1}})}})
	addr := "10.0.0.9:1"
	en := from(h, addr, "GET", "/en/lab/design?write=strict", nil)
	ja := from(h, addr, "GET", "/ja/lab/design?write=strict", nil)
	if en.Code != http.StatusOK || ja.Code != http.StatusOK {
		t.Fatalf("en %d, ja %d: the same design in two languages is one grade", en.Code, ja.Code)
	}
	for _, k := range []string{"overlap", "late-write"} {
		if strings.Contains(en.Body.String(), `data-kind="`+k+`"`) != strings.Contains(ja.Body.String(), `data-kind="`+k+`"`) {
			t.Errorf("%s: the two languages disagree", k)
		}
	}
	if w := from(h, addr, "GET", "/en/lab/design?write=none", nil); w.Code != http.StatusTooManyRequests {
		t.Errorf("a design never graded, past the share: %d", w.Code)
	}
}

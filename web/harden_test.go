package web

import (
	"compress/gzip"
	"context"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim"
	"locklab/static"
	"locklab/web/i18n"
)

func TestSecurityHeaders(t *testing.T) {
	h := newTestServer(t)
	for _, u := range []string{"/en/", "/en/lessons/fencing?do=a.acquire", "/en/lessons/nope", "/static/0/css/app.css"} {
		r := get(t, h, u)
		for name, want := range map[string]string{
			"Content-Security-Policy": "script-src 'self'", "X-Content-Type-Options": "nosniff",
			"Referrer-Policy": "same-origin", "Cross-Origin-Opener-Policy": "same-origin",
			"Permissions-Policy": "camera=()", "X-Frame-Options": "DENY",
		} {
			if !strings.Contains(r.header.Get(name), want) {
				t.Errorf("%s: %s = %q, want it to contain %q", u, name, r.header.Get(name), want)
			}
		}
		if csp := r.header.Get("Content-Security-Policy"); strings.Contains(csp, "unsafe") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP not strict: %q", u, csp)
		}
	}
}

// TestNoInlineScriptOrStyle: the strict CSP would block them, so no page
// may rely on one.
func TestNoInlineScriptOrStyle(t *testing.T) {
	h := newTestServer(t)
	course, _ := lessons.Load()
	inlineScript := regexp.MustCompile(`<script(?:\s[^>]*)?>[^<]`)
	for _, lang := range i18n.Codes() {
		pages := []string{"/" + lang + "/", "/" + lang + "/lessons/nope", "/" + lang + "/lab", "/" + lang + "/lab?lesson=nope"}
		for _, l := range course.List(lang) {
			last := l.Steps[len(l.Steps)-1]
			pages = append(pages, startPath(l), lessonPath(l)+query(last.Do, last.Opt))
		}
		for _, p := range pages {
			body := get(t, h, p).body
			if strings.Contains(body, " style=") || strings.Contains(body, "<style") || inlineScript.MatchString(body) ||
				strings.Contains(body, " on") && regexp.MustCompile(` on[a-z]+=`).MatchString(body) {
				t.Errorf("%s has inline style or script", p)
			}
		}
	}
}

func TestETagAndCache(t *testing.T) {
	h := newTestServer(t)
	u := "/en/lessons/fencing?do=" + guided
	first := get(t, h, u)
	tag := first.header.Get("ETag")
	if first.status != 200 || !strings.HasPrefix(tag, `"`) || strings.HasPrefix(tag, "W/") {
		t.Fatalf("first: %d, ETag %q: want 200 and a strong ETag", first.status, tag)
	}
	if first.header.Get("X-Cache") != "miss" {
		t.Errorf("first request: X-Cache %q, want miss", first.header.Get("X-Cache"))
	}
	second := get(t, h, u)
	if second.header.Get("X-Cache") != "hit" || second.body != first.body || second.header.Get("ETag") != tag {
		t.Errorf("second request: X-Cache %q, same body %v, ETag %q", second.header.Get("X-Cache"), second.body == first.body, second.header.Get("ETag"))
	}
	if r := get(t, h, u, "If-None-Match", tag); r.status != http.StatusNotModified || r.body != "" {
		t.Errorf("If-None-Match: %d with %d bytes, want 304 and no body", r.status, len(r.body))
	}
	gz := strings.TrimSuffix(tag, `"`) + `-gzip"`
	if r := get(t, h, u, "If-None-Match", gz, "Accept-Encoding", "gzip"); r.status != http.StatusNotModified {
		t.Errorf("If-None-Match with the gzip ETag: %d, want 304", r.status)
	}
	frag := get(t, h, u, "HX-Request", "true")
	if frag.header.Get("ETag") == tag {
		t.Error("the htmx fragment shares the full page's ETag")
	}
	other := get(t, h, "/en/lessons/fencing?do=a.acquire")
	if other.header.Get("ETag") == tag {
		t.Error("two timelines share an ETag")
	}
	bad := get(t, h, "/en/lessons/fencing?do=a.fly")
	if bad.header.Get("ETag") != "" || bad.header.Get("Cache-Control") != "no-store" {
		t.Errorf("an error page must not be cached: ETag %q, Cache-Control %q", bad.header.Get("ETag"), bad.header.Get("Cache-Control"))
	}
}

func TestCompression(t *testing.T) {
	h := newTestServer(t)
	assets, _ := NewAssets(static.FS)
	for _, u := range []string{"/en/lessons/fencing?do=" + guided, assets.URL("css/app.css"), assets.URL("vendor/htmx.min.js"),
		assets.URL("img/penguin.svg"), "/en/lessons/fencing.json"} {
		req := httptest.NewRequest(http.MethodGet, u, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: not gzipped", u)
			continue
		}
		if et := rec.Header().Get("ETag"); et != "" && !strings.HasSuffix(et, `-gzip"`) {
			t.Errorf("%s: compressed body kept the plain ETag %q", u, et)
		}
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatal(err)
		}
		if b, err := io.ReadAll(zr); err != nil || len(b) == 0 {
			t.Errorf("%s: gzip body unreadable: %v", u, err)
		}
	}
}

func TestRobotsAndHealth(t *testing.T) {
	h := newTestServer(t)
	robots := get(t, h, "/robots.txt")
	if robots.status != 200 || !strings.Contains(robots.body, "Disallow: /*?") {
		t.Errorf("robots.txt: %d %q", robots.status, robots.body)
	}
	if r := get(t, h, "/healthz"); r.status != 200 || r.body != "ok\n" {
		t.Errorf("healthz: %d %q", r.status, r.body)
	}
	page := get(t, h, "/en/lessons/fencing?do=a.acquire").body
	// Every link to a timeline state (a query) is nofollow, except the
	// starts of lessons that open on their failure, which robots.txt
	// allows by name.
	allowed := get(t, h, "/robots.txt").body
	for _, u := range []string{"/en/lessons/fencing?do=a.acquire", "/ja/", "/ja/lab?lesson=ttl", "/en/lessons/redlock?do=a.acquire,n1.down"} {
		for _, a := range regexp.MustCompile(`<a [^>]*href="([^"]*\?[^"]*)"[^>]*>`).FindAllStringSubmatch(get(t, h, u).body, -1) {
			if !strings.Contains(a[0], `rel="nofollow"`) && !strings.Contains(allowed, "Allow: "+html.UnescapeString(a[1])+"$") {
				t.Errorf("%s: a link to a timeline state without rel=nofollow: %s", u, a[0])
			}
		}
	}
	if strings.Count(page, `rel="nofollow"`) < 5 {
		t.Error("controls should carry rel=nofollow")
	}
}

func TestLimits(t *testing.T) {
	h := newTestServer(t)
	req := httptest.NewRequest(http.MethodGet, "/en/", strings.NewReader(strings.Repeat("x", 4096)))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Errorf("a GET with a body: %d", rec.Code)
	}
	// 200 actions replay (the worst case the limits allow) and render.
	worst := "/en/lessons/redlock?do=" + strings.TrimSuffix(strings.Repeat("a.acquire,a.release,", 100), ",")
	if r := get(t, h, worst); r.status != 200 {
		t.Errorf("200-action timeline: %d", r.status)
	}
}

// TestBusy: with every replay slot taken, a request waits up to the
// deadline and then gets a clear 503 with Retry-After, not a hang.
func TestBusy(t *testing.T) {
	t.Parallel() // mostly waiting for the deadline
	course, _ := lessons.Load()
	assets, _ := NewAssets(static.FS)
	release, holding := make(chan struct{}), make(chan struct{})
	slow := func(ctx context.Context, sc *sim.Scenario, o sim.Opts, as []sim.Action) (*sim.Timeline, error) {
		close(holding) // called once: the second request never gets a slot
		<-release
		return sim.Replay(sc, o, as) // held on purpose: this one ignores the deadline
	}
	h := New(course, assets, slow, slog.New(slog.NewTextHandler(io.Discard, nil)), Config{Version: "t", Replays: 1}).Handler()
	first := make(chan int)
	go func() { first <- get(t, h, "/en/lessons/fencing?do=a.acquire").status }()
	<-holding // the first request holds the only slot
	r := get(t, h, "/ja/lessons/fencing?do=b.acquire")
	close(release)
	if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") == "" || !strings.Contains(r.body, "混み合っています") {
		t.Errorf("busy: %d Retry-After %q", r.status, r.header.Get("Retry-After"))
	}
	if s := <-first; s != 200 {
		t.Errorf("the first request: %d", s)
	}
}

// TestHeaderLimit: an oversized header gets the site's 431 page in the
// page's language; a large but allowed one is served.
func TestHeaderLimit(t *testing.T) {
	h := newTestServer(t)
	if r := get(t, h, "/ja/lessons/fencing", "Cookie", "a="+strings.Repeat("x", 12<<10)); r.status != http.StatusOK {
		t.Errorf("a 12 KB cookie: %d", r.status)
	}
	r := get(t, h, "/ja/lessons/fencing", "Cookie", "a="+strings.Repeat("x", 20<<10))
	if r.status != http.StatusRequestHeaderFieldsTooLarge || !strings.Contains(r.body, "Cookie が多すぎる") {
		t.Errorf("a 20 KB cookie: %d", r.status)
	}
	if r := get(t, h, "/en/lessons/fencing", "X-Junk", strings.Repeat("y", 20<<10)); r.status != http.StatusRequestHeaderFieldsTooLarge || !strings.Contains(r.body, "headers are too large") {
		t.Errorf("a 20 KB header on an English page: %d", r.status)
	}
}

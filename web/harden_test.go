package web_test

import (
	"compress/gzip"
	"context"
	"html"
	"io"
	"locklab/web"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim"
	"locklab/static"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/site"
)

func TestSecurityHeaders(t *testing.T) {
	h := sitetest.Default(t)
	for _, u := range []string{"/en/", "/en/lessons/fencing?do=a.acquire", "/en/lessons/nope", "/static/0/css/app.css"} {
		r := webtest.Get(t, h, u)
		for name, want := range map[string]string{
			"Content-Security-Policy": "script-src 'self'", "X-Content-Type-Options": "nosniff",
			"Referrer-Policy": "same-origin", "Cross-Origin-Opener-Policy": "same-origin",
			"Permissions-Policy": "camera=()", "X-Frame-Options": "DENY",
		} {
			if !strings.Contains(r.Header.Get(name), want) {
				t.Errorf("%s: %s = %q, want it to contain %q", u, name, r.Header.Get(name), want)
			}
		}
		if csp := r.Header.Get("Content-Security-Policy"); strings.Contains(csp, "unsafe") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP not strict: %q", u, csp)
		}
	}
}

var textareas = regexp.MustCompile(`(?s)<textarea[^>]*>.*?</textarea>`)

// TestNoInlineScriptOrStyle: the strict CSP would block them, so no page
// may rely on one.
func TestNoInlineScriptOrStyle(t *testing.T) {
	h := sitetest.Default(t)
	course, _ := lessons.Load()
	inlineScript := regexp.MustCompile(`<script(?:\s[^>]*)?>[^<]`)
	for _, lang := range i18n.Codes() {
		pages := []string{"/" + lang + "/", "/" + lang + "/lessons/nope", "/" + lang + "/lab", "/" + lang + "/lab?lesson=nope"}
		for _, l := range course.List(lang) {
			last := l.Steps[len(l.Steps)-1]
			pages = append(pages, links.Start(l), links.Lesson(l)+links.Query(last.Do, last.Opt))
		}
		for _, p := range pages {
			// a snippet to copy (the share box's embed HTML) is text in a
			// textarea, not markup of the page
			body := textareas.ReplaceAllString(webtest.Get(t, h, p).Body, "<textarea></textarea>")
			if strings.Contains(body, " style=") || strings.Contains(body, "<style") || inlineScript.MatchString(body) ||
				strings.Contains(body, " on") && regexp.MustCompile(` on[a-z]+=`).MatchString(body) {
				t.Errorf("%s has inline style or script", p)
			}
		}
	}
}

func TestETagAndCache(t *testing.T) {
	h := sitetest.Default(t)
	u := "/en/lessons/fencing?do=" + guided
	first := webtest.Get(t, h, u)
	tag := first.Header.Get("ETag")
	if first.Status != 200 || !strings.HasPrefix(tag, `"`) || strings.HasPrefix(tag, "W/") {
		t.Fatalf("first: %d, ETag %q: want 200 and a strong ETag", first.Status, tag)
	}
	if first.Header.Get("X-Cache") != "miss" {
		t.Errorf("first request: X-Cache %q, want miss", first.Header.Get("X-Cache"))
	}
	second := webtest.Get(t, h, u)
	if second.Header.Get("X-Cache") != "hit" || second.Body != first.Body || second.Header.Get("ETag") != tag {
		t.Errorf("second request: X-Cache %q, same body %v, ETag %q", second.Header.Get("X-Cache"), second.Body == first.Body, second.Header.Get("ETag"))
	}
	if r := webtest.Get(t, h, u, "If-None-Match", tag); r.Status != http.StatusNotModified || r.Body != "" {
		t.Errorf("If-None-Match: %d with %d bytes, want 304 and no body", r.Status, len(r.Body))
	}
	gz := strings.TrimSuffix(tag, `"`) + `-gzip"`
	if r := webtest.Get(t, h, u, "If-None-Match", gz, "Accept-Encoding", "gzip"); r.Status != http.StatusNotModified {
		t.Errorf("If-None-Match with the gzip ETag: %d, want 304", r.Status)
	}
	frag := webtest.Get(t, h, u, "HX-Request", "true")
	if frag.Header.Get("ETag") == tag {
		t.Error("the htmx fragment shares the full page's ETag")
	}
	other := webtest.Get(t, h, "/en/lessons/fencing?do=a.acquire")
	if other.Header.Get("ETag") == tag {
		t.Error("two timelines share an ETag")
	}
	bad := webtest.Get(t, h, "/en/lessons/fencing?do=a.fly")
	if bad.Header.Get("ETag") != "" || bad.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("an error page must not be cached: ETag %q, Cache-Control %q", bad.Header.Get("ETag"), bad.Header.Get("Cache-Control"))
	}
}

func TestCompression(t *testing.T) {
	h := sitetest.Default(t)
	assets, _ := site.NewAssets(static.FS)
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
	h := sitetest.Default(t)
	robots := webtest.Get(t, h, "/robots.txt")
	if robots.Status != 200 || !strings.Contains(robots.Body, "Disallow: /*?") {
		t.Errorf("robots.txt: %d %q", robots.Status, robots.Body)
	}
	if r := webtest.Get(t, h, "/healthz"); r.Status != 200 || r.Body != "ok\n" {
		t.Errorf("healthz: %d %q", r.Status, r.Body)
	}
	page := webtest.Get(t, h, "/en/lessons/fencing?do=a.acquire").Body
	// Every link to a timeline state (a query) is nofollow, except the
	// starts of lessons that open on their failure, which robots.txt
	// allows by name.
	allowed := webtest.Get(t, h, "/robots.txt").Body
	for _, u := range []string{"/en/lessons/fencing?do=a.acquire", "/ja/", "/ja/lab?lesson=ttl", "/en/lessons/redlock?do=a.acquire,n1.down"} {
		for _, a := range regexp.MustCompile(`<a [^>]*href="([^"]*\?[^"]*)"[^>]*>`).FindAllStringSubmatch(webtest.Get(t, h, u).Body, -1) {
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
	h := sitetest.Default(t)
	req := httptest.NewRequest(http.MethodGet, "/en/", strings.NewReader(strings.Repeat("x", 4096)))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code >= 500 {
		t.Errorf("a GET with a body: %d", rec.Code)
	}
	// 200 actions replay (the worst case the limits allow) and render.
	worst := "/en/lessons/redlock?do=" + strings.TrimSuffix(strings.Repeat("a.acquire,a.release,", 100), ",")
	if r := webtest.Get(t, h, worst); r.Status != 200 {
		t.Errorf("200-action timeline: %d", r.Status)
	}
}

// TestBusy: with every replay slot taken, a request waits up to the
// deadline and then gets a clear 503 with Retry-After, not a hang.
func TestBusy(t *testing.T) {
	t.Parallel() // mostly waiting for the deadline
	release, holding := make(chan struct{}), make(chan struct{})
	slow := func(ctx context.Context, sc *sim.Scenario, o sim.Opts, as []sim.Action) (*sim.Timeline, error) {
		close(holding) // called once: the second request never gets a slot
		<-release
		return sim.Replay(sc, o, as) // held on purpose: this one ignores the deadline
	}
	h := sitetest.Server(t, slow, web.Config{Config: site.Config{Version: "t", Replays: 1}}).Handler()
	first := make(chan int)
	go func() { first <- webtest.Get(t, h, "/en/lessons/fencing?do=a.acquire").Status }()
	<-holding // the first request holds the only slot
	r := webtest.Get(t, h, "/ja/lessons/fencing?do=b.acquire")
	close(release)
	if r.Status != http.StatusServiceUnavailable || r.Header.Get("Retry-After") == "" || !strings.Contains(r.Body, "混み合っています") {
		t.Errorf("busy: %d Retry-After %q", r.Status, r.Header.Get("Retry-After"))
	}
	if s := <-first; s != 200 {
		t.Errorf("the first request: %d", s)
	}
}

// TestHeaderLimit: an oversized header gets the site's 431 page in the
// page's language; a large but allowed one is served.
func TestHeaderLimit(t *testing.T) {
	h := sitetest.Default(t)
	if r := webtest.Get(t, h, "/ja/lessons/fencing", "Cookie", "a="+strings.Repeat("x", 12<<10)); r.Status != http.StatusOK {
		t.Errorf("a 12 KB cookie: %d", r.Status)
	}
	r := webtest.Get(t, h, "/ja/lessons/fencing", "Cookie", "a="+strings.Repeat("x", 20<<10))
	if r.Status != http.StatusRequestHeaderFieldsTooLarge || !strings.Contains(r.Body, "Cookie が多すぎる") {
		t.Errorf("a 20 KB cookie: %d", r.Status)
	}
	if r := webtest.Get(t, h, "/en/lessons/fencing", "X-Junk", strings.Repeat("y", 20<<10)); r.Status != http.StatusRequestHeaderFieldsTooLarge || !strings.Contains(r.Body, "headers are too large") {
		t.Errorf("a 20 KB header on an English page: %d", r.Status)
	}
}

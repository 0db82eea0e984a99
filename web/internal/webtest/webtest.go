// Package webtest holds what the site's tests share: requests to a
// handler (Get, MustGet), reading a page (HrefOf, Escape), the test
// binary's one headless chromium and its tabs (browser.go), and Main,
// which fails a test binary that leaks a goroutine. Every feature's tests
// use it; it imports no feature, so the site's own package can use it
// too.
package webtest

import (
	"flag"
	"html"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"locklab/sim"
)

// Guided is the fencing lesson's flagship path: A pauses past its TTL, B
// takes the lock and writes, A wakes and writes with its stale token.
const Guided = "a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write,a.release"

// Main runs a package's tests and fails it if a goroutine outlives them:
// every request's replay must close its miniredis nodes and go-redis
// clients (the servers kept for reuse, and the shared browser, are closed
// first).
//
// It also lets more parallel tests run at once than go test's default
// (GOMAXPROCS, two on two cores), unless -test.parallel was given: the
// browser tests spend much of their time waiting on Chromium rather than
// on a core (measured 2026-12-03: the suite's wall time fell from 116 s
// to 111 s with four).
func Main(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(max(4, 2*runtime.GOMAXPROCS(0))))
	}
	goleak.VerifyTestMain(drained{m})
}

type drained struct{ m *testing.M }

func (d drained) Run() int {
	code := d.m.Run()
	CloseBrowser()
	sim.CloseIdleServers()
	return code
}

// Response is what a handler answered.
type Response struct {
	Status int
	Header http.Header
	Body   string
}

// Get asks h for url; headers are name, value pairs ("Host" sets the
// request's host).
func Get(t testing.TB, h http.Handler, url string, headers ...string) Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, url, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" { // Go keeps the Host header apart
			req.Host = headers[i+1]
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return Response{rec.Code, rec.Header(), rec.Body.String()}
}

// MustGet is Get's body, failing the test on anything but a 200.
func MustGet(t *testing.T, h http.Handler, url string) string {
	t.Helper()
	r := Get(t, h, url)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s = %d\n%s", url, r.Status, r.Body)
	}
	return r.Body
}

// Escape is s as an HTML attribute holds it.
func Escape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")
	return r.Replace(s)
}

// HrefOf finds the href of the element with this id.
func HrefOf(body, id string) (string, bool) {
	m := regexp.MustCompile(`id="` + id + `"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*id="` + id + `"`).FindStringSubmatch(body)
	if m == nil {
		return "", false
	}
	return html.UnescapeString(m[1] + m[2]), true
}

// OG is the content of a page's Open Graph tag og:<prop> (unescaped;
// "" when it has none).
func OG(body, prop string) string {
	m := regexp.MustCompile(`<meta property="og:` + regexp.QuoteMeta(prop) + `" content="([^"]*)"`).FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

// A lesson page's way on: its Next link, or its checkpoint form.
var (
	NextRe   = regexp.MustCompile(`id="next" class="button primary" href="([^"]+)"`)
	AskRe    = regexp.MustCompile(`(?s)<form class="checkpoint" id="ask" tabindex="-1" method="get" action="([^"]+)".*?</form>`)
	hiddenRe = regexp.MustCompile(`<input type="hidden" name="(do|opt)" value="([^"]*)"`)
)

// NextURL is where #next leads: the Next link's address, or the address a
// browser builds when the checkpoint form is submitted without a guess.
func NextURL(body string) (string, bool) {
	if m := NextRe.FindStringSubmatch(body); m != nil {
		return strings.ReplaceAll(m[1], "&amp;", "&"), true
	}
	f := AskRe.FindStringSubmatch(body)
	if f == nil {
		return "", false
	}
	var parts []string
	for _, h := range hiddenRe.FindAllStringSubmatch(f[0], -1) {
		parts = append(parts, h[1]+"="+h[2])
	}
	return f[1] + "?" + strings.Join(parts, "&"), true
}

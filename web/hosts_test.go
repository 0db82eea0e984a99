package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"locklab/web"
	"locklab/web/class"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/site"
)

// TestHostsPinned: with -hosts (or -public-url) the site's address is
// pinned. A request for another host gets a 421 page in its language, and
// a form posted from a page on another name that points at this server
// (DNS rebinding: Host and Origin both evil.example) is refused; the
// machine itself (loopback) and the pinned names still work. Without
// either, a classroom LAN's any address works as before (security test
// F11).
func TestHostsPinned(t *testing.T) {
	classroom := func() *class.Classroom {
		rdb, _ := webtest.MiniRDB(t)
		c, err := class.NewClassroom(context.Background(), rdb, class.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	pinned := sitetest.Handler(t, web.Config{Config: site.Config{Version: "test",
		Hosts: []string{"locklab.example.org"}, PublicURL: "https://locklab.example.org"}, Class: classroom()})
	open := sitetest.Handler(t, web.Config{Config: site.Config{Version: "test"}, Class: classroom()})
	get := func(h http.Handler, host, path string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", path, nil)
		r.Host = host
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	post := func(h http.Handler, host, origin string) int {
		r := httptest.NewRequest("POST", "/en/class", strings.NewReader("lesson=fencing&do=&opt="))
		r.Host = host
		r.Header.Set("Origin", origin)
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	if w := get(pinned, "evil.example", "/ja/"); w.Code != http.StatusMisdirectedRequest || !strings.Contains(w.Body.String(), "evil.example") ||
		!strings.Contains(w.Body.String(), "lang=\"ja\"") {
		t.Errorf("pinned, Host evil.example: %d, want 421 saying so in Japanese", w.Code)
	}
	for _, host := range []string{"locklab.example.org", "LockLab.Example.org:443", "127.0.0.1:8080", "localhost", "[::1]:8080"} {
		if w := get(pinned, host, "/en/"); w.Code != http.StatusOK {
			t.Errorf("pinned, Host %s: %d, want 200", host, w.Code)
		}
	}
	if w := get(pinned, "evil.example", "/healthz"); w.Code != http.StatusOK {
		t.Errorf("pinned, /healthz for any host: %d, want 200 (a balancer's probe)", w.Code)
	}
	if code := post(pinned, "evil.example", "http://evil.example"); code < 400 {
		t.Errorf("pinned, a form from a rebound name: %d, want it refused", code)
	}
	if code := post(pinned, "locklab.example.org", "https://locklab.example.org"); code != http.StatusSeeOther {
		t.Errorf("pinned, a form from the site: %d, want 303", code)
	}
	if code := post(open, "192.168.1.20:8080", "http://192.168.1.20:8080"); code != http.StatusSeeOther {
		t.Errorf("not pinned, a form from the LAN address: %d, want 303", code)
	}
	if w := get(open, "anything.example", "/en/"); w.Code != http.StatusOK {
		t.Errorf("not pinned, any host: %d, want 200", w.Code)
	}
}

// TestForwardedProtoOnlyFromTrustedProxy: a client's own
// X-Forwarded-Proto does not make the page's absolute links https (nor
// the page cached for everyone); behind the operator's proxy
// (-trust-proxy) it does (security retest N6).
func TestForwardedProtoOnlyFromTrustedProxy(t *testing.T) {
	for _, trust := range []bool{false, true} {
		h := sitetest.Handler(t, web.Config{Config: site.Config{Version: "test", TrustProxy: trust}})
		r := httptest.NewRequest("GET", "/en/lessons/ttl", nil)
		r.Host = "lab.example"
		r.Header.Set("X-Forwarded-Proto", "https")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		want := `content="http://lab.example/en/lessons/ttl"`
		if trust {
			want = `content="https://lab.example/en/lessons/ttl"`
		}
		if !strings.Contains(w.Body.String(), want) {
			t.Errorf("trust-proxy %v: the page's og:url is not %s", trust, want)
		}
	}
}

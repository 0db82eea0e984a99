package webtest

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"locklab/lessons"
)

// MiniRDB is a class Redis as main.go makes it by default: a miniredis
// reached through in-memory pipes.
func MiniRDB(t testing.TB) (redis.UniversalClient, *miniredis.Miniredis) {
	t.Helper()
	m := miniredis.NewMiniRedis()
	rdb := redis.NewClient(&redis.Options{Addr: "class-rooms",
		Dialer: func(context.Context, string, string) (net.Conn, error) { return m.Dial() }})
	t.Cleanup(func() { _ = rdb.Close(); m.Close() })
	return rdb, m
}

// FencingAsk is the fencing lesson's first step that asks a checkpoint
// (the next step's), and that next step.
func FencingAsk(t testing.TB) (ask, reveal lessons.Step, cp int) {
	t.Helper()
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	l, _ := course.Get("en", "fencing")
	for i := 1; i < len(l.Steps); i++ {
		if l.Steps[i].Checkpoint != nil {
			return l.Steps[i-1], l.Steps[i], i + 1
		}
	}
	t.Fatal("fencing has no checkpoint")
	return
}

var NoRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// Post sends a form as a browser on site would (Origin set) with cookies.
func Post(t testing.TB, site, path string, form url.Values, cookies ...*http.Cookie) *http.Response {
	t.Helper()
	res, _ := PostPage(t, site, path, form, cookies...)
	return res
}

// PostPage is Post that also reads the answer's body.
func PostPage(t testing.TB, site, path string, form url.Values, cookies ...*http.Cookie) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, site+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", site)
	for _, c := range cookies {
		req.AddCookie(c)
	}
	res, err := NoRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b)
}

func GetPage(t testing.TB, site, path string, cookies ...*http.Cookie) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, site+path, nil)
	for _, c := range cookies {
		req.AddCookie(c)
	}
	res, err := NoRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b)
}

func CookieNamed(res *http.Response, prefix string) *http.Cookie {
	for _, c := range res.Cookies() {
		if strings.HasPrefix(c.Name, prefix) {
			return c
		}
	}
	return nil
}

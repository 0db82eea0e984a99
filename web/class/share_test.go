package class_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"locklab/web"
	"locklab/web/class"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/limits"
	"locklab/web/site"
)

// TestClassShare: behind a trusted proxy, each client (the address the
// proxy appended to X-Forwarded-For) has its own share of new student ids
// and of class streams: one client past its share gets 429 with
// Retry-After, another is served as before.
func TestClassShare(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	c, err := class.NewClassroom(context.Background(), rdb, class.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	lim := limits.New(true, map[limits.Kind]limits.Rule{
		limits.Join: {Every: time.Hour, Burst: 1}, limits.Stream: {Every: time.Hour, Burst: 1}})
	srv := httptest.NewServer(sitetest.Handler(t, web.Config{Config: site.Config{Version: "test", Limits: lim}, Class: c}))
	t.Cleanup(func() { c.Close(); srv.Close() })
	code, teacher := startClass(t, srv.URL, "en", "", "")
	// get answers path as the client behind ip, with the cookies given;
	// a stream is closed as soon as its headers came.
	get := func(path, ip string, cookies ...*http.Cookie) *http.Response {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
		req.Header.Set("X-Forwarded-For", "203.0.113.250, "+ip) // the first entry is the client's own word
		for _, ck := range cookies {
			req.AddCookie(ck)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	student := "/en/class/" + code
	if res := get(student, "10.0.0.1"); res.StatusCode != http.StatusOK {
		t.Fatalf("the first student of 10.0.0.1: %d", res.StatusCode)
	}
	if res := get(student, "10.0.0.1"); res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Errorf("a second new student from 10.0.0.1: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if res := get(student, "10.0.0.2"); res.StatusCode != http.StatusOK {
		t.Errorf("a student from 10.0.0.2: %d", res.StatusCode)
	}
	events := student + "/events"
	if res := get(events, "10.0.0.1", teacher); res.StatusCode != http.StatusOK {
		t.Fatalf("the first stream of 10.0.0.1: %d", res.StatusCode)
	}
	if res := get(events, "10.0.0.1", teacher); res.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a second stream from 10.0.0.1: %d", res.StatusCode)
	}
	if res := get(events, "10.0.0.2", teacher); res.StatusCode != http.StatusOK {
		t.Errorf("a stream from 10.0.0.2: %d", res.StatusCode)
	}
}

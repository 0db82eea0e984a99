package class_test

import (
	"context"
	"locklab/web/class"
	"locklab/web/internal/webtest"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"locklab/sim/redistest"
)

// realRDB is a client of a fresh redis-server (skipped locally without
// one, a failure under CI).
func realRDB(t testing.TB, srv *redistest.Server) redis.UniversalClient {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	t.Cleanup(func() { _ = rdb.Close() })
	return rdb
}

// TestClassTwoInstances is the scaled-out set-up: two app instances on one
// redis-server. The teacher is on instance 1, students on both; a move
// reaches the stream on instance 2, answers from both instances count
// once each, and ending the class removes every key.
func TestClassTwoInstances(t *testing.T) {
	srv := redistest.Start(t, 1)[0]
	one := newClassSite(t, realRDB(t, srv), class.Limits{})
	two := newClassSite(t, realRDB(t, srv), class.Limits{})
	ask, reveal, cp := webtest.FencingAsk(t)
	code, teacher := startClass(t, one.URL, "en", "", "")

	s1 := joinClass(t, one.URL, "en", code)
	s2 := joinClass(t, two.URL, "ja", code) // a Japanese student on the other instance
	on1 := openSSE(t, http.DefaultClient, one.URL, "/en/class/"+code+"/events", "", s1)
	on2 := openSSE(t, http.DefaultClient, two.URL, "/ja/class/"+code+"/events", "", s2)
	teach := openSSE(t, http.DefaultClient, one.URL, "/en/class/"+code+"/events", "", teacher)

	if res := webtest.Post(t, one.URL, "/en/class/"+code+"/move", url.Values{"do": {ask.Do}, "opt": {ask.Opt}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("move: %d", res.StatusCode)
	}
	for _, s := range []*sseClient{on1, on2} {
		if ev := s.next(t, "move"); ev.ID != "2" {
			t.Fatalf("move id %q", ev.ID)
		}
	}
	// the teacher's cookie works on either instance: the secret is in Redis
	if res, _ := webtest.GetPage(t, two.URL, "/en/class/"+code+"/teach", teacher); res.StatusCode != http.StatusOK {
		t.Fatalf("teacher page on instance 2: %d", res.StatusCode)
	}
	// each student answers on the other instance too: counted once each
	for i, a := range []struct {
		site string
		sid  *http.Cookie
	}{{one.URL, s1}, {two.URL, s2}, {two.URL, s1}, {one.URL, s2}} {
		want := http.StatusSeeOther
		res := webtest.Post(t, a.site, "/en/class/"+code+"/answer", url.Values{"step": {strconv.Itoa(cp)}, "choice": {strconv.Itoa(i%2 + 1)}}, a.sid)
		if res.StatusCode != want {
			t.Fatalf("answer %d: %d, want %d", i, res.StatusCode, want)
		}
	}
	teach.next(t, "votes")
	counts, err := two.class.Counts(context.Background(), code, cp, 3)
	if err != nil || counts[0] != 1 || counts[1] != 1 || counts[2] != 0 {
		t.Fatalf("counts %v %v", counts, err)
	}
	// presence is in Redis: instance 1's teacher counts the student on
	// instance 2, once; a cookie-less visit there adds no one
	visitClass(t, two.URL, "en", code)
	if _, bar := webtest.GetPage(t, one.URL, "/en/class/"+code+"/bar", teacher); !strings.Contains(bar, ">2 connected<") {
		t.Errorf("the teacher's bar on instance 1 does not say 2 connected")
	}
	if n := one.class.Connected(context.Background(), code); n != 2 {
		t.Errorf("connected %d, want 2", n)
	}
	// reveal on instance 2 this time
	if res := webtest.Post(t, two.URL, "/en/class/"+code+"/move", url.Values{"do": {reveal.Do}, "opt": {reveal.Opt}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("reveal: %d", res.StatusCode)
	}
	on1.next(t, "move")
	on2.next(t, "move")
	if res := webtest.Post(t, one.URL, "/en/class/"+code+"/end", nil, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("end: %d", res.StatusCode)
	}
	on1.next(t, "end")
	on2.next(t, "end")
	if keys := roomKeys(t, one.class.RDB(), code); len(keys) != 0 {
		t.Fatalf("keys left after the end: %v", keys)
	}
	if n, _ := one.class.RDB().ZScore(context.Background(), class.RoomsKey, code).Result(); n != 0 {
		t.Fatal("room still counted")
	}
}

package limits

import (
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// TestBucketPerClient: one client's burst runs out and refills at its
// rate; another client's bucket is its own; a kind without a rule is
// never limited. The clock is the test's, so no waiting.
func TestBucketPerClient(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	l := New(false, map[Kind]Rule{Explore: {Every: time.Second, Burst: 3}})
	l.now = func() time.Time { return now }
	a, b := httptest.NewRequest("GET", "/", nil), httptest.NewRequest("GET", "/", nil)
	a.RemoteAddr, b.RemoteAddr = "10.0.0.1:5000", "10.0.0.2:5000"
	for i := range 3 {
		if ok, _ := l.Allow(a, Explore); !ok {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	ok, retry := l.Allow(a, Explore)
	if ok || retry <= 0 || retry > time.Second {
		t.Fatalf("past the burst: ok %v, retry after %v", ok, retry)
	}
	if ok, _ := l.Allow(b, Explore); !ok {
		t.Fatal("another client was refused")
	}
	if ok, _ := l.Allow(a, Join); !ok {
		t.Fatal("a kind without a rule was limited")
	}
	now = now.Add(time.Second)
	if ok, _ := l.Allow(a, Explore); !ok {
		t.Fatal("a second later, one more is allowed")
	}
	if ok, _ := l.Allow(a, Explore); ok {
		t.Fatal("and only one")
	}
}

// TestClientOf: the remote address, or behind a trusted proxy the address
// the proxy appended; a client's own X-Forwarded-For counts for nothing
// when no proxy is trusted.
func TestClientOf(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r.RemoteAddr = "192.0.2.7:4444"
	r.Header.Add("X-Forwarded-For", "203.0.113.9, 198.51.100.3")
	if got := ClientOf(r, false); got != "192.0.2.7" {
		t.Errorf("untrusted: %q", got)
	}
	if got := ClientOf(r, true); got != "198.51.100.3" {
		t.Errorf("trusted: %q", got)
	}
	r.Header.Set("X-Forwarded-For", "not an address")
	if got := ClientOf(r, true); got != "192.0.2.7" {
		t.Errorf("trusted, garbage: %q", got)
	}
	// a Limiter tells clients apart as it is told to; none trusts no proxy
	r.Header.Set("X-Forwarded-For", "198.51.100.3")
	var none *Limiter
	if got := none.Client(r); got != "192.0.2.7" {
		t.Errorf("no limiter: %q", got)
	}
	if got := New(true, nil).Client(r); got != "198.51.100.3" {
		t.Errorf("a limiter behind a trusted proxy: %q", got)
	}
}

// TestBucketsBounded: past MaxClients the least recently seen client is
// forgotten; the map never grows past it.
func TestBucketsBounded(t *testing.T) {
	l := New(false, map[Kind]Rule{Explore: {Every: time.Hour, Burst: 1}})
	r := httptest.NewRequest("GET", "/", nil)
	for i := range MaxClients + 500 {
		r.RemoteAddr = "10.1." + strconv.Itoa(i/256) + "." + strconv.Itoa(i%256) + ":1"
		l.Allow(r, Explore)
	}
	if n := l.buckets[Explore].Len(); n != MaxClients {
		t.Fatalf("%d buckets kept, want %d", n, MaxClients)
	}
}

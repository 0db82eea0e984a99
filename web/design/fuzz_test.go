package design_test

import (
	"locklab/web/design"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/links"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
)

// FuzzDesignURL: whatever a design URL's query carries, reading it never
// panics, a design it accepts has a canonical link of bounded length that
// reads back as the same design, and the counterexample page (a replay of
// the learner's scripts, no search) answers below 500.
//
//	go test ./web -run '^$' -fuzz '^FuzzDesignURL$' -fuzztime 2m
func FuzzDesignURL(f *testing.F) {
	h := sitetest.Default(f)
	for _, s := range []string{"", "release=del", "acquire=get-set&release=get-del&write=split", "extend=pexpire&ttl=2s&work=5s",
		"release=nope", "release=z.AAAA", "release=z.!!", "ttl=0s", "work=61s", "release=return+1&release=return+0",
		"release=while+true+do+end", "write=return+redis.call('FLUSHALL')", "acquire=%00", "release=%E2%80%AE",
		"release=return+redis.call('DEL',+KEYS[1])&clients=2&do=a.acquire,a.release", "clients=3&do=a.acquire,b.acquire,a.pause,wait.10s",
		"clients=9&do=a.acquire", "do=x.y", "release=--+then%0A--+then%0A--+then%0Areturn+1",
		"effect=add&clients=2&do=a.acquire,a.drop,a.write,a.next", "write=strict&effect=add", "effect=set", "effect=", "write=none&effect=add&do=a.drop,a.drop"} {
		f.Add(s)
	}
	u := i18n.For("ja")
	f.Fuzz(func(t *testing.T, rawQuery string) {
		if q, err := url.ParseQuery(rawQuery); err == nil {
			if d, e := design.Parse(u, q, "clients", "do"); e == nil {
				canon := links.DesignQuery(d)
				if len(canon) > links.DesignMaxLink {
					t.Fatalf("%q: canonical link of %d bytes", rawQuery, len(canon))
				}
				back, err := url.ParseQuery(canon)
				if err != nil {
					t.Fatalf("%q: canonical %q does not parse: %v", rawQuery, canon, err)
				}
				again, e := design.Parse(u, back)
				if e != nil || *again != *d {
					t.Fatalf("%q: canonical %q reads back differently", rawQuery, canon)
				}
			}
		}
		req, err := http.NewRequest(http.MethodGet, "/en/lab/design/run?"+rawQuery, nil)
		if err != nil {
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("GET /en/lab/design/run?%s = %d\n%s", rawQuery, rec.Code, rec.Body.String())
		}
	})
}

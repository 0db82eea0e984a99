package lab_test

import (
	"locklab/web/internal/sitetest"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FuzzLabURL: whatever a Lab URL's query carries, the Lab answers below
// 500. Valid queries explore (the seeds stay cheap: small budgets), and the
// rest must be refused with a 4xx.
//
//	go test ./web -run '^$' -fuzz '^FuzzLabURL$' -fuzztime 2m
func FuzzLabURL(f *testing.F) {
	h := sitetest.Default(f)
	for _, s := range []string{"", "lesson=fencing&pauses=0", "lesson=ttl&opt=ttl.off&pauses=0&crashes=1",
		"lesson=fencing&pause=1s,2s&depth=6", "lesson=nope", "lesson=fencing&clients=9", "opt-fence=off&lesson=fencing&pauses=0",
		"lesson=fencing&pause=%ff", "depth=4&lesson=redlock&pauses=0", "lesson=failover&nodes=1&pauses=0&depth=5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rawQuery string) {
		req, err := http.NewRequest(http.MethodGet, "/en/lab?"+rawQuery, nil)
		if err != nil {
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("GET /en/lab?%s = %d\n%s", rawQuery, rec.Code, rec.Body.String())
		}
	})
}

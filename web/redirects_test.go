package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
)

// reencode is what Python's requests and many link unfurlers do to an
// address before sending it: [ ] ( ) and ' percent-encoded.
var reencode = strings.NewReplacer("[", "%5B", "]", "%5D", "(", "%28", ")", "%29", "'", "%27").Replace

// TestRedirectsEveryClientCanFollow: a client that encodes what the site
// writes bare reaches the page in a few redirects at most, instead of
// being sent back to the bare form for ever (security test F14: every
// EVAL and design link looped in Python's requests).
func TestRedirectsEveryClientCanFollow(t *testing.T) {
	h := sitetest.Default(t)
	for _, start := range []string{
		"/en/lessons/ttl?do=" + url.QueryEscape(`cli.redis.EVAL "return ARGV[1]" 1 k v`) + "&opt=ttl.off",
		"/en/lab/design?acquire=" + url.QueryEscape("return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"),
		"/en/lab/design/run?clients=2&do=a.acquire&release=" + url.QueryEscape("return redis.call('DEL', KEYS[1])"),
		"/en/embed/lab/design/run?clients=2&do=a.acquire&release=" + url.QueryEscape("return redis.call('DEL', KEYS[1])"),
	} {
		at, hops := reencode(start), 0
		for ; hops < 5; hops++ {
			r := webtest.Get(t, h, at)
			if r.Status != http.StatusSeeOther && r.Status != http.StatusMovedPermanently {
				if r.Status != http.StatusOK {
					t.Errorf("%s ends at %s with %d", start, at, r.Status)
				}
				break
			}
			at = reencode(r.Header.Get("Location"))
		}
		if hops == 5 {
			t.Errorf("%s: still redirected after 5 hops (at %s)", start, at)
		}
	}
}

// TestMalformedQueryExplained: a query Go's parser cannot read gets a 400
// that says so in the page's language, with the page itself offered,
// rather than a silent redirect to the lesson's start (security test F16).
func TestMalformedQueryExplained(t *testing.T) {
	h := sitetest.Default(t)
	for _, q := range []string{"do=a.acquire%", "do=%zz"} {
		r := webtest.Get(t, h, "/ja/lessons/ttl?"+q)
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, "16 進数") || strings.Contains(r.Body, "「;」") ||
			!strings.Contains(r.Body, `href="/ja/lessons/ttl"`) {
			t.Errorf("?%s: %d, want a 400 in Japanese explaining the %%, with the page offered", q, r.Status)
		}
	}
	// a ; is told as the rule it broke, with the link mended
	r := webtest.Get(t, h, "/ja/lessons/ttl?do=a.acquire;opt=ttl.off")
	if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, "「;」") || strings.Contains(r.Body, "16 進数") ||
		!strings.Contains(r.Body, `href="/ja/lessons/ttl?do=a.acquire&amp;opt=ttl.off"`) {
		t.Errorf("?do=a.acquire;opt=ttl.off: %d, want a 400 about the ; offering the link with &", r.Status)
	}
}

// TestBadActionKeepsWhatReads: a link whose nth action is not one offers
// the timeline of the actions before it, on the link's variant; a link
// whose first action is bad offers the variant alone (a fresh reader:
// "Start the lesson over" dropped opt= and a valid a.acquire).
func TestBadActionKeepsWhatReads(t *testing.T) {
	h := sitetest.Default(t)
	for q, want := range map[string]string{
		"do=a.acquire,zq&opt=ttl.off":    `href="/en/lessons/ttl?do=a.acquire&amp;opt=ttl.off"`,
		"do=zq,a.acquire&opt=ttl.off":    `href="/en/lessons/ttl?opt=ttl.off"`,
		"do=a.acquire,b.acquire,%7B9%7D": `href="/en/lessons/ttl?do=a.acquire,b.acquire"`,
	} {
		r := webtest.Get(t, h, "/en/lessons/ttl?"+q)
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, want) {
			t.Errorf("?%s: %d, want a 400 offering %s", q, r.Status, want)
		}
	}
}

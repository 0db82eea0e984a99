package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestShareThisMoment: the page shows its own absolute address — under
// -public-url when given, else at the host the browser used — and links a
// QR code image of exactly that address, fetched only when opened.
func TestShareThisMoment(t *testing.T) {
	path := "/en/lessons/fencing?do=a.acquire,a.pause"
	for _, tc := range []struct {
		public, host, want string
	}{
		{"", "10.0.0.5:8080", "http://10.0.0.5:8080" + path},
		{"https://locks.example.org/", "127.0.0.1:8080", "https://locks.example.org" + path},
	} {
		h := newServerWith(t, Config{Version: "t", CacheBytes: 1 << 20, PublicURL: tc.public})
		page := get(t, h, path, "Host", tc.host)
		if page.status != http.StatusOK || !strings.Contains(page.body, `>`+tc.want+`</a>`) {
			t.Fatalf("page at %s (public %q) does not show %s", tc.host, tc.public, tc.want)
		}
		if !strings.Contains(page.body, `<img class="qr" src="/en/lessons/fencing/qr.svg?do=a.acquire,a.pause"`) ||
			!strings.Contains(page.body, `loading="lazy"`) {
			t.Fatal("the page does not link its QR code lazily")
		}
		r := get(t, h, "/en/lessons/fencing/qr.svg?do=a.acquire,a.pause", "Host", tc.host)
		want, err := qrSVG(tc.want)
		if err != nil {
			t.Fatal(err)
		}
		if r.status != http.StatusOK || r.body != string(want) || r.header.Get("Content-Type") != "image/svg+xml" ||
			!strings.HasPrefix(r.header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("qr.svg at %s: status %d, type %q, same code as %s: %v", tc.host, r.status, r.header.Get("Content-Type"), tc.want, r.body == string(want))
		}
		// Another host is another picture (and another ETag).
		other := get(t, h, "/en/lessons/fencing/qr.svg?do=a.acquire,a.pause", "Host", "192.168.9.9:8080")
		if tc.public == "" && (other.body == r.body || other.header.Get("ETag") == r.header.Get("ETag")) {
			t.Error("the QR code does not follow the host")
		}
	}
	// A malformed state gets the usual 400 page, not a picture.
	h := newTestServer(t)
	if r := get(t, h, "/ja/lessons/fencing/qr.svg?do=a.fly"); r.status != http.StatusBadRequest || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Errorf("malformed state: %d %q", r.status, r.header.Get("Content-Type"))
	}
	// An address too long for any QR code: a clear 414, in the page's language.
	// (Only the longest actions can do it within the 200-action cap.)
	long := "/ja/lessons/failover/qr.svg?do=" + strings.TrimSuffix(strings.Repeat("replica.promote,", 200), ",")
	if r := get(t, h, long); r.status != http.StatusRequestURITooLong || !strings.Contains(r.body, "QR コードには長すぎます") {
		t.Errorf("too long for a QR code: %d", r.status)
	}
}

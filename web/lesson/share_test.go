package lesson_test

import (
	"context"
	"html"
	"locklab/web"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/lesson"
	"locklab/web/site"
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
		{"", "127.0.0.1:8080", "http://127.0.0.1:8080" + path},
	} {
		h := sitetest.Handler(t, web.Config{Config: site.Config{Version: "t", CacheBytes: 1 << 20, PublicURL: tc.public}})
		page := webtest.Get(t, h, path, "Host", tc.host)
		if page.Status != http.StatusOK || !strings.Contains(page.Body, `>`+tc.want+`</a>`) {
			t.Fatalf("page at %s (public %q) does not show %s", tc.host, tc.public, tc.want)
		}
		// a link to this machine's own address opens nowhere else: said so
		if warned := strings.Contains(page.Body, `id="share-loopback"`); warned != strings.Contains(tc.want, "127.0.0.1") {
			t.Errorf("share box for %s: loopback warning shown %v", tc.want, warned)
		}
		if !strings.Contains(page.Body, `<img class="qr" src="/en/lessons/fencing/qr.svg?do=a.acquire,a.pause"`) ||
			!strings.Contains(page.Body, `loading="lazy"`) {
			t.Fatal("the page does not link its QR code lazily")
		}
		r := webtest.Get(t, h, "/en/lessons/fencing/qr.svg?do=a.acquire,a.pause", "Host", tc.host)
		want, err := site.QRSVG(tc.want)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != http.StatusOK || r.Body != string(want) || r.Header.Get("Content-Type") != "image/svg+xml" ||
			!strings.HasPrefix(r.Header.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("qr.svg at %s: status %d, type %q, same code as %s: %v", tc.host, r.Status, r.Header.Get("Content-Type"), tc.want, r.Body == string(want))
		}
		// Another host is another picture (and another ETag).
		other := webtest.Get(t, h, "/en/lessons/fencing/qr.svg?do=a.acquire,a.pause", "Host", "192.168.9.9:8080")
		if tc.public == "" && (other.Body == r.Body || other.Header.Get("ETag") == r.Header.Get("ETag")) {
			t.Error("the QR code does not follow the host")
		}
	}
	// A malformed state gets the usual 400 page, not a picture.
	h := sitetest.Default(t)
	if r := webtest.Get(t, h, "/ja/lessons/fencing/qr.svg?do=a.fly"); r.Status != http.StatusBadRequest || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Errorf("malformed state: %d %q", r.Status, r.Header.Get("Content-Type"))
	}
	// An address too long for any QR code: a clear 414, in the page's language.
	// (Only the longest actions can do it within the 200-action cap.)
	long := "/ja/lessons/failover/qr.svg?do=" + strings.TrimSuffix(strings.Repeat("replica.promote,", 200), ",")
	if r := webtest.Get(t, h, long); r.Status != http.StatusRequestURITooLong || !strings.Contains(r.Body, "QR コードには長すぎます") {
		t.Errorf("too long for a QR code: %d", r.Status)
	}
}

// TestShareQRSize: the share box draws a QR code a phone can read off a
// screen, larger for a longer address, and none with the reason for an
// address too long to scan (a design run with scripts of its own).
func TestShareQRSize(t *testing.T) {
	u := i18n.For("en")
	for _, c := range []struct {
		n    int
		want string
	}{{120, ""}, {301, "large"}, {800, "large"}, {801, "none"}, {3300, "none"}} {
		s := lesson.ShareBox{UI: u, URL: "https://locklab.example/en/lab/design/run?x=" + strings.Repeat("a", c.n-44), QRURL: "/qr.svg"}
		if len(s.URL) != c.n {
			t.Fatalf("built a %d-character address, want %d", len(s.URL), c.n)
		}
		var b strings.Builder
		if err := lesson.ShareBoxView(s).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		img, note := strings.Contains(b.String(), `src="/qr.svg"`), strings.Contains(b.String(), html.EscapeString(u.QRTooLong))
		if s.QR() != c.want || img == (c.want == "none") || note != (c.want == "none") {
			t.Errorf("a %d-character address: QR %q (want %q), image %v, note %v", c.n, s.QR(), c.want, img, note)
		}
	}
}

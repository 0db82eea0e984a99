// share.go holds "share this moment": the current page's absolute address
// and its QR code, so students in a classroom can open the same timeline
// state on their phones.
package web

import (
	"net/http"
	"strconv"
	"strings"

	qr "github.com/piglig/go-qr"
)

// QR is a QR code drawn as one SVG path (dark modules), with a quiet zone.
type QR struct {
	ViewBox, Path string
}

// qrFor encodes text; a library does the encoding, the drawing is one path
// so it needs no inline style (strict CSP).
func qrFor(text string) *QR {
	code, err := qr.EncodeText(text, qr.Medium)
	if err != nil {
		return nil // too long for a QR code: the link is still shown
	}
	n := code.Size()
	var d strings.Builder
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if code.Module(x, y) {
				d.WriteString("M" + strconv.Itoa(x+4) + " " + strconv.Itoa(y+4) + "h1v1h-1z")
			}
		}
	}
	size := strconv.Itoa(n + 8)
	return &QR{ViewBox: "0 0 " + size + " " + size, Path: d.String()}
}

// absoluteURL is where a phone can open this page: under -public-url when
// the server sits behind a name or a proxy, else at the host the browser
// used (on a classroom LAN: the machine's address, with -addr 0.0.0.0:8080).
func (s *Server) absoluteURL(r *http.Request) string {
	path := r.URL.Path
	if r.URL.RawQuery != "" {
		path += "?" + r.URL.RawQuery
	}
	return s.absolute(r, path)
}

// absolute makes path (with its query) absolute the same way.
func (s *Server) absolute(r *http.Request, path string) string {
	if s.publicURL != "" {
		return strings.TrimSuffix(s.publicURL, "/") + path
	}
	scheme := "http"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "https"
	}
	return scheme + "://" + r.Host + path
}

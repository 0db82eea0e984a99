// share.go holds "share this moment": the current page's absolute address
// and its QR code, so students in a classroom can open the same timeline
// state on their phones.
package web

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	qr "github.com/piglig/go-qr"
)

// qrSVG draws text as a QR code: a standalone SVG, black modules as one
// path on white with the quiet zone, colours as attributes (no style).
// A library does the encoding.
func qrSVG(text string) ([]byte, error) {
	// Medium error correction reads best off a projector; a long
	// address falls back to Low, which holds more.
	code, err := qr.EncodeText(text, qr.Medium)
	if err != nil {
		if code, err = qr.EncodeText(text, qr.Low); err != nil {
			return nil, err
		}
	}
	n := code.Size()
	size := strconv.Itoa(n + 8)
	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ` + size + " " + size + `" shape-rendering="crispEdges">`)
	b.WriteString(`<rect width="100%" height="100%" fill="#fff"/><path fill="#000" d="`)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if code.Module(x, y) {
				b.WriteString("M" + strconv.Itoa(x+4) + " " + strconv.Itoa(y+4) + "h1v1h-1z")
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return b.Bytes(), nil
}

// shareQR answers /{lang}/lessons/{slug}/qr.svg with the QR code of the
// lesson page in the same state. It is an image of its own, fetched only
// when the learner opens "share this moment" (lazy, inside a closed
// details), so no step pays for encoding it. The state is parsed, not
// replayed: a QR code of a malformed state is a 400 like the page.
func (s *Server) shareQR(w http.ResponseWriter, r *http.Request) {
	rq := reqOf(r)
	u := rq.UI
	w = &svgHeaders{ResponseWriter: w, name: "locklab-qr.svg"}
	s.cached(w, r, u, func() ([]byte, string, *Error) {
		if rq.Err != nil {
			return nil, "", rq.Err
		}
		body, err := qrSVG(s.absolute(r, rq.Base()+rq.Moment()))
		if err != nil {
			return nil, "", &Error{Status: http.StatusRequestURITooLong, Code: "qr-too-long", Title: u.Share, Text: u.QRTooLong, Err: err}
		}
		return body, "image/svg+xml", nil
	})
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

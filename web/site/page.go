// page.go builds the frame every page shares and renders components.

package site

import (
	"bytes"
	"locklab/web/i18n"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	qr "github.com/piglig/go-qr"

	"github.com/a-h/templ"
)

// Page is the frame every page shares.
type Page struct {
	UI                        *i18n.UI
	Title                     string
	CSS, JS, App, Early, Icon string
	Chick, Penguin            string
	// EditorJS is the code editor's bundle (static/editor); Editor: the
	// page edits scripts and loads it at once. Other pages load it only
	// when the command line is first focused (app.js), so a lesson's
	// first load does not carry it.
	EditorJS string
	Editor   bool
	// Alternates are the same page in each other language, in the
	// registry's order; Switch is the one the language switch (and the
	// "l" key) goes to: the next language after this one.
	Alternates []Alternate
	Switch     Alternate
	Path       string
	// TeachForm is the id of the page's form that starts a class from
	// what it shows ("" if it has none): the header's "Teach a class"
	// submits it, beside Presenter mode.
	TeachForm string
	// Card is how a link to this page unfurls (nil: the site's tagline
	// only); it names the page's oEmbed answer too.
	Card *Card
	// Theme is an embed's theme= ("": the page is not an embed); Embed
	// its script (the height it tells the page around it).
	Theme, EmbedJS string
}

// Frame is the frame of a page titled title in u's language, for r.
func (s *Site) Frame(u *i18n.UI, title string, r *http.Request) Page {
	p := Page{
		UI: u, Title: title,
		CSS: s.Assets.URL("css/app.css"), JS: s.Assets.URL("vendor/htmx.min.js"), App: s.Assets.URL("js/app.js"), Early: s.Assets.URL("js/early.js"),
		Icon: s.Assets.URL("img/favicon.svg"), Chick: s.Assets.URL("img/chick.svg"),
		Penguin: s.Assets.URL("img/penguin.svg"), EditorJS: s.Assets.URL("vendor/editor.min.js"),
		Path: r.URL.Path, Theme: ThemeOf(r), EmbedJS: s.Assets.URL("js/embed.js"),
	}
	p.Alternates, p.Switch = alternates(u, r)
	return p
}

// Alternate is a page's address in another language.
type Alternate struct {
	Lang *i18n.Language
	URL  string
}

// alternates are the request's address in every other language (the
// first path segment swapped, the query, the timeline, kept), and the one
// after u's in the registry, which the switch offers first.
func alternates(u *i18n.UI, r *http.Request) ([]Alternate, Alternate) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/"+u.Lang+"/")
	var all []Alternate
	var next Alternate
	langs := i18n.Languages()
	for i, l := range langs {
		if l.UI == u {
			next.Lang = langs[(i+1)%len(langs)]
			continue
		}
		alt := "/" + l.Code + "/"
		if ok && len(rest) <= maxAltPath { // no page has a longer path; a 64 KB one is not echoed
			alt += rest
			if r.URL.RawQuery != "" && len(r.URL.RawQuery) <= MaxQuery {
				alt += "?" + r.URL.RawQuery
			}
		}
		all = append(all, Alternate{Lang: l, URL: alt})
	}
	for _, a := range all {
		if a.Lang == next.Lang {
			next = a
		}
	}
	return all, next
}

// Render writes a component with a 200, or an internal error page if it
// fails before anything was sent.
func (s *Site) Render(w http.ResponseWriter, r *http.Request, c templ.Component) {
	body, typ, e := s.RenderBytes(r, s.UIFor(r), c)
	if e != nil {
		s.Fail(w, r, s.UIFor(r), e)
		return
	}
	w.Header().Set("Content-Type", typ)
	_, _ = w.Write(body)
}

// RenderBytes renders a component to HTML bytes (for the cache).
func (s *Site) RenderBytes(r *http.Request, u *i18n.UI, c templ.Component) ([]byte, string, *Error) {
	var buf bytes.Buffer
	if err := c.Render(r.Context(), &buf); err != nil {
		return nil, "", Internal(u, err)
	}
	return buf.Bytes(), "text/html; charset=utf-8", nil
}

// switchID is "lang-switch" on the menu's link to the next language.
func switchID(a, next Alternate) string {
	if a.Lang == next.Lang {
		return "lang-switch"
	}
	return ""
}

// LoopbackHost is the host of raw if it is this machine's own address
// (localhost, 127.0.0.1, ::1), which opens on no other device; "" if not.
func LoopbackHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && ip.IsLoopback()) {
		return host
	}
	return ""
}

// AbsoluteURL is where a phone can open this page: under -public-url when
// the server sits behind a name or a proxy, else at the host the browser
// used (on a classroom LAN: the machine's address, with -addr 0.0.0.0:8080).
func (s *Site) AbsoluteURL(r *http.Request) string {
	path := r.URL.Path
	if r.URL.RawQuery != "" {
		path += "?" + r.URL.RawQuery
	}
	return s.Absolute(r, path)
}

// Absolute makes path (with its query) absolute the same way.
func (s *Site) Absolute(r *http.Request, path string) string {
	if s.publicURL != "" {
		return strings.TrimSuffix(s.publicURL, "/") + path
	}
	scheme := "http"
	if s.HTTPS(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host + path
}

// HTTPS reports whether the browser reached the site over HTTPS: its own
// connection, or the operator's proxy saying so (Config.TrustProxy).
func (s *Site) HTTPS(r *http.Request) bool {
	return r.TLS != nil || (s.trustProxy && r.Header.Get("X-Forwarded-Proto") == "https")
}

// UIFor is the language of a request: the path's, else the browser's.
func (s *Site) UIFor(r *http.Request) *i18n.UI {
	seg, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if i18n.Valid(seg) {
		return i18n.For(seg)
	}
	return i18n.For(Negotiate(r))
}

// Negotiate picks the language the request's Accept-Language asks for.
func Negotiate(r *http.Request) string { return i18n.Negotiate(r.Header.Get("Accept-Language")) }

// MaxQuery bounds the raw query string before anything parses it.
const MaxQuery = 8192

// SameQuery reports whether two raw queries are the same address as
// clients normalise them: an unreserved character and its %XX alike
// (RFC 3986), [ and ] and their %5B %5D alike (RFC 3986 does not allow
// them bare in a query, so Python's requests and many link unfurlers
// encode the [ ] the site writes in KEYS[1]), the ( ) ' ! * of Lua code
// alike encoded or not (some clients encode them too), %5b and %5B
// alike. The
// canonical-address redirects compare with it, so such a client is
// served, not sent back to the bare form for ever (security test F14);
// a %2C still goes to the canonical comma.
func SameQuery(a, b string) bool { return a == b || normQuery(a) == normQuery(b) }

// normQuery decodes each %XX that stands for an unreserved character, a
// bracket or ( ) ' ! *, and upper-cases the hex of the others.
func normQuery(q string) string {
	if !strings.Contains(q, "%") {
		return q
	}
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if q[i] == '%' && i+2 < len(q) && ishex(q[i+1]) && ishex(q[i+2]) {
			c := unhex(q[i+1])<<4 | unhex(q[i+2])
			if strings.IndexByte("-_.~[]()'!*", c) >= 0 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
				b.WriteByte(c)
			} else {
				b.WriteString(strings.ToUpper(q[i : i+3]))
			}
			i += 2
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

func ishex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// maxAltPath bounds the path the language switch carries over.
const maxAltPath = 512

// HostAllowed reports whether the server answers to host (a request's
// Host): any host, unless -hosts names some; then those, -public-url's,
// and loopback ones (the machine itself). A host it does not answer to
// gets 421 (middleware.RequireHost), so a DNS name pointed at the server
// by someone else (DNS rebinding) reaches nothing.
func (s *Site) HostAllowed(host string) bool {
	if len(s.hosts) == 0 || loopbackHost(host) {
		return true
	}
	host = strings.ToLower(host)
	if s.publicURL != "" {
		if p, err := url.Parse(s.publicURL); err == nil && strings.EqualFold(p.Host, host) {
			return true
		}
	}
	name, _, err := net.SplitHostPort(host)
	if err != nil {
		name = host
	}
	for _, h := range s.hosts {
		if h == host || h == name {
			return true
		}
	}
	return false
}

// TrustedOrigin reports whether origin (a form's Origin header) is this
// site: -public-url's origin; or the origin the browser reached, when
// nothing pins the site's address (no -public-url, no -hosts: a
// classroom LAN, where any address of the machine is the site) or that
// host is one the server answers to by name (-hosts) or loopback. With
// the address pinned, a page on another name that points at this server
// cannot post as the site.
func (s *Site) TrustedOrigin(r *http.Request, origin string) bool {
	if s.publicURL != "" {
		if p, err := url.Parse(s.publicURL); err == nil && origin == p.Scheme+"://"+p.Host {
			return true
		}
	}
	scheme := "http"
	if s.HTTPS(r) {
		scheme = "https"
	}
	if origin != scheme+"://"+r.Host {
		return false
	}
	pinned := s.publicURL != "" || len(s.hosts) > 0
	return !pinned || loopbackHost(r.Host) || (len(s.hosts) > 0 && s.HostAllowed(r.Host))
}

// loopbackHost: host (with or without a port) is this machine by any
// name a browser resolves locally.
func loopbackHost(host string) bool {
	name, _, err := net.SplitHostPort(host)
	if err != nil {
		name = host
	}
	name = strings.Trim(name, "[]")
	if strings.EqualFold(name, "localhost") {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// PublicURL is the site's address as phones reach it ("": the host each
// browser used).
func (s *Site) PublicURL() string { return s.publicURL }

// QRSVG draws text as a QR code: a standalone SVG, black modules as one
// path on white with the quiet zone, colours as attributes (no style).
// A library does the encoding.
func QRSVG(text string) ([]byte, error) {
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

// QRImage is the QR code of address as a cached file's body and type, or
// the 414 that says the address is too long for one (every share box's
// and the class's QR code answer the same).
func QRImage(u *i18n.UI, address string) ([]byte, string, *Error) {
	body, err := QRSVG(address)
	if err != nil {
		return nil, "", &Error{Status: http.StatusRequestURITooLong, Code: "qr-too-long", Title: u.Share, Text: u.QRTooLong, Err: err}
	}
	return body, "image/svg+xml", nil
}

// Choice is one radio button.
type Choice struct {
	Value, Label string
	Checked      bool
}

// Package oembed answers oEmbed (https://oembed.com/, "rich" type, JSON)
// for Lock Lab's timelines, so that a site which reads oEmbed turns a
// pasted link to a lesson step, a Lab counterexample, a design run or a
// challenge into the live timeline: an iframe of the moment's embed
// (/{lang}/embed/…, which every timeline page names in its discovery
// link).
//
// It asks the site's own routes for that embed, as a browser would, and
// answers only when the embed answers: the oEmbed answer exists exactly
// when the frame it describes works, and its title is the embed's own.
// It imports no feature: which pages have an embed, the embed routes say
// (any other address is their 404), and the iframe is site's.
package oembed

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"locklab/web/i18n"
	"locklab/web/site"
)

// Handler serves /oembed. Pages is the site's router, set once the
// routes are built (the embed it describes is one of them).
type Handler struct {
	*site.Site
	Pages http.Handler
}

// New builds the oEmbed endpoint's handler.
func New(s *site.Site) *Handler { return &Handler{Site: s} }

// Answer is an oEmbed "rich" response: the fields the specification
// requires of every type (type, version) and of the rich type (html,
// width, height), with the title and the provider.
type Answer struct {
	Type         string `json:"type"`
	Version      string `json:"version"`
	Title        string `json:"title"`
	ProviderName string `json:"provider_name"`
	ProviderURL  string `json:"provider_url"`
	HTML         string `json:"html"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
	CacheAge     int    `json:"cache_age"`
}

// ServeHTTP answers /oembed?url=…[&format=json][&maxwidth=…][&maxheight=…].
// Its errors are JSON, in the language of the address asked about (else
// the browser's): 400 for a malformed request, 404 for an address that
// is not one of this site's timelines (or one its embed refuses, with the
// embed's own status when that is a 4xx), 501 for a format other than
// JSON, as the specification says.
func (s *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r = site.JSONErrors(r)
	w.Header().Set("Access-Control-Allow-Origin", "*")
	q := r.URL.Query()
	raw := q.Get("url")
	target, err := url.Parse(raw)
	u := s.UIFor(r)
	if err == nil {
		if lang, _, ok := strings.Cut(strings.TrimPrefix(target.Path, "/"), "/"); ok && i18n.Valid(lang) {
			u = i18n.For(lang)
		}
	}
	fail := func(status int, code, text string) {
		s.Fail(w, r, u, &site.Error{Status: status, Title: u.ErrorTitle, Code: code, Text: text})
	}
	if f := q.Get("format"); f != "" && !strings.EqualFold(f, "json") {
		fail(http.StatusNotImplemented, "oembed-format", i18n.Fill(u.Embed.BadFormat, site.Clip(f)))
		return
	}
	width, height := site.EmbedWidth, site.EmbedHeight
	for _, lim := range []struct {
		name string
		to   *int
	}{{"maxwidth", &width}, {"maxheight", &height}} {
		v := q.Get(lim.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100_000 {
			fail(http.StatusBadRequest, "oembed-size", i18n.Fill(u.Embed.BadSize, site.Clip(v)))
			return
		}
		*lim.to = min(*lim.to, n)
	}
	if raw == "" {
		fail(http.StatusBadRequest, "oembed-url", u.Embed.NoURL)
		return
	}
	if err != nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
		fail(http.StatusBadRequest, "oembed-url", i18n.Fill(u.Embed.BadURL, site.Clip(raw)))
		return
	}
	home, _ := url.Parse(s.Absolute(r, "/"))
	if !strings.EqualFold(target.Host, home.Host) {
		fail(http.StatusNotFound, "oembed-foreign", i18n.Fill(u.Embed.Foreign, site.Clip(raw)))
		return
	}
	// which pages have an embed is the embed routes' to say (a page
	// without one is their 404)
	embed := site.EmbedPath(target.Path)
	if target.RawQuery != "" {
		embed += "?" + target.RawQuery
	}
	status, title, why, final := s.look(r, embed)
	if status != http.StatusOK {
		code := "oembed-embed" // the embed's own reason (a bad do=, a form challenge)
		if status < 400 || status >= 500 || why == "" || why == u.NotFoundText {
			// no embed, or one with no reason of its own to give: say
			// what can be embedded
			code, status, why = "oembed-not-timeline", http.StatusNotFound, i18n.Fill(u.Embed.BadURL, site.Clip(raw))
		}
		fail(status, code, why)
		return
	}
	// the provider is named apart; the title is the moment's
	title = strings.TrimSuffix(title, " — "+u.SiteName)
	a := Answer{Type: "rich", Version: "1.0", Title: title, ProviderName: u.SiteName, ProviderURL: s.Absolute(r, "/"),
		HTML: site.IFrame(s.Absolute(r, final), title, width, height), Width: width, Height: height, CacheAge: 86400}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(a)
}

// look asks the site for the embed at path (following its redirect to
// the canonical address once) and returns its status, its title, the
// reason its error page gives (if it is one) and the address it was
// found at.
func (s *Handler) look(r *http.Request, path string) (status int, title, why, final string) {
	// a request of its own, ended with this one: none of this request's
	// context (chi's route, the JSON errors this endpoint answers with)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	defer context.AfterFunc(r.Context(), cancel)()
	for range 2 {
		in := r.Clone(ctx)
		in.Method, in.Body = http.MethodGet, http.NoBody
		in.Header = http.Header{"Accept-Language": r.Header["Accept-Language"]}
		in.URL, _ = url.Parse(path)
		in.RequestURI = path
		out := &recorder{header: http.Header{}}
		s.Pages.ServeHTTP(out, in)
		if out.status == http.StatusSeeOther || out.status == http.StatusMovedPermanently || out.status == http.StatusFound {
			loc := out.header.Get("Location")
			if !strings.HasPrefix(loc, "/") || !strings.Contains(loc, "/embed/") {
				return http.StatusNotFound, "", "", ""
			}
			path = loc
			continue
		}
		return out.status, between(out.body.String(), "<title>", "</title>"), between(out.body.String(), `<p class="why">`, "</p>"), path
	}
	return http.StatusNotFound, "", "", ""
}

// between is the text of page between open and close, unescaped ("" if
// the page has none): the site's own markup, whose shape is known.
func between(page, open, close string) string {
	_, t, ok := strings.Cut(page, open)
	if !ok {
		return ""
	}
	t, _, _ = strings.Cut(t, close)
	return html.UnescapeString(t)
}

// recorder keeps what a page answered to a request made from here.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *recorder) Header() http.Header { return w.header }
func (w *recorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *recorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.body.Len() > 1<<20 {
		return len(b), nil // the title is at the top; the rest is not read
	}
	return w.body.Write(b)
}

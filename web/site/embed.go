// embed.go holds what every feature's embed view shares: the theme an
// embed request asked for, the embed twin of a page's address, and a
// link's card (Open Graph, oEmbed discovery) in the page's head.

package site

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// An embed is a timeline page drawn for another site's iframe, at
// /{lang}/embed/… beside the page at /{lang}/…: the same state grammar,
// no site header or footer, links that stay inside the frame. Only these
// addresses may be framed (web/middleware's Frameable).
const embedSeg = "/embed"

// Themes an embed may ask for with theme=: the reader's own setting (the
// default) or one fixed, for a host page that is always light or dark.
const (
	ThemeAuto  = "auto"
	ThemeLight = "light"
	ThemeDark  = "dark"
)

type themeKey struct{}

// WithTheme marks r as an embed request in theme (Frameable does, once
// it has read theme= out of the query).
func WithTheme(r *http.Request, theme string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), themeKey{}, theme))
}

// ThemeOf is an embed request's theme, "" if r is not an embed request.
func ThemeOf(r *http.Request) string {
	t, _ := r.Context().Value(themeKey{}).(string)
	return t
}

// EmbedPath is the embed twin of a page's path: /en/lessons/x →
// /en/embed/lessons/x (the query, if any, kept); an embed's path is its
// own twin.
func EmbedPath(path string) string {
	lang, rest, ok := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if !ok || strings.HasPrefix(rest, embedSeg[1:]+"/") {
		return path
	}
	return "/" + lang + embedSeg + "/" + rest
}

// PagePath is the page an embed path shows (EmbedPath undone); a path
// that is no embed's is returned as it is.
func PagePath(path string) string {
	lang, rest, ok := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if after, isEmbed := strings.CutPrefix("/"+rest, embedSeg+"/"); ok && isEmbed {
		return "/" + lang + "/" + after
	}
	return path
}

// InEmbed is where a link of an embed goes: link's embed twin, with the
// embed's theme kept (auto, the default, is left out).
func InEmbed(link, theme string) string { return WithThemeParam(EmbedPath(link), theme) }

// WithThemeParam is an embed's link with its theme= (none for auto).
func WithThemeParam(link, theme string) string {
	if theme == "" || theme == ThemeAuto {
		return link
	}
	if strings.Contains(link, "?") {
		return link + "&theme=" + theme
	}
	return link + "?theme=" + theme
}

// EmbedWidth and EmbedHeight are an embed's default size in CSS pixels:
// the share box's iframe snippet's and the oEmbed answer's. The height
// fits a step at the full width (a step's embed is about 1,060 px tall
// at 720); the snippet's script fits it to the content at any width, and
// a host that strips scripts shows this much and lets the embed scroll.
const EmbedWidth, EmbedHeight = 720, 1080

// maxEmbedHeight bounds the height the snippet's script accepts from a
// frame: a page could post any number.
const maxEmbedHeight = 6000

// IFrame is the HTML that embeds the moment at embed, w × h pixels; it
// shrinks with a narrower column (the embed fits any width from 320 px),
// and its script sizes the frame to the height embed.js posts, so a
// narrower column grows it instead of cutting the timeline off. The
// script believes only its own frame, and only a message from the
// embed's own origin.
func IFrame(embed, title string, w, h int) string {
	origin := ""
	if u, err := url.Parse(embed); err == nil && (u.Scheme == "http" || u.Scheme == "https") && plainHost(u.Host) {
		origin = u.Scheme + "://" + u.Host
	}
	out := `<iframe src="` + attr.Replace(embed) + `" title="` + attr.Replace(title) + `" width="` + strconv.Itoa(w) +
		`" height="` + strconv.Itoa(h) + `" style="width:100%;max-width:` + strconv.Itoa(w) + `px;border:0" loading="lazy"></iframe>`
	if origin == "" {
		return out // a relative address: no origin to check messages against
	}
	return out + `<script>(function(s){var f=s.previousElementSibling;addEventListener("message",function(e){var d=e.data;` +
		`if(e.origin!==` + strconv.Quote(origin) + `||!f||e.source!==f.contentWindow||!d||d.type!=="locklab:height")return;` +
		`var h=Math.min(Math.max(+d.height||0,200),` + strconv.Itoa(maxEmbedHeight) + `);f.style.height=h+"px"})})(document.currentScript)</script>`
}

// plainHost: a host (and port) of letters, digits, dots, dashes and an
// IPv6 literal's brackets and colons, nothing a script could read as
// anything but a string.
func plainHost(h string) bool {
	if h == "" {
		return false
	}
	for _, c := range h {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune(".-:[]", c)) {
			return false
		}
	}
	return true
}

// attr escapes a value for a double-quoted attribute, and no more: the
// snippet is read by people too ("A's", not "A&#39;s").
var attr = strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;")

// Card is how a link to a page unfurls in a chat or a document (Open
// Graph and Twitter card tags), and where the page's oEmbed answer is.
// Every address in it is absolute: a card is read from another site.
type Card struct {
	Title, Description string
	URL, Image         string
	// ImageAlt describes the image, for readers who cannot see it.
	ImageAlt string
	// OEmbed is the oEmbed endpoint's address for this page ("" none: a
	// page that is no timeline, such as a Lab result, has no embed).
	OEmbed string
}

// CardFor is the card of the page r asked for: its title and what it
// shows, its picture as a PNG (image, a path; "" for a card with no
// picture: a small card rather than a picture that says nothing), and
// the oEmbed endpoint asked about the page's own address.
func (s *Site) CardFor(r *http.Request, title, description, image, imageAlt string) *Card {
	page := s.AbsoluteURL(r)
	// one line: a reply quoted in it may hold line breaks (an array reply),
	// which a card shows raw or cuts at
	description, imageAlt = oneLine(description), oneLine(imageAlt)
	if image != "" {
		image = s.Absolute(r, image)
	}
	return &Card{Title: title, Description: description, URL: page, Image: image, ImageAlt: imageAlt,
		OEmbed: s.Absolute(r, "/oembed?format=json&url="+url.QueryEscape(page))}
}

// oneLine is s with each run of line breaks a single space.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
}

// linkTarget is where a link out of a page opens: in an embed, a new
// tab (the site's pages refuse to be framed, and the page around the
// frame should stay), else in place.
func (p Page) linkTarget() string {
	if p.Theme != "" {
		return "_blank"
	}
	return "_self"
}

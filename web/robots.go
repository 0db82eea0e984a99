// robots.go holds the two answers that are not pages: robots.txt and the
// health check. (Security headers and compression are web/middleware's;
// ETags and the page cache are web/site's.)

package web

import (
	"locklab/web/i18n"
	"locklab/web/links"
	"net/http"
	"strings"
)

// robotsTxt keeps crawlers to the lesson pages: every control is a link
// to a new timeline, and the timelines never end. A lesson that opens on
// its failure starts at a URL with options; those starts are allowed by
// name (the longest rule wins). Built once, at start-up.
func robotsTxt(c Course) []byte {
	var b strings.Builder
	b.WriteString("User-agent: *\nAllow: /$\n")
	for _, lang := range i18n.Codes() {
		b.WriteString("Allow: /" + lang + "/\n")
	}
	for _, lang := range i18n.Codes() {
		for _, l := range c.List(lang) {
			if p := links.Start(l); strings.Contains(p, "?") {
				b.WriteString("Allow: " + p + "$\n")
			}
		}
	}
	b.WriteString("Disallow: /*?\nDisallow: /*.json$\nDisallow: /*/timeline.svg$\nDisallow: /*/qr.svg$\nDisallow: /static/\n")
	return []byte(b.String())
}

// healthz says the server is up and its content loaded.
func healthz(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}

// harden.go holds what keeps the site safe and cheap to serve: security
// headers, strong ETags with 304s, a byte-bounded cache of rendered pages,
// compression, robots.txt and the health check.
package web

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"locklab/web/i18n"
	"net/http"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzhttp"
)

// csp allows nothing inline and nothing from elsewhere: every script and
// style is a versioned file of ours; SVG uses presentation attributes.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'; manifest-src 'self'"

// secure sets the security headers on every response.
func secure(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()")
		// Only GETs carry state here; a body is never needed.
		r.Body = http.MaxBytesReader(w, r.Body, 1024)
		next.ServeHTTP(w, r)
	})
}

// compress gzips (or zstd-compresses, if the client prefers) HTML, SVG,
// CSS, JS and JSON. A compressed body gets its own ETag ("…-gzip",
// "…-zstd"), as a strong ETag must name exact bytes.
func compress(next http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(512), gzhttp.SuffixETag("-gzip"),
		gzhttp.ContentTypes([]string{"text/html", "image/svg+xml", "text/css", "text/javascript",
			"application/javascript", "application/json", "text/plain"}))
	if err != nil {
		panic(err) // options are constants: a mistake here is a programming error
	}
	return wrap(next)
}

// etagFor is the strong ETag of a page: the same build and the same
// canonical request always render the same bytes, so the ETag can be
// known before rendering — a 304 costs no replay at all. The absolute URL
// (host included) is part of it because the share link and QR code are.
func (s *Server) etagFor(r *http.Request) string {
	sum := sha256.Sum256([]byte(s.version + "\x00" + s.absoluteURL(r) + "\x00" +
		r.Header.Get("HX-Request") + r.Header.Get("HX-History-Restore-Request")))
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// cached serves a page from the ETag and the cache when it can, and
// otherwise renders it with fill and keeps the result. fill returns the
// body and content type, or an *Error (never cached). With a live Redis
// backend (noCache) every timeline is rendered afresh.
func (s *Server) cached(w http.ResponseWriter, r *http.Request, u *i18n.UI, fill func() ([]byte, string, *Error)) {
	s.serveCached(w, r, u, !s.noCache, func() ([]byte, string, bool, *Error) {
		body, typ, e := fill()
		return body, typ, true, e
	})
}

// serveCached is cached for pages that decide after rendering whether
// they may be kept (keep false: served once with no-store, e.g. a Lab
// exploration the deadline cut short, which depends on the machine's
// load). With use false nothing is cached or revalidated.
func (s *Server) serveCached(w http.ResponseWriter, r *http.Request, u *i18n.UI, use bool, fill func() ([]byte, string, bool, *Error)) {
	h := w.Header()
	if !use {
		body, typ, _, e := fill()
		if e != nil {
			s.fail(w, r, u, e)
			return
		}
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Type", typ)
		_, _ = w.Write(body)
		return
	}
	tag := s.etagFor(r)
	h.Set("ETag", tag)
	h.Set("Cache-Control", "public, max-age=300")
	h.Add("Vary", "HX-Request")
	if match := r.Header.Get("If-None-Match"); match != "" && (match == tag || match == "*" || etagIn(match, tag)) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if body, typ, ok := s.cache.get(tag); ok {
		h.Set("Content-Type", typ)
		h.Set("X-Cache", "hit")
		_, _ = w.Write(body)
		return
	}
	body, typ, keep, e := fill()
	if e != nil {
		h.Del("ETag")
		h.Del("Vary")
		s.fail(w, r, u, e)
		return
	}
	if keep {
		s.cache.put(tag, body, typ)
		h.Set("X-Cache", "miss")
	} else {
		h.Del("ETag")
		h.Set("Cache-Control", "no-store")
	}
	h.Set("Content-Type", typ)
	_, _ = w.Write(body)
}

// etagIn reports whether an If-None-Match list names tag, plain or in a
// compressed form.
func etagIn(list, tag string) bool {
	base := strings.TrimSuffix(tag, `"`)
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimPrefix(strings.TrimSpace(p), "W/")
		if p == tag || p == base+`-gzip"` || p == base+`-zstd"` {
			return true
		}
	}
	return false
}

// pageCache is a byte-bounded LRU of rendered responses. The state space
// of timelines is endless; the cache keeps the hot ones within a budget.
type pageCache struct {
	mu    sync.Mutex
	max   int
	size  int
	order *list.List
	items map[string]*list.Element
}

type cacheEntry struct {
	key, typ string
	body     []byte
}

func newPageCache(maxBytes int) *pageCache {
	return &pageCache{max: maxBytes, order: list.New(), items: map[string]*list.Element{}}
}

func (c *pageCache) get(key string) ([]byte, string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, "", false
	}
	c.order.MoveToFront(el)
	e := el.Value.(*cacheEntry)
	return e.body, e.typ, true
}

func (c *pageCache) put(key string, body []byte, typ string) {
	if len(body) > c.max/8 {
		return // one huge page must not flush the rest
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[key]; ok {
		return
	}
	c.items[key] = c.order.PushFront(&cacheEntry{key: key, typ: typ, body: body})
	c.size += len(body)
	for c.size > c.max {
		last := c.order.Back()
		e := last.Value.(*cacheEntry)
		c.order.Remove(last)
		delete(c.items, e.key)
		c.size -= len(e.body)
	}
}

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
			if p := startPath(l); strings.Contains(p, "?") {
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

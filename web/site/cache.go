// cache.go keeps pages cheap to serve again: strong ETags with 304s and
// a byte-bounded cache of rendered pages.

package site

import (
	"container/list"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"

	"locklab/web/i18n"
)

// etagFor is the strong ETag of a page: the same build and the same
// canonical request always render the same bytes, so the ETag can be
// known before rendering — a 304 costs no replay at all. The absolute URL
// (host included) is part of it because the share link and QR code are;
// an embed's theme too, which its middleware took out of the query.
func (s *Site) etagFor(r *http.Request) string {
	sum := sha256.Sum256([]byte(s.version + "\x00" + s.AbsoluteURL(r) + "\x00" + ThemeOf(r) + "\x00" +
		r.Header.Get("HX-Request") + r.Header.Get("HX-History-Restore-Request")))
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// Cached serves a page from the ETag and the cache when it can, and
// otherwise renders it with fill and keeps the result. fill returns the
// body and content type, or an *Error (never cached). With a live Redis
// backend (noCache) every timeline is rendered afresh.
func (s *Site) Cached(w http.ResponseWriter, r *http.Request, u *i18n.UI, fill func() ([]byte, string, *Error)) {
	s.ServeCached(w, r, u, !s.NoCache, func() ([]byte, string, bool, *Error) {
		body, typ, e := fill()
		return body, typ, true, e
	})
}

// ServeCached is cached for pages that decide after rendering whether
// they may be kept (keep false: served once with no-store, e.g. a Lab
// exploration the deadline cut short, which depends on the machine's
// load). With use false nothing is cached or revalidated.
func (s *Site) ServeCached(w http.ResponseWriter, r *http.Request, u *i18n.UI, use bool, fill func() ([]byte, string, bool, *Error)) {
	h := w.Header()
	if !use {
		body, typ, _, e := fill()
		if e != nil {
			s.Fail(w, r, u, e)
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
		s.Fail(w, r, u, e)
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

// Package middleware wraps every request of the site: security headers
// (and the embeds' own framing policy and theme), compression, HEAD as GET, the request log, recovery from a panic, the
// header-size limit and the language segment. What it answers itself (a
// 431, a 404, a 500) it answers through site's one error path.
package middleware

import (
	"cmp"
	"fmt"
	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/site"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/klauspost/compress/gzhttp"
)

// csp allows nothing inline and nothing from elsewhere: every script and
// style is a versioned file of ours; SVG uses presentation attributes.
// No page may be framed, except an embed (embedCSP).
const csp = cspBase + "frame-ancestors 'none'"

const cspBase = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; base-uri 'none'; manifest-src 'self'; "

// embedCSP is an embed's policy: as strict as every page's, but any site
// may frame it (that is what it is for).
const embedCSP = cspBase + "frame-ancestors *"

// Frameable serves /{lang}/embed/…: it lets any site frame the answer
// (the one place the site allows it), reads theme= (400 if it is not a
// theme) and takes it out of the query, so each feature's own parser
// reads the same state grammar as its page, and marks the request as an
// embed in that theme (site.ThemeOf).
func Frameable(s *site.Site) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Content-Security-Policy", embedCSP)
			h.Del("X-Frame-Options")
			theme := site.ThemeAuto
			if vs, ok := r.URL.Query()["theme"]; ok {
				theme = cmp.Or(strings.ToLower(vs[0]), site.ThemeAuto) // theme= alone: the default
				r = r.Clone(r.Context())
				r.URL.RawQuery = dropParam(r.URL.RawQuery, "theme")
			}
			if theme != site.ThemeAuto && theme != site.ThemeLight && theme != site.ThemeDark {
				// the 400 is an embed's too: drawn in its frame
				r = site.WithTheme(r, site.ThemeAuto)
				u := s.UIFor(r)
				s.Fail(w, r, u, &site.Error{Status: http.StatusBadRequest, Title: u.ErrorTitle, Code: "bad-theme",
					Text: i18n.Fill(u.Embed.BadTheme, site.Clip(theme))})
				return
			}
			next.ServeHTTP(w, site.WithTheme(r, theme))
		})
	}
}

// dropParam is raw without every name= parameter, the others left as
// they were written (re-encoding them would change a canonical query).
func dropParam(raw, name string) string {
	var keep []string
	for _, p := range strings.Split(raw, "&") {
		k, _, _ := strings.Cut(p, "=")
		if k != name && p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "&")
}

// Secure sets the security headers on every response.
func Secure(next http.Handler) http.Handler {
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

// Compress gzips (or zstd-compresses, if the client prefers) HTML, SVG,
// CSS, JS and JSON. A compressed body gets its own ETag ("…-gzip",
// "…-zstd"), as a strong ETag must name exact bytes.
func Compress(next http.Handler) http.Handler {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(512), gzhttp.SuffixETag("-gzip"),
		gzhttp.ContentTypes([]string{"text/html", "image/svg+xml", "text/css", "text/javascript",
			"application/javascript", "application/json", "text/plain"}))
	if err != nil {
		panic(err) // options are constants: a mistake here is a programming error
	}
	return wrap(next)
}

// RequireHost answers 421 to a request for a host the server does not
// answer to (site.HostAllowed: -hosts), in the request's language;
// /healthz answers whatever the host, for a balancer's probe.
func RequireHost(s *site.Site) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/healthz" && !s.HostAllowed(r.Host) {
				u := s.UIFor(r)
				s.Fail(w, r, u, &site.Error{Status: http.StatusMisdirectedRequest, Title: u.ErrorTitle, Code: "unknown-host",
					Text: i18n.Fill(u.UnknownHost, site.Clip(r.Host))})
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// WellFormedQuery answers 400, in the request's language, for a query
// that cannot be read (a % not followed by two hex digits, a ; between
// parameters): Go's url.Query drops such a pair without a word, and a
// timeline link that lost its do= silently opened the lesson's start
// (security test F16). The page quotes the query, clipped, and offers the
// page without it.
func WellFormedQuery(s *site.Site) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.RawQuery != "" {
				if _, err := url.ParseQuery(r.URL.RawQuery); err != nil {
					s.Fail(w, r, s.UIFor(r), badQuery(r, s.UIFor(r), err))
					return
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// badQuery says what of the two rules a query broke: a ; between
// parameters (offering the same link with &, where that reads), or a %
// without two hex digits (offering the page without the query).
func badQuery(r *http.Request, u *i18n.UI, err error) *site.Error {
	e := &site.Error{Status: http.StatusBadRequest, Title: u.BadQueryTitle, Code: "bad-query", Err: err,
		Text: i18n.Fill(u.BadQuery, site.Clip(r.URL.RawQuery))}
	if strings.Contains(r.URL.RawQuery, ";") {
		e.Text = i18n.Fill(u.BadQuerySemi, site.Clip(r.URL.RawQuery))
		if fixed := strings.ReplaceAll(r.URL.RawQuery, ";", "&"); len(r.URL.Path) < 256 {
			if _, err := url.ParseQuery(fixed); err == nil {
				e.Recover, e.RecoverText = r.URL.Path+"?"+fixed, u.FixedLink
				return e
			}
		}
	}
	if len(r.URL.Path) < 256 {
		e.Recover, e.RecoverText = r.URL.Path, u.URITooLongBack
	}
	return e
}

// MaxHeaderBytes bounds a request's header (request line included). The
// HTTP server's own cap (main.go) is set higher, as a backstop: a request
// between the two gets this site's 431 page in its language rather than
// the server's bare text.
const MaxHeaderBytes = 16 << 10

// LimitHeaders answers an oversized header with a 431 page.
func LimitHeaders(s *site.Site) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n := len(r.Method) + len(r.RequestURI) + len(r.Host) + 16
			for k, vs := range r.Header {
				for _, v := range vs {
					n += len(k) + len(v) + 4
				}
			}
			if n > MaxHeaderBytes {
				u := s.UIFor(r)
				if len(r.RequestURI) > MaxHeaderBytes/2 {
					// the address itself, not the cookies: a pasted link
					e := &site.Error{Status: http.StatusRequestURITooLong, Title: u.ErrorTitle, Code: "uri-too-long",
						Text: i18n.Fill(u.URITooLong, strconv.Itoa(sim.MaxActions), strconv.Itoa(site.MaxQuery>>10))}
					if len(r.URL.Path) < 256 {
						e.Recover, e.RecoverText = r.URL.Path, u.URITooLongBack
					}
					s.Fail(w, r, u, e)
					return
				}
				s.Fail(w, r, u, &site.Error{Status: http.StatusRequestHeaderFieldsTooLarge, Title: u.ErrorTitle, Text: u.HeaderTooLarge, Code: "header-too-large"})
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// HeadAsGet answers HEAD on every GET route (uptime monitors and link
// checkers send HEAD) with GET's status and headers and no body. It sits
// outside compress, so the headers are those of the compressed GET.
func HeadAsGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead {
			r = r.Clone(r.Context())
			r.Method = http.MethodGet
			w = headWriter{w}
		}
		next.ServeHTTP(w, r)
	})
}

// headWriter keeps a response's headers and drops its body.
type headWriter struct{ http.ResponseWriter }

func (w headWriter) Write(b []byte) (int, error) { return len(b), nil }

func (w headWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// RequireLang 404s any first path segment that is not a language, and
// redirects /en to /en/.
func RequireLang(s *site.Site) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			lang := chi.URLParam(r, "lang")
			if !i18n.Valid(lang) {
				s.Fail(w, r, s.UIFor(r), site.NotFound(s.UIFor(r)))
				return
			}
			if r.URL.Path == "/"+lang {
				http.Redirect(w, r, "/"+lang+"/", http.StatusMovedPermanently)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func Recoverer(s *site.Site) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					s.Fail(w, r, s.UIFor(r), site.Internal(s.UIFor(r), fmt.Errorf("panic: %v", v)))
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (sw *statusWriter) WriteHeader(code int) { sw.status = code; sw.ResponseWriter.WriteHeader(code) }

// Unwrap lets http.ResponseController reach the connection (the class's
// event streams flush and clear the write deadline through it).
func (sw *statusWriter) Unwrap() http.ResponseWriter { return sw.ResponseWriter }

func (sw *statusWriter) Write(b []byte) (int, error) {
	if sw.status == 0 {
		sw.status = http.StatusOK
	}
	n, err := sw.ResponseWriter.Write(b)
	sw.bytes += n
	return n, err
}

// logKeys are the query parameters the log keeps: those that tell one
// timeline or Lab run from another. Anything else (a secret someone put
// in a link) stays out of the log.
var logKeys = []string{"lesson", "do", "opt", "guess", "clients", "pauses", "pause", "crashes", "nodes", "drops", "depth"}

// logPath is the request's path with its timeline state (do=, opt=…), so
// two steps of a lesson look different in the log; cut to a length a log
// line can carry.
func logPath(r *http.Request) string {
	q := r.URL.Query()
	var kept []string
	for _, k := range logKeys {
		for _, v := range q[k] {
			kept = append(kept, k+"="+strings.ReplaceAll(url.QueryEscape(v), "%2C", ","))
		}
	}
	p := r.URL.Path
	if len(kept) > 0 {
		const max = 512
		s := strings.Join(kept, "&")
		if len(s) > max {
			s = s[:max] + "…"
		}
		p += "?" + s
	}
	return p
}

// LogRequests writes one structured line per request: its id, what was
// asked, the status, the size, how long it took, and whether the page
// came from the cache.
func LogRequests(s *site.Site) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			sw := &statusWriter{ResponseWriter: w}
			next.ServeHTTP(sw, r)
			s.Log.Info("request", "id", middleware.GetReqID(r.Context()), "method", r.Method, "path", logPath(r),
				"status", sw.status, "bytes", sw.bytes, "dur", time.Since(start),
				"cache", sw.Header().Get("X-Cache"), "htmx", r.Header.Get("HX-Request") == "true")
		})
	}
}

// Package web serves Lock Lab's pages: routing, handlers, templ
// components, the URL-state codec and the one error path. It renders what
// sim computes and lessons holds; it keeps no per-learner state.
package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"
)

// Course is what web needs of the lesson catalog.
type Course interface {
	List(lang string) []*lessons.Lesson
	Get(lang, slug string) (*lessons.Lesson, bool)
	Neighbours(l *lessons.Lesson) (prev, next *lessons.Lesson)
}

// ReplayFunc replays a timeline; sim.ReplayContext in production.
type ReplayFunc func(ctx context.Context, sc *sim.Scenario, opts sim.Opts, actions []sim.Action) (*sim.Timeline, error)

// Server holds the handlers' dependencies. It has no mutable state.
type Server struct {
	course  Course
	assets  *Assets
	replay  ReplayFunc
	log     *slog.Logger
	version string
	cache   *pageCache
	// replays bounds how many replays run at once: the rest wait (up to
	// the request's deadline), so a burst of costly timelines cannot
	// starve the machine.
	replays   chan struct{}
	publicURL string
	// labDeadline bounds one Lab exploration.
	labDeadline time.Duration
	// gc raises GOGC while explorations run.
	gc      *gcBoost
	robots  []byte // robots.txt, built at start-up
	noCache bool
	// labs bounds how many explorations run at once (half the replay
	// slots, at least one), so the Lab can never take every slot.
	labs chan struct{}
	// class is the live-class service (nil: no classes on this server).
	class *Classroom
}

// Config holds the settings main.go chooses for the site.
type Config struct {
	// Version identifies the build; ETags include it, so a new build never
	// answers 304 with an old page.
	Version string
	// CacheBytes bounds the cache of rendered pages.
	CacheBytes int
	// Replays bounds concurrent replays (default 2 × GOMAXPROCS).
	Replays int
	// LabDeadline bounds one exploration (default: the LabDeadline
	// constant); tests that need a complete search on a slow machine
	// raise it.
	LabDeadline time.Duration
	// PublicURL is the site's address as phones in a classroom reach it
	// (for "share this moment"); empty means the request's own host.
	PublicURL string
	// NoCache replays every request (no page cache, no ETag): set with a
	// live Redis backend, whose pages must show what that server answers
	// now — and its absence when it is gone — not a copy.
	NoCache bool
	// Class serves live classes (class.go); nil turns them off.
	Class *Classroom
	// ExploreGOGC is the garbage collector's GOGC while the Lab or the
	// design page explores (gcboost.go); 0 leaves the collector alone.
	ExploreGOGC int
}

// ReplayDeadline bounds one request's replay; the worst timeline the
// limits allow takes about a fifth of it on the reference machine.
const ReplayDeadline = 2 * time.Second

// New builds a Server; main.go is the only caller outside tests.
func New(course Course, assets *Assets, replay ReplayFunc, log *slog.Logger, cfg Config) *Server {
	if cfg.CacheBytes <= 0 {
		cfg.CacheBytes = 16 << 20
	}
	if cfg.Replays <= 0 {
		cfg.Replays = 2 * runtime.GOMAXPROCS(0)
	}
	if cfg.LabDeadline <= 0 {
		cfg.LabDeadline = LabDeadline
	}
	return &Server{course: course, assets: assets, replay: replay, log: log,
		version: cfg.Version, cache: newPageCache(cfg.CacheBytes), replays: make(chan struct{}, cfg.Replays),
		publicURL: cfg.PublicURL, noCache: cfg.NoCache, labs: make(chan struct{}, max(1, cfg.Replays/2)),
		labDeadline: cfg.LabDeadline, robots: robotsTxt(course), class: cfg.Class,
		gc: &gcBoost{percent: cfg.ExploreGOGC}}
}

// MaxHeaderBytes bounds a request's header (request line included). The
// HTTP server's own cap (main.go) is set higher, as a backstop: a request
// between the two gets this site's 431 page in its language rather than
// the server's bare text.
const MaxHeaderBytes = 16 << 10

// limitHeaders answers an oversized header with a 431 page.
func (s *Server) limitHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := len(r.Method) + len(r.RequestURI) + len(r.Host) + 16
		for k, vs := range r.Header {
			for _, v := range vs {
				n += len(k) + len(v) + 4
			}
		}
		if n > MaxHeaderBytes {
			u := s.uiFor(r)
			if len(r.RequestURI) > MaxHeaderBytes/2 {
				// the address itself, not the cookies: a pasted link
				e := &Error{Status: http.StatusRequestURITooLong, Title: u.ErrorTitle, Code: "uri-too-long",
					Text: i18n.Fill(u.URITooLong, strconv.Itoa(sim.MaxActions), strconv.Itoa(MaxQuery>>10))}
				if len(r.URL.Path) < 256 {
					e.Recover, e.RecoverText = r.URL.Path, u.URITooLongBack
				}
				s.fail(w, r, u, e)
				return
			}
			s.fail(w, r, u, &Error{Status: http.StatusRequestHeaderFieldsTooLarge, Title: u.ErrorTitle, Text: u.HeaderTooLarge, Code: "header-too-large"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Handler is the whole site.
func (s *Server) Handler() http.Handler {
	r := chi.NewRouter()
	r.Use(middleware.RequestID, s.logRequests, headAsGet, s.recoverer, secure, s.limitHeaders, compress)
	r.Get("/robots.txt", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write(s.robots)
	})
	r.Get("/healthz", healthz)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) { s.fail(w, r, s.uiFor(r), notFound(s.uiFor(r))) })
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		u := s.uiFor(r)
		s.fail(w, r, u, &Error{Status: http.StatusMethodNotAllowed, Title: u.ErrorTitle, Text: u.WrongMethod, Code: "method"})
	})
	r.Get("/", s.root)
	r.Get("/favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, s.assets.URL("img/favicon.svg"), http.StatusMovedPermanently)
	})
	r.Get("/static/{hash}/*", s.assets.ServeHTTP)
	r.Get("/class/{code}", s.classShort)
	r.Get("/class", s.classJoinShort)
	r.Get("/class/", s.classJoinShort)
	r.Route("/{lang}", func(r chi.Router) {
		r.Use(s.requireLang)
		r.Get("/", s.lessonList)
		r.With(s.resolveLesson(true)).Get("/lessons/{slug}", s.lessonPage)
		// chi ends {slug} at the first ".", so fencing.json lands here and
		// the page route never sees it; slugs have no dots.
		r.Get("/lessons/{slug}.json", s.lessonJSON)
		r.Group(func(r chi.Router) {
			r.Use(s.resolveLesson(false))
			r.Get("/lessons/{slug}/timeline.json", s.timelineJSON)
			r.Get("/lessons/{slug}/timeline.svg", s.timelineSVG)
			r.Get("/lessons/{slug}/qr.svg", s.shareQR)
		})
		r.Get("/lab", s.labPage)
		r.Get("/lab/design", s.designPage)
		r.Get("/lab/design/run", s.designRunPage)
		r.Get("/lab/design/", dropSlash)
		r.Get("/end", s.endPage)
		r.Get("/end/", dropSlash)
		r.Get("/lessons/{slug}/", dropSlash)
		r.Get("/lab/", dropSlash)
		// the lesson list is the language's home page
		r.Get("/lessons", toLessonList)
		r.Get("/lessons/", toLessonList)
		s.classRoutes(r)
	})
	return r
}

// dropSlash redirects an address with a trailing slash (/en/lessons/fencing/)
// to the page without it, the timeline in its query kept.
func dropSlash(w http.ResponseWriter, r *http.Request) {
	target := strings.TrimSuffix(r.URL.Path, "/")
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, target, http.StatusMovedPermanently)
}

// toLessonList sends /{lang}/lessons (a guess at an address) to the lesson
// list, /{lang}/.
func toLessonList(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, "/"+chi.URLParam(r, "lang")+"/", http.StatusMovedPermanently)
}

// headAsGet answers HEAD on every GET route (uptime monitors and link
// checkers send HEAD) with GET's status and headers and no body. It sits
// outside compress, so the headers are those of the compressed GET.
func headAsGet(next http.Handler) http.Handler {
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

// root sends a visitor to the language their browser asks for.
func (s *Server) root(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Vary", "Accept-Language")
	http.Redirect(w, r, "/"+negotiate(r)+"/", http.StatusFound)
}

// requireLang 404s any first path segment that is not a language, and
// redirects /en to /en/.
func (s *Server) requireLang(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lang := chi.URLParam(r, "lang")
		if !i18n.Valid(lang) {
			s.fail(w, r, s.uiFor(r), notFound(s.uiFor(r)))
			return
		}
		if r.URL.Path == "/"+lang {
			http.Redirect(w, r, "/"+lang+"/", http.StatusMovedPermanently)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// uiFor is the language of a request: the path's, else the browser's.
func (s *Server) uiFor(r *http.Request) *i18n.UI {
	seg, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if i18n.Valid(seg) {
		return i18n.For(seg)
	}
	return i18n.For(negotiate(r))
}

func (s *Server) lessonList(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	if r.URL.Path != "/"+u.Lang+"/" {
		s.fail(w, r, u, notFound(u))
		return
	}
	p := s.page(u, u.Lessons+" — "+u.SiteName, r)
	s.render(w, r, ListPage(p, s.course.List(u.Lang)))
}

// lessonPage renders one step of a lesson; the step is the URL state.
func (s *Server) lessonPage(w http.ResponseWriter, r *http.Request) {
	rq := reqOf(r)
	if s.canonicalize(w, r, rq) {
		return
	}
	s.cached(w, r, rq.UI, func() ([]byte, string, *Error) {
		v, e := s.lessonView(r, rq)
		if e != nil {
			return nil, "", e
		}
		c := LessonPage(v)
		if r.Header.Get("HX-Request") == "true" && r.Header.Get("HX-History-Restore-Request") != "true" {
			c = LessonFragment(v)
		}
		return s.renderBytes(r, rq.UI, c)
	})
}

// load replays a resolved lesson URL; errors come back ready to show.
// It holds one replay slot while it runs, and gives it back however the
// replay ends, a panic included (the recoverer answers that one).
func (s *Server) load(ctx context.Context, rq *lessonReq) (*sim.Timeline, *Error) {
	if rq.Err != nil {
		return nil, rq.Err
	}
	ctx, cancel := context.WithTimeout(ctx, ReplayDeadline)
	defer cancel()
	select {
	case s.replays <- struct{}{}:
		defer func() { <-s.replays }()
	case <-ctx.Done():
		return nil, busy(rq.UI)
	}
	began := time.Now()
	tl, err := s.replay(ctx, rq.L.Scenario, rq.St.Opts, rq.St.Actions)
	if err != nil {
		return nil, badState(rq.UI, err, rq.Base(), &rq.St)
	}
	// Only with -v: what the replay cost, to find slow timelines.
	s.log.Debug("replay", "id", middleware.GetReqID(ctx), "lesson", rq.L.Slug, "actions", len(rq.St.Actions),
		"events", len(tl.Events), "violations", len(tl.Violations), "dur", time.Since(began))
	return tl, nil
}

// canonicalize sends a non-canonical state URL — the options form's
// opt-<name>=value fields, wait.10000ms, stray parameters, a guess where
// no checkpoint is answered (see guessFor) — to its one canonical form
// (do, opt, guess in that order), so equal pages share one URL (and one
// cache entry). It reports whether it answered the request. A malformed
// state is left to the error page, which explains it.
func (s *Server) canonicalize(w http.ResponseWriter, r *http.Request, rq *lessonReq) bool {
	if rq.Err != nil {
		return false
	}
	if "?"+r.URL.RawQuery == rq.Canon || (r.URL.RawQuery == "" && rq.Canon == "") {
		return false
	}
	target := rq.Base() + rq.Canon
	if r.Header.Get("HX-Request") == "true" {
		// htmx follows redirects invisibly; tell it which URL to show.
		w.Header().Set("HX-Location", `{"path":"`+target+`","target":"#lab","select":"#lab","swap":"outerHTML show:none"}`)
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
	return true
}

func lessonPath(l *lessons.Lesson) string { return "/" + l.Lang + "/lessons/" + l.Slug }

// startPath is where a lesson begins: its first guided step, whose
// options may not be the defaults (a lesson that opens on the failure).
// Every link that starts a lesson goes here.
func startPath(l *lessons.Lesson) string {
	first := l.Steps[0]
	return lessonPath(l) + query(first.Do, first.Opt)
}

func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.fail(w, r, s.uiFor(r), internal(s.uiFor(r), fmt.Errorf("panic: %v", v)))
			}
		}()
		next.ServeHTTP(w, r)
	})
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

// logRequests writes one structured line per request: its id, what was
// asked, the status, the size, how long it took, and whether the page
// came from the cache.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		s.log.Info("request", "id", middleware.GetReqID(r.Context()), "method", r.Method, "path", logPath(r),
			"status", sw.status, "bytes", sw.bytes, "dur", time.Since(start),
			"cache", sw.Header().Get("X-Cache"), "htmx", r.Header.Get("HX-Request") == "true")
	})
}

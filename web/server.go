// Package web is Lock Lab's route table and server configuration: it
// builds the shared site (web/site) and one handler per feature — the
// lesson pages (web/lesson), the Lab (web/lab), the design page
// (web/design), the challenges (web/challenge), oEmbed (web/oembed), the
// live class (web/class, the one feature with state, kept in Redis) and
// the ending page (web/end) — and mounts their routes under the
// middleware (web/middleware). No page is drawn here; see the
// README's architecture section for what flows between the packages.
package web

import (
	"locklab/web/challenge"
	"locklab/web/class"
	"locklab/web/design"
	"locklab/web/end"
	"locklab/web/lab"
	"locklab/web/lesson"
	"locklab/web/libraries"
	"locklab/web/oembed"
	"log/slog"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	chimw "github.com/go-chi/chi/v5/middleware"

	mw "locklab/web/middleware"
	"locklab/web/site"
)

// Course is what the site needs of the lesson catalog.
type Course = site.Course

// ReplayFunc replays a timeline; sim.ReplayContext in production.
type ReplayFunc = site.ReplayFunc

// Server is the route table over the features. Its one mutable part is
// the site's page cache and slots; the live class keeps its rooms in
// Redis.
type Server struct {
	site    *site.Site
	robots  []byte // robots.txt, built at start-up
	classes *class.Handler
	lessons *lesson.Handler
	lab     *lab.Handler
	design  *design.Handler
	end     *end.Handler
	libs    *libraries.Handler
	chal    *challenge.Handler
	oembed  *oembed.Handler
}

// Config holds the settings main.go chooses: the site's (web/site), and
// the live-class service (web/class; nil turns classes off).
type Config struct {
	site.Config
	Class *class.Classroom
}

// New builds a Server; main.go is the only caller outside tests.
func New(course Course, assets *site.Assets, replay ReplayFunc, log *slog.Logger, cfg Config) *Server {
	st := site.New(course, assets, replay, log, cfg.Config)
	srv := &Server{site: st, robots: robotsTxt(course)}
	srv.lab = lab.New(st)
	srv.lessons = lesson.New(st, srv.lab.Valid)
	srv.design = design.New(st)
	srv.end = end.New(st)
	srv.libs = libraries.New(st)
	srv.chal = challenge.New(st, srv.lessons, srv.design)
	srv.classes = class.New(st, cfg.Class, srv.lessons, srv.chal)
	srv.oembed = oembed.New(st)
	return srv
}

// Handler is the whole site.
func (s *Server) Handler() http.Handler {
	r := chi.NewRouter()
	r.Use(chimw.RequestID, mw.LogRequests(s.site), mw.HeadAsGet, mw.Recoverer(s.site), mw.Secure, mw.LimitHeaders(s.site), mw.RequireHost(s.site), mw.WellFormedQuery(s.site), mw.Compress)
	r.Get("/robots.txt", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write(s.robots)
	})
	r.Get("/healthz", healthz)
	r.Get("/oembed", s.oembed.ServeHTTP)
	s.oembed.Pages = r
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		s.site.Fail(w, r, s.site.UIFor(r), site.NotFound(s.site.UIFor(r)))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		u := s.site.UIFor(r)
		s.site.Fail(w, r, u, &site.Error{Status: http.StatusMethodNotAllowed, Title: u.ErrorTitle, Text: u.WrongMethod, Code: "method"})
	})
	r.Get("/", s.root)
	r.Get("/favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, s.site.Assets.URL("img/favicon.svg"), http.StatusMovedPermanently)
	})
	r.Get("/static/{hash}/*", s.site.Assets.ServeHTTP)
	r.Get("/class/{code}", s.classes.Short)
	r.Get("/class", s.classes.JoinShort)
	r.Get("/class/", s.classes.JoinShort)
	r.Route("/{lang}", func(r chi.Router) {
		r.Use(mw.RequireLang(s.site))
		r.Get("/", s.lessons.List)
		r.With(s.lessons.Resolve(true)).Get("/lessons/{slug}", s.lessons.Step)
		// chi ends {slug} at the first ".", so fencing.json lands here and
		// the page route never sees it; slugs have no dots.
		r.Get("/lessons/{slug}.json", s.lessons.Outline)
		r.Group(func(r chi.Router) {
			r.Use(s.lessons.Resolve(false))
			r.Get("/lessons/{slug}/timeline.json", s.lessons.TimelineJSON)
			r.Get("/lessons/{slug}/timeline.svg", s.lessons.TimelineSVG)
			r.Get("/lessons/{slug}/timeline.png", s.lessons.TimelinePNG)
			r.Get("/lessons/{slug}/card.png", s.lessons.CardPNG)
			r.Get("/lessons/{slug}/qr.svg", s.lessons.QR)
		})
		r.Get("/lab", s.lab.Page)
		r.Get("/lab/design", s.design.Page)
		r.Get("/lab/design/run", s.design.Run)
		r.Get("/lab/design/run.svg", s.design.RunSVG)
		r.Get("/lab/design/run.png", s.design.RunPNG)
		r.Get("/lab/design/run-card.png", s.design.RunCardPNG)
		r.Get("/lab/design/run.qr.svg", s.design.RunQR)
		r.Get("/lab/design/qr.svg", s.design.QR)
		r.Get("/lab/design/", dropSlash)
		r.Get("/end", s.end.Page)
		r.Get("/libraries", s.libs.Page)
		r.Get("/challenges", s.chal.List)
		r.Get("/challenges/", dropSlash)
		r.Get("/challenges/make", s.chal.Make)
		r.Get("/challenges/c/design/{goal}/{bounds}/{design}", s.chal.MadeDesign)
		r.Get("/challenges/c/design/{goal}/{bounds}/{design}/qr.svg", s.chal.MadeDesignQR)
		r.Get("/challenges/c/{slug}/{goal}/{bounds}", s.chal.Made)
		r.Get("/challenges/c/{slug}/{goal}/{bounds}/qr.svg", s.chal.MadeQR)
		r.Get("/challenges/{id}", s.chal.Page)
		r.Get("/challenges/{id}/qr.svg", s.chal.QR)
		r.Get("/challenges/{id}/timeline.png", s.chal.TimelinePNG)
		r.Get("/challenges/{id}/card.png", s.chal.CardPNG)
		r.Get("/challenges/{id}/timeline.svg", s.chal.TimelineSVG)
		r.Get("/lessons/{slug}/challenges", s.chal.OfLesson)
		r.Get("/end/", dropSlash)
		r.Get("/lessons/{slug}/", dropSlash)
		// timelines inside other sites' iframes: the only framed pages
		r.Route("/embed", func(r chi.Router) {
			r.Use(mw.Frameable(s.site))
			r.With(s.lessons.Resolve(false)).Get("/lessons/{slug}", s.lessons.Embed)
			r.Get("/lab/design/run", s.design.RunEmbed)
			r.Get("/challenges/{id}", s.chal.Embed)
		})
		r.Get("/lab/", dropSlash)
		// the lesson list is the language's home page
		r.Get("/lessons", toLessonList)
		r.Get("/lessons/", toLessonList)
		s.classRoutes(r)
	})
	return r
}

// classRoutes are the live class's pages (web/class), under /{lang}.
func (s *Server) classRoutes(r chi.Router) {
	r.Get("/class", s.classes.Join)
	r.Post("/class", s.classes.Create)
	r.Get("/class/", dropSlash)
	r.Get("/class/{code}", s.classes.Student)
	r.Get("/class/{code}/", dropSlash)
	r.Post("/class/{code}/answer", s.classes.Answer)
	r.Post("/class/{code}/pose", s.classes.Pose)
	r.Get("/class/{code}/challenge/{id}", s.classes.Challenge)
	r.Post("/class/{code}/tell", s.classes.Tell)
	r.Get("/class/{code}/events", s.classes.Events)
	r.Get("/class/{code}/teach", s.classes.Teach)
	r.Get("/class/{code}/teach/at", s.classes.Teach)
	r.Get("/class/{code}/bar", s.classes.Bar)
	r.Post("/class/{code}/move", s.classes.Move)
	r.Post("/class/{code}/end", s.classes.End)
	r.Post("/class/{code}/reveal", s.classes.Reveal)
	r.Post("/class/{code}/lock", s.classes.Lock)
	r.Post("/class/{code}/next-lesson", s.classes.NextLesson)
	r.Get("/class/{code}/summary", s.classes.Summary)
	r.Get("/class/{code}/summary.csv", s.classes.SummaryCSV)
	r.Get("/teaching", s.classes.Teaching)
	r.Get("/class/{code}/qr.svg", s.classes.QR)
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

// root sends a visitor to the language their browser asks for.
func (s *Server) root(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Vary", "Accept-Language")
	http.Redirect(w, r, "/"+site.Negotiate(r)+"/", http.StatusFound)
}

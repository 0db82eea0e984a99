// Package lesson serves a lesson at one timeline state: the page (and its
// htmx fragment), the lesson list, the timeline as JSON, SVG and PNG, the
// share QR code and embed snippets, a Lab counterexample framed as a
// timeline, and the same moment as an embed for another site's iframe.
// Its state is the URL (state.go), resolved once per request
// (request.go).
//
// Other features use it through its view API: View builds the lesson view
// of a state for a caller that passes where the view's links go (a live
// class's teacher page keeps them in the class); its components
// (LessonMain, ControlPanel, EventTable) draw parts of it; EmbedView,
// ServePicture and SnippetsFor frame a design run's or a challenge's
// moment as the lesson's is; URLState, ParseState and BadState read and
// explain a timeline's URL state.
package lesson

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/site"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// LabCheck reports whether q is a Lab run the Lab would accept; web wires
// the Lab's own parser here, so the lesson page can trust a lab= link
// without importing the Lab.
type LabCheck func(u *i18n.UI, q url.Values) bool

// Handler serves the lesson pages.
type Handler struct {
	*site.Site
	labOK LabCheck
}

// New builds the lesson pages' handler.
func New(s *site.Site, labOK LabCheck) *Handler { return &Handler{Site: s, labOK: labOK} }

func (s *Handler) List(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	if r.URL.Path != "/"+u.Lang+"/" {
		s.Fail(w, r, u, site.NotFound(u))
		return
	}
	p := s.Frame(u, u.Lessons+" — "+u.SiteName, r)
	chal := map[string]string{}
	for _, l := range s.Course.List(u.Lang) {
		chal[l.Slug] = ChallengeIDs(s.Course.ChallengesOf(l))
	}
	s.Render(w, r, ListPage(p, s.Course.List(u.Lang), chal))
}

// Step renders one step of a lesson; the step is the URL state.
func (s *Handler) Step(w http.ResponseWriter, r *http.Request) {
	rq := RequestOf(r)
	if rq.Refused != nil {
		s.refused(w, r, rq)
		return
	}
	if s.canonicalize(w, r, rq) {
		return
	}
	s.Cached(w, r, rq.UI, func() ([]byte, string, *site.Error) {
		v, e := s.View(r, rq)
		if e != nil {
			return nil, "", e
		}
		c := LessonPage(v)
		if r.Header.Get("HX-Request") == "true" && r.Header.Get("HX-History-Restore-Request") != "true" {
			c = LessonFragment(v)
		}
		return s.RenderBytes(r, rq.UI, c)
	})
}

// refused answers a command the command line did not send: the timeline
// it was typed on, with the line in the form and why beside it, as a 400
// (the request was refused) that is never cached; htmx swaps it in like
// any step (app.js lets a 400 that carries the timeline through).
func (s *Handler) refused(w http.ResponseWriter, r *http.Request, rq *Request) {
	v, e := s.View(r, rq)
	if e != nil {
		s.Fail(w, r, rq.UI, e)
		return
	}
	c := LessonPage(v)
	if r.Header.Get("HX-Request") == "true" {
		c = LessonFragment(v)
	}
	body, typ, e := s.RenderBytes(r, rq.UI, c)
	if e != nil {
		s.Fail(w, r, rq.UI, e)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", typ)
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(body)
}

// replay replays a resolved lesson URL; errors come back ready to show.
// It holds one replay slot while it runs, and gives it back however the
// replay ends, a panic included (the recoverer answers that one).
func (s *Handler) replay(ctx context.Context, rq *Request) (*sim.Timeline, *site.Error) {
	if rq.Err != nil {
		return nil, rq.Err
	}
	began := time.Now()
	tl, err := s.Replay(ctx, rq.L.Scenario, rq.St.Opts, rq.St.Actions)
	if errors.Is(err, site.ErrBusy) {
		return nil, site.Busy(rq.UI)
	}
	if err != nil {
		return nil, BadState(rq.UI, err, rq.Base(), &rq.St)
	}
	// Only with -v: what the replay cost, to find slow timelines.
	s.Log.Debug("replay", "id", middleware.GetReqID(ctx), "lesson", rq.L.Slug, "actions", len(rq.St.Actions),
		"events", len(tl.Events), "violations", len(tl.Violations), "dur", time.Since(began))
	return tl, nil
}

// canonicalize sends a non-canonical state URL — the options form's
// opt-<name>=value fields, wait.10000ms, stray parameters, a guess where
// no checkpoint is answered (see guessFor) — to its one canonical form
// (do, opt, guess in that order), so equal pages share one URL (and one
// cache entry). It reports whether it answered the request. A malformed
// state is left to the error page, which explains it.
func (s *Handler) canonicalize(w http.ResponseWriter, r *http.Request, rq *Request) bool {
	if rq.Err != nil {
		return false
	}
	if site.SameQuery("?"+r.URL.RawQuery, rq.Canon) || (r.URL.RawQuery == "" && rq.Canon == "") {
		return false
	}
	// an embed's own path and theme (site.ThemeOf), else the lesson's
	target := site.WithThemeParam(rq.NavBase()+rq.Canon, site.ThemeOf(r))
	if r.Header.Get("HX-Request") == "true" {
		// htmx follows redirects invisibly; tell it which URL to show.
		w.Header().Set("HX-Location", `{"path":"`+target+`","target":"#lab","select":"#lab","swap":"outerHTML show:none"}`)
		w.WriteHeader(http.StatusNoContent)
		return true
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
	return true
}

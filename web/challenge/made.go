// made.go serves challenges made from a timeline: "Make this a
// challenge" on a lesson page (a Lab counterexample opened as a timeline
// is one too) or on a design run turns the timeline into a break
// challenge whose address is the whole of it — the lesson (or the
// design's own scripts, as one path segment), the goal, the bounds its
// own moves fit in, the variants — so nothing is stored, and par is the
// explorer's.

package challenge

import (
	"net/http"
	"net/url"
	"strconv"

	"github.com/go-chi/chi/v5"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/site"
)

// Made serves /{lang}/challenges/c/{slug}/{goal}/{bounds}: a made
// challenge, played as any break challenge.
func (s *Handler) Made(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	ch, e := s.made(u, chi.URLParam(r, "slug"), chi.URLParam(r, "goal"), chi.URLParam(r, "bounds"), r.URL.Query().Get("opt"))
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	s.breakPage(w, r, u, ch, nil)
}

// made builds a made challenge from its address's parts, in u's words.
func (s *Handler) made(u *i18n.UI, slug, goal, bounds, opt string) (*lessons.Challenge, *site.Error) {
	l, ok := s.Course.Get(u.Lang, slug)
	if !ok {
		return nil, site.NotFound(u)
	}
	b, err := lessons.ParseBounds(bounds)
	if err != nil {
		return nil, badRequest(u, i18n.Fill(u.Chal.BadParam, bounds), links.Challenges(u.Lang))
	}
	ch, err := lessons.Custom(l, opt, sim.ViolationKind(goal), b)
	if err != nil {
		return nil, badRequest(u, i18n.Fill(u.Chal.BadParam, goal+"/"+bounds), links.Challenges(u.Lang))
	}
	ch.Title = i18n.Fill(u.Chal.MadeTitle, u.Failures[ch.Goal].Name)
	return ch, nil
}

// Make serves /{lang}/challenges/make?lesson=…&do=…&opt=…&goal=…, the
// "Make this a challenge" form: it sends the learner to the challenge
// the timeline makes, at its start.
func (s *Handler) Make(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	q := r.URL.Query()
	if q.Get("lesson") == links.DesignSlug {
		s.makeDesign(w, r, u, q)
		return
	}
	l, ok := s.Course.Get(u.Lang, q.Get("lesson"))
	if !ok {
		s.Fail(w, r, u, site.NotFound(u))
		return
	}
	actions, err := sim.ParseActions(q.Get("do"))
	if err != nil {
		s.Fail(w, r, u, badRequest(u, i18n.Fill(u.Chal.BadParam, "do"), links.Start(l)))
		return
	}
	ch, e := s.made(u, l.Slug, q.Get("goal"), lessons.BoundsOf(l.Scenario, actions).String(), q.Get("opt"))
	if e != nil {
		e.Recover, e.RecoverText = links.Start(l), u.Chal.BackLesson
		s.Fail(w, r, u, e)
		return
	}
	http.Redirect(w, r, links.MadeChallenge(u.Lang, ch.ID)+links.Query("", ch.Opt), http.StatusSeeOther)
}

// MadeQR serves a made challenge's QR code.
func (s *Handler) MadeQR(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	ch, e := s.made(u, chi.URLParam(r, "slug"), chi.URLParam(r, "goal"), chi.URLParam(r, "bounds"), r.URL.Query().Get("opt"))
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	s.qr(w, r, u, links.MadeChallenge(u.Lang, ch.ID))
}

// Designs is what a challenge made from a design run needs of the design
// page (main wiring passes web/design's handler): the design a design
// query names, as a lesson the challenge stands on, and that design's
// page; or why it cannot be read, in u's words.
type Designs interface {
	DesignLesson(u *i18n.UI, q url.Values, clients int, action, check string) (*lessons.Lesson, string, *site.Error)
}

// makeDesign is Make for a design run's timeline (design=, its
// links.DesignToken; clients=; do=; goal=).
func (s *Handler) makeDesign(w http.ResponseWriter, r *http.Request, u *i18n.UI, q url.Values) {
	n, err := strconv.Atoi(q.Get("clients"))
	actions, err2 := sim.ParseActions(q.Get("do"))
	if err != nil || err2 != nil {
		s.Fail(w, r, u, badRequest(u, i18n.Fill(u.Chal.BadParam, "do"), links.Challenges(u.Lang)))
		return
	}
	tok := q.Get("design")
	l, _, e := s.designLesson(u, tok, n)
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	bounds := lessons.BoundsOf(l.Scenario, actions).String()
	if _, e := s.madeDesign(u, q.Get("goal"), bounds, tok); e != nil {
		s.Fail(w, r, u, e)
		return
	}
	http.Redirect(w, r, links.DesignChallenge(u.Lang, q.Get("goal"), bounds, tok), http.StatusSeeOther)
}

// designLesson reads a design token (links.DesignToken) through the
// design page, with n clients.
func (s *Handler) designLesson(u *i18n.UI, tok string, n int) (*lessons.Lesson, string, *site.Error) {
	query, ok := links.DesignOfToken(tok)
	q, err := url.ParseQuery(query)
	if !ok || err != nil || len(tok) > maxDesignToken || s.designs == nil {
		return nil, "", badRequest(u, i18n.Fill(u.Chal.BadParam, site.Clip(tok)), links.Challenges(u.Lang))
	}
	return s.designs.DesignLesson(u, q, n, "", "")
}

// maxDesignToken bounds a design challenge's token: a canonical design
// link (links.DesignMaxLink), base64url.
const maxDesignToken = links.DesignMaxLink * 4 / 3

// madeDesign is the challenge made from a design run: break design tok
// (with the bounds' clients) to show goal.
func (s *Handler) madeDesign(u *i18n.UI, goal, bounds, tok string) (*lessons.Challenge, *site.Error) {
	b, err := lessons.ParseBounds(bounds)
	if err != nil {
		return nil, badRequest(u, i18n.Fill(u.Chal.BadParam, bounds), links.Challenges(u.Lang))
	}
	l, _, e := s.designLesson(u, tok, b.Clients)
	if e != nil {
		return nil, e
	}
	ch, err := lessons.Custom(l, "", sim.ViolationKind(goal), b)
	if err != nil {
		return nil, badRequest(u, i18n.Fill(u.Chal.BadParam, goal+"/"+bounds), links.Challenges(u.Lang))
	}
	ch.ID += "/" + tok
	ch.Title = i18n.Fill(u.Chal.MadeTitle, u.Failures[ch.Goal].Name)
	return ch, nil
}

// MadeDesign serves /{lang}/challenges/c/design/{goal}/{bounds}/{design}:
// a challenge made from a design run, played as any break challenge.
func (s *Handler) MadeDesign(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	ch, e := s.madeDesign(u, chi.URLParam(r, "goal"), chi.URLParam(r, "bounds"), chi.URLParam(r, "design"))
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	s.breakPage(w, r, u, ch, nil)
}

// MadeDesignQR is a design challenge's QR code.
func (s *Handler) MadeDesignQR(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	ch, e := s.madeDesign(u, chi.URLParam(r, "goal"), chi.URLParam(r, "bounds"), chi.URLParam(r, "design"))
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	s.qr(w, r, u, links.MadeChallenge(u.Lang, ch.ID))
}

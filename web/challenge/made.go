// made.go serves challenges made from a timeline: "Make this a
// challenge" on a lesson page (a Lab counterexample opened as a timeline
// is one too) turns the timeline into a break challenge whose address is
// the whole of it — the lesson, the goal, the bounds its own moves fit
// in, the design — so nothing is stored, and par is the explorer's.

package challenge

import (
	"net/http"

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

// request.go resolves a lesson request's URL once — the lesson, its
// state, the guess and where the state sits on the guided path — so the
// canonical-URL check, the replay and the page all read one parse.

package lesson

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/go-chi/chi/v5"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/site"
)

// Request is a lesson URL, parsed and placed on the guided path.
type Request struct {
	UI    *i18n.UI
	L     *lessons.Lesson // nil when the slug names no lesson
	St    URLState
	Idx   int  // the guided step the state is, or the last one it passed (-1: none)
	Exact bool // the state is exactly guided step Idx
	Guess int  // the checkpoint answer that counts (see guessFor); 0: none
	// Lab is the Lab run a counterexample came from (see labFrom); "":
	// none.
	Lab string
	// Canon is the canonical query (do, opt, guess, lab in that order, ""
	// for the start): equal pages share it, and so one cache entry.
	Canon string
	Err   *site.Error // the URL names no lesson or a malformed state
	// Refused is a command typed on the command line that it does not
	// send: the page stays the timeline it was typed on, with the line
	// kept in the form and why beside it (a 400, never cached).
	Refused *Refusal
	// Nav is where the page's own links go ("": the lesson's path): a
	// live class's teacher page keeps them in the class.
	Nav string
	// Clients is how many of the scenario's clients the page shows, from
	// the first (0: all): a challenge played with fewer has no lane,
	// state or controls for one that cannot move (it never does: its
	// moves are refused, so it has no event to lose).
	Clients int
}

// Refusal is a typed command the command line refused: the line as
// typed, the server it was for, and why in the page's language.
type Refusal struct{ Line, Node, Why string }

// Base is the lesson's path.
func (q *Request) Base() string { return links.Lesson(q.L) }

// NavBase is the path the page's links, forms and step list lead to.
func (q *Request) NavBase() string {
	if q.Nav != "" {
		return q.Nav
	}
	return q.Base()
}

type lessonReqKey struct{}

// Resolve parses the lesson URL once for the handler it wraps. With
// fold, the options form's opt-<name>=value fields count as opt= (the
// page folds them, then canonicalize redirects to the canonical URL).
// A malformed URL is not answered here: the handler shows rq.Err, inside
// its cache wrapper like any other page.
func (s *Handler) Resolve(fold bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rq := s.parseRequest(r, i18n.For(chi.URLParam(r, "lang")), fold)
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), lessonReqKey{}, rq)))
		})
	}
}

// RequestOf is the request's resolved lesson URL (set by Resolve).
func RequestOf(r *http.Request) *Request { return r.Context().Value(lessonReqKey{}).(*Request) }

func (s *Handler) parseRequest(r *http.Request, u *i18n.UI, fold bool) *Request {
	l, ok := s.Course.Get(u.Lang, chi.URLParam(r, "slug"))
	if !ok {
		return &Request{UI: u, Idx: -1, Err: site.NotFound(u)}
	}
	if len(r.URL.RawQuery) > site.MaxQuery {
		return &Request{UI: u, L: l, Idx: -1,
			Err: BadState(u, &sim.ActionError{Index: -1, Action: "?…", Code: sim.CodeTooLong}, links.Lesson(l), nil)}
	}
	return s.place(u, l, r.URL.Query(), fold)
}

// Place is the lesson state (do, opt) of l in u's language, placed on the
// guided path, for a feature that shows a lesson state it holds itself
// (a live class's room); nav, if not "", is where the view's own links
// go. A malformed state is in the result's Err.
func (s *Handler) Place(u *i18n.UI, l *lessons.Lesson, do, opt, nav string) *Request {
	rq := s.place(u, l, url.Values{"do": {do}, "opt": {opt}}, false)
	rq.Nav = nav
	return rq
}

// place parses query q of lesson l (with fold, the options form's
// opt-<name>=value fields count as opt=) and places it on the guided path.
func (s *Handler) place(u *i18n.UI, l *lessons.Lesson, q url.Values, fold bool) *Request {
	rq := &Request{UI: u, L: l, Idx: -1}
	if fold {
		if err := FoldOptionFields(q, l.Scenario); err != nil {
			rq.Err = BadState(u, err, links.Lesson(l), nil)
			return rq
		}
		line, node := q.Get("cli"), q.Get("node")
		if err := FoldCommandField(q, l.Scenario); err != nil {
			// The timeline the command was typed on, the line kept.
			e := BadState(u, err, links.Lesson(l), nil)
			if _, perr := ParseState(q, l.Scenario); perr == nil && e.Status == http.StatusBadRequest {
				rq.Refused = &Refusal{Line: line, Node: node, Why: e.Text}
			} else {
				rq.Err = e
				return rq
			}
		}
	}
	st, err := ParseState(q, l.Scenario)
	if err != nil {
		rq.Err = BadState(u, err, links.Lesson(l), nil)
		keepParsed(rq.Err, u, l, q, err)
		return rq
	}
	rq.St = st
	rq.Idx, rq.Exact = l.Locate(st.Do(), st.Opt())
	rq.Guess = guessFor(q, l, rq.Idx, rq.Exact)
	rq.Lab = s.labFor(u, l, q)
	rq.Canon = links.WithLab(rq.Moment(), rq.Lab)
	return rq
}

// Moment is the query of the timeline and the guess, without the way back
// to the Lab: what a shared link or QR code carries.
func (q *Request) Moment() string { return links.WithGuess(q.St.Query(), q.Guess) }

// keepParsed points a link's parse error at what of it still reads: the
// actions before the one that does not, on the link's variant (or the
// variant alone, where the first action is the bad one), so nothing the
// learner did before the mistake is lost with it.
func keepParsed(e *site.Error, u *i18n.UI, l *lessons.Lesson, q url.Values, err error) {
	var ae *sim.ActionError
	if !errors.As(err, &ae) || ae.Index < 0 || len(q["do"]) != 1 {
		return
	}
	opts, oerr := l.Scenario.ParseOptions(q.Get("opt"))
	if oerr != nil {
		return
	}
	parts := strings.Split(q.Get("do"), ",")
	if ae.Index > len(parts) {
		return
	}
	actions, perr := sim.ParseActions(strings.Join(parts[:ae.Index], ","))
	if perr != nil {
		return
	}
	st := URLState{Actions: actions, Opts: opts, sc: l.Scenario}
	e.Recover, e.RecoverText = links.Lesson(l)+st.Query(), u.LastGood
	if ae.Index == 0 {
		e.RecoverText = u.StartOver
	}
}

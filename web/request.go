// request.go resolves a lesson request's URL once — the lesson, its
// state, the guess and where the state sits on the guided path — so the
// canonical-URL check, the replay and the page all read one parse.
package web

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"
)

// lessonReq is a lesson URL, parsed and placed on the guided path.
type lessonReq struct {
	UI    *i18n.UI
	L     *lessons.Lesson // nil when the slug names no lesson
	St    State
	Idx   int  // the guided step the state is, or the last one it passed (-1: none)
	Exact bool // the state is exactly guided step Idx
	Guess int  // the checkpoint answer that counts (see guessFor); 0: none
	// Lab is the Lab run a counterexample came from (see labFrom); "":
	// none.
	Lab string
	// Canon is the canonical query (do, opt, guess, lab in that order, ""
	// for the start): equal pages share it, and so one cache entry.
	Canon string
	Err   *Error // the URL names no lesson or a malformed state
	// Nav is where the page's own links go ("": the lesson's path): a
	// live class's teacher page keeps them in the class.
	Nav string
}

// Base is the lesson's path.
func (q *lessonReq) Base() string { return lessonPath(q.L) }

// NavBase is the path the page's links, forms and step list lead to.
func (q *lessonReq) NavBase() string {
	if q.Nav != "" {
		return q.Nav
	}
	return q.Base()
}

type lessonReqKey struct{}

// resolveLesson parses the lesson URL once for the handler it wraps. With
// fold, the options form's opt-<name>=value fields count as opt= (the
// page folds them, then canonicalize redirects to the canonical URL).
// A malformed URL is not answered here: the handler shows rq.Err, inside
// its cache wrapper like any other page.
func (s *Server) resolveLesson(fold bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rq := s.parseLessonReq(r, i18n.For(chi.URLParam(r, "lang")), fold)
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), lessonReqKey{}, rq)))
		})
	}
}

// reqOf is the request's resolved lesson URL (set by resolveLesson).
func reqOf(r *http.Request) *lessonReq { return r.Context().Value(lessonReqKey{}).(*lessonReq) }

func (s *Server) parseLessonReq(r *http.Request, u *i18n.UI, fold bool) *lessonReq {
	rq := &lessonReq{UI: u, Idx: -1}
	l, ok := s.course.Get(u.Lang, chi.URLParam(r, "slug"))
	if !ok {
		rq.Err = notFound(u)
		return rq
	}
	rq.L = l
	if len(r.URL.RawQuery) > MaxQuery {
		rq.Err = badState(u, &sim.ActionError{Index: -1, Action: "?…", Code: sim.CodeTooLong}, lessonPath(l), nil)
		return rq
	}
	q := r.URL.Query()
	if fold {
		if err := foldOptionFields(q, l.Scenario); err != nil {
			rq.Err = badState(u, err, lessonPath(l), nil)
			return rq
		}
	}
	st, err := parseState(q, l.Scenario)
	if err != nil {
		rq.Err = badState(u, err, lessonPath(l), nil)
		return rq
	}
	rq.St = st
	rq.Idx, rq.Exact = l.Locate(st.Do(), st.Opt())
	rq.Guess = guessFor(q, l, rq.Idx, rq.Exact)
	rq.Lab = s.labFor(u, l, q)
	rq.Canon = withLab(rq.Moment(), rq.Lab)
	return rq
}

// Moment is the query of the timeline and the guess, without the way back
// to the Lab: what a shared link or QR code carries.
func (q *lessonReq) Moment() string { return withGuess(q.St.Query(), q.Guess) }

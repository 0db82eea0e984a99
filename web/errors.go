// errors.go is web's one error path: every failure becomes an *Error with
// a status, and one function renders it as a page or as JSON in the
// request's language. Internal errors are logged, never shown.
package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"locklab/sim"
	"locklab/web/i18n"
)

// Error is a failure on its way to the learner.
type Error struct {
	Status int
	Title  string // short heading, in the page's language
	Text   string // one or two sentences, in the page's language
	Code   string // machine-readable, for JSON
	// Recover is a link that keeps what the learner did (the valid part of
	// their timeline), when there is one; Hint introduces it.
	Recover, RecoverText, Hint string
	// Err is the cause, for the log only.
	Err error
	// Keep, if set, is shown under the reason: what the learner sent (the
	// design page's form, as they typed it), to fix and send again.
	Keep templ.Component
}

func (e *Error) Error() string { return e.Title + ": " + e.Text }

func notFound(u *i18n.UI) *Error {
	return &Error{Status: http.StatusNotFound, Title: u.NotFound, Text: u.NotFoundText, Code: "not-found",
		Recover: "/" + u.Lang + "/", RecoverText: u.Home}
}

// badState explains an *sim.ActionError. base is the lesson's path; when
// the bad action is not the first, the learner gets a link to everything
// before it.
func badState(u *i18n.UI, err error, base string, st *State) *Error {
	var sc *sim.Scenario
	if st != nil {
		sc = st.sc
	}
	var be *sim.BackendError
	if errors.As(err, &be) {
		return unreachable(u, err)
	}
	var ae *sim.ActionError
	if !errors.As(err, &ae) {
		return internal(u, err)
	}
	e := &Error{Status: http.StatusBadRequest, Title: u.BadRequest, Text: errorText(u, ae, sc), Code: string(ae.Code), Err: err}
	if st != nil && ae.Index > 0 {
		e.Recover, e.RecoverText, e.Hint = base+st.Prefix(ae.Index).Query(), u.LastGood, u.BadRequestHint
	} else {
		e.Recover, e.RecoverText = base, u.StartOver
	}
	return e
}

// errorText says what was wrong with an action in u's language. The
// texts name the verbs and limits from the simulator's own table and
// constants: {0} the action, {1} whose, {2} the client verbs, {3} the node
// verbs, {4} the longest duration, {5} the most actions, {6} the hours of
// virtual time and {7} the events a timeline may hold, {8} the verbs that
// take a duration, {9} the action's verb and {10} the client verbs of the
// lesson (sc; all of them if nil).
func errorText(u *i18n.UI, ae *sim.ActionError, sc *sim.Scenario) string {
	sep := u.Language().NameSep
	verbs := func(keep func(sim.ActionSpec) bool) string {
		var vs []string
		for _, d := range []sim.Doer{sim.ByClient, sim.ToNode, sim.ByLearner} {
			for _, s := range sim.Actions(d) {
				if keep(s) {
					vs = append(vs, s.Verb)
				}
			}
		}
		return strings.Join(vs, sep)
	}
	by := func(d sim.Doer) func(sim.ActionSpec) bool { return func(s sim.ActionSpec) bool { return s.Doer == d } }
	here := verbs(by(sim.ByClient))
	if sc != nil {
		here = strings.Join(sc.ClientVerbs(), sep)
	}
	verb := ae.Action
	if parts := strings.Split(ae.Action, "."); len(parts) >= 2 {
		verb = parts[1]
	}
	return i18n.Fill(u.ErrorText[ae.Code], ae.Action, strings.ToUpper(ae.Who), verbs(by(sim.ByClient)), verbs(by(sim.ToNode)),
		sim.FormatDuration(sim.MaxWait), strconv.Itoa(sim.MaxActions), strconv.Itoa(sim.MaxVirtualTime/3_600_000),
		strconv.Itoa(sim.MaxEvents), verbs(func(s sim.ActionSpec) bool { return s.Arg == sim.ArgDuration }), verb, here)
}

// busy: too many replays are running; the learner's timeline is fine and
// the same link will work in a moment.
func busy(u *i18n.UI) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Title: u.ErrorTitle, Text: u.Busy, Code: "busy"}
}

// unreachable: the live Redis backend (-redis) did not answer in time.
// Not the learner's fault and not a bug: 503, and the same link works
// once that server is back.
func unreachable(u *i18n.UI, err error) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Title: u.ErrorTitle, Text: u.RedisDown, Code: "redis-unreachable", Err: err}
}

func internal(u *i18n.UI, err error) *Error {
	return &Error{Status: http.StatusInternalServerError, Title: u.ErrorTitle, Text: u.InternalText, Code: "internal", Err: err}
}

// fail writes e for the request: JSON for .json paths, a page otherwise.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, u *i18n.UI, e *Error) {
	if e.Status >= 500 {
		s.log.Error("request failed", "path", r.URL.Path, "err", e.Err)
	} else if e.Err != nil {
		s.log.Info("bad request", "path", r.URL.Path, "status", e.Status, "err", e.Err.Error())
	}
	w.Header().Set("Cache-Control", "no-store")
	if e.Status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "2")
	}
	if strings.HasSuffix(r.URL.Path, ".json") {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(e.Status)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
			"status": e.Status, "code": e.Code, "title": e.Title, "message": e.Text, "recover": e.Recover,
		}})
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(e.Status)
	if err := ErrorPage(s.page(u, e.Title, r), e).Render(r.Context(), w); err != nil {
		s.log.Warn("error page not written", "err", err)
	}
}

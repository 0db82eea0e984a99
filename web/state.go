// state.go is the URL-state codec: a timeline is (lesson, do, opt), and
// every link a page offers is that triple with one thing changed.
package web

import (
	"net/url"
	"strconv"
	"strings"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"
)

// MaxQuery bounds the raw query string before anything parses it.
const MaxQuery = 8192

// State is a timeline's description as it travels in a URL.
type State struct {
	Actions []sim.Action
	Opts    sim.Opts
	sc      *sim.Scenario
}

// parseState reads ?do=…&opt=… for scenario sc. Any error is an
// *sim.ActionError the error page can explain.
// i18n.CodeRepeated: a timeline parameter given twice (do=…&do=…).

func parseState(q url.Values, sc *sim.Scenario) (State, error) {
	for _, k := range []string{"do", "opt"} {
		if len(q[k]) > 1 {
			return State{}, &sim.ActionError{Index: -1, Action: k, Code: i18n.CodeRepeated}
		}
	}
	opts, err := sc.ParseOptions(q.Get("opt"))
	if err != nil {
		return State{}, err
	}
	actions, err := sim.ParseActions(q.Get("do"))
	if err != nil {
		return State{}, err
	}
	return State{Actions: actions, Opts: opts, sc: sc}, nil
}

// foldOptionFields turns the options form's fields (opt-release=del…)
// into the one opt= parameter, leaving do= as it is.
func foldOptionFields(q url.Values, sc *sim.Scenario) error {
	var parts []string
	found := false
	for _, spec := range sc.Options {
		key := "opt-" + spec.Name
		if vals, ok := q[key]; ok {
			found = true
			if len(vals) != 1 {
				return &sim.ActionError{Index: -1, Action: key, Code: sim.CodeBadOption}
			}
			parts = append(parts, spec.Name+"."+vals[0])
			q.Del(key)
		}
	}
	if found {
		q.Set("opt", strings.Join(parts, ","))
	}
	return nil
}

// Do and Opt are the canonical halves of the state.
func (s State) Do() string  { return sim.FormatActions(s.Actions) }
func (s State) Opt() string { return s.sc.FormatOptions(s.Opts) }

// Query renders the state as a query string ("" for the empty timeline).
// Actions and options use only [a-z0-9.,] so they need no escaping, which
// keeps shared links readable.
func (s State) Query() string { return query(s.Do(), s.Opt()) }

func query(do, opt string) string {
	var parts []string
	if do != "" {
		parts = append(parts, "do="+do)
	}
	if opt != "" {
		parts = append(parts, "opt="+opt)
	}
	if len(parts) == 0 {
		return ""
	}
	return "?" + strings.Join(parts, "&")
}

// guessFor reads ?guess=N, the learner's answer to a checkpoint. It counts
// only where the checkpoint is answered: the state is exactly guided step
// idx (exact), that step has one, and 1 ≤ N ≤ its number of choices.
// Anything else is "no guess", and canonicalize drops it from the URL. The
// guess changes only the words around the dialog, never the timeline.
func guessFor(q url.Values, l *lessons.Lesson, idx int, exact bool) int {
	vals := q["guess"]
	if len(vals) != 1 || !exact {
		return 0
	}
	n, err := strconv.Atoi(vals[0])
	if err != nil {
		return 0
	}
	if cp := l.Steps[idx].Checkpoint; cp == nil || n < 1 || n > len(cp.Choices) {
		return 0
	}
	return n
}

// withGuess appends guess=n (when n > 0) to a query made by query, so the
// canonical order is do, opt, guess.
func withGuess(q string, n int) string {
	switch {
	case n <= 0:
		return q
	case q == "":
		return "?guess=" + strconv.Itoa(n)
	}
	return q + "&guess=" + strconv.Itoa(n)
}

// With returns the state with one more action.
func (s State) With(a sim.Action) State {
	n := s
	n.Actions = append(append([]sim.Action(nil), s.Actions...), a)
	return n
}

// Undo returns the state without its last action.
func (s State) Undo() State {
	n := s
	if len(s.Actions) > 0 {
		n.Actions = s.Actions[:len(s.Actions)-1]
	}
	return n
}

// Prefix returns the state with only its first n actions: the last good
// timeline before an impossible action.
func (s State) Prefix(n int) State {
	p := s
	if n < len(s.Actions) {
		p.Actions = s.Actions[:n]
	}
	return p
}

// state.go is the URL-state codec: a timeline is (lesson, do, opt), and
// every link a page offers is that triple with one thing changed.

package lesson

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/luacheck"
	"locklab/sim/redisfront"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/site"
)

// URLState is a timeline's description as it travels in a URL.
type URLState struct {
	Actions []sim.Action
	Opts    sim.Opts
	sc      *sim.Scenario
}

// URLStateOf is the state of actions under opts in scenario sc.
func URLStateOf(sc *sim.Scenario, opts sim.Opts, actions []sim.Action) URLState {
	return URLState{Actions: actions, Opts: opts, sc: sc}
}

// ParseState reads ?do=…&opt=… for scenario sc. Any error is an
// *sim.ActionError the error page can explain.
// i18n.CodeRepeated: a timeline parameter given twice (do=…&do=…).

func ParseState(q url.Values, sc *sim.Scenario) (URLState, error) {
	for _, k := range []string{"do", "opt"} {
		if len(q[k]) > 1 {
			return URLState{}, &sim.ActionError{Index: -1, Action: k, Code: i18n.CodeRepeated}
		}
	}
	opts, err := sc.ParseOptions(q.Get("opt"))
	if err != nil {
		return URLState{}, err
	}
	actions, err := sim.ParseActions(q.Get("do"))
	if err != nil {
		return URLState{}, err
	}
	return URLState{Actions: actions, Opts: opts, sc: sc}, nil
}

// FoldOptionFields turns the options form's fields (opt-release=del…)
// into the one opt= parameter, leaving do= as it is.
func FoldOptionFields(q url.Values, sc *sim.Scenario) error {
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

// FoldCommandField turns the command line's fields (cli=<typed command>,
// node=<server>) into one more action at the end of do=: the command read
// as redis-cli reads it, checked, and printed in its one canonical form.
// An empty line adds nothing. What the command line does not send is an
// *sim.ActionError whose Action is the line as typed.
func FoldCommandField(q url.Values, sc *sim.Scenario) error {
	lines, ok := q["cli"]
	if !ok {
		return nil
	}
	node := q.Get("node")
	q.Del("cli")
	q.Del("node")
	if len(lines) != 1 {
		return &sim.ActionError{Index: -1, Action: "cli", Code: i18n.CodeRepeated}
	}
	line := lines[0]
	if strings.TrimSpace(line) == "" {
		return nil
	}
	nodes := sc.OperatorNodes()
	if node == "" {
		node = nodes[0]
	}
	if !slices.Contains(nodes, node) {
		return &sim.ActionError{Index: -1, Action: line, Code: sim.CodeCmdNode, Who: node}
	}
	a, code := sc.CommandActionIn(node, line) // a script named as the log names it is sent whole
	if code != "" {
		return &sim.ActionError{Index: -1, Action: line, Code: code, Who: a.Who}
	}
	do := q.Get("do")
	if do != "" {
		do += ","
	}
	q.Set("do", do+a.String())
	return nil
}

// Do and Opt are the canonical halves of the state.
func (s URLState) Do() string  { return sim.FormatActions(s.Actions) }
func (s URLState) Opt() string { return s.sc.FormatOptions(s.Opts) }

// Query renders the state as a query string ("" for the empty timeline).
// Actions and options use only [a-z0-9.,] so they need no escaping, which
// keeps shared links readable.
func (s URLState) Query() string { return links.Query(s.Do(), s.Opt()) }

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

// With returns the state with one more action.
func (s URLState) With(a sim.Action) URLState {
	n := s
	n.Actions = append(append([]sim.Action(nil), s.Actions...), a)
	return n
}

// Undo returns the state without its last action.
func (s URLState) Undo() URLState {
	n := s
	if len(s.Actions) > 0 {
		n.Actions = s.Actions[:len(s.Actions)-1]
	}
	return n
}

// Prefix returns the state with only its first n actions: the last good
// timeline before an impossible action.
func (s URLState) Prefix(n int) URLState {
	p := s
	if n < len(s.Actions) {
		p.Actions = s.Actions[:n]
	}
	return p
}

// scriptWhy is the checker's reason for refusing the script of a typed
// EVAL (action: the line as typed, or a URL's cli.<node>.<line>), in u's
// language; "" where it is another rule.
func scriptWhy(u *i18n.UI, action string) string {
	line := action
	if rest, ok := strings.CutPrefix(action, sim.VerbCLI+"."); ok {
		if _, l, ok := strings.Cut(rest, "."); ok {
			line = l
		}
	}
	args, code := sim.ParseCommand(line)
	if code != "" {
		return ""
	}
	var le *luacheck.Error
	if !errors.As(sim.ScriptRefusal(args), &le) {
		return ""
	}
	return u.ScriptError(le)
}

// BadState explains an *sim.ActionError. base is the lesson's path; when
// the bad action is not the first, the learner gets a link to everything
// before it.
func BadState(u *i18n.UI, err error, base string, st *URLState) *site.Error {
	var sc *sim.Scenario
	if st != nil {
		sc = st.sc
	}
	var be *sim.BackendError
	if errors.As(err, &be) {
		return site.Unreachable(u, err)
	}
	var ae *sim.ActionError
	if !errors.As(err, &ae) {
		return site.Internal(u, err)
	}
	e := &site.Error{Status: http.StatusBadRequest, Title: u.BadRequest, Text: ErrorText(u, ae, sc), Code: string(ae.Code), Err: err}
	if ae.Code == sim.CodeTooSlow {
		// the replay ran out of real time: the machine's load, not the
		// link (the same link answers on a quieter moment), so a 503 to
		// try again, as every other busy refusal, not a 400 that blames it
		e.Status, e.Title, e.Err = http.StatusServiceUnavailable, u.ErrorTitle, nil
		if st != nil {
			e.Recover, e.RecoverText = base+st.Query(), u.Class.TryAgain
		}
		return e
	}
	if st != nil && ae.Index > 0 {
		e.Recover, e.RecoverText, e.Hint = base+st.Prefix(ae.Index).Query(), u.LastGood, u.BadRequestHint
	} else {
		e.Recover, e.RecoverText = base, u.StartOver
	}
	return e
}

// ErrorText says what was wrong with an action in u's language. The
// texts name the verbs and limits from the simulator's own table and
// constants: {0} the action, {1} whose, {2} the client verbs, {3} the node
// verbs, {4} the longest duration, {5} the most actions, {6} the hours of
// virtual time and {7} the events a timeline may hold, {8} the verbs that
// take a duration, {9} the action's verb, {10} the client verbs of the
// lesson (sc; all of them if nil), {11} what one server may copy for a
// timeline (sim/redisfront's MaxWork) and {12} the action's number.
func ErrorText(u *i18n.UI, ae *sim.ActionError, sc *sim.Scenario) string {
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
	if ae.Code == sim.CodeCmdScript {
		if why := scriptWhy(u, ae.Action); why != "" {
			return i18n.Fill(u.ScriptRefused, site.Clip(ae.Action), why, u.Design.Title)
		}
	}
	// What the learner sent is quoted back shortened (site.Clip): a link
	// of any length gets an error page of bounded size.
	return i18n.Fill(u.ErrorText[ae.Code], site.Clip(ae.Action), site.Clip(strings.ToUpper(ae.Who)), verbs(by(sim.ByClient)), verbs(by(sim.ToNode)),
		sim.FormatDuration(sim.MaxWait), strconv.Itoa(sim.MaxActions), strconv.Itoa(sim.MaxVirtualTime/3_600_000),
		strconv.Itoa(sim.MaxEvents), verbs(func(s sim.ActionSpec) bool { return s.Arg == sim.ArgDuration }), site.Clip(verb), here,
		strconv.Itoa(redisfront.MaxWork>>20)+" MB", strconv.Itoa(ae.Index+1))
}

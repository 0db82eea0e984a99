// replay.go turns (scenario, options, actions) into a Timeline.

package sim

import (
	"context"
	"slices"
)

// Run looks up the scenario, parses the URL halves and replays them: the
// one call the web layer and the tests need.
func Run(scenario, do, opt string) (*Timeline, error) {
	sc, ok := Lookup(scenario)
	if !ok {
		return nil, &ActionError{Index: -1, Action: scenario, Code: CodeUnknownScene}
	}
	opts, err := sc.ParseOptions(opt)
	if err != nil {
		return nil, err
	}
	actions, err := ParseActions(do)
	if err != nil {
		return nil, err
	}
	return Replay(sc, opts, actions)
}

// Replay builds a fresh world, applies every action in order and returns
// the timeline. The first impossible action stops it with an *ActionError
// naming that action; nothing of a half-built timeline escapes.
func Replay(sc *Scenario, opts Opts, actions []Action) (*Timeline, error) {
	return ReplayContext(context.Background(), sc, opts, actions)
}

// ReplayContext is Replay that gives up, between two actions, once ctx is
// done (a server's deadline for one request). It never reads a clock: a
// replay that completes is the same whatever the deadline.
func ReplayContext(ctx context.Context, sc *Scenario, opts Opts, actions []Action) (*Timeline, error) {
	return ReplayOn(ctx, Embedded{}, sc, opts, actions)
}

// ReplayOn is ReplayContext with the nodes on b's servers: the parity
// tests and the live backend (-redis) pass a real server's; a server that
// fails stops the replay with a *BackendError.
func ReplayOn(ctx context.Context, b Backend, sc *Scenario, opts Opts, actions []Action) (*Timeline, error) {
	w, err := newWorld(b, sc, opts)
	if err != nil {
		return nil, &BackendError{Node: "?", Err: err}
	}
	defer w.close()
	w.advance(0)
	w.observe("")
	if err := w.serverErr(); err != nil {
		return nil, err
	}
	after := make([]State, len(actions))
	for i, a := range actions {
		if ctx.Err() != nil {
			return nil, &ActionError{Index: i, Action: a.String(), Code: CodeTooSlow}
		}
		if err := w.stepOnce(i, a); err != nil {
			return nil, err
		}
		if c := w.client(a.Who); c != nil && a.Doer() == ByClient {
			after[i] = c.state
		}
	}
	tl := w.timeline(actions)
	tl.After = after
	if err := w.serverErr(); err != nil {
		return nil, err
	}
	return tl, nil
}

// MaxEvents bounds the event log of one timeline (a client retrying every
// second through a long wait is the way to grow it).
const MaxEvents = 4000

// apply performs one learner action, or says why it is impossible now:
// the action's entry in the table says who does it, what refuses it and
// what it does.
func (w *World) apply(a Action) error {
	s := spec(a.Verb)
	if s == nil {
		return &ActionError{Code: CodeUnknownVerb, Who: a.Who}
	}
	x := &Act{w: w, Ms: a.Ms, Cmd: a.Cmd}
	switch s.Doer {
	case ByOperator:
		if x.n = w.operatorNode(a.Who); x.n == nil {
			return &ActionError{Code: CodeCmdNode, Who: a.Who}
		}
	case ByClient:
		if x.c = w.client(a.Who); x.c == nil {
			return &ActionError{Code: CodeUnknownClient, Who: a.Who}
		}
		if !s.offeredIn(w.sc) {
			return &ActionError{Code: CodeNotOffered, Who: a.Who}
		}
	case ToNode:
		if x.n = w.node(a.Who); x.n == nil {
			return &ActionError{Code: CodeUnknownNode, Who: a.Who}
		}
		if !s.offeredIn(w.sc) {
			return &ActionError{Code: CodeUnknownVerb, Who: a.Who}
		}
	}
	if code := s.refuse(x); code != "" {
		return &ActionError{Code: code, Who: a.Who}
	}
	if x.n != nil && s.Doer == ToNode {
		w.record(Event{Actor: x.n.Name, Kind: KindNode, Node: x.n.Name, Text: a.Verb, Ms: a.Ms, Model: true})
	}
	if err := s.Do(x); err != nil {
		return err
	}
	return w.takeFail()
}

// allowed lists the verbs of d that are possible now on x's client or
// node and that the scenario offers, in the order the controls show them.
func (w *World) allowed(d Doer, x *Act) []string {
	var out []string
	each(d, func(s *ActionSpec) {
		if s.offeredIn(w.sc) && s.refuse(x) == "" {
			out = append(out, s.Verb)
		}
	})
	return out
}

// takeFail returns (and clears) an error a timer hit while time passed.
func (w *World) takeFail() error {
	err := w.fail
	w.fail = nil
	return err
}

// timeline snapshots the world for the caller.
func (w *World) timeline(actions []Action) *Timeline {
	tl := &Timeline{
		Scenario: w.sc, Opts: w.opts, Actions: actions, Now: w.clock.Now(), ActionAt: w.actionAt,
		Events: w.events, Violations: w.violations, Locks: shownLocks(w.locks),
		Storage: w.storageView(),
		Allowed: map[string][]string{}, NodeAllowed: map[string][]string{},
	}
	if w.primary != nil {
		tl.LockTTL = w.primary.ttl(w.sc.LockKey())
	}
	if w.coord != nil {
		tl.Nodes = append(tl.Nodes, NodeView{Name: w.coord.nodeName(), Model: true})
	}
	for _, n := range w.nodes {
		tl.Nodes = append(tl.Nodes, NodeView{Name: n.Name, Down: n.down, Offset: n.offset, Latency: n.latency,
			Primary: n == w.primary && w.sc.Replicated, Replicated: w.sc.Replicated, LockTTL: n.pttl(w.sc.LockKey())})
		tl.NodeAllowed[n.Name] = w.allowed(ToNode, &Act{w: w, n: n})
	}
	for _, c := range w.clients {
		tl.Clients = append(tl.Clients, ClientView{
			ID: c.ID, State: c.state, Token: c.token, Value: c.value, Spans: c.spans, Pending: c.pendingWhat,
			ValidUntil: c.validUntil,
		})
		tl.Allowed[c.ID] = w.allowed(ByClient, &Act{w: w, c: c})
	}
	return tl
}

// shownLocks is locks with each value Shown: a copy where one is long (a
// value typed by hand), locks itself where none is.
func shownLocks(locks []LockSpan) []LockSpan {
	for i, lk := range locks {
		if Shown(lk.Value) != lk.Value {
			out := slices.Clone(locks)
			for j := i; j < len(out); j++ {
				out[j].Value = Shown(out[j].Value)
			}
			return out
		}
	}
	return locks
}

// stepOnce applies action i and what every replay checks after it: a
// server that failed (what the action did rests on it), the action's own
// error (with its place in the list), and the cap on events.
func (w *World) stepOnce(i int, a Action) error {
	w.step, w.actionAt = i, w.clock.Now()
	err := w.apply(a)
	if serr := w.serverErr(); serr != nil {
		return serr
	}
	if err != nil {
		if ae, ok := err.(*ActionError); ok {
			ae.Index, ae.Action = i, a.String()
		}
		return err
	}
	if len(w.events) > MaxEvents {
		return &ActionError{Index: i, Action: a.String(), Code: CodeTimeLimit}
	}
	return nil
}

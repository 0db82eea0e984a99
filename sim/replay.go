// replay.go turns (scenario, options, actions) into a Timeline.
package sim

import "context"

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
	for i, a := range actions {
		if ctx.Err() != nil {
			return nil, &ActionError{Index: i, Action: a.String(), Code: CodeTooSlow}
		}
		if err := w.stepOnce(i, a); err != nil {
			return nil, err
		}
	}
	tl := w.timeline(actions)
	if err := w.serverErr(); err != nil {
		return nil, err
	}
	return tl, nil
}

// MaxEvents bounds the event log of one timeline (a client retrying every
// second through a long wait is the way to grow it).
const MaxEvents = 4000

// apply performs one learner action, or says why it is impossible now.
func (w *World) apply(a Action) error {
	if a.Verb == VerbWait {
		if w.clock.Now()+a.Ms > MaxVirtualTime {
			return &ActionError{Code: CodeTimeLimit}
		}
		w.record(Event{Actor: Learner, Kind: KindWait, Ms: a.Ms})
		w.runUntil(w.clock.Now() + a.Ms)
		return w.takeFail()
	}
	if a.IsNode() {
		return w.nodeAction(a)
	}
	c := w.client(a.Who)
	if c == nil {
		return &ActionError{Code: CodeUnknownClient, Who: a.Who}
	}
	if code := w.refuse(c, a.Verb); code != "" {
		return &ActionError{Code: code, Who: c.ID}
	}
	var err error
	switch a.Verb {
	case VerbAcquire:
		err = w.acquire(c)
	case VerbWrite:
		if w.clock.Now()+w.sc.Work > MaxVirtualTime {
			return &ActionError{Code: CodeTimeLimit}
		}
		err = w.write(c)
	case VerbRelease:
		err = w.release(c)
	case VerbPause:
		w.pause(c)
	case VerbResume:
		err = w.resume(c)
	case VerbCrash:
		w.crash(c)
	case VerbNext:
		err = w.next(c)
	case VerbExtend:
		err = w.extend(c)
	case VerbDrop:
		w.drop(c)
	case VerbDisconnect:
		w.disconnect(c)
	case VerbReconnect:
		w.coordReconnect(c)
	}
	if err != nil {
		return err
	}
	return w.takeFail()
}

// refuse says why c cannot do verb in its present state ("" if it can).
// A client stopped between two commands can only go on (next), be paused
// or crash: that is the point of stopping it there.
func (w *World) refuse(c *Client, verb string) Code {
	local := w.sc.lockKind(w.opts) == LockLocal
	switch {
	case c.state == StateCrashed:
		return CodeCrashed
	case verb == VerbCrash:
		return ""
	case c.state == StatePaused && verb != VerbResume:
		return CodePaused
	case verb == VerbResume:
		if c.state != StatePaused {
			return CodeNotPaused
		}
		return ""
	case verb == VerbDisconnect || verb == VerbReconnect:
		if w.coord == nil {
			return CodeUnknownVerb
		}
		if c.disconnected != (verb == VerbReconnect) {
			return CodeNodeState
		}
		return ""
	case verb == VerbPause || verb == VerbDrop:
		return ""
	case verb == VerbNext:
		if c.pending == nil {
			return CodeNothingPending
		}
		return ""
	case c.pending != nil:
		return CodePending
	case verb == VerbAcquire && c.state != StateIdle:
		return CodeBusy
	case verb == VerbExtend && local:
		return CodeUnknownVerb
	case (verb == VerbWrite || verb == VerbRelease || verb == VerbExtend) && !c.inside():
		return CodeNotHolding
	}
	return ""
}

// allowed lists the verbs c can perform now, in the order the controls
// show them. drop is always possible but only offered where the lesson
// is about lost replies.
func (w *World) allowed(c *Client) []string {
	var out []string
	for _, v := range Verbs {
		if v == VerbDrop && !w.sc.Drops {
			continue
		}
		if v == VerbExtend && w.opts[OptTTL] == "" {
			continue // only the TTL lesson is about extending
		}
		if (v == VerbDisconnect || v == VerbReconnect) && w.coord == nil {
			continue
		}
		if w.refuse(c, v) == "" {
			out = append(out, v)
		}
	}
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
		Scenario: w.sc, Opts: w.opts, Actions: actions, Now: w.clock.Now(),
		Events: w.events, Violations: w.violations, Locks: w.locks,
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
			Primary: n == w.primary && w.sc.Replicated})
		tl.NodeAllowed[n.Name] = w.allowedNode(n)
	}
	for _, c := range w.clients {
		tl.Clients = append(tl.Clients, ClientView{
			ID: c.ID, State: c.state, Token: c.token, Value: c.value, Spans: c.spans, Pending: c.pendingWhat,
			ValidUntil: c.validUntil,
		})
		tl.Allowed[c.ID] = w.allowed(c)
	}
	return tl
}

// stepOnce applies action i and what every replay checks after it: a
// server that failed (what the action did rests on it), the action's own
// error (with its place in the list), and the cap on events.
func (w *World) stepOnce(i int, a Action) error {
	w.step = i
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

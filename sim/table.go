// table.go holds the table of actions: every client verb, node fault and
// global verb is one entry saying who does it, what argument it takes,
// when a scenario offers it, what refuses it, what it does, how the
// explorer may use it and what it costs the fault budget. The parser, the
// replay, the controls, the explorer and the web layer's labels all read
// the table; adding a client verb is adding an entry and its label in each
// catalog, a node fault also its log note, its mark's word and shape (the
// README's "What a change costs" lists the files; web's
// TestEveryActionLabelled fails on a missing one).

package sim

import (
	"fmt"
	"slices"
)

// Doer says who does an action, and so how it is written in a URL.
type Doer uint8

// Doers.
const (
	ByClient   Doer = iota + 1 // a client, by its one-letter id: a.acquire
	ToNode                     // done to a node, by its name: n3.down, n3.jump.5s
	ByLearner                  // the learner, to the whole world: wait.10s
	ByOperator                 // the learner typing a command to a node: cli.redis.PTTL lock:order:42
)

// Arg is what an action takes after its verb.
type Arg uint8

// Arguments.
const (
	ArgNone     Arg = iota
	ArgDuration     // a whole duration from 1ms to MaxWait: n3.jump.5s, wait.10s
	ArgCommand      // a command line (command.go): cli.<node>.<command>
)

// Need is what a client must be doing for a verb.
type Need uint8

// Needs, with the code that refuses a client that is not.
const (
	NeedNothing Need = iota
	NeedIdle         // not holding, not trying (CodeBusy)
	NeedInside       // inside the critical section, paused or not (CodeNotHolding)
)

// Cost is the part of the explorer's fault budget a fault spends. Each
// has a field of explore.Config (and, but for CostJump, a parameter of
// the Lab, where a clock jump is the learner's own setting).
type Cost uint8

// Costs, in the order the explorer tries faults of a client.
const (
	CostNone  Cost = iota
	CostPause      // explore.Config.Pauses
	CostCrash      // explore.Config.Crashes
	CostDrop       // explore.Config.Drops
	CostNode       // explore.Config.NodeFaults
	CostJump       // explore.Config.Jumps: a node's clock jumps forward
)

// ExploreUse says how the explorer may use an action.
type ExploreUse uint8

// Uses.
const (
	NotExplored ExploreUse = iota
	// ExploreStep: a step of a client's program, taken whenever it is
	// possible (at most once per client where the entry says so).
	ExploreStep
	// ExploreFault: a fault, taken while its Cost has budget left — on a
	// client, only once it has started (before, it has nothing to lose).
	ExploreFault
	// ExploreRecovery undoes a fault of its Cost and costs nothing: on a
	// node, only after a fault; on a client, once its pause has lasted.
	ExploreRecovery
	// ExploreWait: the learner's wait, taken to let a pause last (one of
	// explore.Config.PauseMs) while a client is paused.
	ExploreWait
)

// OnceStep names the explorer's record of a program step each client
// takes at most once (a second run of the program adds nothing).
type OnceStep uint8

const (
	OnceNone OnceStep = iota
	OnceAcquire
	OnceWrite
	OnceRelease
)

// Act is one action being done: the world, and the client or node it is
// done by or to. The table's functions receive it.
type Act struct {
	w   *World
	c   *Client  // ByClient
	n   *Node    // ToNode, ByOperator
	Ms  int64    // the duration argument (ArgDuration)
	Cmd []string // the typed command (ArgCommand)
}

// ActionSpec is one entry of the table.
type ActionSpec struct {
	Verb string
	Doer Doer
	Arg  Arg
	// Default is the duration the controls offer and the explorer takes
	// (ArgDuration); a URL may say any other.
	Default int64
	// Offered says whether a scenario offers the action: shows it among
	// the controls and lets the explorer take it. nil: every scenario. A
	// node verb is offered only where the scenario lists it (NodeVerbs),
	// and refused elsewhere (CodeUnknownVerb); a client verb not offered
	// is left out of the controls and refused in a URL (CodeNotOffered).
	Offered func(sc *Scenario) bool
	// The rules every client verb shares, checked first and in this
	// order: a crashed client does nothing (CodeCrashed); a paused one
	// only what WhilePaused allows (CodePaused); one stopped between two
	// commands only what WhilePending allows (CodePending).
	WhilePaused, WhilePending bool
	// Refuse is the entry's own rule: why the action is impossible now
	// ("" if it is possible). nil: never refused by itself.
	Refuse func(x *Act) Code
	// Needs is checked last (client verbs).
	Needs Need
	// Do performs the action. A client verb records its own events; for
	// a node verb the replay records the node event (KindNode) before.
	Do func(x *Act) error
	// Explore and Cost: how the explorer may use the action, and the
	// budget a fault spends (for a recovery: the fault it undoes).
	Explore ExploreUse
	Cost    Cost
	// Pointless, if set, tells the explorer a fault would change
	// nothing worth exploring now.
	Pointless func(x *Act) bool
	// Once: a program step the explorer takes at most once per client.
	Once OnceStep
	// Local, if set, tells the explorer the action changes nothing here
	// but its own client's state, breaks nothing, sends nothing, runs
	// no timer and lets no time pass, and no other client's step does
	// otherwise for what it changes (a check may judge otherwise). Such
	// an action commutes with another client's step that lets no time
	// pass, so the search takes it only before that step, never after
	// (sim/explore, its reduction).
	Local func(x *Act) bool
}

// table is every action, in the order the controls show them.
var (
	table  []ActionSpec
	byVerb = map[string]int{}
)

// Register adds an action to the table (the built-in ones are added at
// start-up; a test adds a throwaway one). It returns the function that
// takes it out again. A verb is one entry whoever does it, so a URL's verb
// says who does it. Not safe while replays run.
func Register(s ActionSpec) (unregister func()) {
	needsDefault := s.Arg == ArgDuration && s.Doer != ByLearner
	if _, dup := byVerb[s.Verb]; dup || s.Verb == "" || s.Do == nil || s.Doer == 0 || needsDefault && s.Default <= 0 {
		panic(fmt.Sprintf("sim.Register: bad or repeated verb %q", s.Verb))
	}
	byVerb[s.Verb] = len(table)
	table = append(table, s)
	return func() {
		i := slices.IndexFunc(table, func(x ActionSpec) bool { return x.Verb == s.Verb })
		table = slices.Delete(table, i, i+1)
		clear(byVerb)
		for i, x := range table {
			byVerb[x.Verb] = i
		}
	}
}

// spec is the entry of verb (nil if none).
func spec(verb string) *ActionSpec {
	if i, ok := byVerb[verb]; ok {
		return &table[i]
	}
	return nil
}

// Spec returns a copy of verb's entry.
func Spec(verb string) (ActionSpec, bool) {
	if s := spec(verb); s != nil {
		return *s, true
	}
	return ActionSpec{}, false
}

// Actions lists the entries done by d, in the order the controls show
// them (copies: the table is not changed through them).
func Actions(d Doer) []ActionSpec {
	var out []ActionSpec
	for _, s := range table {
		if s.Doer == d {
			out = append(out, s)
		}
	}
	return out
}

// each calls f for every entry done by d, in table order.
func each(d Doer, f func(s *ActionSpec)) {
	for i := range table {
		if table[i].Doer == d {
			f(&table[i])
		}
	}
}

// ClientVerbs are the client verbs sc offers, in the table's order: the
// only ones a timeline of sc may use.
func (sc *Scenario) ClientVerbs() []string {
	var out []string
	for i := range table {
		if s := &table[i]; s.Doer == ByClient && s.offeredIn(sc) {
			out = append(out, s.Verb)
		}
	}
	return out
}

// offeredIn reports whether sc offers the action.
func (s *ActionSpec) offeredIn(sc *Scenario) bool {
	if s.Doer == ToNode && !slices.Contains(sc.NodeVerbs, s.Verb) {
		return false
	}
	return s.Offered == nil || s.Offered(sc)
}

// OffersFault reports whether sc offers a fault the explorer may take that
// spends c: whether the Lab asks how many of them.
func (sc *Scenario) OffersFault(c Cost) bool {
	for i := range table {
		if s := &table[i]; s.Explore == ExploreFault && s.Cost == c && s.offeredIn(sc) {
			return true
		}
	}
	return false
}

// refuse says why the action x is impossible now ("" if it is possible):
// the rules every client verb shares, the entry's own rule, then what the
// client needs to be doing.
func (s *ActionSpec) refuse(x *Act) Code {
	c := x.c
	if c != nil {
		switch {
		case c.state == StateCrashed:
			return CodeCrashed
		case c.state == StatePaused && !s.WhilePaused:
			return CodePaused
		case c.pending != nil && !s.WhilePending:
			return CodePending
		}
	}
	if s.Refuse != nil {
		if code := s.Refuse(x); code != "" {
			return code
		}
	}
	if c != nil {
		switch {
		case s.Needs == NeedIdle && c.state != StateIdle:
			return CodeBusy
		case s.Needs == NeedInside && !c.inside():
			return CodeNotHolding
		}
	}
	return ""
}

// Durations the node controls offer.
const (
	defaultJumpMs = 10_000
	defaultSlowMs = 4000
)

// The built-in actions: the table's data, an entry per action in the
// order the controls show them. It is kept in one function on purpose,
// though longer than the 100 lines a function is held to: read top to
// bottom it is the list of every verb and fault there is, and cut into
// pieces it would be a list the reader has to put back together.
func init() {
	client := func(verb string, s ActionSpec) ActionSpec {
		s.Verb, s.Doer = verb, ByClient
		return s
	}
	node := func(verb string, s ActionSpec) ActionSpec {
		s.Verb, s.Doer = verb, ToNode
		return s
	}
	for _, s := range []ActionSpec{
		client(VerbAcquire, ActionSpec{Needs: NeedIdle, Explore: ExploreStep, Once: OnceAcquire,
			Do: func(x *Act) error { return x.w.acquire(x.c) }}),
		client(VerbNext, ActionSpec{WhilePending: true, Explore: ExploreStep,
			Refuse: func(x *Act) Code {
				if x.c.pending == nil {
					return CodeNothingPending
				}
				return ""
			},
			Do: func(x *Act) error { return x.w.next(x.c) }}),
		client(VerbWrite, ActionSpec{Needs: NeedInside, Explore: ExploreStep, Once: OnceWrite,
			Do: func(x *Act) error {
				if x.w.clock.Now()+x.w.sc.WorkMs(x.w.opts) > MaxVirtualTime {
					return &ActionError{Code: CodeTimeLimit}
				}
				return x.w.write(x.c)
			}}),
		client(VerbExtend, ActionSpec{Needs: NeedInside,
			Offered: func(sc *Scenario) bool { return sc.option(OptTTL) != nil }, // only the TTL lesson is about extending
			Refuse: func(x *Act) Code {
				if x.w.sc.lockKind(x.w.opts) == LockLocal || (x.w.sc.Scripted != nil && !x.w.sc.Scripted.extends) {
					return CodeUnknownVerb
				}
				return ""
			},
			Do: func(x *Act) error { return x.w.extend(x.c) }}),
		client(VerbTTL, ActionSpec{WhilePending: true,
			// the lessons where a key may have no TTL: how acquiring sets it, and the TTL itself
			Offered: func(sc *Scenario) bool { return sc.option(OptTTL) != nil || sc.option(OptAcquire) != nil },
			Refuse: func(x *Act) Code {
				if x.w.primary == nil || x.w.sc.lockKind(x.w.opts) == LockLocal {
					return CodeUnknownVerb
				}
				return ""
			},
			Do: func(x *Act) error { return x.w.askTTL(x.c) }}),
		client(VerbRelease, ActionSpec{Needs: NeedInside, Explore: ExploreStep, Once: OnceRelease,
			Do: func(x *Act) error { return x.w.release(x.c) }}),
		client(VerbPause, ActionSpec{WhilePending: true, Explore: ExploreFault, Cost: CostPause,
			// a coordination service hears a pause (its heartbeats stop)
			Local: func(x *Act) bool { return x.w.coord == nil },
			Do:    func(x *Act) error { x.w.pause(x.c); return nil }}),
		client(VerbResume, ActionSpec{WhilePaused: true, WhilePending: true, Explore: ExploreRecovery, Cost: CostPause,
			Refuse: func(x *Act) Code {
				if x.c.state != StatePaused {
					return CodeNotPaused
				}
				return ""
			},
			// unless timers came due while it slept: they run at once
			Local: func(x *Act) bool { return x.w.coord == nil && len(x.c.due) == 0 },
			Do:    func(x *Act) error { return x.w.resume(x.c) }}),
		// the learner's fault, not the explorer's: on a design's timeline
		// the client is cut off from its Redis, its storage still answers
		client(VerbDisconnect, ActionSpec{WhilePending: true, Offered: cutOffered, Refuse: cutRefuse(false),
			Do: func(x *Act) error { x.w.disconnect(x.c); return nil }}),
		client(VerbReconnect, ActionSpec{WhilePending: true, Offered: cutOffered, Refuse: cutRefuse(true),
			Do: func(x *Act) error { x.w.reconnect(x.c); return nil }}),
		client(VerbDrop, ActionSpec{WhilePending: true, Explore: ExploreFault, Cost: CostDrop,
			Offered: func(sc *Scenario) bool { return sc.Drops }, // the lesson about lost replies, and designs
			// A design loses only a write's reply: the explorer drops one
			// only in the client's window (Client.dropWindow).
			Pointless: func(x *Act) bool {
				return x.c.dropNext || (x.w.sc.Scripted != nil && !x.c.dropWindow)
			},
			Do: func(x *Act) error { x.w.drop(x.c); return nil }}),
		client(VerbCrash, ActionSpec{WhilePaused: true, WhilePending: true, Explore: ExploreFault, Cost: CostCrash,
			// another client's check reads a crash (it may stop calling a
			// refusal a failure), never its step; the crash itself finds
			// an orphan only in the lock it holds
			Local: func(x *Act) bool {
				return x.w.coord == nil && (x.w.primary == nil || x.w.keyHolder(x.w.primary) != x.c.ID)
			},
			Do: func(x *Act) error { x.w.crash(x.c); return nil }}),

		node(NodeDown, ActionSpec{Explore: ExploreFault, Cost: CostNode,
			Refuse: func(x *Act) Code { return nodeRefuse(x.n.down) },
			Do:     func(x *Act) error { x.w.down(x.n); return nil }}),
		node(NodeUp, ActionSpec{Explore: ExploreRecovery, Cost: CostNode,
			Refuse: func(x *Act) Code { return nodeRefuse(!x.n.down || (x.w.sc.Replicated && x.n == x.w.oldPrimary)) },
			Do:     func(x *Act) error { x.w.up(x.n); return nil }}),
		node(NodeRestart, ActionSpec{Explore: ExploreFault, Cost: CostNode,
			Do: func(x *Act) error { x.w.restart(x.n); return nil }}),
		// a challenge's fault of its own (explore.Config.Jumps), by the
		// default length: Redlock's clock jump (FACTS.md)
		node(NodeJump, ActionSpec{Arg: ArgDuration, Default: defaultJumpMs, Explore: ExploreFault, Cost: CostJump,
			Do: func(x *Act) error { x.w.jump(x.n, x.Ms); return nil }}),
		node(NodeSlow, ActionSpec{Arg: ArgDuration, Default: defaultSlowMs,
			Do: func(x *Act) error { x.n.latency = x.Ms; return nil }}),
		node(NodePromote, ActionSpec{Explore: ExploreRecovery, Cost: CostNode,
			Refuse: func(x *Act) Code { // a replica, once the primary is gone
				return nodeRefuse(!x.w.sc.Replicated || x.n == x.w.primary || !x.w.primary.down)
			},
			Do: func(x *Act) error { x.w.promote(x.n); return nil }}),

		{Verb: VerbWait, Doer: ByLearner, Arg: ArgDuration, Explore: ExploreWait,
			Refuse: func(x *Act) Code {
				if x.w.clock.Now()+x.Ms > MaxVirtualTime {
					return CodeTimeLimit
				}
				return ""
			},
			Do: func(x *Act) error {
				x.w.record(Event{Actor: Learner, Kind: KindWait, Ms: x.Ms})
				x.w.runUntil(x.w.clock.Now() + x.Ms)
				return nil
			}},

		{Verb: VerbCLI, Doer: ByOperator, Arg: ArgCommand,
			Do: func(x *Act) error { return x.w.operate(x.n, x.Cmd) }},
	} {
		Register(s)
	}
}

// cutOffered / cutRefuse: losing and regaining the connection to the
// lock's server exist where the lock lives in a coordination service, or
// in a design's one Redis (whose storage the client still reaches).
func cutOffered(sc *Scenario) bool { return sc.Coord || sc.Scripted != nil }

// cutRefuse(cut) refuses where the scenario has no such connection, and
// unless the client's connection is cut (reconnect) or not (disconnect).
func cutRefuse(cut bool) func(x *Act) Code {
	return func(x *Act) Code {
		switch {
		case x.w.coord == nil && x.w.sc.Scripted == nil:
			return CodeUnknownVerb
		case x.c.disconnected != cut:
			return CodeNodeState
		}
		return ""
	}
}

// nodeRefuse is CodeNodeState when the node cannot do it now.
func nodeRefuse(cannot bool) Code {
	if cannot {
		return CodeNodeState
	}
	return ""
}

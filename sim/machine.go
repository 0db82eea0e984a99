// machine.go is what a search of schedules (sim/explore) drives: a world
// started from a scenario, stepped one action at a time, saved and
// loaded (a child is its parent's saved world plus one action; see
// explore_fork.go), fingerprinted (explore_state.go) and asked which
// moves the action table offers now. The search chooses among them and
// counts its budget; what a world is and does stays here.

package sim

import (
	"crypto/sha256"
	"errors"
	"slices"
)

// Machine is a world on its own embedded servers, for a search: one
// goroutine uses it at a time. Saved worlds are loaded into it, so a
// worker needs one machine whatever the number of states.
type Machine struct {
	w     *World
	chain []*evChunk // the chunks its event log holds, from the first: w.events[:chain[len-1].n] are theirs
	locks []LockSpan // the loaded world's lock spans, as they were before its action
	fp    fpBuf      // scratch for the fingerprints of the worlds it reaches
	keys  [][]keyState
	// offers is Offers' answer, reused: a search asks it of every new
	// state, and growing a fresh list each time was a quarter of the
	// bytes a grade allocated.
	offers     []Offer
	offerSpecs *offerSpecs
	// checkEncoding, when set, is given every encoding the fingerprint
	// makes (a client's signature: st's client i; else all of st) to
	// hold it to the reference (explore_encode_test.go).
	checkEncoding func(en *fpEnc, st *worldState, client int, got []byte)
}

// Saved is a world between two actions, detached from any server: what
// Machine.Save returns and Machine.Load makes a machine's world again.
type Saved = frozen

// ErrTooBig marks an action that takes a schedule beyond a timeline's
// limits (its time, its events, its bytes): no URL could show it, so a
// search leaves it out.
var ErrTooBig = errors.New("schedule beyond a timeline's limits")

// NewMachine starts the scenario's world with its options, at its first
// instant, as Replay does before the first action.
func NewMachine(sc *Scenario, opts Opts) (*Machine, error) {
	w, err := newWorld(Embedded{}, sc, opts)
	if err != nil {
		return nil, &BackendError{Node: "?", Err: err}
	}
	w.advance(0)
	w.observe("")
	return &Machine{w: w}, nil
}

// Close gives the machine's servers back.
func (m *Machine) Close() { m.w.close() }

// Step applies action i of a schedule as a replay does. Moves are chosen
// among the offered ones, so an error here is a bug or a server failure,
// except ErrTooBig.
func (m *Machine) Step(i int, a Action) error {
	m.keys = nil
	err := m.w.stepOnce(i, a)
	var ae *ActionError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ae) && (ae.Code == CodeTimeLimit || ae.Code == CodeTooMany || ae.Code == CodeTooBig):
		return ErrTooBig
	case errors.As(err, &ae):
		return &InternalError{Err: errors.New("explorer: " + a.String() + ": " + err.Error())}
	}
	return err
}

// Broke lists, sorted and once each, the kinds of failure the checks
// found at action step.
func (m *Machine) Broke(step int) []ViolationKind {
	var out []ViolationKind
	for _, v := range m.w.violations {
		if v.Step == step && !slices.Contains(out, v.Kind) {
			out = append(out, v.Kind)
		}
	}
	slices.Sort(out)
	return out
}

// serverKeys is every node's keys as the servers hold them now, read once
// per step.
func (m *Machine) serverKeys() [][]keyState {
	if m.keys == nil {
		m.keys = m.w.dumpKeys()
	}
	return m.keys
}

// Save copies the world. parent is the saved world this one was loaded
// from (nil: none, as after NewMachine): what the two share is kept
// once.
func (m *Machine) Save(parent *Saved) *Saved {
	var up []LockSpan
	if parent != nil {
		up = m.locks
	}
	return m.w.freeze(m.serverKeys(), parent, up)
}

// Load makes the machine's world s, on the machine's servers.
func (m *Machine) Load(s *Saved) {
	s.thaw(m)
	m.keys = nil
}

// Spent is what a schedule has spent of a search's bounds (a Budget),
// and which clients took the program's steps that run once (bit i:
// client i). It is part of a state, since the same world with more left
// has more futures: the fingerprint reads it, the search decides what it
// allows.
type Spent struct {
	Pauses, Waits, Crashes, NodeFaults, Drops, Jumps int
	Acquired, Written, Released                      uint8
	Waited                                           uint8 // client i's pause has had its wait
}

// Fingerprint is the world's state as far as any future can tell, with
// what the schedule spent, b, hashed (explore_state.go); symmetric: the first clients
// clients run the same program, and worlds that differ only by which of
// them is which have one fingerprint.
func (m *Machine) Fingerprint(b Spent, clients int, symmetric bool) [16]byte {
	sum := sha256.Sum256(m.canonical(b, clients, symmetric))
	return [16]byte(sum[:16])
}

// Offer is an action the table offers the search now, with what the
// search needs to decide whether its budget allows it.
type Offer struct {
	Action Action
	// Client is the index of the client that takes it (-1: the learner
	// or a node).
	Client  int
	Use     ExploreUse
	Cost    Cost
	Once    OnceStep
	Started bool // the client has started (it is not idle or crashed)
	// Pointless: a fault that would change nothing worth exploring now.
	Pointless bool
	// Local: it changes only its own client's state here (ActionSpec.Local).
	Local bool
}

// Offers lists what may happen next among the first clients clients, as
// the table of actions allows and refuses it here, in the search's
// order: client by client, its program steps (ExploreStep), then its
// faults and recoveries in the order of their costs; the learner's waits
// (Ms 0: the search gives the length); the nodes' faults and recoveries.
// A search that keeps the first of its shortest schedules so tells the
// story of the client that acts first: A paused, B taking the lock, A
// waking up (with every step before every fault, and the search leaving
// out a pause after another client's step, it told B's pause and A's
// idle wait instead). The list is the machine's own: it holds until the
// machine's next Offers.
func (m *Machine) Offers(clients int) []Offer {
	w := m.w
	sp := m.specs()
	out := m.offers[:0]
	defer func() { m.offers = out }()
	cs := w.clients[:clients]
	for i, c := range cs {
		x := &Act{w: w, c: c}
		for _, s := range sp.steps {
			if s.refuse(x) == "" {
				out = append(out, Offer{Action: Action{Who: c.ID, Verb: s.Verb, Ms: s.Default}, Client: i, Use: s.Explore, Once: s.Once})
			}
		}
		started := c.state != StateIdle && c.state != StateCrashed
		for _, s := range sp.faults {
			if s.refuse(x) != "" {
				continue
			}
			out = append(out, Offer{Action: Action{Who: c.ID, Verb: s.Verb, Ms: s.Default}, Client: i, Use: s.Explore,
				Cost: s.Cost, Once: s.Once, Started: started, Pointless: s.Pointless != nil && s.Pointless(x),
				Local: s.Local != nil && s.Local(x)})
		}
	}
	for _, s := range sp.waits {
		out = append(out, Offer{Action: Action{Verb: s.Verb}, Client: -1, Use: s.Explore})
	}
	for _, nd := range w.nodes {
		x := &Act{w: w, n: nd}
		for _, s := range sp.nodes {
			if s.refuse(x) == "" {
				out = append(out, Offer{Action: Action{Who: nd.Name, Verb: s.Verb, Ms: s.Default}, Client: -1, Use: s.Explore, Cost: s.Cost})
			}
		}
	}
	return out
}

// offerSpecs are the table's rows Offers considers for one scenario, in
// the order it offers them: a client's steps, then its faults and
// recoveries by cost; the learner's waits; a node's actions.
type offerSpecs struct {
	sc                          *Scenario
	steps, faults, waits, nodes []*ActionSpec
}

// specs is the machine's scenario's offerSpecs, found once: which rows a
// scenario offers never changes, and scanning the whole table for every
// client of every state was a tenth of a search's time.
func (m *Machine) specs() *offerSpecs {
	if sp := m.offerSpecs; sp != nil && sp.sc == m.w.sc {
		return sp
	}
	sc := m.w.sc
	sp := &offerSpecs{sc: sc}
	each(ByClient, func(s *ActionSpec) {
		if s.Explore == ExploreStep && s.offeredIn(sc) {
			sp.steps = append(sp.steps, s)
		}
	})
	for cost := CostPause; cost <= CostNode; cost++ {
		each(ByClient, func(s *ActionSpec) {
			if s.Cost == cost && (s.Explore == ExploreFault || s.Explore == ExploreRecovery) && s.offeredIn(sc) {
				sp.faults = append(sp.faults, s)
			}
		})
	}
	each(ByLearner, func(s *ActionSpec) {
		if s.Explore == ExploreWait {
			sp.waits = append(sp.waits, s)
		}
	})
	each(ToNode, func(s *ActionSpec) {
		if s.offeredIn(sc) {
			sp.nodes = append(sp.nodes, s)
		}
	})
	m.offerSpecs = sp
	return sp
}

// Now is the world's virtual time: a search reads whether a step let
// time pass.
func (m *Machine) Now() int64 { return m.w.clock.Now() }

// StateOf is client i's state.
func (m *Machine) StateOf(i int) State { return m.w.clients[i].state }

// ClientIndex is the index of the client with that id, or -1.
func (m *Machine) ClientIndex(id string) int {
	return slices.IndexFunc(m.w.clients, func(c *Client) bool { return c.ID == id })
}

// MustStep is the one client among the first clients that must take its
// next step now, or -1. In a design, a client whose write's reply the
// network will lose steps at once: the drop changes only that client's
// next reply from the storage, which only its own steps send, so taking
// it just before the write stands for taking it at any earlier moment.
func (m *Machine) MustStep(clients int) int {
	if m.w.sc.Scripted == nil {
		return -1
	}
	return slices.IndexFunc(m.w.clients[:clients], func(c *Client) bool { return c.dropNext })
}

// PastTTL is how long a wait must last for the lock key to be gone from
// every lock node that holds it with a TTL, rounded up to the second (a
// key is gone at its deadline's own millisecond), or 0 where none does
// or the longest is past MaxWait.
func (m *Machine) PastTTL() int64 {
	w := m.w
	var longest int64
	for _, n := range w.nodes {
		if n.down {
			continue
		}
		longest = max(longest, n.pttl(w.sc.LockKey()))
	}
	if longest <= 0 {
		return 0
	}
	ms := (longest + 999) / 1000 * 1000
	if ms > MaxWait {
		return 0
	}
	return ms
}

// NodeFaults are the node faults a search may inject in sc.
func (sc *Scenario) NodeFaults() []string {
	var out []string
	each(ToNode, func(s *ActionSpec) {
		if s.Explore == ExploreFault && s.Cost == CostNode && s.offeredIn(sc) {
			out = append(out, s.Verb)
		}
	})
	return out
}

// Breaks reports whether the timeline shows a failure of kind k at the
// action step. The Lab's tests use it to prove a counterexample opens on
// the failure it claims.
func (tl *Timeline) Breaks(k ViolationKind, step int) bool {
	for _, v := range tl.Violations {
		if v.Step == step && v.Kind == k {
			return true
		}
	}
	return false
}

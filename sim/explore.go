// explore.go holds the schedule explorer: given a lock design (a scenario,
// its options, how many clients take part) and a fault budget, it tries
// every schedule of the clients' programs and the faults up to a bound,
// breadth first — every schedule of one action, then of two, … — skipping
// states it has already seen, and reports what broke and the shortest
// schedule that breaks it, as the `do` of a timeline URL. Its budget is
// counted in states, never in time: the same request gives the same answer
// on a busy server and a quiet one, and whatever depth it reached, it has
// seen every schedule up to that depth.
//
// Every schedule runs on the real simulator: real go-redis clients, real
// miniredis replies. A child state is reached by copying its parent's world
// (explore_fork.go) onto pooled servers and applying one action. The explorer adds
// no model of its own; it only chooses the actions and reads the
// violations the checks compute. A counterexample it reports is replayed
// once more with Replay, from its URL form, before it is reported.

package sim

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
)

// ExploreConfig is one design and the bounds of its exploration.
type ExploreConfig struct {
	Scenario *Scenario
	Opts     Opts
	// Clients is how many of the scenario's clients run their program
	// (acquire, work and write once, release), from the first; 0 means
	// all. The others stay idle.
	Clients int
	// Pauses is how many stop-the-world pauses the schedules may contain;
	// PauseMs the lengths a pause may last. A pause is x.pause, then one
	// wait of its length (others act around it), then x.resume: time
	// passes only through the clients' work and the pauses. A length of
	// PausePastTTL is read from the servers when the wait is taken.
	Pauses  int
	PauseMs []int64
	// Crashes is how many client crashes a schedule may contain.
	Crashes int
	// NodeFaults is how many node faults (restart, down; where the
	// scenario's nodes offer them) a schedule may contain. Bringing a node
	// back up and promoting a replica are not faults and cost nothing.
	NodeFaults int
	// Drops is how many lost replies a schedule may contain (only where
	// the scenario offers them).
	Drops int
	// MaxDepth bounds the actions of one schedule.
	MaxDepth int
	// MaxStates bounds the distinct states explored.
	MaxStates int
	// noSymmetry turns the symmetry reduction off (tests compare both).
	noSymmetry bool
	// replay reaches every state by replaying its whole schedule on a
	// fresh world instead of forking its parent's (tests compare both).
	replay bool
	// checkEncoding, when set, is given every encoding the fingerprint
	// makes (a client's signature: st's client i; else all of st) to
	// hold it to the reference (explore_encode_test.go).
	checkEncoding func(en *fpEnc, st *worldState, client int, got []byte)
	// workers is how many goroutines expand states (0: GOMAXPROCS); the
	// result is the same for any number.
	workers int
}

// Exploration bounds: the defaults the Lab starts from, and the limits no
// configuration may exceed (they bound a request's work whatever the URL).
const (
	DefaultExploreDepth  = 14
	DefaultExploreStates = 20_000
	MaxExploreDepth      = 24
	MaxExploreStates     = 50_000
	MaxExploreFaults     = 3
)

// PausePastTTL, as a pause length, is a pause that outlasts the lock:
// the wait lasts until the lock key's TTL on its servers (the longest of
// them) has run out, rounded up to the second (a key is gone at its
// deadline's own millisecond, so the holder resumes without it). It
// is read from the servers when the wait is taken, not from what the
// design declares: a script that sets ten minutes where the form says
// ten seconds is paused for ten minutes and a second. Where no key has a
// TTL (or the longest is past MaxWait) no pause can outlast it, and that
// length is not taken.
const PausePastTTL int64 = -1

// Why an exploration stopped before it had seen every schedule within its
// bounds.
const (
	StopStates = "states" // MaxStates distinct states were reached
	// StopTime: the context ended (a server's safety stop). The result
	// then depends on the machine's speed: it is no verdict.
	StopTime = "time"
)

// Finding is what the explorer saw of one kind of failure.
type Finding struct {
	// Schedules counts the schedules whose last action broke it (a
	// schedule that goes on is not counted again for the same kind).
	Schedules int
	// Shortest is the shortest schedule found that breaks it, verified by
	// a full Replay; its Step is the action that broke it (0-based).
	Shortest []Action
}

// CodeBadExplore: an explorer configuration out of its limits.
const CodeBadExplore Code = "bad-explore"

// ExploreResult is what an exploration found.
type ExploreResult struct {
	Schedules int // schedules replayed (every prefix counts as one)
	States    int // distinct states reached
	// Violating counts the schedules whose last action broke anything
	// (any violation of the checks, or harm).
	Violating int
	// Found holds, per kind, the failures seen.
	Found map[ViolationKind]*Finding
	// Shortest is the shortest counterexample (ShortestOf: of a failing
	// kind where there is one; at equal length the worst); nil if none.
	Shortest     []Action
	ShortestKind ViolationKind
	// Stopped says why the exploration is incomplete ("" if it saw every
	// schedule within its bounds): StopStates or StopTime.
	Stopped string
	// Depth is how far the search is complete: every schedule of up to
	// Depth actions was explored (all of them, even if it stopped early).
	Depth int
	// DepthCut: some schedules go on past MaxDepth; they were cut there.
	DepthCut bool
	// MaxDepthSeen is the length of the longest schedule explored.
	MaxDepthSeen int
}

// Complete reports whether every schedule within the bounds was explored.
func (r *ExploreResult) Complete() bool { return r.Stopped == "" }

// Do is the URL form of the shortest counterexample.
func (r *ExploreResult) Do() string { return FormatActions(r.Shortest) }

// Validate checks a configuration against its scenario and the limits,
// filling in defaults. Errors are *ActionError with CodeBadOption-like
// codes the web layer explains.
func (cfg *ExploreConfig) Validate() error {
	sc := cfg.Scenario
	if sc == nil {
		return &ActionError{Index: -1, Action: "scenario", Code: CodeUnknownScene}
	}
	if cfg.Opts == nil {
		cfg.Opts = sc.DefaultOpts()
	}
	if cfg.Clients == 0 {
		cfg.Clients = len(sc.Clients)
	}
	if cfg.MaxDepth == 0 {
		cfg.MaxDepth = DefaultExploreDepth
	}
	if cfg.MaxStates == 0 {
		cfg.MaxStates = DefaultExploreStates
	}
	bad := func(what string) error { return &ActionError{Index: -1, Action: what, Code: CodeBadExplore} }
	switch {
	case cfg.Clients < 1 || cfg.Clients > len(sc.Clients):
		return bad("clients=" + strconv.Itoa(cfg.Clients))
	case cfg.Pauses < 0 || cfg.Pauses > MaxExploreFaults:
		return bad("pauses=" + strconv.Itoa(cfg.Pauses))
	case cfg.Pauses > 0 && len(cfg.PauseMs) == 0:
		return bad("pause")
	case cfg.Crashes < 0 || cfg.Crashes > MaxExploreFaults:
		return bad("crashes=" + strconv.Itoa(cfg.Crashes))
	case cfg.NodeFaults < 0 || cfg.NodeFaults > MaxExploreFaults:
		return bad("node=" + strconv.Itoa(cfg.NodeFaults))
	case cfg.NodeFaults > 0 && len(sc.exploreNodeVerbs()) == 0:
		return bad("node=" + strconv.Itoa(cfg.NodeFaults))
	case cfg.Drops < 0 || cfg.Drops > MaxExploreFaults || (cfg.Drops > 0 && !sc.Drops):
		return bad("drops=" + strconv.Itoa(cfg.Drops))
	case cfg.MaxDepth < 1 || cfg.MaxDepth > MaxExploreDepth:
		return bad("depth=" + strconv.Itoa(cfg.MaxDepth))
	case cfg.MaxStates < 1 || cfg.MaxStates > MaxExploreStates:
		return bad("states=" + strconv.Itoa(cfg.MaxStates))
	}
	for _, ms := range cfg.PauseMs {
		if (ms <= 0 || ms > MaxWait) && ms != PausePastTTL {
			return bad("pause=" + FormatDuration(ms))
		}
	}
	return nil
}

// exploreNodeVerbs are the node faults the explorer may inject in sc.
func (sc *Scenario) exploreNodeVerbs() []string {
	var out []string
	each(ToNode, func(s *ActionSpec) {
		if s.Explore == ExploreFault && s.offeredIn(sc) {
			out = append(out, s.Verb)
		}
	})
	return out
}

// budget is what one schedule has used so far, and where each client's
// program is; it is part of the state (the same world with more faults
// left has more futures).
type budget struct {
	pauses, waits, crashes, nodeFaults, drops int
	acquired, written, released               uint8 // bit i: client i did it
	waited                                    uint8 // bit i: client i's pause has had its wait
}

func bit(i int) uint8 { return 1 << uint(i) }

// explorer is one exploration in progress.
type explorer struct {
	ctx  context.Context
	cfg  ExploreConfig
	res  *ExploreResult
	seen map[[16]byte]struct{} // the fingerprints of the states reached
	// drops: per world reached (its fingerprint with no lost reply
	// spent), the fewest lost replies spent on reaching it. A world
	// reached again with more of them spent, at the same depth or deeper,
	// has no future the first did not have (fewer spent is more left).
	drops map[[16]byte]int
	// shortest per kind, before verification
	cand map[ViolationKind][]Action
}

// state is a state reached and not yet expanded: its world (nil if it
// will not be expanded), the schedule that reached it first and the moves
// it offers.
type state struct {
	f     *frozen
	path  *pathNode
	moves []move
}

// pathNode is the last action of a schedule, linked to the schedule
// before it (nil: the empty one): the states of a level share their
// schedules' prefixes.
type pathNode struct {
	up *pathNode
	a  Action
	n  int // the schedule's length
}

func (p *pathNode) len() int {
	if p == nil {
		return 0
	}
	return p.n
}

// actions is the schedule as a list.
func (p *pathNode) actions() []Action {
	out := make([]Action, p.len())
	for ; p != nil; p = p.up {
		out[p.n-1] = p.a
	}
	return out
}

// child is what one move from a state gave: computed by a worker, merged
// in a fixed order so the result never depends on the scheduling.
type child struct {
	from  *pathNode // the schedule of the state it was reached from
	a     Action    // the move's action
	b     budget
	cut   bool // beyond a timeline's limits: left out
	kinds []ViolationKind
	fp    [16]byte
	fp0   [16]byte // the fingerprint with no lost reply spent
	st    *state   // nil if the state was seen before
	err   error
}

// Explore runs the exploration. It returns an error only for a
// configuration that is not valid or a simulator failure; running out of
// states or time is a result (Stopped), not an error.
func Explore(ctx context.Context, cfg ExploreConfig) (*ExploreResult, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := &explorer{ctx: ctx, cfg: cfg, res: &ExploreResult{Found: map[ViolationKind]*Finding{}},
		seen: map[[16]byte]struct{}{}, drops: map[[16]byte]int{}, cand: map[ViolationKind][]Action{}}
	workers := cfg.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	rigs := make([]*rig, workers)
	defer func() {
		for _, r := range rigs {
			if r != nil {
				r.w.close()
			}
		}
	}()
	for i := range rigs {
		w, err := newWorld(Embedded{}, cfg.Scenario, cfg.Opts)
		if err != nil {
			return nil, &BackendError{Node: "?", Err: err}
		}
		rigs[i] = &rig{w: w}
	}
	root, err := e.run(nil)
	if err != nil {
		return nil, err
	}
	keys := root.dumpKeys()
	rootFP := e.fingerprintKeys(&fpBuf{}, root, budget{}, keys)
	e.seen[rootFP] = struct{}{}
	e.drops[rootFP] = 0
	frontier := []*state{{f: root.freeze(keys, nil, nil), moves: e.moves(root, budget{})}}
	root.close()
	if err := e.bfs(frontier, rigs); err != nil {
		return nil, err
	}
	e.res.States = len(e.seen)
	if e.res.Stopped == StopTime {
		return e.res, nil // no verdict: nothing to verify
	}
	if err := e.verify(); err != nil {
		return nil, err
	}
	return e.res, nil
}

// bfs expands the states level by level: all schedules of depth d before
// any of depth d+1, so the first counterexample of a kind is a shortest
// one, and a search that stops has seen every schedule up to some depth.
func (e *explorer) bfs(frontier []*state, rigs []*rig) error {
	for depth := 0; len(frontier) > 0; depth++ {
		e.res.Depth = depth
		if depth == e.cfg.MaxDepth {
			for _, s := range frontier {
				if len(s.moves) > 0 {
					e.res.DepthCut = true
				}
			}
			return nil
		}
		type item struct {
			s *state
			m move
		}
		var items []item
		for _, s := range frontier {
			for _, m := range s.moves {
				items = append(items, item{s, m})
			}
		}
		var next []*state
		// In batches: a worker per rig computes children, then they are
		// merged in order; the state cap can stop the search between two
		// children of one level, the same one whatever the workers did.
		batch := 32 * len(rigs)
		for lo := 0; lo < len(items); lo += batch {
			if e.ctx.Err() != nil {
				e.res.Stopped = StopTime
				return nil
			}
			hi := min(lo+batch, len(items))
			out := make([]child, hi-lo)
			var at atomic.Int64
			var wg sync.WaitGroup
			for _, rig := range rigs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(at.Add(1)) - 1
						if i >= len(out) {
							return
						}
						it := items[lo+i]
						out[i] = e.expand(rig, it.s, it.m)
					}
				}()
			}
			wg.Wait()
			for i := range out {
				c := &out[i]
				if c.err != nil {
					return c.err
				}
				if c.cut {
					e.res.DepthCut = true
					continue
				}
				if stop := e.merge(c); stop {
					e.res.Stopped = StopStates
					return nil
				}
				if c.st != nil {
					next = append(next, c.st)
				}
			}
		}
		e.res.Depth = depth + 1
		frontier = next
	}
	return nil
}

// merge counts one child's schedule and keeps its state if it is new. It
// reports whether the state cap stops the search.
func (e *explorer) merge(c *child) bool {
	_, seen := e.seen[c.fp]
	if least, ok := e.drops[c.fp0]; ok && least < c.b.drops {
		seen = true // reached before with fewer lost replies spent
	}
	if !seen {
		if len(e.seen) >= e.cfg.MaxStates {
			return true
		}
		e.seen[c.fp] = struct{}{}
		if e.cfg.Drops > 0 {
			if least, ok := e.drops[c.fp0]; !ok || c.b.drops < least {
				e.drops[c.fp0] = c.b.drops
			}
		}
	} else {
		c.st = nil // reached first by an earlier child, or one with more budget
	}
	e.res.Schedules++
	e.res.MaxDepthSeen = max(e.res.MaxDepthSeen, c.from.len()+1)
	if len(c.kinds) > 0 {
		e.res.Violating++
	}
	for _, k := range c.kinds {
		f := e.res.Found[k]
		if f == nil {
			f = &Finding{}
			e.res.Found[k] = f
		}
		f.Schedules++
		if _, ok := e.cand[k]; !ok {
			// breadth first: the first is a shortest
			e.cand[k] = append(c.from.actions(), c.a)
		}
	}
	return false
}

// expand applies move m to state s on rig (a world of its own, on its own
// servers) and reads what it gave. It runs on a worker: it reads e.seen
// (not written while workers run) and nothing else of e's.
func (e *explorer) expand(r *rig, s *state, m move) child {
	c := child{from: s.path, a: m.a, b: m.b}
	w, up := r.w, s.f
	if e.cfg.replay {
		up = nil
		var err error
		if w, err = e.run(append(s.path.actions(), m.a)); err == errTooBig {
			c.cut = true
			return c
		} else if err != nil {
			c.err = err
			return c
		}
		defer w.close()
	} else {
		s.f.thaw(r)
		if err := e.step(w, s.path.len(), m.a); err == errTooBig {
			c.cut = true
			return c
		} else if err != nil {
			c.err = err
			return c
		}
	}
	last := s.path.len()
	for _, v := range w.violations {
		if v.Step == last && !slices.Contains(c.kinds, v.Kind) {
			c.kinds = append(c.kinds, v.Kind)
		}
	}
	slices.Sort(c.kinds)
	keys := w.dumpKeys()
	c.fp, c.fp0 = e.fingerprintKeys(&r.fp, w, m.b, keys), [16]byte{}
	if e.cfg.Drops > 0 {
		c.fp0 = c.fp
		if m.b.drops > 0 {
			b0 := m.b
			b0.drops = 0
			c.fp0 = e.fingerprintKeys(&r.fp, w, b0, keys)
		}
	}
	if _, ok := e.seen[c.fp]; !ok {
		c.st = &state{path: &pathNode{up: s.path, a: m.a, n: last + 1}, moves: e.moves(w, m.b)}
		// Only a state that will be expanded needs its world: not one
		// with no move, nor one at the depth bound (its moves only say
		// that schedules go on past it).
		if len(c.st.moves) > 0 && last+1 < e.cfg.MaxDepth {
			c.st.f = w.freeze(keys, up, r.locks)
		}
	}
	return c
}

// run replays actions on a fresh world and returns it, open. It is
// ReplayContext's loop without the timeline, so the explorer can read the
// world's state.
func (e *explorer) run(actions []Action) (*World, error) {
	w, err := newWorld(Embedded{}, e.cfg.Scenario, e.cfg.Opts)
	if err != nil {
		return nil, &BackendError{Node: "?", Err: err}
	}
	w.advance(0)
	w.observe("")
	for i, a := range actions {
		if err := e.step(w, i, a); err != nil {
			w.close()
			return nil, err
		}
	}
	return w, nil
}

// step applies one action as a replay does. Moves are chosen among the
// possible ones, so an error here is a bug or a server failure — except a
// schedule that outgrows a timeline's limits (errTooBig), which no URL
// could show, so the search leaves it out.
func (e *explorer) step(w *World, i int, a Action) error {
	err := w.stepOnce(i, a)
	var ae *ActionError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ae) && (ae.Code == CodeTimeLimit || ae.Code == CodeTooMany || ae.Code == CodeTooBig):
		return errTooBig
	case errors.As(err, &ae):
		return &InternalError{Err: errors.New("explorer: " + a.String() + ": " + err.Error())}
	}
	return err
}

// errTooBig marks a schedule beyond a timeline's limits.
var errTooBig = errors.New("schedule beyond a timeline's limits")

// move is one action and the budget after it.
type move struct {
	a Action
	b budget
}

// moves lists what may happen next, as the table of actions allows: each
// taking-part client's program steps, then its faults (in the order of
// their costs) and recoveries, the learner's waits, and the faults and
// recoveries of the nodes. Pointless moves are left out: a fault to a
// client that has not started (it has nothing to lose yet), and a second
// run of a client's program.
//
// In a design, a client whose write's reply the network will lose takes
// its next step at once: the drop changes only that client's next reply
// from the storage, which only its own steps send, so taking it just
// before the write stands for taking it at any earlier moment, and the
// search does not repeat every interleaving with the drop pending.
func (e *explorer) moves(w *World, b budget) []move {
	var out []move
	add := func(a Action, nb budget) { out = append(out, move{a, nb}) }
	clients := w.clients[:e.cfg.Clients]
	only := -1 // the one client that must step now, if any
	if w.sc.Scripted != nil {
		only = slices.IndexFunc(clients, func(c *Client) bool { return c.dropNext })
	}
	anyPaused := false
	for i, c := range clients {
		anyPaused = anyPaused || c.state == StatePaused
		if only >= 0 && i != only {
			continue
		}
		x := &Act{w: w, c: c}
		each(ByClient, func(s *ActionSpec) {
			if s.Explore != ExploreStep || !s.offeredIn(w.sc) || s.refuse(x) != "" {
				return
			}
			nb := b
			if done := nb.once(s.once); done != nil {
				if *done&bit(i) != 0 {
					return
				}
				*done |= bit(i)
			}
			add(Action{Who: c.ID, Verb: s.Verb, Ms: s.Default}, nb)
		})
	}
	if only >= 0 {
		return out
	}
	for i, c := range clients {
		started := c.state != StateIdle && c.state != StateCrashed
		x := &Act{w: w, c: c}
		for cost := CostPause; cost <= CostNode; cost++ {
			each(ByClient, func(s *ActionSpec) {
				if s.Cost != cost || !s.offeredIn(w.sc) || s.refuse(x) != "" {
					return
				}
				nb, ok := b, false
				switch s.Explore {
				case ExploreRecovery:
					ok = b.waited&bit(i) != 0
				case ExploreFault:
					nb, ok = e.spend(b, cost)
					ok = ok && started && (s.Pointless == nil || !s.Pointless(x))
				}
				if !ok {
					return
				}
				nb.waited &^= bit(i)
				add(Action{Who: c.ID, Verb: s.Verb, Ms: s.Default}, nb)
			})
		}
	}
	if anyPaused && b.waits < b.pauses {
		each(ByLearner, func(s *ActionSpec) {
			if s.Explore != ExploreWait {
				return
			}
			for _, ms := range e.pauseLengths(w) {
				nb := b
				nb.waits++
				for i, c := range clients {
					if c.state == StatePaused {
						nb.waited |= bit(i)
					}
				}
				add(Action{Verb: s.Verb, Ms: ms}, nb)
			}
		})
	}
	for _, nd := range w.nodes {
		x := &Act{w: w, n: nd}
		each(ToNode, func(s *ActionSpec) {
			if !s.offeredIn(w.sc) || s.refuse(x) != "" {
				return
			}
			nb, ok := b, false
			switch s.Explore {
			case ExploreFault:
				nb, ok = e.spend(b, s.Cost)
			case ExploreRecovery:
				used, _ := e.faults(&nb, s.Cost)
				ok = *used > 0 // only after a fault
			}
			if !ok {
				return
			}
			add(Action{Who: nd.Name, Verb: s.Verb, Ms: s.Default}, nb)
		})
	}
	return out
}

// pauseLengths are the waits a paused client may be given now: the
// configured lengths, PausePastTTL read from the lock's servers (and left
// out where no TTL can be outlasted, or where it equals another length).
func (e *explorer) pauseLengths(w *World) []int64 {
	if !slices.Contains(e.cfg.PauseMs, PausePastTTL) {
		return e.cfg.PauseMs
	}
	out := make([]int64, 0, len(e.cfg.PauseMs))
	for _, ms := range e.cfg.PauseMs {
		if ms == PausePastTTL {
			if ms = w.pastTTL(); ms <= 0 {
				continue
			}
		}
		if !slices.Contains(out, ms) {
			out = append(out, ms)
		}
	}
	return out
}

// pastTTL is how long a wait must last for the lock key to be gone from
// every lock node that holds it with a TTL (PausePastTTL), or 0 where
// none does or the longest is past MaxWait.
func (w *World) pastTTL() int64 {
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

// once is the record of which clients took a program step that runs
// once per client (nil for a step that may run again).
func (b *budget) once(k onceStep) *uint8 {
	switch k {
	case onceAcquire:
		return &b.acquired
	case onceWrite:
		return &b.written
	case onceRelease:
		return &b.released
	}
	return nil
}

// faults is where b counts the faults of cost c a schedule has taken, and
// how many the configuration allows.
func (e *explorer) faults(b *budget, c Cost) (used *int, most int) {
	switch c {
	case CostPause:
		return &b.pauses, e.cfg.Pauses
	case CostCrash:
		return &b.crashes, e.cfg.Crashes
	case CostDrop:
		return &b.drops, e.cfg.Drops
	case CostNode:
		return &b.nodeFaults, e.cfg.NodeFaults
	}
	return new(int), 0
}

// spend returns b with one more fault of cost c, if the budget allows it.
func (e *explorer) spend(b budget, c Cost) (budget, bool) {
	used, most := e.faults(&b, c)
	*used++
	return b, *used <= most
}

// fingerprint is the state a schedule reached, as far as any future can
// tell: the world's snapshot (explore_state.go) with the explorer's budget,
// every time as a distance from now, every lock value as whose it is.
// Two schedules with the same fingerprint have the same futures, so only
// one is explored.
//
// The clients that take part run the same program, so a state and the
// same state with two of them swapped have mirrored futures: the
// fingerprint is the least encoding over the renamings of those clients
// that name them in the order of their signatures (each one's own state
// with every taking-part client's name blanked, which no renaming
// changes) — over every renaming among clients whose signatures tie.
// Mirrored states have the same set of such encodings, so the same
// least one; states that are not mirrored share none. Only one of the
// mirrored states is explored (a mirrored counterexample exists and is
// as short).
func (e *explorer) fingerprint(w *World, b budget) string {
	return string(e.canonical(&fpBuf{}, w, b, w.dumpKeys()))
}

// fpBuf is one worker's scratch for fingerprints.
type fpBuf struct {
	enc       fpEnc
	best, cur []byte
	sigs      []byte
	sig       [][2]int
	order     []int
	end       []int
	st        worldState // the state being encoded, its slices reused
	timers    []timer
}

// fingerprintKeys is the fingerprint, hashed: what the seen-set keeps.
func (e *explorer) fingerprintKeys(fb *fpBuf, w *World, b budget, keys [][]keyState) [16]byte {
	sum := sha256.Sum256(e.canonical(fb, w, b, keys))
	return [16]byte(sum[:16])
}

// canonical is the fingerprint's encoding, in fb.best.
func (e *explorer) canonical(fb *fpBuf, w *World, b budget, keys [][]keyState) []byte {
	st := &fb.st
	w.capture(st, &fb.timers, b, keys)
	en := &fb.enc
	en.reset(w, st.Now)
	check := func(client int, got []byte) {
		if e.cfg.checkEncoding != nil {
			e.cfg.checkEncoding(en, st, client, got)
		}
	}
	if e.cfg.noSymmetry {
		fb.best = en.encode(fb.best[:0], st)
		check(-1, fb.best)
		return fb.best
	}
	n := e.cfg.Clients
	// Signatures: each taking-part client's state, itself named "=" and
	// the others "*".
	fb.sigs, fb.sig = fb.sigs[:0], fb.sig[:0]
	for i := range n {
		for j := range n {
			en.names[j] = "*"
		}
		en.names[i] = "="
		from := len(fb.sigs)
		fb.sigs = en.client(fb.sigs, &st.Clients[i])
		check(i, fb.sigs[from:])
		fb.sig = append(fb.sig, [2]int{from, len(fb.sigs)})
	}
	sig := func(i int) []byte { return fb.sigs[fb.sig[i][0]:fb.sig[i][1]] }
	fb.order = fb.order[:0]
	for i := range n {
		fb.order = append(fb.order, i)
	}
	slices.SortStableFunc(fb.order, func(x, y int) int { return bytes.Compare(sig(x), sig(y)) })
	// end[k]: where the group of equal signatures holding position k ends.
	fb.end = append(fb.end[:0], make([]int, n)...)
	for k := n - 1; k >= 0; k-- {
		if k == n-1 || !bytes.Equal(sig(fb.order[k]), sig(fb.order[k+1])) {
			fb.end[k] = k + 1
		} else {
			fb.end[k] = fb.end[k+1]
		}
	}
	fb.best = fb.best[:0]
	first := true
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			for pos, i := range fb.order {
				en.names[i] = en.ids[pos]
			}
			fb.cur = en.encode(fb.cur[:0], st)
			check(-1, fb.cur)
			if first || bytes.Compare(fb.cur, fb.best) < 0 {
				fb.best, fb.cur, first = fb.cur, fb.best, false
			}
			return
		}
		for i := k; i < fb.end[k]; i++ {
			fb.order[k], fb.order[i] = fb.order[i], fb.order[k]
			rec(k + 1)
			fb.order[k], fb.order[i] = fb.order[i], fb.order[k]
		}
	}
	rec(0)
	return fb.best
}

// verify replays every candidate counterexample from its URL form with
// Replay — the path a learner's link takes — and keeps it only if the
// timeline shows the violation at its last action. A candidate that does
// not reproduce is a bug, reported as an error.
func (e *explorer) verify() error {
	sc := e.cfg.Scenario
	opt := sc.FormatOptions(e.cfg.Opts)
	for k, path := range e.cand {
		do := FormatActions(path)
		opts, err := sc.ParseOptions(opt)
		if err != nil {
			return err
		}
		actions, err := ParseActions(do)
		if err != nil {
			return err
		}
		tl, err := Replay(sc, opts, actions)
		if err != nil {
			return &InternalError{Err: errors.New("explorer: counterexample " + do + " does not replay: " + err.Error())}
		}
		if !tl.Breaks(k, len(actions)-1) {
			return &InternalError{Err: errors.New("explorer: counterexample " + do + " does not show " + string(k))}
		}
		e.res.Found[k].Shortest = actions
	}
	e.res.ShortestKind, e.res.Shortest = ShortestOf(e.res.Found)
	return nil
}

// ShortestOf is the headline of what a search found: the shortest
// counterexample, of a kind that harms the data or breaks the lock, at
// equal length the first in Kinds (worst class first); only where there
// is none, the shortest schedule of what a lease allows. A worse kind
// that takes longer to reach follows in the findings with its own length,
// as every kind does: the headline is what breaks first.
func ShortestOf(found map[ViolationKind]*Finding) (ViolationKind, []Action) {
	var kind ViolationKind
	var best []Action
	for _, failing := range []bool{true, false} {
		for _, k := range Kinds {
			f := found[k]
			if f == nil || f.Shortest == nil || (ClassOf(k) != ClassAllowed) != failing {
				continue
			}
			if best == nil || len(f.Shortest) < len(best) {
				kind, best = k, f.Shortest
			}
		}
		if best != nil {
			break
		}
	}
	return kind, best
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

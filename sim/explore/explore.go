// Package explore is Lock Lab's schedule explorer: given a lock design (a scenario,
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
// miniredis replies. It drives worlds through sim.Machine: a child state
// is its parent's saved world loaded on a worker's machine, plus one
// action; the machine's fingerprint says whether a state was seen
// (symmetric clients count once); of two orders that only swap a
// client's local move (a pause, a resume, a crash) and another client's
// step, one is tried (skip); its offers say what the action table
// allows now, and this package chooses among them by its budget. The
// explorer adds no model of its own; it only chooses the actions and
// reads the violations the checks compute. A counterexample it reports is
// replayed once more with sim.Replay, from its URL form, before it is
// reported.
//
// Besides the search (explore.go), Within (within.go) checks a learner's
// schedule against the same bounds: a challenge's par is the search's
// shortest schedule, a lower bound only on the search's own moves.
package explore

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"locklab/sim"
)

// Config is one design and the bounds of its exploration.
type Config struct {
	Scenario *sim.Scenario
	Opts     sim.Opts
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
	// Jumps is how many forward jumps of a node's clock (by the jump's
	// default length) a schedule may contain, where the scenario's nodes
	// offer them: a challenge's fault, not the Lab's.
	Jumps int
	// MaxDepth bounds the actions of one schedule.
	MaxDepth int
	// MaxStates bounds the distinct states explored.
	MaxStates int
	// AllOrders turns the reduction of commuting moves off (skip): every
	// order of a local move and another client's step is tried (the
	// tests that hold the reduction to the full search set it).
	AllOrders bool
	// noSymmetry turns the symmetry reduction off (tests compare both).
	noSymmetry bool
	// replay reaches every state by replaying its whole schedule on a
	// fresh world instead of forking its parent's (tests compare both).
	replay bool
	// workers is how many goroutines expand states (0: GOMAXPROCS); the
	// result is the same for any number.
	workers int
}

// Exploration bounds: the defaults the Lab starts from, and the limits no
// configuration may exceed (they bound a request's work whatever the URL).
const (
	DefaultDepth  = 14
	DefaultStates = 20_000
	MaxDepth      = 24
	MaxStates     = 50_000
	MaxFaults     = 3
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
	Shortest []sim.Action
}

// CodeBadExplore: an explorer configuration out of its limits.
const CodeBadExplore sim.Code = "bad-explore"

// Result is what an exploration found.
type Result struct {
	Schedules int // schedules replayed (every prefix counts as one)
	States    int // distinct states reached
	// Violating counts the schedules whose last action broke anything
	// (any violation of the checks, or harm).
	Violating int
	// Found holds, per kind, the failures seen.
	Found map[sim.ViolationKind]*Finding
	// Shortest is the shortest counterexample (ShortestOf: of a failing
	// kind where there is one; at equal length the worst); nil if none.
	Shortest     []sim.Action
	ShortestKind sim.ViolationKind
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
func (r *Result) Complete() bool { return r.Stopped == "" }

// Do is the URL form of the shortest counterexample.
func (r *Result) Do() string { return sim.FormatActions(r.Shortest) }

// Validate checks a configuration against its scenario and the limits,
// filling in defaults. Errors are *ActionError with CodeBadOption-like
// codes the web layer explains.
func (cfg *Config) Validate() error {
	sc := cfg.Scenario
	if sc == nil {
		return &sim.ActionError{Index: -1, Action: "scenario", Code: sim.CodeUnknownScene}
	}
	if cfg.Opts == nil {
		cfg.Opts = sc.DefaultOpts()
	}
	if cfg.Clients == 0 {
		cfg.Clients = len(sc.Clients)
	}
	if cfg.MaxDepth == 0 {
		cfg.MaxDepth = DefaultDepth
	}
	if cfg.MaxStates == 0 {
		cfg.MaxStates = DefaultStates
	}
	bad := func(what string) error { return &sim.ActionError{Index: -1, Action: what, Code: CodeBadExplore} }
	switch {
	case cfg.Clients < 1 || cfg.Clients > len(sc.Clients):
		return bad("clients=" + strconv.Itoa(cfg.Clients))
	case cfg.Pauses < 0 || cfg.Pauses > MaxFaults:
		return bad("pauses=" + strconv.Itoa(cfg.Pauses))
	case cfg.Pauses > 0 && len(cfg.PauseMs) == 0:
		return bad("pause")
	case cfg.Crashes < 0 || cfg.Crashes > MaxFaults:
		return bad("crashes=" + strconv.Itoa(cfg.Crashes))
	case cfg.NodeFaults < 0 || cfg.NodeFaults > MaxFaults:
		return bad("node=" + strconv.Itoa(cfg.NodeFaults))
	case cfg.NodeFaults > 0 && len(sc.NodeFaults()) == 0:
		return bad("node=" + strconv.Itoa(cfg.NodeFaults))
	case cfg.Drops < 0 || cfg.Drops > MaxFaults || (cfg.Drops > 0 && !sc.Drops):
		return bad("drops=" + strconv.Itoa(cfg.Drops))
	case cfg.Jumps < 0 || cfg.Jumps > MaxFaults || (cfg.Jumps > 0 && !sc.OffersFault(sim.CostJump)):
		return bad("jumps=" + strconv.Itoa(cfg.Jumps))
	case cfg.MaxDepth < 1 || cfg.MaxDepth > MaxDepth:
		return bad("depth=" + strconv.Itoa(cfg.MaxDepth))
	case cfg.MaxStates < 1 || cfg.MaxStates > MaxStates:
		return bad("states=" + strconv.Itoa(cfg.MaxStates))
	}
	for _, ms := range cfg.PauseMs {
		if (ms <= 0 || ms > sim.MaxWait) && ms != PausePastTTL {
			return bad("pause=" + sim.FormatDuration(ms))
		}
	}
	return nil
}

// budget is what one schedule has used so far, and which clients took
// their once-only steps: the machine's fingerprint reads it (the same
// world with more faults left has more futures).
type budget = sim.Spent

func bit(i int) uint8 { return 1 << uint(i) }

// explorer is one exploration in progress.
type explorer struct {
	ctx  context.Context
	cfg  Config
	res  *Result
	seen map[[16]byte]struct{} // the fingerprints of the states reached
	// drops: per world reached (its fingerprint with no lost reply
	// spent), the fewest lost replies spent on reaching it. A world
	// reached again with more of them spent, at the same depth or deeper,
	// has no future the first did not have (fewer spent is more left).
	drops map[[16]byte]int
	// shortest per kind, before verification
	cand map[sim.ViolationKind][]sim.Action
}

// state is a state reached and not yet expanded: its world (nil if it
// will not be expanded), the schedule that reached it first and the moves
// it offers.
type state struct {
	f     *sim.Saved
	path  *pathNode
	moves []move
	// afterStep: the move that reached it was a step of lastClient that
	// let no time pass, taken where no client had to step; the reduction
	// (skip) leaves out other clients' local moves after it.
	afterStep  bool
	lastClient int
	// forced: a client had to step here (sim.Machine.MustStep), so no
	// local move was offered: the reduction leaves nothing out after it.
	forced bool
}

// skip reports whether the reduction leaves out move m from s. A local
// move (sim.ActionSpec.Local: a pause, a resume with nothing due, a crash
// that orphans nothing) of client X and a step of another client Y that
// lets no time pass commute: either order reaches the same world, and
// X's move breaks nothing. So the search tries X's move before Y's step
// and not after it. It leaves out orders, never states: every world is
// still reached at its least depth, by a schedule whose last move is Y's
// step, which is never left out — and that holds whichever of a world's
// symmetric schedules (sim.Machine's fingerprint) reached it first. Two
// local moves are not ordered: a rule "the lower client first" names
// clients, and with symmetric clients it can leave out both orders of a
// pair (a state was lost so). TestReductionKeepsEveryState and the
// corpus's TestReductionOnTheCorpus hold it to the full search.
func skip(s *state, m move) bool {
	return m.local && s.afterStep && m.client != s.lastClient
}

// pathNode is the last action of a schedule, linked to the schedule
// before it (nil: the empty one): the states of a level share their
// schedules' prefixes.
type pathNode struct {
	up *pathNode
	a  sim.Action
	n  int // the schedule's length
}

func (p *pathNode) len() int {
	if p == nil {
		return 0
	}
	return p.n
}

// actions is the schedule as a list.
func (p *pathNode) actions() []sim.Action {
	out := make([]sim.Action, p.len())
	for ; p != nil; p = p.up {
		out[p.n-1] = p.a
	}
	return out
}

// child is what one move from a state gave: computed by a worker, merged
// in a fixed order so the result never depends on the scheduling.
type child struct {
	from  *pathNode  // the schedule of the state it was reached from
	a     sim.Action // the move's action
	b     budget
	cut   bool // beyond a timeline's limits: left out
	kinds []sim.ViolationKind
	fp    [16]byte
	fp0   [16]byte // the fingerprint with no lost reply spent
	st    *state   // nil if the state was seen before
	err   error
}

// Run runs the exploration. It returns an error only for a
// configuration that is not valid or a simulator failure; running out of
// states or time is a result (Stopped), not an error.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := &explorer{ctx: ctx, cfg: cfg, res: &Result{Found: map[sim.ViolationKind]*Finding{}},
		seen: map[[16]byte]struct{}{}, drops: map[[16]byte]int{}, cand: map[sim.ViolationKind][]sim.Action{}}
	workers := cfg.workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	machines := make([]*sim.Machine, workers)
	defer func() {
		for _, r := range machines {
			if r != nil {
				r.Close()
			}
		}
	}()
	for i := range machines {
		m, err := sim.NewMachine(cfg.Scenario, cfg.Opts)
		if err != nil {
			return nil, err
		}
		machines[i] = m
	}
	root, err := e.run(nil)
	if err != nil {
		return nil, err
	}
	rootFP := e.fingerprint(root, budget{})
	e.seen[rootFP] = struct{}{}
	e.drops[rootFP] = 0
	top := &state{f: root.Save(nil)}
	top.moves, top.forced = e.moves(root, budget{})
	frontier := []*state{top}
	root.Close()
	if err := e.bfs(frontier, machines); err != nil {
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

// fingerprint is m's state with the budget b spent, hashed: what the
// seen-set keeps.
func (e *explorer) fingerprint(m *sim.Machine, b budget) [16]byte {
	return m.Fingerprint(b, e.cfg.Clients, !e.cfg.noSymmetry)
}

// bfs expands the states level by level: all schedules of depth d before
// any of depth d+1, so the first counterexample of a kind is a shortest
// one, and a search that stops has seen every schedule up to some depth.
func (e *explorer) bfs(frontier []*state, machines []*sim.Machine) error {
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
		nitems := 0
		for _, s := range frontier {
			nitems += len(s.moves)
		}
		items := make([]item, 0, nitems)
		for _, s := range frontier {
			for _, m := range s.moves {
				if !skip(s, m) {
					items = append(items, item{s, m})
				}
			}
		}
		var next []*state
		// In batches: a worker per machine computes children, then they are
		// merged in order; the state cap can stop the search between two
		// children of one level, the same one whatever the workers did.
		batch := 32 * len(machines)
		for lo := 0; lo < len(items); lo += batch {
			if e.ctx.Err() != nil {
				e.res.Stopped = StopTime
				return nil
			}
			hi := min(lo+batch, len(items))
			out := make([]child, hi-lo)
			var at atomic.Int64
			var wg sync.WaitGroup
			for _, m := range machines {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(at.Add(1)) - 1
						if i >= len(out) {
							return
						}
						it := items[lo+i]
						out[i] = e.expand(m, it.s, it.m)
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
	if least, ok := e.drops[c.fp0]; ok && least < c.b.Drops {
		seen = true // reached before with fewer lost replies spent
	}
	if !seen {
		if len(e.seen) >= e.cfg.MaxStates {
			return true
		}
		e.seen[c.fp] = struct{}{}
		if e.cfg.Drops > 0 {
			if least, ok := e.drops[c.fp0]; !ok || c.b.Drops < least {
				e.drops[c.fp0] = c.b.Drops
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

// expand applies move m to state s on machine r (a world of its own, on
// its own servers) and reads what it gave. It runs on a worker: it reads
// e.seen (not written while workers run) and nothing else of e's.
func (e *explorer) expand(r *sim.Machine, s *state, m move) child {
	c := child{from: s.path, a: m.a, b: m.b}
	w, up := r, s.f
	var before int64
	if e.cfg.replay {
		up = nil
		var err error
		if w, err = e.run(s.path.actions()); err != nil {
			c.err = err
			return c
		}
		before = w.Now()
		err = w.Step(s.path.len(), m.a)
		if err != nil {
			w.Close()
		}
		if err == sim.ErrTooBig {
			c.cut = true
			return c
		} else if err != nil {
			c.err = err
			return c
		}
		defer w.Close()
	} else {
		w.Load(s.f)
		before = w.Now()
		if err := w.Step(s.path.len(), m.a); err == sim.ErrTooBig {
			c.cut = true
			return c
		} else if err != nil {
			c.err = err
			return c
		}
	}
	last := s.path.len()
	c.kinds = w.Broke(last)
	c.fp, c.fp0 = e.fingerprint(w, m.b), [16]byte{}
	if e.cfg.Drops > 0 {
		c.fp0 = c.fp
		if m.b.Drops > 0 {
			b0 := m.b
			b0.Drops = 0
			c.fp0 = e.fingerprint(w, b0)
		}
	}
	if _, ok := e.seen[c.fp]; !ok {
		c.st = &state{path: &pathNode{up: s.path, a: m.a, n: last + 1}, lastClient: m.client}
		c.st.moves, c.st.forced = e.moves(w, m.b)
		c.st.afterStep = !e.cfg.AllOrders && !s.forced && m.step && w.Now() == before
		// Only a state that will be expanded needs its world: not one
		// with no move, nor one at the depth bound (its moves only say
		// that schedules go on past it).
		if len(c.st.moves) > 0 && last+1 < e.cfg.MaxDepth {
			c.st.f = w.Save(up)
		}
	}
	return c
}

// run replays actions on a new machine and returns it, open.
func (e *explorer) run(actions []sim.Action) (*sim.Machine, error) {
	m, err := sim.NewMachine(e.cfg.Scenario, e.cfg.Opts)
	if err != nil {
		return nil, err
	}
	for i, a := range actions {
		if err := m.Step(i, a); err != nil {
			m.Close()
			return nil, err
		}
	}
	return m, nil
}

// move is one action and the budget after it; client is the index of
// the client that takes it (-1: none), step whether it is a program
// step, local whether it changes only that client (skip).
type move struct {
	a           sim.Action
	b           budget
	client      int
	step, local bool
}

// moves lists what may happen next, as the machine offers it and the
// budget allows: each taking-part client's program steps, then its
// faults (in the order of their costs) and recoveries, the learner's
// waits, and the faults and recoveries of the nodes. Pointless moves are
// left out: a fault to a client that has not started (it has nothing to
// lose yet), and a second run of a client's program. A client that must
// step now (Machine.MustStep) is the only one that moves.
func (e *explorer) moves(w *sim.Machine, b budget) (out []move, forced bool) {
	offers := w.Offers(e.cfg.Clients)
	out = make([]move, 0, len(offers)+len(e.cfg.PauseMs))
	var o sim.Offer
	add := func(a sim.Action, nb budget) {
		out = append(out, move{a: a, b: nb, client: o.Client, step: o.Use == sim.ExploreStep, local: o.Local})
	}
	n := e.cfg.Clients
	only := w.MustStep(n)
	anyPaused := false
	for i := range n {
		anyPaused = anyPaused || w.StateOf(i) == sim.StatePaused
	}
	for _, o = range offers {
		i := o.Client
		switch {
		case o.Use == sim.ExploreStep:
			if only >= 0 && i != only {
				continue
			}
			nb := b
			if done := once(&nb, o.Once); done != nil {
				if *done&bit(i) != 0 {
					continue
				}
				*done |= bit(i)
			}
			add(o.Action, nb)
		case only >= 0:
		case i >= 0: // a client's fault or recovery
			nb, ok := b, false
			switch o.Use {
			case sim.ExploreRecovery:
				ok = b.Waited&bit(i) != 0
			case sim.ExploreFault:
				nb, ok = e.spend(b, o.Cost)
				ok = ok && o.Started && !o.Pointless
			}
			if !ok {
				continue
			}
			nb.Waited &^= bit(i)
			add(o.Action, nb)
		case o.Use == sim.ExploreWait:
			if !anyPaused || b.Waits >= b.Pauses {
				continue
			}
			for _, ms := range e.pauseLengths(w) {
				nb := b
				nb.Waits++
				for i := range n {
					if w.StateOf(i) == sim.StatePaused {
						nb.Waited |= bit(i)
					}
				}
				a := o.Action
				a.Ms = ms
				add(a, nb)
			}
		case i < 0: // a node's
			nb, ok := b, false
			switch o.Use {
			case sim.ExploreFault:
				nb, ok = e.spend(b, o.Cost)
			case sim.ExploreRecovery:
				used, _ := e.faults(&nb, o.Cost)
				ok = *used > 0 // only after a fault
			}
			if !ok {
				continue
			}
			add(o.Action, nb)
		}
	}
	return out, only >= 0
}

// pauseLengths are the waits a paused client may be given now: the
// configured lengths, PausePastTTL read from the lock's servers (and left
// out where no TTL can be outlasted, or where it equals another length).
func (e *explorer) pauseLengths(w *sim.Machine) []int64 {
	if !slices.Contains(e.cfg.PauseMs, PausePastTTL) {
		return e.cfg.PauseMs
	}
	out := make([]int64, 0, len(e.cfg.PauseMs))
	for _, ms := range e.cfg.PauseMs {
		if ms == PausePastTTL {
			if ms = w.PastTTL(); ms <= 0 {
				continue
			}
		}
		if !slices.Contains(out, ms) {
			out = append(out, ms)
		}
	}
	return out
}

// once is the record of which clients took a program step that runs
// once per client (nil for a step that may run again).
func once(b *budget, k sim.OnceStep) *uint8 {
	switch k {
	case sim.OnceAcquire:
		return &b.Acquired
	case sim.OnceWrite:
		return &b.Written
	case sim.OnceRelease:
		return &b.Released
	}
	return nil
}

// faults is where b counts the faults of cost c a schedule has taken, and
// how many the configuration allows.
func (e *explorer) faults(b *budget, c sim.Cost) (used *int, most int) {
	switch c {
	case sim.CostPause:
		return &b.Pauses, e.cfg.Pauses
	case sim.CostCrash:
		return &b.Crashes, e.cfg.Crashes
	case sim.CostDrop:
		return &b.Drops, e.cfg.Drops
	case sim.CostNode:
		return &b.NodeFaults, e.cfg.NodeFaults
	case sim.CostJump:
		return &b.Jumps, e.cfg.Jumps
	}
	return new(int), 0
}

// spend returns b with one more fault of cost c, if the budget allows it.
func (e *explorer) spend(b budget, c sim.Cost) (budget, bool) {
	used, most := e.faults(&b, c)
	*used++
	return b, *used <= most
}

// verify replays every candidate counterexample from its URL form with
// sim.Replay — the path a learner's link takes — and keeps it only if the
// timeline shows the violation at its last action. A candidate that does
// not reproduce is a bug, reported as an error.
func (e *explorer) verify() error {
	sc := e.cfg.Scenario
	opt := sc.FormatOptions(e.cfg.Opts)
	for k, path := range e.cand {
		do := sim.FormatActions(path)
		opts, err := sc.ParseOptions(opt)
		if err != nil {
			return err
		}
		actions, err := sim.ParseActions(do)
		if err != nil {
			return err
		}
		tl, err := sim.Replay(sc, opts, actions)
		if err != nil {
			return &sim.InternalError{Err: errors.New("explorer: counterexample " + do + " does not replay: " + err.Error())}
		}
		if !tl.Breaks(k, len(actions)-1) {
			return &sim.InternalError{Err: errors.New("explorer: counterexample " + do + " does not show " + string(k))}
		}
		e.res.Found[k].Shortest = actions
	}
	e.res.ShortestKind, e.res.Shortest = ShortestOf(e.res.Found)
	return nil
}

// ShortestOf is the headline of what a search found: the shortest
// counterexample, of a kind that harms the data or breaks the lock, at
// equal length the first in sim.Kinds (worst class first); only where there
// is none, the shortest schedule of what a lease allows. A worse kind
// that takes longer to reach follows in the findings with its own length,
// as every kind does: the headline is what breaks first.
func ShortestOf(found map[sim.ViolationKind]*Finding) (sim.ViolationKind, []sim.Action) {
	var kind sim.ViolationKind
	var best []sim.Action
	for _, failing := range []bool{true, false} {
		for _, k := range sim.Kinds {
			f := found[k]
			if f == nil || f.Shortest == nil || (sim.ClassOf(k) != sim.ClassAllowed) != failing {
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

package explore

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"slices"
	"testing"

	"locklab/sim"
)

// exploreCase is one design and budget, and what exploring it must find.
type exploreCase struct {
	name, scenario, opt string
	clients, pauses     int
	crashes, nodeFaults int
	kind                sim.ViolationKind // the failure the design is known for
	steps               int               // the length of its shortest counterexample
}

// unsafeDesigns are the designs the lessons show failing, each with the
// smallest budget that breaks it. steps is checked exactly: the explorer
// must find the shortest way, not just a way.
var unsafeDesigns = []exploreCase{
	// GET, then SET: both see the key free and both set it (no fault needed).
	{"acquire GET+SET", "atomic-acquire", "acquire.getset", 2, 0, 0, 0, sim.TwoHolders, 4},
	// SETNX, then PEXPIRE: a crash in between leaves a key with no TTL.
	{"acquire SETNX+PEXPIRE", "atomic-acquire", "acquire.setnx", 2, 0, 1, 0, sim.Orphan, 2},
	// No TTL at all: a crashed holder keeps the lock forever.
	{"no TTL", "ttl", "ttl.off", 2, 0, 1, 0, sim.Orphan, 2},
	// Plain DEL: the paused holder wakes up and deletes B's lock.
	{"release DEL", "fencing", "release.del", 2, 1, 0, 0, sim.ForeignDelete, 6},
	// GET, then DEL: the pause falls between the two commands.
	{"release GET+DEL", "safe-release", "release.getdel", 2, 1, 0, 0, sim.ForeignDelete, 7},
	// Fencing off: the paused holder's late write lands after B's.
	{"fence off", "fencing", "fence.off", 2, 1, 0, 0, sim.StaleWrite, 7},
	// Three clients, fencing off: the same, with C as the new holder.
	{"fence off, 3 clients", "safe-release", "release.del", 3, 1, 0, 0, sim.StaleWrite, 7},
	// Failover without WAIT: the promoted replica never had A's key.
	{"failover, no WAIT", "failover", "wait.off", 2, 0, 0, 1, sim.TwoHolders, 4},
	// Redlock without fencing: a pause outlives the validity.
	{"redlock pause", "redlock", "", 2, 1, 0, 0, sim.StaleWrite, 7},
	// A ledger without an idempotency key: two runs, two charges.
	{"no idempotency key", "exactly-once", "idem.none", 2, 0, 0, 0, sim.DoubleCharge, 5},
}

func explore(t testing.TB, c exploreCase, mutate ...func(*Config)) *Result {
	t.Helper()
	sc, ok := sim.Lookup(c.scenario)
	if !ok {
		t.Fatalf("no scenario %q", c.scenario)
	}
	opts, err := sc.ParseOptions(c.opt)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Scenario: sc, Opts: opts, Clients: c.clients, Pauses: c.pauses, PauseMs: []int64{10_000},
		Crashes: c.crashes, NodeFaults: c.nodeFaults}
	for _, m := range mutate {
		m(&cfg)
	}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return r
}

// TestExploreFindsEachUnsafeDesign: for every unsafe design the explorer
// finds the failure, its shortest counterexample has the known length, and
// opening it as a timeline — from its URL form, as a learner's link does —
// shows that failure at its last action.
func TestExploreFindsEachUnsafeDesign(t *testing.T) {
	for _, c := range unsafeDesigns {
		t.Run(c.name, func(t *testing.T) {
			r := explore(t, c)
			if !r.Complete() {
				t.Errorf("stopped early (%s) after %d states", r.Stopped, r.States)
			}
			f := r.Found[c.kind]
			if f == nil {
				t.Fatalf("no %s found in %d schedules; found %v", c.kind, r.Schedules, slices.Collect(maps.Keys(r.Found)))
			}
			if len(f.Shortest) != c.steps {
				t.Errorf("shortest %s counterexample has %d steps, want %d: %s", c.kind, len(f.Shortest), c.steps, sim.FormatActions(f.Shortest))
			}
			if f.Schedules < 1 || r.Violating < f.Schedules {
				t.Errorf("counts: %d schedules break %s, %d break anything", f.Schedules, c.kind, r.Violating)
			}
			sc, _ := sim.Lookup(c.scenario)
			opts, _ := sc.ParseOptions(c.opt)
			tl, err := sim.Run(c.scenario, sim.FormatActions(f.Shortest), sc.FormatOptions(opts))
			if err != nil {
				t.Fatalf("counterexample %s does not replay: %v", sim.FormatActions(f.Shortest), err)
			}
			if !tl.Breaks(c.kind, len(f.Shortest)-1) {
				t.Errorf("the timeline of %s does not show %s at its last step: %v", sim.FormatActions(f.Shortest), c.kind, tl.Violations)
			}
			if r.Shortest == nil || len(r.Shortest) > len(f.Shortest) {
				t.Errorf("overall shortest %v is longer than the %s one", r.Shortest, c.kind)
			}
		})
	}
}

// TestExploreSafeDesign: SET NX PX, compare-and-delete and fencing, with
// two and with three clients, pauses of one and of ten seconds and a
// crash: the whole bounded space is explored and the storage is never
// harmed, though the lock itself is broken (a paused holder and a new one
// overlap) — the lesson's point: the lock alone cannot, the fence does.
func TestExploreSafeDesign(t *testing.T) {
	for _, c := range []exploreCase{
		{"fencing, 2 clients", "fencing", "", 2, 1, 1, 0, "", 0},
		{"fencing, 3 clients", "safe-release", "fence.on", 3, 1, 0, 0, "", 0},
		{"DELEX release, fenced", "safe-release", "release.delex,fence.on", 2, 2, 0, 0, "", 0},
		{"idempotency key", "exactly-once", "", 2, 1, 0, 0, "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := explore(t, c, func(cfg *Config) { cfg.PauseMs = []int64{1000, 10_000} })
			if !r.Complete() {
				t.Fatalf("stopped early (%s) after %d states", r.Stopped, r.States)
			}
			for _, k := range sim.Kinds {
				if f := r.Found[k]; f != nil && sim.ClassOf(k) != sim.ClassAllowed {
					t.Errorf("%s in %d schedules, e.g. %s", k, f.Schedules, sim.FormatActions(f.Shortest))
				}
			}
			if c.pauses > 0 && r.Found[sim.Overlap] == nil {
				t.Errorf("no overlap found: a pause past the TTL must let two clients believe they hold the lock")
			}
			if r.States < 50 || r.Schedules < r.States {
				t.Errorf("explored %d schedules, %d states: too few to mean anything", r.Schedules, r.States)
			}
		})
	}
}

// TestExploreSymmetry: the symmetry reduction explores fewer states but
// finds the same kinds of failure with shortest counterexamples of the
// same length as the plain search.
func TestExploreSymmetry(t *testing.T) {
	for _, c := range []exploreCase{unsafeDesigns[0], unsafeDesigns[3], unsafeDesigns[5],
		{"fencing", "fencing", "", 2, 1, 0, 0, "", 0}} {
		sym := explore(t, c)
		plain := explore(t, c, func(cfg *Config) { cfg.noSymmetry = true })
		if sym.States >= plain.States {
			t.Errorf("%s: %d states with symmetry, %d without", c.name, sym.States, plain.States)
		}
		if len(sym.Found) != len(plain.Found) {
			t.Errorf("%s: found %d kinds with symmetry, %d without", c.name, len(sym.Found), len(plain.Found))
		}
		for k, f := range plain.Found {
			if g := sym.Found[k]; g == nil || len(g.Shortest) != len(f.Shortest) {
				t.Errorf("%s: %s shortest %v without symmetry, %v with", c.name, k, f.Shortest, g)
			}
		}
	}
}

// TestExploreDeterministic: the same configuration gives the same result.
func TestExploreDeterministic(t *testing.T) {
	c := unsafeDesigns[5]
	a, b := explore(t, c), explore(t, c)
	if a.Schedules != b.Schedules || a.States != b.States || a.Do() != b.Do() || !reflect.DeepEqual(a.Found, b.Found) {
		t.Errorf("two runs differ: %+v / %+v", a, b)
	}
}

// TestExploreBounds: each bound stops the search and says which.
func TestExploreBounds(t *testing.T) {
	c := exploreCase{"fencing", "fencing", "fence.off", 2, 1, 0, 0, "", 0}
	if r := explore(t, c, func(cfg *Config) { cfg.MaxStates = 20 }); r.Stopped != StopStates || r.States > 21 {
		t.Errorf("state cap: stopped %q at %d states", r.Stopped, r.States)
	}
	if r := explore(t, c, func(cfg *Config) { cfg.MaxDepth = 4 }); !r.Complete() || !r.DepthCut || r.Depth != 4 || r.MaxDepthSeen != 4 || r.Found[sim.StaleWrite] != nil {
		t.Errorf("depth 4: stopped %q, cut %v, depth %d, deepest %d, stale write %v", r.Stopped, r.DepthCut, r.Depth, r.MaxDepthSeen, r.Found[sim.StaleWrite])
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sc, _ := sim.Lookup("fencing")
	r, err := Run(ctx, Config{Scenario: sc, Pauses: 1, PauseMs: []int64{10_000}})
	if err != nil || r.Stopped != StopTime || r.Schedules != 0 {
		t.Errorf("cancelled: %v, %+v", err, r)
	}
}

// TestExploreValidate: configurations out of bounds are refused with an
// *sim.ActionError the web layer can explain.
func TestExploreValidate(t *testing.T) {
	fencing, _ := sim.Lookup("fencing")
	redlock, _ := sim.Lookup("redlock")
	for name, cfg := range map[string]Config{
		"no scenario":        {},
		"3 clients of 2":     {Scenario: fencing, Clients: 3},
		"pause without time": {Scenario: fencing, Pauses: 1},
		"too many pauses":    {Scenario: fencing, Pauses: 9, PauseMs: []int64{1000}},
		"node faults, none":  {Scenario: fencing, NodeFaults: 1},
		"drops, none":        {Scenario: fencing, Drops: 1},
		"depth":              {Scenario: fencing, MaxDepth: 99},
		"states":             {Scenario: fencing, MaxStates: 1 << 30},
		"negative crashes":   {Scenario: redlock, Crashes: -1},
		"pause of an hour+":  {Scenario: fencing, Pauses: 1, PauseMs: []int64{sim.MaxWait + 1}},
	} {
		_, err := Run(context.Background(), cfg)
		var ae *sim.ActionError
		if !errors.As(err, &ae) {
			t.Errorf("%s: got %v, want an *sim.ActionError", name, err)
		}
	}
}

// BenchmarkExplore is the Lab's default configuration: the fencing
// lesson's safe design, two clients, one pause of 10 s, explored
// completely.
func BenchmarkExplore(b *testing.B) {
	c := exploreCase{"default", "fencing", "", 2, 1, 0, 0, "", 0}
	for b.Loop() {
		r := explore(b, c)
		if !r.Complete() {
			b.Fatalf("stopped early: %s", r.Stopped)
		}
		b.ReportMetric(float64(r.Schedules), "schedules")
		b.ReportMetric(float64(r.States), "states")
	}
}

package explore

import (
	"context"
	"flag"
	"fmt"
	"reflect"
	"testing"

	"locklab/sim"
)

// forkStates is the state cap of the four rows in the differential test:
// small by default (replaying every schedule from scratch is what the fork
// saves); go test ./sim -run ForkMatches -fork.states 50000 runs them whole.
var forkStates = flag.Int("fork.states", 800, "state cap of the table's rows in TestExploreForkMatchesReplay")

// labDefault is a lesson's default Lab configuration (web/lab.go
// labDefaults): two clients, the scenario's fault budget, pauses as long
// as the lock's TTL, the default depth.
func labDefault(sc *sim.Scenario) Config {
	b := sc.DefaultBudget()
	return Config{Scenario: sc, Opts: sc.DefaultOpts(), Clients: 2, Pauses: b.Pauses, PauseMs: []int64{sc.TTL},
		Crashes: b.Crashes, NodeFaults: b.NodeFaults, MaxStates: MaxStates}
}

func rowConfig(row labRow, states int) Config {
	sc, _ := sim.Lookup(row.scenario)
	return Config{Scenario: sc, Clients: row.clients, Pauses: row.pauses, PauseMs: []int64{sc.TTL},
		Crashes: row.crashes, NodeFaults: row.n, MaxStates: states}
}

func mustExplore(t *testing.T, cfg Config) *Result {
	t.Helper()
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("%s: %v", cfg.Scenario.ID, err)
	}
	return r
}

// TestExploreForkMatchesReplay: reaching each state by copying its
// parent's world and applying one action finds the same states, the
// same findings and the same shortest counterexamples as replaying every
// schedule from scratch — on every lesson's default Lab configuration
// and on the four rows of issue 11's table (those under a smaller state
// cap: the cap is part of the configuration, so both must stop at the
// same place).
func TestExploreForkMatchesReplay(t *testing.T) {
	var cfgs []Config
	for _, id := range sim.ScenarioIDs() {
		sc, _ := sim.Lookup(id)
		cfgs = append(cfgs, labDefault(sc))
	}
	for _, row := range labRows {
		cfgs = append(cfgs, rowConfig(row, *forkStates))
	}
	for _, cfg := range cfgs {
		t.Run(cfg.Scenario.ID, func(t *testing.T) {
			fork := mustExplore(t, cfg)
			cfg.replay = true
			replay := mustExplore(t, cfg)
			if !reflect.DeepEqual(fork, replay) {
				t.Errorf("fork and replay differ:\nfork   %+v\nreplay %+v", fork, replay)
				for k, f := range fork.Found {
					t.Errorf("fork %s: %d, %s", k, f.Schedules, sim.FormatActions(f.Shortest))
				}
				for k, f := range replay.Found {
					t.Errorf("replay %s: %d, %s", k, f.Schedules, sim.FormatActions(f.Shortest))
				}
			}
		})
	}
}

// TestExploreSameOnAnyWorkers: the search is split across workers, but
// its result — counts, findings, the shortest counterexample, where a
// state cap stopped it — is the same for one worker or three.
func TestExploreSameOnAnyWorkers(t *testing.T) {
	for _, cfg := range []Config{rowConfig(labRows[0], MaxStates), rowConfig(labRows[3], 1500)} {
		var first *Result
		for _, n := range []int{1, 2, 3} {
			cfg.workers = n
			r := mustExplore(t, cfg)
			if first == nil {
				first = r
			} else if !reflect.DeepEqual(first, r) {
				t.Errorf("%s: %d workers: %+v, 1 worker: %+v", cfg.Scenario.ID, n, r, first)
			}
		}
	}
}

// TestReductionKeepsEveryState: leaving out the orders that only swap a
// local move (a pause, a resume) with another client's step reaches the
// same states at the same depths and finds the same kinds of failure,
// each with a shortest counterexample of the same length, as trying
// every order — on every lesson's default Lab configuration and on
// issue 11's rows — and it leaves some order out somewhere (a reduction
// that never applies would pass the rest).
func TestReductionKeepsEveryState(t *testing.T) {
	var cfgs []Config
	for _, id := range sim.ScenarioIDs() {
		sc, _ := sim.Lookup(id)
		cfgs = append(cfgs, labDefault(sc))
	}
	for _, row := range labRows {
		cfgs = append(cfgs, rowConfig(row, MaxStates))
	}
	saved := 0
	for _, cfg := range cfgs {
		reduced := mustExplore(t, cfg)
		cfg.AllOrders = true
		full := mustExplore(t, cfg)
		if err := sameSearch(reduced, full); err != "" {
			t.Errorf("%s, %d clients: %s", cfg.Scenario.ID, cfg.Clients, err)
		}
		saved += full.Schedules - reduced.Schedules
	}
	if saved <= 0 {
		t.Errorf("the reduction left no order out in %d searches", len(cfgs))
	}
}

// sameSearch says how a reduced search differs from the full one in what
// it reached and found ("" if it does not): the states, how far it is
// complete, the kinds and their shortest lengths. Only a complete pair
// is compared state for state: a cap stops the two at different places.
func sameSearch(reduced, full *Result) string {
	switch {
	case reduced.Schedules > full.Schedules:
		return fmt.Sprintf("%d schedules reduced, %d in full", reduced.Schedules, full.Schedules)
	case reduced.Complete() != full.Complete():
		return fmt.Sprintf("complete %v reduced, %v in full", reduced.Complete(), full.Complete())
	case full.Complete() && reduced.States != full.States:
		return fmt.Sprintf("%d states reduced, %d in full", reduced.States, full.States)
	case full.Complete() && (reduced.Depth != full.Depth || reduced.DepthCut != full.DepthCut):
		return fmt.Sprintf("depth %d (cut %v) reduced, %d (cut %v) in full", reduced.Depth, reduced.DepthCut, full.Depth, full.DepthCut)
	}
	for k, f := range full.Found {
		if g := reduced.Found[k]; g == nil || len(g.Shortest) != len(f.Shortest) {
			return fmt.Sprintf("%s: shortest %s in full, %v reduced", k, sim.FormatActions(f.Shortest), g)
		}
	}
	for k := range reduced.Found {
		if full.Found[k] == nil {
			return fmt.Sprintf("%s found reduced only", k)
		}
	}
	return ""
}

// design_grade.go grades a design: the explorer on the design's scenario
// with the standard fault budget, and the kinds of failure the design
// page reports.
package sim

import "context"

// GradeKinds are the failures a design is graded on, in the order the
// page lists them. Harm is "a stale write accepted" there: a write of an
// older holder that landed after a newer holder's. (A paused holder's
// write that lands before any newer holder wrote is not: the storage saw
// the writes in the order the lock was handed out, and no lock with a TTL
// can prevent it.) Overlap and StaleWrite, which every lease allows, are
// not grades.
//
// RepeatedWrite (the same acquisition's write applied twice, after a
// lost reply) can only happen to a design whose write adds to a total.
var GradeKinds = []ViolationKind{TwoHolders, Harm, ForeignDelete, Orphan, DoubleWrite, RepeatedWrite, NotReleased}

// GradeDepth is the most actions one graded schedule may have.
const GradeDepth = DefaultExploreDepth

// GradeConfig is the explorer configuration that grades d with that many
// clients (2 or 3) within maxStates distinct states.
func GradeConfig(d *Design, clients, maxStates int) (ExploreConfig, error) {
	sc, err := d.ScenarioFor(clients)
	if err != nil {
		return ExploreConfig{}, err
	}
	b, pauseMs := DesignBudget(d)
	return ExploreConfig{Scenario: sc, Opts: sc.DefaultOpts(), Clients: clients,
		Pauses: b.Pauses, PauseMs: pauseMs, Crashes: b.Crashes, Drops: b.Drops, MaxDepth: GradeDepth, MaxStates: maxStates}, nil
}

// Grade explores d with that many clients.
func Grade(ctx context.Context, d *Design, clients, maxStates int) (*ExploreResult, error) {
	cfg, err := GradeConfig(d, clients, maxStates)
	if err != nil {
		return nil, err
	}
	return Explore(ctx, cfg)
}

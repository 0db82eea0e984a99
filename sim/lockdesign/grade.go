// grade.go grades a design: the explorer on the design's scenario
// with the standard fault budget. The kinds it reports are kinds.go's, the
// same the Lab reports (KindsFor the design's scenario).

package lockdesign

import (
	"context"

	"locklab/sim/explore"
)

// GradeDepth is the most actions one graded schedule may have.
const GradeDepth = explore.DefaultDepth

// GradeConfig is the explorer configuration that grades d with that many
// clients (2 or 3) within maxStates distinct states.
func GradeConfig(d *Design, clients, maxStates int) (explore.Config, error) {
	sc, err := d.ScenarioFor(clients)
	if err != nil {
		return explore.Config{}, err
	}
	b, pauseMs := DesignBudget(d)
	return explore.Config{Scenario: sc, Opts: sc.DefaultOpts(), Clients: clients,
		Pauses: b.Pauses, PauseMs: pauseMs, Crashes: b.Crashes, Drops: b.Drops, MaxDepth: GradeDepth, MaxStates: maxStates}, nil
}

// Grade explores d with that many clients.
func Grade(ctx context.Context, d *Design, clients, maxStates int) (*explore.Result, error) {
	cfg, err := GradeConfig(d, clients, maxStates)
	if err != nil {
		return nil, err
	}
	return explore.Run(ctx, cfg)
}

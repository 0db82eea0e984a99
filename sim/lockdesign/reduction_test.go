package lockdesign

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"locklab/sim"
	"locklab/sim/explore"
)

// TestReductionOnTheCorpus: on every design of the corpus (a third of
// them outside CI, the third moving on every ten minutes; LOCKLAB_TURN=k
// runs third k, CI=true or LOCKLAB_ALL_LANGS=1 all), with every number of
// clients it names, the explorer's reduction (explore.Config.AllOrders
// off) reaches as many states as the search that tries every order, is
// as complete, and finds the same kinds with shortest schedules of the
// same length: a grade cannot change because orders were left out.
func TestReductionOnTheCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/designs/*.design")
	all := os.Getenv("CI") == "true" || os.Getenv("LOCKLAB_ALL_LANGS") == "1"
	turn := int(time.Now().Unix() / 600 % 3)
	if k, err := strconv.Atoi(os.Getenv("LOCKLAB_TURN")); err == nil && k >= 0 {
		turn = k
	}
	for i, path := range files {
		c := readDesign(t, path)
		if !all && (i+turn)%3 != 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			for _, n := range c.clients {
				if n == 3 && testing.Short() {
					continue
				}
				cfg, err := GradeConfig(c.design, n, explore.MaxStates)
				if err != nil {
					t.Fatal(err)
				}
				reduced, err := explore.Run(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				cfg.AllOrders = true
				full, err := explore.Run(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				if reduced.States != full.States || reduced.Complete() != full.Complete() || reduced.Depth != full.Depth {
					t.Errorf("%d clients: %d states (complete %v, depth %d) reduced, %d (%v, %d) in full", n,
						reduced.States, reduced.Complete(), reduced.Depth, full.States, full.Complete(), full.Depth)
				}
				if len(reduced.Found) != len(full.Found) {
					t.Errorf("%d clients: %d kinds found reduced, %d in full", n, len(reduced.Found), len(full.Found))
				}
				for k, f := range full.Found {
					if g := reduced.Found[k]; g == nil || len(g.Shortest) != len(f.Shortest) {
						t.Errorf("%d clients: %s: %s in full, %v reduced", n, k, sim.FormatActions(f.Shortest), g)
					}
				}
			}
		})
	}
}

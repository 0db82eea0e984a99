package explore

import (
	"context"
	"errors"
	"testing"

	"locklab/sim"
)

// TestWithin: the flagship's schedule is within one pause of 10 s for two
// clients; the moves the explorer would not take are refused with the
// rule that leaves them out; and the explorer's shortest stale write is
// within the same bounds (a par the learner can reach).
func TestWithin(t *testing.T) {
	sc, _ := sim.Lookup("fencing")
	opts, err := sc.ParseOptions("fence.off")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Scenario: sc, Opts: opts, Clients: 2, Pauses: 1, PauseMs: []int64{10_000}}
	within := func(do string) error {
		t.Helper()
		actions, err := sim.ParseActions(do)
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Within(actions)
	}
	if err := within("a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write"); err != nil {
		t.Errorf("the flagship schedule: %v", err)
	}
	for _, c := range []struct {
		do    string
		index int
		code  sim.Code
		most  int
	}{
		{"a.acquire,wait.10s", 1, CodeMoveWait, 0},                            // time passes only in a pause
		{"a.acquire,a.pause,wait.4s", 2, CodeMoveWait, 0},                     // not a length the bounds allow
		{"a.acquire,a.pause,wait.10s,b.acquire,b.pause", 4, CodeMoveSpent, 1}, // one pause
		{"a.acquire,a.pause,a.resume", 2, CodeMoveResume, 0},                  // the pause lasts first
		{"b.pause", 0, CodeMoveIdle, 0},                                       // nothing to lose yet
		{"a.acquire,a.write,a.write", 2, CodeMoveOnce, 0},
	} {
		err := within(c.do)
		var me *MoveError
		if !errors.As(err, &me) || me.Index != c.index || me.Code != c.code || me.Most != c.most {
			t.Errorf("%s: %v, want move %d refused as %s (most %d)", c.do, err, c.index+1, c.code, c.most)
			continue
		}
		if len(me.Allowed) == 0 {
			t.Errorf("%s: no allowed moves listed", c.do)
		}
	}
	// a client beyond the bounds' clients
	one := cfg
	one.Clients = 1
	actions, _ := sim.ParseActions("a.acquire,b.acquire")
	var me *MoveError
	if err := one.Within(actions); !errors.As(err, &me) || me.Code != CodeMoveClient || me.Index != 1 {
		t.Errorf("b with one client: %v", err)
	}
	// an action no timeline could take is no move either
	actions, _ = sim.ParseActions("a.write")
	if err := cfg.Within(actions); !errors.As(err, &me) || me.Code != CodeMoveOther {
		t.Errorf("a.write first: %v, want %s", err, CodeMoveOther)
	}

	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := res.Found[sim.StaleWrite]
	if f == nil {
		t.Fatal("no stale write found without fencing")
	}
	if err := cfg.Within(f.Shortest); err != nil {
		t.Errorf("the explorer's shortest stale write %s is not within its own bounds: %v", sim.FormatActions(f.Shortest), err)
	}
}

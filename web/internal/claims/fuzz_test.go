package claims_test

import (
	"strings"
	"testing"

	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/sim/oracle"
	"locklab/web/i18n"
)

// handCommands are what FuzzClaims types by hand: everything that can
// end a key's life or change its TTL, on the lock and the storage's keys.
var handCommands = []string{"DEL {k}", "UNLINK {k}", "GETDEL {k}", "RENAME {k} {k}:old", "SET {k} typed",
	"EXPIRE {k} 3", "PEXPIRE {k} 1500", "PERSIST {k}", "SET {k} 7 NX PX 2000", "INCR {k}"}

// FuzzClaims builds random timelines from the bytes — a lesson's
// scenario and options, then actions each chosen among what is possible
// at that point: client verbs, node faults, waits and commands typed by
// hand on the lock and the storage's keys — and holds every claim the
// pages make about it, in every language, to what its servers did.
func FuzzClaims(f *testing.F) {
	for _, seed := range [][]byte{
		{0, 0, 1, 2, 3, 4, 5}, {2, 1, 200, 201, 9, 9, 9}, {6, 0, 50, 60, 70, 80, 90, 100},
		{5, 3, 1, 220, 3, 230, 7, 240}, {7, 0, 0, 0, 0, 0, 0, 0, 0}, {4, 2, 210, 3, 215, 5, 250, 1},
	} {
		f.Add(seed)
	}
	ids := sim.ScenarioIDs()
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		var sc *sim.Scenario
		if k := int(data[0]) % (len(ids) + 1); k < len(ids) {
			sc, _ = sim.Lookup(ids[k])
		} else {
			sc = fuzzDesign(t, data[1])
		}
		opts := sc.DefaultOpts()
		for i, o := range sc.Options {
			opts[o.Name] = o.Values[(int(data[1])>>i)%len(o.Values)]
		}
		var actions []sim.Action
		for _, b := range data[2:min(len(data), 14)] {
			tl, err := sim.Replay(sc, opts, actions)
			if err != nil {
				t.Fatalf("%v (%s)", err, sim.FormatActions(actions))
			}
			choices := next(tl, sc)
			if len(choices) == 0 {
				break
			}
			actions = append(actions, choices[int(b)%len(choices)])
		}
		tl, facts, err := oracle.Replay(sc, opts, actions)
		if err != nil {
			t.Fatalf("%v (%s)", err, sim.FormatActions(actions))
		}
		for _, code := range i18n.Codes() {
			if p := claimsOf(tl, facts, i18n.For(code)); len(p) > 0 {
				t.Fatalf("/%s/lessons/%s?do=%s&opt=%s:\n  %s", code, sc.ID, sim.FormatActions(actions), sc.FormatOptions(opts), strings.Join(p, "\n  "))
			}
		}
	})
}

// fuzzDesign is a design of presets chosen by b (bit 0 the write's
// effect, then each piece's preset), with two clients.
func fuzzDesign(t *testing.T, b byte) *sim.Scenario {
	d := lockdesign.DefaultDesign()
	if b&1 == 1 {
		d.SetEffect(lockdesign.EffectAdd)
	}
	n := int(b >> 1)
	for _, p := range sim.Pieces {
		ps := lockdesign.PresetsOf(p, d.Effect)
		d.SetScript(p, ps[n%len(ps)].Script)
		n /= len(ps)
	}
	sc, err := d.ScenarioFor(2)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// next is every action possible on tl: each client's verbs, each node's,
// a wait, and the hand commands on every node a command can go to.
func next(tl *sim.Timeline, sc *sim.Scenario) []sim.Action {
	var out []sim.Action
	for _, c := range tl.Clients {
		for _, v := range tl.Allowed[c.ID] {
			out = append(out, sim.Action{Who: c.ID, Verb: v})
		}
	}
	for _, n := range tl.Nodes {
		for _, v := range tl.NodeAllowed[n.Name] {
			a := sim.Action{Who: n.Name, Verb: v}
			switch v {
			case sim.NodeJump, sim.NodeSlow:
				a.Ms = 3000
			}
			out = append(out, a)
		}
	}
	for _, ms := range []int64{1000, 5000, 10_000} {
		out = append(out, sim.Action{Verb: sim.VerbWait, Ms: ms})
	}
	for _, node := range sc.OperatorNodes() {
		keys := []string{sc.DataKey(), sc.TokenKey()}
		if node != sim.NodeStorage {
			keys = []string{sc.LockKey(), sc.FenceKey()}
		}
		for _, k := range keys {
			for _, c := range handCommands {
				out = append(out, sim.Action{Who: node, Verb: sim.VerbCLI, Cmd: strings.Fields(strings.ReplaceAll(c, "{k}", k))})
			}
		}
	}
	return out
}

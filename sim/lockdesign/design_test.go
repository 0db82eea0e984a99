package lockdesign

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"locklab/sim"
	"locklab/sim/explore"
)

// update rewrites each design file's expected counterexamples from the
// grade (go test ./sim/lockdesign -update).
var update = flag.Bool("update", false, "rewrite the expected counterexamples in testdata/designs")

// TestDesignPresetsPass: every preset passes the script checker.
func TestDesignPresetsPass(t *testing.T) {
	for _, p := range Presets {
		if p.Script == "" {
			continue
		}
		d := DefaultDesign()
		if p.Effect != "" {
			d.Effect = p.Effect
		}
		d.SetScript(p.Piece, p.Script)
		if err := d.Validate(); err != nil {
			t.Errorf("%s %s: %v", p.Piece.Name(), p.Name, err)
		}
	}
}

// TestDesignRefusesBeforeEVAL: a design whose script the checker refuses
// has no scenario, so it can never run.
func TestDesignRefusesBeforeEVAL(t *testing.T) {
	d := DefaultDesign()
	d.SetScript(sim.PieceRelease, "return redis.call('DEL', KEYS[1])\n-- then\nwhile true do end")
	_, err := d.Scenario()
	var de *DesignError
	if !errorsAs(err, &de) || de.Piece != sim.PieceRelease || de.Part != 1 {
		t.Fatalf("a looping second part: %v", err)
	}
}

func errorsAs(err error, de **DesignError) bool {
	if e, ok := err.(*DesignError); ok {
		*de = e
		return true
	}
	return false
}

// designCase is one file of testdata/designs: a design and what grading
// it must find.
type designCase struct {
	name    string
	design  *Design
	clients []int
	head    []string          // the lines before the first section
	body    []string          // the script sections, as written
	expect  map[string]string // "2 two-holders" → the shortest do
	// must lists the kinds the design must be found to have, written by
	// hand (a "must" line): the one line that says what a broken design
	// is for, which -update never writes.
	must []string
}

// readDesign reads a .design file: header lines (# comments, ttl, work,
// effect, clients; effect before any preset section), then sections "--- <piece>" (the script follows) or
// "--- <piece> = <preset>", and "--- expect" with lines
// "<clients> <kind> <shortest do>".
func readDesign(t *testing.T, path string) *designCase {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := &designCase{name: strings.TrimSuffix(filepath.Base(path), ".design"), design: DefaultDesign(),
		clients: []int{2}, expect: map[string]string{}}
	section, text := "", []string{}
	flush := func() {
		if section == "" || section == "expect" {
			return
		}
		p, ok := sim.PieceNamed(section)
		if !ok {
			t.Fatalf("%s: no piece %q", path, section)
		}
		c.design.SetScript(p, strings.Join(text, "\n"))
	}
	for _, line := range strings.Split(strings.TrimRight(string(raw), "\n"), "\n") {
		if rest, ok := strings.CutPrefix(line, "--- "); ok {
			flush()
			section, text = rest, nil
			if name, preset, ok := strings.Cut(rest, " = "); ok {
				p, _ := sim.PieceNamed(name)
				pr, ok := PresetNamed(p, c.design.Effect, preset)
				if !ok {
					t.Fatalf("%s: no preset %q", path, rest)
				}
				c.design.SetScript(p, pr.Script)
				section = ""
			}
			if section != "expect" {
				c.body = append(c.body, line)
			}
			continue
		}
		switch section {
		case "":
			if len(c.body) > 0 {
				c.body = append(c.body, line)
				continue
			}
			c.head = append(c.head, line)
			f := strings.Fields(line)
			if len(f) < 2 || strings.HasPrefix(line, "#") {
				continue
			}
			switch f[0] {
			case "ttl", "work":
				ms, ok := sim.ParseDuration(f[1])
				if !ok {
					t.Fatalf("%s: %q", path, line)
				}
				if f[0] == "ttl" {
					c.design.TTL = ms
				} else {
					c.design.Work = ms
				}
			case "effect":
				c.design.Effect = f[1]
			case "renew":
				c.design.Renew = f[1]
			case "must":
				c.must = f[1:]
			case "clients":
				c.clients = nil
				for _, n := range f[1:] {
					k, _ := strconv.Atoi(n)
					c.clients = append(c.clients, k)
				}
			}
		case "expect":
			f := strings.Fields(line)
			if len(f) == 3 {
				c.expect[f[0]+" "+f[1]] = f[2]
			}
		default:
			text = append(text, line)
			c.body = append(c.body, line)
		}
	}
	flush()
	return c
}

// TestDesignCorpus grades every design of testdata/designs with the
// clients it names and holds the result to the file: the safe designs get
// no finding; each broken one gets the failures it lists, each with its
// shortest counterexample pinned (go test ./sim -run TestDesignCorpus
// -update rewrites the expect sections; review the diff). Every search
// must be complete: a verdict, not a budget running out.
func TestDesignCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/designs/*.design")
	nSafe := 0
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "safe-") {
			nSafe++
		}
	}
	if len(files)-nSafe < 60 || nSafe < 15 {
		t.Fatalf("the corpus has %d broken designs and %d safe ones, want at least 60 and 15", len(files)-nSafe, nSafe)
	}
	for _, path := range files {
		c := readDesign(t, path)
		t.Run(c.name, func(t *testing.T) {
			if err := c.design.Validate(); err != nil {
				t.Fatalf("the checker refuses it: %v", err)
			}
			got := map[string]string{}
			for _, n := range c.clients {
				if n == 3 && testing.Short() {
					continue
				}
				res, err := Grade(context.Background(), c.design, n, explore.MaxStates)
				if err != nil {
					t.Fatal(err)
				}
				if !res.Complete() {
					t.Fatalf("%d clients: the search stopped (%s) at depth %d", n, res.Stopped, res.Depth)
				}
				for _, k := range sim.Kinds {
					if f := res.Found[k]; f != nil {
						got[strconv.Itoa(n)+" "+string(k)] = sim.FormatActions(f.Shortest)
					}
				}
			}
			if *update {
				writeDesign(t, path, c, got)
				return
			}
			safe := strings.HasPrefix(c.name, "safe-")
			failures := 0
			for k := range got {
				if sim.ClassOf(sim.ViolationKind(strings.Fields(k)[1])) != sim.ClassAllowed {
					failures++
				}
			}
			if safe && failures > 0 {
				t.Errorf("a safe design has failures: %v", got)
			}
			if !safe && failures == 0 {
				t.Errorf("a broken design has no failure: %v", got)
			}
			if !safe && len(c.must) == 0 {
				t.Errorf("a broken design says what it must be found to have: a line \"must <kind>…\"")
			}
			for _, k := range c.must {
				if sim.ClassOf(sim.ViolationKind(k)) == sim.ClassAllowed || !slices.Contains(sim.Kinds, sim.ViolationKind(k)) {
					t.Errorf("must %s: not a failure kind", k)
				}
				found := false
				for g := range got {
					found = found || strings.Fields(g)[1] == k
				}
				if !found {
					t.Errorf("must be found to have %s; found %v", k, got)
				}
			}
			for k, do := range c.expect {
				if strings.HasPrefix(k, "3 ") && testing.Short() {
					continue
				}
				if got[k] != do {
					t.Errorf("%s: shortest %q, want %q", k, got[k], do)
				}
			}
			for k, do := range got {
				if _, ok := c.expect[k]; !ok {
					t.Errorf("%s found (%s) but not expected", k, do)
				}
			}
		})
	}
}

func writeDesign(t *testing.T, path string, c *designCase, got map[string]string) {
	t.Helper()
	lines := append(slices.Clone(c.head), c.body...)
	if len(got) > 0 {
		lines = append(lines, "--- expect")
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			lines = append(lines, k+" "+got[k])
		}
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkGradeSafe3 grades the safe default design with three clients
// (the slower of a grade's two searches):
//
//	go test ./sim -run '^$' -bench GradeSafe3 -benchtime 3x
func BenchmarkGradeSafe3(b *testing.B) {
	for b.Loop() {
		res, err := Grade(context.Background(), DefaultDesign(), 3, explore.MaxStates)
		if err != nil || !res.Complete() {
			b.Fatal(err, res.Stopped)
		}
		for _, k := range sim.Kinds {
			if res.Found[k] != nil && sim.ClassOf(k) != sim.ClassAllowed {
				b.Fatalf("the safe design breaks: %s", k)
			}
		}
		b.ReportMetric(float64(res.States), "states")
	}
}

// TestDesignBudgets (with LOCKLAB_DESIGN_BUDGETS=1) grades the safe
// design with three clients under bigger fault budgets and prints each
// search's states and time: what the note's "biggest budget within the
// Lab's time limit" is read from.
func TestDesignBudgets(t *testing.T) {
	if os.Getenv("LOCKLAB_DESIGN_BUDGETS") == "" {
		t.Skip("set LOCKLAB_DESIGN_BUDGETS=1 to measure")
	}
	for _, b := range []sim.Budget{{Pauses: 1, Crashes: 1}, {Pauses: 2, Crashes: 1}, {Pauses: 1, Crashes: 2}, {Pauses: 2, Crashes: 2}, {Pauses: 3, Crashes: 1}} {
		cfg, err := GradeConfig(DefaultDesign(), 3, explore.MaxStates)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Pauses, cfg.Crashes = b.Pauses, b.Crashes
		start := time.Now()
		res, err := explore.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("pauses=%d crashes=%d: %d states, %d schedules, depth %d, stopped %q, %v wall",
			b.Pauses, b.Crashes, res.States, res.Schedules, res.Depth, res.Stopped, time.Since(start).Round(time.Millisecond))
	}
}

// TestDesignWriteTokenShownOnlyIfRead: a write script that never reads
// ARGV[1] carries no token on its event ("accepted", not "token 1
// accepted"), as a lesson's unchecked SET does not; the fenced default
// does.
func TestDesignWriteTokenShownOnlyIfRead(t *testing.T) {
	for _, c := range []struct {
		preset string
		token  bool
	}{{"none", false}, {"", true}} {
		d := DefaultDesign()
		if c.preset != "" {
			i := slices.IndexFunc(PresetsOf(sim.PieceWrite, d.Effect), func(p Preset) bool { return p.Name == c.preset })
			if i < 0 {
				t.Fatalf("no write preset %q", c.preset)
			}
			d.SetScript(sim.PieceWrite, PresetsOf(sim.PieceWrite, d.Effect)[i].Script)
		}
		sc, err := d.ScenarioFor(2)
		if err != nil {
			t.Fatal(err)
		}
		acts, _ := sim.ParseActions("a.acquire,a.write")
		tl, err := sim.Replay(sc, sc.DefaultOpts(), acts)
		if err != nil {
			t.Fatal(err)
		}
		e := tl.Events[len(tl.Events)-1]
		if e.Accepted == nil || !*e.Accepted || (e.Token > 0) != c.token {
			t.Errorf("write preset %q: accepted %v, token %d (want a token: %v)", c.preset, e.Accepted, e.Token, c.token)
		}
	}
}

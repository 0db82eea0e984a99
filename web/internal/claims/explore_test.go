package claims_test

import (
	"context"
	"html"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/explore"
	"locklab/sim/lockdesign"
	"locklab/sim/oracle"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/links"
)

// labBudget is the explorer's budget here: the Lab's own schedules, cut
// at fewer states so that the suite stays quick; every counterexample it
// finds is one the Lab shows too.
const labBudget = 4000

// TestLabCounterexamples holds every counterexample the Lab finds for
// each lesson's designs (every option set its steps use) to what its
// servers did, in every language, and the Lab's line about what the
// lesson fixed to what the clients did in them.
func TestLabCounterexamples(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("explores every lesson's designs")
	}
	cat, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := sitetest.Default(t)
	for _, l := range cat.List(i18n.Fallback) {
		var opts []string
		for _, st := range l.Steps {
			if !slices.Contains(opts, st.Opt) {
				opts = append(opts, st.Opt)
			}
		}
		for _, opt := range opts {
			o, err := l.Scenario.ParseOptions(opt)
			if err != nil {
				t.Fatal(err)
			}
			b := l.Scenario.DefaultBudget()
			res, err := explore.Run(context.Background(), explore.Config{Scenario: l.Scenario, Opts: o, Clients: 2,
				Pauses: b.Pauses, PauseMs: []int64{l.Scenario.TTL}, Crashes: b.Crashes, NodeFaults: b.NodeFaults,
				Drops: b.Drops, MaxDepth: 10, MaxStates: labBudget})
			if err != nil {
				t.Fatalf("%s %q: %v", l.Slug, opt, err)
			}
			var fixed []string
			for _, k := range sim.Kinds {
				fd := res.Found[k]
				if fd == nil {
					continue
				}
				do := sim.FormatActions(fd.Shortest)
				tl, f, err := oracle.Replay(l.Scenario, o, fd.Shortest)
				if err != nil {
					t.Fatalf("%s %q %s: %v", l.Slug, opt, k, err)
				}
				if !slices.ContainsFunc(tl.Violations, func(v sim.Violation) bool { return v.Kind == k }) {
					t.Errorf("%s %q: the %s counterexample %s does not show %s", l.Slug, opt, k, do, k)
				}
				for _, code := range i18n.Codes() {
					if p := claimsOf(tl, f, i18n.For(code)); len(p) > 0 {
						t.Errorf("/%s/lessons/%s?do=%s&opt=%s (Lab, %s):\n  %s", code, l.Slug, do, opt, k, strings.Join(p, "\n  "))
					}
				}
				fixed = append(fixed, fixedFacts(tl, f)...)
			}
			// The Lab's line about the fixed design, against what the
			// clients did in its counterexamples.
			page := webtest.MustGet(t, h, links.Lab(l, o))
			line := html.UnescapeString(fixedRE.FindStringSubmatch(page)[1])
			for _, fact := range slices.Compact(slices.Sorted(slices.Values(fixed))) {
				if !strings.Contains(line, fact) {
					t.Errorf("/en/lab?lesson=%s&opt=%s says %q; its counterexamples show %q", l.Slug, opt, line, fact)
				}
			}
		}
	}
}

var fixedRE = regexp.MustCompile(`<p class="fixed">([^<]*)</p>`)

// fixedFacts is what the clients did in a timeline, in the words of the
// Lab's line: the TTL their SETs asked for (or none), how long they
// worked, whether one retried or gave up after one try.
func fixedFacts(tl *sim.Timeline, f *oracle.Facts) []string {
	u := i18n.For("en")
	fx := u.Lab.Fixed
	var out []string
	for _, e := range tl.Events {
		// the TTL a client's command asked for: SET … PX n, PEXPIRE n
		if e.Kind != sim.KindCommand || e.Model || e.Node == sim.NodeStorage || len(e.Command) < 3 || !slices.ContainsFunc(tl.Clients, func(c sim.ClientView) bool { return c.ID == e.Actor }) {
			continue
		}
		switch c := e.Command; {
		case c[0] == "PEXPIRE":
			out = append(out, ttlFact(fx, c[2]))
		case c[0] == "SET" && slices.Contains(c, "PX"):
			out = append(out, ttlFact(fx, c[slices.Index(c, "PX")+1]))
		case c[0] == "SET" && slices.Contains(c, "NX"):
			out = append(out, fx["no-ttl"])
		}
	}
	for _, e := range tl.Events {
		switch {
		case e.Kind == sim.KindWork:
			out = append(out, i18n.Fill(fx["work"], sim.FormatDuration(e.Ms)))
		case e.Kind == sim.KindGiveUp:
			out = append(out, fx["once"])
		case e.Purpose == "retry":
			out = append(out, fx["retry"][:strings.Index(fx["retry"], "{")])
		}
	}
	return out
}

func ttlFact(fx map[string]string, ms string) string {
	n, _ := strconv.ParseInt(ms, 10, 64)
	return i18n.Fill(fx["ttl"], sim.FormatDuration(n))
}

// TestDesignPresets holds the runs of every preset's grade (each preset in
// the default design, with two clients) to what their servers did, in
// every language.
func TestDesignPresets(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("grades every preset")
	}
	for _, p := range lockdesign.Presets {
		d := lockdesign.DefaultDesign()
		if p.Effect != "" {
			d.SetEffect(p.Effect)
		}
		d.SetScript(p.Piece, p.Script)
		res, err := lockdesign.Grade(context.Background(), d, 2, labBudget)
		if err != nil {
			t.Fatalf("%s %s: %v", p.Piece.Name(), p.Name, err)
		}
		sc, err := d.ScenarioFor(2)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range sim.Kinds {
			fd := res.Found[k]
			if fd == nil {
				continue
			}
			tl, f, err := oracle.Replay(sc, sc.DefaultOpts(), fd.Shortest)
			if err != nil {
				t.Fatalf("%s=%s %s: %v", p.Piece.Name(), p.Name, k, err)
			}
			for _, code := range i18n.Codes() {
				if msgs := claimsOf(tl, f, i18n.For(code)); len(msgs) > 0 {
					t.Errorf("%s design %s=%s, %s run do=%s:\n  %s", code, p.Piece.Name(), p.Name, k, sim.FormatActions(fd.Shortest), strings.Join(msgs, "\n  "))
				}
			}
		}
	}
}

// TestDesignAddRun: a design whose write adds to a total with no token
// check, with the older holder's write landing after the newer's (a
// reader found it called "the newer result is lost" beside a total of 2).
func TestDesignAddRun(t *testing.T) {
	t.Parallel()
	d := lockdesign.DefaultDesign()
	d.SetEffect(lockdesign.EffectAdd)
	p, ok := lockdesign.PresetNamed(sim.PieceWrite, lockdesign.EffectAdd, "none")
	if !ok {
		t.Fatal("no write preset none")
	}
	d.SetScript(sim.PieceWrite, p.Script)
	sc, err := d.ScenarioFor(2)
	if err != nil {
		t.Fatal(err)
	}
	tl, f, err := oracle.RunOn(sc, "a.acquire,b.acquire,a.pause,wait.10s,b.write,a.resume,a.write", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range i18n.Codes() {
		if m := claimsOf(tl, f, i18n.For(code)); len(m) > 0 {
			t.Errorf("%s: %s", code, strings.Join(m, "\n  "))
		}
	}
}

// TestDesignRefusedRun: a release split in two (GET, then DEL on another
// call) that never deletes leaves the key, and B's acquire is refused
// with no client holding the lock. An English reader found "yet no one
// held the lock" beside "A holds the lock on Redis": the sentence now
// says the key was another client's, as the facts have it, and a typed
// value is no client's.
func TestDesignRefusedRun(t *testing.T) {
	t.Parallel()
	d := lockdesign.DefaultDesign()
	d.SetScript(sim.PieceRelease, "local v = redis.call('GET', KEYS[1])\n-- then\nreturn 0")
	sc, err := d.ScenarioFor(2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ do, why string }{
		{"a.acquire,a.release,b.acquire", sim.WhyLeftKey},
		{"cli.redis.SET lock:order:42 typed,b.acquire", ""},
	} {
		tl, f, err := oracle.RunOn(sc, c.do, "")
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(tl.Violations, func(v sim.Violation) bool { return v.Kind == sim.LockRefused })
		if i < 0 || tl.Violations[i].Why != c.why {
			t.Errorf("%s: violations %+v, want lock-refused because %q", c.do, tl.Violations, c.why)
		}
		for _, code := range i18n.Codes() {
			if m := claimsOf(tl, f, i18n.For(code)); len(m) > 0 {
				t.Errorf("%s %s: %s", c.do, code, strings.Join(m, "\n  "))
			}
		}
	}
}

package lessons

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"locklab/sim"
	"locklab/sim/explore"
	"locklab/sim/lockdesign"
)

// TestChallengesPar holds every challenge to what its page claims, by the
// explorer's own complete searches:
//   - break: the search reaches the goal; par is its shortest schedule,
//     which is made of the bounds' moves (explore.Config.Within), shows
//     the goal first at its last move when replayed from its URL, and a
//     complete search one move shallower finds no way to the goal; in
//     each lesson the break challenges' pars never go down (easy to hard);
//   - predict: the search is complete, so "no" is an answer;
//   - fix: the broken design fails within the bounds, and some design of
//     the lesson passes a complete search (the fix exists).
func TestChallengesPar(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	all := c.Challenges("en")
	if len(all) < 30 {
		t.Errorf("%d challenges, want at least 30", len(all))
	}
	perLesson := map[string]int{}
	lastPar := map[string]int{}
	for _, ch := range all {
		perLesson[ch.Lesson.Slug]++
		if ch.Design != "" {
			continue // TestDesignChallenges
		}
		res := search(t, ch.Config(ch.Opts))
		switch ch.Type {
		case Break:
			f := res.Found[ch.Goal]
			if f == nil {
				t.Errorf("%s: the search never reaches %s", ch.ID, ch.Goal)
				continue
			}
			par := len(f.Shortest)
			checkPar(t, ch, f.Shortest)
			shallower := ch.Config(ch.Opts)
			shallower.MaxDepth = par - 1
			if r := search(t, shallower); r.Found[ch.Goal] != nil {
				t.Errorf("%s: a search of depth %d reaches %s: par %d is not the fewest", ch.ID, par-1, ch.Goal, par)
			}
			if par < lastPar[ch.Lesson.Slug] {
				t.Errorf("%s: par %d after a challenge of par %d in the same lesson: order them easy to hard", ch.ID, par, lastPar[ch.Lesson.Slug])
			}
			lastPar[ch.Lesson.Slug] = par
		case Predict:
			// the words (the why line) are written for this answer
			if can := res.Found[ch.Goal] != nil; can != predictCan[ch.ID] {
				t.Errorf("%s: the explorer says %s can happen: %v; its why line is written for %v", ch.ID, ch.Goal, can, predictCan[ch.ID])
			}
		case Fix:
			if !fails(res) {
				t.Errorf("%s: the design to fix (%q) does not fail within its bounds", ch.ID, ch.Opt)
			}
			if fix := someFix(t, ch); fix == "" {
				t.Errorf("%s: no design of lesson %s passes within these bounds", ch.ID, ch.Lesson.Slug)
			}
		}
	}
	for _, l := range c.List("en") {
		if perLesson[l.Slug] < 3 {
			t.Errorf("lesson %s has %d challenges, want at least 3", l.Slug, perLesson[l.Slug])
		}
	}
	for _, lang := range c.Langs()[1:] {
		if len(c.Challenges(lang)) != len(all) {
			t.Errorf("%s has %d challenges, en %d", lang, len(c.Challenges(lang)), len(all))
		}
	}
}

// predictCan is the answer each predict challenge's why line explains
// (true: the goal can happen within the bounds).
var predictCan = map[string]bool{
	"ts-after-release": true, "aa-set-crash": false, "sr-delex": false, "fe-check": true,
	"fe-two-pauses": false, "fo-wait": false, "rl-fsync": false, "co-etcd": false,
	"eo-key": false, "su-strict": false,
	"ttl-overlap": true, "sr-safe-stale": true, "fe-overlap": true,
}

// search runs a search that must be complete: an incomplete one is no
// answer, so a challenge whose bounds outgrow the search is an error.
func search(t *testing.T, cfg explore.Config) *explore.Result {
	t.Helper()
	res, err := explore.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Complete() {
		t.Fatalf("%s %q: the search stopped (%s) at depth %d", cfg.Scenario.ID, cfg.Scenario.FormatOptions(cfg.Opts), res.Stopped, res.Depth)
	}
	return res
}

// checkPar replays the par solution from its URL form: the goal shows
// first at its last move, and every move is one the bounds allow.
func checkPar(t *testing.T, ch *Challenge, par []sim.Action) {
	t.Helper()
	actions, err := sim.ParseActions(sim.FormatActions(par))
	if err != nil {
		t.Fatal(err)
	}
	if err := ch.Config(ch.Opts).Within(actions); err != nil {
		t.Errorf("%s: par %s is not within the bounds: %v", ch.ID, sim.FormatActions(par), err)
	}
	tl, err := sim.Replay(ch.Lesson.Scenario, ch.Opts, actions)
	if err != nil {
		t.Fatalf("%s: par does not replay: %v", ch.ID, err)
	}
	first := -1
	for _, v := range tl.Violations {
		if v.Kind == ch.Goal {
			first = v.Step
			break
		}
	}
	if first != len(actions)-1 {
		t.Errorf("%s: par %s shows %s first at move %d, want %d", ch.ID, sim.FormatActions(par), ch.Goal, first+1, len(actions))
	}
}

// fails: the search found harm or a failed lock.
func fails(res *explore.Result) bool {
	for k := range res.Found {
		if sim.ClassOf(k) != sim.ClassAllowed {
			return true
		}
	}
	return false
}

// someFix is a design of the challenge's lesson (every combination of
// its options) that passes a complete search of the bounds, or "".
func someFix(t *testing.T, ch *Challenge) string {
	sc := ch.Lesson.Scenario
	designs := []string{""}
	for _, spec := range sc.Options {
		var next []string
		for _, d := range designs {
			for _, v := range spec.Values {
				next = append(next, strings.TrimPrefix(d+","+spec.Name+"."+v, ","))
			}
		}
		designs = next
	}
	for _, d := range designs {
		opts, err := sc.ParseOptions(d)
		if err != nil {
			t.Fatal(err)
		}
		if !fails(search(t, ch.Config(opts))) {
			return d
		}
	}
	return ""
}

// designFixes is a fix of each design challenge (the pieces it changes),
// written by hand: TestDesignChallenges holds that it passes.
var designFixes = map[string]map[string]string{
	"aa-lua-crash": {"acquire": "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"},
	"aa-lua-incr":  {"acquire": "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"},
	"ttl-lua-hour": {"acquire": "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"},
	"sr-lua":       {"release": "compare-delete"},
	"fe-lua":       {"write": "fenced"},
	"ttl-redis-py": {"acquire": "redis-py-timeout"},
	"fe-redsync":   {"write": "fenced"},
	"fe-prl-renew": {"write": "fenced"},
}

// wrongFixes are changes a reader made that must not fix their
// challenge: fe-redsync's bounds once held only a pause, and dropping the
// TTL (no pause can outlast it) or setting two hours passed as "Fixed".
var wrongFixes = map[string][]map[string]string{
	"fe-redsync": {
		{"acquire": "return redis.call('SET', KEYS[1], ARGV[1], 'NX')"},
		{"acquire": "return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', 7200000)"},
	},
}

// designOf builds a design challenge's design, with pieces changed.
func designOf(t *testing.T, q url.Values, change map[string]string) *lockdesign.Design {
	t.Helper()
	d := lockdesign.DefaultDesign()
	set := func(k, v string) {
		if k == "renew" {
			d.Renew = v
			return
		}
		if k == "ttl" {
			ms, ok := sim.ParseDuration(v)
			if !ok {
				t.Fatalf("design: ttl %q", v)
			}
			d.TTL = ms
			return
		}
		p, ok := sim.PieceNamed(k)
		if !ok {
			t.Fatalf("design: %s is not a piece", k)
		}
		if pr, ok := lockdesign.PresetNamed(p, d.Effect, v); ok {
			v = pr.Script
		}
		d.SetScript(p, v)
	}
	for k := range q {
		set(k, q.Get(k))
	}
	for k, v := range change {
		set(k, v)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDesignChallenges: each fix of a design page's lock starts from a
// design that fails within its bounds (searched on the design's own
// scenario, as the page searches it), and the fix written for it passes.
func TestDesignChallenges(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ch := range c.Challenges("en") {
		if ch.Design == "" {
			continue
		}
		n++
		q, err := url.ParseQuery(ch.Design)
		if err != nil {
			t.Fatal(err)
		}
		if designFixes[ch.ID] == nil {
			t.Errorf("%s: no fix written for it", ch.ID)
			continue
		}
		for i, change := range append([]map[string]string{nil, designFixes[ch.ID]}, wrongFixes[ch.ID]...) {
			sc, err := designOf(t, q, change).ScenarioFor(ch.Bounds.Clients)
			if err != nil {
				t.Fatal(err)
			}
			cfg := ch.Config(sc.DefaultOpts())
			cfg.Scenario = sc
			if err := cfg.Validate(); err != nil {
				t.Fatalf("%s: %v", ch.ID, err)
			}
			res := search(t, cfg)
			if fails(res) != (i != 1) {
				t.Errorf("%s with %v: fails %v", ch.ID, change, fails(res))
			}
		}
	}
	if n < 5 {
		t.Errorf("%d design challenges, want at least 5", n)
	}
}

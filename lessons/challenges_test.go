package lessons

import (
	"context"
	"strings"
	"testing"

	"locklab/sim"
)

// TestChallengesPar holds every challenge to what its page claims, by the
// explorer's own complete searches:
//   - break: the search reaches the goal; par is its shortest schedule,
//     which is made of the bounds' moves (sim.ExploreConfig.Within), shows
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
		res := explore(t, ch.Config(ch.Opts))
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
			if r := explore(t, shallower); r.Found[ch.Goal] != nil {
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
}

// explore runs a search that must be complete: an incomplete one is no
// answer, so a challenge whose bounds outgrow the search is an error.
func explore(t *testing.T, cfg sim.ExploreConfig) *sim.ExploreResult {
	t.Helper()
	res, err := sim.Explore(context.Background(), cfg)
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
func fails(res *sim.ExploreResult) bool {
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
		if !fails(explore(t, ch.Config(opts))) {
			return d
		}
	}
	return ""
}

// challenges.go loads the course's challenges: what each asks, from
// challenges.yaml (no language), and its words, from <lang>/challenges.yaml
// in every language. Like the lessons they are embedded, checked and
// loaded once; the explorer's answers (par, verdicts) are computed by the
// web layer on first use, never written here.

package lessons

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"locklab/sim"
	"locklab/sim/explore"
)

// ChallengeType is what a challenge asks of the learner.
type ChallengeType string

// The kinds of challenge.
const (
	// Break: make the goal kind happen on the timeline, with the moves
	// the bounds allow.
	Break ChallengeType = "break"
	// Fix: change the design until the explorer's complete search within
	// the bounds finds no harm and no failed lock.
	Fix ChallengeType = "fix"
	// Predict: say whether the goal kind can happen within the bounds,
	// then see the explorer's answer.
	Predict ChallengeType = "predict"
)

// ChallengeDepth and ChallengeStates bound every challenge's search: deep
// and wide enough that each one's search is complete (TestChallengesPar),
// so par and every verdict are answers, not guesses.
const (
	ChallengeDepth  = 16
	ChallengeStates = explore.MaxStates
)

// PastTTL, as a challenge's pause, is a pause that outlasts the lock
// key's TTL as the server holds it (explore.PausePastTTL): the threat of a
// design's fix, whose script may set any TTL.
const PastTTL = "past-ttl"

// Challenge is one challenge in one language.
type Challenge struct {
	ID     string
	Lesson *Lesson
	Type   ChallengeType
	Goal   sim.ViolationKind // Break and Predict
	Opt    string            // the design, in its canonical form
	Opts   sim.Opts
	// Design, for a fix whose design is Lua the learner writes (a design
	// page's lock, not a lesson's variants): the broken design it starts
	// from, as the design page's query. Its search runs on that design's
	// scenario (web/challenge reads it through the design page).
	Design string
	Bounds Bounds
	Num    int // 1-based, within its lesson
	// Title names it; Why is one line on why it matters, shown once it
	// is solved or answered.
	Title, Why string
}

// Bounds are the moves a challenge allows: how many clients take part and
// how many faults of each kind, and the length of a pause. They are the
// Lab's bounds, so a challenge's search is the Lab's search.
type Bounds struct {
	Clients, Pauses, Crashes, Nodes, Drops int
	PauseMs                                int64 // 0 when Pauses is 0
	// Jumps: forward jumps of a node's clock (a challenge's own fault:
	// the Lab leaves clock jumps to the learner)
	Jumps int
}

// Config is the exploration of the challenge's bounds on the design opts
// (the challenge's own, or a learner's fix).
func (c *Challenge) Config(opts sim.Opts) explore.Config {
	b := c.Bounds
	cfg := explore.Config{Scenario: c.Lesson.Scenario, Opts: opts, Clients: b.Clients, Pauses: b.Pauses,
		Crashes: b.Crashes, NodeFaults: b.Nodes, Drops: b.Drops, Jumps: b.Jumps, MaxDepth: ChallengeDepth, MaxStates: ChallengeStates}
	if b.Pauses > 0 {
		cfg.PauseMs = []int64{b.PauseMs}
	}
	return cfg
}

// challengeSpec is one entry of challenges.yaml.
type challengeSpec struct {
	ID      string `yaml:"id"`
	Lesson  string `yaml:"lesson"`
	Type    string `yaml:"type"`
	Goal    string `yaml:"goal"`
	Opt     string `yaml:"opt"`
	Clients int    `yaml:"clients"`
	Pauses  int    `yaml:"pauses"`
	Pause   string `yaml:"pause"`
	Crashes int    `yaml:"crashes"`
	Nodes   int    `yaml:"nodes"`
	Drops   int    `yaml:"drops"`
	Jumps   int    `yaml:"jumps"`
	// Design: a fix of the design page's scripts, each piece a preset's
	// name or a script (acquire:, release:, extend:, write:, ttl:, …).
	Design map[string]string `yaml:"design"`
}

// challengeWords is one entry of <lang>/challenges.yaml.
type challengeWords struct {
	Title string `yaml:"title"`
	Why   string `yaml:"why"`
}

// strictYAML decodes src into v, refusing unknown fields.
func strictYAML(src []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	return dec.Decode(v)
}

// loadChallenges reads the challenges of every loaded language, if the
// file system has any (a test's may not).
func (c *Catalog) loadChallenges(fsys fs.FS) error {
	c.challenges = map[string][]*Challenge{}
	src, err := fs.ReadFile(fsys, "challenges.yaml")
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	var specs []challengeSpec
	if err := strictYAML(src, &specs); err != nil {
		return fmt.Errorf("challenges.yaml: %w", err)
	}
	for _, lang := range c.langs {
		words := map[string]challengeWords{}
		src, err := fs.ReadFile(fsys, lang+"/challenges.yaml")
		if err != nil {
			return fmt.Errorf("challenges: %w", err)
		}
		if err := strictYAML(src, &words); err != nil {
			return fmt.Errorf("%s/challenges.yaml: %w", lang, err)
		}
		for i, s := range specs {
			w, ok := words[s.ID]
			if !ok || w.Title == "" || w.Why == "" {
				return fmt.Errorf("%s/challenges.yaml: %s needs a title and a why", lang, s.ID)
			}
			ch, err := c.challenge(lang, s, w)
			if err != nil {
				return fmt.Errorf("challenges.yaml: entry %d (%s): %w", i+1, s.ID, err)
			}
			c.challenges[lang] = append(c.challenges[lang], ch)
		}
		slices.SortStableFunc(c.challenges[lang], func(a, b *Challenge) int { return a.Lesson.Order - b.Lesson.Order })
		if len(words) != len(specs) {
			return fmt.Errorf("%s/challenges.yaml: %d entries for %d challenges", lang, len(words), len(specs))
		}
	}
	return nil
}

// challenge checks one entry and builds it in lang.
func (c *Catalog) challenge(lang string, s challengeSpec, w challengeWords) (*Challenge, error) {
	l, ok := c.Get(lang, s.Lesson)
	if !ok {
		return nil, fmt.Errorf("no lesson %q", s.Lesson)
	}
	if !slugRe.MatchString(s.ID) {
		return nil, fmt.Errorf("id %q: lower-case letters, digits and single hyphens", s.ID)
	}
	for _, o := range c.challenges[lang] {
		if o.ID == s.ID {
			return nil, fmt.Errorf("id %q twice", s.ID)
		}
	}
	ch := &Challenge{ID: s.ID, Lesson: l, Type: ChallengeType(s.Type), Goal: sim.ViolationKind(s.Goal), Title: w.Title, Why: w.Why,
		Bounds: Bounds{Clients: s.Clients, Pauses: s.Pauses, Crashes: s.Crashes, Nodes: s.Nodes, Drops: s.Drops, Jumps: s.Jumps}}
	switch ch.Type {
	case Break, Predict:
		if !slices.Contains(sim.KindsFor(l.Scenario), ch.Goal) {
			return nil, fmt.Errorf("goal %q is not a failure kind this lesson's timelines can show", s.Goal)
		}
	case Fix:
		if s.Goal != "" {
			return nil, errors.New("a fix has no goal: it is solved when nothing fails")
		}
		if len(s.Design) > 0 {
			if s.Opt != "" {
				return nil, errors.New("a design's fix has no opt: its design is its scripts")
			}
			q := url.Values{}
			for k, v := range s.Design {
				q.Set(k, v)
			}
			ch.Design = q.Encode()
		}
	default:
		return nil, fmt.Errorf("type %q: break, fix or predict", s.Type)
	}
	opts, err := l.Scenario.ParseOptions(s.Opt)
	if err != nil {
		return nil, err
	}
	if ch.Opt = l.Scenario.FormatOptions(opts); ch.Opt != s.Opt {
		return nil, fmt.Errorf("opt %q: write it as %q", s.Opt, ch.Opt)
	}
	ch.Opts = opts
	if s.Pause == PastTTL {
		ch.Bounds.PauseMs = explore.PausePastTTL
	} else if s.Pause != "" {
		ms, ok := sim.ParseDuration(s.Pause)
		if !ok {
			return nil, fmt.Errorf("pause %q", s.Pause)
		}
		ch.Bounds.PauseMs = ms
	}
	if (ch.Bounds.Pauses > 0) != (ch.Bounds.PauseMs != 0) {
		return nil, errors.New("pauses and pause go together")
	}
	// A design's fix is searched on its design's scenario, which only the
	// design page builds (TestDesignChallenges checks those bounds).
	if ch.Design == "" {
		cfg := ch.Config(opts)
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
	}
	for _, o := range c.challenges[lang] {
		if o.Lesson == l {
			ch.Num = max(ch.Num, o.Num)
		}
	}
	ch.Num++
	return ch, nil
}

// Challenges is every challenge in lang, in course order.
func (c *Catalog) Challenges(lang string) []*Challenge { return c.challenges[lang] }

// Challenge finds a challenge by language and id.
func (c *Catalog) Challenge(lang, id string) (*Challenge, bool) {
	for _, ch := range c.challenges[lang] {
		if ch.ID == id {
			return ch, true
		}
	}
	return nil, false
}

// ChallengesOf lists lesson l's challenges, easiest first.
func (c *Catalog) ChallengesOf(l *Lesson) []*Challenge {
	var out []*Challenge
	for _, ch := range c.challenges[l.Lang] {
		if ch.Lesson == l {
			out = append(out, ch)
		}
	}
	return out
}

// Next is the challenge after ch in the course (nil after the last).
func (c *Catalog) Next(ch *Challenge) *Challenge {
	list := c.challenges[ch.Lesson.Lang]
	if i := slices.Index(list, ch); i >= 0 && i+1 < len(list) {
		return list[i+1]
	}
	return nil
}

// BoundsOf are the smallest bounds a timeline's own moves fit in: the
// clients that act, each fault it takes counted by kind (sim's action
// table says which verbs are faults, and of what kind), and a pause as
// long as the longest time any pause lasted (the waits while a client was
// paused, added up). A pause with no wait lasts the scenario's TTL.
func BoundsOf(sc *sim.Scenario, actions []sim.Action) Bounds {
	b := Bounds{Clients: 1}
	paused := map[string]bool{}
	var waited int64
	for _, a := range actions {
		spec, ok := sim.Spec(a.Verb)
		if !ok {
			continue
		}
		if i := slices.Index(sc.Clients, a.Who); i >= 0 && spec.Doer == sim.ByClient {
			b.Clients = max(b.Clients, i+1)
		}
		switch {
		case a.Verb == sim.VerbWait && len(paused) > 0:
			waited += a.Ms
		case a.Verb == sim.VerbPause:
			paused[a.Who] = true
		case a.Verb == sim.VerbResume || a.Verb == sim.VerbCrash:
			delete(paused, a.Who)
			if len(paused) == 0 {
				b.PauseMs, waited = max(b.PauseMs, waited), 0
			}
		}
		if spec.Explore == sim.ExploreFault {
			switch spec.Cost {
			case sim.CostPause:
				b.Pauses++
			case sim.CostCrash:
				b.Crashes++
			case sim.CostDrop:
				b.Drops++
			case sim.CostNode:
				b.Nodes++
			case sim.CostJump:
				b.Jumps++
			}
		}
	}
	b.PauseMs = max(b.PauseMs, waited)
	if b.Pauses == 0 {
		b.PauseMs = 0
	} else if b.PauseMs == 0 {
		b.PauseMs = sc.TTL
	}
	return b
}

// String is the bounds as a made challenge's address writes them:
// c2-p1.10s-x1-n1-d1-j1 (clients; pauses and their length; crashes;
// node faults; lost replies; clock jumps), a kind of fault with none left
// out.
func (b Bounds) String() string {
	out := "c" + strconv.Itoa(b.Clients)
	if b.Pauses > 0 {
		out += "-p" + strconv.Itoa(b.Pauses) + "." + sim.FormatDuration(b.PauseMs)
	}
	for _, f := range []struct {
		tag string
		n   int
	}{{"x", b.Crashes}, {"n", b.Nodes}, {"d", b.Drops}, {"j", b.Jumps}} {
		if f.n > 0 {
			out += "-" + f.tag + strconv.Itoa(f.n)
		}
	}
	return out
}

// ParseBounds reads Bounds.String's form (and only its canonical form:
// one address per challenge).
func ParseBounds(s string) (Bounds, error) {
	var b Bounds
	bad := fmt.Errorf("bounds %q", s)
	if len(s) > 40 {
		return b, bad
	}
	for i, part := range strings.Split(s, "-") {
		if part == "" {
			return b, bad
		}
		tag, rest := part[:1], part[1:]
		if tag == "p" {
			n, d, ok := strings.Cut(rest, ".")
			ms, okMs := sim.ParseDuration(d)
			k, err := strconv.Atoi(n)
			if !ok || !okMs || err != nil {
				return b, bad
			}
			b.Pauses, b.PauseMs = k, ms
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil {
			return b, bad
		}
		switch {
		case tag == "c" && i == 0:
			b.Clients = n
		case tag == "x":
			b.Crashes = n
		case tag == "n":
			b.Nodes = n
		case tag == "d":
			b.Drops = n
		case tag == "j":
			b.Jumps = n
		default:
			return b, bad
		}
	}
	if b.String() != s {
		return b, bad
	}
	return b, nil
}

// Custom is a break challenge made from a timeline: lesson l's design
// opt, goal to reach within b. It is not in the catalog: its address is
// the whole of it, and its ID is that address's tail (slug/goal/bounds).
func Custom(l *Lesson, opt string, goal sim.ViolationKind, b Bounds) (*Challenge, error) {
	if !slices.Contains(sim.KindsFor(l.Scenario), goal) {
		return nil, fmt.Errorf("goal %q", goal)
	}
	opts, err := l.Scenario.ParseOptions(opt)
	if err != nil {
		return nil, err
	}
	ch := &Challenge{ID: l.Slug + "/" + string(goal) + "/" + b.String(), Lesson: l, Type: Break, Goal: goal,
		Opt: l.Scenario.FormatOptions(opts), Opts: opts, Bounds: b}
	if b.Clients < 1 || b.Clients > len(l.Scenario.Clients) {
		return nil, fmt.Errorf("clients %d", b.Clients)
	}
	// A design's fix is searched on its design's scenario, which only the
	// design page builds (TestDesignChallenges checks those bounds).
	if ch.Design == "" {
		cfg := ch.Config(opts)
		if err := cfg.Validate(); err != nil {
			return nil, err
		}
	}
	return ch, nil
}

// Made reports whether ch was made from a timeline (Custom), not one of
// the course's.
func (ch *Challenge) Made() bool { return strings.Contains(ch.ID, "/") }

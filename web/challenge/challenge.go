// Package challenge serves the challenges: break a design on the ordinary
// timeline, fix one, or predict whether one can break — each judged by
// the schedule explorer, not by hand. A challenge is fully described by
// its URL, like a timeline:
//
//	/{lang}/challenges                     every challenge, by lesson
//	/{lang}/lessons/{slug}/challenges      one lesson's
//	/{lang}/challenges/{id}?do=…           break: the timeline so far
//	/{lang}/challenges/{id}?opt=…          fix: the learner's design
//	/{lang}/challenges/{id}?answer=yes|no  predict: the learner's guess
//
// Par, each fix's verdict and each prediction's answer come from one
// complete search of the challenge's bounds (lessons.Challenge.Config),
// run on first use and kept (a bounded LRU): they depend on nothing but
// the challenge and the design. A challenge made from a timeline
// (made.go) names its lesson, or a design run's scripts read through the
// Designs interface; a live class plays one at its own address through
// PlayIn and Judge (web/class holds the room). A search cut short is no answer: the page says so and nothing is
// kept. The learner's progress is kept in the browser (app.js), never
// here.
//
// A break challenge is a lesson page (web/lesson's view, its links led
// back here) with the challenge's frame in place of the step's dialog.
package challenge

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"
	lru "github.com/hashicorp/golang-lru/v2"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/explore"
	"locklab/web/i18n"
	"locklab/web/lesson"
	"locklab/web/limits"
	"locklab/web/links"
	"locklab/web/narrate"
	"locklab/web/site"
)

// Handler serves the challenges.
type Handler struct {
	*site.Site
	lessons *lesson.Handler
	designs Designs
	mu      sync.Mutex
	// found: id|opt → the search of that design. Bounded: a made
	// challenge's address may name any bounds and any design.
	found *lru.Cache[string, *search]
	// starts: a design fix's id → its starting design's canonical query
	starts sync.Map
}

// searchesKept is how many searches the handler keeps: every course
// challenge's, with room for the made ones a class or a team shares.
const searchesKept = 1024

// New is the challenges' handler; lessons draws a break challenge's
// timeline, designs reads the design of one made from a design run.
func New(s *site.Site, lessons *lesson.Handler, designs Designs) *Handler {
	found, _ := lru.New[string, *search](searchesKept)
	return &Handler{Site: s, lessons: lessons, designs: designs, found: found}
}

// search is one complete search of a challenge's bounds on one design.
type search struct {
	done chan struct{} // closed once res is set (or the search failed)
	res  *explore.Result
}

// Search is the explorer's complete search of ch's bounds on the design
// opts: run once per design and kept (a search cut short is not kept,
// and comes back as a 503 saying so). It takes a Lab slot, as the Lab's
// searches do.
func (s *Handler) Search(r *http.Request, u *i18n.UI, ch *lessons.Challenge, opts sim.Opts) (*explore.Result, *site.Error) {
	return s.searchKept(r, u, ch.ID+"|"+ch.Lesson.Scenario.FormatOptions(opts), ch.Config(opts))
}

// searchKept is Search of cfg, kept under key.
func (s *Handler) searchKept(r *http.Request, u *i18n.UI, key string, cfg explore.Config) (*explore.Result, *site.Error) {
	s.mu.Lock()
	if f, ok := s.found.Get(key); ok {
		s.mu.Unlock()
		select {
		case <-f.done:
			if f.res != nil {
				return f.res, nil
			}
		case <-r.Context().Done():
			return nil, site.Busy(u)
		}
		s.mu.Lock()
	}
	f := &search{done: make(chan struct{})}
	s.found.Add(key, f)
	s.mu.Unlock()
	defer close(f.done)
	res, e := s.explore(r, u, cfg)
	if e != nil {
		s.mu.Lock()
		s.found.Remove(key)
		s.mu.Unlock()
		return nil, e
	}
	f.res = res
	return res, nil
}

// explore runs one search within the request's bounds (as the Lab does):
// a complete one, or a 503 that says it was cut short.
func (s *Handler) explore(r *http.Request, u *i18n.UI, cfg explore.Config) (*explore.Result, *site.Error) {
	if e := s.Limit(r, u, limits.Explore); e != nil {
		return nil, e
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.LabDeadline)
	defer cancel()
	release, e := s.LabSlots(ctx, u)
	if e != nil {
		return nil, e
	}
	defer release()
	res, err := explore.Run(ctx, cfg)
	if err != nil {
		return nil, site.Internal(u, err)
	}
	if !res.Complete() {
		// cut short (by the clock, or by its states): no verdict, no par
		e := site.Busy(u)
		e.Text = u.Chal.FixCut
		return nil, e
	}
	return res, nil
}

// Info is what every kind of challenge page shows at its top.
type Info struct {
	UI   *i18n.UI
	C    *i18n.ChallengeUI
	Ch   *lessons.Challenge
	Num  string // "Challenge 5.2"
	Kind string // Break it / Fix it / Can it break?
	Goal string
	// GoalMeans (break, predict) is what the goal's kind means, in the
	// one vocabulary's words: "Exclusion lost", "Two holders at once" and
	// "Both holders wrote" differ, and a player meets the name first here
	GoalMeans string
	Design    []string // the design's choices, in words
	Bounds    []string
	Rules     string // break: what a move is
	URL       string // the challenge's own address, at its start
	// Play is where the page's moves and answers go: URL, or a live
	// class's address for it (Room.URL)
	Play      string
	LessonURL string
	Next      *lessons.Challenge
	NextURL   string
	AllURL    string
	// Report is what a live class adds to a solved or answered page (the
	// form that tells the class); nil elsewhere.
	Report templ.Component
	// Room: the live class the page is played in (nil: none)
	Room *lesson.ChallengeRoom
}

// infoIn is info as a page played in room shows it (nil: no class): its
// moves go to the room's address, and the next challenge is the
// teacher's to pose.
func (s *Handler) infoIn(u *i18n.UI, ch *lessons.Challenge, room *lesson.ChallengeRoom) Info {
	in := s.info(u, ch)
	if room != nil {
		in.Play, in.Next, in.NextURL, in.Room = room.URL, nil, "", room
	}
	return in
}

func (s *Handler) info(u *i18n.UI, ch *lessons.Challenge) Info {
	c := u.Chal
	in := Info{UI: u, C: c, Ch: ch, Num: i18n.Fill(c.Num, strconv.Itoa(ch.Lesson.Order), strconv.Itoa(ch.Num)),
		URL: links.Challenge(u.Lang, ch.ID), LessonURL: links.Start(ch.Lesson), AllURL: links.Challenges(u.Lang)}
	if ch.Made() {
		in.Num, in.URL = c.MadeNum, links.MadeChallenge(u.Lang, ch.ID)
	}
	if ch.Lesson.Slug == links.DesignSlug {
		in.LessonURL = designPage(u, ch)
	}
	in.Play = in.URL
	failure := u.Failures[ch.Goal].Name
	in.Kind = lesson.ChallengeKind(u, ch.Type)
	switch ch.Type {
	case lessons.Break:
		in.Goal, in.Rules = i18n.Fill(c.GoalBreak, failure), c.Rules
		if ch.Bounds.Pauses > 0 {
			in.Rules = i18n.Sentences(c.Rules, c.RulesPause)
		}
	case lessons.Fix:
		in.Goal = c.GoalFix
	case lessons.Predict:
		in.Goal = i18n.Fill(c.GoalPredict, failure)
	}
	if ch.Type != lessons.Fix {
		in.GoalMeans = u.Failures[ch.Goal].Meaning
	}
	in.Design = designWords(u, ch.Lesson.Scenario, ch.Opts)
	if ch.Design != "" {
		q, _ := url.ParseQuery(ch.Design)
		in.Design = lesson.DesignWords(u, q)
	}
	if ch.Lesson.Slug == links.DesignSlug {
		in.Design = scriptWords(u, ch)
	}
	in.Bounds = boundsWords(u, ch)
	if ch.Made() {
		return in // no place in the course, so no next one
	}
	if in.Next = s.Course.Next(ch); in.Next != nil {
		in.NextURL = links.Challenge(u.Lang, in.Next.ID)
	}
	return in
}

// designQuery is the design of a challenge made from a design run, as
// the design page's query (its id ends in the design's token).
func designQuery(ch *lessons.Challenge) string {
	query, _ := links.DesignOfToken(ch.ID[strings.LastIndexByte(ch.ID, '/')+1:])
	return query
}

// designPage is the design page of a challenge made from a design run.
func designPage(u *i18n.UI, ch *lessons.Challenge) string {
	return links.WithQuery("/"+u.Lang+"/lab/design", designQuery(ch))
}

// scriptWords are a design run's design in u's words (lesson.DesignWords).
func scriptWords(u *i18n.UI, ch *lessons.Challenge) []string {
	q, _ := url.ParseQuery(designQuery(ch))
	return lesson.DesignWords(u, q)
}

// designWords are the design's choices in u's words: each option the
// lesson offers, with the value chosen.
func designWords(u *i18n.UI, sc *sim.Scenario, opts sim.Opts) []string {
	return lesson.OptionWords(u, sc, opts, nil)
}

// boundsWords are the bounds in u's words: who takes part, then each
// kind of fault allowed.
func boundsWords(u *i18n.UI, ch *lessons.Challenge) []string {
	c, b := u.Chal, ch.Bounds
	var names []string
	for _, id := range ch.Lesson.Scenario.Clients[:b.Clients] {
		names = append(names, strings.ToUpper(id))
	}
	out := []string{i18n.Fill(c.Clients, strings.Join(names, u.Language().NameSep))}
	switch {
	case b.Pauses > 0 && b.PauseMs == explore.PausePastTTL:
		out = append(out, i18n.Fill(c.PausesPastTTL, strconv.Itoa(b.Pauses)))
	case b.Pauses > 0 && b.Clients == 1: // no other client's work to add to a pause
		out = append(out, i18n.Fill(c.PausesAlone, strconv.Itoa(b.Pauses), sim.FormatDuration(b.PauseMs)))
	case b.Pauses > 0:
		out = append(out, i18n.Fill(c.Pauses, strconv.Itoa(b.Pauses), sim.FormatDuration(b.PauseMs)))
	}
	sc := ch.Lesson.Scenario
	var faults []string // the node faults the explorer takes (restart, down…), by name
	for _, v := range sc.NodeFaults() {
		faults = append(faults, narrate.VerbWord(u, sc, v))
	}
	for _, f := range []struct {
		n    int
		text string
	}{{b.Crashes, c.Crashes}, {b.Nodes, c.Nodes}, {b.Drops, c.Drops}} {
		if f.n > 0 {
			out = append(out, i18n.Fill(f.text, strconv.Itoa(f.n), strings.Join(faults, u.Language().NameSep)))
		}
	}
	if b.Nodes > 0 && slices.Contains(sc.NodeVerbs, sim.NodeUp) {
		out = append(out, c.NodeBack)
	}
	if b.Jumps > 0 {
		jump, _ := sim.Spec(sim.NodeJump)
		out = append(out, i18n.Fill(c.Jumps, strconv.Itoa(b.Jumps), sim.FormatDuration(jump.Default)))
	}
	// a lesson whose nodes can also jump their clock or slow down: say
	// those not allowed are not among the faults (the lesson itself uses
	// them)
	switch {
	case b.Jumps > 0 && slices.Contains(sc.NodeVerbs, sim.NodeSlow):
		out = append(out, c.NoSlow)
	case b.Jumps == 0 && b.Nodes > 0 && (slices.Contains(sc.NodeVerbs, sim.NodeJump) || slices.Contains(sc.NodeVerbs, sim.NodeSlow)):
		out = append(out, c.NoClock)
	}
	if len(out) == 1 {
		out = append(out, c.NoFaults)
	} else {
		out = append(out, c.NoOther) // what is not listed is not allowed
	}
	return out
}

// challengeOf is the challenge the URL names, in the page's language.
func (s *Handler) challengeOf(r *http.Request) (*i18n.UI, *lessons.Challenge, *site.Error) {
	u := i18n.For(chi.URLParam(r, "lang"))
	ch, ok := s.Course.Challenge(u.Lang, chi.URLParam(r, "id"))
	if !ok {
		e := site.NotFound(u)
		e.Recover, e.RecoverText = links.Challenges(u.Lang), u.Chal.All
		return u, nil, e
	}
	return u, ch, nil
}

// Page serves /{lang}/challenges/{id}: the kind of page the challenge is.
func (s *Handler) Page(w http.ResponseWriter, r *http.Request) {
	u, ch, e := s.challengeOf(r)
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	s.PlayIn(w, r, u, ch, nil)
}

// PlayIn serves challenge ch at the state in r's address, played in room
// (nil: on its own).
func (s *Handler) PlayIn(w http.ResponseWriter, r *http.Request, u *i18n.UI, ch *lessons.Challenge, room *lesson.ChallengeRoom) {
	switch ch.Type {
	case lessons.Break:
		s.breakPage(w, r, u, ch, room)
	case lessons.Fix:
		s.fixPage(w, r, u, ch, room)
	default:
		s.predictPage(w, r, u, ch, room)
	}
}

// Judge plays ch at the state q holds (do=, opt= or answer=, as its page's
// address would) and returns the verdict: what a class records, judged
// here again rather than taken from the learner's word.
func (s *Handler) Judge(r *http.Request, u *i18n.UI, ch *lessons.Challenge, q url.Values) (lesson.Verdict, *site.Error) {
	switch ch.Type {
	case lessons.Break:
		_, f, _, e := s.breakView(r, u, ch, q.Get("do"), nil)
		if e != nil {
			return lesson.Verdict{}, e
		}
		return lesson.Verdict{Solved: f.Solved > 0, Moves: f.Solved, Par: f.Par}, nil
	case lessons.Fix:
		v, _, e := s.fixView(r, u, ch, q, nil)
		if e != nil {
			return lesson.Verdict{}, e
		}
		return lesson.Verdict{Solved: v.Fixed && v.Checked}, nil
	default:
		if q.Get("answer") == "" {
			return lesson.Verdict{}, badRequest(u, i18n.Fill(u.Chal.BadParam, "answer"), links.Challenge(u.Lang, ch.ID))
		}
		v, e := s.predictView(r, u, ch, q, nil)
		if e != nil {
			return lesson.Verdict{}, e
		}
		return lesson.Verdict{Solved: v.Right(), Answered: true}, nil
	}
}

// only insists the query holds no other parameter than these, with one
// value each; it answers with a 400 if not and reports whether it did.
func (s *Handler) only(w http.ResponseWriter, r *http.Request, u *i18n.UI, ch *lessons.Challenge, keys ...string) bool {
	q := r.URL.Query()
	for k, v := range q {
		var e *site.Error
		switch {
		case !contains(keys, k):
			e = badRequest(u, i18n.Fill(u.Chal.BadParam, site.Clip(k)), links.Challenge(u.Lang, ch.ID))
		case len(v) != 1:
			// the parameter has its place, once: the way back joins its
			// values, as one do= lists its moves, and keeps the moves made
			e = badRequest(u, i18n.Fill(u.Chal.Repeated, site.Clip(k)), links.Challenge(u.Lang, ch.ID))
			if k == "do" || k == "opt" {
				e.Recover += links.Query(strings.Join(q["do"], ","), strings.Join(q["opt"], ","))
				e.RecoverText = u.Chal.BackLast
			}
		default:
			continue
		}
		s.Fail(w, r, u, e)
		return true
	}
	return false
}

func contains(keys []string, k string) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

func badRequest(u *i18n.UI, text, back string) *site.Error {
	return &site.Error{Status: http.StatusBadRequest, Title: u.ErrorTitle, Text: text, Code: "bad-challenge",
		Recover: back, RecoverText: u.Chal.Start}
}

// failures are the kinds a search found that harm the data or break the
// lock: what a fix must leave none of.
func failures(res *explore.Result) []sim.ViolationKind {
	return foundOf(res, func(c sim.Class) bool { return c != sim.ClassAllowed })
}

// allowed are the kinds a search found that any lease allows: a fix
// leaves them (the page lists them, so "no harm" is not read as "none").
func allowed(res *explore.Result) []sim.ViolationKind {
	return foundOf(res, func(c sim.Class) bool { return c == sim.ClassAllowed })
}

func foundOf(res *explore.Result, keep func(sim.Class) bool) []sim.ViolationKind {
	var out []sim.ViolationKind
	for _, k := range sim.Kinds {
		if res.Found[k] != nil && keep(sim.ClassOf(k)) {
			out = append(out, k)
		}
	}
	return out
}

// timelineURL opens a schedule of ch's design as a lesson timeline.
func timelineURL(ch *lessons.Challenge, opts sim.Opts, actions []sim.Action) string {
	return links.Lesson(ch.Lesson) + links.Query(sim.FormatActions(actions), ch.Lesson.Scenario.FormatOptions(opts))
}

// moveText explains a refused move in u's words (the page's title says
// it was refused): the rule that leaves it out, and the moves there were.
func moveText(u *i18n.UI, sc *sim.Scenario, me *explore.MoveError) string {
	who := strings.ToUpper(me.Action.Who)
	text := i18n.Fill(u.Chal.Move[me.Code], who, strconv.Itoa(me.Most))
	if me.Code == explore.CodeMoveSpent && me.Most == 0 {
		text = u.Chal.MoveNone
	}
	// which move (a reader was told only "That is not one of this
	// challenge's moves" of n1.jump.5s)
	text = i18n.Sentences(i18n.Fill(u.Chal.RefusedMove, narrate.Action(u, sc, me.Action)), text)
	var allowed []string
	for _, a := range me.Allowed {
		allowed = append(allowed, narrate.Action(u, sc, a))
	}
	if len(allowed) > 0 {
		text = i18n.Sentences(text, i18n.Fill(u.Chal.AllowedNow, strings.Join(allowed, u.Language().ListSep)))
	}
	return text
}

// canonicalQuery is q with its keys in order and the empty ones left out.
func canonicalQuery(pairs ...string) string {
	var parts []string
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			parts = append(parts, pairs[i]+"="+strings.ReplaceAll(url.QueryEscape(pairs[i+1]), "%2C", ","))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "?" + strings.Join(parts, "&")
}

func itoa(n int) string { return strconv.Itoa(n) }

var errNoPar = errors.New("challenge: the search found no schedule that reaches the goal")

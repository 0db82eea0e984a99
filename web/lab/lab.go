// Package lab serves the Lab: a form to choose a lock design and a fault budget,
// the explorer's findings for it, links that open each counterexample as a
// lesson timeline, and the design as Go code. Like a timeline, a Lab page is
// fully described by its URL:
//
//	/{lang}/lab?lesson=<slug>&opt=<options>&clients=N&pauses=N&pause=<durations>&crashes=N&nodes=N&drops=N&depth=N
//
// Parameters at the lesson's default are left out of the canonical URL.
package lab

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/explore"
	"locklab/web/findings"
	"locklab/web/gocode"
	"locklab/web/i18n"
	"locklab/web/lesson"
	"locklab/web/limits"
	"locklab/web/links"
	"locklab/web/narrate"
	"locklab/web/site"
)

// StateCap bounds the distinct states of one exploration, whatever the
// URL asks: the budget a result is honest about.
const StateCap = explore.MaxStates

// labDefaultLesson is the Lab's lesson when the URL names none: the
// flagship design.
const labDefaultLesson = "fencing"

// Limits of the form (and of any URL).
const (
	labMaxFaults = 2
	maxLengths   = 3
	labMinDepth  = 4
)

// labDepths are the depth bounds the form offers; any value from
// labMinDepth to explore.MaxDepth is accepted in a URL.
var labDepths = []int{8, 10, 12, explore.DefaultDepth, 16, 20}

// labLengths are the pause lengths the form offers for a scenario.
func labLengths(sc *sim.Scenario) []int64 {
	ls := []int64{1000, 5000, sc.TTL, 15_000, 30_000}
	slices.Sort(ls)
	return slices.Compact(ls)
}

// labError is a 400 in the page's language, with a way back to the
// lesson's Lab.
func labError(u *i18n.UI, text, back string) *site.Error {
	return &site.Error{Status: http.StatusBadRequest, Title: u.Lab.BadTitle, Text: text, Code: "lab",
		Recover: back, RecoverText: u.Lab.Title}
}

// parseLab reads a Lab URL. The form's fields (opt-<name>, repeated
// pause=) are accepted and folded; the canonical form is returned beside
// the config so the handler can redirect to it.
func (s *Handler) parseLab(u *i18n.UI, q url.Values) (links.LabConfig, *site.Error) {
	lu := u.Lab
	home := "/" + u.Lang + "/lab"
	slug := q.Get("lesson")
	if slug == "" {
		slug = labDefaultLesson
	}
	if len(q["lesson"]) > 1 {
		return links.LabConfig{}, labError(u, i18n.Fill(lu.BadParam, strings.Join(q["lesson"], ","), "lesson"), home)
	}
	l, ok := s.Course.Get(u.Lang, slug)
	if !ok {
		return links.LabConfig{}, labError(u, i18n.Fill(lu.BadLesson, slug), home)
	}
	c := links.LabDefaults(l)
	// A bad field is reported, and the way back keeps every other one
	// the learner set (the bad one at its default): bad is the first
	// problem, and parsing goes on.
	bad := ""
	fail := func(text string) {
		if bad == "" {
			bad = text
		}
	}
	labOptions(u, q, &c, fail)
	labCounts(lu, q, &c, fail)
	labPauses(lu, q, &c, fail)
	if c.Pauses > 0 && len(c.PauseMs) == 0 {
		fail(i18n.Fill(lu.BadLengths, strconv.Itoa(maxLengths)))
		c.PauseMs = links.LabDefaults(l).PauseMs
	}
	if bad != "" {
		return links.LabConfig{}, labError(u, bad, home+c.Query())
	}
	return c, nil
}

// labOptions reads the design's options (opt=, or the form's opt-<name>
// fields) into c.Opts. It is apart from the numbers because an option is
// the lesson's own vocabulary: a refused one is explained in the lesson's
// words (lesson.ErrorText), not as a bad parameter.
func labOptions(u *i18n.UI, q url.Values, c *links.LabConfig, fail func(string)) {
	sc := c.Lesson.Scenario
	if err := lesson.FoldOptionFields(q, sc); err != nil || len(q["opt"]) > 1 {
		fail(i18n.Fill(u.Lab.BadParam, q.Get("opt"), "opt"))
	} else if opts, err := sc.ParseOptions(q.Get("opt")); err != nil {
		var ae *sim.ActionError
		if errors.As(err, &ae) {
			fail(lesson.ErrorText(u, ae, sc))
		} else {
			fail(i18n.Fill(u.Lab.BadParam, q.Get("opt"), "opt"))
		}
	} else {
		c.Opts = opts
	}
}

// labCounts reads the Lab's numbers: clients, each kind of fault and the
// depth. They share one table of bounds so every number is refused the
// same way, and a fault the lesson does not offer accepts only 0 (a URL
// cannot ask the explorer for a node fault in a single-node lesson).
func labCounts(lu *i18n.LabUI, q url.Values, c *links.LabConfig, fail func(string)) {
	sc := c.Lesson.Scenario
	ints := []struct {
		name     string
		dst      *int
		min, max int
		offered  bool
	}{
		{"clients", &c.Clients, 2, len(sc.Clients), true},
		{"pauses", &c.Pauses, 0, labMaxFaults, sc.OffersFault(sim.CostPause)},
		{"crashes", &c.Crashes, 0, labMaxFaults, sc.OffersFault(sim.CostCrash)},
		{"nodes", &c.Nodes, 0, labMaxFaults, sc.OffersFault(sim.CostNode)},
		{"drops", &c.Drops, 0, labMaxFaults, sc.OffersFault(sim.CostDrop)},
		{"depth", &c.Depth, labMinDepth, explore.MaxDepth, true},
	}
	for _, f := range ints {
		vals, present := q[f.name]
		if !present {
			continue
		}
		if len(vals) != 1 {
			fail(i18n.Fill(lu.BadParam, strings.Join(vals, ","), f.name))
			continue
		}
		n, err := strconv.Atoi(vals[0])
		if err != nil || len(vals[0]) > 3 {
			fail(i18n.Fill(lu.BadParam, vals[0], f.name))
			continue
		}
		hi := f.max
		if !f.offered {
			hi = 0
		}
		if n < f.min || n > hi {
			if hi <= f.min { // one value only: "between 2 and 2" says it badly
				fail(i18n.Fill(lu.BadOnly, f.name, strconv.Itoa(f.min)))
			} else {
				fail(i18n.Fill(lu.BadRange, f.name, strconv.Itoa(f.min), strconv.Itoa(hi)))
			}
			continue
		}
		*f.dst = n
	}
}

// labPauses reads the pause lengths: pause= repeats in the form (one
// checkbox each) and holds a list in the canonical URL, so both are
// gathered and sorted, and at most maxLengths kept (the shortest): every
// length is one more branch wherever the explorer pauses a client.
func labPauses(lu *i18n.LabUI, q url.Values, c *links.LabConfig, fail func(string)) {
	vals, present := q["pause"]
	if !present {
		return
	}
	var ms []int64
	for _, v := range vals {
		for _, p := range strings.Split(v, ",") {
			d, ok := sim.ParseDuration(p)
			if !ok || d <= 0 || d > sim.MaxWait {
				fail(i18n.Fill(lu.BadParam, p, "pause"))
				continue
			}
			ms = append(ms, d)
		}
	}
	slices.Sort(ms)
	ms = slices.Compact(ms)
	if len(ms) > maxLengths {
		fail(i18n.Fill(lu.BadLengths, strconv.Itoa(maxLengths)))
		ms = ms[:maxLengths] // the way back keeps the shortest ones
	}
	if len(ms) > 0 {
		c.PauseMs = ms
	}
}

// explore runs the explorer for c within the request's bounds: one Lab
// slot (half the replay slots at most, so lessons are never starved) and
// one replay slot, both waited for only until the deadline.
func (s *Handler) explore(r *http.Request, u *i18n.UI, c links.LabConfig) (*explore.Result, *site.Error) {
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
	res, err := explore.Run(ctx, explore.Config{
		Scenario: c.Lesson.Scenario, Opts: c.Opts, Clients: c.Clients, Pauses: c.Pauses, PauseMs: c.PauseMs,
		Crashes: c.Crashes, NodeFaults: c.Nodes, Drops: c.Drops, MaxDepth: c.Depth, MaxStates: StateCap,
	})
	if err == nil && res.Stopped == explore.StopTime {
		return nil, clockStop(u, s.LabDeadline, res)
	}
	if err != nil {
		var ae *sim.ActionError
		if errors.As(err, &ae) {
			return nil, labError(u, i18n.Fill(u.Lab.BadParam, ae.Action, "lab"), "/"+u.Lang+"/lab?lesson="+c.Lesson.Slug)
		}
		return nil, site.Internal(u, err)
	}
	return res, nil
}

// clockStop is the answer to a search the clock cut short: what it saw
// depends on the load, so it is no verdict (503, try again). It says what
// happened and how far the search got: on an idle server every offered
// bound finishes (docs/lab.md has the times), so "busy" alone would blame
// the load for bounds that are merely large.
func clockStop(u *i18n.UI, deadline time.Duration, res *explore.Result) *site.Error {
	e := site.Busy(u)
	e.Text = i18n.Fill(u.Lab.Busy, strconv.Itoa(int(deadline/time.Second)), u.Count(res.States), strconv.Itoa(res.Depth))
	return e
}

// Page serves /{lang}/lab.
func (s *Handler) Page(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	if len(r.URL.RawQuery) > site.MaxQuery {
		s.Fail(w, r, u, labError(u, u.ErrorText[sim.CodeTooLong], "/"+u.Lang+"/lab"))
		return
	}
	q := r.URL.Query()
	c, e := s.parseLab(u, q)
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	if want := c.Query(); r.URL.RawQuery != "" && !site.SameQuery("?"+r.URL.RawQuery, want) {
		http.Redirect(w, r, "/"+u.Lang+"/lab"+want, http.StatusSeeOther)
		return
	}
	// An exploration's result is the same for the same URL and build
	// (its budget is counted in states), so it is cached like a timeline
	// (the explorer always runs on the embedded miniredis, so even with a
	// live backend); one the safety stop cut short is no result at all.
	s.ServeCached(w, r, u, true, func() ([]byte, string, bool, *site.Error) {
		res, e := s.explore(r, u, c)
		if e != nil {
			return nil, "", false, e
		}
		body, typ, e := s.RenderBytes(r, u, LabPage(s.labView(r, u, c, res)))
		return body, typ, true, e
	})
}

// LabView is what the Lab template shows.
type LabView struct {
	site.Page
	L         *i18n.LabUI
	Action    string // the form's target: /{lang}/lab
	Lesson    *lessons.Lesson
	Lessons   []site.Choice // the lesson picker: slug, title
	Options   []lesson.OptionGroup
	Clients   []site.Choice
	Counts    []LabCount    // pauses, crashes, node faults, lost replies
	Lengths   []site.Choice // pause lengths (checkboxes)
	Depths    []site.Choice
	Fixed     string
	Limit     string // what the lesson's model cannot show (i18n LabUI.Limits)
	Result    *LabResult
	Code      string
	CodeNote  string // what the code is, and how it differs on the wire
	Canonical string
	DesignURL string // "bring your own lock" from this design
}

// LabCount is one "how many" question of the fault budget.
type LabCount struct {
	Name, Label string
	Choices     []site.Choice
}

// LabResult is the explorer's findings, in words and links.
type LabResult struct {
	Explored, Shortest, None string
	ShortestURL              string
	ShortestSteps            []string
	// Incomplete, when set, comes first: the search stopped at its state
	// budget; how far it got and how to get a complete answer. No ✓ and
	// no "holds within these bounds" then.
	Incomplete string
	// Coverage says what a complete search covered (every schedule up to
	// the depth bound, and whether some went on past it).
	Coverage string
	Budget   string
	Complete bool
	// Verdict sums up Rows, in the words the design grade uses too.
	Verdict findings.Verdict
	Rows    []LabRow
}

// LabRow is one kind of failure found: how many schedules, and the
// shortest as a link.
type LabRow struct {
	findings.Row
	Count, Steps, URL string
}

// labView builds the page for config c and its result.
func (s *Handler) labView(r *http.Request, u *i18n.UI, c links.LabConfig, res *explore.Result) *LabView {
	lu, l, sc := u.Lab, c.Lesson, c.Lesson.Scenario
	v := &LabView{Page: s.Frame(u, lu.Title+" — "+u.SiteName, r), L: lu, Action: "/" + u.Lang + "/lab", Lesson: l,
		Canonical: "/" + u.Lang + "/lab" + c.Query()}
	for _, x := range s.Course.List(u.Lang) {
		v.Lessons = append(v.Lessons, site.Choice{Value: x.Slug, Label: itoa(int64(x.Order)) + ". " + x.Title, Checked: x == l})
	}
	v.Options = lesson.OptionGroups(u, sc, c.Opts)
	for n := 2; n <= len(sc.Clients); n++ {
		v.Clients = append(v.Clients, site.Choice{Value: strconv.Itoa(n), Label: i18n.Fill(lu.ClientsN, strconv.Itoa(n)), Checked: c.Clients == n})
	}
	count := func(name, label string, cur int) {
		lc := LabCount{Name: name, Label: label}
		for n := 0; n <= labMaxFaults; n++ {
			lc.Choices = append(lc.Choices, site.Choice{Value: strconv.Itoa(n), Label: strconv.Itoa(n), Checked: cur == n})
		}
		v.Counts = append(v.Counts, lc)
	}
	for _, f := range []struct {
		cost        sim.Cost
		name, label string
		cur         int
	}{
		{sim.CostPause, "pauses", lu.Pauses, c.Pauses},
		{sim.CostCrash, "crashes", lu.Crashes, c.Crashes},
		{sim.CostNode, "nodes", i18n.Fill(lu.NodeFaults, nodeFaults(u, sc)), c.Nodes},
		{sim.CostDrop, "drops", lu.Drops, c.Drops},
	} {
		if sc.OffersFault(f.cost) {
			count(f.name, f.label, f.cur)
		}
	}
	lengths := labLengths(sc)
	for _, ms := range c.PauseMs {
		if !slices.Contains(lengths, ms) {
			lengths = append(lengths, ms) // a URL's own length stays offered
		}
	}
	slices.Sort(lengths)
	for _, ms := range lengths {
		v.Lengths = append(v.Lengths, site.Choice{Value: sim.FormatDuration(ms), Label: sim.FormatDuration(ms), Checked: slices.Contains(c.PauseMs, ms)})
	}
	depths := slices.Clone(labDepths)
	if !slices.Contains(depths, c.Depth) {
		depths = append(depths, c.Depth)
		slices.Sort(depths)
	}
	for _, d := range depths {
		v.Depths = append(v.Depths, site.Choice{Value: strconv.Itoa(d), Label: strconv.Itoa(d), Checked: c.Depth == d})
	}
	v.Fixed = fixedLine(u, sc, c.Opts)
	v.Limit = labLimit(lu, sc, c.Opts)
	if d, ok := gocode.FromLab(sc, c.Opts); ok {
		v.Code = gocode.Lab(sc, d, u.Lang)
		// what differs on the wire: a Redis TTL's EX for PX and the
		// random value's length; a lock without TTL has only the value's,
		// a mutex neither
		switch {
		case d.Local:
			v.CodeNote = lu.CodeNoteSame
		case !d.TTL:
			v.CodeNote = lu.CodeNoteValue
		default:
			v.CodeNote = lu.CodeNote
		}
	}
	v.Result = labResult(u, lu, l, c, res)
	v.DesignURL = links.Design(u.Lang, links.DesignFromLesson(sc, c.Opts))
	v.Card = labCard(s.Site, r, u, l, c, res, v.Result)
	v.Title = v.Card.Title + " — " + u.SiteName // a tab and a bookmark name the result too
	return v
}

// labCard is what a pasted Lab link unfurls into: the lesson explored,
// the verdict, and the finding it leads with (findings.CardKind) by kind
// and length, with its timeline as the picture (none where no
// counterexample was found). A Lab page is no timeline: it has no
// oEmbed answer.
func labCard(s *site.Site, r *http.Request, u *i18n.UI, l *lessons.Lesson, c links.LabConfig, res *explore.Result, out *LabResult) *site.Card {
	title := u.Lab.Title + " — " + l.Title
	steps := map[sim.ViolationKind]int{}
	for k, f := range res.Found {
		steps[k] = len(f.Shortest)
	}
	lead := out.Verdict.Card()
	if out.Incomplete != "" {
		lead = out.Incomplete
	}
	name, desc, alt, k := findings.CardText(u, out.Verdict, lead, title, steps)
	png := ""
	if k != "" {
		png = links.Lesson(l) + "/card.png" + links.Query(sim.FormatActions(res.Found[k].Shortest), l.Scenario.FormatOptions(c.Opts))
	}
	card := s.CardFor(r, name, desc, png, alt)
	card.OEmbed = ""
	return card
}

// nodeFaults names what the explorer may do to this lesson's nodes (its
// node verbs but the learner's own settings: a clock jump, a slowdown).
func nodeFaults(u *i18n.UI, sc *sim.Scenario) string {
	var vs []string
	for _, v := range sc.NodeVerbs {
		if v != sim.NodeJump && v != sim.NodeSlow {
			vs = append(vs, narrate.VerbWord(u, sc, v))
		}
	}
	return strings.Join(vs, u.Language().NameSep)
}

// fixedLine says what the lesson fixes of the design explored, as the
// clients run it: the lock's time limit (a TTL, none, a mutex's, a
// service's session or lease), the work before a write, and whether a
// client retries or tries once.
func fixedLine(u *i18n.UI, sc *sim.Scenario, o sim.Opts) string {
	fx, ttl := u.Lab.Fixed, sim.FormatDuration(sc.TTL)
	var parts []string
	switch {
	case sc.Coord && o[sim.OptService] == sim.ServiceEtcd:
		parts = append(parts, i18n.Fill(fx["lease"], sim.FormatDuration(sim.SessionTimeout)))
	case sc.Coord:
		parts = append(parts, i18n.Fill(fx["session"], sim.FormatDuration(sim.SessionTimeout)))
	case o[sim.OptLock] == sim.LockLocal:
		parts = append(parts, fx["mutex"])
	case o[sim.OptTTL] == sim.TTLOff:
		parts = append(parts, fx["no-ttl"])
	default:
		parts = append(parts, i18n.Fill(fx["ttl"], ttl))
	}
	parts = append(parts, i18n.Fill(fx["work"], sim.FormatDuration(sc.WorkMs(o))))
	if sc.Retry > 0 {
		parts = append(parts, i18n.Fill(fx["retry"], sim.FormatDuration(sc.Retry)))
	} else {
		parts = append(parts, fx["once"])
	}
	return i18n.Fill(u.Lab.FixedNote, strings.Join(parts, u.Language().ListSep))
}

// labResult puts the findings into words, with a link per kind of failure.
func labResult(u *i18n.UI, lu *i18n.LabUI, l *lessons.Lesson, c links.LabConfig, res *explore.Result) *LabResult {
	opt := l.Scenario.FormatOptions(c.Opts)
	from := strings.TrimPrefix(c.Query(), "?") // the way back from the counterexample to this result
	link := func(as []sim.Action) string {
		return links.Lesson(l) + links.WithLab(links.Query(sim.FormatActions(as), opt), from)
	}
	out := &LabResult{
		Explored: i18n.Fill(lu.Explored, u.Count(res.Schedules), u.Count(res.States)),
		Complete: res.Complete(),
		Budget: i18n.Fill(lu.Budget, u.Count(StateCap), strconv.Itoa(c.Depth),
			strconv.Itoa(int(site.LabDeadline/time.Second))),
	}
	// the headline: the shortest counterexample, a failing kind before
	// what a lease allows (explore.ShortestOf), so one is headed as a
	// counterexample only when it is
	if kind, shortest := res.ShortestKind, res.Shortest; shortest != nil {
		heading := lu.Shortest // a counterexample: it breaks what the lock promises
		if sim.ClassOf(kind) == sim.ClassAllowed {
			heading = lu.ShortestAllowed
		}
		out.Shortest = i18n.Fill(heading, strconv.Itoa(len(shortest)), u.Failures[kind].Name)
		for k, f := range res.Found {
			if heading == lu.Shortest && sim.ClassOf(k) == sim.ClassAllowed && len(f.Shortest) < len(shortest) {
				out.Shortest = i18n.Sentences(out.Shortest, lu.ShorterAllowed) // the table has a shorter row: say why it is not the headline
				break
			}
		}
		out.ShortestURL = link(shortest)
		// replayed (the explorer keeps no timeline) for what each step
		// did: an acquire the server refused says so (a replay that fails
		// leaves the steps' words alone)
		tl, err := sim.Replay(l.Scenario, c.Opts, shortest)
		if err != nil {
			tl = &sim.Timeline{Scenario: l.Scenario, Actions: shortest}
		}
		for i := range shortest {
			out.ShortestSteps = append(out.ShortestSteps, narrate.Step(u, tl, i))
		}
	} else {
		out.None = lu.NoneFound
	}
	switch {
	case !res.Complete():
		// Only the state budget can leave a result incomplete (the
		// clock gives no result at all: see explore).
		out.Incomplete = i18n.Fill(lu.Incomplete, u.Count(StateCap), strconv.Itoa(res.Depth), strconv.Itoa(res.Depth+1))
	case res.DepthCut:
		out.Coverage = i18n.Fill(lu.CompleteCut, strconv.Itoa(c.Depth))
	default:
		out.Coverage = lu.Complete
	}
	var found []sim.ViolationKind
	for _, k := range sim.Kinds {
		f := res.Found[k]
		if f == nil {
			continue
		}
		found = append(found, k)
		out.Rows = append(out.Rows, LabRow{Row: findings.RowOf(u, k),
			Count: u.Count(f.Schedules), Steps: findings.Steps(u, len(f.Shortest)), URL: link(f.Shortest)})
	}
	out.Verdict = findings.Of(u, found, res.Complete(), res.Depth)
	return out
}

// Handler serves the Lab.
type Handler struct{ *site.Site }

// New builds the Lab's handler.
func New(s *site.Site) *Handler { return &Handler{Site: s} }

// Valid reports whether q is a Lab run the Lab accepts (lesson.LabCheck):
// the lesson page trusts a lab= link back only then.
func (s *Handler) Valid(u *i18n.UI, q url.Values) bool {
	_, e := s.parseLab(u, q)
	return e == nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// labLimit is what the lesson's model cannot show of this design: the
// catalog's Limits under the lesson's id, or under "<id> <option>.<value>"
// for a design with that option (WAIT's caveat is for the design that
// waits, not for the one that trusts the primary at once).
func labLimit(lu *i18n.LabUI, sc *sim.Scenario, opts sim.Opts) string {
	limit := lu.Limits[sc.ID]
	for _, name := range slices.Sorted(maps.Keys(opts)) {
		if l, ok := lu.Limits[sc.ID+" "+name+"."+opts[name]]; ok {
			limit = l
		}
	}
	return limit
}

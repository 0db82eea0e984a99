// lab.go serves the Lab: a form to choose a lock design and a fault budget,
// the explorer's findings for it, links that open each counterexample as a
// lesson timeline, and the design as Go code. Like a timeline, a Lab page is
// fully described by its URL:
//
//	/{lang}/lab?lesson=<slug>&opt=<options>&clients=N&pauses=N&pause=<durations>&crashes=N&nodes=N&drops=N&depth=N
//
// Parameters at the lesson's default are left out of the canonical URL.
package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/gocode"
	"locklab/web/i18n"
	"locklab/web/narrate"
)

// LabDeadline is the safety stop of one exploration. The explorer's budget
// is counted in states (labStateCap), so a URL's answer is the same on a
// busy server and a quiet one; a search the deadline cuts short gives no
// verdict at all: the page says the server is busy and to try again.
const LabDeadline = 10 * time.Second

// labStateCap bounds the distinct states of one exploration, whatever the
// URL asks: the budget a result is honest about.
const labStateCap = sim.MaxExploreStates

// labDefaultLesson is the Lab's lesson when the URL names none: the
// flagship design.
const labDefaultLesson = "fencing"

// Limits of the form (and of any URL).
const (
	labMaxFaults  = 2
	labMaxLengths = 3
	labMinDepth   = 4
)

// labDepths are the depth bounds the form offers; any value from
// labMinDepth to sim.MaxExploreDepth is accepted in a URL.
var labDepths = []int{8, 10, 12, sim.DefaultExploreDepth, 16, 20}

// labConfig is a Lab page's URL state.
type labConfig struct {
	Lesson                                        *lessons.Lesson
	Opts                                          sim.Opts
	Clients, Pauses, Crashes, Nodes, Drops, Depth int
	PauseMs                                       []int64
}

// labDefaults is the configuration a lesson's Lab starts from: the
// scenario's default fault budget, pauses as long as the lock's TTL.
func labDefaults(l *lessons.Lesson) labConfig {
	sc := l.Scenario
	b := sc.DefaultBudget()
	return labConfig{Lesson: l, Opts: sc.DefaultOpts(), Clients: 2, Pauses: b.Pauses, Crashes: b.Crashes, Nodes: b.NodeFaults,
		PauseMs: []int64{sc.TTL}, Depth: sim.DefaultExploreDepth}
}

// labLengths are the pause lengths the form offers for a scenario.
func labLengths(sc *sim.Scenario) []int64 {
	ls := []int64{1000, 5000, sc.TTL, 15_000, 30_000}
	slices.Sort(ls)
	return slices.Compact(ls)
}

// labError is a 400 in the page's language, with a way back to the
// lesson's Lab.
func labError(u *i18n.UI, text, back string) *Error {
	return &Error{Status: http.StatusBadRequest, Title: u.Lab.BadTitle, Text: text, Code: "lab",
		Recover: back, RecoverText: u.Lab.Title}
}

// parseLab reads a Lab URL. The form's fields (opt-<name>, repeated
// pause=) are accepted and folded; the canonical form is returned beside
// the config so the handler can redirect to it.
func (s *Server) parseLab(u *i18n.UI, q url.Values) (labConfig, *Error) {
	lu := u.Lab
	home := "/" + u.Lang + "/lab"
	slug := q.Get("lesson")
	if slug == "" {
		slug = labDefaultLesson
	}
	if len(q["lesson"]) > 1 {
		return labConfig{}, labError(u, i18n.Fill(lu.BadParam, strings.Join(q["lesson"], ","), "lesson"), home)
	}
	l, ok := s.course.Get(u.Lang, slug)
	if !ok {
		return labConfig{}, labError(u, i18n.Fill(lu.BadLesson, slug), home)
	}
	sc := l.Scenario
	c := labDefaults(l)
	// A bad field is reported, and the way back keeps every other one
	// the learner set (the bad one at its default): bad is the first
	// problem, and parsing goes on.
	bad := ""
	fail := func(text string) {
		if bad == "" {
			bad = text
		}
	}
	if err := foldOptionFields(q, sc); err != nil || len(q["opt"]) > 1 {
		fail(i18n.Fill(lu.BadParam, q.Get("opt"), "opt"))
	} else if opts, err := sc.ParseOptions(q.Get("opt")); err != nil {
		var ae *sim.ActionError
		if errors.As(err, &ae) {
			fail(errorText(u, ae, sc))
		} else {
			fail(i18n.Fill(lu.BadParam, q.Get("opt"), "opt"))
		}
	} else {
		c.Opts = opts
	}
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
		{"depth", &c.Depth, labMinDepth, sim.MaxExploreDepth, true},
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
	if vals, present := q["pause"]; present {
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
		if len(ms) > labMaxLengths {
			fail(i18n.Fill(lu.BadLengths, strconv.Itoa(labMaxLengths)))
			ms = ms[:labMaxLengths] // the way back keeps the shortest ones
		}
		if len(ms) > 0 {
			c.PauseMs = ms
		}
	}
	if c.Pauses > 0 && len(c.PauseMs) == 0 {
		fail(i18n.Fill(lu.BadLengths, strconv.Itoa(labMaxLengths)))
		c.PauseMs = labDefaults(l).PauseMs
	}
	if bad != "" {
		return labConfig{}, labError(u, bad, home+c.Query())
	}
	return c, nil
}

// Query is the canonical query of a Lab config: the lesson, then every
// parameter that differs from the lesson's default, in a fixed order.
func (c labConfig) Query() string {
	d := labDefaults(c.Lesson)
	parts := []string{"lesson=" + c.Lesson.Slug}
	if opt := c.Lesson.Scenario.FormatOptions(c.Opts); opt != "" {
		parts = append(parts, "opt="+opt)
	}
	num := func(name string, v, def int) {
		if v != def {
			parts = append(parts, name+"="+strconv.Itoa(v))
		}
	}
	num("clients", c.Clients, d.Clients)
	num("pauses", c.Pauses, d.Pauses)
	if c.Pauses > 0 && !slices.Equal(c.PauseMs, d.PauseMs) {
		var ls []string
		for _, ms := range c.PauseMs {
			ls = append(ls, sim.FormatDuration(ms))
		}
		parts = append(parts, "pause="+strings.Join(ls, ","))
	}
	num("crashes", c.Crashes, d.Crashes)
	num("nodes", c.Nodes, d.Nodes)
	num("drops", c.Drops, d.Drops)
	num("depth", c.Depth, d.Depth)
	return "?" + strings.Join(parts, "&")
}

// labSlots takes one Lab slot (half the replay slots at most, so lessons
// are never starved) and one replay slot, waiting for each only until ctx
// ends; release gives both back. The Lab and the design page's grade share
// it, so both count against the same limits.
func (s *Server) labSlots(ctx context.Context, u *i18n.UI) (release func(), e *Error) {
	select {
	case s.labs <- struct{}{}:
	case <-ctx.Done():
		return nil, busy(u)
	}
	select {
	case s.replays <- struct{}{}:
	case <-ctx.Done():
		<-s.labs
		return nil, busy(u)
	}
	leave := s.gc.enter()
	return func() { leave(); <-s.replays; <-s.labs }, nil
}

// explore runs the explorer for c within the request's bounds: one Lab
// slot (half the replay slots at most, so lessons are never starved) and
// one replay slot, both waited for only until the deadline.
func (s *Server) explore(r *http.Request, u *i18n.UI, c labConfig) (*sim.ExploreResult, *Error) {
	ctx, cancel := context.WithTimeout(r.Context(), s.labDeadline)
	defer cancel()
	release, e := s.labSlots(ctx, u)
	if e != nil {
		return nil, e
	}
	defer release()
	res, err := sim.Explore(ctx, sim.ExploreConfig{
		Scenario: c.Lesson.Scenario, Opts: c.Opts, Clients: c.Clients, Pauses: c.Pauses, PauseMs: c.PauseMs,
		Crashes: c.Crashes, NodeFaults: c.Nodes, Drops: c.Drops, MaxDepth: c.Depth, MaxStates: labStateCap,
	})
	if err == nil && res.Stopped == sim.StopTime {
		// Cut short by the clock: what it saw depends on the load, so
		// it is no verdict. Busy, try again.
		e := busy(u)
		e.Text = u.Lab.Busy
		return nil, e
	}
	if err != nil {
		var ae *sim.ActionError
		if errors.As(err, &ae) {
			return nil, labError(u, i18n.Fill(u.Lab.BadParam, ae.Action, "lab"), "/"+u.Lang+"/lab?lesson="+c.Lesson.Slug)
		}
		return nil, internal(u, err)
	}
	return res, nil
}

// labPage serves /{lang}/lab.
func (s *Server) labPage(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	if len(r.URL.RawQuery) > MaxQuery {
		s.fail(w, r, u, labError(u, u.ErrorText[sim.CodeTooLong], "/"+u.Lang+"/lab"))
		return
	}
	q := r.URL.Query()
	c, e := s.parseLab(u, q)
	if e != nil {
		s.fail(w, r, u, e)
		return
	}
	if want := c.Query(); r.URL.RawQuery != "" && "?"+r.URL.RawQuery != want {
		http.Redirect(w, r, "/"+u.Lang+"/lab"+want, http.StatusSeeOther)
		return
	}
	// An exploration's result is the same for the same URL and build
	// (its budget is counted in states), so it is cached like a timeline
	// (the explorer always runs on the embedded miniredis, so even with a
	// live backend); one the safety stop cut short is no result at all.
	s.serveCached(w, r, u, true, func() ([]byte, string, bool, *Error) {
		res, e := s.explore(r, u, c)
		if e != nil {
			return nil, "", false, e
		}
		body, typ, e := s.renderBytes(r, u, LabPage(s.labView(r, u, c, res)))
		return body, typ, true, e
	})
}

// LabView is what the Lab template shows.
type LabView struct {
	Page
	L         *i18n.LabUI
	Action    string // the form's target: /{lang}/lab
	Lesson    *lessons.Lesson
	Lessons   []Choice // the lesson picker: slug, title
	Options   []OptionGroup
	Clients   []Choice
	Counts    []LabCount // pauses, crashes, node faults, lost replies
	Lengths   []Choice   // pause lengths (checkboxes)
	Depths    []Choice
	Fixed     string
	Result    *LabResult
	Code      string
	Canonical string
	DesignURL string // "bring your own lock" from this design
}

// LabCount is one "how many" question of the fault budget.
type LabCount struct {
	Name, Label string
	Choices     []Choice
}

// LabResult is the explorer's findings, in words and links.
type LabResult struct {
	Explored, BreakME, Shortest, None string
	ShortestURL                       string
	ShortestSteps                     []string
	// Incomplete, when set, comes first: the search stopped at its state
	// budget; how far it got and how to get a complete answer. No ✓ and
	// no "holds within these bounds" then.
	Incomplete string
	// Coverage says what a complete search covered (every schedule up to
	// the depth bound, and whether some went on past it).
	Coverage string
	Budget   string
	Complete bool
	Storage  string
	Harmed   bool
	HarmURL  string
	Within   string
	Rows     []LabRow
}

// LabRow is one kind of failure found.
type LabRow struct {
	Kind, Name, Meaning, Count, Steps, URL string
}

// labView builds the page for config c and its result.
func (s *Server) labView(r *http.Request, u *i18n.UI, c labConfig, res *sim.ExploreResult) *LabView {
	lu, l, sc := u.Lab, c.Lesson, c.Lesson.Scenario
	v := &LabView{Page: s.page(u, lu.Title+" — "+u.SiteName, r), L: lu, Action: "/" + u.Lang + "/lab", Lesson: l,
		Canonical: "/" + u.Lang + "/lab" + c.Query()}
	for _, x := range s.course.List(u.Lang) {
		v.Lessons = append(v.Lessons, Choice{Value: x.Slug, Label: itoa(int64(x.Order)) + ". " + x.Title, Checked: x == l})
	}
	v.Options = optionGroups(u, sc, c.Opts)
	for n := 2; n <= len(sc.Clients); n++ {
		v.Clients = append(v.Clients, Choice{Value: strconv.Itoa(n), Label: i18n.Fill(lu.ClientsN, strconv.Itoa(n)), Checked: c.Clients == n})
	}
	count := func(name, label string, cur int) {
		lc := LabCount{Name: name, Label: label}
		for n := 0; n <= labMaxFaults; n++ {
			lc.Choices = append(lc.Choices, Choice{Value: strconv.Itoa(n), Label: strconv.Itoa(n), Checked: cur == n})
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
		{sim.CostNode, "nodes", lu.NodeFaults, c.Nodes},
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
		v.Lengths = append(v.Lengths, Choice{Value: sim.FormatDuration(ms), Label: sim.FormatDuration(ms), Checked: slices.Contains(c.PauseMs, ms)})
	}
	depths := slices.Clone(labDepths)
	if !slices.Contains(depths, c.Depth) {
		depths = append(depths, c.Depth)
		slices.Sort(depths)
	}
	for _, d := range depths {
		v.Depths = append(v.Depths, Choice{Value: strconv.Itoa(d), Label: strconv.Itoa(d), Checked: c.Depth == d})
	}
	retry := sim.FormatDuration(sc.Retry)
	v.Fixed = i18n.Fill(lu.FixedNote, sim.FormatDuration(sc.TTL), sim.FormatDuration(sc.Work), retry)
	if d, ok := gocode.FromLab(sc, c.Opts); ok {
		v.Code = gocode.Lab(sc, d, u.Lang)
	}
	v.Result = labResult(u, lu, l, c, res)
	v.DesignURL = designPath(u.Lang, designFromLesson(sc, c.Opts))
	return v
}

// labResult puts the findings into words, with a link per kind of failure.
func labResult(u *i18n.UI, lu *i18n.LabUI, l *lessons.Lesson, c labConfig, res *sim.ExploreResult) *LabResult {
	opt := l.Scenario.FormatOptions(c.Opts)
	from := strings.TrimPrefix(c.Query(), "?") // the way back from the counterexample to this result
	link := func(as []sim.Action) string { return lessonPath(l) + withLab(query(sim.FormatActions(as), opt), from) }
	out := &LabResult{
		Explored: i18n.Fill(lu.Explored, u.Count(res.Schedules), u.Count(res.States)),
		Complete: res.Complete(),
		Budget: i18n.Fill(lu.Budget, u.Count(labStateCap), strconv.Itoa(c.Depth),
			strconv.Itoa(int(LabDeadline/time.Second))),
	}
	overlap := 0
	if f := res.Found[sim.Overlap]; f != nil {
		overlap = f.Schedules
	}
	out.BreakME = i18n.Fill(lu.BreakME, u.Count(overlap))
	if res.Shortest != nil {
		out.Shortest = i18n.Fill(lu.Shortest, strconv.Itoa(len(res.Shortest)), lu.KindName[res.ShortestKind])
		out.ShortestURL = link(res.Shortest)
		for _, a := range res.Shortest {
			out.ShortestSteps = append(out.ShortestSteps, narrate.Action(u, a))
		}
	} else {
		out.None = lu.NoneFound
	}
	switch {
	case !res.Complete():
		// Only the state budget can leave a result incomplete (the
		// clock gives no result at all: see explore).
		out.Incomplete = i18n.Fill(lu.Incomplete, u.Count(labStateCap), strconv.Itoa(res.Depth), strconv.Itoa(res.Depth+1))
	case res.DepthCut:
		out.Coverage = i18n.Fill(lu.CompleteCut, strconv.Itoa(c.Depth))
	default:
		out.Coverage = lu.Complete
	}
	switch f := res.Found[sim.Harm]; {
	case f != nil:
		out.Harmed = true
		out.Storage = i18n.Fill(lu.StorageHarmed, u.Count(f.Schedules), strconv.Itoa(len(f.Shortest)))
		out.HarmURL = link(f.Shortest)
	case res.Complete():
		out.Storage, out.Within = lu.StorageSafe, lu.Within
	default:
		out.Storage = i18n.Fill(lu.StorageUnknown, strconv.Itoa(res.Depth))
	}
	for _, k := range []sim.ViolationKind{sim.Harm, sim.Overlap, sim.StaleWrite, sim.ForeignDelete, sim.DoubleCharge, sim.Orphan} {
		f := res.Found[k]
		if f == nil {
			continue
		}
		out.Rows = append(out.Rows, LabRow{Kind: string(k), Name: lu.KindName[k], Meaning: lu.KindMeaning[k],
			Count: u.Count(f.Schedules), Steps: i18n.Fill(lu.StepsOf, strconv.Itoa(len(f.Shortest))), URL: link(f.Shortest)})
	}
	return out
}

// labLink is a lesson page's "what else could go wrong?": the Lab, on the
// lesson's design and the variant the page shows.
func labLink(u *i18n.UI, l *lessons.Lesson, opts sim.Opts) string {
	c := labDefaults(l)
	c.Opts = opts
	return "/" + u.Lang + "/lab" + c.Query()
}

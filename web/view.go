// view.go builds what the templates show: the page frame and the lesson
// view (dialog, controls, picture, event log) for one URL state.
package web

import (
	"bytes"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"locklab/lessons"
	"locklab/sim"
)

// Page is the frame every page shares.
type Page struct {
	UI                        *UI
	Title                     string
	CSS, JS, App, Early, Icon string
	Chick, Penguin            string
	AltURL                    string // the same page in the other language
	Path                      string
}

func (s *Server) page(u *UI, title string, r *http.Request) Page {
	return Page{
		UI: u, Title: title,
		CSS: s.assets.URL("css/app.css"), JS: s.assets.URL("vendor/htmx.min.js"), App: s.assets.URL("js/app.js"), Early: s.assets.URL("js/early.js"),
		Icon: s.assets.URL("img/favicon.svg"), Chick: s.assets.URL("img/chick.svg"),
		Penguin: s.assets.URL("img/penguin.svg"),
		AltURL:  altURL(u, r), Path: r.URL.Path,
	}
}

// altURL is the same address in the other language: the first path
// segment swapped, the query (the timeline) kept.
func altURL(u *UI, r *http.Request) string {
	rest, ok := strings.CutPrefix(r.URL.Path, "/"+u.Lang+"/")
	if !ok {
		return "/" + u.OtherLang + "/"
	}
	alt := "/" + u.OtherLang + "/" + rest
	if r.URL.RawQuery != "" && len(r.URL.RawQuery) <= MaxQuery {
		alt += "?" + r.URL.RawQuery
	}
	return alt
}

// LessonView is one lesson at one timeline state.
type LessonView struct {
	Page
	Lesson            *lessons.Lesson
	Base              string
	State             State
	TL                *sim.Timeline
	Step              *lessons.Step // the dialog shown: the current step, or the last one reached
	StepNum           int           // 1-based, of len(Lesson.Steps)
	Exact             bool          // the state is exactly a guided step
	OffNote           string        // why the learner is off the path, if so
	NextURL           string        // the next guided step, or back to the path
	NextLbl           string
	UndoURL, ResetURL string
	Steps             []StepLink
	Clients           []ClientControls
	Nodes             []ClientControls // node faults the lesson offers
	Waits             []Control
	Options           []OptionGroup
	Rows              []Row
	Violations        []string
	Picture           *Picture
	Prev, Next        *lessons.Lesson
	JSONURL           string
	SVGURL, FileName  string
	Scripts           []Script
	Live              string
	LessonNum         int
	Final             bool
	Guess             int     // the checkpoint answer in the URL (0: none)
	Ask               *Ask    // the next step's checkpoint, asked here
	Answer            *Answer // this step's checkpoint, answered here
	LessonJSONURL     string
	ShareURL          string
	QRURL             string
	Here              string   // this page's canonical path and query
	Counter           *Counter // a Lab counterexample: its own frame replaces the dialog
}

// Ask is the next step's checkpoint, asked on this page: a GET form that
// leads to the next step (hidden do and opt) with the learner's guess.
type Ask struct {
	*lessons.Checkpoint
	Do, Opt string
}

// Answer is this step's checkpoint on the page that reveals it.
type Answer struct {
	*lessons.Checkpoint
	Guess   int // 1-based; 0 when the learner did not guess
	Picked  lessons.Choice
	Right   bool
	Correct []lessons.Choice
}

// Mark is the shape that says right or wrong, beside the word (never
// colour alone).
func (a *Answer) Mark() string {
	if a.Right {
		return "✓"
	}
	return "✗"
}

// Word says right or wrong in the page's language.
func (a *Answer) Word(u *UI) string {
	if a.Right {
		return u.Right
	}
	return u.Wrong
}

func answer(cp *lessons.Checkpoint, guess int) *Answer {
	a := &Answer{Checkpoint: cp, Guess: guess}
	for _, n := range cp.Correct() {
		a.Correct = append(a.Correct, cp.Choices[n-1])
	}
	if guess > 0 {
		a.Picked = cp.Choices[guess-1]
		a.Right = a.Picked.Correct
	}
	return a
}

// StepLink is one entry of the guided-step list.
type StepLink struct {
	Num           int
	Title, URL    string
	Current, Done bool
}

// Control is one action the learner can take: a link that is the new state.
type Control struct {
	ID, Label, URL, Class string
}

// ClientControls are one client's buttons.
type ClientControls struct {
	ID, Name, State string
	Actions         []Control
}

// OptionGroup is one option as radio buttons.
type OptionGroup struct {
	Name, Label string
	Choices     []Choice
}

// Choice is one radio button.
type Choice struct {
	Value, Label string
	Checked      bool
}

// Row is one line of the event log.
type Row struct {
	Num, Time, Who, To string
	Pre, Script, Post  string // the command, split around a script name
	Reply, Note, Class string
	Model              bool // from a labelled model, not a Redis server
}

// Script is a Lua script shown under the event log.
type Script struct{ Name, Body string }

// waits are the time controls offered everywhere.
var waits = []int64{1000, 5000, 10_000}

func (s *Server) lessonView(r *http.Request, u *UI) (*LessonView, *Error) {
	l, st, tl, e := s.load(r, u)
	if e != nil {
		return nil, e
	}
	v := &LessonView{Page: s.page(u, l.Title+" — "+u.SiteName, r), Lesson: l, Base: lessonPath(l), State: st, TL: tl}
	v.Guess = guessFor(r.URL.Query(), l, st)
	v.Here = v.Base + withGuess(st.Query(), v.Guess)
	v.JSONURL = v.Base + "/timeline.json" + st.Query()
	v.SVGURL = v.Base + "/timeline.svg" + st.Query()
	v.FileName = "locklab-" + l.Slug + "-" + strconv.Itoa(len(st.Actions)) + "-actions"
	v.LessonJSONURL = v.Base + ".json"
	v.Prev, v.Next = s.course.Neighbours(l)
	v.LessonNum = l.Order
	v.locate()
	if lab := labFrom(r.URL.Query()); lab != "" {
		v.counterFrame(lab)
		v.Here = v.Base + withLab(withGuess(st.Query(), v.Guess), lab)
	}
	v.controls()
	v.eventLog()
	v.Picture = layout(tl, u, firstNew(tl))
	v.Picture.describe(tl, u, firstNew(tl))
	v.ShareURL = s.absoluteURL(r)
	v.QRURL = v.Base + "/qr.svg"
	if r.URL.RawQuery != "" {
		v.QRURL += "?" + r.URL.RawQuery
	}
	for _, viol := range tl.Violations {
		v.Violations = append(v.Violations, sim.FormatMS(viol.At)+" — "+violationText(u, viol))
	}
	return v, nil
}

// locate places the state on the guided path and picks the dialog to show.
func (v *LessonView) locate() {
	l, u := v.Lesson, v.UI
	idx, exact := l.Locate(v.State.Do(), v.State.Opt())
	v.Exact = exact
	shown := max(idx, 0)
	v.Step = &l.Steps[shown]
	v.StepNum = shown + 1
	switch {
	case exact && idx+1 < len(l.Steps):
		next := l.Steps[idx+1]
		v.NextURL, v.NextLbl = v.Base+query(next.Do, next.Opt), u.NextStep
	case exact:
		v.Final = true
	default:
		if idx >= 0 {
			v.OffNote = fill(u.OffPath, itoa(int64(idx+1)))
		} else {
			v.OffNote = u.OffPathNone
		}
		back := l.Steps[shown]
		v.NextURL, v.NextLbl = v.Base+query(back.Do, back.Opt), u.BackToPath
	}
	for i, st := range l.Steps {
		v.Steps = append(v.Steps, StepLink{Num: i + 1, Title: st.Title, URL: v.Base + query(st.Do, st.Opt),
			Current: exact && i == idx, Done: i < shown})
	}
	if exact {
		if cp := l.Steps[idx].Checkpoint; cp != nil {
			v.Answer = answer(cp, v.Guess)
		}
		if idx+1 < len(l.Steps) && l.Steps[idx+1].Checkpoint != nil {
			next := l.Steps[idx+1]
			v.Ask = &Ask{Checkpoint: next.Checkpoint, Do: next.Do, Opt: next.Opt}
		}
		v.Live = u.Step + " " + itoa(int64(idx+1)) + " " + u.Of + " " + itoa(int64(len(l.Steps))) + ": " + v.Step.Title
		if v.Answer != nil && v.Guess > 0 {
			v.Live += " — " + v.Answer.Mark() + " " + v.Answer.Word(u)
		}
	} else {
		v.Live = v.OffNote
	}
	if v.Exact && idx > 0 {
		v.Title = v.Step.Title + " — " + l.Title + " — " + u.SiteName
	}
}

// controls builds every link the learner can follow from this state.
func (v *LessonView) controls() {
	u, st, tl := v.UI, v.State, v.TL
	if len(st.Actions) > 0 {
		v.UndoURL = v.Base + st.Undo().Query()
	}
	v.ResetURL = startPath(v.Lesson)
	for _, c := range tl.Clients {
		cc := ClientControls{ID: c.ID, Name: fill(u.Client, strings.ToUpper(c.ID)), State: u.StateName[c.State]}
		if c.Token > 0 && (c.State == sim.StateHolding || c.State == sim.StatePaused) {
			cc.State += " · " + unbroken(fill(u.Token, itoa(c.Token)))
		}
		if c.ValidUntil > 0 && c.State == sim.StateHolding {
			cc.State += " · " + unbroken(fill(u.ValidUntil, sim.FormatMS(c.ValidUntil)))
		}
		for _, verb := range tl.Allowed[c.ID] {
			cc.Actions = append(cc.Actions, v.verbControl(c.ID, verb, c.Pending))
		}
		v.Clients = append(v.Clients, cc)
	}
	for _, n := range tl.Nodes {
		allowed := tl.NodeAllowed[n.Name]
		if len(allowed) == 0 {
			continue
		}
		nc := ClientControls{ID: n.Name, Name: nodeLabel(u, n.Name), State: nodeState(u, n)}
		for _, verb := range allowed {
			nc.Actions = append(nc.Actions, v.verbControl(n.Name, verb, ""))
		}
		v.Nodes = append(v.Nodes, nc)
	}
	for _, ms := range waits {
		a := sim.Action{Verb: sim.VerbWait, Ms: ms}
		v.Waits = append(v.Waits, Control{ID: "wait-" + sim.FormatDuration(ms), Label: fill(u.Verb[sim.VerbWait], sim.FormatDuration(ms)),
			URL: v.Base + st.With(a).Query()})
	}
	v.Options = optionGroups(u, tl.Scenario, st.Opts)
}

// unbroken keeps a short phrase ("token 1", 「トークン 1」) on one line:
// its spaces become no-break spaces.
func unbroken(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }

// verbControl is the link that has who do verb, with the duration its
// entry offers; the label names that duration, or else what (for a
// client stopped between two commands, the command next sends).
func (v *LessonView) verbControl(who, verb, what string) Control {
	spec, _ := sim.Spec(verb)
	a := sim.Action{Who: who, Verb: verb, Ms: spec.Default}
	if a.Ms > 0 {
		what = sim.FormatDuration(a.Ms)
	}
	return Control{ID: "do-" + who + "-" + verb, Label: fill(v.UI.Verb[verb], what),
		URL: v.Base + v.State.With(a).Query(), Class: "verb-" + verb}
}

// optionGroups are the variants form's radio groups (the lesson page's and
// the Lab's), with opts checked.
func optionGroups(u *UI, sc *sim.Scenario, opts sim.Opts) []OptionGroup {
	var out []OptionGroup
	for _, spec := range sc.Options {
		if len(spec.Values) < 2 {
			continue // a fixed setting of the lesson, nothing to choose
		}
		g := OptionGroup{Name: spec.Name, Label: u.OptionLabel[spec.Name]}
		for _, val := range spec.Values {
			g.Choices = append(g.Choices, Choice{Value: val, Label: optionLabel(u, spec.Name, val), Checked: opts[spec.Name] == val})
		}
		out = append(out, g)
	}
	return out
}

func optionLabel(u *UI, name, val string) string {
	if l, ok := u.OptionValue[name+"."+val]; ok {
		return l
	}
	return name + "." + val
}

// nodeState describes a node for its lane and its controls: its role, and
// what the learner did to it.
func nodeState(u *UI, n sim.NodeView) string {
	var parts []string
	switch {
	case n.Model:
		parts = append(parts, u.Model)
	case n.Primary:
		parts = append(parts, u.PrimaryRole)
	}
	if n.Down {
		parts = append(parts, u.Down)
	}
	if n.Offset > 0 {
		parts = append(parts, fill(u.ClockAhead, sim.FormatDuration(n.Offset)))
	}
	if n.Latency > 0 {
		parts = append(parts, fill(u.SlowBy, sim.FormatDuration(n.Latency)))
	}
	return strings.Join(parts, " · ")
}

// firstNew is the Seq of the first event the last action produced, so the
// page can highlight what just happened.
func firstNew(tl *sim.Timeline) int {
	last := len(tl.Actions) - 1
	for _, e := range tl.Events {
		if e.Step == last && last >= 0 {
			return e.Seq
		}
	}
	return len(tl.Events)
}

// eventLog turns events into table rows, and collects the scripts used.
func (v *LessonView) eventLog() {
	u, tl := v.UI, v.TL
	from := firstNew(tl)
	violated := map[int]bool{}
	for _, x := range tl.Violations {
		violated[x.Event] = true
	}
	scripts := map[string]bool{}
	for _, e := range tl.Events {
		row := Row{Num: itoa(int64(e.Seq + 1)), Time: sim.FormatMS(e.At), Who: who(e.Actor, u)}
		switch e.Kind {
		case sim.KindCommand:
			row.To = e.Node
			cmd := e.Command
			if e.Model {
				cmd = modelCommand(u, cmd)
			}
			if e.Script != "" {
				row.Pre, row.Script, row.Post = cmd[0], e.Script, strings.Join(cmd[2:], " ")
				scripts[e.Script] = true
			} else {
				row.Pre = strings.Join(cmd, " ")
			}
			row.Reply = eventReply(u, e)
			row.Note = u.Purpose[e.Purpose]
			if e.Accepted != nil {
				row.Note = verdict(e, u)
				if !*e.Accepted && !alreadyDone(e) {
					row.Class = "rejected"
				}
			}
			switch {
			case e.Refused:
				row.Reply, row.Note, row.Class = "", u.Refused, row.Class+" refused"
			case e.Lost:
				row.Note += " · " + fill(u.LostReply, strings.ToUpper(e.Actor))
				row.Class += " lost"
			}
			row.Model = e.Model
		case sim.KindExpired:
			row.Note = fill(u.ExpiredAt, strings.ToUpper(e.Owner)) + " (" + e.Key + ")"
			row.Class = "expired"
		case sim.KindWait:
			row.Note = fill(u.Verb[sim.VerbWait], sim.FormatDuration(e.Ms))
		case sim.KindWork:
			row.Note = u.Working + " " + sim.FormatDuration(e.Ms)
		case sim.KindPause:
			row.Note = u.Paused
		case sim.KindResume:
			row.Note = u.Verb[sim.VerbResume]
		case sim.KindCrash:
			row.Note = u.Crashed
		case sim.KindLocal, sim.KindLocalUnlock, sim.KindDrop, sim.KindGiveUp:
			row.Note = u.KindNote[e.Kind]
			row.Model = e.Kind == sim.KindLocal || e.Kind == sim.KindLocalUnlock
		case sim.KindNode:
			arg := ""
			if e.Ms > 0 {
				arg = sim.FormatDuration(e.Ms)
			}
			row.Note, row.Model = fill(u.NodeNote[e.Text], nodeLabel(u, e.Actor), arg), true
		case sim.KindRedlock:
			row.Pre, row.Note, row.Model = localize(u, e.Text), u.Purpose["acquire"], true
		}
		if violated[e.Seq] {
			row.Class += " violation"
			for _, x := range tl.Violations {
				if x.Event == e.Seq {
					row.Note += " ⚠ " + violationText(u, x)
				}
			}
		}
		if e.Seq >= from {
			row.Class += " new"
		}
		v.Rows = append(v.Rows, row)
	}
	names := make([]string, 0, len(scripts))
	for n := range scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v.Scripts = append(v.Scripts, Script{Name: n, Body: sim.Scripts[n]})
	}
}

func who(actor string, u *UI) string {
	switch actor {
	case "", sim.Learner:
		return "—"
	case sim.NodeRedis:
		return u.Lock
	case sim.NodeStorage:
		return u.Storage
	}
	if len(actor) == 1 {
		return strings.ToUpper(actor) // a client
	}
	return nodeLabel(u, actor) // a node or a modelled service
}

// render writes a component with a 200, or an internal error page if it
// fails before anything was sent.
func (s *Server) render(w http.ResponseWriter, r *http.Request, c templ.Component) {
	body, typ, e := s.renderBytes(r, s.uiFor(r), c)
	if e != nil {
		s.fail(w, r, s.uiFor(r), e)
		return
	}
	w.Header().Set("Content-Type", typ)
	_, _ = w.Write(body)
}

// renderBytes renders a component to HTML bytes (for the cache).
func (s *Server) renderBytes(r *http.Request, u *UI, c templ.Component) ([]byte, string, *Error) {
	var buf bytes.Buffer
	if err := c.Render(r.Context(), &buf); err != nil {
		return nil, "", internal(u, err)
	}
	return buf.Bytes(), "text/html; charset=utf-8", nil
}

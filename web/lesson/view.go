// view.go builds what the templates show: the page frame and the lesson
// view (dialog, controls, picture, event log) for one URL state.

package lesson

import (
	"context"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/rediscli"
	"locklab/sim/redisfront"
	"locklab/web/findings"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/narrate"
	"locklab/web/picture"
	"locklab/web/site"

	"github.com/a-h/templ"
)

// LessonView is one lesson at one timeline state: the page frame and, for
// each part of the page, the props its component draws. Each part gets
// only what it shows, so a template edit touches one small struct.
type LessonView struct {
	site.Page
	Live   string // announced in the polite live region after a swap
	Head   LessonHead
	Dialog DialogProps
	Stage  StageProps
	Pager  Pager
	// Timeline is what the view shows, for a feature that judges it (a
	// challenge: whether the goal is on it).
	Timeline *sim.Timeline
}

// LessonHead is what <main> carries for scripts (data attributes) and the
// breadcrumbs.
type LessonHead struct {
	UI          *i18n.UI
	Slug, Title string
	Base, Here  string // the lesson's path; this page's canonical path and query
	LessonNum   int
	StepNum     int // 1-based
	// Challenges are the lesson's challenges' ids (space-separated; ""
	// for none), ChallengesURL their list: the header counts the solved.
	Challenges, ChallengesURL string
	// Checkpoints is how many the lesson asks (the header counts the
	// answered; 0: none to count)
	Checkpoints int
}

// DialogProps is the left column: the guided step's dialog, the
// checkpoint, the step navigation and the list of steps.
type DialogProps struct {
	UI             *i18n.UI
	Chick, Penguin string        // avatar image URLs
	Step           *lessons.Step // the current step, or the last one reached
	StepNum        int           // 1-based, of StepCount
	StepCount      int
	OffNote        string // why the learner is off the path, if so
	// Typed: off the path only by what a "Try it yourself" asks after
	// this step (commands typed on the command line, waits): its notes,
	// which may have a second part, stay
	Typed         bool
	Answer        *Answer // this step's checkpoint, answered here
	Ask           *Ask    // the next step's checkpoint, asked here
	Nav           StepNav
	Final         bool            // the last step: the lesson is finished
	ChallengesURL string          // when Final: the lesson's challenges, if it has any
	NextLesson    *lessons.Lesson // offered when Final (nil: the last lesson)
	Steps         []StepLink
	Counter       *Counter // a Lab counterexample: its own frame replaces the step's dialog
	// Frame is a feature's own box in place of the step's dialog (a
	// challenge), with no checkpoint and no list of steps.
	Frame  templ.Component
	Follow bool // a student following a live class: no step links (the teacher moves)
	// Extra is what a page adds under the step's lines and notes, in
	// place of the step's own checkpoint (a live class's question)
	Extra templ.Component
}

// StepNav is the undo / reset / next row under the dialog.
type StepNav struct {
	UI                *i18n.UI
	UndoURL, ResetURL string // UndoURL "" at the start: undo is disabled
	// PrevURL is the guided step before this one ("" off the path or at
	// step 1): presenter mode's ← goes there once every line is taken
	// back, where Undo would take back only the step's last action and
	// leave the path (a projector's clicker has no other way back).
	PrevURL          string
	NextURL, NextLbl string // NextURL "" when there is no link (a checkpoint asks instead)
}

// StageProps is the right column: the timeline and everything that acts on
// it or exports it.
type StageProps struct {
	UI         *i18n.UI
	Picture    *picture.Picture
	Violations Violations
	Controls   Controls
	Options    OptionsForm
	LabURL     string // the Lab on this design
	DesignURL  string // "bring your own lock", from this design where it has one
	Log        EventLog
	Share      ShareBox
	Files      Downloads
	Follow     bool // a student following a live class: no controls, variants or share box, which would lead out of it
	// Make turns the timeline into a challenge (nil: it shows no failure,
	// or the page is one already)
	Make *MakeForm
}

// MakeForm is "Make this a challenge": a GET form to the challenges'
// maker with the timeline and a choice of the kinds it shows.
type MakeForm struct {
	UI              *i18n.UI
	Action          string
	Lesson, Do, Opt string
	Kinds           []site.Choice
	// Design and Clients: a design run's design (links.DesignToken) and
	// its number of clients, where the timeline is one (Lesson is then
	// links.DesignSlug)
	Design  string
	Clients int
}

// ChallengeRoom is a live class's hold on a challenge page: the address
// the page's moves and answers go to, and what a solved or answered page
// adds for the class (the form that tells it). web/class makes one and
// web/challenge honours it; the two features meet here, in the view API.
type ChallengeRoom struct {
	URL    string
	Report func(Verdict) templ.Component
	// Ask, if set, is the form a predict challenge's question is
	// answered with in the class (the answer recorded as it is sent), in
	// place of the page's own form (which shows the verdict at once)
	Ask templ.Component
	// Back and BackText lead back to the class's page
	Back, BackText string
}

// Verdict is what a challenge page found of the learner's play, as a
// class counts it.
type Verdict struct {
	Solved   bool // the goal shown, the fix earned, the prediction right
	Answered bool // a prediction made, right or wrong
	Moves    int  // break: the moves after which the goal first showed
	Par      int  // break: the explorer's shortest
	// Query is the state judged, as the page's address holds it: what a
	// form that reports the verdict sends back to be judged again.
	Query string
}

// ChallengeKind names a kind of challenge in u's words (Break it, Fix
// it, Can it break?): the challenge pages and a class's bar say it alike.
func ChallengeKind(u *i18n.UI, t lessons.ChallengeType) string {
	switch t {
	case lessons.Break:
		return u.Chal.Break
	case lessons.Fix:
		return u.Chal.Fix
	}
	return u.Chal.Predict
}

// ChallengeIDs are the challenges' ids, space-separated (what app.js
// counts).
func ChallengeIDs(chs []*lessons.Challenge) string {
	var ids []string
	for _, ch := range chs {
		ids = append(ids, ch.ID)
	}
	return strings.Join(ids, " ")
}

// DesignMakeForm is "Make this a challenge" on a design run's timeline
// tl: design is its links.DesignToken (nil if tl shows no failure).
func DesignMakeForm(u *i18n.UI, design string, tl *sim.Timeline) *MakeForm {
	f := makeForm(u, &lessons.Lesson{Slug: links.DesignSlug, Scenario: tl.Scenario}, URLStateOf(tl.Scenario, tl.Opts, tl.Actions), tl)
	if f != nil {
		f.Design, f.Clients, f.Opt = design, len(tl.Scenario.Clients), ""
	}
	return f
}

// makeForm offers each kind of failure tl shows as a goal, the worst
// first checked (nil if it shows none).
func makeForm(u *i18n.UI, l *lessons.Lesson, st URLState, tl *sim.Timeline) *MakeForm {
	var kinds []sim.ViolationKind
	for _, v := range tl.Violations {
		if !slices.Contains(kinds, v.Kind) {
			kinds = append(kinds, v.Kind)
		}
	}
	if len(kinds) == 0 {
		return nil
	}
	f := &MakeForm{UI: u, Action: links.Challenges(u.Lang) + "/make", Lesson: l.Slug, Do: st.Do(), Opt: st.Opt()}
	for _, k := range sim.Kinds {
		if slices.Contains(kinds, k) {
			f.Kinds = append(f.Kinds, site.Choice{Value: string(k), Label: u.Failures[k].Name, Checked: len(f.Kinds) == 0})
		}
	}
	return f
}

// Controls are the learner's buttons: per client, time, per node.
type Controls struct {
	UI *i18n.UI
	// Embed: the panel is inside another site's frame (EmbedView): its
	// links replace the frame's address instead of adding to the
	// history the page around it shares, and there is no play button
	// (app.js, which runs it, is the site's).
	Embed bool
	// NoTime: no time controls at all (a challenge where time passes
	// only within a pause: its waits are offered while one lasts, and
	// playing time would be a move it refuses)
	NoTime bool
	// Anchor, where set, ends every control's plain link ("#moves"):
	// without JavaScript the page it loads opens at the controls, not
	// at its top (a break challenge played on a phone)
	Anchor string
	// Note is a feature's line at the top of the controls (a break
	// challenge's moves against par, and whether it is solved)
	Note    templ.Component
	Clients []ClientControls
	Waits   []Control
	Nodes   []ClientControls // node faults the lesson offers
	CLI     CommandLine
}

// CommandLine is the timeline's own redis-cli: a plain GET form that
// sends the state it was typed on with the command (cli=, node=), which
// the lesson folds into one more action (FoldCommandField).
type CommandLine struct {
	Base, Do, Opt string
	// EditorJS is the editor bundle, loaded when the line is first
	// focused; the names it completes are sentCommands.
	EditorJS string
	// Nodes are the servers it can send to, the first chosen; with one,
	// the form shows no choice.
	Nodes []site.Choice
	// Model: the lock lives in a modelled service, so only the storage
	// takes commands, and the form says why.
	Model bool
	// Hint says where a command goes on this timeline, with examples.
	Hint Hint
	// Refused: the line the command line just refused, kept in the
	// input, and why (nil: none).
	Refused *Refusal
	// History is the commands typed on this timeline, oldest first (Up
	// and Down bring them back).
	History []string
	// Carry are more fields the form sends back as they are: a design
	// run's design and clients.
	Carry []Field
}

// Field is a form field's name and value.
type Field struct{ Name, Value string }

// OptionsForm is the variants form: it keeps the actions (Do) and submits
// the chosen options.
type OptionsForm struct {
	UI     *i18n.UI
	Base   string // the lesson's path
	Do     string
	Groups []OptionGroup
}

// EventLog is the table of events and the scripts it names.
type EventLog struct {
	UI      *i18n.UI
	Rows    []Row
	Scripts []Script
}

// ShareBox is "share this moment": the absolute link, its QR code and
// the form that starts a live class here.
type ShareBox struct {
	UI         *i18n.UI
	URL, QRURL string
	Teach      TeachForm
	// Title and Hint head the box ("": a timeline's, Share and ShareHint)
	Title, Hint string
	// Embed is the moment's embed snippets (nil: a page that is no
	// timeline, as the design page's grade).
	Embed *Snippets
}

// Snippets are what the share box offers to paste into another site: an
// iframe of the live embed, Markdown of the picture (PNG) linking to the
// moment, and the embed's address. Every address in them is absolute.
type Snippets struct {
	IFrame, Markdown string
	// Embed is the embed's own address, for tools that ask for one.
	Embed string
}

// SnippetsFor are the snippets of a moment: page and embed its absolute
// addresses, png its picture's, title what it is.
func SnippetsFor(u *i18n.UI, page, embed, png, title string) *Snippets {
	return &Snippets{Embed: embed, IFrame: site.IFrame(embed, title, site.EmbedWidth, site.EmbedHeight),
		Markdown: "[![" + mdEscape(i18n.Fill(u.Embed.Image, title)) + "](" + mdURL(png) + ")](" + mdURL(page) + ")"}
}

// mdURL keeps an address from ending a Markdown link early: a design
// run's own scripts can put parentheses, spaces or angle brackets in it.
func mdURL(s string) string {
	return strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E").Replace(s)
}

// mdEscape keeps a title from closing a Markdown image's alt text.
func mdEscape(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`).Replace(s)
}

// QR codes a phone reads off a screen: up to qrLarge characters at the
// usual size, up to qrMost drawn larger, beyond that none (a design run
// with its own scripts can have a 3 KB address: a code of 1.7 px a
// module that no camera reads, or none at all).
const qrLarge, qrMost = 300, 800

// QR is how the share box shows the address's QR code: "" (the usual
// size), "large", or "none" (too long: the link only, and why).
func (s ShareBox) QR() string {
	switch {
	case len(s.URL) > qrMost:
		return "none"
	case len(s.URL) > qrLarge:
		return "large"
	}
	return ""
}

// Warn is why the address will not open elsewhere (this machine's own),
// "" when it will.
func (s ShareBox) Warn() string {
	if h := site.LoopbackHost(s.URL); h != "" {
		return i18n.Fill(s.UI.ShareLoopback, h)
	}
	return ""
}

// TeachForm starts a live class at this lesson and state (none: Slug "",
// as on a page that is already a class).
type TeachForm struct {
	UI            *i18n.UI
	Slug, Do, Opt string
}

// Downloads are the SVG and JSON links under the stage.
type Downloads struct {
	UI                                     *i18n.UI
	SVGURL, PNGURL, JSONURL, LessonJSONURL string
	FileName                               string // without extension
}

// Pager links the lessons before and after this one.
type Pager struct {
	UI         *i18n.UI
	Prev, Next *lessons.Lesson
}

// Ask is the next step's checkpoint, asked on this page: a GET form that
// leads to the next step (hidden do and opt) with the learner's guess.
type Ask struct {
	*lessons.Checkpoint
	UI      *i18n.UI
	Base    string // the lesson's path: the form's action
	Do, Opt string // the next step's state, as hidden fields
	SkipURL string // the next step without a guess
}

// Answer is this step's checkpoint on the page that reveals it.
type Answer struct {
	*lessons.Checkpoint
	Guess   int // 1-based; 0 when the learner did not guess
	Picked  lessons.Choice
	Right   bool
	Correct []lessons.Choice
	// Open: with no guess, the answer is shown, not folded (a class's
	// reveal: the room reads it together)
	Open bool
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
func (a *Answer) Word(u *i18n.UI) string {
	if a.Right {
		return u.Right
	}
	return u.Wrong
}

func AnswerOf(cp *lessons.Checkpoint, guess int) *Answer {
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
	// Adds is the action the link adds to the timeline (what a challenge
	// checks against its bounds before it offers the link)
	Adds sim.Action
}

// ClientControls are one client's buttons.
type ClientControls struct {
	ID, Name, State string
	Actions         []Control
}

// OptionGroup is one option as radio buttons.
type OptionGroup struct {
	Name, Label string
	Choices     []site.Choice
}

// Row is one line of the event log.
type Row struct {
	Num, Time, Who, To string
	Pre, Script, Post  string // the command, split around a script name
	Reply, Note, Class string
	// Cut says, before the reply, that it is shown in part (and how much
	// of how much): a long reply's note would sit past its end.
	Cut   string
	Model bool // from a labelled model, not a Redis server
}

// Script is a Lua script shown under the event log.
type Script struct {
	Name, Body string
	// Gist is the script's first comment in the page's language, where
	// it is not English (the body stays as Redis ran it).
	Gist string
}

// hasGist: some script has a translated gist beside its name.
func hasGist(ss []Script) bool {
	return slices.ContainsFunc(ss, func(s Script) bool { return s.Gist != "" })
}

// waits are the time controls offered everywhere.
var waits = []int64{1000, 5000, 10_000}

// View replays a placed lesson state (from the lesson page's URL, or from
// Place) and builds the props of every part of its page: the lesson
// page's view, and the view a class shows its teacher and students. r
// gives the page frame and the host of absolute links.
func (s *Handler) View(r *http.Request, rq *Request) (*LessonView, *site.Error) {
	tl, e := s.replay(r.Context(), rq)
	if e != nil {
		return nil, e
	}
	if n := rq.Clients; n > 0 && n < len(tl.Clients) {
		shown := *tl // a copy: the replay's timeline may be shared
		shown.Clients = tl.Clients[:n]
		tl = &shown
	}
	u, l, st := rq.UI, rq.L, rq.St
	base := rq.Base()
	v := &LessonView{Page: s.Frame(u, l.Title+" — "+u.SiteName, r)}
	v.Dialog = dialogProps(rq, v.Page)
	v.TeachForm = "teach-present-form" // the form in the stage's presenter box (hidden but submittable)
	v.Head = LessonHead{UI: u, Slug: l.Slug, Title: l.Title, Base: base, Here: base + rq.Canon, LessonNum: l.Order, StepNum: v.Dialog.StepNum}
	v.Head.Challenges, v.Head.ChallengesURL = ChallengeIDs(s.Course.ChallengesOf(l)), links.LessonChallenges(l)
	v.Head.Checkpoints = l.Checkpoints()
	v.Live = liveText(rq, v.Dialog)
	if rq.Exact && rq.Idx > 0 {
		v.Title = v.Dialog.Step.Title + " — " + l.Title + " — " + u.SiteName
	}
	if rq.Lab != "" {
		v.counterFrame(rq, tl)
	}
	prev, next := s.Course.Neighbours(l)
	v.Pager = Pager{UI: u, Prev: prev, Next: next}
	if v.Dialog.Final {
		v.Dialog.NextLesson = next
		if len(s.Course.ChallengesOf(l)) > 0 {
			v.Dialog.ChallengesURL = links.LessonChallenges(l)
		}
	}
	// the share box holds this page's canonical address (the one the
	// lesson page is served at; a class's view shows the same)
	here := base + rq.Canon
	qr := base + "/qr.svg" + rq.Canon
	pic := picture.Layout(tl, u, picture.FirstNew(tl))
	pic.Describe(tl, u, picture.FirstNew(tl))
	v.Stage = StageProps{
		UI:        u,
		Picture:   pic,
		Controls:  ControlsOf(u, rq.NavBase(), st, tl),
		Options:   OptionsForm{UI: u, Base: rq.NavBase(), Do: st.Do(), Groups: OptionGroups(u, tl.Scenario, st.Opts)},
		LabURL:    links.Lab(l, st.Opts),
		DesignURL: links.Design(u.Lang, links.DesignFromLesson(tl.Scenario, st.Opts)),
		Log:       EventLogOf(u, tl),
		Share: ShareBox{UI: u, URL: s.Absolute(r, here), QRURL: qr,
			Teach: TeachForm{UI: u, Slug: l.Slug, Do: st.Do(), Opt: st.Opt()}},
		Files: Downloads{UI: u, SVGURL: base + "/timeline.svg" + st.Query(), JSONURL: base + "/timeline.json" + st.Query(),
			LessonJSONURL: base + ".json", FileName: "locklab-" + l.Slug + "-" + strconv.Itoa(len(st.Actions)) + "-actions"},
	}
	v.Stage.Controls.CLI.EditorJS = s.Assets.URL("vendor/editor.min.js")
	if f := rq.Refused; f != nil {
		cli := &v.Stage.Controls.CLI
		cli.Refused = f
		if slices.ContainsFunc(cli.Nodes, func(c site.Choice) bool { return c.Value == f.Node }) {
			for i := range cli.Nodes { // the server the line was for stays chosen
				cli.Nodes[i].Checked = cli.Nodes[i].Value == f.Node
			}
		}
	}
	v.Stage.Violations = ViolationsOf(u, tl)
	v.Stage.Make = makeForm(u, l, st, tl)
	v.Timeline = tl
	// the share box's embed, the PNG and the card keep lab=, as the page
	// does: a counterexample says it is one
	c := rq.Caption(tl, "")
	png := base + "/timeline.png" + rq.Canon
	v.Stage.Share.Embed = SnippetsFor(u, s.Absolute(r, here), s.Absolute(r, site.EmbedPath(base)+rq.Canon), s.Absolute(r, png), c.Name())
	v.Stage.Files.PNGURL = png
	v.Card = s.CardFor(r, c.Name(), CardText(u, tl, c.Source, pic.Step), base+"/card.png"+rq.Canon, c.Title+" — "+pic.Name)
	return v, nil
}

// dialogProps places the state on the guided path and picks the dialog to
// show: the step it is, or the last one it passed.
func dialogProps(rq *Request, p site.Page) DialogProps {
	u, l, base, idx, exact := rq.UI, rq.L, rq.NavBase(), rq.Idx, rq.Exact
	before := false
	if !exact && idx >= 0 && l.Steps[idx].Opt != rq.St.Opt() {
		// The last step passed is under other options (an Undo on a
		// "What if…" step): its title would name another design than the
		// one on screen ("What if the storage did not check tokens?" over
		// a storage that checked them), and the step of these options it
		// leads to tells of actions not taken yet. The page is placed
		// before that step, under the lesson's own title.
		idx, before = l.Ahead(rq.St.Do(), rq.St.Opt()), true
	}
	shown := max(idx, 0)
	d := DialogProps{UI: u, Chick: p.Chick, Penguin: p.Penguin, Step: &l.Steps[shown], StepNum: shown + 1, StepCount: len(l.Steps)}
	if before {
		d.Step = &lessons.Step{Title: l.Title}
	}
	d.Nav = StepNav{UI: u, ResetURL: links.Start(l)}
	if rq.Nav != "" {
		d.Nav.ResetURL = rq.Nav + links.Query(l.Steps[0].Do, l.Steps[0].Opt)
	}
	if len(rq.St.Actions) > 0 {
		d.Nav.UndoURL = base + rq.St.Undo().Query()
	}
	if exact && idx > 0 {
		prev := l.Steps[idx-1]
		d.Nav.PrevURL = base + links.Query(prev.Do, prev.Opt)
	}
	var nextURL string
	switch {
	case exact && idx+1 < len(l.Steps):
		next := l.Steps[idx+1]
		nextURL, d.Nav.NextLbl = base+links.Query(next.Do, next.Opt), u.NextStep
	case exact:
		d.Final = true
	default:
		if before && idx >= 0 {
			d.OffNote = i18n.Fill(u.OffPathBefore, itoa(int64(idx+1)))
		} else if idx >= 0 {
			d.OffNote = i18n.Fill(u.OffPath, itoa(int64(idx+1)))
		} else {
			d.OffNote = u.OffPathNone
		}
		back := l.Steps[shown]
		d.Typed = idx >= 0 && typedAfter(rq.St, back)
		if a := l.Ahead(rq.St.Do(), rq.St.Opt()); a >= 0 {
			back = l.Steps[a] // an Undo's way back is the step it left
		}
		nextURL, d.Nav.NextLbl = base+links.Query(back.Do, back.Opt), u.BackToPath
	}
	for i, st := range l.Steps {
		d.Steps = append(d.Steps, StepLink{Num: i + 1, Title: st.Title, URL: base + links.Query(st.Do, st.Opt),
			Current: exact && i == idx, Done: i < shown && !(before && i == shown-1)})
	}
	if exact {
		if cp := l.Steps[idx].Checkpoint; cp != nil {
			d.Answer = AnswerOf(cp, rq.Guess)
		}
		if idx+1 < len(l.Steps) && l.Steps[idx+1].Checkpoint != nil {
			next := l.Steps[idx+1]
			d.Ask = &Ask{UI: u, Checkpoint: next.Checkpoint, Base: base, Do: next.Do, Opt: next.Opt, SkipURL: nextURL}
		}
	}
	if d.Ask == nil {
		d.Nav.NextURL = nextURL // a checkpoint's form is the way on instead
	}
	return d
}

// typedAfter: state st is step's state plus commands typed on the
// command line and waits, and nothing else (same options, every later
// action one of those).
func typedAfter(st URLState, step lessons.Step) bool {
	if st.Opt() != step.Opt {
		return false
	}
	for k := 0; k < len(st.Actions); k++ {
		if sim.FormatActions(st.Actions[:k]) != step.Do {
			continue
		}
		for _, a := range st.Actions[k:] {
			if a.Verb != sim.VerbCLI && a.Verb != sim.VerbWait {
				return false
			}
		}
		return true
	}
	return false
}

// liveText is what the live region announces after a swap: the step and
// the verdict on a guess, or why the learner is off the path.
func liveText(rq *Request, d DialogProps) string {
	if !rq.Exact {
		return d.OffNote
	}
	u := rq.UI
	live := u.Step + " " + itoa(int64(rq.Idx+1)) + " " + u.Of + " " + itoa(int64(d.StepCount)) + u.LabelSep() + d.Step.Title
	if d.Answer != nil && rq.Guess > 0 {
		live += " — " + d.Answer.Mark() + " " + d.Answer.Word(u)
	}
	return live
}

// ControlsOf builds every link the learner can follow from this state.
func ControlsOf(u *i18n.UI, base string, st URLState, tl *sim.Timeline) Controls {
	c := Controls{UI: u}
	for _, cl := range tl.Clients {
		cc := ClientControls{ID: cl.ID, Name: i18n.Fill(u.Client, strings.ToUpper(cl.ID)), State: narrate.State(u, tl, cl)}
		if narrate.ShowsToken(cl) {
			cc.State += " · " + unbroken(i18n.Fill(u.Token, itoa(cl.Token)))
		}
		if cl.ValidUntil > 0 && cl.State == sim.StateHolding {
			cc.State += " · " + unbroken(narrate.Validity(u, cl.ValidUntil, tl.Now))
		}
		for _, verb := range tl.Allowed[cl.ID] {
			cc.Actions = append(cc.Actions, verbControl(u, base, st, cl.ID, verb, cl.Pending))
		}
		c.Clients = append(c.Clients, cc)
	}
	for _, n := range tl.Nodes {
		allowed := tl.NodeAllowed[n.Name]
		if len(allowed) == 0 {
			continue
		}
		nc := ClientControls{ID: n.Name, Name: narrate.NodeLabel(u, n.Name), State: narrate.NodeState(u, n)}
		for _, verb := range allowed {
			nc.Actions = append(nc.Actions, verbControl(u, base, st, n.Name, verb, ""))
		}
		c.Nodes = append(c.Nodes, nc)
	}
	c.CLI = CommandLine{Base: base, Do: st.Do(), Opt: st.Opt(), Model: tl.Scenario.Coord, Hint: cliHint(u, tl)}
	for i, n := range tl.Scenario.OperatorNodes() {
		c.CLI.Nodes = append(c.CLI.Nodes, site.Choice{Value: n, Label: narrate.Who(n, u), Checked: i == 0})
	}
	for _, a := range st.Actions {
		if a.Verb == sim.VerbCLI {
			c.CLI.History = append(c.CLI.History, rediscli.ShowCommand(a.Cmd))
		}
	}
	for _, ms := range waits {
		a := sim.Action{Verb: sim.VerbWait, Ms: ms}
		c.Waits = append(c.Waits, Control{ID: "wait-" + sim.FormatDuration(ms), Label: i18n.Fill(u.Verb[sim.VerbWait], sim.FormatDuration(ms)),
			URL: base + st.With(a).Query(), Adds: a})
	}
	return c
}

// before and after are a one-slot template's words around its {0}, for a
// page that puts markup there (a checkpoint's choice).
func before(t string) string { b, _, _ := strings.Cut(t, "{0}"); return b }
func after(t string) string  { _, a, _ := strings.Cut(t, "{0}"); return a }

// cliHint says where a typed command goes on this timeline and what is
// worth trying there: the lock key where a Redis server holds it, the
// storage's own keys (a token, a ledger).
func cliHint(u *i18n.UI, tl *sim.Timeline) Hint {
	sc := tl.Scenario
	to := u.CLI.ToOne
	var tries, on []string
	nodes := sc.OperatorNodes()
	switch {
	case sc.Coord:
		to = u.CLI.ToStorage
	case len(nodes) > 1:
		to = u.CLI.ToMany
	}
	// each example names the server it is for when there is a choice: the
	// record lives on the storage, not on the lock's Redis
	where := func(node string) string {
		if len(nodes) > 1 {
			return u.Paren(narrate.Who(node, u))
		}
		return ""
	}
	if !sc.Coord && tl.Opts[sim.OptLock] != sim.LockLocal {
		tries = append(tries, "PTTL "+sc.LockKey(), "DEL "+sc.LockKey())
		on = append(on, where(nodes[0]), where(nodes[0]))
	}
	if sc.Storage == sim.StoreCharges {
		tries = append(tries, "LRANGE "+sc.ChargesKey()+" 0 -1")
	} else {
		tries = append(tries, "GET "+sc.DataKey(), "GET "+sc.TokenKey())
	}
	for len(on) < len(tries) {
		on = append(on, where(sim.NodeStorage))
	}
	before, after, _ := strings.Cut(i18n.Fill(u.CLI.Hint, to, "\x00"), "\x00")
	return Hint{Before: before, Tries: tries, On: on, Sep: u.Language().ListSep, After: after}
}

// cliBounds says how small the servers are set up (sim/redisfront): a
// learner who meets Redis's own proto-max-bulk-len or OOM error knows
// why.
func cliBounds(u *i18n.UI) string {
	return i18n.Fill(u.CLI.Bounds, strconv.Itoa(redisfront.MaxValue>>20)+" MB", strconv.Itoa(redisfront.MaxMemory>>20)+" MB",
		strconv.Itoa(rediscli.MaxCommandArgs), strconv.Itoa(rediscli.MaxCommandLen))
}

// boundNote explains, on a row, Redis's error past one of the servers'
// bounds ("" for any other reply).
func boundNote(u *i18n.UI, r rediscli.Reply) string {
	switch {
	case r.Kind != rediscli.ReplyError:
		return ""
	case strings.Contains(r.Str, redisfront.ErrTooLong):
		return u.CLI.ValueNote
	case strings.Contains(r.Str, redisfront.ErrOOM):
		return u.CLI.MemoryNote
	}
	return ""
}

// Hint is the command line's hint: its words around commands worth
// trying, which the page shows as code.
type Hint struct {
	Before, After, Sep string
	Tries              []string
	On                 []string // after each try, the server it is for ("" where there is one)
}

// Render writes the hint with nothing between its words and its code but
// what the catalog put there: a template's line breaks would add spaces,
// which Japanese and Chinese do not put around a word.
func (h Hint) Render(_ context.Context, w io.Writer) error {
	var b strings.Builder
	b.WriteString(html.EscapeString(h.Before))
	for i, t := range h.Tries {
		if i > 0 {
			b.WriteString(html.EscapeString(h.Sep))
		}
		b.WriteString("<code>" + html.EscapeString(t) + "</code>")
		if i < len(h.On) {
			b.WriteString(html.EscapeString(h.On[i]))
		}
	}
	b.WriteString(html.EscapeString(h.After))
	_, err := io.WriteString(w, b.String())
	return err
}

// unbroken keeps a short phrase ("token 1", 「トークン 1」) on one line:
// its spaces become no-break spaces.
func unbroken(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }

// verbControl is the link that has who do verb, with the duration its
// entry offers; the label names that duration, or else what (for a
// client stopped between two commands, the command next sends).
func verbControl(u *i18n.UI, base string, st URLState, who, verb, what string) Control {
	spec, _ := sim.Spec(verb)
	a := sim.Action{Who: who, Verb: verb, Ms: spec.Default}
	if a.Ms > 0 {
		what = sim.FormatDuration(a.Ms)
	}
	label := narrate.VerbWord(u, st.sc, verb)
	return Control{ID: "do-" + who + "-" + verb, Label: i18n.Fill(label, what),
		URL: base + st.With(a).Query(), Class: "verb-" + verb, Adds: a}
}

// OptionGroups are the variants form's radio groups (the lesson page's and
// the Lab's), with opts checked.
func OptionGroups(u *i18n.UI, sc *sim.Scenario, opts sim.Opts) []OptionGroup {
	var out []OptionGroup
	for _, spec := range sc.Options {
		if len(spec.Values) < 2 {
			continue // a fixed setting of the lesson, nothing to choose
		}
		g := OptionGroup{Name: spec.Name, Label: u.OptionLabel[spec.Name]}
		for _, val := range spec.Values {
			g.Choices = append(g.Choices, site.Choice{Value: val, Label: optionLabel(u, spec.Name, val), Checked: opts[spec.Name] == val})
		}
		out = append(out, g)
	}
	return out
}

func optionLabel(u *i18n.UI, name, val string) string {
	if l, ok := u.OptionValue[name+"."+val]; ok {
		return l
	}
	return name + "." + val
}

// EventLogOf turns events into table rows, and collects the scripts used.
func EventLogOf(u *i18n.UI, tl *sim.Timeline) EventLog {
	log := EventLog{UI: u}
	from := picture.FirstNew(tl)
	violated := map[int]bool{}
	for _, x := range tl.Violations {
		violated[x.Event] = true
	}
	scripts := map[string]string{} // name → the body as sent
	for _, e := range tl.Events {
		n := narrate.Of(u, e) // who and the outcome, as every surface says them
		row := Row{Num: itoa(int64(e.Seq + 1)), Time: sim.FormatMS(e.At), Who: n.Actor}
		switch e.Kind {
		case sim.KindCommand:
			row.To = e.Node
			show := rediscli.ShowCommand // as redis-cli reads it: pasted, it sends the same
			cmd := e.Command
			if e.Model {
				cmd = narrate.ModelCommand(u, cmd)
				show = func(c []string) string { return strings.Join(c, " ") }
			}
			if e.Script != "" {
				row.Pre, row.Script, row.Post = cmd[0], e.Script, show(cmd[2:])
				if _, seen := scripts[e.Script]; !seen && len(e.Command) > 1 {
					scripts[e.Script] = e.Command[1]
				}
			} else {
				row.Pre = show(cmd)
			}
			row.Reply, row.Cut = narrate.ReplyParts(u, e)
			row.Note = u.Purpose[e.Purpose]
			for _, note := range []string{boundNote(u, e.Reply), narrate.WordingNote(u, e)} {
				if note != "" {
					row.Note = strings.TrimPrefix(row.Note+" · "+note, " · ")
				}
			}
			if e.Purpose == "ttl" && (e.Reply.IsInt(-1) || e.Reply.IsInt(-2)) {
				row.Note = u.Purpose["ttl"+e.Reply.String()[len("(integer) "):]] // what -1 and -2 mean
			}
			if e.Accepted != nil {
				row.Note = narrate.Verdict(e, u)
				if !*e.Accepted && !narrate.AlreadyDone(e) {
					row.Class = "rejected"
				}
			}
			switch {
			case e.Refused:
				row.Reply, row.Cut, row.Note, row.Class = "", "", u.Refused, row.Class+" refused"
			case e.Lost:
				row.Note += " · " + i18n.Fill(u.LostReply, strings.ToUpper(e.Actor))
				row.Class += " lost"
			}
			row.Model = e.Model
			if e.Model && !n.Message {
				// a happening in a model (a connection lost or back, a
				// session ending, a watch firing): nothing was sent to a
				// server, so no prompt before it
				row.To = ""
			}
		case sim.KindExpired:
			row.Note = n.What + u.Paren(e.Key)
			row.Class = "expired"
		case sim.KindRedlock: // the client's own arithmetic, not a command
			row.Note, row.Model = u.Purpose["acquire"]+u.LabelSep()+n.What, true
		default: // what a client or the learner did, or a node fault: the narration's words
			row.Note = n.What
			row.Model = e.Kind == sim.KindLocal || e.Kind == sim.KindLocalUnlock || e.Kind == sim.KindNode
		}
		if violated[e.Seq] {
			row.Class += " violation"
			for _, x := range tl.Violations {
				if x.Event == e.Seq {
					row.Note += " ⚠ " + narrate.ViolationText(u, x)
				}
			}
		}
		if e.Seq >= from {
			row.Class += " new"
		}
		log.Rows = append(log.Rows, row)
	}
	names := make([]string, 0, len(scripts))
	for n := range scripts {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		first, _, _ := strings.Cut(scripts[n], "\n")
		_, comment, _ := strings.Cut(first, ": ")
		log.Scripts = append(log.Scripts, Script{Name: n, Body: scripts[n], Gist: u.ScriptGists[comment]})
	}
	return log
}

// itoa writes an integer for a page (the templates' numbers).
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// sentCommands are the command line's names as its editor completes them
// (data-commands): the same on every page, so encoded once.
var sentCommands = jsonList(sim.SentCommands())

// jsonList is a list of strings as a JSON array, for a data- attribute.
func jsonList(xs []string) string {
	if xs == nil {
		xs = []string{}
	}
	b, _ := json.Marshal(xs) // strings always encode
	return string(b)
}

// Violations is the "what went wrong" box: each failure with its instant
// and its class (sim/kinds.go), so what every lease allows is told apart
// from harm and from a failed lock, in the box as in the Lab's verdict.
type Violations struct {
	UI    *i18n.UI
	Lines []ViolationLine
	// Allowed: every line is what any lease allows; the box says so
	// without the alarm of harm.
	Allowed bool
}

// ViolationLine is one failure in the box.
type ViolationLine struct {
	Text, Class, Severity string
}

// ViolationsOf is tl's box in u's words.
func ViolationsOf(u *i18n.UI, tl *sim.Timeline) Violations {
	v := Violations{UI: u, Allowed: true}
	for _, x := range tl.Violations {
		c := sim.ClassOf(x.Kind)
		v.Lines = append(v.Lines, ViolationLine{Text: sim.FormatMS(x.At) + " — " + narrate.ViolationText(u, x),
			Class: i18n.Fill(u.Verdict.ClassNote, u.Verdict.Class[c]), Severity: findings.Severity(c)})
		v.Allowed = v.Allowed && c == sim.ClassAllowed
	}
	return v
}

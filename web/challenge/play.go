// play.go serves the three kinds of challenge page: break (a lesson
// timeline with the challenge's frame), fix (the design's choices and
// the explorer's verdict) and predict (yes or no, then the explorer's
// answer).

package challenge

import (
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/explore"
	"locklab/web/i18n"
	"locklab/web/lesson"
	"locklab/web/links"
	"locklab/web/picture"
	"locklab/web/site"
)

// Frame is a break challenge's box, in place of a lesson step's dialog.
type Frame struct {
	Info
	Moves, Par int
	// Solved is the number of moves after which the timeline first shows
	// the goal (0: not yet).
	Solved int
	ParURL string // the par solution, opened here
	Status string // what the live region announces
}

// redirect sends the request to the canonical form of its address (htmx
// is told which URL to show, as a lesson page tells it).
func redirect(w http.ResponseWriter, r *http.Request, target string) {
	if r.Header.Get("HX-Request") == "true" {
		w.Header().Set("HX-Location", `{"path":"`+target+`","target":"#lab","select":"#lab","swap":"outerHTML show:none"}`)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// breakPage serves a break challenge at the timeline its do= says: the
// lesson's own view of it, every link led back here, the design fixed
// (the challenge's), and the moves checked against the bounds.
func (s *Handler) breakPage(w http.ResponseWriter, r *http.Request, u *i18n.UI, ch *lessons.Challenge, room *lesson.ChallengeRoom) {
	if s.only(w, r, u, ch, "do", "opt") {
		return
	}
	v, _, canon, e := s.breakView(r, u, ch, r.URL.Query().Get("do"), room)
	switch {
	case e != nil:
		s.Fail(w, r, u, e)
		return
	case canon != "":
		redirect(w, r, canon)
		return
	}
	c := lesson.LessonPage(v)
	if r.Header.Get("HX-Request") == "true" && r.Header.Get("HX-History-Restore-Request") != "true" {
		c = lesson.LessonFragment(v)
	}
	s.Render(w, r, c)
}

// breakView is a break challenge at timeline do, judged: its page, or
// the canonical address to go to instead, or what is wrong with do.
func (s *Handler) breakView(r *http.Request, u *i18n.UI, ch *lessons.Challenge, do string, room *lesson.ChallengeRoom) (*lesson.LessonView, *Frame, string, *site.Error) {
	in := s.infoIn(u, ch, room)
	here := in.Play
	rq := s.lessons.Place(u, ch.Lesson, do, ch.Opt, here)
	rq.Clients = ch.Bounds.Clients // the others take no part: no lane for them
	if rq.Err != nil {
		e := rq.Err
		e.Recover, e.RecoverText = here, u.Chal.Start
		return nil, nil, "", e
	}
	if canon := rq.St.Query(); !site.SameQuery("?"+r.URL.RawQuery, canon) && (r.URL.RawQuery != "" || canon != "") && r.Method == http.MethodGet {
		return nil, nil, here + canon, nil
	}
	v, e := s.lessons.View(r, rq)
	if e != nil {
		e.Recover, e.RecoverText = here, u.Chal.Start
		return nil, nil, "", e
	}
	sc := ch.Lesson.Scenario
	if err := ch.Config(ch.Opts).Within(rq.St.Actions); err != nil {
		var me *explore.MoveError
		if !errors.As(err, &me) {
			return nil, nil, "", site.Internal(u, err)
		}
		e := badRequest(u, moveText(u, sc, me), here+rq.St.Prefix(me.Index).Query())
		e.Title, e.RecoverText = u.Chal.Refused, u.Chal.BackLast
		if me.Index == 0 {
			e.RecoverText = u.Chal.Start // no move of theirs to go back to
		}
		return nil, nil, "", e
	}
	res, e := s.Search(r, u, ch, ch.Opts)
	if e != nil {
		return nil, nil, "", e
	}
	best := res.Found[ch.Goal]
	if best == nil && ch.Made() {
		// made from a timeline whose way there is no move of the explorer's
		e := badRequest(u, i18n.Fill(u.Chal.MadeNone, u.Failures[ch.Goal].Name), in.LessonURL)
		e.RecoverText = u.Chal.BackLesson
		return nil, nil, "", e
	}
	if best == nil {
		return nil, nil, "", site.Internal(u, errNoPar)
	}
	f := &Frame{Info: in, Moves: len(rq.St.Actions), Par: len(best.Shortest),
		ParURL: in.URL + links.Query(sim.FormatActions(best.Shortest), ch.Opt)}
	for _, x := range v.Timeline.Violations {
		if x.Kind == ch.Goal {
			f.Solved = x.Step + 1
			break
		}
	}
	f.Status = i18n.Fill(u.Chal.NotYet, u.Failures[ch.Goal].Name)
	switch {
	case f.Moves == 0:
		f.Status = i18n.Fill(u.Chal.Begin, itoa(f.Par))
	case f.Solved > 0 && f.Solved <= f.Par:
		f.Status = i18n.Fill(u.Chal.SolvedPar, itoa(f.Solved), u.Failures[ch.Goal].Name)
	case f.Solved > 0:
		f.Status = i18n.Fill(u.Chal.Solved, itoa(f.Solved), itoa(f.Par), u.Failures[ch.Goal].Name)
	}
	if room != nil && f.Solved > 0 {
		f.Report = room.Report(lesson.Verdict{Solved: true, Moves: f.Solved, Par: f.Par, Query: rq.St.Query()})
	}
	s.frame(r, v, f, rq)
	return v, f, "", nil
}

// frame turns the lesson view into the challenge's page: the frame in
// place of the step's dialog, no way along the guided path, no variants
// (the design is the challenge's), the share box holding the challenge's
// address, and nothing recorded as the learner's place in the lesson.
func (s *Handler) frame(r *http.Request, v *lesson.LessonView, f *Frame, rq *lesson.Request) {
	u := f.UI
	d := &v.Dialog
	d.Frame = ChallengeFrame(f)
	d.Ask, d.Answer, d.Counter, d.Steps = nil, nil, nil, nil
	d.Nav.NextURL, d.Final, d.NextLesson = "", false, nil
	d.Nav.ResetURL = f.Play + links.Query("", f.Ch.Opt)
	v.Title = f.Ch.Title + " — " + u.Chal.Title + " — " + u.SiteName
	v.Live = f.Status
	v.Head.Slug, v.Head.Here = "", f.Play+rq.St.Query()
	if f.Ch.Lesson.Slug == links.DesignSlug {
		// a design run's, not a lesson's: no lesson's Lab, files or
		// design page to lead to (the challenge's head links its design)
		v.Head.LessonNum, v.Head.Title = 0, f.UI.Design.Title
		v.Stage.LabURL, v.Stage.DesignURL, v.Stage.Files = "", "", lesson.Downloads{}
	}
	if f.Solved == 0 {
		// the Lab and the design page print the shortest counterexample,
		// which is the par solution: offered once the goal has shown
		v.Stage.LabURL, v.Stage.DesignURL = "", ""
	}
	v.Stage.Options.Groups = nil
	v.Stage.Make = nil                       // it is a challenge already
	v.Stage.Controls.CLI.Base = ""           // a typed command is no move of the explorer's: none here
	v.Stage.Share.Teach = lesson.TeachForm{} // a class poses a challenge from its own bar
	v.TeachForm = ""
	within(&v.Stage.Controls, f.Ch, rq.St.Actions)
	v.Stage.Controls.Anchor, v.Stage.Controls.Note = "#moves", movesNote(f)
	v.Stage.Share.URL = s.Absolute(r, f.URL+rq.St.Query())
	v.Stage.Share.QRURL = f.URL + "/qr.svg" + rq.St.Query()
	// A listed challenge embeds at /{lang}/embed/challenges/{id}; a made
	// one (its address is its definition) and a design's have no embed,
	// and a design's timeline no picture of its own to unfurl with.
	v.Stage.Share.Embed, v.Card = nil, nil
	if !f.Ch.Made() && f.Ch.Lesson.Slug != links.DesignSlug {
		png := f.URL + "/timeline.png" + rq.St.Query()
		c := challengeCaption(f)
		v.Stage.Share.Embed = lesson.SnippetsFor(u, v.Stage.Share.URL, s.Absolute(r, site.EmbedPath(f.URL)+rq.St.Query()), s.Absolute(r, png), c.Name())
		v.Stage.Files.PNGURL = png // the challenge's picture, captioned as it
		v.Stage.Files.SVGURL = f.URL + "/timeline.svg" + rq.St.Query()
		desc := lesson.CardText(u, v.Timeline, c.Source, v.Stage.Picture.Step)
		if f.Moves == 0 {
			desc = c.Source // the task, not an empty timeline's "nothing has happened"
		}
		v.Card = s.CardFor(r, f.Ch.Title+" — "+f.Num, desc, f.URL+"/card.png"+rq.St.Query(), f.Ch.Title+" — "+v.Stage.Picture.Name)
	}
}

// challengeCaption is what a break challenge's picture says of itself:
// its title; its number, its goal and how far the moves got.
func challengeCaption(f *Frame) picture.Caption {
	return picture.Caption{Title: f.Ch.Title, Source: f.Num + " · " + strings.TrimRight(f.Goal, ".。") + " — " + f.Status}
}

// TimelinePNG serves /{lang}/challenges/{id}/timeline.png: a break
// challenge's timeline at do= as a PNG, captioned as the challenge (its
// goal and how far the moves got), for its card, its Markdown snippet
// and its download link.
func (s *Handler) TimelinePNG(w http.ResponseWriter, r *http.Request) {
	s.picture(w, r, "timeline.png", "locklab-challenge.png")
}

// CardPNG serves /{lang}/challenges/{id}/card.png: the same picture
// fitted to a link card's shape, for the page's og:image.
func (s *Handler) CardPNG(w http.ResponseWriter, r *http.Request) {
	s.picture(w, r, "card.png", lesson.CardFile)
}

// TimelineSVG serves /{lang}/challenges/{id}/timeline.svg: the same
// picture as an SVG, for the page's "download for slides" link (it was
// the lesson's picture, captioned as the lesson, beside the challenge's
// PNG).
func (s *Handler) TimelineSVG(w http.ResponseWriter, r *http.Request) {
	s.picture(w, r, "timeline.svg", "locklab-challenge.svg")
}

// picture serves a break challenge's captioned picture at file (a
// timeline.png or .svg beside the page), downloaded as name.
func (s *Handler) picture(w http.ResponseWriter, r *http.Request, file, name string) {
	u, v, f, ok := s.breakAt(w, r, func(page string) string {
		path, query, _ := strings.Cut(page, "?")
		return links.WithQuery(path+"/"+file, query)
	})
	if !ok {
		return
	}
	lesson.ServePicture(w, r, s.Site, u, name, func() (*picture.Export, *site.Error) {
		c := challengeCaption(f)
		c.Address = s.Absolute(r, f.URL+"?"+r.URL.RawQuery)
		return picture.NewExport(v.Timeline, u, c), nil
	})
}

// breakAt is the break challenge r names at the state its do= says, for
// its embed and its picture: a fix or a predict challenge (a form, no
// timeline) is a 404 that says so, and a state in another spelling goes
// to its canonical one at the address canon makes of the challenge
// page's. It reports false if it answered the request itself.
func (s *Handler) breakAt(w http.ResponseWriter, r *http.Request, canon func(page string) string) (*i18n.UI, *lesson.LessonView, *Frame, bool) {
	u, ch, e := s.challengeOf(r)
	if e == nil && ch.Type != lessons.Break {
		e = &site.Error{Status: http.StatusNotFound, Title: u.NotFound, Code: "not-a-timeline",
			Text: i18n.Fill(u.Embed.NotTimeline, ch.Title), Recover: links.Challenge(u.Lang, ch.ID), RecoverText: u.Embed.Open}
	}
	if e != nil {
		s.Fail(w, r, u, e)
		return u, nil, nil, false
	}
	if s.only(w, r, u, ch, "do", "opt") {
		return u, nil, nil, false
	}
	v, f, to, e := s.breakView(r, u, ch, r.URL.Query().Get("do"), nil)
	switch {
	case e != nil:
		s.Fail(w, r, u, e)
		return u, nil, nil, false
	case to != "":
		redirect(w, r, canon(to))
		return u, nil, nil, false
	}
	return u, v, f, true
}

// within keeps, of the controls of the timeline played so far, only the
// moves the challenge allows next (what the explorer itself would try
// there), so no link the page offers is refused.
func within(c *lesson.Controls, ch *lessons.Challenge, played []sim.Action) {
	cfg := ch.Config(ch.Opts)
	keep := func(cs []lesson.Control) []lesson.Control {
		var out []lesson.Control
		for _, x := range cs {
			if cfg.Within(append(slices.Clip(played), x.Adds)) == nil {
				out = append(out, x)
			}
		}
		return out
	}
	for i := range c.Clients {
		c.Clients[i].Actions = keep(c.Clients[i].Actions)
	}
	for i := range c.Nodes {
		c.Nodes[i].Actions = keep(c.Nodes[i].Actions)
	}
	// a node with no move left is not listed (the timeline shows its
	// state): the list was five names under "What the nodes can do"
	// once the node faults were spent
	c.Nodes = slices.DeleteFunc(c.Nodes, func(n lesson.ClientControls) bool { return len(n.Actions) == 0 })
	c.Waits = keep(c.Waits)
	c.NoTime = len(c.Waits) == 0
}

// QR serves a challenge's QR code: the address of the page it is on.
func (s *Handler) QR(w http.ResponseWriter, r *http.Request) {
	u, ch, e := s.challengeOf(r)
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	s.qr(w, r, u, links.Challenge(u.Lang, ch.ID))
}

// qr answers with the QR code of the challenge page at path in the
// request's state.
func (s *Handler) qr(w http.ResponseWriter, r *http.Request, u *i18n.UI, path string) {
	w = lesson.PictureFile(w, "locklab-qr.svg")
	s.Cached(w, r, u, func() ([]byte, string, *site.Error) {
		q := r.URL.Query()
		return site.QRImage(u, s.Absolute(r, path+canonicalQuery("do", q.Get("do"), "opt", q.Get("opt"), "answer", q.Get("answer"))))
	})
}

// FixView is a fix challenge's page.
type FixView struct {
	site.Page
	Info
	Groups []lesson.OptionGroup // the design's choices, the learner's checked
	// Scripts: a design page's lock to fix (lessons.Challenge.Design):
	// its pieces as the learner edits them, in place of Groups; Keep the
	// design's other parameters (TTL, work, effect) the form sends back;
	// DesignPage the same design on the design page.
	Scripts    []ScriptField
	Keep       [][2]string // name, value
	DesignPage string
	// Checked: the learner has changed the design (the verdict is theirs,
	// not the broken start's).
	Checked bool
	Fixed   bool
	Found   []Found // what still fails, each with its shortest schedule
	Allowed []Found // what any lease allows, found too (not counted)
	States  int
	Depth   int
}

// Found is one kind a search found, with its shortest schedule opened as
// a lesson timeline.
type Found struct {
	Name, Meaning, URL string
	Moves              int
}

// fixPage serves a fix challenge: the learner's design (opt=, or the
// form's opt-<name> fields folded into it), searched within the bounds.
func (s *Handler) fixPage(w http.ResponseWriter, r *http.Request, u *i18n.UI, ch *lessons.Challenge, room *lesson.ChallengeRoom) {
	v, canon, e := s.fixView(r, u, ch, r.URL.Query(), room)
	switch {
	case e != nil:
		s.Fail(w, r, u, e)
	case canon != "":
		redirect(w, r, canon)
	default:
		s.Render(w, r, FixPage(v))
	}
}

// fixView is a fix challenge with the design q names, judged: its page,
// or the canonical address to go to instead, or what is wrong with q.
func (s *Handler) fixView(r *http.Request, u *i18n.UI, ch *lessons.Challenge, q url.Values, room *lesson.ChallengeRoom) (*FixView, string, *site.Error) {
	if ch.Design != "" {
		return s.designFixView(r, u, ch, q, room)
	}
	sc := ch.Lesson.Scenario
	in := s.infoIn(u, ch, room)
	here := in.Play
	if len(q["opt"]) > 1 {
		return nil, "", badRequest(u, i18n.Fill(u.Chal.BadParam, "opt"), here)
	}
	q = maps.Clone(q)
	if err := lesson.FoldOptionFields(q, sc); err != nil {
		return nil, "", designErr(u, err, here)
	}
	opt := q.Get("opt")
	opts, err := sc.ParseOptions(opt)
	if err != nil {
		return nil, "", designErr(u, err, here)
	}
	if !q.Has("opt") {
		opts = ch.Opts // the broken design is where the learner starts
	}
	canon := "?opt=" + sc.FormatOptions(opts)
	if sc.FormatOptions(opts) == ch.Opt {
		canon = ""
	}
	if r.Method == http.MethodGet && !site.SameQuery("?"+r.URL.RawQuery, canon) && (r.URL.RawQuery != "" || canon != "") {
		return nil, here + canon, nil
	}
	res, e := s.Search(r, u, ch, opts)
	if e != nil {
		return nil, "", e
	}
	v := &FixView{Page: s.Frame(u, ch.Title+" — "+u.Chal.Title+" — "+u.SiteName, r), Info: in,
		Groups: lesson.OptionGroups(u, sc, opts), Checked: canon != "", States: res.States, Depth: res.Depth}
	v.Info.Design = designWords(u, sc, opts)
	v.judge(u, res, room, canon, func(as []sim.Action) string { return timelineURL(ch, opts, as) })
	return v, "", nil
}

// judge fills v's verdict from the search res: what still fails and what
// any lease allows, each opened at run(its shortest schedule), fixed or
// not, and in a class (room) the form that tells it, for the design
// canon.
func (v *FixView) judge(u *i18n.UI, res *explore.Result, room *lesson.ChallengeRoom, canon string, run func([]sim.Action) string) {
	found := func(k sim.ViolationKind) Found {
		f := u.Failures[k]
		return Found{Name: f.Name, Meaning: f.Meaning, URL: run(res.Found[k].Shortest), Moves: len(res.Found[k].Shortest)}
	}
	for _, k := range failures(res) {
		v.Found = append(v.Found, found(k))
	}
	for _, k := range allowed(res) {
		v.Allowed = append(v.Allowed, found(k))
	}
	v.Fixed = len(v.Found) == 0
	if room != nil && v.Fixed && v.Checked {
		v.Report = room.Report(lesson.Verdict{Solved: true, Query: canon})
	}
}

// designErr is a fix page's design that cannot be read: the lesson's
// words for it, under the challenge's title and way back.
func designErr(u *i18n.UI, err error, here string) *site.Error {
	e := lesson.BadState(u, err, here, nil)
	e.Title, e.Recover, e.RecoverText = u.ErrorTitle, here, u.Chal.Start
	return e
}

// PredictView is a predict challenge's page.
type PredictView struct {
	site.Page
	Info
	Answer string // "yes", "no" or "" (not answered yet)
	// Can: the explorer's answer; Moves and URL its shortest schedule
	// when it can, States and Depth its complete search when it cannot.
	Can           bool
	Moves         int
	URL           string
	States, Depth int
}

// Right says whether the learner's answer is the explorer's.
func (v *PredictView) Right() bool { return (v.Answer == "yes") == v.Can }

// predictPage serves a predict challenge: the question, then, once
// answered (answer=yes or no), the explorer's answer.
func (s *Handler) predictPage(w http.ResponseWriter, r *http.Request, u *i18n.UI, ch *lessons.Challenge, room *lesson.ChallengeRoom) {
	if q := r.URL.Query(); q.Has("opt") {
		// its design is fixed and its address names none: an opt= (the
		// answer's own timeline link carries one) goes to the address,
		// as a break challenge's wrong opt= does
		q.Del("opt")
		to := r.URL.Path
		if len(q) > 0 {
			to += "?" + q.Encode()
		}
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	if s.only(w, r, u, ch, "answer") {
		return
	}
	v, e := s.predictView(r, u, ch, r.URL.Query(), room)
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	s.Render(w, r, PredictPage(v))
}

// predictView is a predict challenge with the answer q holds (if any),
// judged by the explorer.
func (s *Handler) predictView(r *http.Request, u *i18n.UI, ch *lessons.Challenge, q url.Values, room *lesson.ChallengeRoom) (*PredictView, *site.Error) {
	in := s.infoIn(u, ch, room)
	ans := q.Get("answer")
	if ans != "" && ans != "yes" && ans != "no" || q.Has("answer") && ans == "" || len(q["answer"]) > 1 {
		return nil, badRequest(u, i18n.Fill(u.Chal.BadParam, "answer="+url.QueryEscape(ans)), in.Play)
	}
	v := &PredictView{Page: s.Frame(u, ch.Title+" — "+u.Chal.Title+" — "+u.SiteName, r), Info: in, Answer: ans}
	// its card: the question, with no picture (an empty timeline says
	// "nothing has gone wrong", a hint; the answer is the page's)
	v.Card = s.CardFor(r, ch.Title+" — "+in.Num, in.Num+" · "+in.Goal, "", "")
	v.Card.OEmbed = ""
	if ans == "" {
		return v, nil
	}
	res, e := s.Search(r, u, ch, ch.Opts)
	if e != nil {
		return nil, e
	}
	v.States, v.Depth = res.States, res.Depth
	if f := res.Found[ch.Goal]; f != nil {
		v.Can, v.Moves, v.URL = true, len(f.Shortest), timelineURL(ch, ch.Opts, f.Shortest)
	}
	if room != nil {
		v.Report = room.Report(lesson.Verdict{Solved: v.Right(), Answered: true, Query: "?answer=" + ans})
	}
	return v, nil
}

// Embed serves /{lang}/embed/challenges/{id}: a break challenge's
// timeline inside another site's page, its goal and how far the moves
// got above the picture, the allowed moves as its controls (breakAt: a
// fix or a predict challenge has no embed).
func (s *Handler) Embed(w http.ResponseWriter, r *http.Request) {
	theme := site.ThemeOf(r)
	_, v, f, ok := s.breakAt(w, r, func(page string) string { return site.InEmbed(page, theme) })
	if !ok {
		return
	}
	ev := lesson.NewEmbedView(v.Page, v.Timeline, challengeCaption(f), v.Stage, s.Absolute(r, f.URL+"?"+r.URL.RawQuery),
		v.Dialog.Nav.UndoURL, theme)
	ev.Live = f.Status
	out := lesson.EmbedPage(ev)
	if r.Header.Get("HX-Request") == "true" {
		out = lesson.EmbedFragment(ev)
	}
	s.Render(w, r, out)
}

// run.go serves a design's counterexample: the schedule the
// explorer found, replayed as a timeline with the lesson page's picture,
// controls and event log, the learner's scripts in the log and under
// "scripts used". Its controls continue the same design's timeline.

package design

import (
	"errors"
	"locklab/web/lesson"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/narrate"
	"locklab/web/picture"
	"locklab/web/site"
)

// DesignRunView is the counterexample page.
type DesignRunView struct {
	site.Page
	D *i18n.DesignUI
	// RunTitle and BrokeHead name a counterexample only when the run
	// harmed the data or broke the lock (sim.Fails).
	RunTitle, BrokeHead string
	// Intro says what the run is: the design's scripts, or a library's
	// calls where the design holds a library's acquire and release.
	Intro string
	// Share is the run's address and QR code; SVGURL its picture as a
	// file (for slides), FileName the name it downloads under.
	Share            lesson.ShareBox
	SVGURL, FileName string
	PNGURL           string // the picture as a PNG (wikis, chats)
	Schedule         []string
	Broke            []string
	BackURL          string
	Picture          *picture.Picture
	Violations       lesson.Violations
	Controls         lesson.Controls
	Log              lesson.EventLog
	Canonical        string
	Make             *lesson.MakeForm // "Make this a challenge" (nil: no failure shown)
}

// DesignLesson is the design q names (the design page's parameters) as a
// lesson a challenge made from one of its runs stands on: its scenario
// with n clients and one step, its start; and the design page's address.
// web/challenge reads a made challenge's design through it.
//
// action, if not "", is where the form of a design that cannot run goes
// (a fix challenge's own address: the learner stays in the challenge,
// with what they typed).
func (s *Handler) DesignLesson(u *i18n.UI, q url.Values, n int, action, check string) (*lessons.Lesson, string, *site.Error) {
	in, e := parseDesign(u, q)
	if e != nil {
		if action != "" {
			e.Keep = designKeptAt(u, in, action, check)
		}
		return nil, "", e
	}
	sc, err := in.D.ScenarioFor(n)
	if err != nil {
		return nil, "", designError(u, designErrorText(u, err), in)
	}
	l := &lessons.Lesson{Lang: u.Lang, Slug: links.DesignSlug, Title: u.Design.Title, Scenario: sc,
		Steps: []lessons.Step{{Title: u.Design.Title}}}
	return l, links.Design(u.Lang, in.D), nil
}

// runReq is a run's address read: the page's language, the design, how
// many clients and the actions.
type runReq struct {
	u       *i18n.UI
	in      designIn
	n       int
	actions []sim.Action
}

// parseRun reads a run's address (the page's, its picture's or its QR
// code's), or answers with the reason it cannot and returns false.
func (s *Handler) parseRun(w http.ResponseWriter, r *http.Request) (runReq, bool) {
	u, q, in, ok := s.readDesign(w, r, "clients", "do", "cli", "node")
	if !ok {
		return runReq{}, false
	}
	du := u.Design
	back := links.Design(u.Lang, in.D)
	n, err := strconv.Atoi(q.Get("clients"))
	if err != nil || n < 2 || n > 3 {
		s.Fail(w, r, u, designError(u, du.BadClients, in))
		return runReq{}, false
	}
	if sc, err := in.D.ScenarioFor(n); err == nil {
		before := q.Get("do")
		if err := lesson.FoldCommandField(q, sc); err != nil {
			e := lesson.BadState(u, err, back, nil)
			if as, perr := sim.ParseActions(before); perr == nil {
				e.Recover, e.RecoverText = links.DesignRun(u.Lang, in.D, n, as), u.LastGood
			}
			s.Fail(w, r, u, e)
			return runReq{}, false
		}
	}
	actions, err := sim.ParseActions(q.Get("do"))
	if err != nil {
		s.Fail(w, r, u, lesson.BadState(u, err, back, nil))
		return runReq{}, false
	}
	return runReq{u: u, in: in, n: n, actions: actions}, true
}

// Run serves /{lang}/lab/design/run.
func (s *Handler) Run(w http.ResponseWriter, r *http.Request) {
	q, ok := s.parseRun(w, r)
	if !ok {
		return
	}
	u, in, n, actions := q.u, q.in, q.n, q.actions
	if want := links.DesignRun(u.Lang, in.D, n, actions); !site.SameQuery(r.URL.Path+"?"+r.URL.RawQuery, want) {
		http.Redirect(w, r, want, http.StatusSeeOther)
		return
	}
	s.ServeCached(w, r, u, true, func() ([]byte, string, bool, *site.Error) {
		tl, st, e := s.runTimeline(r, q)
		if e != nil {
			return nil, "", false, e
		}
		v := s.designRunView(r, u, in.D, n, st, tl)
		body, typ, e := s.RenderBytes(r, u, DesignRunPage(v))
		return body, typ, true, e
	})
}

// RunEmbed serves /{lang}/embed/lab/design/run: the run's moment inside
// another site's page (lesson.EmbedView), its controls kept in the frame.
func (s *Handler) RunEmbed(w http.ResponseWriter, r *http.Request) {
	q, ok := s.parseRun(w, r)
	if !ok {
		return
	}
	u, in, n, actions := q.u, q.in, q.n, q.actions
	theme := site.ThemeOf(r)
	page := links.DesignRun(u.Lang, in.D, n, actions)
	if !site.SameQuery(r.URL.Path+"?"+r.URL.RawQuery, site.EmbedPath(page)) {
		http.Redirect(w, r, site.InEmbed(page, theme), http.StatusSeeOther)
		return
	}
	s.ServeCached(w, r, u, true, func() ([]byte, string, bool, *site.Error) {
		tl, st, e := s.runTimeline(r, q)
		if e != nil {
			return nil, "", false, e
		}
		v := s.designRunView(r, u, in.D, n, st, tl)
		stage := lesson.StageProps{UI: u, Picture: v.Picture, Violations: v.Violations, Controls: v.Controls, Log: v.Log}
		var undo string
		if len(actions) > 0 {
			undo = links.DesignRun(u.Lang, in.D, n, actions[:len(actions)-1])
		}
		ev := lesson.NewEmbedView(v.Page, tl, runCaption(u, in.D, tl, ""), stage, s.Absolute(r, page), undo, theme)
		ev.Live = v.RunTitle
		c := lesson.EmbedPage(ev)
		if r.Header.Get("HX-Request") == "true" {
			c = lesson.EmbedFragment(ev)
		}
		body, typ, e := s.RenderBytes(r, u, c)
		return body, typ, true, e
	})
}

// runTimeline replays the run q names.
func (s *Handler) runTimeline(r *http.Request, q runReq) (*sim.Timeline, lesson.URLState, *site.Error) {
	u, in := q.u, q.in
	sc, err := in.D.ScenarioFor(q.n)
	if err != nil {
		return nil, lesson.URLState{}, designError(u, designErrorText(u, err), in)
	}
	st := lesson.URLStateOf(sc, sc.DefaultOpts(), q.actions)
	tl, err := s.Replay(r.Context(), sc, st.Opts, q.actions)
	if errors.Is(err, site.ErrBusy) {
		return nil, st, site.Busy(u)
	}
	if err != nil {
		back := links.Design(u.Lang, in.D)
		e := lesson.BadState(u, err, back, nil)
		if e.Recover == back {
			e.RecoverText = u.Design.BackToGrade
		}
		return nil, st, e
	}
	return tl, st, nil
}

// RunSVG serves /{lang}/lab/design/run.svg: the run's picture as a file
// of its own (for slides), captioned with what it is and its address.
func (s *Handler) RunSVG(w http.ResponseWriter, r *http.Request) {
	s.runPicture(w, r, "locklab-design-run.svg")
}

// RunPNG serves /{lang}/lab/design/run.png: the run's picture as a PNG
// (wikis, chats, a link's card).
func (s *Handler) RunPNG(w http.ResponseWriter, r *http.Request) {
	s.runPicture(w, r, "locklab-design-run.png")
}

// RunCardPNG serves /{lang}/lab/design/run-card.png: the run's picture
// fitted to a link card's shape, for the run's and the grade's og:image.
func (s *Handler) RunCardPNG(w http.ResponseWriter, r *http.Request) {
	s.runPicture(w, r, lesson.CardFile)
}

// runPicture is the run's picture as the file name says.
func (s *Handler) runPicture(w http.ResponseWriter, r *http.Request, name string) {
	q, ok := s.parseRun(w, r)
	if !ok {
		return
	}
	lesson.ServePicture(w, r, s.Site, q.u, name, func() (*picture.Export, *site.Error) {
		tl, _, e := s.runTimeline(r, q)
		if e != nil {
			return nil, e
		}
		return picture.NewExport(tl, q.u, runCaption(q.u, q.in.D, tl, s.Absolute(r, links.DesignRun(q.u.Lang, q.in.D, q.n, q.actions)))), nil
	})
}

// RunQR serves /{lang}/lab/design/run.qr.svg: the QR code of the run's
// page, for the share box.
func (s *Handler) RunQR(w http.ResponseWriter, r *http.Request) {
	q, ok := s.parseRun(w, r)
	if !ok {
		return
	}
	u := q.u
	w = lesson.PictureFile(w, "locklab-qr.svg")
	s.Cached(w, r, u, func() ([]byte, string, *site.Error) {
		return site.QRImage(u, s.Absolute(r, links.DesignRun(u.Lang, q.in.D, q.n, q.actions)))
	})
}

// runCaption is what a picture of a run of design d says about itself:
// the run's title, and the design in words (its presets, or "your own
// script"), which is what makes it a counterexample.
func runCaption(u *i18n.UI, d *lockdesign.Design, tl *sim.Timeline, address string) picture.Caption {
	title, _ := runTitle(u, tl)
	source := u.Design.Title
	if q, err := url.ParseQuery(links.DesignQuery(d)); err == nil {
		if words := lesson.DesignWords(u, q); len(words) > 0 {
			source += " · " + strings.Join(words, u.A11y.ListSep)
		}
	}
	return picture.Caption{Title: title, Source: source, Address: address}
}

// runTitle names a run and heads what happened in it: a counterexample
// and what broke only when it harmed the data or broke the lock.
func runTitle(u *i18n.UI, tl *sim.Timeline) (title, head string) {
	if sim.Fails(tl.Violations) {
		return u.Design.RunTitle, u.CounterBroke
	}
	return u.Design.RunAllowedTitle, u.CounterHappened
}

// runFile is the address of one of a run's files (".svg", ".qr.svg").
func runFile(run, ext string) string {
	path, query, _ := strings.Cut(run, "?")
	return path + ext + "?" + query
}

// designRunView builds the counterexample page.
func (s *Handler) designRunView(r *http.Request, u *i18n.UI, d *lockdesign.Design, n int, st lesson.URLState, tl *sim.Timeline) *DesignRunView {
	du := u.Design
	title, head := runTitle(u, tl)
	v := &DesignRunView{Page: s.Frame(u, title+" — "+du.Title+" — "+u.SiteName, r), D: du, RunTitle: title, BrokeHead: head,
		BackURL: links.Design(u.Lang, d), Canonical: links.DesignRun(u.Lang, d, n, st.Actions), Intro: du.RunIntro}
	if l, ok := lockdesign.LibraryOfDesign(d); ok {
		// a library's lock, from the libraries' page: its scripts are
		// the library's calls, not the reader's own
		v.Intro = i18n.Fill(du.RunIntroLibrary, l.Name())
	}
	v.Share = lesson.ShareBox{UI: u, URL: s.Absolute(r, v.Canonical), QRURL: runFile(v.Canonical, ".qr.svg")}
	png := runFile(v.Canonical, ".png")
	v.Share.Embed = lesson.SnippetsFor(u, v.Share.URL, s.Absolute(r, site.EmbedPath(v.Canonical)), s.Absolute(r, png),
		runCaption(u, d, tl, "").Name())
	v.PNGURL = png
	v.SVGURL, v.FileName = runFile(v.Canonical, ".svg"), "locklab-design-run-"+strconv.Itoa(len(st.Actions))+"-actions.svg"
	for i := range tl.Actions {
		v.Schedule = append(v.Schedule, narrate.Step(u, tl, i))
	}
	for _, x := range tl.Violations {
		text := i18n.Fill(u.CounterWhen, sim.FormatMS(x.At), itoa(int64(x.Step+1)), narrate.ViolationText(u, x))
		v.Broke = append(v.Broke, text)
	}
	v.Violations = lesson.ViolationsOf(u, tl)
	v.Make = lesson.DesignMakeForm(u, links.DesignToken(d), tl)
	from := picture.FirstNew(tl)
	v.Picture = picture.Layout(tl, u, from)
	v.Picture.Describe(tl, u, from)
	source := runCaption(u, d, tl, "").Source
	v.Card = s.CardFor(r, title+" — "+source, lesson.CardText(u, tl, source, v.Picture.Step),
		runFile(v.Canonical, "-card.png"), title+" — "+v.Picture.Name)
	base := "/" + u.Lang + "/lab/design/run"
	c := lesson.ControlsOf(u, base, st, tl)
	// The command line sends the design and the clients back with the
	// command; Run folds it into do= as the lesson page does.
	c.CLI.EditorJS, c.CLI.Opt = s.Assets.URL("vendor/editor.min.js"), "" // a design has no options
	if dq, err := url.ParseQuery(links.DesignQuery(d)); err == nil {
		for _, k := range slices.Sorted(maps.Keys(dq)) {
			c.CLI.Carry = append(c.CLI.Carry, lesson.Field{Name: k, Value: dq.Get(k)})
		}
	}
	c.CLI.Carry = append(c.CLI.Carry, lesson.Field{Name: "clients", Value: strconv.Itoa(n)})
	// The controls' links are base + "?do=…": put the design and the
	// clients in front of the timeline's own query.
	fix := func(link string) string {
		rest := strings.TrimPrefix(strings.TrimPrefix(link, base), "?")
		return links.WithQuery(base, links.DesignQuery(d), "clients="+strconv.Itoa(n), rest)
	}
	c.Map(fix)
	v.Controls = c
	v.Log = lesson.EventLogOf(u, tl)
	return v
}

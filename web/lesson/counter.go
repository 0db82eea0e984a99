// counter.go frames a Lab counterexample opened as a lesson timeline: the
// page says what the schedule is, what broke and when, and links back to
// the Lab result, instead of showing the dialog of whichever guided step
// the schedule happens to be nearest to.

package lesson

import (
	"net/url"
	"strings"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/narrate"
)

// labKeys are the Lab's own parameters, in its canonical order: the only
// ones a lab= value may carry back.
var labKeys = []string{"lesson", "opt", "clients", "pauses", "pause", "crashes", "nodes", "drops", "depth"}

// labFrom reads lab=, the query of the Lab run a counterexample came
// from, and returns it cleaned: known keys only, one short value each, in
// the Lab's order ("" if there is none). The Lab validates the values
// when the learner follows the link back.
func labFrom(q url.Values) string {
	vals, ok := q["lab"]
	if !ok || len(vals) != 1 || len(vals[0]) > 512 {
		return ""
	}
	in, err := url.ParseQuery(vals[0])
	if err != nil {
		return ""
	}
	var parts []string
	for _, k := range labKeys {
		if v := in[k]; len(v) == 1 && v[0] != "" && len(v[0]) <= 64 {
			parts = append(parts, k+"="+strings.ReplaceAll(url.QueryEscape(v[0]), "%2C", ","))
		}
	}
	return strings.Join(parts, "&")
}

// labFor is the request's lab= if it names a Lab run of this very lesson
// that the Lab would accept, else "" (the page then redirects to its
// address without it): a hand-made lab= cannot frame the page as another
// lesson's counterexample, nor send "back to the Lab" to an error page.
func (s *Handler) labFor(u *i18n.UI, l *lessons.Lesson, q url.Values) string {
	lab := labFrom(q)
	if lab == "" {
		return ""
	}
	in, err := url.ParseQuery(lab)
	if err != nil || in.Get("lesson") != l.Slug {
		return ""
	}
	if s.labOK == nil || !s.labOK(u, in) {
		return ""
	}
	return lab
}

// Counter is the frame of a Lab counterexample on a lesson page.
type Counter struct {
	UI *i18n.UI
	// Title and BrokeHead: "A counterexample…" and "What broke…" only for
	// a schedule that harmed the data or broke the lock (sim.Fails).
	Title, BrokeHead string
	Schedule         []string // each action, in words, in order
	Broke            []string // each violation: when, and what
	BackURL          string   // the Lab result it came from
	GuidedURL        string   // the lesson's guided path, from its start
}

// counterFrame replaces the dialog with the frame of the counterexample
// the page's timeline is: no checkpoint, no way on along the guided path.
func (v *LessonView) counterFrame(rq *Request, tl *sim.Timeline) {
	u := rq.UI
	c := &Counter{UI: u, BackURL: "/" + u.Lang + "/lab?" + rq.Lab, GuidedURL: links.Start(rq.L),
		Title: u.CounterAllowedTitle, BrokeHead: u.CounterHappened}
	if sim.Fails(tl.Violations) {
		c.Title, c.BrokeHead = u.CounterTitle, u.CounterBroke
	}
	for i := range tl.Actions {
		c.Schedule = append(c.Schedule, narrate.Step(u, tl, i))
	}
	for _, x := range tl.Violations {
		c.Broke = append(c.Broke, i18n.Fill(u.CounterWhen, sim.FormatMS(x.At), itoa(int64(x.Step+1)), narrate.ViolationText(u, x)))
	}
	d := &v.Dialog
	d.Counter, d.Ask, d.Answer = c, nil, nil
	d.Nav.NextURL, d.Final, d.NextLesson = "", false, nil
	v.Title = c.Title + " — " + rq.L.Title + " — " + u.SiteName
	v.Live = c.Title
}

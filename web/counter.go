// counter.go frames a Lab counterexample opened as a lesson timeline: the
// page says what the schedule is, what broke and when, and links back to
// the Lab result, instead of showing the dialog of whichever guided step
// the schedule happens to be nearest to.
package web

import (
	"net/url"
	"strings"

	"locklab/sim"
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

// withLab appends the lab= parameter to a lesson query.
func withLab(q, lab string) string {
	if lab == "" {
		return q
	}
	sep := "&"
	if q == "" {
		sep = "?"
	}
	return q + sep + "lab=" + url.QueryEscape(lab)
}

// Counter is the frame of a Lab counterexample on a lesson page.
type Counter struct {
	Schedule []string // each action, in words, in order
	Broke    []string // each violation: when, and what
	BackURL  string   // the Lab result it came from
}

// counterFrame builds the frame for the page's timeline.
func (v *LessonView) counterFrame(lab string) {
	u := v.UI
	c := &Counter{BackURL: "/" + u.Lang + "/lab?" + lab}
	for _, a := range v.TL.Actions {
		c.Schedule = append(c.Schedule, describe(u, a))
	}
	for _, x := range v.TL.Violations {
		c.Broke = append(c.Broke, fill(u.CounterWhen, sim.FormatMS(x.At), itoa(int64(x.Step+1)), violationText(u, x)))
	}
	v.Counter, v.Ask, v.Answer = c, nil, nil
	v.Title = u.CounterTitle + " — " + v.Lesson.Title + " — " + u.SiteName
	v.Live = u.CounterTitle
}

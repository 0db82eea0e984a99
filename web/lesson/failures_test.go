package lesson_test

import (
	"slices"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"
)

// TestNamedFailuresShown: when a step's dialog or notes name a kind of
// failure as the checker's flag (in bold or quoted, as the event log names it: one
// vocabulary, sim/kinds.go), the step's own timeline shows that kind — so
// the text never tells the learner to look for a flag that is not there,
// in any language.
func TestNamedFailuresShown(t *testing.T) {
	course, err := lessons.Load(i18n.Codes()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		for _, l := range course.List(lang) {
			for _, st := range l.Steps {
				all := stepText(st)
				for _, k := range sim.Kinds {
					name, q := u.Failures[k].Name, u.Language().Quote
					named := strings.Contains(all, "<strong>"+name+"</strong>") || strings.Contains(all, q[0]+name+q[1])
					if named && !slices.Contains(st.Violations, k) {
						t.Errorf("%s %s step %d (%s) names %q, but its timeline shows %v", lang, l.Slug, st.Index+1, st.Title, name, st.Violations)
					}
				}
			}
		}
	}
}

// stepText is a step's dialog and notes, as HTML.
func stepText(st lessons.Step) string {
	text := make([]string, 0, len(st.Lines)+len(st.Notes))
	for _, ln := range st.Lines {
		text = append(text, ln.HTML)
	}
	return strings.Join(append(text, st.Notes...), "\n")
}

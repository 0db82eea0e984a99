package lesson

import (
	"strings"
	"testing"

	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/narrate"
)

// TestCardTextInTimeOrder: a link's card says what went wrong in the
// order the page numbers it, by time (readers in all three languages
// read a card that put the worst first as time running backwards).
func TestCardTextInTimeOrder(t *testing.T) {
	tl, err := sim.Run("two-servers", "a.acquire,b.acquire,a.write,b.write", "lock.local")
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Violations) < 2 || tl.Violations[0].At >= tl.Violations[len(tl.Violations)-1].At {
		t.Fatalf("the timeline changed: %+v", tl.Violations)
	}
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		text := CardText(u, tl, "source", "did")
		at := -1
		for _, v := range tl.Violations {
			i := strings.Index(text, "⚠ "+sim.FormatMS(v.At)+" — "+narrate.ViolationText(u, v))
			if i <= at {
				t.Errorf("%s: %q does not say %s in time order", lang, text, v.Kind)
			}
			at = i
		}
	}
}

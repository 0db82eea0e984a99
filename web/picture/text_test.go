package picture

import (
	"strings"
	"testing"

	"locklab/sim"
	"locklab/sim/rediscli"
	"locklab/web/i18n"
	"locklab/web/narrate"
)

// TestStepNamesTheEnd: a reader found the one OK among B's retries hidden
// in "and 8 more" (atomic-acquire, the wait after A's crash), because the
// picture's name spelled out only an action's first events. Equal
// sentences in a row are said once with their count, and the last events
// of an action are always spelled out.
func TestStepNamesTheEnd(t *testing.T) {
	tl, err := sim.Run("atomic-acquire", "a.acquire,b.acquire,a.crash,wait.10s", "")
	if err != nil {
		t.Fatal(err)
	}
	from := FirstNew(tl)
	var last sim.Event
	retries := 0
	for _, e := range tl.Events[from:] {
		if e.Kind == sim.KindCommand {
			last = e
			if e.Actor == "b" && e.Reply.Kind == rediscli.ReplyNil {
				retries++
			}
		}
	}
	if last.Actor != "b" || !last.Reply.IsOK() || retries < 3 {
		t.Fatalf("the timeline changed: last command %+v, %d retries answered nil", last, retries)
	}
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		p := Layout(tl, u, from)
		p.Describe(tl, u, from)
		n := narrate.Of(u, last)
		ok := narrate.ReplyBrief(u, last, briefReply)
		if strings.Count(p.Step, ok) != 1 || strings.LastIndex(p.Step, ok) < strings.LastIndex(p.Step, n.Actor) || !contains(p.Spelled, last.Seq) {
			t.Errorf("%s: the step %q does not end with %s's %s", lang, p.Step, n.Actor, ok)
		}
		if !strings.Contains(p.Step, strings.TrimSpace(strings.Split(i18n.Fill(u.A11y.Times, "", "\x00"), "\x00")[0])) {
			t.Errorf("%s: the step %q does not count B's retries as one sentence", lang, p.Step)
		}
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

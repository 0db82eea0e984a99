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
// sentences are said once with their count, and what the action led to
// is spelled out.
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

// TestStepNamesWhatMatters: readers found a Redlock round's verdict, a
// key's expiry and the lock taken hidden in "N more" when the picture's
// name spelled out an action's first (or last) events. The verdict of
// every round, the expiry on each node (one sentence for the nodes whose
// key expired at one instant) and the commands that took the lock are
// said; the same command with the same reply from several nodes is one
// sentence naming them.
func TestStepNamesWhatMatters(t *testing.T) {
	for _, c := range []struct{ scenario, do string }{
		{"redlock", "n1.slow.4s,n2.slow.4s,n3.slow.4s,a.acquire"},
		{"redlock", "n1.slow.4s,a.acquire,b.acquire,wait.1s"},
		{"redlock", "a.acquire,a.pause,b.acquire,wait.10s"},
		{"ttl", "a.acquire,b.acquire,a.write"},
	} {
		tl, err := sim.Run(c.scenario, c.do, "")
		if err != nil {
			t.Fatal(err)
		}
		from := FirstNew(tl)
		for _, lang := range i18n.Codes() {
			u := i18n.For(lang)
			p := Layout(tl, u, from)
			p.Describe(tl, u, from)
			var lastRound *sim.Event
			for i, e := range tl.Events[from:] {
				switch {
				case e.Kind == sim.KindRedlock:
					lastRound = &tl.Events[from+i]
				case e.Kind == sim.KindCommand && e.Actor != sim.Operator && e.Reply.IsOK() && e.Purpose != "" && !strings.Contains(p.Step, narrate.Of(u, e).Actor):
					t.Errorf("%s %s %s: the step %q does not name %s, who took the lock", lang, c.scenario, c.do, p.Step, narrate.Of(u, e).Actor)
				case e.Kind == sim.KindExpired:
					// spelled, or one sentence with an expiry of the same key at that instant
					said := false
					for _, f := range tl.Events[from : from+i+1] {
						said = said || (f.Kind == sim.KindExpired && f.Owner == e.Owner && f.At == e.At && contains(p.Spelled, f.Seq))
					}
					if !said {
						t.Errorf("%s %s %s: the step %q does not say that %s's key expired on %s", lang, c.scenario, c.do, p.Step, e.Owner, e.Actor)
					}
				}
			}
			if lastRound != nil && !strings.Contains(p.Step, narrate.Of(u, *lastRound).What) {
				t.Errorf("%s %s %s: the step %q does not give the last round's verdict %q", lang, c.scenario, c.do, p.Step, narrate.Of(u, *lastRound).What)
			}
		}
	}
}

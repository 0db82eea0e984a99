package web_test

import (
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"strings"
	"testing"

	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/narrate"
)

// TestThrowawayVerbLabelled: a client verb added to the simulator's table
// by one entry, with its labels as the only other change, shows as a
// control with its label on a lesson page and is named in the Lab's
// steps. (sim's TestThrowawayActions shows that it parses, replays, is
// offered and explored.)
func TestThrowawayVerbLabelled(t *testing.T) {
	t.Cleanup(sim.Register(sim.ActionSpec{Verb: "wave", Doer: sim.ByClient, Needs: sim.NeedInside,
		Do: func(*sim.Act) error { return nil }}))
	labels := map[string]string{"en": "wave hello", "ja": "手を振る"}
	for lang, label := range labels {
		i18n.For(lang).Verb["wave"] = label
	}
	t.Cleanup(func() {
		for lang := range labels {
			delete(i18n.For(lang).Verb, "wave")
		}
	})
	h := sitetest.Default(t)
	for lang, label := range labels {
		r := webtest.Get(t, h, "/"+lang+"/lessons/fencing?do=a.acquire")
		if r.Status != 200 || !strings.Contains(r.Body, `id="do-a-wave"`) || !strings.Contains(r.Body, ">"+label+"<") {
			t.Errorf("%s: status %d, no control %q labelled %q", lang, r.Status, "do-a-wave", label)
		}
		if r := webtest.Get(t, h, "/"+lang+"/lessons/fencing?do=a.acquire,a.wave"); r.Status != 200 {
			t.Errorf("%s: a.wave answered %d", lang, r.Status)
		}
		if got := narrate.Action(i18n.For(lang), nil, sim.Action{Who: "a", Verb: "wave"}); got != "A"+i18n.For(lang).LabelSep()+label {
			t.Errorf("%s: the Lab describes a.wave as %q", lang, got)
		}
	}
}

// TestEveryActionLabelled: every entry of the table has its label in
// every language; a node verb also its event-log note and the word under
// its mark on the picture (a missing one would draw the raw verb).
func TestEveryActionLabelled(t *testing.T) {
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		for _, d := range []sim.Doer{sim.ByClient, sim.ToNode, sim.ByLearner} {
			for _, s := range sim.Actions(d) {
				if u.Verb[s.Verb] == "" {
					t.Errorf("%s: no label for %s", lang, s.Verb)
				}
				if d == sim.ToNode && (u.NodeNote[s.Verb] == "" || u.Picture.NodeMark[s.Verb] == "") {
					t.Errorf("%s: node verb %s lacks its log note or its mark's word", lang, s.Verb)
				}
			}
		}
	}
}

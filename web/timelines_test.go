package web_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/links"
)

// timelineJSON is what TestSameTimelineInEveryLanguage reads of
// /{lang}/lessons/{slug}/timeline.json.
type timelineJSON struct {
	NowMS  int64 `json:"now_ms"`
	Events []struct {
		Seq      int      `json:"seq"`
		AtMS     int64    `json:"at_ms"`
		Actor    string   `json:"actor"`
		Kind     string   `json:"kind"`
		Node     string   `json:"node"`
		Command  []string `json:"command"`
		Script   string   `json:"script"`
		Reply    string   `json:"reply"`
		Token    int64    `json:"token"`
		Accepted *bool    `json:"accepted"`
		Key      string   `json:"key"`
		Owner    string   `json:"owner"`
		MS       int64    `json:"ms"`
	} `json:"events"`
	Violations []struct {
		AtMS   int64    `json:"at_ms"`
		Kind   string   `json:"kind"`
		Actors []string `json:"actors"`
		Event  int      `json:"event"`
	} `json:"violations"`
	Storage struct {
		Kind      string   `json:"kind"`
		Value     string   `json:"value"`
		LastToken int64    `json:"last_token"`
		Fenced    bool     `json:"fenced"`
		Charges   []string `json:"charges"`
	} `json:"storage"`
	Clients []struct {
		ID    string `json:"id"`
		State string `json:"state"`
		Token int64  `json:"token"`
	} `json:"clients"`
}

// TestSameTimelineInEveryLanguage: every guided step of every lesson, in
// every language, replays to the same events, replies and violations as
// in English: the same times, actors, nodes, tokens and verdicts, and
// each command and reply either the same or the English one in the
// language's words (a model's reply, i18n's phrases) — so a class whose
// students read three languages watches one timeline.
func TestSameTimelineInEveryLanguage(t *testing.T) {
	h := sitetest.Default(t)
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	get := func(lang, slug, do, opt string) timelineJSON {
		var tl timelineJSON
		body := webtest.MustGet(t, h, "/"+lang+"/lessons/"+slug+"/timeline.json"+links.Query(do, opt))
		if err := json.Unmarshal([]byte(body), &tl); err != nil {
			t.Fatal(err)
		}
		return tl
	}
	same := func(u *i18n.UI, en, other string) bool { return en == other || u.Localize(en) == other }
	steps := 0
	for _, l := range course.List("en") {
		for k, st := range l.Steps {
			en := get("en", l.Slug, st.Do, st.Opt)
			for _, lang := range i18n.Codes() {
				if lang == "en" {
					continue
				}
				u := i18n.For(lang)
				o := get(lang, l.Slug, st.Do, st.Opt)
				where := fmt.Sprintf("%s step %d in %s", l.Slug, k+1, lang)
				if o.NowMS != en.NowMS || len(o.Events) != len(en.Events) || len(o.Violations) != len(en.Violations) {
					t.Errorf("%s: now %d, %d events, %d violations; English: %d, %d, %d", where, o.NowMS, len(o.Events), len(o.Violations), en.NowMS, len(en.Events), len(en.Violations))
					continue
				}
				for i, e := range en.Events {
					x := o.Events[i]
					if x.Seq != e.Seq || x.AtMS != e.AtMS || x.Actor != e.Actor || x.Kind != e.Kind || x.Node != e.Node || x.Script != e.Script ||
						x.Token != e.Token || (x.Accepted == nil) != (e.Accepted == nil) || (x.Accepted != nil && *x.Accepted != *e.Accepted) ||
						x.Key != e.Key || x.Owner != e.Owner || x.MS != e.MS || len(x.Command) != len(e.Command) || !same(u, e.Reply, x.Reply) {
						t.Errorf("%s: event %d is %+v, in English %+v", where, i, x, e)
						continue
					}
					for j := range e.Command {
						if !same(u, e.Command[j], x.Command[j]) {
							t.Errorf("%s: event %d's command %q, in English %q", where, i, x.Command, e.Command)
						}
					}
				}
				for i, v := range en.Violations {
					x := o.Violations[i]
					if x.AtMS != v.AtMS || x.Kind != v.Kind || x.Event != v.Event || !slices.Equal(x.Actors, v.Actors) {
						t.Errorf("%s: violation %d is %+v, in English %+v", where, i, x, v)
					}
				}
				if fmt.Sprint(o.Storage) != fmt.Sprint(en.Storage) || fmt.Sprint(o.Clients) != fmt.Sprint(en.Clients) {
					t.Errorf("%s: storage %+v clients %+v; English %+v %+v", where, o.Storage, o.Clients, en.Storage, en.Clients)
				}
			}
			steps++
		}
	}
	if steps < 100 {
		t.Errorf("only %d steps compared", steps)
	}
}

package picture

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"time"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/explore"
	"locklab/web/i18n"
)

// pictureCase is one timeline to draw: a guided step or a Lab
// counterexample.
type pictureCase struct {
	name string
	tl   *sim.Timeline
	new  int
}

// pictureCases replays every guided step of every lesson and, unless
// -short, the Lab's counterexamples for each lesson under each option set
// its steps use (the explorer's findings, whatever it finds in its budget).
func pictureCases(t *testing.T) []pictureCase {
	t.Helper()
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	var cases []pictureCase
	for _, l := range course.List("en") {
		opts := map[string]bool{}
		for i, st := range l.Steps {
			tl, err := sim.Run(l.Scenario.ID, st.Do, st.Opt)
			if err != nil {
				t.Fatalf("%s step %d: %v", l.Slug, i+1, err)
			}
			cases = append(cases, pictureCase{fmt.Sprintf("%s step %d", l.Slug, i+1), tl, FirstNew(tl)})
			opts[st.Opt] = true
		}
		if testing.Short() {
			continue
		}
		var keys []string
		for k := range opts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, opt := range keys {
			o, err := l.Scenario.ParseOptions(opt)
			if err != nil {
				t.Fatal(err)
			}
			b := l.Scenario.DefaultBudget()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			res, err := explore.Run(ctx, explore.Config{Scenario: l.Scenario, Opts: o, Clients: 2, Pauses: b.Pauses,
				PauseMs: []int64{l.Scenario.TTL}, Crashes: b.Crashes, NodeFaults: b.NodeFaults, MaxDepth: 10, MaxStates: 4000})
			cancel()
			if err != nil {
				t.Fatalf("%s lab %q: %v", l.Slug, opt, err)
			}
			var kinds []string
			for k := range res.Found {
				kinds = append(kinds, string(k))
			}
			sort.Strings(kinds)
			for _, k := range kinds {
				fd := res.Found[sim.ViolationKind(k)]
				tl, err := sim.Replay(l.Scenario, o, fd.Shortest)
				if err != nil {
					t.Fatalf("%s lab %q %s: %v", l.Slug, opt, k, err)
				}
				cases = append(cases, pictureCase{fmt.Sprintf("%s lab opt=%q %s do=%s", l.Slug, opt, k, sim.FormatActions(fd.Shortest)), tl, len(tl.Events)})
			}
		}
	}
	return cases
}

// TestPictureNoOverlap draws every case in both languages and checks,
// box by box, that no marker or label touches another and that all of
// them stay inside the picture (right of the lane names). The layout is in
// the viewBox's units, so it holds at every width the page is shown at;
// what a width changes is the scale, checked below.
func TestPictureNoOverlap(t *testing.T) {
	cases := pictureCases(t)
	if len(cases) < 50 {
		t.Fatalf("only %d timelines to draw", len(cases))
	}
	for _, c := range cases {
		for _, lang := range i18n.Codes() {
			p := Layout(c.tl, i18n.For(lang), c.new)
			for _, msg := range overlaps(p) {
				t.Errorf("%s (%s): %s", c.name, lang, msg)
			}
		}
	}
}

// overlaps lists every pair of boxes that intersect and every box that
// leaves the plot.
func overlaps(p *Picture) []string {
	var out []string
	for i, a := range p.boxes {
		if a.x0 < seam || a.y0 < 0 || a.x1 > p.w || a.y1 > p.h {
			out = append(out, fmt.Sprintf("%s %q [%.1f,%.1f]-[%.1f,%.1f] leaves the picture %.0f×%.0f", a.kind, a.text, a.x0, a.y0, a.x1, a.y1, p.w, p.h))
		}
		for _, b := range p.boxes[i+1:] {
			if a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 {
				out = append(out, fmt.Sprintf("%s %q [%.1f,%.1f]-[%.1f,%.1f] overlaps %s %q [%.1f,%.1f]-[%.1f,%.1f]",
					a.kind, a.text, a.x0, a.y0, a.x1, a.y1, b.kind, b.text, b.x0, b.y0, b.x1, b.y1))
			}
		}
	}
	return out
}

package lesson

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/explore"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/narrate"
	"locklab/web/picture"
)

// narrationCase is a timeline a learner can reach: a guided step, or a
// counterexample the Lab links to.
type narrationCase struct {
	name string
	tl   *sim.Timeline
}

func narrationCases(t *testing.T, course *lessons.Catalog, lang string) []narrationCase {
	t.Helper()
	var cases []narrationCase
	for _, l := range course.List(lang) {
		for i, st := range l.Steps {
			tl, err := sim.Run(l.Scenario.ID, st.Do, st.Opt)
			if err != nil {
				t.Fatalf("%s step %d: %v", l.Slug, i+1, err)
			}
			cases = append(cases, narrationCase{fmt.Sprintf("%s/%s step %d", lang, l.Slug, i+1), tl})
		}
		// the Lab's counterexamples for the lesson's design, as its
		// default row finds them (the shortest of each kind)
		c := links.LabDefaults(l)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res, err := explore.Run(ctx, explore.Config{Scenario: l.Scenario, Opts: c.Opts, Clients: c.Clients, Pauses: c.Pauses,
			PauseMs: c.PauseMs, Crashes: c.Crashes, NodeFaults: c.Nodes, Drops: c.Drops, MaxDepth: c.Depth, MaxStates: 4000})
		cancel()
		if err != nil {
			t.Fatalf("%s lab: %v", l.Slug, err)
		}
		for k, f := range res.Found {
			tl, err := sim.Replay(l.Scenario, c.Opts, f.Shortest)
			if err != nil {
				t.Fatalf("%s lab %s: %v", l.Slug, k, err)
			}
			cases = append(cases, narrationCase{fmt.Sprintf("%s/%s lab %s do=%s", lang, l.Slug, k, sim.FormatActions(f.Shortest)), tl})
		}
	}
	return cases
}

// rawNames are the simulator's own names for lanes and happenings, which a
// page in another language must never show in place of its words.
var rawNames = []string{"primary", "replica", "storage", "LINK", "ZOOKEEPER", "zookeeper", "ETCD", "connection lost", "session expired", "lease expired"}

// TestNarrationAgrees walks every guided step and every Lab counterexample
// in every language, and checks that each surface — the event log, the
// picture's tooltips and its text alternative — names the same actor,
// target and outcome as the event's one narration (narrate.Of): nothing
// that is not a message is said to be sent, a no-op is not a rejection,
// and no page shows the simulator's raw English names for lanes.
func TestNarrationAgrees(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	checked := map[narrate.Outcome]int{}
	messages, happenings := 0, 0
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		a := u.A11y
		sent := strings.TrimSpace(strings.Split(i18n.Fill(a.CommandTo, "\x00", "\x01", "\x02", "\x03"), "\x01")[0])
		sent = strings.TrimSpace(strings.TrimPrefix(sent, "\x00")) // the words between actor and command: "sent"
		for _, c := range narrationCases(t, course, lang) {
			tl := c.tl
			from := picture.FirstNew(tl)
			p := picture.Layout(tl, u, from)
			p.Describe(tl, u, from)
			log := EventLogOf(u, tl)
			if len(log.Rows) != len(tl.Events) {
				t.Fatalf("%s: %d log rows for %d events", c.name, len(log.Rows), len(tl.Events))
			}
			titles := map[string]string{} // "#7 " → its tooltip line
			for _, m := range p.Markers {
				for _, line := range strings.Split(m.Title, "\n") {
					if num, _, ok := strings.Cut(line, " "); ok && strings.HasPrefix(num, "#") {
						titles[num] = line
					}
				}
			}
			named, msgs := 0, 0
			for _, e := range tl.Events {
				n := narrate.Of(u, e)
				checked[n.Outcome]++
				row := log.Rows[e.Seq]
				if row.Who != n.Actor {
					t.Errorf("%s #%d: the log says %q did it, the narration %q", c.name, e.Seq+1, row.Who, n.Actor)
				}
				switch n.Outcome {
				case narrate.Accepted, narrate.Rejected, narrate.NoOp:
					word := map[narrate.Outcome]string{narrate.Accepted: u.Accepted, narrate.Rejected: u.Rejected, narrate.NoOp: u.AlreadyPaid}[n.Outcome]
					if !strings.Contains(row.Note, word) {
						t.Errorf("%s #%d: the log's note %q does not say %q", c.name, e.Seq+1, row.Note, word)
					}
					if n.Outcome == narrate.NoOp && strings.Contains(row.Class, "rejected") {
						t.Errorf("%s #%d: a no-op drawn as rejected in the log", c.name, e.Seq+1)
					}
				}
				if line, ok := titles["#"+strconv.Itoa(e.Seq+1)]; ok {
					if !strings.Contains(line, " "+n.Actor) && e.Kind != sim.KindNode {
						t.Errorf("%s #%d: the tooltip %q does not name %q", c.name, e.Seq+1, line, n.Actor)
					}
					if n.Message && !strings.Contains(line, "→ "+n.Target+u.LabelSep()) {
						t.Errorf("%s #%d: the tooltip %q does not name the target %q", c.name, e.Seq+1, line, n.Target)
					}
					if !n.Message && strings.Contains(line, " "+n.Actor+" → ") {
						t.Errorf("%s #%d: the tooltip %q draws a happening as a message", c.name, e.Seq+1, line)
					}
				}
				if e.Kind == sim.KindCommand && slices.Contains(p.Spelled, e.Seq) {
					named++
					if n.Message && n.Outcome != narrate.Accepted && n.Outcome != narrate.Rejected && n.Outcome != narrate.NoOp {
						msgs++
						if !strings.Contains(p.Name, n.Actor) || !strings.Contains(p.Name, n.Target) {
							t.Errorf("%s #%d: the text alternative %q does not name %q and %q", c.name, e.Seq+1, p.Name, n.Actor, n.Target)
						}
					}
					if n.Outcome == narrate.NoOp && !strings.Contains(p.Name, i18n.Fill(a.VerdictNoOp, n.Actor)) {
						t.Errorf("%s #%d: the text alternative %q does not say the write was a no-op", c.name, e.Seq+1, p.Name)
					}
				}
				if n.Message {
					messages++
				} else if e.Kind == sim.KindCommand {
					happenings++
				}
				if lang != i18n.Fallback {
					for _, raw := range rawNames {
						for _, s := range []string{n.Actor, n.Target, row.Who} {
							if strings.Contains(s, raw) {
								t.Errorf("%s #%d: %q shows the raw name %q", c.name, e.Seq+1, s, raw)
							}
						}
					}
				}
			}
			// only messages are said to be sent
			if sent != "" {
				if got := strings.Count(p.Name, " "+sent+" "); got > msgs {
					t.Errorf("%s: the text alternative says %q %d times for %d messages: %q", c.name, sent, got, msgs, p.Name)
				}
			}
			if lang != i18n.Fallback {
				for _, raw := range rawNames {
					if slices.ContainsFunc([]string{p.Name, p.Summary}, func(s string) bool { return strings.Contains(s, raw) }) {
						t.Errorf("%s: the text alternative shows the raw name %q: %q %q", c.name, raw, p.Name, p.Summary)
					}
				}
			}
		}
	}
	if messages == 0 || happenings == 0 || checked[narrate.NoOp] == 0 || checked[narrate.Rejected] == 0 || checked[narrate.SessionExpired] == 0 || checked[narrate.Expired] == 0 {
		t.Errorf("the walk missed a kind of event: %d messages, %d happenings, outcomes %v", messages, happenings, checked)
	}
}

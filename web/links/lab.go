package links

import (
	"slices"
	"strconv"
	"strings"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/explore"
)

// LabConfig is a Lab page's URL state.
type LabConfig struct {
	Lesson                                        *lessons.Lesson
	Opts                                          sim.Opts
	Clients, Pauses, Crashes, Nodes, Drops, Depth int
	PauseMs                                       []int64
}

// LabDefaults is the configuration a lesson's Lab starts from: the
// scenario's default fault budget, pauses as long as the lock's TTL.
func LabDefaults(l *lessons.Lesson) LabConfig {
	sc := l.Scenario
	b := sc.DefaultBudget()
	return LabConfig{Lesson: l, Opts: sc.DefaultOpts(), Clients: 2, Pauses: b.Pauses, Crashes: b.Crashes, Nodes: b.NodeFaults,
		PauseMs: []int64{sc.TTL}, Depth: explore.DefaultDepth}
}

// Query is the canonical query of a Lab config: the lesson, then every
// parameter that differs from the lesson's default, in a fixed order.
func (c LabConfig) Query() string {
	d := LabDefaults(c.Lesson)
	parts := []string{"lesson=" + c.Lesson.Slug}
	if opt := c.Lesson.Scenario.FormatOptions(c.Opts); opt != "" {
		parts = append(parts, "opt="+opt)
	}
	num := func(name string, v, def int) {
		if v != def {
			parts = append(parts, name+"="+strconv.Itoa(v))
		}
	}
	num("clients", c.Clients, d.Clients)
	num("pauses", c.Pauses, d.Pauses)
	if c.Pauses > 0 && !slices.Equal(c.PauseMs, d.PauseMs) {
		var ls []string
		for _, ms := range c.PauseMs {
			ls = append(ls, sim.FormatDuration(ms))
		}
		parts = append(parts, "pause="+strings.Join(ls, ","))
	}
	num("crashes", c.Crashes, d.Crashes)
	num("nodes", c.Nodes, d.Nodes)
	num("drops", c.Drops, d.Drops)
	num("depth", c.Depth, d.Depth)
	return "?" + strings.Join(parts, "&")
}

// Lab is a lesson page's "what else could go wrong?": the Lab, on the
// lesson's design and the variant the page shows.
func Lab(l *lessons.Lesson, opts sim.Opts) string {
	c := LabDefaults(l)
	c.Opts = opts
	return LabPage(l.Lang) + c.Query()
}

// LabPage is the Lab of lang, on its default lesson.
func LabPage(lang string) string { return "/" + lang + "/lab" }

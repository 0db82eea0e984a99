package site

import (
	"runtime/debug"
	"sync"
)

// gcBoost raises the garbage collector's GOGC while at least one
// exploration runs, and puts it back when the last one ends.
//
// Why: every EVAL in miniredis builds a fresh Lua VM (about 200 KB that is
// garbage at once), so the explorer makes garbage fast while its live heap
// stays modest, and at Go's default GOGC=100 the collector runs very often.
// GOGC=200 made the Lab's rows 1.3–1.8× faster (BenchmarkExploreLab). Set for
// the whole process it also let 64 never-seen lesson steps at once peak at
// 121–134 MB RSS against ~95 MB, and a memory limit instead of it pushed
// the deepest Redlock search past its 10 s safety stop; raised only while
// the explorer works, lesson pages keep the default's footprint.
type gcBoost struct {
	percent int // 0: leave the collector alone

	mu   sync.Mutex
	n    int // explorations running
	prev int // GOGC before the first of them
}

// enter raises GOGC for one exploration; the func it returns lowers it
// again.
func (g *gcBoost) enter() (leave func()) {
	if g.percent <= 0 {
		return func() {}
	}
	g.mu.Lock()
	if g.n == 0 {
		g.prev = debug.SetGCPercent(g.percent)
	}
	g.n++
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		g.n--
		if g.n == 0 {
			debug.SetGCPercent(g.prev)
		}
		g.mu.Unlock()
	}
}

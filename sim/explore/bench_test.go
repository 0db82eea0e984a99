package explore

import (
	"context"
	"runtime"
	"syscall"
	"testing"
	"time"

	"locklab/sim"
)

// cpuTime is the process's CPU time so far (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// labRow is one Lab request of issue 11's table, as the Lab configures
// the explorer for it (its state cap, depth and pause length).
type labRow struct {
	name, scenario              string
	clients, pauses, crashes, n int
}

var labRows = []labRow{
	{"fencing-pauses2", "fencing", 2, 2, 0, 0},
	{"safe-release-c3-p2", "safe-release", 3, 2, 0, 0},
	{"safe-release-c3-p2-crash1", "safe-release", 3, 2, 1, 0},
	{"redlock-c2-p1-nodes2", "redlock", 2, 1, 0, 2},
}

// BenchmarkExploreLab runs the four rows; it reports states and schedules
// explored and states per second of wall and of CPU time, over all its
// iterations. A safety stop of one minute keeps an old, slow explorer
// from running for ever (the result then says so).
func BenchmarkExploreLab(b *testing.B) {
	for _, row := range labRows {
		b.Run(row.name, func(b *testing.B) {
			sc, _ := sim.Lookup(row.scenario)
			var states, schedules, runs int
			var wall, cpu time.Duration
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			for b.Loop() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				cpu0 := cpuTime()
				start := time.Now()
				r, err := Run(ctx, Config{Scenario: sc, Clients: row.clients, Pauses: row.pauses,
					PauseMs: []int64{sc.TTL}, Crashes: row.crashes, NodeFaults: row.n, MaxStates: 20_000})
				wall += time.Since(start)
				cpu += cpuTime() - cpu0
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				states, schedules, runs = r.States, r.Schedules, runs+1
				b.Logf("%s: stopped=%q states=%d schedules=%d", row.name, r.Stopped, r.States, r.Schedules)
			}
			runtime.ReadMemStats(&m1)
			n := float64(runs)
			b.ReportMetric(float64(states), "states")
			b.ReportMetric(float64(schedules), "schedules")
			b.ReportMetric(float64(states)*n/wall.Seconds(), "states/s")
			// On a shared machine the wall clock measures the load as
			// much as the explorer: CPU time says what it cost.
			b.ReportMetric(float64(states)*n/cpu.Seconds(), "states/cpu-s")
			// Allocation is what the load does not change, and the
			// garbage collector's share follows it.
			b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/n/float64(states), "B/state")
		})
	}
}

package lockdesign

import (
	"context"
	"syscall"
	"testing"
	"time"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkGradePresets grades, as the design page does (2 then 3
// clients, 20,000 states each), the default design with each preset in
// turn put in its piece, in both write effects: every design a learner
// gets by choosing presets one at a time. It reports the grade's
// states, its wall time and states per CPU-second.
//
//	go test ./sim/lockdesign -run '^$' -bench GradePresets -benchtime 3x
func BenchmarkGradePresets(b *testing.B) {
	for _, pr := range Presets {
		effect := pr.Effect
		if effect == "" {
			effect = EffectSet
		}
		b.Run(pr.Piece.Name()+"="+pr.Name+"/"+effect, func(b *testing.B) {
			d := DefaultDesign()
			d.SetEffect(effect)
			d.SetScript(pr.Piece, pr.Script)
			var states, schedules int
			var wall, cpu time.Duration
			runs := 0
			for b.Loop() {
				cpu0, start := cpuTime(), time.Now()
				states, schedules = 0, 0
				for _, n := range []int{2, 3} {
					res, err := Grade(context.Background(), d, n, 20_000)
					if err != nil {
						b.Fatal(err)
					}
					states += res.States
					schedules += res.Schedules
				}
				wall += time.Since(start)
				cpu += cpuTime() - cpu0
				runs++
			}
			b.ReportMetric(float64(states), "states")
			// Each schedule is a child a worker computed (a step on the
			// servers and a fingerprint); states are the new ones.
			b.ReportMetric(float64(schedules), "schedules")
			b.ReportMetric(wall.Seconds()/float64(runs), "s/grade")
			b.ReportMetric(float64(states*runs)/cpu.Seconds(), "states/cpu-s")
		})
	}
}

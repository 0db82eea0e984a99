package site

import (
	"runtime/debug"
	"testing"
)

// gcPercent reads the collector's GOGC without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestGCBoost: GOGC is raised while any exploration runs, and the value
// from before the first is back after the last, however they overlap.
func TestGCBoost(t *testing.T) {
	before := gcPercent()
	g := &gcBoost{percent: before + 150}
	leave1 := g.enter()
	leave2 := g.enter()
	if p := gcPercent(); p != before+150 {
		t.Fatalf("during two explorations GOGC=%d, want %d", p, before+150)
	}
	leave1()
	if p := gcPercent(); p != before+150 {
		t.Fatalf("one exploration still runs, GOGC=%d, want %d", p, before+150)
	}
	leave2()
	if p := gcPercent(); p != before {
		t.Fatalf("after the last exploration GOGC=%d, want %d", p, before)
	}
	// percent 0 (the operator set GOGC) leaves the collector alone
	(&gcBoost{}).enter()()
	if p := gcPercent(); p != before {
		t.Fatalf("a boost of 0 changed GOGC to %d", p)
	}
}

package sim

import (
	"context"
	"fmt"
	"testing"
	"time"
)

func TestDesignTry3(t *testing.T) {
	d := DefaultDesign()
	t0 := time.Now()
	res, err := Grade(context.Background(), d, 3, 50000)
	if err != nil {
		t.Fatal(err)
	}
	s := ""
	for _, k := range GradeKinds {
		if f := res.Found[k]; f != nil {
			s += fmt.Sprintf(" %s:%d(%s)", k, len(f.Shortest), FormatActions(f.Shortest))
		}
	}
	t.Logf("states=%d sched=%d depth=%d cut=%v stop=%q %v:%s", res.States, res.Schedules, res.Depth, res.DepthCut, res.Stopped, time.Since(t0).Round(time.Millisecond), s)
}

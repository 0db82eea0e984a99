package lab

import (
	"strings"
	"testing"
	"time"

	"locklab/sim/explore"
	"locklab/web/i18n"
)

// TestClockStopSaysHowFar: a search the clock cut short says so with how
// far it got and what to lower, in every language, rather than only
// blaming the load (security test F15: bounds the form offers answered
// "too busy" on an idle server).
func TestClockStopSaysHowFar(t *testing.T) {
	res := &explore.Result{States: 31234, Depth: 9, Stopped: explore.StopTime}
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		e := clockStop(u, 10*time.Second, res)
		if e.Status != 503 || !strings.Contains(e.Text, u.Count(31234)) || !strings.Contains(e.Text, "10") || !strings.Contains(e.Text, "9") ||
			strings.ContainsAny(e.Text, "{}") {
			t.Errorf("%s: %d %q", lang, e.Status, e.Text)
		}
	}
}

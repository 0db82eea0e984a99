package lesson_test

import (
	"fmt"
	"net/http"
	"testing"

	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/lesson"
)

// TestTooSlowIsBusy: a replay that ran out of real time (the machine's
// load: the security retest saw ordinary five-action PNGs answered so
// during a flood) is a 503 to try again, logged as a refusal, never a
// 400 that tells the learner to shorten a good link; every other action
// error stays a 400.
func TestTooSlowIsBusy(t *testing.T) {
	u := i18n.For("en")
	slow := fmt.Errorf("replay: %w", &sim.ActionError{Index: 4, Action: "wait.4s", Code: sim.CodeTooSlow})
	if e := lesson.BadState(u, slow, "/en/lessons/ttl", nil); e.Status != http.StatusServiceUnavailable || e.Err != nil {
		t.Errorf("too slow: %d (err %v), want 503 with nothing to log as a failure", e.Status, e.Err)
	}
	bad := &sim.ActionError{Index: 0, Action: "a.fly", Code: sim.CodeUnknownVerb}
	if e := lesson.BadState(u, bad, "/en/lessons/ttl", nil); e.Status != http.StatusBadRequest {
		t.Errorf("an unknown verb: %d, want 400", e.Status)
	}
}

// model_redlock.go holds the Redlock client of the Redlock lesson: the same key
// and random value SET on every node in turn; the lock counts only with a
// majority and while time is left of its validity. The per-node replies are
// real; the verdict is the client's own arithmetic, shown as such.

package sim

import (
	"fmt"
	"strconv"
)

// Quorum is the majority of the scenario's nodes: N/2+1.
func (sc *Scenario) Quorum() int { return len(sc.Nodes)/2 + 1 }

// Drift is the clock-drift allowance of redlock-py and node-redlock:
// 1% of the TTL plus 2 ms.
func (sc *Scenario) Drift() int64 { return sc.TTL/100 + 2 }

// redlockAttempt: note the time, SET NX PX on every node, count the OKs,
// subtract the elapsed time and the drift from the TTL. A majority with
// validity left is a lock; anything else is undone on every node.
func (w *World) redlockAttempt(c *Client, purpose string) error {
	sc := w.sc
	start := w.clock.Now()
	c.setState(StateTrying, start) // until the round is counted: a slow node keeps it there
	oks := 0
	for _, n := range w.nodes {
		val, err := w.send(c, n, purpose, "SET", sc.LockKey(), c.value, "NX", "PX", sc.TTL)
		if err != nil && !failed(err) {
			return err
		}
		if val == "OK" {
			oks++
		}
	}
	w.observe(c.ID)
	elapsed := w.clock.Now() - start
	validity := sc.TTL - elapsed - sc.Drift()
	won := oks >= sc.Quorum() && validity > 0
	verdict := "failed"
	if won {
		verdict = "acquired"
	}
	w.record(Event{Actor: c.ID, Kind: KindRedlock, Model: true,
		Text: fmt.Sprintf("%d/%d OK (need %d) · elapsed %dms · validity %d−%d−%d = %sms → %s",
			oks, len(w.nodes), sc.Quorum(), elapsed, sc.TTL, elapsed, sc.Drift(), signed(validity), verdict)})
	if !won {
		// Undo on every node, even those that seemed to refuse: a reply
		// may have been lost after the key was set.
		if err := w.redlockUnlock(c, "unlock"); err != nil {
			return err
		}
		return w.tryLater(c)
	}
	c.validUntil = start + validity
	w.gotLock(c, true)
	return nil
}

// signed writes n with a true minus sign when negative, as the formula
// before it writes its subtractions.
func signed(n int64) string {
	if n < 0 {
		return "−" + strconv.FormatInt(-n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// redlockUnlock runs the compare-and-delete script on every node.
func (w *World) redlockUnlock(c *Client, purpose string) error {
	for _, n := range w.nodes {
		if _, err := w.send(c, n, purpose, "EVAL", ReleaseScript, 1, w.sc.LockKey(), c.value); err != nil && !failed(err) {
			return err
		}
	}
	w.observe(c.ID)
	return nil
}

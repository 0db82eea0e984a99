// faults.go holds what the learner can do to a client from outside its
// program: freeze it, wake it, kill it.
package sim

// pause freezes c: a stop-the-world pause (GC, SIGSTOP, a paused VM). The
// process notices nothing; Redis notices nothing; its lock keeps ageing.
func (w *World) pause(c *Client) {
	c.before = c.state
	c.setState(StatePaused, w.clock.Now())
	w.record(Event{Actor: c.ID, Kind: KindPause})
}

// resume lets c continue exactly where it was. A retry that came due while
// it slept runs at once.
func (w *World) resume(c *Client) error {
	c.setState(c.before, w.clock.Now())
	w.record(Event{Actor: c.ID, Kind: KindResume})
	if c.retryDue {
		c.retryDue = false
		return w.attempt(c, "retry")
	}
	return nil
}

// crash kills c. Its lock, if any, stays in Redis until the TTL ends; its
// pending retries die with it.
func (w *World) crash(c *Client) {
	w.queue.cancel(c.ID)
	c.retryDue = false
	c.setState(StateCrashed, w.clock.Now())
	w.record(Event{Actor: c.ID, Kind: KindCrash})
}

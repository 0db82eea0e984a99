// faults.go holds what the learner can do to a client from outside its
// program: freeze it, wake it, kill it.

package sim

// pause freezes c: a stop-the-world pause (GC, SIGSTOP, a paused VM). The
// process notices nothing; Redis notices nothing; its lock keeps ageing.
func (w *World) pause(c *Client) {
	c.before = c.state
	c.setState(StatePaused, w.clock.Now())
	w.record(Event{Actor: c.ID, Kind: KindPause})
	if w.coord != nil {
		w.coordSilent(c) // a frozen process sends no heartbeats
	}
}

// resume lets c continue exactly where it was. Timers that came due while
// it slept run at once, in the order they came due.
func (w *World) resume(c *Client) error {
	c.setState(c.before, w.clock.Now())
	w.record(Event{Actor: c.ID, Kind: KindResume})
	if w.coord != nil && !c.disconnected {
		// Heard again; if its session already expired, it does not
		// know yet: a resumed process carries on where it was.
		w.coordHeard(c)
	}
	due := c.due
	c.due = nil
	for _, k := range due {
		switch k {
		case timerRetry:
			w.retry(c.ID)
		case timerWriteRetry:
			w.rewrite(c.ID)
		}
	}
	return w.takeFail()
}

// drop makes the network lose the reply to c's next command — in a
// design, to its next command to the storage (its write): the design's
// clients handle a lost reply only there (Text "write" says so).
func (w *World) drop(c *Client) {
	c.dropNext = true
	ev := Event{Actor: c.ID, Kind: KindDrop}
	if w.sc.Scripted != nil {
		ev.Text = DropWrite
	}
	w.record(ev)
}

// DropWrite is the Text of a drop event that loses the reply to the
// client's next storage write.
const DropWrite = "write"

// crash kills c. Its lock, if any, stays in Redis until the TTL ends; its
// pending retries die with it.
func (w *World) crash(c *Client) {
	w.queue.cancel(c.ID)
	c.due, c.pending, c.pendingWhat, c.dropNext, c.dropWindow = nil, nil, "", false, false
	c.setState(StateCrashed, w.clock.Now())
	w.record(Event{Actor: c.ID, Kind: KindCrash})
	if w.coord != nil {
		w.coordSilent(c)
		return
	}
	w.checkOrphan(c)
}

// disconnect cuts c off from the coordination service, or from a
// design's Redis (its storage still answers: a partition between the
// two); the process runs on. A design's client then gets no answer from
// Redis (send): its renewals fail, and whether its work goes on is the
// design's (Scripted.CarryOn).
func (w *World) disconnect(c *Client) {
	c.disconnected = true
	if w.coord == nil {
		w.record(Event{Actor: c.ID, Kind: KindCut})
		return
	}
	lost := "CONNECTION_LOSS: outcome of pending calls unknown"
	if w.coord.svc == ServiceEtcd {
		lost = "keepalive stream broken: the lease lives until its TTL runs out"
	}
	w.modelCmd(c, "disconnect", lost, "connection lost")
	w.coordSilent(c)
}

// reconnect gives c its connection back.
func (w *World) reconnect(c *Client) {
	if w.coord != nil {
		w.coordReconnect(c)
		return
	}
	c.disconnected = false
	w.record(Event{Actor: c.ID, Kind: KindMend})
}

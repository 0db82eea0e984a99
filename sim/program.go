// program.go holds the clients' programs — acquire, work and write, extend,
// release — in every variant a lesson compares. A learner-started program
// may stop between two commands (a yield) so another client can run there;
// `next` continues it. Programs a client runs on its own (retries) never
// stop halfway.

package sim

// step is the rest of a program after a yield.
type step func(w *World, c *Client) error

// acquire starts c's program with a new lock value.
func (w *World) acquire(c *Client) error {
	c.value = w.newValue(c)
	c.token = 0
	if w.sc.lockKind(w.opts) == LockLocal {
		return w.localLock(c)
	}
	if w.coord != nil {
		return w.coordAcquire(c)
	}
	return w.attempt(c, "acquire", true)
}

// localLock is the in-process mutex of lesson 1: it always succeeds,
// because no other server can see it. A model: nothing is sent to Redis.
func (w *World) localLock(c *Client) error {
	w.record(Event{Actor: c.ID, Kind: KindLocal})
	w.gotLock(c, true)
	return nil
}

// attempt is one try at the lock in the scenario's acquire variant. With
// yield, a two-command variant stops after its first command.
func (w *World) attempt(c *Client, purpose string, yield bool) error {
	sc, key := w.sc, w.sc.LockKey()
	ttl := w.opts[OptTTL] != TTLOff
	if sc.Redlock {
		return w.redlockAttempt(c, purpose)
	}
	if sc.Scripted != nil {
		return w.designAttempt(c, purpose, yield, 0)
	}
	switch w.opts[OptAcquire] {
	case AcquireGetSet:
		val, err := w.send(c, w.primary, "check", "GET", key)
		if failed(err) || (err == nil && val != nil) {
			return w.tryLater(c)
		}
		if err != nil {
			return err
		}
		// The key looked free: SET it (no NX: the naive check-then-set).
		then := func(w *World, c *Client) error {
			args := []any{"SET", key, c.value}
			if ttl {
				args = append(args, "PX", sc.TTL)
			}
			_, err := w.send(c, w.primary, purpose, args...)
			w.observe(c.ID)
			if failed(err) {
				return w.tryLater(c)
			}
			if err != nil {
				return err
			}
			w.gotLock(c, true)
			return nil
		}
		return w.yieldOr(c, yield, StateChecking, "SET", then)
	case AcquireSetNX:
		val, err := w.send(c, w.primary, purpose, "SETNX", key, c.value)
		w.observe(c.ID)
		if failed(err) || (err == nil && val != int64(1)) {
			return w.tryLater(c)
		}
		if err != nil {
			return err
		}
		if !ttl {
			w.gotLock(c, true)
			return nil
		}
		// It holds a key with no TTL until the second command arrives.
		c.setState(StateHolding, w.clock.Now())
		w.enter(c)
		c.leaseEnd = leaseForever
		then := func(w *World, c *Client) error {
			// A lost reply here leaves the client unsure; it carries on.
			if _, err := w.send(c, w.primary, "expire", "PEXPIRE", key, sc.TTL); err != nil && !failed(err) {
				return err
			}
			w.observe(c.ID)
			w.gotLock(c, false)
			return nil
		}
		return w.yieldOr(c, yield, StateHolding, "PEXPIRE", then)
	default:
		args := []any{"SET", key, c.value, "NX"}
		if ttl {
			args = append(args, "PX", sc.TTL)
		}
		val, err := w.send(c, w.primary, purpose, args...)
		w.observe(c.ID)
		if failed(err) || (err == nil && val != "OK") {
			return w.tryLater(c)
		}
		if err != nil {
			return err
		}
		w.gotLock(c, true)
		return nil
	}
}

// yieldOr stops the program here (the learner continues it with `next`)
// or, for a program the client runs on its own, goes straight on.
func (w *World) yieldOr(c *Client, yield bool, st State, what string, then step) error {
	if !yield {
		return then(w, c)
	}
	c.setState(st, w.clock.Now())
	c.pending, c.pendingWhat = then, what
	return nil
}

// next runs the rest of c's program.
func (w *World) next(c *Client) error {
	then := c.pending
	c.pending, c.pendingWhat = nil, ""
	return then(w, c)
}

// tryLater puts c in the trying state with a retry after Retry ms — or,
// in a scenario whose clients try once (Retry 0, like a TryLock), gives up.
func (w *World) tryLater(c *Client) error {
	if w.sc.Retry == 0 {
		w.record(Event{Actor: c.ID, Kind: KindGiveUp})
		c.setState(StateIdle, w.clock.Now())
		return nil
	}
	c.setState(StateTrying, w.clock.Now())
	w.queue.schedule(w.clock.Now()+w.sc.Retry, timerRetry, c.ID)
	return nil
}

// gotLock is the end of a successful acquire: a fencing token if the
// scenario hands them out, then the client is inside. check is false when
// it entered at an earlier command of the program (SETNX before PEXPIRE):
// only its lease starts again here.
func (w *World) gotLock(c *Client, check bool) {
	from := w.clock.Now() // the key's TTL counts from here, not after the token or the replica's ack
	c.keyLeft = false
	w.acqEvent = len(w.events) - 1
	defer func() { w.acqEvent = -1 }()
	if w.sc.Tokens {
		tok, err := w.send(c, w.primary, "token", "INCR", w.sc.FenceKey())
		if isErrorReply(err) {
			// No token (the counter holds something INCR cannot count,
			// typed by hand): a client cannot write safely, so it gives
			// the lock back and stops, as one checking INCR's error would.
			// It did take the lock, for that moment.
			if check {
				w.enter(c)
			}
			if w.sc.Scripted != nil {
				if err := w.designRelease(c, 0); err != nil {
					w.fail = err
				}
				return
			}
			if _, err := w.send(c, w.primary, "release", "EVAL", ReleaseScript, 1, w.sc.LockKey(), c.value); err != nil && !failed(err) {
				w.fail = err
			}
			c.setState(StateIdle, w.clock.Now())
			return
		}
		if err != nil && !failed(err) {
			w.fail = err
			return
		}
		c.token, _ = tok.(int64)
	}
	if w.sc.Replicated && w.opts[OptWait] == WaitOn {
		acked, err := w.waitReplica(c)
		if err != nil {
			w.fail = err
			return
		}
		if !acked {
			// Not on the replica: a failover could lose it. Do not trust
			// it, and take the key back where it may still be.
			if !w.primary.down {
				if _, err := w.send(c, w.primary, "release", "EVAL", ReleaseScript, 1, w.sc.LockKey(), c.value); err != nil && !failed(err) {
					w.fail = err
					return
				}
			}
			// It gave the lock back: its next try is a new acquisition,
			// with a new value (lesson 4's rule).
			c.value = w.newValue(c)
			_ = w.tryLater(c)
			return
		}
	}
	c.setState(StateHolding, w.clock.Now())
	if check {
		w.enterFrom(c, from)
	} else {
		w.startLease(c, from)
	}
	if w.sc.Scripted != nil {
		w.designGot(c)
	}
}

// retry is a trying client's own timer going off.
func (w *World) retry(id string) {
	c := w.client(id)
	switch c.state {
	case StatePaused:
		c.due = append(c.due, timerRetry)
	case StateTrying:
		if err := w.attempt(c, "retry", false); err != nil {
			w.fail = err
		}
	}
}

// write is c working for Work ms (time passes for everyone) and then
// writing its result to the storage.
func (w *World) write(c *Client) error {
	if w.sc.Scripted != nil {
		return w.designWork(c)
	}
	c.setState(StateWorking, w.clock.Now())
	work := w.sc.WorkMs(w.opts)
	w.record(Event{Actor: c.ID, Kind: KindWork, Ms: work})
	w.runUntil(w.clock.Now() + work)
	if w.fail != nil {
		return w.fail
	}
	c.setState(StateHolding, w.clock.Now())
	if w.opts[OptCheck] == CheckGet {
		return w.checkThenWrite(c)
	}
	return w.sendWrite(c, true)
}

// checkThenWrite is a client asking Redis "is the lock still mine?" (GET,
// compared with its own value) before it writes. The answer is true when
// Redis gives it; the program stops right after it (`next` sends the
// write), because a pause there — between the check and the write — is
// what the check cannot see. A client that finds the lock gone stops.
func (w *World) checkThenWrite(c *Client) error {
	seen, err := w.send(c, w.primary, "stillmine", "GET", w.sc.LockKey())
	if err != nil && !failed(err) {
		return err
	}
	if err != nil || seen != c.value {
		c.setState(StateIdle, w.clock.Now()) // no answer, or not mine: do not write
		return nil
	}
	return w.yieldOr(c, true, StateHolding, w.writeCommand(), func(w *World, c *Client) error {
		return w.sendWrite(c, true)
	})
}

// writeCommand is the first command of c's write, as the controls name
// what `next` sends.
func (w *World) writeCommand() string {
	switch {
	case w.sc.Storage == StoreCharges && w.opts[OptIdem] == IdemKey:
		return "EVAL"
	case w.sc.Storage == StoreCharges:
		return "RPUSH"
	case w.opts[OptFence] == FenceOff:
		return "SET"
	case w.opts[OptFence] == FenceTwoStep:
		return "GET"
	}
	return "EVAL"
}

// sendWrite sends the write itself; a client whose reply was lost does not
// know whether it happened, so it sends the write again after Retry ms.
// With yield, a two-command storage check stops between its commands.
func (w *World) sendWrite(c *Client, yield bool) error {
	if w.sc.Storage == StoreFenced && w.opts[OptFence] == FenceTwoStep {
		return w.twoStepWrite(c, yield)
	}
	ok, lost, err := w.storageWrite(c)
	if err != nil {
		return err
	}
	if lost {
		w.queue.schedule(w.clock.Now()+w.sc.Retry, timerWriteRetry, c.ID)
	}
	if ok {
		w.checkWrite(c)
	}
	return nil
}

// rewrite is the timer of a write whose reply was lost.
func (w *World) rewrite(id string) {
	c := w.client(id)
	switch {
	case c.state == StatePaused:
		c.due = append(c.due, timerWriteRetry)
	case c.inside():
		if err := w.sendWrite(c, false); err != nil {
			w.fail = err
		}
	}
}

// extend pushes the TTL out again, but only while the key still holds c's
// value (a compare-and-PEXPIRE script). A 0 tells c it has lost the lock:
// it leaves the critical section, as a careful client would.
func (w *World) extend(c *Client) error {
	if w.sc.Scripted != nil {
		ok, err := w.designExtend(c)
		if err == nil && !ok {
			c.setState(StateIdle, w.clock.Now())
		}
		return err
	}
	val, err := w.send(c, w.primary, "extend", "EVAL", ExtendScript, 1, w.sc.LockKey(), c.value, w.sc.TTL)
	if err != nil && !failed(err) {
		return err
	}
	w.observe(c.ID)
	if val != int64(1) {
		c.setState(StateIdle, w.clock.Now())
		return nil
	}
	c.leaseEnd = w.clock.Now() + w.sc.TTL
	return nil
}

// askTTL: c asks how long the lock key has left (PTTL). It changes
// nothing; the reply says -1 for a key with no expiry (an orphan if its
// holder is gone) and -2 for no key at all.
func (w *World) askTTL(c *Client) error {
	if _, err := w.send(c, w.primary, "ttl", "PTTL", w.sc.LockKey()); err != nil && !failed(err) {
		return err
	}
	return nil
}

// release ends c's critical section in the scenario's release variant.
// Whatever the reply, the client then believes it is out.
func (w *World) release(c *Client) error {
	key := w.sc.LockKey()
	if w.coord != nil {
		return w.coordRelease(c)
	}
	if w.sc.lockKind(w.opts) == LockLocal {
		w.record(Event{Actor: c.ID, Kind: KindLocalUnlock})
		c.setState(StateIdle, w.clock.Now())
		return nil
	}
	if w.sc.Scripted != nil {
		return w.designRelease(c, 0)
	}
	if w.sc.Redlock {
		err := w.redlockUnlock(c, "release")
		c.setState(StateIdle, w.clock.Now())
		return err
	}
	switch w.opts[OptRelease] {
	case ReleaseDel:
		return w.deleteAs(c, "DEL", key)
	case ReleaseDelex:
		return w.deleteAs(c, "DELEX", key, "IFEQ", c.value)
	case ReleaseGetDel:
		seen, err := w.send(c, w.primary, "check", "GET", key)
		if err != nil && !failed(err) {
			return err
		}
		then := func(w *World, c *Client) error {
			if seen != c.value {
				c.setState(StateIdle, w.clock.Now())
				return nil // not mine any more: leave it
			}
			return w.deleteAs(c, "DEL", key)
		}
		return w.yieldOr(c, true, StateHolding, "DEL", then)
	default:
		return w.deleteAs(c, "EVAL", ReleaseScript, 1, key, c.value)
	}
}

// deleteAs sends one deleting command for c and checks whose lock it
// removed, comparing with what the node held just before.
func (w *World) deleteAs(c *Client, args ...any) error {
	before, _ := w.primary.peek(w.sc.LockKey())
	owner := w.keyOwner(w.primary, before) // whose acquisition it is, before it goes
	_, err := w.send(c, w.primary, "release", args...)
	if err != nil && !failed(err) {
		return err
	}
	if after, ok := w.primary.peek(w.sc.LockKey()); before != "" && (!ok || after != before) {
		w.checkRelease(c, before, owner, ok)
	}
	c.setState(StateIdle, w.clock.Now())
	return nil
}

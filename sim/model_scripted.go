// model_scripted.go runs a design's scripts as the clients' programs: every
// part of every piece is one real EVAL, its reply whatever Redis answered
// (an error reply included: a script that fails at run time shows as the
// error on the timeline, and the program carries on as a client would
// after a failed command). The checks that only designs need sit here
// too: a client's own lease, two holders at once, a double write, a lock
// its release left behind.

package sim

import "locklab/sim/rediscli"

// designOK is a reply that counts as success: what lets a piece go on to
// its next part, and what says the lock was taken, extended or the write
// accepted. 1 and OK; anything else (0, nil, an error) is no. (A script's
// OK reaches go-redis as a string like any other, so it reads as a bulk
// "OK" here.)
func designOK(r rediscli.Reply) bool {
	return r.IsOK() || r.IsInt(1) || (r.Kind == rediscli.ReplyBulk && r.Str == "OK")
}

// partsOf is the parts of piece p of the world's design.
func (w *World) partsOf(p Piece) []string { return w.sc.Scripted.parts[p] }

// designWhat is what `next` sends: the EVAL of the piece's next part.
func (w *World) designWhat(p Piece, part int) string {
	name := w.sc.Scripted.names[w.partsOf(p)[part]]
	return "EVAL ‹" + name + ".lua›"
}

// designEval sends part of piece p for c and returns the reply Redis gave.
// On the lock node it then looks at whose key changed: a script that
// deleted or replaced another client's lock removed someone else's lock,
// whatever the script meant.
func (w *World) designEval(c *Client, p Piece, part int, purpose string) (rediscli.Reply, error) {
	body := w.partsOf(p)[part]
	key := w.sc.LockKey()
	n := w.primary
	var args []any
	switch p {
	case PieceAcquire, PieceExtend:
		args = []any{"EVAL", body, 1, key, c.value, w.sc.TTL}
	case PieceRelease:
		args = []any{"EVAL", body, 1, key, c.value}
	default:
		n = w.store
		args = []any{"EVAL", body, 2, w.sc.DataKey(), w.sc.TokenKey(), c.token, w.sc.Scripted.WriteArg(c.Name())}
	}
	before, had, owner := "", false, ""
	if n == w.primary {
		before, had = n.peek(key)
		owner = w.keyHolder(n) // whose lock it is, before it goes
	}
	if _, err := w.send(c, n, purpose, args...); err != nil && !failed(err) {
		return rediscli.Reply{}, err
	}
	reply := w.events[len(w.events)-1].Reply
	if p == PieceAcquire && n == w.primary && designOK(reply) {
		w.claimKey(c)
	}
	if reply.Kind == rediscli.ReplyError && !n.down {
		w.violateHold(ScriptError, "", p.Name(), c.ID)
	}
	if n == w.primary {
		after, ok := n.peek(key)
		changed := had && (!ok || after != before)
		// An acquire that replaced another's key is judged where every
		// acquisition is (enter: two holders, or what a lease allows),
		// as in the lessons; a release or an extend that did removed
		// someone else's lock.
		if changed && owner != "" && owner != c.ID && p != PieceAcquire {
			why := WhyDeleted
			if ok {
				why = WhyReplaced
			}
			w.violateHold(ForeignDelete, "", why, c.ID, owner)
		}
	}
	return reply, nil
}

// designAttempt is one try at the lock with the design's acquire script,
// from part i. A learner-started try stops between two parts (yield).
func (w *World) designAttempt(c *Client, purpose string, yield bool, i int) error {
	prior := w.keyHolder(w.primary)
	r, err := w.designEval(c, PieceAcquire, i, purpose)
	if err != nil {
		return err
	}
	if !designOK(r) {
		w.checkRefused(c, r, prior)
		return w.tryLater(c)
	}
	if i+1 == len(w.partsOf(PieceAcquire)) {
		w.gotLock(c, true)
		return nil
	}
	then := func(w *World, c *Client) error { return w.designAttempt(c, purpose, yield, i+1) }
	return w.yieldOr(c, yield, StateChecking, w.designWhat(PieceAcquire, i+1), then)
}

// designGot opens the window in which the explorer may lose the reply to
// c's write (its lease was started by enter: the TTL it asked for,
// counted from now, as a careful client counts it).
func (w *World) designGot(c *Client) {
	c.dropWindow = true
}

// designWork is the design's work and write: with an extend script the
// client works in slices of at most half the TTL and runs the script
// after each (the last one just before writing); a reply that is not
// success tells it the lock is gone, and it stops without writing — or,
// where the design carries on (Scripted.CarryOn, a renewal thread), its
// renewal stops and the work goes on to the write, and the renewal runs
// after each slice but the last (a thread does not wait for the write).
func (w *World) designWork(c *Client) error {
	c.dropWindow = false
	c.setState(StateWorking, w.clock.Now())
	renew := w.sc.Scripted.extends
	left, slice := w.sc.Work, w.sc.Work
	if renew {
		slice = max(w.sc.TTL/2, 1)
	}
	for left > 0 {
		n := min(left, slice)
		w.record(Event{Actor: c.ID, Kind: KindWork, Ms: n})
		w.runUntil(w.clock.Now() + n)
		if w.fail != nil {
			return w.fail
		}
		left -= n
		if !renew || (left == 0 && w.sc.Scripted.CarryOn) {
			continue // a renewal thread does not wait for the write
		}
		ok, err := w.designExtend(c)
		if err != nil {
			return err
		}
		switch {
		case !ok && w.sc.Scripted.CarryOn:
			w.events[len(w.events)-1].Purpose = PurposeRenewGaveUp
			renew = false
		case !ok:
			w.events[len(w.events)-1].Purpose = PurposeRenewLost
			c.setState(StateIdle, w.clock.Now())
			return nil
		}
	}
	c.setState(StateHolding, w.clock.Now())
	return w.designWrite(c, 0)
}

// The purposes of a design's extend that failed (its event's Purpose,
// set once the client has decided): the renewal gave up and the work goes
// on (a renewal thread), or the work stops and writes nothing.
const (
	PurposeRenewGaveUp = "extend-gave-up"
	PurposeRenewLost   = "extend-lost"
)

// designExtend runs every part of the extend script; success renews c's
// lease.
func (w *World) designExtend(c *Client) (bool, error) {
	for i := range w.partsOf(PieceExtend) {
		r, err := w.designEval(c, PieceExtend, i, "extend")
		if err != nil || !designOK(r) {
			return false, err
		}
	}
	c.leaseEnd = w.designLeaseEnd(c)
	w.checkRenewal(c)
	return true, nil
}

// designWrite sends part i of the storage's write script. The write is
// accepted if every part answers success; the last part's event carries
// the verdict (or the first part that said no). A part whose reply was
// lost (a.drop) leaves the client not knowing whether the storage took
// its write, so it sends the same write again, from its first part, with
// the same token and value; `next` sends it, so others may act first.
// The storage's verdict on the lost attempt is what it really did.
func (w *World) designWrite(c *Client, i int) error {
	c.dropWindow = false
	before, _ := w.store.peek(w.sc.DataKey())
	r, err := w.designEval(c, PieceWrite, i, "write")
	if err != nil {
		return err
	}
	after, _ := w.store.peek(w.sc.DataKey())
	ev := &w.events[len(w.events)-1]
	lost := ev.Lost
	if w.sc.Scripted.readsToken {
		ev.Token = c.token // a script that never reads ARGV[1] carries no token, as a plain SET does not
	}
	last := i+1 == len(w.partsOf(PieceWrite))
	// What the storage did, not only what the script answered: a part
	// that changed the record took the write, whatever it replied (a
	// script that stores first and checks after says 0 to a write it
	// has already taken).
	landed := designOK(r) || after != before
	if !designOK(r) || last {
		ok := landed
		ev.Accepted = &ok
		if ok {
			w.designAccepted(c)
		} else {
			w.checkWriteRefused(c, r)
		}
	}
	if lost {
		c.dropWindow = true
		then := func(w *World, c *Client) error { return w.designWrite(c, 0) }
		return w.yieldOr(c, true, StateHolding, w.designWhat(PieceWrite, 0), then)
	}
	if designOK(r) && !last {
		c.dropWindow = true // the next part's reply may be lost too
		then := func(w *World, c *Client) error { return w.designWrite(c, i+1) }
		return w.yieldOr(c, true, StateHolding, w.designWhat(PieceWrite, i+1), then)
	}
	return nil
}

// designAccepted runs the checks of a write the storage accepted. A
// second accepted write under the same acquisition (the same token: a
// retry after a lost reply) is a repeated write when the write adds to a
// total; when it sets the record, the retry wrote what was already there.
func (w *World) designAccepted(c *Client) {
	if c.wrote && w.sc.Scripted.adds {
		w.violate(RepeatedWrite, c.ID)
	}
	w.checkWrite(c)
}

// designRelease runs the release script from part i; the client then
// believes it is out, whatever the replies. A lock that still holds its
// value afterwards was not released — unless the release never reached
// Redis (the client was cut off): then its key is left to its TTL.
func (w *World) designRelease(c *Client, i int) error {
	c.dropWindow = false
	r, err := w.designEval(c, PieceRelease, i, "release")
	if err != nil {
		return err
	}
	if designOK(r) && i+1 < len(w.partsOf(PieceRelease)) {
		then := func(w *World, c *Client) error { return w.designRelease(c, i+1) }
		return w.yieldOr(c, true, StateHolding, w.designWhat(PieceRelease, i+1), then)
	}
	if c.disconnected && !w.primary.down {
		c.keyLeft = true // cut off: the script never reached Redis, and says nothing
	} else if v, ok := w.primary.peek(w.sc.LockKey()); ok && v == c.value {
		w.violate(NotReleased, c.ID)
	}
	c.setState(StateIdle, w.clock.Now())
	return nil
}

// checkRefused runs when c's acquire was refused (r: not an error, which
// is a script error of its own). A refusal while no one holds the lock —
// no other client inside or part-way through a piece, and the key before
// the call (prior: its keyHolder) no crashed holder's, whose TTL or
// orphaning is judged apart — means a client that asks cannot get the
// lock: the lock does not work.
func (w *World) checkRefused(c *Client, r rediscli.Reply, prior string) {
	if r.Kind == rediscli.ReplyError || w.primary.down || c.disconnected {
		return // (cut off: Redis never heard it)
	}
	for _, d := range w.clients {
		if d != c && (d.inside() || d.pending != nil) {
			return
		}
	}
	if o := w.client(prior); o != nil && (o.state == StateCrashed || (o.keyLeft && w.primary.ttl(w.sc.LockKey()) > 0)) {
		return // its TTL will end it (a key left with none never ends: that refusal counts)
	}
	why := ""
	switch {
	case prior != c.ID && w.keyHolder(w.primary) == c.ID:
		why = WhyTook // its own call took the key, and answered no
	case prior != c.ID && w.client(prior) != nil:
		why = WhyLeftKey // no client held it, but another client's key was there
	}
	w.violateHold(LockRefused, "", why, c.ID)
}

// checkWriteRefused runs when the storage refused c's write (r: not an
// error): refusing the newest holder, whose lease is valid and whose
// write was not taken already (a retry after a lost reply may be refused
// for having landed), protects no one. Refusing an older holder, or one
// whose lease ran out, is the fence doing its work.
func (w *World) checkWriteRefused(c *Client, r rediscli.Reply) {
	if r.Kind == rediscli.ReplyError || w.store.down || c.wrote {
		return
	}
	if c.acq == w.acquisitions && w.leaseValid(c) {
		w.violate(WriteRefused, c.ID)
	}
}

// claimKey makes the lock key's present life c's, where its value is no
// client's (INCR's 1, a constant every client stores): c's acquire that
// answered yes took it, so the lanes, the pictures' "who holds the lock"
// and the checks read it as c's, as they read a key holding c's value.
func (w *World) claimKey(c *Client) {
	for i := len(w.locks) - 1; i >= 0; i-- {
		if l := &w.locks[i]; l.Node == w.primary.Name {
			if l.End == "" && l.Owner == "" {
				l.Owner = c.ID
			}
			return
		}
	}
}

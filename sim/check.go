// check.go holds the checks that run after the steps that can break
// something, each reporting one kind of kinds.go. A client's lease is
// what the checks compare against: from the moment it got the lock until
// its own count of the TTL runs out (no TTL: never), renewed by an
// extend; for Redlock its validity; in the ZooKeeper and etcd models, as
// long as the service still holds its session or lease.

package sim

import (
	"math"
	"strings"
)

// leaseForever is the lease of a lock with no TTL (or a process's own
// mutex): it never runs out.
const leaseForever = math.MaxInt64

// enter is c coming to hold the lock (an acquisition): it is numbered in
// the order the lock was handed out, its lease starts, and anyone else
// still inside is now inside with it.
func (w *World) enter(c *Client) {
	w.enterFrom(c, w.clock.Now())
}

// enterFrom is enter for a client whose lease counts from an earlier
// instant: the one its command set the key's TTL.
func (w *World) enterFrom(c *Client, from int64) {
	w.acquisitions++
	c.acq, c.wrote = w.acquisitions, false
	w.startLease(c, from)
	w.checkOverlap(c)
}

// startLease sets c's lease: the TTL it asked for counted from the
// instant the key got it (from) — a client that waits for a replica
// before going on must not count the wait as time it holds — or none.
func (w *World) startLease(c *Client, from int64) {
	switch {
	case w.sc.Scripted != nil:
		c.leaseEnd = w.designLeaseEnd(c)
	case w.sc.Redlock:
		c.leaseEnd = c.validUntil
	case w.sc.lockKind(w.opts) == LockLocal || w.opts[OptTTL] == TTLOff:
		c.leaseEnd = leaseForever
	default:
		c.leaseEnd = from + w.sc.TTL
	}
}

// designLeaseEnd is when a design's lease runs out by c's own count:
// the TTL it passed to the script, from now — unless the script left its
// key with no TTL at all, which holds until someone deletes it (judging
// that lock by a count its key does not have would call its holder's
// write late while no one else could take the lock).
func (w *World) designLeaseEnd(c *Client) int64 {
	key := w.sc.LockKey()
	if v, ok := w.primary.peek(key); ok && v == c.value && w.primary.ttl(key) <= 0 {
		return leaseForever
	}
	return w.clock.Now() + w.sc.TTL
}

// leaseValid reports whether d's lease has not run out: by its own count,
// or — in the coordination models — by the service's.
func (w *World) leaseValid(d *Client) bool {
	if w.coord != nil {
		return w.coordHolds(d)
	}
	return d.leaseEnd > w.clock.Now()
}

// checkOverlap runs when c has just acquired (or renewed): anyone else who
// still believes it is inside is now inside with c. While that one's
// lease is valid the lock itself failed (two holders); after it ran out,
// that is what every lease allows (an overlap).
func (w *World) checkOverlap(c *Client) {
	for _, d := range w.clients {
		if d == c || !d.inside() {
			continue
		}
		switch {
		case w.leaseValid(d):
			w.violateHold(TwoHolders, w.holdOf(d), w.whyValid(d), c.ID, d.ID)
		case w.overran(d):
			// d's own work ran the clock past a lease that was valid
			// when the work began (a client's work is the one move that
			// lets time pass while it runs): every run of this job
			// overruns, with no fault at all.
			w.violateHold(LeaseOverrun, w.holdOf(d), "", c.ID, d.ID)
		default:
			w.violateHold(Overlap, w.holdOf(d), w.whyActing(d), c.ID, d.ID)
		}
		// found on the command that took the lock, not on the token's
		// INCR that followed it in the same instant (after a WAIT that
		// blocked, the client took it only when the WAIT returned)
		if e := w.acqEvent; e >= 0 && w.events[e].At == w.clock.Now() {
			w.violations[len(w.violations)-1].Event = e
		}
	}
}

// overran reports whether d is working, its lease was valid when the
// work began, the work is not shorter than the whole lease (the TTL it
// asked for: a job exactly as long ends as its lease does, and its write
// comes after) and nothing renews the lease while it runs: the job
// overruns its lease whenever it runs, with no fault. A holder whose
// lease ran out while it was paused or cut off, or while it waited for
// its turn to work (others' pauses let time pass), overran nothing a
// shorter job would not.
func (w *World) overran(d *Client) bool {
	if d.state != StateWorking || d.disconnected || len(d.spans) == 0 || w.holdOf(d) != HoldTTL {
		return false
	}
	if w.sc.Scripted != nil && w.sc.Scripted.extends {
		// a client that renews while it works is not outrun by its job's
		// length: its lease ran out because its work began late or a
		// renewal met the expiry (what a lease allows), not by design
		return false
	}
	return d.leaseEnd > d.spans[len(d.spans)-1].From && w.sc.WorkMs(w.opts) >= w.sc.TTL
}

// whyValid is why d still held the lock when another took it, where the
// servers disagree with its own count: its key on the lock node expired
// before the TTL d counts by (a script's short PX, a TTL typed by hand),
// WhyKeyExpired; "" otherwise (and for the holds other than a key's TTL).
func (w *World) whyValid(d *Client) string {
	if w.primary == nil || w.holdOf(d) != HoldTTL {
		return ""
	}
	for i := len(w.locks) - 1; i >= 0; i-- {
		if l := &w.locks[i]; l.Node == w.primary.Name && l.Owner == d.ID {
			if l.End == EndExpired && l.To < d.leaseEnd {
				return WhyKeyExpired
			}
			return ""
		}
	}
	return ""
}

// holdOf is what d's hold on the lock is, for the words of a failure
// that hurt it: the scenario's kind of lock, and for a key whether it has
// a TTL.
func (w *World) holdOf(d *Client) string {
	switch {
	case w.coord != nil && w.coord.svc == ServiceEtcd:
		return HoldLease
	case w.coord != nil:
		return HoldSession
	case w.sc.lockKind(w.opts) == LockLocal:
		return HoldMutex
	case w.sc.Redlock:
		return HoldValidity
	case d.leaseEnd == leaseForever:
		return HoldForever
	}
	return HoldTTL
}

// whyActing is why d still acts as the holder after its hold ended: it is
// frozen, or cut off from the service, or it runs on although its own
// count has run out (it could know, and does not stop).
func (w *World) whyActing(d *Client) string {
	switch {
	case d.state == StatePaused:
		return WhyPaused
	case d.disconnected && w.coord == nil:
		return WhyCutRedis
	case d.disconnected:
		return WhyCutOff
	}
	return WhyUnaware
}

// checkRenewal runs when c's lease was renewed (a design's extend): a
// renewal while another holder's lease is valid makes two holders.
func (w *World) checkRenewal(c *Client) {
	for _, d := range w.clients {
		if d != c && d.inside() && w.leaseValid(d) {
			w.violateHold(TwoHolders, w.holdOf(d), WhyRenewed, c.ID, d.ID)
		}
	}
}

// checkWrite runs after the storage accepted c's write, and reports the
// worst one thing it was: an older holder's write landing after a newer
// holder's (stale: the newer result is replaced — not for a write that
// adds to a total, where both amounts count whatever their order), a
// second holder's write under valid leases (double), or a write after
// c's own lease ran out that overwrote nothing newer (late). A charge
// already reported as a double charge is not reported again.
func (w *World) checkWrite(c *Client) {
	ev := len(w.events) - 1
	if n := len(w.violations); n > 0 && w.violations[n-1].Event == ev && ClassOf(w.violations[n-1].Kind) == ClassHarm {
		c.wrote = true
		return
	}
	defer func() { c.wrote = true }()
	if w.sc.Storage == StoreFenced {
		adds := w.sc.Scripted != nil && w.sc.Scripted.Adds()
		if c.acq < w.newestWrite && !adds {
			w.violate(StaleWrite, c.ID, w.newestWriter)
			return
		}
		if c.acq > w.newestWrite {
			w.newestWrite, w.newestWriter = c.acq, c.ID
		}
		if w.leaseValid(c) {
			for _, d := range w.clients {
				if d != c && d.inside() && d.wrote && w.leaseValid(d) {
					w.violate(DoubleWrite, c.ID, d.ID)
					return
				}
			}
		}
	}
	if !w.leaseValid(c) {
		why, newer := WhyNone, ""
		if w.acquisitions > c.acq {
			why, newer = WhyNewer, w.latest()
			if d := w.client(newer); d != nil && d.wrote {
				why = WhyNewerWrote // only where the write adds (else it is a stale write)
			}
		}
		w.violateHold(LateWrite, w.holdOf(c), why, c.ID, newer)
	}
}

// latest is the client of the latest acquisition.
func (w *World) latest() string {
	for _, d := range w.clients {
		if d.acq == w.acquisitions {
			return d.ID
		}
	}
	return ""
}

// checkRelease runs after c's release deleted the key: if the lock it
// deleted was not c's own acquisition, c removed someone else's lock —
// even when the value was equal to c's (value.host), which is why the
// owner comes from the acquisition that set the key (owner, keyOwner),
// not from the value.
func (w *World) checkRelease(c *Client, deletedValue, owner string, replaced bool) {
	if deletedValue != c.value || owner != c.ID {
		why := WhyDeleted
		if replaced {
			why = WhyReplaced
		}
		w.violateHold(ForeignDelete, "", why, c.ID, owner)
	}
}

// checkByHand runs after a typed command changed the lock key on n: a
// key whose owner still holds the lock, deleted or given another value
// by hand, is someone else's lock removed — the operator's doing, judged
// as a client's would be. Deleting a key whose owner is gone (a crashed
// holder's key with no TTL) removes no one's lock: it ends the orphan.
func (w *World) checkByHand(n *Node, seq int) {
	for i := len(w.locks) - 1; i >= 0; i-- {
		l := w.locks[i]
		if l.Node != n.Name || l.EndEvent != seq || l.DeletedBy != Operator {
			continue
		}
		if o := w.client(l.Owner); o != nil && o.inside() && o.value == l.Value && !w.keepsMajority(o) {
			why := WhyDeleted
			if l.End == EndOverwritten {
				why = WhyReplaced
			}
			w.violateHold(ForeignDelete, "", why, Operator, l.Owner)
		}
	}
}

// checkShortened runs when l's key expired on a TTL typed by hand: if its
// owner still holds the lock by its own count, the lock was taken from it
// early — by the operator, as a deletion would have been; the key's
// expiry alone would read as a lease running out.
func (w *World) checkShortened(l *LockSpan) {
	if o := w.client(l.Owner); o != nil && o.inside() && o.value == l.Value && w.leaseValid(o) && !w.keepsMajority(o) {
		w.violateHold(ForeignDelete, "", WhyShortened, Operator, l.Owner)
	}
}

// keepsMajority: in Redlock, o's key is still on a majority of the nodes,
// so one key taken by hand took nothing from it (the lesson's "two nodes
// may fail"); whether someone else can now get a majority is judged when
// they try. Other scenarios have one lock node: false.
func (w *World) keepsMajority(o *Client) bool {
	if !w.sc.Redlock {
		return false
	}
	n := 0
	for _, node := range w.nodes {
		if v, ok := node.peek(w.sc.LockKey()); ok && v == o.value {
			n++
		}
	}
	return n >= w.sc.Quorum()
}

// endOrphan runs when owner's lock span on the primary ended by by's
// command, or by's command gave it a TTL (why: WhyGaveTTL): a lock that
// was held forever (Orphan) is held no longer.
func (w *World) endOrphan(owner, by, why string) {
	for i := range w.violations {
		v := &w.violations[i]
		if v.Kind == Orphan && !v.Ended() && len(v.Actors) > 0 && v.Actors[0] == owner {
			v.Until, v.Why = w.clock.Now(), why
			v.Actors = append(v.Actors[:1], by)
		}
	}
}

// checkCharges runs after a charge went through: more than one charge on
// the order is a double charge.
func (w *World) checkCharges() {
	charges := w.store.list(w.sc.ChargesKey())
	if len(charges) > 1 {
		w.violate(DoubleCharge, strings.ToLower(charges[len(charges)-1]), strings.ToLower(charges[0]))
	}
}

// checkOrphan runs when c crashed: if its lock key is still there with no
// TTL, nothing will ever remove it; a design's key that the server keeps
// for more than twice the TTL the client asked for blocks everyone that
// long (a unit or a hard-coded number wrong). The key looked at is the
// primary's (a Redlock client's first node's).
func (w *World) checkOrphan(c *Client) {
	if w.primary == nil {
		return
	}
	if w.keyHolder(w.primary) != c.ID {
		return
	}
	switch ttl := w.primary.ttl(w.sc.LockKey()); {
	case ttl == 0:
		w.violate(Orphan, c.ID)
	case w.sc.Scripted != nil && ttl > 2*w.sc.TTL:
		w.violate(LingeringLock, c.ID)
	}
}

func (w *World) violate(k ViolationKind, actors ...string) {
	w.violateHold(k, "", "", actors...)
}

// violateHold is violate with the words' circumstances (Violation.Hold,
// Violation.Why).
func (w *World) violateHold(k ViolationKind, hold, why string, actors ...string) {
	var as []string
	for _, a := range actors {
		if a != "" {
			as = append(as, a)
		}
	}
	w.violations = append(w.violations, Violation{
		At: w.clock.Now(), Step: w.step, Event: len(w.events) - 1, Kind: k, Actors: as, Hold: hold, Why: why,
	})
}

// ownerOf finds the client whose lock value v is ("" if none).
func (w *World) ownerOf(v string) string {
	if v == "" {
		return ""
	}
	for _, c := range w.clients {
		if c.value == v {
			return c.ID
		}
	}
	return ""
}

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
	w.acquisitions++
	c.acq, c.wrote = w.acquisitions, false
	w.startLease(c)
	w.checkOverlap(c)
}

// startLease sets c's lease from now: the TTL it asked for, or none.
func (w *World) startLease(c *Client) {
	switch {
	case w.sc.Design != nil:
		c.leaseEnd = w.clock.Now() + w.sc.TTL
	case w.sc.Redlock:
		c.leaseEnd = c.validUntil
	case w.sc.lockKind(w.opts) == LockLocal || w.opts[OptTTL] == TTLOff:
		c.leaseEnd = leaseForever
	default:
		c.leaseEnd = w.clock.Now() + w.sc.TTL
	}
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
		if w.leaseValid(d) {
			w.violate(TwoHolders, c.ID, d.ID)
		} else {
			w.violate(Overlap, c.ID, d.ID)
		}
	}
}

// checkRenewal runs when c's lease was renewed (a design's extend): a
// renewal while another holder's lease is valid makes two holders.
func (w *World) checkRenewal(c *Client) {
	for _, d := range w.clients {
		if d != c && d.inside() && w.leaseValid(d) {
			w.violate(TwoHolders, c.ID, d.ID)
		}
	}
}

// checkWrite runs after the storage accepted c's write, and reports the
// worst one thing it was: an older holder's write landing after a newer
// holder's (stale), a second holder's write under valid leases (double),
// or a write after c's own lease ran out that overwrote nothing newer
// (late). A charge already reported as a double charge is not reported
// again.
func (w *World) checkWrite(c *Client) {
	ev := len(w.events) - 1
	if n := len(w.violations); n > 0 && w.violations[n-1].Event == ev && ClassOf(w.violations[n-1].Kind) == ClassHarm {
		c.wrote = true
		return
	}
	defer func() { c.wrote = true }()
	if w.sc.Storage == StoreFenced {
		if c.acq < w.newestWrite {
			w.violate(StaleWrite, c.ID, w.newestWriter)
			return
		}
		w.newestWrite, w.newestWriter = c.acq, c.ID
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
		w.violate(LateWrite, c.ID, w.holder())
	}
}

// holder is the client whose lock is in place now, by the nodes' keys
// (or the service's entries), for naming who a late write went past.
func (w *World) holder() string {
	for _, d := range w.clients {
		if w.coord != nil {
			if w.coordHolds(d) {
				return d.ID
			}
			continue
		}
		if w.sc.Redlock {
			if w.majority(d.value) {
				return d.ID
			}
			continue
		}
		if w.primary == nil || w.primary.down {
			continue
		}
		if v, ok := w.primary.peek(w.sc.LockKey()); ok && v == d.value && w.keyOwner(w.primary, v) == d.ID {
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
func (w *World) checkRelease(c *Client, deletedValue, owner string) {
	if deletedValue != c.value || owner != c.ID {
		w.violate(ForeignDelete, c.ID, owner)
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
// TTL, nothing will ever remove it.
func (w *World) checkOrphan(c *Client) {
	if w.primary == nil {
		return
	}
	v, ok := w.primary.peek(w.sc.LockKey())
	if ok && v == c.value && w.keyOwner(w.primary, v) == c.ID && w.primary.ttl(w.sc.LockKey()) == 0 {
		w.violate(Orphan, c.ID)
	}
}

func (w *World) violate(k ViolationKind, actors ...string) {
	var as []string
	for _, a := range actors {
		if a != "" {
			as = append(as, a)
		}
	}
	w.violations = append(w.violations, Violation{
		At: w.clock.Now(), Step: w.step, Event: len(w.events) - 1, Kind: k, Actors: as,
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

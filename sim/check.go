// check.go holds the invariant checks that run after the steps that can
// break them. Each compares what clients believe with what the nodes hold.
package sim

import "strings"

// checkOverlap runs when c has just acquired: anyone else who still
// believes it is inside the critical section is now inside with c.
func (w *World) checkOverlap(c *Client) {
	for _, d := range w.clients {
		if d != c && d.inside() {
			w.violate(Overlap, c.ID, d.ID)
		}
	}
}

// checkWrite runs after the storage accepted c's write: if the lock key no
// longer holds c's value, c wrote without holding the lock.
func (w *World) checkWrite(c *Client) {
	if w.sc.lockKind(w.opts) == LockLocal {
		return // no shared lock to compare with; overlap already says it
	}
	if w.holds(c) {
		return
	}
	holder := ""
	if w.coord != nil {
		for _, d := range w.clients {
			if w.coordHolds(d) {
				holder = d.ID
			}
		}
	} else {
		if v, ok := w.primary.peek(w.sc.LockKey()); ok {
			holder = w.keyOwner(w.primary, v)
		}
	}
	w.violate(StaleWrite, c.ID, holder)
}

// holds is the ground truth of whether c holds the lock now: its value on
// the primary, or — for Redlock — on a majority of the nodes.
func (w *World) holds(c *Client) bool {
	if w.sc.Redlock {
		return w.majority(c.value)
	}
	if w.coord != nil {
		return w.coordHolds(c)
	}
	v, ok := w.primary.peek(w.sc.LockKey())
	return ok && !w.primary.down && v == c.value && w.keyOwner(w.primary, v) == c.ID
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

// model_failover.go holds the replication model of the failover lesson: a
// primary whose changes reach its replica only after a lag, and a
// promotion that makes the replica the node clients talk to. The
// replication link is a model (labelled as such on the page); the commands
// it applies to the replica are real and the replica's replies real.

package sim

import (
	"strconv"

	"locklab/sim/rediscli"
)

// ReplicationLag is how long a change on the primary takes to reach the
// replica in this model.
const ReplicationLag = 2000

// Option: whether a client waits for its lock to reach the replica.
const (
	OptWait = "wait"
	WaitOn  = "on"  // WAIT 1 <timeout> after acquiring; trust the lock only if the replica has it
	WaitOff = "off" // trust the primary's OK at once
)

// replicaState is a copy of the keys the lesson follows, as the primary had
// them at one instant.
type replicaState struct {
	lock      string
	lockOK    bool
	expiresAt int64 // absolute virtual ms of the lock's expiry, 0 if none
	fence     string
	fenceOK   bool
}

// snapshot reads the followed keys off the primary.
func (w *World) snapshot() replicaState {
	p := w.primary
	st := replicaState{}
	st.lock, st.lockOK = p.peek(w.sc.LockKey())
	if ttl := p.ttl(w.sc.LockKey()); st.lockOK && ttl > 0 {
		st.expiresAt = w.clock.Now() + ttl
	}
	st.fence, st.fenceOK = p.peek(w.sc.FenceKey())
	return st
}

// replicate is called after every command to the primary: if the followed
// keys changed, the new state is shipped to the replica, arriving after
// ReplicationLag. Redis replicates a key's expiry as an absolute time, so
// the copy expires when the original would have.
func (w *World) replicate() {
	if !w.sc.Replicated || w.primary.down {
		return
	}
	st := w.snapshot()
	if st == w.shipped {
		return
	}
	w.shipped = st
	w.inflight = append(w.inflight, shipment{at: w.clock.Now() + ReplicationLag, st: st})
	w.queue.schedule(w.clock.Now()+ReplicationLag, timerReplicate, "")
}

type shipment struct {
	at int64
	st replicaState
}

// deliver applies the shipments due now to the replica, with real commands
// over the replication link's own connection.
func (w *World) deliver() {
	now := w.clock.Now()
	for len(w.inflight) > 0 && w.inflight[0].at <= now {
		st := w.inflight[0].st
		w.inflight = w.inflight[1:]
		r := w.replica()
		if r == nil || r.down {
			continue
		}
		// Only what changed since the last delivery travels, in the form
		// Redis 7 propagates it: a SET with a relative expiry as SET … PXAT
		// (the instant, not the duration), a new expiry alone as PEXPIREAT,
		// a deletion (a DEL, or a script's) as DEL, an INCR as INCR. A
		// replica that comes back gets the keys as commands too; Redis
		// would send it a snapshot (a full resync) instead.
		key, old := w.sc.LockKey(), r.synced
		at := func(ms int64) string { return strconv.FormatInt(instant(ms).UnixMilli(), 10) }
		switch {
		case st.lock == old.lock && st.lockOK == old.lockOK && st.expiresAt == old.expiresAt:
		case !st.lockOK, st.expiresAt > 0 && st.expiresAt <= now:
			// gone, or already expired by the time the change arrives:
			// the primary has expired it and propagated a DEL
			w.sendLink(r, "DEL", key)
		case old.lockOK && st.lock == old.lock && st.expiresAt > 0:
			w.sendLink(r, "PEXPIREAT", key, at(st.expiresAt))
		case st.expiresAt > 0:
			w.sendLink(r, "SET", key, st.lock, "PXAT", at(st.expiresAt))
		default:
			w.sendLink(r, "SET", key, st.lock)
		}
		if st.fenceOK && (st.fence != old.fence || !old.fenceOK) {
			if n, err := parseInt(st.fence); err == nil && old.fenceOK && old.fence == strconv.FormatInt(n-1, 10) ||
				err == nil && !old.fenceOK && n == 1 {
				w.sendLink(r, "INCR", w.sc.FenceKey())
			} else {
				w.sendLink(r, "SET", w.sc.FenceKey(), st.fence)
			}
		}
		r.synced = st
		w.observeNode(r, "")
	}
}

// sendLink is one command of the replication link to the replica.
func (w *World) sendLink(r *Node, args ...any) {
	if w.link == nil {
		w.link = &Client{ID: "link"}
	}
	if _, err := w.send(w.link, r, "replicate", args...); err != nil && !failed(err) {
		w.fail = err
	}
	w.events[len(w.events)-1].Model = true
}

// replica is the node that is not the primary (nil after a promotion).
func (w *World) replica() *Node {
	for _, n := range w.nodes {
		if n != w.primary && n != w.oldPrimary {
			return n
		}
	}
	return nil
}

// promote makes n the primary. Whatever the old primary had not shipped
// yet is gone with it.
func (w *World) promote(n *Node) {
	w.oldPrimary = w.primary
	w.primary = n
	w.inflight = nil
	w.shipped = w.snapshot()
}

// waitReplica is the model of WAIT 1 <timeout> after an acquire: the
// primary answers how many replicas have the write. Here: 1 once the
// replication link delivered the client's lock, 0 if the timeout came
// first (the primary went down, or the link is slower than the timeout).
func (w *World) waitReplica(c *Client) (bool, error) {
	const timeout = 3000
	start := w.clock.Now()
	cmd := []string{"WAIT", "1", strconv.Itoa(timeout)}
	c.setState(StateWaiting, start)
	for w.clock.Now() < start+timeout {
		if r := w.replica(); r != nil && r.synced.lock == c.value && r.synced.lockOK {
			break
		}
		next := w.clock.Now() + 100
		w.runUntil(next)
		if w.fail != nil {
			return false, w.fail
		}
		if c.state == StateCrashed {
			return false, nil
		}
	}
	r := w.replica()
	acked := r != nil && r.synced.lock == c.value && r.synced.lockOK && !w.primary.down
	reply := rediscli.IntReply(0)
	if acked {
		reply = rediscli.IntReply(1)
	}
	ev := Event{Actor: c.ID, Kind: KindCommand, Node: w.primary.Name, Command: cmd, Reply: reply, Purpose: "wait", Model: true}
	if w.primary.down {
		ev.Reply, ev.Refused = rediscli.Reply{}, true
	}
	w.record(ev)
	return acked, nil
}

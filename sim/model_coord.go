// model_coord.go holds the model of the ZooKeeper/etcd lesson: a coordination
// service that is not embedded here, modelled after its documented
// semantics (FACTS.md §4, §5) and labelled as a model wherever it shows.
//
// ZooKeeper: a lock is an EPHEMERAL_SEQUENTIAL znode under the lock's
// parent; the lowest sequence number holds; every other client watches
// only the node just below its own. The node lives as long as its
// client's session; a session survives a short connection loss and
// expires when the service hears nothing for the session timeout. The
// node's czxid (the transaction id that created it) increases with every
// write, so it can serve as a fencing token.
//
// etcd: a lease with a TTL kept alive by the client; the lock is a key
// created under the lease (only if absent); the owner is the key with the
// lowest create revision; the revision is the fencing token. A lease that
// hears no keepalive for its TTL expires and its keys are deleted.
//
// The storage the clients write to is a real Redis node with the fencing
// check, as in the other lessons: the service only hands out the token.

package sim

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"locklab/sim/rediscli"
)

// Option: which coordination service the lesson models.
const (
	OptService  = "svc"
	ServiceZK   = "zk"
	ServiceEtcd = "etcd"
)

// SessionTimeout is the ZooKeeper session timeout (and the etcd lease TTL)
// of the model: 6 s, inside ZooKeeper's 2×–20× tickTime with tickTime 2 s.
const SessionTimeout = 6000

// VerbDisconnect / VerbReconnect: the client's connection to the service
// drops or comes back; the process keeps running.
const (
	VerbDisconnect = "disconnect"
	VerbReconnect  = "reconnect"
)

type lockEntry struct {
	owner string
	name  string // znode path or etcd key
	rev   int64  // czxid or create revision
}

// coord is the modelled service.
type coord struct {
	svc     string
	zxid    int64 // ZooKeeper zxid / etcd revision: one counter for every write
	seq     int64 // ZooKeeper's sequence counter under the lock's parent
	entries []lockEntry
	// sessions: per client, whether it has a live session/lease, and
	// since when the service has heard nothing from it (-1: hears it).
	live        map[string]bool
	silentSince map[string]int64
	lease       map[string]int64
}

func newCoord(svc string) *coord {
	return &coord{svc: svc, zxid: 0x100, live: map[string]bool{}, silentSince: map[string]int64{}, lease: map[string]int64{}}
}

func (k *coord) nodeName() string {
	if k.svc == ServiceEtcd {
		return "etcd"
	}
	return "zookeeper"
}

func (k *coord) parent() string {
	if k.svc == ServiceEtcd {
		return "/lock/order-42/"
	}
	return "/locks/order-42"
}

// modelCmd records one request to the modelled service and its answer.
func (w *World) modelCmd(c *Client, purpose, reply string, cmd ...string) {
	w.record(Event{Actor: c.ID, Kind: KindCommand, Node: w.coord.nodeName(), Command: cmd,
		Reply: rediscli.TextReply(reply), Purpose: purpose, Model: true})
}

// coordAcquire: open a session (or lease) if needed, create the lock
// entry, and hold it if it is the lowest; otherwise wait for the one below.
func (w *World) coordAcquire(c *Client) error {
	k := w.coord
	if !k.live[c.ID] {
		k.live[c.ID], k.silentSince[c.ID] = true, -1
		if k.svc == ServiceEtcd {
			k.lease[c.ID] = 0x694d0000 + int64(len(k.lease)+1)
			w.modelCmd(c, "session", fmt.Sprintf("ID=%x TTL=%d", k.lease[c.ID], SessionTimeout/1000),
				"LeaseGrant", fmt.Sprintf("TTL=%d", SessionTimeout/1000))
		} else {
			w.modelCmd(c, "session", fmt.Sprintf("session 0x%x, timeout %dms", 0x10000+len(k.live), SessionTimeout),
				"connect", fmt.Sprintf("sessionTimeout=%d", SessionTimeout))
		}
	}
	k.zxid++
	e := lockEntry{owner: c.ID, rev: k.zxid}
	if k.svc == ServiceEtcd {
		e.name = fmt.Sprintf("%s%x", k.parent(), k.lease[c.ID])
		w.modelCmd(c, "acquire", fmt.Sprintf("succeeded, revision %d", e.rev),
			"Txn", "if create_revision("+e.name+")==0", "then Put "+e.name+" lease="+fmt.Sprintf("%x", k.lease[c.ID]))
	} else {
		e.name = fmt.Sprintf("%s/_c_%s-lock-%010d", k.parent(), c.value[:8], k.seq)
		k.seq++
		w.modelCmd(c, "acquire", fmt.Sprintf("%s (czxid %d)", e.name, e.rev),
			"create", k.parent()+"/_c_"+c.value[:8]+"-lock-", "EPHEMERAL_SEQUENTIAL")
	}
	k.entries = append(k.entries, e)
	c.token = e.rev
	w.coordObserve("")
	return w.coordCheck(c)
}

// coordCheck lists the lock's entries: the lowest holds; anyone else
// watches the entry just below its own.
func (w *World) coordCheck(c *Client) error {
	k := w.coord
	sort.Slice(k.entries, func(i, j int) bool { return k.entries[i].rev < k.entries[j].rev })
	var names []string
	mine := -1
	for i, e := range k.entries {
		names = append(names, e.name[strings.LastIndex(e.name, "/")+1:])
		if e.owner == c.ID {
			mine = i
		}
	}
	if mine < 0 {
		return nil
	}
	if k.svc == ServiceEtcd {
		w.modelCmd(c, "check", "["+strings.Join(names, ", ")+"]", "Range", k.parent(), "sort=CREATE")
	} else {
		w.modelCmd(c, "check", "["+strings.Join(names, ", ")+"]", "getChildren", k.parent())
	}
	if mine == 0 {
		c.setState(StateHolding, w.clock.Now())
		w.enter(c)
		return nil
	}
	below := k.entries[mine-1].name
	if k.svc == ServiceEtcd {
		w.modelCmd(c, "watch", "watching", "Watch", below, "until DELETE")
	} else {
		w.modelCmd(c, "watch", "true (watch set)", "exists", below, "watch=true")
	}
	c.setState(StateTrying, w.clock.Now())
	return nil
}

// coordRelease deletes the client's entry (and closes an etcd lease).
func (w *World) coordRelease(c *Client) error {
	k := w.coord
	// Out of the critical section before the next waiter is woken.
	c.setState(StateIdle, w.clock.Now())
	for _, e := range k.entries {
		if e.owner == c.ID {
			if k.svc == ServiceEtcd {
				w.modelCmd(c, "release", "deleted 1", "Delete", e.name)
			} else {
				w.modelCmd(c, "release", "OK", "delete", e.name, "-1")
			}
			w.coordRemove(e.owner, "release")
			break
		}
	}
	return nil
}

// coordRemove deletes a client's entry and wakes the waiter just above it.
func (w *World) coordRemove(owner, why string) {
	k := w.coord
	idx := -1
	for i, e := range k.entries {
		if e.owner == owner {
			idx = i
		}
	}
	if idx < 0 {
		return
	}
	gone := k.entries[idx]
	k.entries = append(k.entries[:idx], k.entries[idx+1:]...)
	k.zxid++
	w.coordObserve(why)
	if idx < len(k.entries) {
		next := w.client(k.entries[idx].owner)
		event := "NodeDeleted"
		if k.svc == ServiceEtcd {
			event = "DELETE"
		}
		w.record(Event{Actor: k.nodeName(), Kind: KindCommand, Node: k.nodeName(), Model: true, Purpose: "notify",
			Command: []string{"watch event", gone.name}, Reply: rediscli.TextReply(event + " → " + strings.ToUpper(next.ID))})
		if next.state == StateTrying {
			if err := w.coordCheck(next); err != nil {
				w.fail = err
			}
		}
	}
}

// coordSilent: the service stops hearing from c (pause, crash, cut
// connection). Unless it is heard again, its session/lease ends after the
// timeout.
func (w *World) coordSilent(c *Client) {
	k := w.coord
	if !k.live[c.ID] || k.silentSince[c.ID] >= 0 {
		return
	}
	k.silentSince[c.ID] = w.clock.Now()
	w.queue.schedule(w.clock.Now()+SessionTimeout, timerSession, c.ID)
}

// coordHeard: c is heard again before the timeout: its session lives on.
func (w *World) coordHeard(c *Client) {
	k := w.coord
	if k.live[c.ID] {
		k.silentSince[c.ID] = -1
	}
}

// sessionTimer: the timeout after a client fell silent. If it is still
// silent, the service expires its session and deletes its entry.
func (w *World) sessionTimer(id string) {
	k := w.coord
	since := k.silentSince[id]
	if !k.live[id] || since < 0 || w.clock.Now() < since+SessionTimeout {
		return
	}
	k.live[id] = false
	what, gone := "session expired", "its ephemeral node deleted"
	if k.svc == ServiceEtcd {
		what, gone = "lease expired", "its keys deleted"
	}
	w.record(Event{Actor: k.nodeName(), Kind: KindCommand, Node: k.nodeName(), Model: true, Purpose: "timeout",
		Command: []string{what, strings.ToUpper(id)}, Reply: rediscli.TextReply(gone)})
	w.coordRemove(id, "expired")
}

// coordReconnect: the connection is back. A session that expired in the
// meantime is only now reported to the client (SESSION_EXPIRED): its lock
// is gone and it must stop.
func (w *World) coordReconnect(c *Client) {
	k := w.coord
	c.disconnected = false
	alive, expired := "SyncConnected: session alive, lock kept", "SESSION_EXPIRED: the lock node is gone"
	if k.svc == ServiceEtcd {
		alive, expired = "keepalive OK: lease alive, lock kept", "ErrSessionExpired: the lease expired, the key is gone"
	}
	if k.live[c.ID] {
		k.silentSince[c.ID] = -1
		w.modelCmd(c, "reconnect", alive, "reconnect")
		return
	}
	w.modelCmd(c, "reconnect", expired, "reconnect")
	if c.inside() {
		c.setState(StateIdle, w.clock.Now())
	}
}

// coordObserve mirrors the service's lowest entry into lock spans, so the
// picture shows who holds the lock in the service. why says how a holder's
// entry went: "release" (deleted by its owner) or "expired" (its session or
// lease timed out).
func (w *World) coordObserve(why string) {
	k := w.coord
	now := w.clock.Now()
	var lowest lockEntry
	if len(k.entries) > 0 {
		lowest = k.entries[0]
		for _, e := range k.entries {
			if e.rev < lowest.rev {
				lowest = e
			}
		}
	}
	last := len(w.events) - 1
	n := len(w.locks)
	if n > 0 && w.locks[n-1].End == "" {
		if w.locks[n-1].Owner == lowest.owner {
			return
		}
		w.locks[n-1].To, w.locks[n-1].End, w.locks[n-1].EndEvent = now, EndDeleted, last
		w.locks[n-1].DeletedBy = w.locks[n-1].Owner
		if why == "expired" {
			// the service's own event on the lane says it; the end is
			// drawn at its instant, beside that event's mark
			w.locks[n-1].End, w.locks[n-1].DeletedBy, w.locks[n-1].EndEvent = EndExpired, "", -1
		}
	}
	if lowest.owner != "" {
		token := "czxid "
		if k.svc == ServiceEtcd {
			token = "revision "
		}
		w.locks = append(w.locks, LockSpan{Node: k.nodeName(), Owner: lowest.owner, Key: lowest.name,
			Value: token + strconv.FormatInt(lowest.rev, 10), From: now, To: -1, FromEvent: last, EndEvent: -1})
	}
}

// coordHolds: the service's ground truth — c's entry is the lowest.
func (w *World) coordHolds(c *Client) bool {
	k := w.coord
	if len(k.entries) == 0 {
		return false
	}
	lowest := k.entries[0]
	for _, e := range k.entries {
		if e.rev < lowest.rev {
			lowest = e
		}
	}
	return lowest.owner == c.ID
}

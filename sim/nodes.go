// nodes.go holds what the learner can do to a Redis node beyond cutting it
// off and bringing it back (table.go): restart it with or without its
// data, jump its clock.

package sim

// The lanes every world has: the one lock node of a single-node lesson,
// and the node that holds the protected resource.
const (
	NodeRedis   = "redis"
	NodeStorage = "storage"
	// The replication model's two nodes, by the role each starts in.
	NodePrimary = "primary"
	NodeReplica = "replica"
)

// Option: what a node keeps across a restart.
const (
	OptPersist   = "persist"
	PersistFsync = "fsync" // appendfsync always: a restarted node has every key it acknowledged
	PersistNone  = "none"  // no persistence: a restarted node comes back empty
)

// restart crashes n and brings it back, with its data or without (the
// persist option).
func (w *World) restart(n *Node) {
	if w.opts[OptPersist] == PersistNone {
		w.wipe(n)
	}
	n.down = false
}

// down takes n down. For Redlock's independent nodes that is a node cut
// off: it keeps its keys, and its clock, and answers again when it is
// up. In the replication model it is a crash of a server without
// persistence: what it held in memory is gone (its lock spans end "lost"),
// and it comes back empty.
func (w *World) down(n *Node) {
	n.down = true
	if w.sc.Replicated {
		if n == w.primary {
			// what the primary had not shipped yet dies with it, as
			// at a promotion: the replica never gets it
			w.inflight = nil
		}
		w.wipe(n)
		w.events[len(w.events)-1].Value = NodeLostData
	}
}

// NodeLostData is the Value of a node event (down, up) in the replication
// model, where down is a crash: the node lost what it held, and comes back
// empty. Redlock's down and up leave a node's data as it was.
const NodeLostData = "lost"

// up brings n back. In the replication model a server that crashed comes
// back empty, and the link brings the replica level with the primary: a
// replica gets the primary's keys, a primary's emptiness reaches the
// replica (as a replica resyncs with the primary it follows).
func (w *World) up(n *Node) {
	n.down = false
	if w.sc.Replicated {
		w.events[len(w.events)-1].Value = NodeLostData
		if n != w.primary {
			n.synced = replicaState{}
		}
		w.shipped = replicaState{lock: "\x00"} // differs from any state: ship it whole
		w.replicate()
	}
}

// jump moves n's clock ms ahead: its keys expire that much sooner.
func (w *World) jump(n *Node, ms int64) {
	n.offset += ms
	n.setTime(w.clock.Now())
	w.observe("")
}

// wipe empties a node's data: a restart with nothing persisted.
func (w *World) wipe(n *Node) {
	n.srv.Restart()
	w.wiping = true
	w.observeNode(n, "")
	w.wiping = false
}

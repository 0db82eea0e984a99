// nodes.go holds what the learner can do to a Redis node beyond cutting it
// off and bringing it back (table.go): restart it with or without its
// data, jump its clock.
package sim

// The lanes every world has: the one lock node of a single-node lesson,
// and the node that holds the protected resource.
const (
	NodeRedis   = "redis"
	NodeStorage = "storage"
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

// fork.go holds the copy of a world between two actions: freeze takes a
// detached copy (every field of the world, its history included, and every
// node's keys read from its server), thaw makes a world on running servers
// that copy again — so the explorer reaches a child by copying its parent
// and applying one action, instead of replaying the whole path. The next
// command still goes through go-redis to miniredis: replies stay real.
package sim

import (
	"maps"
	"slices"
)

// frozen is a world between two actions, detached from any server.
type frozen struct {
	w    *World       // its nodes hold no server, its clients no connection
	keys [][]keyState // every node's keys (w.nodes in order, then the storage)
}

// serversOf lists the world's nodes in the order frozen.keys keeps them.
func (w *World) serversOf() []*Node { return append(slices.Clip(w.nodes), w.store) }

// dumpKeys reads every node's keys from its server.
func (w *World) dumpKeys() [][]keyState {
	ns := w.serversOf()
	out := make([][]keyState, len(ns))
	for i, n := range ns {
		out[i] = keysOf(n.srv)
	}
	return out
}

// freeze copies the world, keys given (as dumpKeys read them).
func (w *World) freeze(keys [][]keyState) *frozen {
	f := &frozen{w: &World{}, keys: keys}
	w.copyTo(f.w)
	return f
}

// thaw makes rig — a world of the same scenario and options, on its own
// servers — the frozen world: its fields copied, its servers loaded with
// the keys at the node's own time.
func (f *frozen) thaw(rig *World) {
	f.w.copyTo(rig)
	for i, n := range rig.serversOf() {
		n.srv.(dumper).load(instant(rig.clock.Now()+n.offset), f.keys[i])
	}
}

// copyTo makes d a copy of w that shares nothing that either may change:
// every field is copied (a new one comes along with the struct copy;
// TestForkSharesNothing catches one that would be shared), slices and
// maps are cloned. d keeps its own servers and connections: a node's
// server and a client's connections stay d's.
func (w *World) copyTo(d *World) {
	nodes, store, clients, link := d.nodes, d.store, d.clients, d.link
	*d = *w
	node := func(src, keep *Node) *Node {
		if keep == nil {
			keep = &Node{}
		}
		srv := keep.srv
		*keep = *src
		keep.srv = srv
		return keep
	}
	d.nodes = make([]*Node, len(w.nodes))
	for i, n := range w.nodes {
		var keep *Node
		if i < len(nodes) {
			keep = nodes[i]
		}
		d.nodes[i] = node(n, keep)
	}
	d.store = node(w.store, store)
	d.primary, d.oldPrimary = d.same(w, w.primary), d.same(w, w.oldPrimary)
	d.clients = make([]*Client, len(w.clients))
	for i, c := range w.clients {
		keep := &Client{}
		if i < len(clients) {
			keep = clients[i]
		}
		conns := keep.conns
		*keep = *c
		keep.conns = conns
		keep.due = slices.Clone(c.due)
		keep.spans = slices.Clone(c.spans)
		d.clients[i] = keep
	}
	// The replication link has no state but its connections: d keeps its
	// own if it has one.
	d.link = link
	if d.link == nil && w.link != nil {
		d.link = &Client{ID: w.link.ID}
	}
	d.queue.items = slices.Clone(w.queue.items)
	d.events = slices.Clone(w.events)
	d.violations = slices.Clone(w.violations)
	d.locks = slices.Clone(w.locks)
	d.inflight = slices.Clone(w.inflight)
	if w.coord != nil {
		k := *w.coord
		k.entries = slices.Clone(k.entries)
		k.live, k.silentSince, k.lease = maps.Clone(k.live), maps.Clone(k.silentSince), maps.Clone(k.lease)
		d.coord = &k
	}
}

// same is d's node in the place n has in w (nil for nil).
func (d *World) same(w *World, n *Node) *Node {
	if n == nil {
		return nil
	}
	if n == w.store {
		return d.store
	}
	return d.nodes[slices.Index(w.nodes, n)]
}

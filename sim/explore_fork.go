// explore_fork.go holds the copy of a world between two actions: freeze takes a
// detached copy (every field of the world, its history included, and every
// node's keys read from its server), thaw makes a world on running servers
// that copy again — so the explorer reaches a child by copying its parent
// and applying one action, instead of replaying the whole path. The next
// command still goes through go-redis to miniredis: replies stay real.
//
// The event log is most of a world's weight, and a child's log is its
// parent's plus what one action added: a frozen world keeps only those
// new events, linked to its parent's (an append-only log is never changed
// once an action is over), and a machine that loads a sibling of the
// state it holds keeps the common prefix instead of copying it again.

package sim

import (
	"maps"
	"slices"
)

// frozen is a world between two actions, detached from any server.
type frozen struct {
	w    *World       // its nodes hold no server, its clients no connection, its events are in log
	keys [][]keyState // every node's keys (w.nodes in order, then the storage)
	log  *evChunk
	// Its lock spans. An action changes at most the open spans, near
	// the end: the rest is shared with the parent's.
	locks *lockPart
}

// lockPart is a frozen world's lock spans: the first keep of up's, then
// tail (up nil: tail alone).
type lockPart struct {
	up   *lockPart
	keep int
	tail []LockSpan
}

// appendTo appends p's first n lock spans to dst.
func (p *lockPart) appendTo(dst []LockSpan, n int) []LockSpan {
	if p.up == nil {
		return append(dst, p.tail[:n]...)
	}
	if n <= p.keep {
		return p.up.appendTo(dst, n)
	}
	dst = p.up.appendTo(dst, p.keep)
	return append(dst, p.tail[:n-p.keep]...)
}

func (p *lockPart) len() int { return p.keep + len(p.tail) }

// evChunk is the end of a frozen world's event log: the events after its
// parent's (nil: from the first), n in all.
type evChunk struct {
	parent *evChunk
	events []Event
	n      int
	depth  int // chunks before it
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

// freeze copies the world, keys given (as dumpKeys read them). up is
// the frozen world w was thawed from (nil: none) and upLocks its lock
// spans: w's events up to up's are up's, and so are its lock spans as
// far as they are the same; only the rest is copied.
func (w *World) freeze(keys [][]keyState, up *frozen, upLocks []LockSpan) *frozen {
	f := &frozen{w: &World{}, keys: keys, locks: &lockPart{}}
	w.copyTo(f.w)
	c := &evChunk{n: len(w.events)}
	from := 0
	if up != nil { // upLocks: up's lock spans (nil when up is nil)
		c.parent = up.log
		from, c.depth = up.log.n, up.log.depth+1
		k := 0
		for k < len(upLocks) && k < len(w.locks) && upLocks[k] == w.locks[k] {
			k++
		}
		if k > 0 {
			f.locks.up, f.locks.keep = up.locks, k
		}
	}
	c.events = slices.Clone(w.events[from:])
	f.log = c
	f.locks.tail = slices.Clone(w.locks[f.locks.keep:])
	return f
}

// thaw makes r's world the frozen world: its fields copied, its servers
// loaded with the keys at the node's own time, its event log f's (the
// prefix it shares with what r held is kept, not copied again).
func (f *frozen) thaw(r *Machine) {
	events, locks := r.w.events, r.w.locks
	f.w.copyTo(r.w)
	for i, n := range r.w.serversOf() {
		n.srv.(dumper).load(r.w.clock.Now()+n.offset, f.keys[i])
	}
	// f's chunks from the first, in r.chain's place; keep counts those
	// r's log holds already (a chunk's parents are the chunks before it,
	// so they are a prefix of both chains).
	d := f.log.depth + 1
	chain := slices.Grow(r.chain[:0], d)[:d]
	keep := 0
	for c := f.log; c != nil; c = c.parent {
		if keep == 0 && c.depth < len(r.chain) && r.chain[c.depth] == c {
			keep = c.depth + 1
		}
		chain[c.depth] = c // after reading r.chain there: they may share an array
	}
	n := 0
	if keep > 0 {
		n = chain[keep-1].n
	}
	events = events[:n]
	for _, c := range chain[keep:] {
		events = append(events, c.events...)
	}
	r.w.events = events
	r.chain = chain
	r.w.locks = f.locks.appendTo(locks[:0], f.locks.len())
	r.locks = append(r.locks[:0], r.w.locks...)
}

// copyTo makes d a copy of w that shares nothing that either may change:
// every field is copied (a new one comes along with the struct copy),
// slices and maps are cloned. d keeps its own servers and connections: a node's
// server and a client's connections stay d's. A machine's world (thaw) is
// copied into its own slices: nothing but the machine holds them (freeze
// clones them again), so their arrays are reused instead of allocated.
func (w *World) copyTo(d *World) {
	nodes, store, clients, link := d.nodes, d.store, d.clients, d.link
	items, violations, inflight := d.queue.items, d.violations, d.inflight
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
	d.nodes = reuseLen(nodes, len(w.nodes))
	for i, n := range w.nodes {
		var keep *Node
		if i < len(nodes) {
			keep = nodes[i]
		}
		d.nodes[i] = node(n, keep)
	}
	d.store = node(w.store, store)
	d.primary, d.oldPrimary = d.same(w, w.primary), d.same(w, w.oldPrimary)
	d.clients = reuseLen(clients, len(w.clients))
	for i, c := range w.clients {
		keep := &Client{}
		if i < len(clients) {
			keep = clients[i]
		}
		conns, due, spans := keep.conns, keep.due, keep.spans
		*keep = *c
		keep.conns = conns
		keep.due = reuse(due, c.due)
		keep.spans = reuse(spans, c.spans)
		d.clients[i] = keep
	}
	// The replication link has no state but its connections: d keeps its
	// own if it has one.
	d.link = link
	d.operator = nil // its connections are w's nodes'; d opens its own on first use
	d.typed = maps.Clone(w.typed)
	if d.link == nil && w.link != nil {
		d.link = &Client{ID: w.link.ID}
	}
	d.queue.items = reuse(items, w.queue.items)
	d.events = nil // the log is the caller's (freeze, thaw)
	d.violations = reuse(violations, w.violations)
	d.locks = nil // the caller's (freeze, thaw)
	d.inflight = reuse(inflight, w.inflight)
	if w.coord != nil {
		k := *w.coord
		k.entries = slices.Clone(k.entries)
		k.live, k.silentSince, k.lease = maps.Clone(k.live), maps.Clone(k.silentSince), maps.Clone(k.lease)
		d.coord = &k
	}
}

// reuse is slices.Clone(src), in dst's array if dst has one that fits.
func reuse[T any](dst, src []T) []T {
	if src == nil || dst == nil || cap(dst) < len(src) {
		return slices.Clone(src)
	}
	return append(dst[:0], src...)
}

// reuseLen is make([]T, n), in s's array if s has one that fits.
func reuseLen[T any](s []T, n int) []T {
	if s == nil || cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
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

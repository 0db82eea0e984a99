// explore_state.go holds one snapshot of a world between two actions — every
// node's keys with their values and remaining TTLs, read from the server
// itself; every client's program position, timers and beliefs; the
// models' state — and the explorer's notion of "the same state", derived
// from that snapshot by reflection rather than from a hand-kept list of
// fields (TestFingerprintSeesEveryField holds the snapshot to the world).

package sim

import (
	"bytes"
	"cmp"
	"reflect"
	"slices"
	"strconv"
	"time"

	"locklab/sim/rediscli"
	"locklab/sim/redisfront"
)

// keyState is one key of a node as its server holds it: its type, its
// value (a string, or a list's elements) and its remaining time to live
// (0: none).
type keyState struct {
	Key  string
	Type string // "string" or "list": the only types the lessons use
	Str  val
	List []val
	TTL  int64 // ms left, a duration: it does not move with the clock
}

// keysOf reads every key of a node straight from its server: what the
// lessons use and anything else a command may have left there.
func keysOf(s Server) []keyState {
	d, ok := s.(dumper)
	if !ok {
		panic("sim: the explorer needs a server it can snapshot (embedded miniredis)")
	}
	return d.dump()
}

// dumper is a server whose whole keyspace can be read and written
// without a client's connection: the embedded miniredis. The explorer
// forks worlds through it; a real server (sim/realredis) does not need to.
type dumper interface {
	dump() []keyState
	load(now int64, keys []keyState)
}

func (e *embedded) dump() []keyState {
	if e.known.still(e) {
		return e.known.keys
	}
	var out []keyState
	for _, k := range e.m.Keys() { // sorted
		ks := keyState{Key: k, Type: e.m.Type(k), TTL: e.m.TTL(k).Milliseconds()}
		switch ks.Type {
		case "string":
			v, _ := e.m.Get(k)
			ks.Str = val(v)
		case "list":
			l, _ := e.m.List(k)
			for _, x := range l {
				ks.List = append(ks.List, val(x))
			}
		default:
			panic("sim: a " + ks.Type + " key in a world: the snapshot cannot copy it")
		}
		out = append(out, ks)
	}
	e.known.set(e, out)
	return out
}

// knownKeys is what a server holds as the explorer last read (dump) or
// wrote (load) it, at the server's clock then (embedded.now): valid while
// the server has been sent no command, kept its clock and was not
// emptied (embedded's SetTime, Restart and the pool turn ok off). A child reached by a step that sent nothing needs
// no new read, and loading a sibling of the state just left only
// rewrites the keys that differ: a step changes one key or two, and
// deleting and writing every key again was a tenth of a search's time.
type knownKeys struct {
	ok     bool
	served uint64
	keys   []keyState // sorted by key, as Keys lists them; never changed once here
}

func (k *knownKeys) still(e *embedded) bool { return k.ok && k.served == e.front.Served() }

func (k *knownKeys) set(e *embedded, keys []keyState) {
	*k = knownKeys{ok: true, served: e.front.Served(), keys: keys}
}

// load makes the server hold keys, each with its remaining TTL counted
// from now, and sets its clock to now: only the keys that differ are
// written where the server is known to hold the rest already, every key
// anew otherwise.
func (e *embedded) load(now int64, keys []keyState) {
	used := 0
	for _, k := range keys {
		switch k.Type {
		case "string":
			used += redisfront.Size(k.Key, string(k.Str))
		case "list":
			used += redisfront.Size(k.Key) + redisfront.ListElem*len(k.List)
			for _, x := range k.List {
				used += len(x)
			}
		}
	}
	if e.known.still(e) && e.now == now {
		e.patch(e.known.keys, keys)
	} else {
		// Deleting the few keys a world has, rather than FlushAll, which
		// makes every map of the database anew: a tenth of what the
		// explorer allocated, and garbage the collector then had to find.
		for _, k := range e.m.Keys() {
			e.m.Del(k)
		}
		e.front.SetTime(instant(now))
		e.now = now
		e.m.ClockTTL(true) // the TTLs below count from now, not from the server's last tick
		for i := range keys {
			e.write(&keys[i])
		}
	}
	e.front.Reset(used) // the bounds count what the snapshot holds
	e.known.set(e, keys)
}

// patch turns the keys the server holds (has, sorted) into want (sorted),
// at the server's own instant.
func (e *embedded) patch(has, want []keyState) {
	i, j := 0, 0
	for i < len(has) || j < len(want) {
		switch {
		case j == len(want) || (i < len(has) && has[i].Key < want[j].Key):
			e.m.Del(has[i].Key)
			i++
		case i == len(has) || want[j].Key < has[i].Key:
			e.write(&want[j])
			j++
		default:
			if !sameKey(&has[i], &want[j]) {
				e.m.Del(has[i].Key)
				e.write(&want[j])
			}
			i, j = i+1, j+1
		}
	}
}

// sameKey reports whether two snapshots of a key are alike.
func sameKey(a, b *keyState) bool {
	return a.Key == b.Key && a.Type == b.Type && a.Str == b.Str && a.TTL == b.TTL && slices.Equal(a.List, b.List)
}

// write writes one key (absent before) with its TTL counted from the
// server's now.
func (e *embedded) write(k *keyState) {
	switch k.Type {
	case "string":
		_ = e.m.Set(k.Key, string(k.Str))
	case "list":
		for _, x := range k.List {
			_, _ = e.m.Push(k.Key, string(x))
		}
	}
	if k.TTL > 0 {
		e.m.SetTTL(k.Key, time.Duration(k.TTL)*time.Millisecond)
	}
}

// The types below are the fingerprint's: their names tell the encoder how
// a value reads when two worlds are compared.
type (
	// vtime is an absolute virtual time, compared as a distance from
	// now (two worlds alike but for when they happen have the same
	// futures). 0 and less mean "none" and are kept as they are.
	vtime int64
	// cid is a taking-part client's id, renamed under the symmetry.
	cid string
	// val is a value held by a server or a client: a client's lock
	// value reads as whose it is, a client's own write and name as that
	// client (all under the renaming).
	val string
)

// worldState is what of a world its future can depend on. Every field is
// part of the fingerprint unless tagged `fp:"-"`; a slice tagged
// `fp:"set"` is compared as a set (its order is not part of the state).
type worldState struct {
	Now     int64 `fp:"-"` // every instant is encoded as a distance from it
	Budget  budgetState
	Clients []clientState `fp:"set"`
	Nodes   []nodeState
	// Peers are Redlock's nodes when they are interchangeable (see
	// peersSymmetric): compared as a set, without their names.
	Peers []nodeState `fp:"set"`
	// Timers still to come, in the order they will run; expiry timers
	// only make the observer look at the nodes again (the picture), so
	// they are left out.
	Timers   []timerState
	Shipped  replState
	Inflight []shipState
	Coord    *coordState
	// Order is the clients that have held the lock, by their latest
	// acquisition, oldest first; Newest how many of those acquisitions are
	// no newer than the newest one the storage holds a write of: whether
	// a later write is stale depends on them (check.go), not on the
	// acquisitions' numbers.
	Order  []cid
	Newest int
}

// budgetState is the explorer's budget used so far (its per-client bits
// are in each clientState).
type budgetState struct{ Pauses, Waits, Crashes, NodeFaults, Drops, Jumps int }

type clientState struct {
	ID            cid
	State, Before State
	Value         val
	Token         int64
	Due           []timerKind
	// Pending is the program's code after a yield, PendingWhat the
	// command it sends; LastReply the reply the program saw before it
	// stopped (what the rest may depend on: GET then DEL deletes only if
	// the GET saw its own value).
	Pending      uintptr
	PendingWhat  string
	LastReply    rediscli.Reply
	LastLost     bool
	DropNext     bool
	ValidUntil   vtime
	Disconnected bool
	LeaseEnd     vtime // the client's own lease (-1: forever)
	Wrote        bool
	DropWindow   bool
	KeyLeft      bool
	// The explorer's per-client budget: what its program has done, and
	// whether its pause has had its wait.
	Acquired, Written, Released, Waited bool
}

type nodeState struct {
	Name                string
	Primary, OldPrimary bool
	Down                bool
	Offset, Latency     int64
	Synced              replState
	Keys                []keyState
}

type timerState struct {
	Kind timerKind
	Who  cid
	At   vtime
}

type replState struct {
	Lock      val
	LockOK    bool
	ExpiresAt vtime
	Fence     string
	FenceOK   bool
}

type shipState struct {
	At vtime
	St replState
}

type coordState struct {
	Zxid, Seq int64
	Entries   []entryState
	Sessions  []sessionState `fp:"set"`
}

type entryState struct {
	Owner cid
	Name  string
	Rev   int64
}

type sessionState struct {
	Client cid
	Live   bool
	Since  vtime // -1: the service hears the client
	Lease  int64
}

func repl(r replicaState) replState {
	return replState{Lock: val(r.lock), LockOK: r.lockOK, ExpiresAt: vtime(r.expiresAt), Fence: r.fence, FenceOK: r.fenceOK}
}

// capture reads the world's state into st, reusing its slices: the
// nodes' keys as dumpKeys read them from the servers, the rest from the
// world; b is the explorer's budget. st shares the world's own slices
// where it only reads them (a client's due timers): it is encoded and
// dropped before the world changes. ts is scratch for the timers.
func (w *World) capture(st *worldState, ts *[]timer, b Spent, keys [][]keyState) {
	clients, nodes, peers, timers := st.Clients[:0], st.Nodes[:0], st.Peers[:0], st.Timers[:0]
	inflight, order := st.Inflight[:0], st.Order[:0]
	*st = worldState{Now: w.clock.Now(), Shipped: repl(w.shipped),
		Budget: budgetState{b.Pauses, b.Waits, b.Crashes, b.NodeFaults, b.Drops, b.Jumps}}
	for i, c := range w.clients {
		cs := clientState{ID: cid(c.ID), State: c.state, Before: c.before, Value: val(c.value), Token: c.token,
			Due: c.due, PendingWhat: c.pendingWhat, DropNext: c.dropNext,
			ValidUntil: vtime(c.validUntil), Disconnected: c.disconnected,
			Wrote: c.wrote, DropWindow: c.dropWindow, KeyLeft: c.keyLeft}
		switch {
		case c.leaseEnd == leaseForever:
			cs.LeaseEnd = -1 // kept as it is, not as a distance from now
		case c.leaseEnd > w.clock.Now():
			cs.LeaseEnd = vtime(c.leaseEnd) // a lease that ran out is as good as none
		}
		if c.pending != nil {
			cs.Pending = reflect.ValueOf(c.pending).Pointer()
			cs.LastReply, cs.LastLost = w.lastReplyOf(c.ID)
		}
		if i < 8 {
			bit := uint8(1) << i
			cs.Acquired, cs.Written = b.Acquired&bit != 0, b.Written&bit != 0
			cs.Released, cs.Waited = b.Released&bit != 0, b.Waited&bit != 0
		}
		clients = append(clients, cs)
	}
	st.Clients = clients
	peersSym := w.peersSymmetric()
	for i, n := range w.serversOf() {
		ns := nodeState{Name: n.Name, Primary: n == w.primary, OldPrimary: n == w.oldPrimary,
			Down: n.down, Offset: n.offset, Latency: n.latency, Synced: repl(n.synced), Keys: keys[i]}
		if peersSym && n != w.store {
			ns.Name = ""
			peers = append(peers, ns)
		} else {
			nodes = append(nodes, ns)
		}
	}
	st.Nodes, st.Peers = nodes, peers
	*ts = append((*ts)[:0], w.queue.items...)
	slices.SortFunc(*ts, func(x, y timer) int { return cmp.Or(cmp.Compare(x.at, y.at), cmp.Compare(x.seq, y.seq)) })
	for _, t := range *ts {
		if t.kind != timerExpiry {
			timers = append(timers, timerState{Kind: t.kind, Who: cid(t.who), At: vtime(t.at)})
		}
	}
	st.Timers = timers
	for _, s := range w.inflight {
		inflight = append(inflight, shipState{At: vtime(s.at), St: repl(s.st)})
	}
	st.Inflight = inflight
	if k := w.coord; k != nil {
		cs := &coordState{Zxid: k.zxid, Seq: k.seq}
		for _, e := range k.entries {
			cs.Entries = append(cs.Entries, entryState{Owner: cid(e.owner), Name: e.name, Rev: e.rev})
		}
		for _, c := range w.clients {
			_, live := k.live[c.ID]
			_, since := k.silentSince[c.ID]
			_, lease := k.lease[c.ID]
			if live || since || lease {
				cs.Sessions = append(cs.Sessions, sessionState{Client: cid(c.ID), Live: k.live[c.ID],
					Since: vtime(k.silentSince[c.ID]), Lease: k.lease[c.ID]})
			}
		}
		st.Coord = cs
	}
	held := make([]*Client, 0, len(w.clients))
	for _, c := range w.clients {
		if c.acq > 0 {
			held = append(held, c)
		}
	}
	slices.SortFunc(held, func(x, y *Client) int { return cmp.Compare(x.acq, y.acq) })
	for _, c := range held {
		order = append(order, cid(c.ID))
		if c.acq <= w.newestWrite {
			st.Newest++
		}
	}
	st.Order = order
}

// peersSymmetric reports whether the world's lock nodes are
// interchangeable: Redlock's, while every command reaches every node at
// once (no latency). A client then sends the same command to every node at
// one instant and counts the answers, and every check counts nodes too, so
// two worlds that differ by which node is which have the same futures but
// for the order of events within one instant. (With a slow node the order
// in which a client visits them decides when each command arrives.)
func (w *World) peersSymmetric() bool {
	if !w.sc.Redlock {
		return false
	}
	for _, n := range w.nodes {
		if n.latency != 0 {
			return false
		}
	}
	return true
}

// lastReplyOf is the reply to the client's last command, and whether it
// was lost on the way.
func (w *World) lastReplyOf(who string) (rediscli.Reply, bool) {
	for i := len(w.events) - 1; i >= 0; i-- {
		ev := w.events[i]
		if ev.Actor == who && ev.Kind == KindCommand {
			return ev.Reply, ev.Lost
		}
	}
	return rediscli.Reply{}, false
}

// fpEnc encodes a worldState under one renaming of the clients. It
// appends to a byte slice and keeps its scratch space, so one encoder per
// worker encodes state after state without garbage.
type fpEnc struct {
	now int64
	// ids are the world's clients' ids, names what each reads as in this
	// encoding (its own id unless it takes part and is renamed).
	ids, names []string
	// a client's lock value, its write and its name, which read as
	// "@", "w" and "n" followed by the client's name.
	values, writes, cnames []string
	scratch                []byte // a set's elements, before they are sorted
	parts                  [][2]int
	// spelled keeps each client id's name and write, which are made from
	// the id alone: built once, not on every state.
	spelled map[string][2]string
}

// reset prepares e to encode a state of w taken at now, every client
// reading as itself.
func (e *fpEnc) reset(w *World, now int64) {
	e.now = now
	e.ids, e.names, e.values, e.writes, e.cnames = e.ids[:0], e.names[:0], e.values[:0], e.writes[:0], e.cnames[:0]
	if e.spelled == nil {
		e.spelled = map[string][2]string{}
	}
	for _, c := range w.clients {
		sp, ok := e.spelled[c.ID]
		if !ok {
			sp = [2]string{c.Name(), writeValue(c)}
			e.spelled[c.ID] = sp
		}
		e.ids = append(e.ids, c.ID)
		e.names = append(e.names, c.ID)
		e.values = append(e.values, c.value)
		e.writes = append(e.writes, sp[1])
		e.cnames = append(e.cnames, sp[0])
	}
}

func (e *fpEnc) id(s string) string {
	for i, id := range e.ids {
		if id == s {
			return e.names[i]
		}
	}
	return s
}

// str appends s, its length first (so no content can be mistaken for
// the encoding's own punctuation).
func str(b []byte, s string) []byte {
	b = strconv.AppendInt(b, int64(len(s)), 10)
	b = append(b, ':')
	return append(b, s...)
}

// val appends a value: whose lock value, write or name it is (the last
// client's reading wins, as a map filled in client order would), or the
// value itself.
func (e *fpEnc) val(b []byte, v string) []byte {
	for i := len(e.ids) - 1; i >= 0; i-- {
		var k byte
		switch {
		case v == e.values[i] && v != "":
			k = '@'
		case v == e.cnames[i]:
			k = 'n'
		case v == e.writes[i]:
			k = 'w'
		default:
			continue
		}
		return str(append(b, k), e.names[i])
	}
	return str(append(b, '"'), v)
}

// The encoding, written out by hand: it is the explorer's hottest code
// (a reflective walk of the same structs cost a fifth of a search's CPU).
// Its grammar is a struct's fields in order, each followed by ',', inside
// {}; a slice's elements each followed by ';' inside []; a set's
// elements' encodings sorted and joined by ';' inside []; a nil pointer
// "nil"; strings with their length first. TestEncodingIsTheReference
// holds it, byte for byte, to a reflective walk of every field (so a
// field added to a struct and not here fails there).

// encode appends st, a state of the world e was reset for, with the
// clients named as e.names says.
func (e *fpEnc) encode(b []byte, st *worldState) []byte {
	b = append(b, '{')
	bs := &st.Budget
	b = append(b, '{')
	for _, n := range [...]int{bs.Pauses, bs.Waits, bs.Crashes, bs.NodeFaults, bs.Drops, bs.Jumps} {
		b = append(strconv.AppendInt(b, int64(n), 10), ',')
	}
	b = append(b, "},"...)
	b = append(setOf(e, b, st.Clients, (*fpEnc).client), ',')
	b = append(sliceOf(e, b, st.Nodes, (*fpEnc).node), ',')
	b = append(setOf(e, b, st.Peers, (*fpEnc).node), ',')
	b = append(sliceOf(e, b, st.Timers, (*fpEnc).timer), ',')
	b = append(e.repl(b, &st.Shipped), ',')
	b = append(sliceOf(e, b, st.Inflight, (*fpEnc).ship), ',')
	if st.Coord == nil {
		b = append(b, "nil"...)
	} else {
		b = e.coord(b, st.Coord)
	}
	b = append(b, ',')
	b = append(sliceOf(e, b, st.Order, func(e *fpEnc, b []byte, c *cid) []byte { return e.cid(b, *c) }), ',')
	b = append(strconv.AppendInt(b, int64(st.Newest), 10), ',')
	return append(b, '}')
}

// client appends a client's state.
func (e *fpEnc) client(b []byte, c *clientState) []byte {
	b = append(e.cid(append(b, '{'), c.ID), ',')
	b = append(str(b, string(c.State)), ',')
	b = append(str(b, string(c.Before)), ',')
	b = append(e.val(b, string(c.Value)), ',')
	b = append(strconv.AppendInt(b, c.Token, 10), ',')
	b = append(b, '[')
	for _, k := range c.Due {
		b = append(strconv.AppendInt(b, int64(k), 10), ';')
	}
	b = append(b, "],"...)
	b = append(strconv.AppendUint(b, uint64(c.Pending), 10), ',')
	b = append(str(b, c.PendingWhat), ',')
	b = append(e.reply(b, &c.LastReply), ',')
	b = appendBools(b, c.LastLost, c.DropNext)
	b = append(e.vtime(b, c.ValidUntil), ',')
	b = appendBools(b, c.Disconnected)
	b = append(e.vtime(b, c.LeaseEnd), ',')
	b = appendBools(b, c.Wrote, c.DropWindow, c.KeyLeft, c.Acquired, c.Written, c.Released, c.Waited)
	return append(b, '}')
}

// reply appends a reply; its strings are values like the keys' (GET
// answers with a lock value, which reads as whose it is).
func (e *fpEnc) reply(b []byte, r *rediscli.Reply) []byte {
	b = append(strconv.AppendUint(append(b, '{'), uint64(r.Kind), 10), ',')
	b = append(strconv.AppendInt(b, r.Int, 10), ',')
	b = append(e.val(b, r.Str), ',')
	b = append(sliceOf(e, b, r.Elems, (*fpEnc).reply), ',')
	b = append(strconv.AppendInt(b, int64(r.Cut), 10), ',')
	return append(b, '}')
}

func (e *fpEnc) node(b []byte, n *nodeState) []byte {
	b = append(str(append(b, '{'), n.Name), ',')
	b = appendBools(b, n.Primary, n.OldPrimary, n.Down)
	b = append(strconv.AppendInt(b, n.Offset, 10), ',')
	b = append(strconv.AppendInt(b, n.Latency, 10), ',')
	b = append(e.repl(b, &n.Synced), ',')
	b = append(sliceOf(e, b, n.Keys, (*fpEnc).key), ',')
	return append(b, '}')
}

func (e *fpEnc) key(b []byte, k *keyState) []byte {
	b = append(str(append(b, '{'), k.Key), ',')
	b = append(str(b, k.Type), ',')
	b = append(e.val(b, string(k.Str)), ',')
	b = append(sliceOf(e, b, k.List, func(e *fpEnc, b []byte, v *val) []byte { return e.val(b, string(*v)) }), ',')
	b = append(strconv.AppendInt(b, k.TTL, 10), ',')
	return append(b, '}')
}

func (e *fpEnc) timer(b []byte, t *timerState) []byte {
	b = append(strconv.AppendInt(append(b, '{'), int64(t.Kind), 10), ',')
	b = append(e.cid(b, t.Who), ',')
	b = append(e.vtime(b, t.At), ',')
	return append(b, '}')
}

func (e *fpEnc) repl(b []byte, r *replState) []byte {
	b = append(e.val(append(b, '{'), string(r.Lock)), ',')
	b = appendBools(b, r.LockOK)
	b = append(e.vtime(b, r.ExpiresAt), ',')
	b = append(str(b, r.Fence), ',')
	b = appendBools(b, r.FenceOK)
	return append(b, '}')
}

func (e *fpEnc) ship(b []byte, s *shipState) []byte {
	b = append(e.vtime(append(b, '{'), s.At), ',')
	b = append(e.repl(b, &s.St), ',')
	return append(b, '}')
}

func (e *fpEnc) coord(b []byte, k *coordState) []byte {
	b = append(strconv.AppendInt(append(b, '{'), k.Zxid, 10), ',')
	b = append(strconv.AppendInt(b, k.Seq, 10), ',')
	b = append(sliceOf(e, b, k.Entries, func(e *fpEnc, b []byte, x *entryState) []byte {
		b = append(e.cid(append(b, '{'), x.Owner), ',')
		b = append(str(b, x.Name), ',')
		return append(append(strconv.AppendInt(b, x.Rev, 10), ','), '}')
	}), ',')
	b = append(setOf(e, b, k.Sessions, func(e *fpEnc, b []byte, x *sessionState) []byte {
		b = append(e.cid(append(b, '{'), x.Client), ',')
		b = appendBools(b, x.Live)
		b = append(e.vtime(b, x.Since), ',')
		return append(append(strconv.AppendInt(b, x.Lease, 10), ','), '}')
	}), ',')
	return append(b, '}')
}

// vtime appends an instant as a distance from now ("~" first); 0 and
// less mean "none" and are kept as they are.
func (e *fpEnc) vtime(b []byte, t vtime) []byte {
	if t > 0 {
		return strconv.AppendInt(append(b, '~'), int64(t)-e.now, 10)
	}
	return strconv.AppendInt(b, int64(t), 10)
}

// cid appends a taking-part client's id as this renaming names it.
func (e *fpEnc) cid(b []byte, c cid) []byte { return str(b, e.id(string(c))) }

// appendBools appends each of bs as a field.
func appendBools(b []byte, bs ...bool) []byte {
	for _, x := range bs {
		b = append(strconv.AppendBool(b, x), ',')
	}
	return b
}

// sliceOf appends xs in order, each encoded by f.
func sliceOf[T any](e *fpEnc, b []byte, xs []T, f func(*fpEnc, []byte, *T) []byte) []byte {
	b = append(b, '[')
	for i := range xs {
		b = append(f(e, b, &xs[i]), ';')
	}
	return append(b, ']')
}

// setOf appends xs as a set: whose order is not part of the state, so
// its elements' encodings, sorted. No set's element holds a set, so one
// scratch space serves.
func setOf[T any](e *fpEnc, b []byte, xs []T, f func(*fpEnc, []byte, *T) []byte) []byte {
	e.scratch, e.parts = e.scratch[:0], e.parts[:0]
	for i := range xs {
		from := len(e.scratch)
		e.scratch = f(e, e.scratch, &xs[i])
		e.parts = append(e.parts, [2]int{from, len(e.scratch)})
	}
	return e.sortedParts(b)
}

// sortedParts appends the encodings e.scratch holds at e.parts, sorted,
// as a set: inside [], joined by ';'.
func (e *fpEnc) sortedParts(b []byte) []byte {
	part := func(p [2]int) []byte { return e.scratch[p[0]:p[1]] }
	slices.SortFunc(e.parts, func(x, y [2]int) int { return bytes.Compare(part(x), part(y)) })
	b = append(b, '[')
	for i, p := range e.parts {
		if i > 0 {
			b = append(b, ';')
		}
		b = append(b, part(p)...)
	}
	return append(b, ']')
}

// fingerprint is the state a schedule reached, as far as any future can
// tell: the world's snapshot (explore_state.go) with the explorer's budget,
// every time as a distance from now, every lock value as whose it is.
// Two schedules with the same fingerprint have the same futures, so only
// one is explored.
//
// The clients that take part run the same program, so a state and the
// same state with two of them swapped have mirrored futures: the
// fingerprint is the least encoding over the renamings of those clients
// that name them in the order of their signatures (each one's own state
// with every taking-part client's name blanked, which no renaming
// changes) — over every renaming among clients whose signatures tie.
// Mirrored states have the same set of such encodings, so the same
// least one; states that are not mirrored share none. Only one of the
// mirrored states is explored (a mirrored counterexample exists and is
// as short).
func (m *Machine) fingerprint(b Spent, clients int, symmetric bool) string {
	return string(m.canonical(b, clients, symmetric))
}

// fpBuf is one worker's scratch for fingerprints.
type fpBuf struct {
	enc       fpEnc
	best, cur []byte
	sigs      []byte
	sig       [][2]int
	order     []int
	end       []int
	st        worldState // the state being encoded, its slices reused
	timers    []timer
}

// canonical is the fingerprint's encoding, in m.fp.best.
func (m *Machine) canonical(b Spent, n int, symmetric bool) []byte {
	fb, w := &m.fp, m.w
	st := &fb.st
	w.capture(st, &fb.timers, b, m.serverKeys())
	en := &fb.enc
	en.reset(w, st.Now)
	check := func(client int, got []byte) {
		if m.checkEncoding != nil {
			m.checkEncoding(en, st, client, got)
		}
	}
	if !symmetric {
		fb.best = en.encode(fb.best[:0], st)
		check(-1, fb.best)
		return fb.best
	}
	// Signatures: each taking-part client's state, itself named "=" and
	// the others "*".
	fb.sigs, fb.sig = fb.sigs[:0], fb.sig[:0]
	for i := range n {
		for j := range n {
			en.names[j] = "*"
		}
		en.names[i] = "="
		from := len(fb.sigs)
		fb.sigs = en.client(fb.sigs, &st.Clients[i])
		check(i, fb.sigs[from:])
		fb.sig = append(fb.sig, [2]int{from, len(fb.sigs)})
	}
	sig := func(i int) []byte { return fb.sigs[fb.sig[i][0]:fb.sig[i][1]] }
	fb.order = fb.order[:0]
	for i := range n {
		fb.order = append(fb.order, i)
	}
	slices.SortStableFunc(fb.order, func(x, y int) int { return bytes.Compare(sig(x), sig(y)) })
	// end[k]: where the group of equal signatures holding position k ends.
	fb.end = append(fb.end[:0], make([]int, n)...)
	for k := n - 1; k >= 0; k-- {
		if k == n-1 || !bytes.Equal(sig(fb.order[k]), sig(fb.order[k+1])) {
			fb.end[k] = k + 1
		} else {
			fb.end[k] = fb.end[k+1]
		}
	}
	fb.best = fb.best[:0]
	first := true
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			for pos, i := range fb.order {
				en.names[i] = en.ids[pos]
			}
			fb.cur = en.encode(fb.cur[:0], st)
			check(-1, fb.cur)
			if first || bytes.Compare(fb.cur, fb.best) < 0 {
				fb.best, fb.cur, first = fb.cur, fb.best, false
			}
			return
		}
		for i := k; i < fb.end[k]; i++ {
			fb.order[k], fb.order[i] = fb.order[i], fb.order[k]
			rec(k + 1)
			fb.order[k], fb.order[i] = fb.order[i], fb.order[k]
		}
	}
	rec(0)
	return fb.best
}

// world.go holds a world: the clock, the nodes, the clients and the logs one
// replay builds, and the observer that keeps the lock's picture true.

package sim

import (
	"encoding/hex"
	"math/rand/v2"
	"strconv"
)

// World is one timeline being replayed. It lives for one Replay call.
type World struct {
	sc         *Scenario
	opts       Opts
	clock      Clock
	queue      queue
	nodes      []*Node // the Redis nodes that hold locks, in lane order
	primary    *Node   // the node single-node programs talk to
	store      *Node   // the protected resource
	clients    []*Client
	rng        rand.PCG // a value: a copied world draws the same numbers
	events     []Event
	violations []Violation
	locks      []LockSpan
	step       int
	actionAt   int64 // the instant the current action began
	acqEvent   int   // while a client takes the lock: the event of the command that took it, else -1
	// fail holds an error a timer hit while time passed inside a step.
	fail error
	// wiping is set while a node loses its data (restart without
	// persistence, a failover to a replica that never got the key).
	wiping bool
	// coord is the modelled ZooKeeper/etcd of the coordination lesson.
	coord *coord
	// The replication model (failover lesson).
	oldPrimary *Node
	link       *Client
	shipped    replicaState
	inflight   []shipment
	// acquisitions counts the lock handed out; newestWrite is the
	// acquisition (Client.acq) of the newest holder whose write the
	// storage accepted, newestWriter that holder: a write of an older
	// acquisition after it is a stale write.
	acquisitions int
	newestWrite  int
	newestWriter string
	// operator is the connection the learner's typed commands go
	// through (operator.go); nil until the first one.
	operator *Client
	// typed names the scripts typed on the command line that are no
	// lesson's or design's, in the order they first ran: "script",
	// "script-2", … (the event log links each row to its own code).
	typed map[string]string
}

// newWorld builds the world of one replay, its nodes on b's servers. On
// an error the nodes already opened are closed.
func newWorld(b Backend, sc *Scenario, opts Opts) (*World, error) {
	w := &World{sc: sc, opts: opts, rng: *rand.NewPCG(sc.Seed, 0x10c4), acqEvent: -1}
	names := sc.Nodes
	if len(names) == 0 {
		names = []string{NodeRedis}
	}
	if sc.Coord {
		// The lock lives in the modelled service; Redis is only the
		// storage here.
		w.coord, names = newCoord(opts[OptService]), nil
	}
	for _, name := range names {
		n, err := newNode(b, name)
		if err != nil {
			w.close()
			return nil, err
		}
		w.nodes = append(w.nodes, n)
	}
	store, err := newNode(b, NodeStorage)
	if err != nil {
		w.close()
		return nil, err
	}
	w.store = store
	if len(w.nodes) > 0 {
		w.primary = w.nodes[0]
	}
	for _, id := range sc.Clients {
		c := &Client{ID: id}
		c.setState(StateIdle, 0)
		w.clients = append(w.clients, c)
	}
	return w, nil
}

// node finds a lock node by name.
func (w *World) node(name string) *Node {
	for _, n := range w.nodes {
		if n.Name == name {
			return n
		}
	}
	return nil
}

// close ends every node the world opened (each server closes the
// connections dialled to it, or keeps them for the next world that
// reuses it), so a replay leaves no goroutine behind.
func (w *World) close() {
	for _, n := range w.nodes {
		n.close()
	}
	if w.store != nil {
		w.store.close()
	}
}

// serverErr is the first failure of a server of this world (a real one
// that stopped answering), or nil.
func (w *World) serverErr() error {
	for _, n := range append(w.nodes, w.store) {
		if n != nil {
			if err := n.srv.Err(); err != nil {
				return &BackendError{Node: n.Name, Err: err}
			}
		}
	}
	return nil
}

func (w *World) client(id string) *Client {
	for _, c := range w.clients {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// advance moves the clock and every node's clock to ms, the storage's
// first: its clock never jumps, so it is the world's, and a backend that
// watches the servers (sim/oracle) reads the world's time off it before
// the lock nodes move.
func (w *World) advance(ms int64) {
	w.clock.set(ms)
	w.store.setTime(w.clock.Now())
	for _, n := range w.nodes {
		n.setTime(w.clock.Now())
	}
}

func (w *World) record(ev Event) {
	ev.Reply, ev.Value = ev.Reply.Clip(ReplyShown), Shown(ev.Value)
	ev.Seq = len(w.events)
	ev.At = w.clock.Now()
	ev.Step = w.step
	w.events = append(w.events, ev)
}

// newValue is a lock value unique to one acquisition: 10 bytes from the
// seeded PRNG, hex encoded (the Redis docs suggest 20 random bytes; 10 keep
// the event log readable and are just as unique within a timeline). With
// value.host it is c's host name instead, the same for every acquisition
// of every worker on that host (the mistake the safe-release lesson shows).
func (w *World) newValue(c *Client) string {
	if w.opts[OptValue] == ValueHost {
		return w.sc.Host(c.ID)
	}
	b := make([]byte, 10)
	r := rand.New(&w.rng)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return hex.EncodeToString(b)
}

// observe looks at the lock key on its node and keeps the lock spans in
// step with what is really there. by is who sent the command that just ran
// on the node (send calls it after every command to a lock node), or ""
// when time passing is the cause. Nothing but a command changes a key
// while the clock stands still, so a value that vanished during a command
// was deleted by its sender, one replaced was overwritten by it; one that
// vanished while time passed expired, and one that vanished in a wipe was
// lost with the node's data. A TTL that changed (an extend) moves the
// instant at which the observer looks again.
func (w *World) observe(by string) {
	for _, n := range w.nodes {
		w.observeNode(n, by)
	}
}

func (w *World) observeNode(n *Node, by string) {
	key := w.sc.LockKey()
	v, ok := n.peek(key)
	now := w.clock.Now()
	expiry := int64(0)
	if ok {
		if ttl := n.ttl(key); ttl > 0 {
			expiry = now + ttl
		}
	}
	var open *LockSpan
	for i := len(w.locks) - 1; i >= 0; i-- {
		if w.locks[i].Node == n.Name {
			if w.locks[i].End == "" {
				open = &w.locks[i]
			}
			break
		}
	}
	if open != nil && ok && open.Value == v {
		if open.Expiry == 0 && expiry > 0 && by != "" && n == w.primary {
			w.endOrphan(open.Owner, by, WhyGaveTTL) // no longer for ever
		}
		if expiry != open.Expiry {
			open.Expiry, open.handTTL = expiry, by == Operator
			if expiry > 0 {
				w.queue.schedule(expiry, timerExpiry, "")
			}
		}
		return
	}
	if open != nil {
		open.To, open.EndEvent = now, len(w.events)-1
		switch {
		case w.wiping:
			open.End = EndLost
		case by != "" && !ok:
			open.End, open.DeletedBy = EndDeleted, by
			if n == w.primary { // the key Locked forever is about
				w.endOrphan(open.Owner, by, "")
			}
		case by != "":
			open.End, open.DeletedBy = EndOverwritten, by
			if n == w.primary { // the key Locked forever is about
				w.endOrphan(open.Owner, by, "")
			}
		default:
			open.End = EndExpired
			w.record(Event{Actor: n.Name, Kind: KindExpired, Key: key, Value: open.Value, Owner: open.Owner})
			open.EndEvent = len(w.events) - 1
			if open.handTTL {
				w.checkShortened(open)
			}
		}
	}
	if !ok {
		return
	}
	// A value that appeared through a client's own command is that
	// client's acquisition, even when another client uses the same value
	// (value.host); otherwise (replication, a node's data) the value says.
	owner := w.ownerOf(v)
	if c := w.client(by); c != nil && c.value == v {
		owner = by
	}
	if owner == "" && by == Operator {
		owner = Operator // a value typed by hand that no client holds
	}
	if owner == "" { // a copy (the replication link's) is whose the original is
		for i := len(w.locks) - 1; i >= 0; i-- {
			if w.locks[i].Node != n.Name && w.locks[i].Value == v {
				owner = w.locks[i].Owner
				break
			}
		}
	}
	span := LockSpan{Node: n.Name, Owner: owner, Value: v, From: now, To: -1, Expiry: expiry,
		Key: key, FromEvent: -1, EndEvent: -1}
	if by != "" {
		span.FromEvent = len(w.events) - 1 // the command that set it (send observes after recording it)
	}
	if expiry > 0 {
		w.queue.schedule(expiry, timerExpiry, "")
	}
	w.locks = append(w.locks, span)
}

// keyHolder is whose lock n's lock key is now (keyOwner of its value:
// a design's acquire that answered yes has made the key its client's,
// whatever it stored, claimKey); "" when the key is absent or no one's.
func (w *World) keyHolder(n *Node) string {
	v, ok := n.peek(w.sc.LockKey())
	if !ok {
		return ""
	}
	return w.keyOwner(n, v)
}

// keyOwner is the client whose acquisition put the lock key's present
// value v on n: the owner of n's open lock span when it holds v, else the
// client with that value. Owners are told apart by acquisition, not by
// value: with value.host two clients' values are equal.
func (w *World) keyOwner(n *Node, v string) string {
	for i := len(w.locks) - 1; i >= 0; i-- {
		if l := &w.locks[i]; l.Node == n.Name {
			if l.End == "" && l.Value == v {
				return l.Owner
			}
			break
		}
	}
	return w.ownerOf(v)
}

func parseInt(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) }

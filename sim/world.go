// world.go holds a world: the clock, the nodes, the clients and the logs one
// replay builds, and the client program steps the learner drives.
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
	lockNode   *Node
	store      *Node
	clients    []*Client
	rng        *rand.Rand
	events     []Event
	violations []Violation
	locks      []LockSpan
	step       int
	// deleting is set while a release's reply is examined, so the
	// observer can tell a deletion from an expiry.
	deleting string
	// fail holds an error a timer hit while time passed inside a step.
	fail error
}

func newWorld(sc *Scenario, opts Opts) *World {
	w := &World{sc: sc, opts: opts, rng: rand.New(rand.NewPCG(sc.Seed, 0x10c4))}
	w.lockNode = newNode("redis", 0)
	w.store = newNode("storage", 0)
	for _, id := range sc.Clients {
		c := &Client{ID: id, lock: w.lockNode.connect(), store: w.store.connect()}
		c.setState(StateIdle, 0)
		w.clients = append(w.clients, c)
	}
	return w
}

// close ends every connection and node the world opened, so a replay
// leaves no goroutine behind.
func (w *World) close() {
	for _, c := range w.clients {
		_ = c.lock.Close()
		_ = c.store.Close()
	}
	w.lockNode.close()
	w.store.close()
}

func (w *World) client(id string) *Client {
	for _, c := range w.clients {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// advance moves the clock and every node's clock to ms.
func (w *World) advance(ms int64) {
	w.clock.set(ms)
	w.lockNode.setTime(w.clock.Now())
	w.store.setTime(w.clock.Now())
}

func (w *World) record(ev Event) {
	ev.Seq = len(w.events)
	ev.At = w.clock.Now()
	ev.Step = w.step
	w.events = append(w.events, ev)
}

// newValue is a lock value unique to one acquisition: 10 bytes from the
// seeded PRNG, hex encoded (the Redis docs suggest 20 random bytes; 10 keep
// the event log readable and are just as unique within a timeline).
func (w *World) newValue() string {
	b := make([]byte, 10)
	for i := range b {
		b[i] = byte(w.rng.UintN(256))
	}
	return hex.EncodeToString(b)
}

// acquire starts c's program: a new lock value, then the first attempt.
func (w *World) acquire(c *Client) error {
	c.value = w.newValue()
	c.token = 0
	return w.attempt(c, "acquire")
}

// attempt sends SET key value NX PX ttl. OK → the client holds the lock and
// takes a fencing token from INCR; (nil) → it will try again after Retry.
func (w *World) attempt(c *Client, purpose string) error {
	sc := w.sc
	val, err := w.send(c, c.lock, "redis", purpose, "SET", sc.LockKey(), c.value, "NX", "PX", sc.TTL)
	if err != nil {
		return err
	}
	w.observe()
	if val != "OK" {
		c.setState(StateTrying, w.clock.Now())
		w.queue.schedule(w.clock.Now()+sc.Retry, timerRetry, c.ID)
		return nil
	}
	tok, err := w.send(c, c.lock, "redis", "token", "INCR", sc.FenceKey())
	if err != nil {
		return err
	}
	c.token, _ = tok.(int64)
	c.setState(StateHolding, w.clock.Now())
	w.checkOverlap(c)
	return nil
}

// retry is a trying client's own timer going off.
func (w *World) retry(id string) {
	c := w.client(id)
	switch c.state {
	case StatePaused:
		c.retryDue = true
	case StateTrying:
		if err := w.attempt(c, "retry"); err != nil {
			w.fail = err
		}
	}
}

// write is c working for Work ms (time passes for everyone) and then
// writing its result to the storage with its token.
func (w *World) write(c *Client) error {
	c.setState(StateWorking, w.clock.Now())
	w.record(Event{Actor: c.ID, Kind: KindWork, Ms: w.sc.Work})
	w.runUntil(w.clock.Now() + w.sc.Work)
	if w.fail != nil {
		return w.fail
	}
	c.setState(StateHolding, w.clock.Now())
	ok, err := w.storageWrite(c)
	if err != nil {
		return err
	}
	if ok {
		w.checkWrite(c)
	}
	return nil
}

// release ends c's critical section: a compare-and-delete script by default,
// a plain DEL with release.del. Either way the client then believes it is
// out, whatever the reply.
func (w *World) release(c *Client) error {
	key := w.sc.LockKey()
	before, _ := w.lockNode.peek(key)
	var val any
	var err error
	if w.opts[OptRelease] == ReleaseDel {
		val, err = w.send(c, c.lock, "redis", "release", "DEL", key)
	} else {
		val, err = w.send(c, c.lock, "redis", "release", "EVAL", ReleaseScript, 1, key, c.value)
	}
	if err != nil {
		return err
	}
	if val == int64(1) {
		w.deleting = c.ID
		w.observe()
		w.deleting = ""
		w.checkRelease(c, before)
	}
	c.setState(StateIdle, w.clock.Now())
	return nil
}

// observe looks at the lock key on its node and keeps the lock spans in
// step with what is really there: a value that vanished expired (or was
// deleted, if a release just said so); a new value opens a span and
// schedules a look at the instant its TTL will end.
func (w *World) observe() {
	key := w.sc.LockKey()
	v, ok := w.lockNode.peek(key)
	now := w.clock.Now()
	var open *LockSpan
	if n := len(w.locks); n > 0 && w.locks[n-1].End == "" {
		open = &w.locks[n-1]
	}
	if open != nil && ok && open.Value == v {
		return
	}
	if open != nil {
		open.To = now
		if w.deleting != "" {
			open.End, open.DeletedBy = "deleted", w.deleting
		} else {
			open.End = "expired"
			w.record(Event{Actor: w.lockNode.Name, Kind: KindExpired, Key: key, Value: open.Value, Owner: open.Owner})
		}
	}
	if !ok {
		return
	}
	span := LockSpan{Node: w.lockNode.Name, Owner: w.ownerOf(v), Value: v, From: now, To: -1}
	if ttl := w.lockNode.ttl(key); ttl > 0 {
		span.Expiry = now + ttl
		w.queue.schedule(span.Expiry, timerExpiry, "")
	}
	w.locks = append(w.locks, span)
}

func parseInt(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) }

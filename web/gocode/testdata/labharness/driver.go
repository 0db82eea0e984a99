// Package driver runs the Lab's generated go-redis programs on a learner's
// schedule, against miniredis on a virtual clock, and records every
// command they send. TestLabCodeRuns (web/gocode/lab_test.go) copies this file
// into a throwaway module beside the generated code, builds one harness
// and compares what it records with the simulator's events.
//
// The programs run as goroutines, one at a time: each stops (parks) when
// it waits for time to pass, when it reaches the point where the lesson's
// program stops between two commands, or when it ends, and only then does
// the driver go on. The generated code's time.Sleep, time.After, time.Now
// and time.Since are rewritten to the methods of Clock, which read and
// move the virtual clock. The environment the simulator models (nodes
// going down, slow or restarted, clock jumps, the replication link and
// WAIT of the failover lesson, a lost reply) is modelled here the same
// way; the algorithm itself is only the generated code's.
package driver

import (
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"locklab/sim"
)

// Program is one generated design, adapted to one shape: the lock nodes
// are a slice (one element for a single node).
type Program struct {
	Reset   func() // a new job: the design's process state (a mutex) starts afresh
	Acquire func(ctx context.Context, lock []*redis.Client) (value string, token int64, err error)
	// Write is the program's write, with the client's "still mine?"
	// check first where the design has one (it reads lock and value).
	Write   func(ctx context.Context, lock []*redis.Client, store *redis.Client, value string, token int64, who string) (bool, error)
	Release func(ctx context.Context, lock []*redis.Client, value string) error
	Run     func(ctx context.Context, lock []*redis.Client, store *redis.Client, who string) error
}

// Action is one learner action of a schedule.
type Action struct {
	Who  string `json:"who"`
	Verb string `json:"verb"`
	Ms   int64  `json:"ms,omitempty"`
	Node bool   `json:"node,omitempty"`
}

// Job is one schedule to run.
type Job struct {
	ID       string   `json:"id"`
	Programs []string `json:"programs"` // one per client: the package that client runs
	Clients  []string `json:"clients"`
	Nodes    []string `json:"nodes"` // the lock nodes, in the simulator's order
	Redlock  bool     `json:"redlock"`
	// Replicated: Nodes[0] is a primary, Nodes[1] its replica.
	Replicated   bool   `json:"replicated"`
	PersistNone  bool   `json:"persistNone"`
	LockKey      string `json:"lockKey"`
	FenceKey     string `json:"fenceKey"`
	EpochMs      int64  `json:"epochMs"`
	Work         int64  `json:"work"`
	YieldAcquire bool   `json:"yieldAcquire"` // a learner's acquire stops after its first command
	YieldRelease bool   `json:"yieldRelease"` // … and so does a release
	// YieldWrite: how many times a learner's write stops, each time
	// before its next command (a "still mine?" check, a two-command
	// storage check).
	YieldWrite int               `json:"yieldWrite"`
	Hosts      map[string]string `json:"hosts"` // each client's host name (os.Hostname in the code)
	Solo       bool              `json:"solo"`  // run the first client's Run alone; Actions unused
	Actions    []Action          `json:"actions"`
}

// Record is one command a program sent.
type Record struct {
	Client   string   `json:"client"`
	Node     string   `json:"node"`
	Args     []string `json:"args"`
	At       int64    `json:"at"`
	Refused  bool     `json:"refused,omitempty"`  // the node was down: it never arrived
	NoScript bool     `json:"noscript,omitempty"` // EVALSHA answered NOSCRIPT (go-redis then sends EVAL)
	Lost     bool     `json:"lost,omitempty"`     // the reply was lost on the way back
}

// Result is what one job recorded, or why it could not run.
type Result struct {
	ID      string   `json:"id"`
	Records []Record `json:"records"`
	Err     string   `json:"err,omitempty"`
}

// Main reads a JSON array of jobs on stdin and writes a JSON array of
// results on stdout.
func Main(programs map[string]Program) {
	var jobs []Job
	if err := json.NewDecoder(os.Stdin).Decode(&jobs); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out := make([]Result, 0, len(jobs))
	for i := range jobs {
		out = append(out, runJob(&jobs[i], programs))
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

// Clock is what the generated code's time calls become.
type Clock struct{}

// Sleep parks the calling program until d of virtual time has passed.
func (Clock) Sleep(d time.Duration) { current.sleep(d) }

// After parks the calling program until d has passed and returns a
// channel that is ready, or — if the program's context was cancelled
// meanwhile — one that never is (the select then takes ctx.Done()).
func (Clock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	if current.sleep(d) {
		ch <- current.instant()
	}
	return ch
}

// Now is the virtual time.
func (Clock) Now() time.Time { return current.instant() }

// Since is the virtual time elapsed since t.
func (Clock) Since(t time.Time) time.Duration { return current.instant().Sub(t) }

// Hostname is the host name of the client whose program calls it: the
// generated code's os.Hostname.
func (Clock) Hostname() (string, error) { return current.job.Hosts[current.cur.c.id], nil }

// current is the world of the job being run (jobs run one after another).
var current *world

type node struct {
	name    string
	srv     sim.Server
	down    bool
	offset  int64
	latency int64
	synced  repl // what the replication link last delivered (replica)
}

type client struct {
	id       string
	prog     Program
	lock     []*redis.Client // routed: one per lock node, or one for the primary
	store    *redis.Client
	conns    map[*node]*redis.Client
	paused   bool
	crashed  bool
	due      []*timer
	tasks    []*task
	writes   []*task
	pending  *task
	dropNext bool
	value    string
	token    int64
	lastSet  string // the value of its last SET of the lock key (what WAIT waits for)
}

type task struct {
	c      *client
	wake   chan struct{} // the driver lets it go on
	yield  chan struct{} // it parked or ended
	ctx    context.Context
	cancel context.CancelFunc
	done   bool
	gates  int // stops left: before each next command of this run
	sent   int
	fired  bool
}

type timer struct {
	at      int64
	seq     int
	t       *task // nil: a replication delivery
	deliver bool
}

type timers []*timer

func (q timers) Len() int { return len(q) }
func (q timers) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q timers) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *timers) Push(x any)   { *q = append(*q, x.(*timer)) }
func (q *timers) Pop() any {
	old := *q
	t := old[len(old)-1]
	*q = old[:len(old)-1]
	return t
}

type repl struct {
	lock      string
	lockOK    bool
	expiresAt int64
	fence     string
	fenceOK   bool
}

type shipment struct {
	at int64
	st repl
}

type world struct {
	job        *Job
	now        int64
	seq        int
	queue      timers
	cur        *task
	nodes      []*node
	primary    *node
	oldPrimary *node
	store      *node
	clients    map[string]*client
	order      []*client
	records    []Record
	shipped    repl
	inflight   []shipment
	link       *redis.Client
}

func runJob(job *Job, programs map[string]Program) (res Result) {
	res.ID = job.ID
	w := &world{job: job, clients: map[string]*client{}}
	current = w
	defer func() {
		if r := recover(); r != nil {
			res.Err = fmt.Sprint(r)
		}
		w.close()
		res.Records = w.records
	}()
	for _, name := range job.Nodes {
		w.nodes = append(w.nodes, w.open(name))
	}
	w.primary = w.nodes[0]
	w.store = w.open("storage")
	for i, id := range job.Clients {
		p, ok := programs[job.Programs[i]]
		if !ok {
			panic("no program " + job.Programs[i])
		}
		if p.Reset != nil {
			p.Reset()
		}
		c := &client{id: id, prog: p, conns: map[*node]*redis.Client{}}
		if job.Redlock {
			for i := range w.nodes {
				c.lock = append(c.lock, w.routed(c, i))
			}
		} else {
			c.lock = []*redis.Client{w.routed(c, -2)}
		}
		c.store = w.routed(c, -1)
		w.clients[id] = c
		w.order = append(w.order, c)
	}
	w.setNow(0)
	if job.Solo {
		c := w.order[0]
		// Run's error is not checked: what it sent is what counts (a
		// DELEX the server does not know fails here as on the timeline).
		t := w.spawn(c, 0, func(ctx context.Context) { _ = c.prog.Run(ctx, c.lock, c.store, strings.ToUpper(c.id)) })
		for !t.done {
			if len(w.queue) == 0 || w.queue[0].at > time.Hour.Milliseconds() {
				panic("Run did not end within an hour of virtual time")
			}
			w.advance(w.queue[0].at)
		}
		return res
	}
	for _, a := range job.Actions {
		w.apply(a)
	}
	return res
}

func (w *world) open(name string) *node {
	srv, err := sim.Embedded{}.Open(name)
	if err != nil {
		panic(err)
	}
	return &node{name: name, srv: srv}
}

// close ends every program still parked, then the servers. The go-redis
// clients belong to the server that dialled them (sim's pool keeps both
// for the next world), so closing a server is what ends them.
func (w *world) close() {
	for _, c := range w.order {
		for _, t := range c.tasks {
			w.kill(t)
		}
	}
	for _, n := range append(w.nodes, w.store) {
		if n != nil {
			n.srv.Close()
		}
	}
}

func (w *world) instant() time.Time { return time.UnixMilli(w.job.EpochMs + w.now) }

func (w *world) setNow(ms int64) {
	if ms > w.now {
		w.now = ms
	}
	for _, n := range append(w.nodes, w.store) {
		n.srv.SetTime(w.now + n.offset)
	}
}

func (w *world) schedule(at int64, t *task, deliver bool) {
	w.seq++
	heap.Push(&w.queue, &timer{at: at, seq: w.seq, t: t, deliver: deliver})
}

// advance lets virtual time pass up to limit; every timer due fires at
// its own instant, in order.
func (w *world) advance(limit int64) {
	for len(w.queue) > 0 && w.queue[0].at <= limit {
		tm := heap.Pop(&w.queue).(*timer)
		w.setNow(tm.at)
		if tm.deliver {
			w.deliver()
			continue
		}
		w.fire(tm)
	}
	w.setNow(limit)
}

func (w *world) fire(tm *timer) {
	t := tm.t
	if t.done || t.ctx.Err() != nil {
		return
	}
	if t.c.paused {
		t.c.due = append(t.c.due, tm) // a frozen process wakes to it on resume
		return
	}
	t.fired = true
	w.run(t)
}

// run lets t go on until it parks or ends.
func (w *world) run(t *task) {
	prev := w.cur
	w.cur = t
	t.wake <- struct{}{}
	select {
	case <-t.yield:
	case <-time.After(30 * time.Second):
		panic("a generated program neither parked nor ended (a deadlock?)")
	}
	w.cur = prev
}

// park is called by the running task: hand control back, wait to be run.
func (w *world) park(t *task) {
	t.yield <- struct{}{}
	<-t.wake
}

func (w *world) spawn(c *client, gates int, fn func(ctx context.Context)) *task {
	ctx, cancel := context.WithCancel(context.Background())
	t := &task{c: c, wake: make(chan struct{}), yield: make(chan struct{}), ctx: ctx, cancel: cancel, gates: gates}
	c.tasks = append(c.tasks, t)
	go func() {
		<-t.wake
		defer func() {
			t.done, t.gates = true, 0
			if c.pending == t {
				c.pending = nil
			}
			t.yield <- struct{}{}
		}()
		fn(ctx)
	}()
	w.run(t)
	return t
}

// kill cancels t and lets it run to its end.
func (w *world) kill(t *task) {
	t.cancel()
	for i := 0; !t.done; i++ {
		if i == 10 {
			panic("a generated program does not stop when its context is cancelled")
		}
		w.run(t)
	}
}

// sleep parks the running task for d; false if it was cancelled instead.
func (w *world) sleep(d time.Duration) bool {
	t := w.cur
	t.gates = 0 // a program stops between two commands only within one run
	t.fired = false
	w.schedule(w.now+d.Milliseconds(), t, false)
	w.park(t)
	return t.fired && t.ctx.Err() == nil
}

func (w *world) apply(a Action) {
	if a.Verb == "wait" {
		w.advance(w.now + a.Ms)
		return
	}
	if a.Node {
		w.nodeAction(a)
		return
	}
	c := w.clients[a.Who]
	who := strings.ToUpper(c.id)
	switch a.Verb {
	case "acquire":
		w.spawn(c, oneStop(w.job.YieldAcquire), func(ctx context.Context) {
			v, tok, err := c.prog.Acquire(ctx, c.lock)
			if err == nil {
				c.value, c.token = v, tok
			}
		})
	case "write":
		w.advance(w.now + w.job.Work)
		t := w.spawn(c, w.job.YieldWrite, func(ctx context.Context) { _, _ = c.prog.Write(ctx, c.lock, c.store, c.value, c.token, who) })
		c.writes = append(c.writes, t)
	case "release":
		// The program has left the write: a write still waiting to be sent
		// again is abandoned (the simulator's client drops it too).
		for _, t := range c.writes {
			w.kill(t)
		}
		c.writes = nil
		w.spawn(c, oneStop(w.job.YieldRelease), func(ctx context.Context) { _ = c.prog.Release(ctx, c.lock, c.value) })
	case "next":
		if t := c.pending; t != nil {
			c.pending = nil
			w.run(t)
		}
	case "pause":
		c.paused = true
	case "resume":
		c.paused = false
		due := c.due
		c.due = nil
		for _, tm := range due {
			w.fire(tm)
		}
	case "crash":
		c.crashed, c.due, c.dropNext = true, nil, false
		for _, t := range c.tasks {
			w.kill(t)
		}
	case "drop":
		c.dropNext = true
	default:
		panic("the harness has no verb " + a.Verb + ": teach it to web/gocode/testdata/labharness/driver.go (and the Lab's code), or list it in unrunnable in web/gocode/lab_test.go")
	}
}

// oneStop is one stop for a program that stops between two commands.
func oneStop(yield bool) int {
	if yield {
		return 1
	}
	return 0
}

func (w *world) nodeAction(a Action) {
	var n *node
	for _, x := range w.nodes {
		if x.name == a.Who {
			n = x
		}
	}
	if n == nil {
		panic("no node " + a.Who)
	}
	switch a.Verb {
	case "down":
		n.down = true
	case "up":
		n.down = false
	case "restart":
		if w.job.PersistNone {
			n.srv.Restart()
		}
		n.down = false
	case "jump":
		n.offset += a.Ms
		w.setNow(w.now)
	case "slow":
		n.latency = a.Ms
	case "promote":
		w.oldPrimary, w.primary = w.primary, n
		w.inflight = nil
		w.shipped = w.snapshot()
	default:
		panic("the harness has no node verb " + a.Verb)
	}
}

// routed is a go-redis client that never dials: its hook sends each
// command over c's own connection to the node it is meant for (lock node
// i, the primary (-2) or the storage (-1)), and records it.
func (w *world) routed(c *client, i int) *redis.Client {
	rc := redis.NewClient(&redis.Options{Addr: "routed", Protocol: 2, DisableIdentity: true, MaxRetries: -1,
		Dialer: func(context.Context, string, string) (net.Conn, error) {
			return nil, errors.New("routed: never dialled")
		},
		// No endpoint detection: it would look the address up in DNS.
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}})
	rc.AddHook(route{w: w, c: c, i: i})
	return rc
}

type route struct {
	w *world
	c *client
	i int
}

func (r route) DialHook(next redis.DialHook) redis.DialHook { return next }
func (r route) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(context.Context, []redis.Cmder) error { return errors.New("routed: no pipelines") }
}
func (r route) ProcessHook(redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := r.w.process(r, ctx, cmd)
		if err != nil {
			cmd.SetErr(err)
		}
		return err
	}
}

// errLost is what a program sees when the network lost a reply: a timeout.
type errLost struct{}

func (errLost) Error() string   { return "i/o timeout: the reply was lost" }
func (errLost) Timeout() bool   { return true }
func (errLost) Temporary() bool { return true }

var errRefused = errors.New("connection refused: the node is down")

func (w *world) process(r route, ctx context.Context, cmd redis.Cmder) error {
	t, c := w.cur, r.c
	if t == nil || t.c != c {
		panic("a command from a goroutine the harness did not start")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if t.gates > 0 && t.sent >= 1 {
		t.gates--
		c.pending = t // the lesson's program stops here; `next` goes on
		w.park(t)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	n := w.store
	switch {
	case r.i == -2:
		n = w.primary
	case r.i >= 0:
		n = w.nodes[r.i]
	}
	if n.latency > 0 {
		w.advance(w.now + n.latency)
	}
	args := make([]string, len(cmd.Args()))
	for i, a := range cmd.Args() {
		args[i] = fmt.Sprint(a)
	}
	if n.down {
		t.sent++
		w.records = append(w.records, Record{Client: c.id, Node: n.name, Args: args, At: w.now, Refused: true})
		return errRefused
	}
	if name := strings.ToUpper(args[0]); (name == "SET" || name == "SETNX") && len(args) > 2 && args[1] == w.job.LockKey {
		c.lastSet = args[2]
	}
	if strings.EqualFold(args[0], "wait") {
		t.sent++
		return w.wait(c, n, args, cmd)
	}
	rc, ok := c.conns[n]
	if !ok {
		rc = n.srv.Connect().Client
		c.conns[n] = rc
	}
	err := rc.Process(context.Background(), cmd)
	noscript := err != nil && strings.HasPrefix(err.Error(), "NOSCRIPT")
	if !noscript {
		t.sent++
	}
	w.records = append(w.records, Record{Client: c.id, Node: n.name, Args: args, At: w.now, NoScript: noscript})
	if n == w.primary {
		w.replicate()
	}
	if c.dropNext && !noscript {
		// The server ran it and answered; the answer never arrived. A
		// NOSCRIPT reply is go-redis's own round trip before EVAL, so the
		// loss falls on the EVAL that follows.
		c.dropNext = false
		w.records[len(w.records)-1].Lost = true
		return errLost{}
	}
	return err
}

// wait is the model of WAIT 1 <timeout>, as the simulator has it: the
// primary answers 1 once the replication link delivered the client's lock
// to the replica, 0 if the timeout came first; it checks every 100 ms.
func (w *world) wait(c *client, n *node, args []string, cmd redis.Cmder) error {
	const timeout = 3000
	start := w.now
	has := func() bool {
		r := w.replica()
		return r != nil && r.synced.lock == c.lastSet && r.synced.lockOK
	}
	for w.now < start+timeout && !has() {
		w.advance(w.now + 100)
	}
	acked := has() && !w.primary.down
	w.records = append(w.records, Record{Client: c.id, Node: n.name, Args: args, At: w.now})
	ic, ok := cmd.(*redis.IntCmd)
	if !ok {
		return errors.New("WAIT: not an IntCmd")
	}
	if acked {
		ic.SetVal(1)
	} else {
		ic.SetVal(0)
	}
	return nil
}

func (w *world) replica() *node {
	for _, n := range w.nodes {
		if n != w.primary && n != w.oldPrimary {
			return n
		}
	}
	return nil
}

func (w *world) snapshot() repl {
	p, st := w.primary, repl{}
	st.lock, st.lockOK = p.srv.Get(w.job.LockKey)
	if ttl := p.srv.TTL(w.job.LockKey); st.lockOK && ttl > 0 {
		st.expiresAt = w.now + ttl
	}
	st.fence, st.fenceOK = p.srv.Get(w.job.FenceKey)
	return st
}

// replicate ships a change of the primary's lock or token to the replica,
// arriving after the simulator's replication lag.
func (w *world) replicate() {
	if !w.job.Replicated || w.primary.down {
		return
	}
	st := w.snapshot()
	if st == w.shipped {
		return
	}
	w.shipped = st
	w.inflight = append(w.inflight, shipment{at: w.now + sim.ReplicationLag, st: st})
	w.schedule(w.now+sim.ReplicationLag, nil, true)
}

func (w *world) deliver() {
	for len(w.inflight) > 0 && w.inflight[0].at <= w.now {
		st := w.inflight[0].st
		w.inflight = w.inflight[1:]
		r := w.replica()
		if r == nil || r.down {
			continue
		}
		if w.link == nil {
			w.link = r.srv.Connect().Client
		}
		key, old := w.job.LockKey, r.synced
		var args []any
		switch {
		case st.lock == old.lock && st.lockOK == old.lockOK && st.expiresAt == old.expiresAt:
		case !st.lockOK:
			args = []any{"DEL", key}
		case st.expiresAt > 0:
			args = []any{"SET", key, st.lock, "PXAT", strconv.FormatInt(w.job.EpochMs+st.expiresAt, 10)}
		default:
			args = []any{"SET", key, st.lock}
		}
		if args != nil {
			if err := w.link.Do(context.Background(), args...).Err(); err != nil && err != redis.Nil {
				panic(err)
			}
		}
		if st.fenceOK && (st.fence != old.fence || !old.fenceOK) {
			if err := w.link.Do(context.Background(), "SET", w.job.FenceKey, st.fence).Err(); err != nil {
				panic(err)
			}
		}
		r.synced = st
	}
}

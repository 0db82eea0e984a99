// scenario.go holds the scenarios lessons refer to by id: who takes part,
// the lock's parameters and the options a lesson can switch.

package sim

import (
	"slices"
	"sort"
)

// Option names and values shared by scenarios. In each OptionSpec the
// first value is the default, which is the safe design.
const (
	OptRelease    = "release"
	ReleaseLua    = "lua"    // compare-and-delete in one EVAL
	ReleaseDel    = "del"    // plain DEL: deletes whoever's lock is there
	ReleaseGetDel = "getdel" // GET, then DEL if it was mine: two commands
	ReleaseDelex  = "delex"  // DELEX key IFEQ value (Redis 8.4+)

	OptFence    = "fence"
	FenceOn     = "on"     // storage rejects a token lower than the last accepted
	FenceOff    = "off"    // storage accepts every write
	FenceStrict = "strict" // storage rejects a token not greater than the last accepted (a retry too)
	// FenceTwoStep: the storage's check is two commands — GET the last
	// token, then MSET the data and the token — so two writers can both
	// read the old token and the older write can land last.
	FenceTwoStep = "twostep"

	// OptCheck: whether a client asks Redis "is the lock still mine?"
	// (GET, compared with its value) right before it writes. The check
	// and the write are two steps; a pause between them defeats it.
	OptCheck  = "check"
	CheckNone = "none" // writes straight after its work
	CheckGet  = "get"  // GETs the lock key first, writes only if it holds its value

	// OptValue: what a client puts in the lock key.
	OptValue    = "value"
	ValueUnique = "unique" // a random value, new for every acquisition
	ValueHost   = "host"   // the host's name (Host): two workers on one host share it

	OptWork   = "work"
	WorkShort = "short" // the scenario's Work: well inside the TTL
	WorkLong  = "long"  // a job that runs longer than the TTL (LongWork)

	OptAcquire    = "acquire"
	AcquireSet    = "set"    // SET key value NX PX ttl: one atomic command
	AcquireSetNX  = "setnx"  // SETNX, then PEXPIRE: two commands
	AcquireGetSet = "getset" // GET, then SET if it was free: check-then-set

	OptTTL = "ttl"
	TTLOn  = "on"
	TTLOff = "off" // the lock key gets no expiry at all

	OptLock   = "lock"
	LockRedis = "redis" // one shared Redis key
	LockLocal = "local" // a mutex inside each app server (model)

	OptIdem  = "idem"
	IdemKey  = "key"  // charge only if the order's idempotency key is new
	IdemNone = "none" // every charge request charges

	// DefaultRetryMs is how long a client waits before trying a taken
	// lock again.
	DefaultRetryMs = 1000

	// LongWork is how long the long job of the TTL lesson takes: longer
	// than its 10 s TTL, with no pause at all.
	LongWork = 15_000
)

// StoreKind is what the protected resource is.
type StoreKind string

// Storage kinds.
const (
	StoreFenced  StoreKind = "fenced"  // one record, written with a fencing token
	StoreCharges StoreKind = "charges" // a payment ledger: each write charges the order
)

// Scenario is the fixed part of a timeline: everything but the options and
// the learner's actions.
type Scenario struct {
	ID       string
	Clients  []string // ids, lower case: "a", "b"
	Resource string   // what the lock protects, e.g. "order:42"
	TTL      int64    // lock TTL, ms
	Work     int64    // how long a client works before it writes, ms
	Retry    int64    // pause between a client's acquire attempts, ms
	Seed     uint64   // PRNG seed for lock values
	Options  []OptionSpec
	Storage  StoreKind
	// Tokens: a successful acquire takes a fencing token from INCR.
	Tokens bool
	// Lock is the fixed lock kind when the scenario has no lock option.
	Lock string
	// Nodes names the Redis nodes that hold locks ("redis" if none).
	Nodes []string
	// NodeVerbs are the node actions the learner may take.
	NodeVerbs []string
	// Replicated: Nodes[0] is a primary, Nodes[1] its asynchronous
	// replica (the failover lesson's model).
	Replicated bool
	// Redlock: clients lock every node and need a majority.
	Redlock bool
	// Coord: the lock lives in a modelled ZooKeeper or etcd (model_coord.go).
	Coord bool
	// Drops: the learner may make the network lose a reply (the lesson
	// about retries and exactly-once).
	Drops bool
	// Scripted: the clients run a learner's scripts (scripted.go,
	// model_scripted.go) instead of the lessons' programs; sim/lockdesign
	// sets it when it makes a design a scenario.
	Scripted *Scripted
	// Budget is the fault budget an exploration of this lesson's design
	// starts from (DefaultBudget): what the lesson is about.
	Budget Budget
}

// Budget counts faults a schedule may contain.
type Budget struct{ Pauses, Crashes, NodeFaults, Drops int }

// DefaultBudget is the scenario's Budget, or one pause (the paused
// holder, the failure most lessons are about) where it sets none.
func (sc *Scenario) DefaultBudget() Budget {
	if sc.Budget == (Budget{}) {
		return Budget{Pauses: 1}
	}
	return sc.Budget
}

// lockKind is the lock the scenario uses: the lock option, else its
// fixed Lock, else one Redis key.
func (sc *Scenario) lockKind(o Opts) string {
	if v, ok := o[OptLock]; ok {
		return v
	}
	if sc.Lock != "" {
		return sc.Lock
	}
	return LockRedis
}

// WorkMs is how long a client works before it writes, with these
// options: the scenario's Work, or LongWork for the long job.
func (sc *Scenario) WorkMs(o Opts) int64 {
	if o[OptWork] == WorkLong {
		return LongWork
	}
	return sc.Work
}

// Host is the machine client id runs on, for a lock value taken from the
// host's name (value.host): two clients to a host, so A and B share
// "app-1" and C is on "app-2".
func (sc *Scenario) Host(id string) string {
	i := slices.Index(sc.Clients, id)
	return "app-" + itoa(int64(i/2+1))
}

// LockKey is the Redis key of the lock.
func (sc *Scenario) LockKey() string { return "lock:" + sc.Resource }

// FenceKey is the counter that hands out fencing tokens.
func (sc *Scenario) FenceKey() string { return "fence:" + sc.Resource }

var scenarios = map[string]*Scenario{
	"fencing": {
		ID:       "fencing",
		Clients:  []string{"a", "b"},
		Resource: "order:42",
		TTL:      10_000,
		Work:     1000,
		Retry:    DefaultRetryMs,
		Seed:     42,
		Storage:  StoreFenced,
		Tokens:   true,
		Options: []OptionSpec{
			{Name: OptRelease, Values: []string{ReleaseLua, ReleaseDel}},
			{Name: OptFence, Values: []string{FenceOn, FenceOff, FenceStrict, FenceTwoStep}},
			{Name: OptCheck, Values: []string{CheckNone, CheckGet}},
		},
	},
	// Lesson 1: two app servers charge order 42. With a mutex inside each
	// server both get in; with one Redis key the second waits.
	"two-servers": {
		ID: "two-servers", Clients: []string{"a", "b"}, Resource: "order:42",
		TTL: 10_000, Work: 1000, Retry: 0, Seed: 1, Storage: StoreCharges,
		Options: []OptionSpec{
			{Name: OptLock, Values: []string{LockRedis, LockLocal}},
			{Name: OptIdem, Values: []string{IdemNone}},
		},
	},
	// Lesson 2: how the lock is taken — check-then-set, SETNX+EXPIRE, or
	// one SET NX PX.
	"atomic-acquire": {
		ID: "atomic-acquire", Clients: []string{"a", "b"}, Resource: "order:42",
		TTL: 10_000, Work: 1000, Retry: DefaultRetryMs, Seed: 2, Storage: StoreCharges,
		Budget: Budget{Pauses: 1, Crashes: 1}, // a holder crashing between SETNX and EXPIRE
		Options: []OptionSpec{
			{Name: OptAcquire, Values: []string{AcquireSet, AcquireGetSet, AcquireSetNX}},
			{Name: OptIdem, Values: []string{IdemNone}},
		},
	},
	// Lesson 3: the TTL — none (a crashed holder blocks forever), one, and
	// extending it.
	"ttl": {
		ID: "ttl", Clients: []string{"a", "b"}, Resource: "order:42",
		TTL: 10_000, Work: 1000, Retry: DefaultRetryMs, Seed: 3, Storage: StoreFenced, Tokens: true,
		Budget: Budget{Pauses: 1, Crashes: 1}, // a crashed holder without a TTL
		Options: []OptionSpec{
			{Name: OptTTL, Values: []string{TTLOn, TTLOff}},
			{Name: OptFence, Values: []string{FenceOff, FenceOn}},
			{Name: OptWork, Values: []string{WorkShort, WorkLong}},
		},
	},
	// Lesson 4: releasing — DEL, GET+DEL, compare-and-delete, DELEX — with
	// a third client to walk in through the gap.
	"safe-release": {
		ID: "safe-release", Clients: []string{"a", "b", "c"}, Resource: "order:42",
		TTL: 10_000, Work: 1000, Retry: DefaultRetryMs, Seed: 4, Storage: StoreFenced, Tokens: true,
		Options: []OptionSpec{
			{Name: OptRelease, Values: []string{ReleaseLua, ReleaseDel, ReleaseGetDel, ReleaseDelex}},
			{Name: OptFence, Values: []string{FenceOff, FenceOn}},
			{Name: OptValue, Values: []string{ValueUnique, ValueHost}},
		},
	},
	// Lesson 6: a primary and its asynchronously replicated replica (the
	// replication link is a model with a fixed lag). The primary dies before
	// the lock reached the replica; the replica is promoted; B gets in.
	"failover": {
		ID: "failover", Clients: []string{"a", "b"}, Resource: "order:42",
		TTL: 10_000, Work: 1000, Retry: DefaultRetryMs, Seed: 6, Storage: StoreFenced, Tokens: true,
		Nodes: []string{NodePrimary, NodeReplica}, Replicated: true,
		NodeVerbs: []string{NodeDown, NodePromote},
		Budget:    Budget{NodeFaults: 1}, // the primary going down
		Options: []OptionSpec{
			{Name: OptWait, Values: []string{WaitOn, WaitOff}},
			{Name: OptFence, Values: []string{FenceOn, FenceOff}},
		},
	},
	// Lesson 7: Redlock on five independent nodes, each with its own clock.
	"redlock": {
		ID: "redlock", Clients: []string{"a", "b"}, Resource: "order:42",
		TTL: 10_000, Work: 1000, Retry: DefaultRetryMs, Seed: 7, Storage: StoreFenced,
		Nodes: []string{"n1", "n2", "n3", "n4", "n5"}, Redlock: true,
		NodeVerbs: []string{NodeDown, NodeUp, NodeRestart, NodeJump, NodeSlow},
		Options: []OptionSpec{
			{Name: OptPersist, Values: []string{PersistFsync, PersistNone}},
			{Name: OptFence, Values: []string{FenceOff}},
		},
	},
	// Lesson 8: ZooKeeper and etcd, as labelled models; the storage is a
	// real Redis with the fencing check, the token the service's czxid or
	// revision.
	"coordination": {
		ID: "coordination", Clients: []string{"a", "b"}, Resource: "order:42",
		TTL: SessionTimeout, Work: 1000, Retry: DefaultRetryMs, Seed: 8, Storage: StoreFenced, Coord: true,
		Options: []OptionSpec{
			{Name: OptService, Values: []string{ServiceZK, ServiceEtcd}},
			{Name: OptFence, Values: []string{FenceOn, FenceOff}},
		},
	},
	// Lesson 9: a lock is not exactly-once. A lost reply makes the holder
	// charge again; an idempotency key makes the second charge a no-op.
	"exactly-once": {
		ID: "exactly-once", Clients: []string{"a", "b"}, Resource: "order:42",
		TTL: 10_000, Work: 1000, Retry: DefaultRetryMs, Seed: 9, Storage: StoreCharges, Drops: true,
		Options: []OptionSpec{
			{Name: OptIdem, Values: []string{IdemKey, IdemNone}},
		},
	},
}

// Lookup returns a copy of the scenario with that id: the caller may keep
// or change it without touching the table every other replay reads.
func Lookup(id string) (*Scenario, bool) {
	sc, ok := scenarios[id]
	if !ok {
		return nil, false
	}
	return sc.clone(), true
}

// clone copies a scenario, its lists included.
func (sc *Scenario) clone() *Scenario {
	c := *sc
	c.Clients = slices.Clone(sc.Clients)
	c.Nodes = slices.Clone(sc.Nodes)
	c.NodeVerbs = slices.Clone(sc.NodeVerbs)
	c.Options = slices.Clone(sc.Options)
	for i := range c.Options {
		c.Options[i].Values = slices.Clone(sc.Options[i].Values)
	}
	return &c
}

// ScenarioIDs lists every scenario, sorted; the lesson tests use it to
// prove each lesson names one that exists.
func ScenarioIDs() []string {
	ids := make([]string, 0, len(scenarios))
	for id := range scenarios {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

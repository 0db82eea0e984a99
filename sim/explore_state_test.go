package sim

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"locklab/sim/rediscli"
)

// fpBase is a world that shows a field: the schedule that reaches it.
type fpBase struct{ scenario, opt, do string }

var fpBases = map[string]fpBase{
	// A paused holder (key with a TTL, a token), B trying (a retry timer).
	"fencing": {"fencing", "", "a.acquire,b.acquire,a.pause"},
	// A stopped between GET and DEL (a pending program, the GET's reply).
	"getdel": {"safe-release", "release.getdel", "a.acquire,a.release"},
	// A holds the lock on the primary; the change is on its way to the
	// replica, an earlier one already arrived.
	"failover": {"failover", "wait.off", "a.acquire,wait.3s,a.release,b.acquire"},
	// A promoted replica, the old primary down.
	"promoted": {"failover", "wait.off", "a.acquire,wait.3s,primary.down,replica.promote"},
	// A holds the ZooKeeper lock and is paused (silent: its session
	// runs out); B waits on the node below.
	"coord": {"coordination", "", "a.acquire,b.acquire,a.pause"},
	// A Redlock holder (its validity), n3 down.
	"redlock": {"redlock", "", "a.acquire,n3.down"},
	// A's write reply lost on the way (a write retry timer), B trying.
	"exactly-once": {"exactly-once", "idem.none", "a.acquire,a.drop,a.write,b.acquire"},
}

// fpEntry says, for one field of the world, how two worlds can differ in
// it only (mutate: the fingerprints must then differ), or why no future
// depends on it (why). into: the field's own struct type is walked too.
type fpEntry struct {
	base   string
	mutate func(t *testing.T, w *World, b *Spent)
	why    string
	into   bool
}

func other(w *World, id string) string {
	for _, c := range w.clients {
		if c.ID != id {
			return c.ID
		}
	}
	return ""
}

func firstTimer(t *testing.T, w *World) *timer {
	for i := range w.queue.items {
		if w.queue.items[i].kind != timerExpiry {
			return &w.queue.items[i]
		}
	}
	t.Fatal("no timer")
	return nil
}

func mem(n *Node) *embedded { return n.srv.(*embedded) }

// fpTable has one entry per field of every struct a world is made of.
// A field added to World, Client, Node or the models without an entry
// fails TestFingerprintSeesEveryField: say how it can change (and the
// snapshot must then see it) or why a world's future cannot depend on it.
var fpTable = map[string]fpEntry{
	"World.sc":      {why: "the scenario: the same for every world of one exploration"},
	"World.opts":    {why: "the options: the same for every world of one exploration"},
	"World.clock":   {into: true},
	"Clock.now":     {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { w.clock.now += 7 }},
	"World.queue":   {into: true},
	"queue.items":   {into: true},
	"queue.seq":     {why: "a counter that only orders timers due at one instant; the snapshot keeps that order"},
	"timer.at":      {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { firstTimer(t, w).at += 7 }},
	"timer.seq":     {why: "orders timers due at one instant; the snapshot lists them in that order"},
	"timer.kind":    {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { firstTimer(t, w).kind = timerWriteRetry }},
	"timer.who":     {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { tm := firstTimer(t, w); tm.who = other(w, tm.who) }},
	"World.nodes":   {into: true},
	"Node.Name":     {why: "a node's identity: fixed by the scenario"},
	"Node.srv":      {why: "the node's server: its keys are in the snapshot (see TestFingerprintSeesServerData)"},
	"Node.offset":   {base: "redlock", mutate: func(t *testing.T, w *World, b *Spent) { w.nodes[0].offset += 500 }},
	"Node.down":     {base: "redlock", mutate: func(t *testing.T, w *World, b *Spent) { w.nodes[0].down = true }},
	"Node.latency":  {base: "redlock", mutate: func(t *testing.T, w *World, b *Spent) { w.nodes[1].latency = 3 }},
	"Node.synced":   {base: "failover", into: true, mutate: func(t *testing.T, w *World, b *Spent) { w.nodes[1].synced.fence = "9" }},
	"World.primary": {base: "promoted", mutate: func(t *testing.T, w *World, b *Spent) { w.primary = w.nodes[0] }},
	"World.store":   {why: "the storage node: fixed for a world; its keys are in the snapshot"},
	"World.clients": {into: true},
	"Client.ID":     {why: "a client's identity: fixed by the scenario (the fingerprint renames the taking-part ones)"},
	"Client.conns":  {why: "the client's go-redis connections: how commands travel, no state of their own"},
	"Client.state":  {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { w.clients[1].state = StateIdle }},
	"Client.before": {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { w.clients[0].before = StateWorking }},
	"Client.value": {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) {
		w.clients[0].value = "0123456789abcdef0123"
	}},
	"Client.token": {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { w.clients[0].token++ }},
	"Client.due":   {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { w.clients[0].due = []timerKind{timerRetry} }},
	"Client.spans": {why: "history: the picture's lanes; the order of acquisitions, which a stale write depends on, is Client.acq"},
	"Client.pending": {base: "getdel", mutate: func(t *testing.T, w *World, b *Spent) {
		w.clients[0].pending = func(*World, *Client) error { return nil }
	}},
	"Client.pendingWhat": {base: "getdel", mutate: func(t *testing.T, w *World, b *Spent) { w.clients[0].pendingWhat = "UNLINK" }},
	"Client.dropNext":    {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { w.clients[1].dropNext = true }},
	"Client.leaseEnd":    {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { w.clients[0].leaseEnd = w.clock.Now() + 5 }},
	"Client.wrote":       {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { w.clients[0].wrote = true }},
	"Client.acq": {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) {
		w.clients[0].acq, w.clients[1].acq = w.clients[1].acq, w.clients[0].acq
	}},
	"Client.dropWindow": {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { w.clients[0].dropWindow = true }},
	"Client.keyLeft":    {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { w.clients[0].keyLeft = true }},
	"Client.validUntil": {base: "redlock", mutate: func(t *testing.T, w *World, b *Spent) { w.clients[0].validUntil-- }},
	"Client.disconnected": {base: "coord", mutate: func(t *testing.T, w *World, b *Spent) {
		w.clients[1].disconnected = true
	}},
	"World.rng": {why: "lock values come from it; the fingerprint names every value by its owner, so which numbers come next makes no difference a future can tell"},
	"World.events": {base: "getdel", mutate: func(t *testing.T, w *World, b *Spent) {
		// The GET's reply, which the pending DEL depends on.
		for i := len(w.events) - 1; i >= 0; i-- {
			if w.events[i].Actor == "a" && w.events[i].Kind == KindCommand {
				w.events[i].Reply = rediscli.Reply{Kind: rediscli.ReplyNil}
				return
			}
		}
		t.Fatal("no command of a")
	}},
	"World.operator":     {why: "the typed commands' connection: the explorer never types commands (cli is not an explored action), and a copied world opens its own"},
	"World.typed":        {why: "the names of scripts typed by hand, for the event log: the explorer never types commands"},
	"World.acquisitions": {why: "a counter: only the order of the clients' acquisitions (Client.acq) matters, and the snapshot keeps that"},
	"World.newestWrite":  {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { w.newestWrite = w.clients[0].acq }},
	"World.newestWriter": {why: "names whom a stale write went past in its violation; no check or future depends on it"},
	"World.violations":   {why: "history: what broke is counted at the action that broke it; no check reads it again"},
	"World.locks":        {why: "history: the picture's lock spans; the keys themselves are in the snapshot"},
	"World.step":         {why: "the index of the action being applied: a label"},
	"World.actionAt":     {why: "when the action being applied began: a label for the picture's text"},
	"World.acqEvent":     {why: "transient: set only while a client takes the lock (TestFingerprintTransientFields)"},
	"World.fail":         {why: "transient: set only inside an action (TestFingerprintTransientFields)"},
	"World.wiping":       {why: "transient: set only inside an action (TestFingerprintTransientFields)"},
	"World.coord":        {into: true},
	"coord.svc":          {why: "the modelled service: fixed by the options"},
	"coord.zxid":         {base: "coord", mutate: func(t *testing.T, w *World, b *Spent) { w.coord.zxid++ }},
	"coord.seq":          {base: "coord", mutate: func(t *testing.T, w *World, b *Spent) { w.coord.seq++ }},
	"coord.entries":      {into: true},
	"lockEntry.owner": {base: "coord", mutate: func(t *testing.T, w *World, b *Spent) {
		w.coord.entries[1].owner = w.coord.entries[0].owner
	}},
	"lockEntry.name":    {base: "coord", mutate: func(t *testing.T, w *World, b *Spent) { w.coord.entries[0].name += "x" }},
	"lockEntry.rev":     {base: "coord", mutate: func(t *testing.T, w *World, b *Spent) { w.coord.entries[0].rev += 100 }},
	"coord.live":        {base: "coord", mutate: func(t *testing.T, w *World, b *Spent) { w.coord.live["b"] = false }},
	"coord.silentSince": {base: "coord", mutate: func(t *testing.T, w *World, b *Spent) { w.coord.silentSince["a"]-- }},
	"coord.lease":       {base: "coord", mutate: func(t *testing.T, w *World, b *Spent) { w.coord.lease["a"] = 5 }},
	"World.oldPrimary":  {base: "promoted", mutate: func(t *testing.T, w *World, b *Spent) { w.oldPrimary = nil }},
	"World.link":        {why: "the replication link's connection: it never changes but for its connections"},
	"World.shipped":     {base: "failover", into: true, mutate: func(t *testing.T, w *World, b *Spent) { w.shipped.lockOK = false }},
	"replicaState.lock": {base: "failover", mutate: func(t *testing.T, w *World, b *Spent) {
		w.shipped.lock = w.clients[0].value
	}},
	"replicaState.lockOK":    {base: "failover", mutate: func(t *testing.T, w *World, b *Spent) { w.shipped.lockOK = !w.shipped.lockOK }},
	"replicaState.expiresAt": {base: "failover", mutate: func(t *testing.T, w *World, b *Spent) { w.shipped.expiresAt++ }},
	"replicaState.fence":     {base: "failover", mutate: func(t *testing.T, w *World, b *Spent) { w.shipped.fence = "7" }},
	"replicaState.fenceOK":   {base: "failover", mutate: func(t *testing.T, w *World, b *Spent) { w.shipped.fenceOK = !w.shipped.fenceOK }},
	"World.inflight": {base: "failover", into: true, mutate: func(t *testing.T, w *World, b *Spent) {
		w.inflight = w.inflight[:0]
	}},
	"shipment.at": {base: "failover", mutate: func(t *testing.T, w *World, b *Spent) { w.inflight[0].at++ }},
	"shipment.st": {base: "failover", mutate: func(t *testing.T, w *World, b *Spent) { w.inflight[0].st.fence = "8" }},
	// The explorer's budget is part of the state: the same world with
	// more faults left has more futures.
	"Spent.Pauses":     {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { b.Pauses++ }},
	"Spent.Waits":      {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { b.Waits++ }},
	"Spent.Crashes":    {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { b.Crashes++ }},
	"Spent.NodeFaults": {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { b.NodeFaults++ }},
	"Spent.Drops":      {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { b.Drops++ }},
	"Spent.Jumps":      {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { b.Jumps++ }},
	"Spent.Acquired":   {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { b.Acquired ^= 1 }},
	"Spent.Written":    {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { b.Written ^= 1 }},
	"Spent.Released":   {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { b.Released ^= 1 }},
	"Spent.Waited":     {base: "fencing", mutate: func(t *testing.T, w *World, b *Spent) { b.Waited ^= 1 }},
}

// fpWorld opens a base world and its budget (as the explorer would have
// counted it: the programs started so far).
func fpWorld(t *testing.T, name string) (*World, Spent, *fpMachine) {
	t.Helper()
	base, ok := fpBases[name]
	if !ok {
		t.Fatalf("no base world %q", name)
	}
	sc, _ := Lookup(base.scenario)
	opts, err := sc.ParseOptions(base.opt)
	if err != nil {
		t.Fatal(err)
	}
	as, err := ParseActions(base.do)
	if err != nil {
		t.Fatal(err)
	}
	m := startMachine(t, sc, opts, as)
	return m.w, started(m.w), &fpMachine{m: m, clients: len(sc.Clients)}
}

// fpMachine fingerprints its machine's world as a search of that many
// clients would, the symmetry on or off.
type fpMachine struct {
	m         *Machine
	clients   int
	symmetric bool
}

// fingerprint reads the world afresh (a test may have changed the
// servers' keys behind the machine's back).
func (f *fpMachine) fingerprint(_ *World, b Spent) string {
	f.m.keys = nil
	for _, n := range f.m.w.serversOf() {
		mem(n).known.ok = false // what the machine last read is not what the test wrote
	}
	return f.m.fingerprint(b, f.clients, f.symmetric)
}

// startMachine is a machine that took the actions.
func startMachine(t *testing.T, sc *Scenario, opts Opts, as []Action) *Machine {
	t.Helper()
	m, err := NewMachine(sc, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range as {
		if err := m.Step(i, a); err != nil {
			m.Close()
			t.Fatalf("%s: %v", FormatActions(as), err)
		}
	}
	return m
}

// started is the budget of a world whose started clients took their
// acquire (as the explorer would have counted it).
func started(w *World) Spent {
	var b Spent
	for i, c := range w.clients {
		if c.state != StateIdle {
			b.Acquired |= 1 << i
		}
	}
	return b
}

// TestFingerprintSeesEveryField: for every field of every struct a world
// is made of (found by reflection, so a new field cannot hide), either two
// worlds that differ only in that field have different fingerprints, or
// the table says why no future depends on it. A new field without an
// entry fails here.
func TestFingerprintSeesEveryField(t *testing.T) {
	seen := map[string]bool{}
	var walk func(typ reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Map {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct || seen[typ.Name()] {
			return
		}
		seen[typ.Name()] = true
		for i := range typ.NumField() {
			f := typ.Field(i)
			name := typ.Name() + "." + f.Name
			entry, ok := fpTable[name]
			if !ok {
				t.Errorf("%s has no entry in fpTable (explore_state_test.go): if a world's future can depend on it, "+
					"put it in the snapshot (explore_state.go, capture) and add a mutation that changes only it; "+
					"if not, say why", name)
				continue
			}
			if entry.into {
				walk(f.Type)
			}
			if entry.mutate == nil {
				if entry.why == "" && !entry.into {
					t.Errorf("%s: an entry with neither a mutation nor a reason", name)
				}
				continue
			}
			t.Run(name, func(t *testing.T) {
				w, b, e := fpWorld(t, entry.base)
				defer w.close()
				before := e.fingerprint(w, b)
				entry.mutate(t, w, &b)
				if after := e.fingerprint(w, b); after == before {
					t.Errorf("a world that differs from %q only in %s has the same fingerprint: the snapshot does not see it\n%s",
						fpBases[entry.base].do, name, before)
				}
			})
		}
	}
	walk(reflect.TypeFor[World]())
	walk(reflect.TypeFor[Spent]())
	for name := range fpTable {
		if typ, _, _ := strings.Cut(name, "."); !seen[typ] {
			t.Errorf("fpTable has %s, but no %s is part of a world any more", name, typ)
		}
	}
}

// TestFingerprintSeesServerData: the keys come from the servers
// themselves — a value, a TTL, a list element, a key nothing else knows
// of, on a lock node or on the storage — so any difference there is a
// different state.
func TestFingerprintSeesServerData(t *testing.T) {
	for name, m := range map[string]func(w *World){
		"lock value":    func(w *World) { _ = mem(w.nodes[0]).m.Set(w.sc.LockKey(), "someone else") },
		"lock TTL":      func(w *World) { mem(w.nodes[0]).m.SetTTL(w.sc.LockKey(), 3*time.Second) },
		"fence counter": func(w *World) { _ = mem(w.nodes[0]).m.Set(w.sc.FenceKey(), "41") },
		"storage data":  func(w *World) { _ = mem(w.store).m.Set(w.sc.DataKey(), "written by B") },
		"unknown key":   func(w *World) { _ = mem(w.store).m.Set("audit:1", "x") },
		"list element":  func(w *World) { _, _ = mem(w.store).m.Push(w.sc.ChargesKey(), "A") },
		"key deleted":   func(w *World) { mem(w.nodes[0]).m.Del(w.sc.LockKey()) },
	} {
		t.Run(name, func(t *testing.T) {
			w, b, e := fpWorld(t, "fencing")
			defer w.close()
			before := e.fingerprint(w, b)
			m(w)
			if e.fingerprint(w, b) == before {
				t.Errorf("%s: same fingerprint", name)
			}
		})
	}
}

// TestFingerprintTransientFields: the fields the table calls transient
// are indeed at rest between two actions, in every base world.
func TestFingerprintTransientFields(t *testing.T) {
	for name := range fpBases {
		w, _, _ := fpWorld(t, name)
		if w.fail != nil || w.wiping || w.acqEvent != -1 {
			t.Errorf("%s: a transient field is set between actions: %v %v %d", name, w.fail, w.wiping, w.acqEvent)
		}
		w.close()
	}
}

// TestFingerprintForgetsOnlyNames: two worlds that differ only by which
// client is which have one fingerprint (the symmetry), and the same world
// reached at a later instant has the same fingerprint (times are
// distances from now).
func TestFingerprintForgetsOnlyNames(t *testing.T) {
	sc, _ := Lookup("fencing")
	fp := func(do string) string {
		t.Helper()
		as, _ := ParseActions(do)
		m := startMachine(t, sc, sc.DefaultOpts(), as)
		defer m.Close()
		return m.fingerprint(started(m.w), 2, true)
	}
	if a, b := fp("a.acquire,b.acquire"), fp("b.acquire,a.acquire"); a != b {
		t.Errorf("mirrored worlds differ:\n%s\n%s", a, b)
	}
}

// TestFingerprintSeesPendingReply: a client stopped between GET and DEL
// deletes only if its GET saw its own value, so two worlds alike in every
// key and client but that reply are different states.
func TestFingerprintSeesPendingReply(t *testing.T) {
	sc, _ := Lookup("safe-release")
	opts, _ := sc.ParseOptions("release.getdel")
	fp := func(do string) string {
		t.Helper()
		as, err := ParseActions(do)
		if err != nil {
			t.Fatal(err)
		}
		m := startMachine(t, sc, opts, as)
		defer m.Close()
		if c := m.w.client("a"); c.pending == nil {
			t.Fatalf("%s: A is not between GET and DEL", do)
		}
		return m.fingerprint(Spent{}, 2, true)
	}
	sawOwn := fp("a.acquire,a.release,a.pause,wait.10s,a.resume")
	sawNone := fp("a.acquire,a.pause,wait.10s,a.resume,a.release")
	if sawOwn == sawNone {
		t.Errorf("GET saw A's value / saw nothing: same fingerprint %q", sawOwn)
	}
}

package realredis_test

// redsync_test.go cross-checks the Redlock lesson's client with a real
// Redlock implementation, go-redsync/redsync: both acquire against the
// same five real redis-server processes in the same states, and must agree
// on whether the lock was taken and on which nodes hold it afterwards.
//
// Where they differ by design it is configured, not hidden: the lesson's
// drift allowance is redlock-py's 1% of the TTL + 2 ms, redsync's is a
// bare factor (0.01 by default, FACTS.md §2), so redsync is given the
// factor that makes its drift the lesson's exactly (WithDriftFactor). The
// lesson's client sends to the nodes in turn and waits for every reply;
// redsync sends in parallel with a per-node timeout (5% of the expiry),
// so the slow nodes here answer well within that timeout: a node slower
// than it would be a failure for redsync and only elapsed time for the
// lesson (docs/parity.md).

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	goredislib "github.com/redis/go-redis/v9"

	"locklab/sim"
	"locklab/sim/realredis"
	"locklab/sim/redistest"
)

// redlockState is the state of the five nodes before client A acquires.
type redlockState struct {
	name   string
	down   []int // nodes that are down (0-based)
	others []int // nodes where another client's value already holds the key
	slow   []int // nodes whose every command arrives slowDelay late
	want   bool  // the outcome both must reach (so a state cannot pass by both being wrong the same way)
}

const slowDelay = 40 * time.Millisecond

func TestRedlockAgreesWithRedsync(t *testing.T) {
	servers := redistest.Start(t, 6)
	sc, _ := sim.Lookup("redlock")
	states := []redlockState{
		{name: "all up", want: true},
		{name: "one down", down: []int{4}, want: true},
		{name: "two down", down: []int{3, 4}, want: true},
		{name: "three down", down: []int{2, 3, 4}, want: false},
		{name: "one node holds another value", others: []int{0}, want: true},
		{name: "two down, one holds another value", down: []int{3, 4}, others: []int{0}, want: false},
		{name: "three hold another value", others: []int{0, 1, 2}, want: false},
		{name: "slow nodes", slow: []int{0, 1, 2}, want: true},
		{name: "slow and down", slow: []int{0}, down: []int{4}, want: true},
	}
	for _, st := range states {
		t.Run(st.name, func(t *testing.T) {
			lessonOK, lessonNodes := lessonAcquire(t, servers, sc, st)
			rsOK, rsNodes := redsyncAcquire(t, servers, sc, st)
			t.Logf("lesson: %v on %v; redsync: %v on %v", lessonOK, lessonNodes, rsOK, rsNodes)
			if lessonOK != rsOK || !slices.Equal(lessonNodes, rsNodes) {
				t.Fatalf("disagree: lesson acquired=%v holding on %v, redsync acquired=%v holding on %v",
					lessonOK, lessonNodes, rsOK, rsNodes)
			}
			if lessonOK != st.want {
				t.Fatalf("both acquired=%v, want %v", lessonOK, st.want)
			}
		})
	}
}

// prepare empties the servers and writes another client's value on the
// nodes st says hold one, under key.
func prepare(t *testing.T, servers []*redistest.Server, st redlockState, key func(node int) string) {
	t.Helper()
	for _, s := range servers {
		if _, err := s.Send("FLUSHALL"); err != nil {
			t.Fatal(err)
		}
	}
	for _, i := range st.others {
		if _, err := servers[i].Send("SET", key(i), "held-by-someone-else", "PX", "60000"); err != nil {
			t.Fatal(err)
		}
	}
}

// lessonAcquire replays the lesson's acquisition on the real servers and
// returns whether A got the lock and the nodes (1-based) holding its value.
func lessonAcquire(t *testing.T, servers []*redistest.Server, sc *sim.Scenario, st redlockState) (bool, []int) {
	t.Helper()
	const prefix = "xcheck:"
	prepare(t, servers, st, func(i int) string { return prefix + sc.Nodes[i] + ":" + sc.LockKey() })
	var do []string
	for _, i := range st.down {
		do = append(do, sc.Nodes[i]+".down")
	}
	for _, i := range st.slow {
		do = append(do, fmt.Sprintf("%s.slow.%dms", sc.Nodes[i], slowDelay.Milliseconds()))
	}
	actions, err := sim.ParseActions(strings.Join(append(do, "a.acquire"), ","))
	if err != nil {
		t.Fatal(err)
	}
	b := &realredis.RealRedis{Prefix: prefix, Options: func(node string) *goredislib.Options {
		return &goredislib.Options{Addr: serverOf(sc, servers, node).Addr}
	}}
	tl, err := sim.ReplayOn(context.Background(), b, sc, sc.DefaultOpts(), actions)
	if err != nil {
		t.Fatal(err)
	}
	a := tl.Clients[0]
	var nodes []int
	for _, l := range tl.Locks {
		if l.To == -1 && l.Value == a.Value {
			nodes = append(nodes, slices.Index(sc.Nodes, l.Node)+1)
		}
	}
	slices.Sort(nodes)
	return a.State == sim.StateHolding, nodes
}

// redsyncAcquire runs redsync's TryLock against the servers in the same
// state: down nodes really stopped, slow ones behind a delaying dialer.
func redsyncAcquire(t *testing.T, servers []*redistest.Server, sc *sim.Scenario, st redlockState) (bool, []int) {
	t.Helper()
	key := sc.LockKey()
	prepare(t, servers, st, func(int) string { return key })
	for _, i := range st.down {
		servers[i].Stop()
	}
	defer func() {
		for _, i := range st.down {
			if err := servers[i].Restart(); err != nil {
				t.Fatal(err)
			}
		}
	}()
	var pools []redis.Pool
	var clients []*goredislib.Client
	for i := range 5 {
		o := &goredislib.Options{Addr: servers[i].Addr, DialTimeout: 200 * time.Millisecond, MaxRetries: -1}
		if slices.Contains(st.slow, i) {
			o.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
				if err != nil {
					return nil, err
				}
				return slowConn{c}, nil
			}
		}
		c := goredislib.NewClient(o)
		clients = append(clients, c)
		pools = append(pools, goredis.NewPool(c))
	}
	defer func() {
		for _, c := range clients {
			_ = c.Close()
		}
	}()
	ttl := time.Duration(sc.TTL) * time.Millisecond
	// The lesson's drift is TTL/100 + 2 ms; this factor gives redsync the same.
	drift := float64(sc.Drift()) / float64(sc.TTL)
	const value = "redsync-value" // known even when TryLock fails, to look for leftovers
	m := redsync.New(pools...).NewMutex(key, redsync.WithExpiry(ttl), redsync.WithTries(1),
		redsync.WithDriftFactor(drift), redsync.WithGenValueFunc(func() (string, error) { return value, nil }))
	err := m.TryLock()
	var nodes []int
	for i := range 5 {
		if slices.Contains(st.down, i) {
			continue
		}
		if v, err := servers[i].Send("GET", key); err == nil && v == value {
			nodes = append(nodes, i+1)
		}
	}
	return err == nil, nodes
}

// slowConn delays every write: a command that arrives late.
type slowConn struct{ net.Conn }

func (c slowConn) Write(b []byte) (int, error) {
	time.Sleep(slowDelay)
	return c.Conn.Write(b)
}

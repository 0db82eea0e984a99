// recorder.go holds the recorder: a sim.Backend of fresh miniredis servers
// that writes down, in order, everything that happens to their data — each
// command a connection sends with the keys before and after it, each move
// of a server's clock with the keys it expired, each restart with the keys
// it lost.

package oracle

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"locklab/sim"
	"locklab/sim/rediscli"
	"locklab/sim/redisfront"
)

// OpKind is what happened to a server's data.
type OpKind string

// The kinds of op.
const (
	OpCommand OpKind = "command" // a connection sent a command and the server answered
	OpClock   OpKind = "clock"   // the server was told a new time (keys may have expired)
	OpRestart OpKind = "restart" // the server restarted empty
)

// Key is one key as the server holds it: its type, its content, and its
// remaining time to live in ms on the server's own clock (0: none).
type Key struct {
	Type string   // "string", "list", … as TYPE answers
	Str  string   // a string's value
	List []string // a list's elements
	TTL  int64
}

// Same reports whether k and o hold the same type and content (their
// TTLs aside).
func (k Key) Same(o Key) bool {
	return k.Type == o.Type && k.Str == o.Str && slices.Equal(k.List, o.List)
}

// Keys is a server's whole keyspace at one instant.
type Keys map[string]Key

// Op is one thing that happened to one server, in the order it happened
// across all the servers of the replay (a world sends one command at a
// time).
type Op struct {
	Seq  int
	Node string
	Kind OpKind
	// At is the world's time (the storage's clock, which never jumps);
	// NodeAt the server's own after the op.
	At, NodeAt int64
	// Args is a command as the server received it; Val and Err what it
	// answered, as go-redis read it (Err "redis: nil" for a nil).
	Args []string
	Val  any
	Err  string
	// Before and After are the server's keys around the op; NodeBefore
	// its clock before it.
	Before, After Keys
	NodeBefore    int64
}

// Recorder is a sim.Backend whose servers are fresh miniredis instances,
// set up as the embedded backend's (virtual time from 0, TTLs on that
// clock, EVAL through sim/luarun), each of whose data changes it records.
// One Recorder serves one replay.
type Recorder struct {
	mu    sync.Mutex
	ops   []Op
	world int64 // the storage's last time
	srvs  []*server
}

// Open starts a server for node name.
func (r *Recorder) Open(name string) (sim.Server, error) {
	m := miniredis.NewMiniRedis()
	f, err := redisfront.Install(m)
	if err != nil {
		return nil, err
	}
	f.SetTime(time.UnixMilli(sim.EpochMs).UTC())
	m.ClockTTL(true)
	s := &server{r: r, name: name, m: m, front: f}
	r.mu.Lock()
	r.srvs = append(r.srvs, s)
	r.mu.Unlock()
	return s, nil
}

// Ops is everything recorded, in order.
func (r *Recorder) Ops() []Op {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.ops)
}

// Now is every server's keyspace as it is now.
func (r *Recorder) Now() map[string]Keys {
	out := map[string]Keys{}
	for _, s := range r.srvs {
		out[s.name] = s.keys()
	}
	return out
}

// Shut closes every server (a replay's Close only gives them back, so the
// facts can still read them).
func (r *Recorder) Shut() {
	for _, s := range r.srvs {
		s.m.Close()
	}
}

type server struct {
	r     *Recorder
	name  string
	m     *miniredis.Miniredis
	front *redisfront.Front
	at    int64 // the server's own time
	conns []*rediscli.Conn
}

func (s *server) keys() Keys {
	out := Keys{}
	for _, k := range s.m.Keys() {
		key := Key{Type: s.m.Type(k), TTL: s.m.TTL(k).Milliseconds()}
		switch key.Type {
		case "string":
			key.Str, _ = s.m.Get(k)
		case "list":
			key.List, _ = s.m.List(k)
		}
		out[k] = key
	}
	return out
}

func (s *server) add(op Op) {
	r := s.r
	r.mu.Lock()
	defer r.mu.Unlock()
	op.Seq, op.Node, op.At, op.NodeAt = len(r.ops), s.name, r.world, s.at
	r.ops = append(r.ops, op)
}

// Connect dials the server through a pipe, as the embedded backend does,
// with a hook that records each command.
func (s *server) Connect() *rediscli.Conn {
	o := sim.ClientOptions()
	o.Addr = s.name
	c := rediscli.NewConn(o, func(context.Context, string, string) (net.Conn, error) { return s.m.Dial() })
	c.AddHook(hook{s})
	s.conns = append(s.conns, c)
	return c
}

func (s *server) SetTime(ms int64) {
	if s.name == sim.NodeStorage {
		s.r.mu.Lock()
		s.r.world = ms
		s.r.mu.Unlock()
	}
	before, was := s.keys(), s.at
	s.at = ms
	s.front.SetTime(time.UnixMilli(sim.EpochMs + ms).UTC())
	s.add(Op{Kind: OpClock, Before: before, After: s.keys(), NodeBefore: was})
}

func (s *server) SetReadOnly(on bool) { s.front.ReadOnly = on }

func (s *server) Get(key string) (string, bool) {
	v, err := s.m.Get(key)
	return v, err == nil
}

func (s *server) List(key string) []string {
	l, err := s.m.List(key)
	if err != nil {
		return nil
	}
	return l
}

func (s *server) TTL(key string) int64 { return s.m.TTL(key).Milliseconds() }

func (s *server) Restart() {
	before := s.keys()
	s.m.FlushAll()
	s.add(Op{Kind: OpRestart, Before: before, After: s.keys(), NodeBefore: s.at})
}

func (s *server) Err() error { return nil }

// Close closes the connections; the server itself stays readable until
// the Recorder is shut.
func (s *server) Close() {
	for _, c := range s.conns {
		_ = c.Close()
	}
}

type hook struct{ s *server }

// handshake is what go-redis sends by itself when it connects.
var handshake = map[string]bool{"HELLO": true, "AUTH": true, "SELECT": true, "CLIENT": true}

func (h hook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h hook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (h hook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		s := h.s
		if handshake[strings.ToUpper(fmt.Sprint(cmd.Args()[0]))] {
			return next(ctx, cmd) // go-redis's own, on connecting: not a client's command
		}
		before := s.keys()
		err := next(ctx, cmd)
		op := Op{Kind: OpCommand, Before: before, After: s.keys(), NodeBefore: s.at}
		for _, a := range cmd.Args() {
			op.Args = append(op.Args, fmt.Sprint(a))
		}
		if c, ok := cmd.(*redis.Cmd); ok {
			op.Val = c.Val()
		}
		if err != nil {
			op.Err = err.Error()
		} else if e := cmd.Err(); e != nil {
			op.Err = e.Error()
		}
		s.add(op)
		return err
	}
}

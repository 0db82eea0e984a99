// backend_pool.go holds the embedded backend's pool of miniredis servers and their
// go-redis connections. Starting a server and dialling a client are most of
// what a short replay costs; a closed world's servers are emptied and reset
// to virtual time 0 instead, and the next world gets them with their
// connections still open. Nothing a client can see survives a reset: no key,
// no TTL, no clock (the connections carry no state of their own: no
// database is selected, no transaction or subscription is ever left open).

package sim

import (
	"context"
	"net"
	"sync"

	"github.com/alicebob/miniredis/v2"

	"locklab/sim/rediscli"
	"locklab/sim/redisfront"
)

// maxIdleServers bounds the servers kept for reuse (each one idle costs a
// few kilobytes and a goroutine per open connection).
const maxIdleServers = 256

type serverPool struct {
	mu   sync.Mutex
	idle []*embedded
}

// servers is the embedded backend's pool: the lesson pages' replays, the
// Lab's explorations and its verifications all draw from it.
var servers = &serverPool{}

// get returns an empty server at virtual time 0, reused if one is idle.
func (p *serverPool) get(name string) *embedded {
	p.mu.Lock()
	var e *embedded
	if n := len(p.idle); n > 0 {
		e, p.idle = p.idle[n-1], p.idle[:n-1]
	}
	p.mu.Unlock()
	if e == nil {
		m := miniredis.NewMiniRedis()
		// The front holds what a timeline stores to a public server's
		// bounds; a world sends one command at a time, so its scripts
		// may run on reused Lua states (redisfront's and luarun's
		// package docs say why).
		f, err := redisfront.Install(m)
		if err != nil {
			panic(err) // an in-memory pipe does not fail
		}
		f.SetTime(instant(0))
		m.ClockTTL(true)
		e = &embedded{m: m, front: f}
	}
	e.name = name
	return e
}

// put empties e, resets its clock and keeps it for the next world (or
// closes it when enough are idle).
func (p *serverPool) put(e *embedded) {
	e.known.ok = false
	e.m.FlushAll()
	e.front.SetTime(instant(0))
	e.now = 0
	e.m.ClockTTL(true) // the TTL clock restarts at 0 too
	e.front.Reset(0)
	e.used = 0
	p.mu.Lock()
	if len(p.idle) < maxIdleServers {
		p.idle = append(p.idle, e)
		e = nil
	}
	p.mu.Unlock()
	if e != nil {
		e.shut()
	}
}

// drain closes every idle server.
func (p *serverPool) drain() {
	p.mu.Lock()
	idle := p.idle
	p.idle = nil
	p.mu.Unlock()
	for _, e := range idle {
		e.shut()
	}
}

// CloseIdleServers closes the embedded servers kept for reuse, and their
// connections: for a graceful shutdown, and for tests that check no
// goroutine outlives them. Servers in use are not touched; they return to
// an empty pool and are kept again.
func CloseIdleServers() { servers.drain() }

// embedded is one pooled miniredis and the go-redis connections dialled
// to it; a world uses them in the order it asks (used counts them).
type embedded struct {
	name  string
	m     *miniredis.Miniredis
	front *redisfront.Front
	conns []*rediscli.Conn
	used  int
	now   int64     // the server's clock, virtual ms
	known knownKeys // what the explorer last read or wrote (explore_state.go)
}

// Connect returns a go-redis client whose only connection is an in-memory
// pipe into this miniredis: no sockets. A connection a former world
// dialled is handed out again before a new one is dialled.
func (e *embedded) Connect() *rediscli.Conn {
	if e.used < len(e.conns) {
		e.used++
		return e.conns[e.used-1]
	}
	o := ClientOptions()
	o.Addr = e.name
	m := e.m
	rc := rediscli.NewConn(o, func(context.Context, string, string) (net.Conn, error) { return m.Dial() })
	e.conns = append(e.conns, rc)
	e.used++
	return rc
}

// Close gives the server back to the pool.
func (e *embedded) Close() { servers.put(e) }

func (e *embedded) shut() {
	for _, rc := range e.conns {
		_ = rc.Close()
	}
	e.m.Close()
}

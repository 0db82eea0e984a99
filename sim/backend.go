// backend.go holds what a node needs of the Redis server it runs on, and
// the default: an embedded miniredis on the virtual clock. The real-server
// backend (sim/realredis) implements the same interface, so the same replay
// can run on either and their replies can be compared (the parity suite).

package sim

import (
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"locklab/sim/rediscli"
)

// Backend supplies the servers of one replay. A value is used by one
// replay only (a real backend keeps that replay's keys apart by a prefix).
type Backend interface {
	// Open returns an empty server for the node called name ("redis",
	// "storage", "n1"…), its clock at virtual time 0.
	Open(name string) (Server, error)
}

// Server is one node's Redis server as the simulator uses it. Connect is
// the learner-visible path: every command a client sends goes through a
// connection it returns, and its reply is what the timeline shows. The
// other methods are the simulator's own: they move time, read state for
// the picture and the checks, and fake nothing a client could see.
type Server interface {
	// Connect opens one client's connection (NewConn: tapped, so its
	// replies keep their RESP types).
	Connect() *rediscli.Conn
	// SetTime tells the server the node's virtual time in ms; keys whose
	// TTL has run out by then are gone afterwards.
	SetTime(ms int64)
	// Get reads a string key without going through a client's connection.
	Get(key string) (string, bool)
	// List reads a list key (nil if absent).
	List(key string) []string
	// TTL is the key's remaining time to live in ms; 0 when it has none.
	TTL(key string) int64
	// Restart restarts the server with nothing persisted: it comes back
	// empty.
	Restart()
	// SetReadOnly makes the server answer a write with Redis's READONLY
	// error, as a replica does to its clients (on: the learner types on
	// a replica; the replication model's own writes are sent with it
	// off, as a primary's stream is obeyed).
	SetReadOnly(on bool)
	// Err is the first failure of the server itself (unreachable, a
	// timeout); the replay stops at the next action boundary with it.
	Err() error
	// Close ends the server (or, for a shared real one, removes this
	// replay's keys and closes its connections).
	Close()
}

// Embedded is the default backend: each node is its own miniredis, on the
// virtual clock (SetTime with ClockTTL), dialled through an in-memory pipe.
// Its servers come from a pool (backend_pool.go): a closed world's servers are
// emptied and reused, with their connections.
type Embedded struct{}

// Open returns an empty miniredis at virtual time 0.
func (Embedded) Open(name string) (Server, error) { return servers.get(name), nil }

func (e *embedded) SetTime(ms int64) {
	if ms != e.now {
		e.known.ok = false // the TTLs it read count from another instant
	}
	e.front.SetTime(instant(ms))
	e.now = ms
}

func (e *embedded) SetReadOnly(on bool) { e.front.ReadOnly = on }

// Get bypasses the protocol: the checks use it as ground truth, and it
// sends nothing a learner would see.
func (e *embedded) Get(key string) (string, bool) {
	v, err := e.m.Get(key)
	if err != nil {
		return "", false
	}
	return v, true
}

func (e *embedded) List(key string) []string {
	l, err := e.m.List(key)
	if err != nil {
		return nil
	}
	return l
}

func (e *embedded) TTL(key string) int64 { return e.m.TTL(key).Milliseconds() }
func (e *embedded) Restart() {
	e.known.ok = false
	e.m.FlushAll()
}
func (e *embedded) Err() error { return nil }

// ClientOptions are what every client connection of every backend shares:
// no retries (a command is sent exactly once, as the timeline shows it),
// one connection, RESP2 like redis-cli, and none of the client's own
// handshake extras, so the server sees only our commands.
func ClientOptions() *redis.Options {
	return &redis.Options{
		Protocol:                 2,
		DisableIdentity:          true,
		MaxRetries:               -1,
		PoolSize:                 1,
		MinIdleConns:             0,
		ReadTimeout:              5 * time.Second,
		WriteTimeout:             5 * time.Second,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	}
}

// node.go holds a Redis node: one miniredis instance on the virtual clock.
package sim

import (
	"context"
	"net"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// Node is one Redis server of a world. Its clock follows the world clock;
// key expiry is miniredis's own, driven by SetTime with ClockTTL enabled, so
// a key disappears exactly when its TTL runs out in virtual time.
type Node struct {
	Name string
	m    *miniredis.Miniredis
	// offset is how far this node's clock is ahead of the world's (a
	// clock jump); its keys expire by its own clock.
	offset int64
	// down: the node does not answer (crashed or unreachable).
	down bool
	// latency: virtual time each command takes to reach this node.
	latency int64
	// synced is what the replication link last delivered (replicas only).
	synced replicaState
}

func newNode(name string, now int64) *Node {
	m := miniredis.NewMiniRedis()
	m.SetTime(instant(now))
	m.ClockTTL(true)
	return &Node{Name: name, m: m}
}

// setTime tells the node the virtual time by its own clock; TTLs run down
// by the difference.
func (n *Node) setTime(ms int64) { n.m.SetTime(instant(ms + n.offset)) }

// connect returns a go-redis client whose only connection is an in-memory
// pipe into this node. No sockets, no retries (a command is sent exactly
// once, as the timeline shows it), RESP2 like redis-cli, and none of the
// client's own handshake extras, so the server sees only our commands.
func (n *Node) connect() *redis.Client {
	return redis.NewClient(&redis.Options{
		Addr: n.Name,
		Dialer: func(context.Context, string, string) (net.Conn, error) {
			return n.m.Dial()
		},
		Protocol:                 2,
		DisableIdentity:          true,
		MaxRetries:               -1,
		PoolSize:                 1,
		MinIdleConns:             0,
		ReadTimeout:              5 * time.Second,
		WriteTimeout:             5 * time.Second,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	})
}

// peek reads a string key straight from the node, bypassing the protocol:
// the checks use it as ground truth, and it sends nothing a learner would see.
func (n *Node) peek(key string) (string, bool) {
	v, err := n.m.Get(key)
	if err != nil {
		return "", false
	}
	return v, true
}

// list reads a list key straight from the node (nil if absent).
func (n *Node) list(key string) []string {
	l, err := n.m.List(key)
	if err != nil {
		return nil
	}
	return l
}

// ttl is the key's remaining time to live in ms; 0 when it has none.
func (n *Node) ttl(key string) int64 {
	return n.m.TTL(key).Milliseconds()
}

func (n *Node) close() { n.m.Close() }

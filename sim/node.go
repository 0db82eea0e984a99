// node.go holds a Redis node: one server (miniredis by default) on the
// node's own virtual clock, and what the lessons do to it.

package sim

import "locklab/sim/rediscli"

// Node is one Redis server of a world. Its clock follows the world clock;
// key expiry is the server's own (miniredis's, driven by SetTime with
// ClockTTL enabled; a real server's, emulated in sim/realredis), so a key
// disappears exactly when its TTL runs out in virtual time.
type Node struct {
	Name string
	srv  Server
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

func newNode(b Backend, name string) (*Node, error) {
	srv, err := b.Open(name)
	if err != nil {
		return nil, err
	}
	return &Node{Name: name, srv: srv}, nil
}

// setTime tells the node the virtual time by its own clock; TTLs run down
// by the difference.
func (n *Node) setTime(ms int64) { n.srv.SetTime(ms + n.offset) }

// connect returns a go-redis client with one connection to this node.
func (n *Node) connect() *rediscli.Conn { return n.srv.Connect() }

// peek reads a string key straight from the node, not through a client:
// the checks use it as ground truth, and it sends nothing a learner would
// see.
func (n *Node) peek(key string) (string, bool) { return n.srv.Get(key) }

// list reads a list key straight from the node (nil if absent).
func (n *Node) list(key string) []string { return n.srv.List(key) }

// ttl is the key's remaining time to live in ms; 0 when it has none.
func (n *Node) ttl(key string) int64 { return n.srv.TTL(key) }

// pttl is what PTTL would answer for key: ms left, -1 without a TTL, -2
// without the key.
func (n *Node) pttl(key string) int64 {
	if _, ok := n.peek(key); !ok && len(n.srv.List(key)) == 0 {
		return -2
	}
	if t := n.srv.TTL(key); t > 0 {
		return t
	}
	return -1
}

func (n *Node) close() { n.srv.Close() }

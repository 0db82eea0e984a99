// Package realredis runs a replay's Redis nodes on real Redis servers
// instead of the embedded miniredis: the live backend (main's -redis
// flag) and the parity tests that hold the embedded nodes to what a real
// server answers (docs/parity.md).
//
// A real server cannot be told the time, so the backend emulates each
// node's virtual clock on it, in the open: it puts every key's virtual
// remaining time on the server's clock right before a client's command
// and parks the keys far out right after (realredis.go). Everything else
// — the world, the clients, the checks — is package sim's, reached
// through sim.Backend and sim.Server.
//
// Of Lock Lab it imports sim and its leaves rediscli and redisfront (the
// bounds it holds a shared server to); sim must never import it
// (the simulator's core runs without a real server), and nothing in web/
// does: main.go chooses the backend.
package realredis

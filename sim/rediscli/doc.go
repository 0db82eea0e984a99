// Package rediscli reads and prints what redis-cli reads and prints: a
// reply as a value with the type the server sent it (a simple string
// printed bare, a bulk string quoted, an integer, an error, an array), a
// connection that taps the reply's wire type on its way in (Conn), and a
// typed command line split by redis-cli's quoting and printed back in one
// canonical form for a URL.
//
// It knows nothing of the simulator: it must not import sim or anything
// else of Lock Lab, so the simulator, the real-Redis backend, the oracle
// and the pages can all read replies the same way.
package rediscli

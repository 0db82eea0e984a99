// Package oracle says what the servers of a replay really did, apart from
// what the simulator says of it: a recorder backend writes down every
// command with the keys before and after, every clock move with the keys
// it expired, every restart with the keys it lost (recorder.go); facts.go
// turns that record into every key's lives; check.go holds a timeline's
// own claims (its lock spans, expiry rows, replies, storage) to those
// facts. web/internal/claims holds the pages' words to the same facts.
//
// It is a test oracle: only tests import it. It imports sim and its
// leaves; sim must never import it, and it must not import web/.
package oracle

// Package sim is Lock Lab's deterministic simulator.
//
// A timeline is fully described by a scenario, its options and the list of
// learner actions. Replay builds a fresh world for that description — virtual
// clock, miniredis nodes, go-redis clients talking to them over
// miniredis.Dial() pipes, the protected storage — performs the actions in
// order and returns every command sent, every reply Redis gave, every key
// expiry and every violation the checks found.
//
// Time is virtual (milliseconds from an arbitrary epoch, pushed into
// miniredis with SetTime and ClockTTL) and every random value comes from a
// PRNG seeded by the scenario, so the same description always produces the
// same timeline, byte for byte. The package knows nothing of HTTP or HTML.
//
// # Files by part
//
//   - The world: world.go, clock.go, sched.go (timers), node.go and
//     nodes.go (Redis nodes and their faults' state), client.go (a
//     go-redis client and what it believes), storage.go (the protected
//     record), faults.go, replay.go (Replay, the entry point), event.go
//     and transcript.go (what a timeline holds and its golden text),
//     errors.go (the codes a page explains).
//   - What a URL says: scenario.go (the lessons' scenarios), options.go,
//     action.go and table.go (every verb and fault, one table the
//     controls and the explorer read).
//   - Lock models: program.go (the clients' programs: acquire, work,
//     write, release on one Redis node) and model_*.go beside it — the
//     Redlock client, the replicated primary and its failover, the
//     ZooKeeper/etcd model, and a scripted lock (scripted.go says what
//     one is; model_scripted.go runs it). scripts.go holds the lessons'
//     Lua.
//   - Checks: kinds.go (the one vocabulary of failure kinds and their
//     classes) and check.go (each judged against the clients' leases, at
//     the instant of the command).
//   - What a search of schedules drives (sim/explore searches): machine.go
//     (a world started, stepped, saved, loaded, fingerprinted, and the
//     moves the table offers it), explore_fork.go (a world copied between
//     two actions), explore_state.go (a world as a value and its
//     fingerprint).
//   - The command line: command.go (what a typed command may send) and
//     operator.go (the learner as an actor on the timeline).
//   - Servers: backend.go (what a node needs of a server), backend_pool.go
//     (pooled embedded miniredis servers, EVAL by sim/luarun), luavm.go
//     (gopher-lua's sizes).
//
// To change what a search sees of a world, read machine.go, explore_*.go
// and the explorer's fields of table.go; to add a lock model, program.go and a model_*.go; to add a
// failure kind, kinds.go and check.go.
//
// # Packages around it
//
// The core imports only its leaves: sim/rediscli (replies and redis-cli's
// quoting), sim/luacheck (the Lua subset a learner may run) and
// sim/luarun (EVAL of it on reused states). Built on it, and never
// imported by it: sim/explore (the schedule explorer), sim/lockdesign
// ("bring your own lock": presets, the
// script checker's gate, the grade), sim/realredis (the same replay on a
// real Redis server), sim/oracle (what the servers really did, for the
// claims tests) and sim/redistest (a redis-server for tests). sim/library
// (the lock libraries' calls and defaults, held to the real libraries) is
// a leaf the core will run as designs.
// TestImportDirection holds these rules.
//
// The explorer (sim/explore) is built on the core through Machine alone:
// copying and fingerprinting a world touch every private field of the
// world, its clients and nodes (TestFingerprintSeesEveryField walks
// them), so they stay here, and the search, its budget and its
// reductions' choices live there.
package sim

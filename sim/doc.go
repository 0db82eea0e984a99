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
package sim

// Package lockdesign is "bring your own lock": a single-node lock whose
// acquire, release, extend and storage write are Lua scripts the learner
// chose from presets or wrote, with the TTL, the work time and what the
// write does (stores a value, or adds to a total).
//
// It owns what a design is before it runs: the presets and their forms
// for each write effect, the bounds, and Validate, which puts every part
// of every script through the script checker (sim/luacheck) — no learner
// script reaches EVAL without passing it. Scenario turns a valid design
// into a sim.Scenario whose clients run its scripts (a sim.Scripted), so
// the replay, the checks and the explorer need nothing of their own; Grade
// runs the explorer on it under the standard fault budget (DesignBudget).
//
// It imports sim and sim/luacheck. sim must never import it: the core
// runs any scripted lock without knowing where it came from (Of reads the
// design back from a scenario for the pages that link to it).
package lockdesign

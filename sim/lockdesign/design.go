// design.go holds a design as the learner edits it: its four scripts,
// TTL, work time and write effect, the presets, the bounds, and the
// checks every script passes before it may run (Validate, check.go).

package lockdesign

import (
	"strings"

	"locklab/sim"
	"locklab/sim/explore"
)

// Design bounds.
const (
	DesignMinTTL  = 1000
	DesignMaxTTL  = 60_000
	DesignMinWork = 100
	DesignMaxWork = 60_000
	// DesignMaxParts bounds the commands one piece may be split into.
	DesignMaxParts = 3
	// DesignScriptMax is the most bytes one piece's text may have.
	DesignScriptMax = 2048
)

// Design is a learner's single-node lock. Scripts are Lua text as EVAL
// runs it; Extend "" means the design never extends.
//
//	acquire: KEYS[1] = lock key, ARGV[1] = this acquisition's value, ARGV[2] = TTL in ms
//	release: KEYS[1] = lock key, ARGV[1] = the value
//	extend:  KEYS[1] = lock key, ARGV[1] = the value, ARGV[2] = TTL in ms
//	write:   KEYS[1] = the record, KEYS[2] = the last accepted token, ARGV[1] = token, ARGV[2] = value
//
// Effect says what an accepted write does to the record, and so what
// ARGV[2] is: EffectSet stores the value (doing it twice leaves the same
// record: idempotent), EffectAdd adds ARGV[2] = 1 to a total (doing it
// twice counts the job twice). The write presets come in both forms,
// under the same names.
//
// Renew says what a holder that extends does when an extend fails:
// RenewStop, or RenewCarry (only with an extend script).
type Design struct {
	Acquire, Release, Extend, Write string
	TTL, Work                       int64 // ms
	Effect                          string
	Renew                           string
}

// What a holder does when an extend fails.
const (
	// RenewStop, the default: it stops the work and writes nothing, as a
	// caller's own watchdog that cancels the work does (redislock's
	// README shows one).
	RenewStop = "stop"
	// RenewCarry: the renewal gives up and the work goes on to its
	// write, as a renewal thread that only logs its failure does
	// (python-redis-lock's auto_renewal, node-redlock v5's using() for a
	// routine that never reads its abort signal, Redisson's watchdog).
	RenewCarry = "carry"
)

// Renewals lists what a holder may do when an extend fails, the default
// first.
var Renewals = []string{RenewStop, RenewCarry}

// What a design's write does to the record.
const (
	EffectSet = "set" // the default: the write stores a value
	EffectAdd = "add" // the write adds 1 to a total
)

// Effects lists the effects, the default first.
var Effects = []string{EffectSet, EffectAdd}

// Script is the text of piece p.
func (d *Design) Script(p sim.Piece) string {
	return *d.field(p)
}

// SetScript sets the text of piece p, line endings made "\n".
func (d *Design) SetScript(p sim.Piece, src string) {
	*d.field(p) = NormalizeScript(src)
}

func (d *Design) field(p sim.Piece) *string {
	switch p {
	case sim.PieceAcquire:
		return &d.Acquire
	case sim.PieceRelease:
		return &d.Release
	case sim.PieceExtend:
		return &d.Extend
	}
	return &d.Write
}

// NormalizeScript makes a script's line endings "\n" and drops trailing
// blank space, so the same script typed in any browser is the same text
// (and a preset's text is recognised as that preset).
func NormalizeScript(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Trim(strings.Join(lines, "\n"), "\n")
}

// Preset is a ready-made script for one piece, shown as its text so that
// editing starts from a working design.
type Preset struct {
	Piece  sim.Piece
	Name   string // in URLs: acquire=set-nx-px
	Script string
	// Effect: a write preset's form for one effect ("" for the other
	// pieces, whose scripts do not depend on it).
	Effect string
}

// Presets are every piece's ready-made scripts; each piece's first is the
// safe default. The libraries' follow (libraries.go).
var Presets = append([]Preset{
	{sim.PieceAcquire, "set-nx-px", `-- acquire: one atomic SET, only if the key is free, with a TTL
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`, ""},
	{sim.PieceAcquire, "setnx-pexpire", `-- acquire, first command: take the key if it is free (no TTL yet)
return redis.call('SETNX', KEYS[1], ARGV[1])
-- then
-- acquire, second command: now give it a TTL
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`, ""},
	{sim.PieceAcquire, "get-set", `-- acquire, first command: is the key free?
if redis.call('GET', KEYS[1]) then
  return 0
end
return 1
-- then
-- acquire, second command: it looked free, so take it
return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])`, ""},

	{sim.PieceRelease, "compare-delete", sim.ReleaseScript, ""},
	{sim.PieceRelease, "del", `-- release: delete the key, whoever's it is
return redis.call('DEL', KEYS[1])`, ""},
	{sim.PieceRelease, "get-del", `-- release, first command: is it still my value?
local holder = redis.call('GET', KEYS[1])
if holder ~= ARGV[1] then
  return 0
end
return 1
-- then
-- release, second command: it was mine, so delete it
return redis.call('DEL', KEYS[1])`, ""},
	{sim.PieceRelease, "delex", `-- release: DELEX compares and deletes in one command (Redis 8.4+)
return redis.call('DELEX', KEYS[1], 'IFEQ', ARGV[1])`, ""},

	{sim.PieceExtend, "none", "", ""},
	{sim.PieceExtend, "compare-pexpire", sim.ExtendScript, ""},
	{sim.PieceExtend, "pexpire", `-- extend: a new TTL for the key, whoever's it is
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`, ""},

	{sim.PieceWrite, "fenced", sim.FencedWriteScript, EffectSet},
	{sim.PieceWrite, "strict", sim.FencedWriteStrictScript, EffectSet},
	{sim.PieceWrite, "none", `-- write: no check at all
return redis.call('SET', KEYS[1], ARGV[2])`, EffectSet},
	{sim.PieceWrite, "split", `-- write, first command: check the token
local last = tonumber(redis.call('GET', KEYS[2]) or 0)
if tonumber(ARGV[1]) < last then
  return 0
end
return 1
-- then
-- write, second command: the check passed, so store token and value
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SET', KEYS[1], ARGV[2])
return 1`, EffectSet},

	// The same four when the write adds to a total (ARGV[2] = 1).
	{sim.PieceWrite, "fenced", `-- fenced write: refuse a token lower than the last accepted one,
-- then add to the total
local last = tonumber(redis.call('GET', KEYS[2]) or 0)
if tonumber(ARGV[1]) < last then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('INCRBY', KEYS[1], ARGV[2])
return 1`, EffectAdd},
	{sim.PieceWrite, "strict", `-- fenced write: accept only a token greater than the last one,
-- then add to the total
local last = tonumber(redis.call('GET', KEYS[2]) or 0)
if tonumber(ARGV[1]) <= last then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('INCRBY', KEYS[1], ARGV[2])
return 1`, EffectAdd},
	{sim.PieceWrite, "none", `-- write: no check at all, add to the total
redis.call('INCRBY', KEYS[1], ARGV[2])
return 1`, EffectAdd},
	{sim.PieceWrite, "split", `-- write, first command: check the token
local last = tonumber(redis.call('GET', KEYS[2]) or 0)
if tonumber(ARGV[1]) < last then
  return 0
end
return 1
-- then
-- write, second command: the check passed, so store the token and add
redis.call('SET', KEYS[2], ARGV[1])
redis.call('INCRBY', KEYS[1], ARGV[2])
return 1`, EffectAdd},
}, libraryPresets...)

// The presets that set the lock's TTL from ARGV[2] (relative ms, on
// KEYS[1]) say so to the live backend, as the lessons' scripts do
// (sim.DeclareScriptTTL), so a real server's deadline is exact for them.
func init() {
	for _, pr := range Presets {
		if pr.Piece != sim.PieceAcquire && pr.Piece != sim.PieceExtend {
			continue
		}
		for _, part := range sim.Parts(NormalizeScript(pr.Script)) {
			if strings.Contains(part, "ARGV[2]") {
				sim.DeclareScriptTTL(part, 1, 2)
			}
		}
	}
}

// PresetsOf lists piece p's presets for a design whose write has that
// effect, the default first.
func PresetsOf(p sim.Piece, effect string) []Preset {
	var out []Preset
	for _, x := range Presets {
		if x.Piece == p && (x.Effect == "" || x.Effect == effect) {
			out = append(out, x)
		}
	}
	return out
}

// PresetNamed finds piece p's preset by name, in its form for effect.
func PresetNamed(p sim.Piece, effect, name string) (Preset, bool) {
	for _, x := range PresetsOf(p, effect) {
		if x.Name == name {
			return x, true
		}
	}
	return Preset{}, false
}

// PresetOf names the preset whose text src is, in its form for effect
// ("" if it is the learner's own).
func PresetOf(p sim.Piece, effect, src string) string {
	src = NormalizeScript(src)
	for _, x := range PresetsOf(p, effect) {
		if NormalizeScript(x.Script) == src {
			return x.Name
		}
	}
	return ""
}

// SetEffect sets what the write does. A write that is one of the presets
// (in either form) becomes that preset's form for the new effect, so
// switching the effect keeps "fenced" fenced; the learner's own script is
// kept as it is.
func (d *Design) SetEffect(effect string) {
	d.Effect = effect
	for _, e := range Effects {
		if name := PresetOf(sim.PieceWrite, e, d.Write); name != "" {
			if pr, ok := PresetNamed(sim.PieceWrite, effect, name); ok {
				d.SetScript(sim.PieceWrite, pr.Script)
			}
			return
		}
	}
}

// DefaultDesign is the safe design every page starts from.
func DefaultDesign() *Design {
	d := &Design{TTL: 10_000, Work: 1000, Effect: EffectSet, Renew: RenewStop}
	for _, p := range sim.Pieces {
		d.SetScript(p, PresetsOf(p, EffectSet)[0].Script)
	}
	return d
}

// DesignBudget is the standard fault budget a design is graded under:
// one pause that outlasts the lock's TTL as the server holds it
// (explore.PausePastTTL: a script's own PX, not the form's TTL, decides how
// long), one crash, and one lost reply on a storage write (the storage
// applied it, the client never hears so and sends the same write again:
// what tells "token not lower" from "greater only").
func DesignBudget(d *Design) (b sim.Budget, pauseMs []int64) {
	return sim.Budget{Pauses: 1, Crashes: 1, Drops: 1}, []int64{explore.PausePastTTL}
}

// DesignError is a design that cannot run: a script the checker refused
// (Err is the checker's error), or a number out of bounds.
type DesignError struct {
	Piece sim.Piece
	Part  int   // 0-based part of the piece's script
	Err   error // from the script checker, or nil
	// Code says what else is wrong: "too-long", "too-many-parts",
	// "empty", "ttl", "work", "effect", "renew".
	Code string
}

func (e *DesignError) Error() string {
	if e.Err != nil {
		return e.Piece.Name() + ": " + e.Err.Error()
	}
	return e.Piece.Name() + ": " + e.Code
}

func (e *DesignError) Unwrap() error { return e.Err }

// Validate checks a design before any of it runs: bounds, and every part
// of every script through the script checker. No learner script reaches
// EVAL without passing it: Scenario refuses a design Validate refuses.
func (d *Design) Validate() error {
	if d.TTL < DesignMinTTL || d.TTL > DesignMaxTTL {
		return &DesignError{Code: "ttl"}
	}
	if d.Work < DesignMinWork || d.Work > DesignMaxWork {
		return &DesignError{Code: "work"}
	}
	if d.Effect != EffectSet && d.Effect != EffectAdd {
		return &DesignError{Code: "effect"}
	}
	if d.Renew != RenewStop && d.Renew != RenewCarry {
		return &DesignError{Code: "renew"}
	}
	for _, p := range sim.Pieces {
		src := d.Script(p)
		if src == "" && p == sim.PieceExtend {
			continue
		}
		if strings.TrimSpace(src) == "" {
			return &DesignError{Piece: p, Code: "empty"}
		}
		if len(src) > DesignScriptMax {
			return &DesignError{Piece: p, Code: "too-long"}
		}
		parts := sim.Parts(src)
		if len(parts) > DesignMaxParts {
			return &DesignError{Piece: p, Code: "too-many-parts"}
		}
		offset := 0
		for i, part := range parts {
			if err := checkScript(p, part, offset); err != nil {
				return &DesignError{Piece: p, Part: i, Err: err}
			}
			offset += strings.Count(part, "\n") + 2 // the part's lines and its "-- then"
		}
	}
	return nil
}

// Scenario is the design as a scenario: clients a, b and c on one Redis
// node, the fenced storage, tokens from INCR. It is an error for a
// design that Validate refuses.
func (d *Design) Scenario() (*sim.Scenario, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	dc := *d
	b, _ := DesignBudget(d)
	// the design's scripts, as the scenario's clients will run them
	return &sim.Scenario{
		ID: "design", Clients: []string{"a", "b", "c"}, Resource: "order:42",
		TTL: d.TTL, Work: d.Work, Retry: sim.DefaultRetryMs, Seed: 14, Storage: sim.StoreFenced, Tokens: true,
		Budget: b, Scripted: dc.scripted(), Drops: true,
	}, nil
}

// ScenarioFor is the design's scenario with only its first n clients (2
// or 3): a counterexample found with two clients is shown with two lanes.
func (d *Design) ScenarioFor(n int) (*sim.Scenario, error) {
	sc, err := d.Scenario()
	if err != nil {
		return nil, err
	}
	if n < 2 || n > len(sc.Clients) {
		return nil, &DesignError{Code: "clients"}
	}
	sc.Clients = sc.Clients[:n]
	return sc, nil
}

// scripts is the design's scripts by piece, as sim.NewScripted takes them.
func (d *Design) scripts() map[sim.Piece]string {
	m := map[sim.Piece]string{}
	for _, p := range sim.Pieces {
		m[p] = d.Script(p)
	}
	return m
}

// scripted is the design as the simulator runs it, the design kept as its
// source (Of reads it back).
func (d *Design) scripted() *sim.Scripted {
	s := sim.NewScripted(d.scripts(), d.Effect == EffectAdd)
	s.CarryOn = d.Renew == RenewCarry
	s.Source = d
	return s
}

// Of is the design a scenario was made from (Scenario, ScenarioFor), a
// copy the caller may change; nil for a lesson's scenario.
func Of(sc *sim.Scenario) *Design {
	if sc == nil || sc.Scripted == nil {
		return nil
	}
	d, ok := sc.Scripted.Source.(*Design)
	if !ok {
		return nil
	}
	c := *d
	return &c
}

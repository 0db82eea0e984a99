// design.go holds "bring your own lock": a single-node lock whose four
// pieces — acquire, release, extend, the storage's write — are Lua scripts
// the learner chose or wrote, run with real EVAL, with the TTL and work
// time the learner set. A design is a Scenario like any lesson's (its
// Design field set), so the replay, the explorer, the checks and the
// timeline need nothing of their own.
package sim

import (
	"slices"
	"strings"

	"locklab/sim/luacheck"
)

// Piece is one of a design's scripts.
type Piece uint8

// The pieces, in the order the page shows them.
const (
	PieceAcquire Piece = iota
	PieceRelease
	PieceExtend
	PieceWrite
)

// Pieces lists every piece, in order.
var Pieces = []Piece{PieceAcquire, PieceRelease, PieceExtend, PieceWrite}

// Name is the piece's name in URLs and in the event log (‹release.lua›).
func (p Piece) Name() string {
	return [...]string{"acquire", "release", "extend", "write"}[p]
}

// PieceNamed finds a piece by its name.
func PieceNamed(s string) (Piece, bool) {
	for _, p := range Pieces {
		if p.Name() == s {
			return p, true
		}
	}
	return 0, false
}

// ThenLine is the line that splits a piece into several commands: each
// part is its own EVAL, sent one after the other, and other clients may
// act in between (the learner continues with `next`). A part that does not
// answer success (1 or OK) ends the piece there.
const ThenLine = "-- then"

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
type Design struct {
	Acquire, Release, Extend, Write string
	TTL, Work                       int64 // ms
	Effect                          string
}

// What a design's write does to the record.
const (
	EffectSet = "set" // the default: the write stores a value
	EffectAdd = "add" // the write adds 1 to a total
)

// Effects lists the effects, the default first.
var Effects = []string{EffectSet, EffectAdd}

// AddAmount is what a write adds to the total under EffectAdd.
const AddAmount = 1

// Script is the text of piece p.
func (d *Design) Script(p Piece) string {
	return *d.field(p)
}

// SetScript sets the text of piece p, line endings made "\n".
func (d *Design) SetScript(p Piece, src string) {
	*d.field(p) = NormalizeScript(src)
}

func (d *Design) field(p Piece) *string {
	switch p {
	case PieceAcquire:
		return &d.Acquire
	case PieceRelease:
		return &d.Release
	case PieceExtend:
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

// Parts splits a script at its ThenLine lines: one EVAL per part.
func Parts(src string) []string {
	var parts []string
	var cur []string
	for _, l := range strings.Split(src, "\n") {
		if strings.TrimSpace(l) == ThenLine {
			parts = append(parts, strings.Join(cur, "\n"))
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	return append(parts, strings.Join(cur, "\n"))
}

// Preset is a ready-made script for one piece, shown as its text so that
// editing starts from a working design.
type Preset struct {
	Piece  Piece
	Name   string // in URLs: acquire=set-nx-px
	Script string
	// Effect: a write preset's form for one effect ("" for the other
	// pieces, whose scripts do not depend on it).
	Effect string
}

// Presets are every piece's ready-made scripts; each piece's first is the
// safe default.
var Presets = []Preset{
	{PieceAcquire, "set-nx-px", `-- acquire: one atomic SET, only if the key is free, with a TTL
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`, ""},
	{PieceAcquire, "setnx-pexpire", `-- acquire, first command: take the key if it is free (no TTL yet)
return redis.call('SETNX', KEYS[1], ARGV[1])
-- then
-- acquire, second command: now give it a TTL
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`, ""},
	{PieceAcquire, "get-set", `-- acquire, first command: is the key free?
if redis.call('GET', KEYS[1]) then
  return 0
end
return 1
-- then
-- acquire, second command: it looked free, so take it
return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])`, ""},

	{PieceRelease, "compare-delete", ReleaseScript, ""},
	{PieceRelease, "del", `-- release: delete the key, whoever's it is
return redis.call('DEL', KEYS[1])`, ""},
	{PieceRelease, "get-del", `-- release, first command: is it still my value?
local holder = redis.call('GET', KEYS[1])
if holder ~= ARGV[1] then
  return 0
end
return 1
-- then
-- release, second command: it was mine, so delete it
return redis.call('DEL', KEYS[1])`, ""},
	{PieceRelease, "delex", `-- release: DELEX compares and deletes in one command (Redis 8.4+)
return redis.call('DELEX', KEYS[1], 'IFEQ', ARGV[1])`, ""},

	{PieceExtend, "none", "", ""},
	{PieceExtend, "compare-pexpire", ExtendScript, ""},
	{PieceExtend, "pexpire", `-- extend: a new TTL for the key, whoever's it is
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`, ""},

	{PieceWrite, "fenced", FencedWriteScript, EffectSet},
	{PieceWrite, "strict", FencedWriteStrictScript, EffectSet},
	{PieceWrite, "none", `-- write: no check at all
return redis.call('SET', KEYS[1], ARGV[2])`, EffectSet},
	{PieceWrite, "split", `-- write, first command: check the token
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
	{PieceWrite, "fenced", `-- fenced write: refuse a token lower than the last accepted one,
-- then add to the total
local last = tonumber(redis.call('GET', KEYS[2]) or 0)
if tonumber(ARGV[1]) < last then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('INCRBY', KEYS[1], ARGV[2])
return 1`, EffectAdd},
	{PieceWrite, "strict", `-- fenced write: accept only a token greater than the last one,
-- then add to the total
local last = tonumber(redis.call('GET', KEYS[2]) or 0)
if tonumber(ARGV[1]) <= last then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('INCRBY', KEYS[1], ARGV[2])
return 1`, EffectAdd},
	{PieceWrite, "none", `-- write: no check at all, add to the total
redis.call('INCRBY', KEYS[1], ARGV[2])
return 1`, EffectAdd},
	{PieceWrite, "split", `-- write, first command: check the token
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
}

// The presets that set the lock's TTL from ARGV[2] (relative ms, on
// KEYS[1]) say so to the live backend, as the lessons' scripts do
// (scriptTTLs), so a real server's deadline is exact for them.
func init() {
	for _, pr := range Presets {
		if pr.Piece != PieceAcquire && pr.Piece != PieceExtend {
			continue
		}
		for _, part := range Parts(NormalizeScript(pr.Script)) {
			if strings.Contains(part, "ARGV[2]") {
				scriptTTLs[part] = struct{ key, argv int }{key: 1, argv: 2}
			}
		}
	}
}

// PresetsOf lists piece p's presets for a design whose write has that
// effect, the default first.
func PresetsOf(p Piece, effect string) []Preset {
	var out []Preset
	for _, x := range Presets {
		if x.Piece == p && (x.Effect == "" || x.Effect == effect) {
			out = append(out, x)
		}
	}
	return out
}

// PresetNamed finds piece p's preset by name, in its form for effect.
func PresetNamed(p Piece, effect, name string) (Preset, bool) {
	for _, x := range PresetsOf(p, effect) {
		if x.Name == name {
			return x, true
		}
	}
	return Preset{}, false
}

// PresetOf names the preset whose text src is, in its form for effect
// ("" if it is the learner's own).
func PresetOf(p Piece, effect, src string) string {
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
		if name := PresetOf(PieceWrite, e, d.Write); name != "" {
			if pr, ok := PresetNamed(PieceWrite, effect, name); ok {
				d.SetScript(PieceWrite, pr.Script)
			}
			return
		}
	}
}

// WriteArg is the write's ARGV[2] for the client named name: the value it
// stores, or the amount it adds to the total.
func (d *Design) WriteArg(name string) string {
	if d.Effect == EffectAdd {
		return itoa(AddAmount)
	}
	return "written by " + name
}

// DefaultDesign is the safe design every page starts from.
func DefaultDesign() *Design {
	d := &Design{TTL: 10_000, Work: 1000, Effect: EffectSet}
	for _, p := range Pieces {
		d.SetScript(p, PresetsOf(p, EffectSet)[0].Script)
	}
	return d
}

// DesignBudget is the standard fault budget a design is graded under:
// one pause as long as the TTL, one crash, and one lost reply on a
// storage write (the storage applied it, the client never hears so and
// sends the same write again: what tells "token not lower" from
// "greater only").
func DesignBudget(d *Design) (b Budget, pauseMs []int64) {
	return Budget{Pauses: 1, Crashes: 1, Drops: 1}, []int64{d.TTL}
}

// DesignError is a design that cannot run: a script the checker refused
// (Err is the checker's error), or a number out of bounds.
type DesignError struct {
	Piece Piece
	Part  int   // 0-based part of the piece's script
	Err   error // from the script checker, or nil
	// Code says what else is wrong: "too-long", "too-many-parts",
	// "empty", "ttl", "work", "effect".
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
	for _, p := range Pieces {
		src := d.Script(p)
		if src == "" && p == PieceExtend {
			continue
		}
		if strings.TrimSpace(src) == "" {
			return &DesignError{Piece: p, Code: "empty"}
		}
		if len(src) > DesignScriptMax {
			return &DesignError{Piece: p, Code: "too-long"}
		}
		parts := Parts(src)
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
func (d *Design) Scenario() (*Scenario, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	dc := *d
	b, _ := DesignBudget(d)
	return &Scenario{
		ID: "design", Clients: []string{"a", "b", "c"}, Resource: "order:42",
		TTL: d.TTL, Work: d.Work, Retry: defaultRetryMs, Seed: 14, Storage: StoreFenced, Tokens: true,
		Budget: b, Design: &dc, Drops: true, designParts: dc.cut(),
	}, nil
}

// ScenarioFor is the design's scenario with only its first n clients (2
// or 3): a counterexample found with two clients is shown with two lanes.
func (d *Design) ScenarioFor(n int) (*Scenario, error) {
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

// designParts is a design's scripts cut into the commands a client sends
// and each part's name (the piece, and its part when it has several:
// release-2), computed once for a scenario: the explorer sends and names
// an EVAL in most of the states it reaches.
type designParts struct {
	parts map[Piece][]string
	names map[string]string // part's text → name; the first piece's if two share one
	// readsToken: some part of the write reads the token it is given
	// (ARGV[1]); a write that never does carries no token, as a lesson's
	// plain SET does not.
	readsToken bool
}

func (d *Design) cut() *designParts {
	dp := &designParts{parts: map[Piece][]string{}, names: map[string]string{}}
	for _, p := range Pieces {
		parts := Parts(d.Script(p))
		dp.parts[p] = parts
		for i, part := range parts {
			if _, ok := dp.names[part]; ok {
				continue
			}
			if len(parts) == 1 {
				dp.names[part] = p.Name()
			} else {
				dp.names[part] = p.Name() + "-" + itoa(int64(i+1))
			}
		}
	}
	dp.readsToken = slices.ContainsFunc(dp.parts[PieceWrite], func(p string) bool { return luacheck.Reads(p, "ARGV", 1) })
	return dp
}

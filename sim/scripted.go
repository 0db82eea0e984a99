// scripted.go holds a scripted lock as the world runs it: the learner's
// four pieces (acquire, release, extend, the storage's write) cut into the
// EVALs a client sends, each part's name for the event log, and what the
// checks need to know of it (whether the write adds to a total, whether
// the lock is ever extended, whether the write reads its token). What a
// design is before it runs — its presets, bounds, the script checker and
// its grade — is sim/lockdesign's, which builds a Scripted with
// NewScripted; model_scripted.go runs it.

package sim

import (
	"slices"
	"strings"

	"locklab/sim/luacheck"
)

// Piece is one of a scripted lock's scripts.
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

// AddAmount is what a write adds to the total under EffectAdd.
const AddAmount = 1

// Scripted is a scripted lock, cut once for a scenario: the explorer
// sends and names an EVAL in most of the states it reaches. It is not
// changed after NewScripted, so scenarios share it.
type Scripted struct {
	parts map[Piece][]string
	names map[string]string // part's text → name; the first piece's if two share one
	// readsToken: some part of the write reads the token it is given
	// (ARGV[1]); a write that never does carries no token, as a lesson's
	// plain SET does not.
	readsToken bool
	adds       bool // the write adds AddAmount to a total (else it stores a value)
	extends    bool // there is an extend script
	// CarryOn: a failed extend ends the renewal, not the work: the
	// holder goes on working and writes (a renewal thread that only
	// logs). Without it the holder stops and writes nothing. Set before
	// the scenario runs.
	CarryOn bool
	// Source is what the lock was made from, kept for its maker (sim/
	// lockdesign's Design, which pages link back to); the simulator
	// never reads it.
	Source any
}

// NewScripted cuts the scripts of a lock (by piece; an empty extend: the
// lock is never extended) into its parts and names them. adds says what
// an accepted write does: add AddAmount to a total, or store a value. The
// scripts must have passed the script checker (lockdesign's Validate):
// no other script reaches EVAL.
func NewScripted(scripts map[Piece]string, adds bool) *Scripted {
	s := &Scripted{parts: map[Piece][]string{}, names: map[string]string{}, adds: adds, extends: scripts[PieceExtend] != ""}
	for _, p := range Pieces {
		parts := Parts(scripts[p])
		s.parts[p] = parts
		for i, part := range parts {
			if _, ok := s.names[part]; ok {
				continue
			}
			if len(parts) == 1 {
				s.names[part] = p.Name()
			} else {
				s.names[part] = p.Name() + "-" + itoa(int64(i+1))
			}
		}
	}
	s.readsToken = slices.ContainsFunc(s.parts[PieceWrite], func(p string) bool { return luacheck.Reads(p, "ARGV", 1) })
	return s
}

// Adds reports whether an accepted write adds to a total (doing it twice
// counts twice) rather than storing a value.
func (s *Scripted) Adds() bool { return s.adds }

// WriteArg is the write's ARGV[2] for the client named name: the value it
// stores, or the amount it adds to the total.
func (s *Scripted) WriteArg(name string) string {
	if s.adds {
		return itoa(AddAmount)
	}
	return "written by " + name
}

// check.go is the one place a learner's script meets the script
// checker (sim/luacheck): Design.Validate calls it for every part of every
// piece, and Design.Scenario refuses a design it refuses, so no learner
// script reaches EVAL unchecked.

package lockdesign

import (
	"locklab/sim"
	"locklab/sim/luacheck"
)

// checkKinds is the checker's kind for each piece: which KEYS and ARGV it
// may name.
var checkKinds = map[sim.Piece]luacheck.Kind{
	sim.PieceAcquire: luacheck.Acquire,
	sim.PieceRelease: luacheck.Release,
	sim.PieceExtend:  luacheck.Extend,
	sim.PieceWrite:   luacheck.Storage,
}

// checkScript checks one part of piece p's script; offset is how many
// lines of the piece come before the part, so the line an error names is
// a line of the whole script, as the learner sees it.
func checkScript(p sim.Piece, src string, offset int) error {
	err := luacheck.Check(src, checkKinds[p])
	if le, ok := err.(*luacheck.Error); ok && offset > 0 {
		c := *le
		c.Line += offset
		return &c
	}
	return err
}

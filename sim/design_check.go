// design_check.go is the one place a learner's script meets the script
// checker (sim/luacheck): Design.Validate calls it for every part of every
// piece, and Design.Scenario refuses a design it refuses, so no learner
// script reaches EVAL unchecked.
package sim

import "locklab/sim/luacheck"

// checkKinds is the checker's kind for each piece: which KEYS and ARGV it
// may name.
var checkKinds = map[Piece]luacheck.Kind{
	PieceAcquire: luacheck.Acquire,
	PieceRelease: luacheck.Release,
	PieceExtend:  luacheck.Extend,
	PieceWrite:   luacheck.Storage,
}

func checkScript(p Piece, src string) error {
	return luacheck.Check(src, checkKinds[p])
}

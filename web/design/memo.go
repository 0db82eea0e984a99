// memo.go remembers grades: a grade is the same for every language and
// every learner (the explorer is deterministic, its bounds fixed), so the
// second learner to grade a design — or the same one in another language —
// gets it without exploring again. The memo is bounded (gradeMemoSize
// designs, the least recently used forgotten first), holds only finished
// searches (one the clock cut short is no grade), and is lost on restart
// like the page cache: it is a cache, not state.

package design

import (
	lru "github.com/hashicorp/golang-lru/v2"

	"locklab/sim/explore"
)

// gradeMemoSize is how many designs' grades are kept. An entry is a few
// KB (the shortest counterexamples of each kind found).
const gradeMemoSize = 512

// grades are the two searches of one grade: 2 and 3 clients.
type grades [2]*explore.Result

// gradeMemo maps a design's canonical query (links.DesignQuery) to its
// grades; safe for concurrent use.
type gradeMemo = lru.Cache[string, grades]

func newGradeMemo() *gradeMemo {
	m, err := lru.New[string, grades](gradeMemoSize)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return m
}

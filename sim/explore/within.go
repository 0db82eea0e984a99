// within.go checks a schedule against an exploration's bounds:
// whether every action of it is a move the explorer itself could take
// there. A challenge plays under bounds, and its par is the explorer's
// shortest schedule; that par is a lower bound on the learner's moves
// only if the learner's moves are the explorer's moves, so a challenge
// refuses the first one that is not, and says why.

package explore

import (
	"strconv"

	"locklab/sim"
)

// Why a move is not within an exploration's bounds (MoveError.Code).
const (
	// CodeMoveClient: the client does not take part (Config.Clients).
	CodeMoveClient sim.Code = "move-client"
	// CodeMoveOnce: a program step the client has already taken (each
	// client acquires, writes and releases once).
	CodeMoveOnce sim.Code = "move-once"
	// CodeMoveSpent: a fault of a kind whose budget is spent (Most says
	// how many the bounds allow).
	CodeMoveSpent sim.Code = "move-spent"
	// CodeMoveIdle: a fault to a client that has not started (it has
	// nothing to lose yet).
	CodeMoveIdle sim.Code = "move-idle"
	// CodeMoveWait: time passes only while a client is paused, once per
	// pause, by one of the lengths the bounds allow.
	CodeMoveWait sim.Code = "move-wait"
	// CodeMoveResume: a paused client resumes once its pause has had its
	// wait.
	CodeMoveResume sim.Code = "move-resume"
	// CodeMoveOther: any other action the bounds leave out (a verb the
	// explorer does not take, a fault no budget covers).
	CodeMoveOther sim.Code = "move-other"
)

// MoveError is the first action of a schedule that the bounds do not
// allow. Allowed lists the moves that were allowed at that point, in the
// explorer's order, as the URL writes them.
type MoveError struct {
	Index   int
	Action  sim.Action
	Code    sim.Code
	Most    int // CodeMoveSpent: how many such faults the bounds allow
	Allowed []sim.Action
}

func (e *MoveError) Error() string {
	return "move " + strconv.Itoa(e.Index+1) + " " + strconv.Quote(e.Action.String()) + ": " + string(e.Code)
}

// Within checks actions against cfg's bounds: each must be one of the
// moves the explorer would try at that point (explore.go's moves), so a
// schedule within them is a path the explorer's search covers. It returns
// a *MoveError for the first that is not, or nil. An action no timeline
// could take is not a move either (CodeMoveOther): Replay says why, so a
// page replays a schedule before it checks it here.
func (cfg Config) Within(actions []sim.Action) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	e := &explorer{cfg: cfg}
	m, err := e.run(nil)
	if err != nil {
		return err
	}
	defer m.Close()
	var b budget
	for i, a := range actions {
		moves, _ := e.moves(m, b)
		k := -1
		for j, mv := range moves {
			if sameMove(mv.a, a) {
				k = j
				break
			}
		}
		if k < 0 {
			me := &MoveError{Index: i, Action: a}
			for _, mv := range moves {
				me.Allowed = append(me.Allowed, mv.a)
			}
			me.Code, me.Most = e.whyNot(m, b, a)
			return me
		}
		b = moves[k].b
		if err := m.Step(i, a); err != nil {
			return err
		}
	}
	return nil
}

// sameMove: the URL's action is the move (a duration written otherwise,
// 10000ms for 10s, is the same duration).
func sameMove(m, a sim.Action) bool {
	return m.Who == a.Who && m.Verb == a.Verb && m.Ms == a.Ms && len(a.Cmd) == 0
}

// whyNot names the rule of moves that leaves a out, for a learner.
func (e *explorer) whyNot(m *sim.Machine, b budget, a sim.Action) (sim.Code, int) {
	spec, ok := sim.Spec(a.Verb)
	if !ok {
		return CodeMoveOther, 0
	}
	i := m.ClientIndex(a.Who)
	switch {
	case spec.Doer == sim.ByClient && i >= e.cfg.Clients:
		return CodeMoveClient, 0
	case spec.Explore == sim.ExploreStep && spec.Once != sim.OnceNone:
		if done := once(&b, spec.Once); done != nil && i >= 0 && *done&bit(i) != 0 {
			return CodeMoveOnce, 0
		}
	case spec.Explore == sim.ExploreFault:
		used, most := e.faults(&b, spec.Cost)
		if *used >= most {
			return CodeMoveSpent, most
		}
		if st := m.StateOf(max(i, 0)); i >= 0 && (st == sim.StateIdle || st == sim.StateCrashed) {
			return CodeMoveIdle, 0
		}
	case spec.Explore == sim.ExploreWait:
		return CodeMoveWait, 0
	case spec.Explore == sim.ExploreRecovery && spec.Doer == sim.ByClient:
		return CodeMoveResume, 0
	}
	return CodeMoveOther, 0
}

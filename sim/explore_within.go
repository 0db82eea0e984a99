// explore_within.go checks a schedule against an exploration's bounds:
// whether every action of it is a move the explorer itself could take
// there. A challenge plays under bounds, and its par is the explorer's
// shortest schedule; that par is a lower bound on the learner's moves
// only if the learner's moves are the explorer's moves, so a challenge
// refuses the first one that is not, and says why.

package sim

import (
	"slices"
	"strconv"
)

// Why a move is not within an exploration's bounds (MoveError.Code).
const (
	// CodeMoveClient: the client does not take part (ExploreConfig.Clients).
	CodeMoveClient Code = "move-client"
	// CodeMoveOnce: a program step the client has already taken (each
	// client acquires, writes and releases once).
	CodeMoveOnce Code = "move-once"
	// CodeMoveSpent: a fault of a kind whose budget is spent (Most says
	// how many the bounds allow).
	CodeMoveSpent Code = "move-spent"
	// CodeMoveIdle: a fault to a client that has not started (it has
	// nothing to lose yet).
	CodeMoveIdle Code = "move-idle"
	// CodeMoveWait: time passes only while a client is paused, once per
	// pause, by one of the lengths the bounds allow.
	CodeMoveWait Code = "move-wait"
	// CodeMoveResume: a paused client resumes once its pause has had its
	// wait.
	CodeMoveResume Code = "move-resume"
	// CodeMoveOther: any other action the bounds leave out (a verb the
	// explorer does not take, a fault no budget covers).
	CodeMoveOther Code = "move-other"
)

// MoveError is the first action of a schedule that the bounds do not
// allow. Allowed lists the moves that were allowed at that point, in the
// explorer's order, as the URL writes them.
type MoveError struct {
	Index   int
	Action  Action
	Code    Code
	Most    int // CodeMoveSpent: how many such faults the bounds allow
	Allowed []Action
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
func (cfg ExploreConfig) Within(actions []Action) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	e := &explorer{cfg: cfg}
	w, err := e.run(nil)
	if err != nil {
		return err
	}
	defer w.close()
	var b budget
	for i, a := range actions {
		moves := e.moves(w, b)
		k := slices.IndexFunc(moves, func(m move) bool { return sameMove(m.a, a) })
		if k < 0 {
			me := &MoveError{Index: i, Action: a}
			for _, m := range moves {
				me.Allowed = append(me.Allowed, m.a)
			}
			me.Code, me.Most = e.whyNot(w, b, a)
			return me
		}
		b = moves[k].b
		if err := w.stepOnce(i, a); err != nil {
			return err
		}
	}
	return nil
}

// sameMove: the URL's action is the move (a duration written otherwise,
// 10000ms for 10s, is the same duration).
func sameMove(m, a Action) bool {
	return m.Who == a.Who && m.Verb == a.Verb && m.Ms == a.Ms && len(a.Cmd) == 0
}

// whyNot names the rule of moves that leaves a out, for a learner.
func (e *explorer) whyNot(w *World, b budget, a Action) (Code, int) {
	spec, ok := Spec(a.Verb)
	if !ok {
		return CodeMoveOther, 0
	}
	i := slices.IndexFunc(w.clients, func(c *Client) bool { return c.ID == a.Who })
	switch {
	case spec.Doer == ByClient && i >= e.cfg.Clients:
		return CodeMoveClient, 0
	case spec.Explore == ExploreStep && spec.once != onceNone:
		if done := b.once(spec.once); done != nil && i >= 0 && *done&bit(i) != 0 {
			return CodeMoveOnce, 0
		}
	case spec.Explore == ExploreFault:
		used, most := e.faults(&b, spec.Cost)
		if *used >= most {
			return CodeMoveSpent, most
		}
		if i >= 0 && (w.clients[i].state == StateIdle || w.clients[i].state == StateCrashed) {
			return CodeMoveIdle, 0
		}
	case spec.Explore == ExploreWait:
		return CodeMoveWait, 0
	case spec.Explore == ExploreRecovery && spec.Doer == ByClient:
		return CodeMoveResume, 0
	}
	return CodeMoveOther, 0
}

// operator.go is the learner's own redis-cli on a timeline: a command
// typed as the operator ("you"), sent at the timeline's current virtual
// instant to one node through a go-redis connection of its own, and
// recorded with what that server answered. It is an action like any
// other — cli.<node>.<command> in the URL — so it replays, undoes with
// Back and runs on redis-server in the parity tests. Its effects are
// real, and the checks see them: deleting a holder's key by hand lets the
// next client in beside it; resetting the storage's token lets an older
// write land. command.go decides which commands it sends.

package sim

import "errors"

// Operator is the actor of typed commands: "you" on the timeline.
const Operator = "you"

// VerbCLI is the typed command's verb: cli.<node>.<command>.
const VerbCLI = "cli"

// operate sends args to n as the operator. A reply Redis gives — an
// error reply included — is the answer; only a failure of the server
// itself stops the replay.
func (w *World) operate(n *Node, args []string) error {
	if w.operator == nil {
		w.operator = &Client{ID: Operator}
	}
	as := make([]any, len(args))
	for i, a := range args {
		as[i] = a
	}
	if w.sc.Replicated && n != w.primary && n != w.store {
		// a replica takes no writes from a client (replica-read-only,
		// Redis's default); the replication model writes with it off
		n.srv.SetReadOnly(true)
		defer n.srv.SetReadOnly(false)
	}
	_, err := w.send(w.operator, n, "cli", as...)
	var be *BackendError
	var ie *InternalError
	if errors.As(err, &be) || errors.As(err, &ie) {
		return err
	}
	if n != w.store && !n.down {
		w.checkByHand(n, len(w.events)-1) // the lock span the command ended, if any
	}
	return nil
}

// operatorNode is the node a typed command goes to: a Redis node of the
// world by name, or the storage. A modelled service (ZooKeeper, etcd)
// has no Redis node, so there only the storage answers.
func (w *World) operatorNode(name string) *Node {
	if w.store != nil && name == w.store.Name {
		return w.store
	}
	return w.node(name)
}

// OperatorNodes are the nodes a typed command may go to in sc, the lock
// node (or nodes) first, then the storage.
func (sc *Scenario) OperatorNodes() []string {
	var out []string
	if !sc.Coord {
		if len(sc.Nodes) == 0 {
			out = append(out, NodeRedis)
		}
		out = append(out, sc.Nodes...)
	}
	return append(out, NodeStorage)
}

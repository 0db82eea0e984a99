// nodes.go holds what the learner can do to a Redis node: cut it off,
// bring it back, restart it with or without its data, jump its clock,
// slow it down, promote a replica.
package sim

// Option: what a node keeps across a restart.
const (
	OptPersist   = "persist"
	PersistFsync = "fsync" // appendfsync always: a restarted node has every key it acknowledged
	PersistNone  = "none"  // no persistence: a restarted node comes back empty
)

// nodeAction applies a node verb, or says why it cannot be done now.
func (w *World) nodeAction(a Action) error {
	n := w.node(a.Who)
	if n == nil || !w.sc.allowsNodeVerb(a.Verb) {
		if n == nil {
			return &ActionError{Code: CodeUnknownNode, Who: a.Who}
		}
		return &ActionError{Code: CodeUnknownVerb, Who: a.Who}
	}
	if code := w.refuseNode(n, a.Verb); code != "" {
		return &ActionError{Code: code, Who: a.Who}
	}
	ev := Event{Actor: n.Name, Kind: KindNode, Node: n.Name, Text: a.Verb, Ms: a.Ms, Model: true}
	switch a.Verb {
	case NodeDown:
		n.down = true
	case NodeUp:
		n.down = false
	case NodeRestart:
		if w.opts[OptPersist] == PersistNone {
			w.wipe(n)
		}
		n.down = false
	case NodeJump:
		n.offset += a.Ms
		n.setTime(w.clock.Now())
		w.record(ev)
		w.observe("")
		return nil
	case NodeSlow:
		n.latency = a.Ms
	case NodePromote:
		w.promote(n)
	}
	w.record(ev)
	return w.takeFail()
}

// refuseNode says why a node verb is impossible now ("" if possible).
func (w *World) refuseNode(n *Node, verb string) Code {
	switch verb {
	case NodeDown:
		if n.down {
			return CodeNodeState
		}
	case NodeUp:
		if !n.down || (w.sc.Replicated && n == w.oldPrimary) {
			return CodeNodeState
		}
	case NodePromote:
		if !w.sc.Replicated || n == w.primary || !w.primary.down {
			return CodeNodeState // promote a replica, once the primary is gone
		}
	}
	return ""
}

// allowedNode lists the verbs possible on n now, for the controls.
func (w *World) allowedNode(n *Node) []string {
	var out []string
	for _, v := range NodeVerbs {
		if w.sc.allowsNodeVerb(v) && w.refuseNode(n, v) == "" {
			out = append(out, v)
		}
	}
	return out
}

// wipe empties a node's data: a restart with nothing persisted.
func (w *World) wipe(n *Node) {
	n.srv.Restart()
	w.wiping = true
	w.observeNode(n, "")
	w.wiping = false
}

func (sc *Scenario) allowsNodeVerb(v string) bool {
	for _, x := range sc.NodeVerbs {
		if x == v {
			return true
		}
	}
	return false
}

// check.go holds the timeline's own claims to the facts: the lock's
// spans (the picture's key bars, their ends and who ended them), the
// expiry rows of the event log, the event log's commands and replies,
// and the storage the lanes describe. What the pages word from these
// (web/narrate, web/picture) is held to the same facts by the tests of
// web/internal/claims.

package oracle

import (
	"fmt"
	"slices"
	"strconv"

	"locklab/sim"
)

// Check lists every claim of the timeline that the facts contradict.
func (f *Facts) Check() []string {
	out := slices.Clone(f.Mismatch)
	out = append(out, f.checkLocks()...)
	out = append(out, f.checkExpiries()...)
	out = append(out, f.checkStorage()...)
	return out
}

// Owner is the client a lock key's life belongs to: the client whose
// command set it; for the replication link's copy, the owner of the
// primary's key with that value; for a value someone else typed, the
// client that last acquired with that value, if any.
func (f *Facts) Owner(l Life) string {
	tl := f.Timeline
	if slices.ContainsFunc(tl.Clients, func(c sim.ClientView) bool { return c.ID == l.By }) {
		return l.By
	}
	owner := ""
	if l.By == sim.Operator {
		owner = sim.Operator // unless a client acquired with this value
	}
	for _, o := range f.Lives {
		if o.FromOp >= l.FromOp {
			break
		}
		if o.Key == l.Key && o.Val.Str == l.Val.Str && o.By != l.By {
			if slices.ContainsFunc(tl.Clients, func(c sim.ClientView) bool { return c.ID == o.By }) {
				owner = o.By
			} else if o.Node != l.Node { // the original of a copy
				owner = f.Owner(o)
			}
		}
	}
	return owner
}

// LockLives is the lives of the lock key on each lock node (Redis nodes
// only: a modelled service has no server).
func (f *Facts) LockLives() []Life {
	tl := f.Timeline
	key := tl.Scenario.LockKey()
	var out []Life
	for _, l := range f.Lives {
		if l.Key == key && l.Node != sim.NodeStorage && l.Val.Type == "string" {
			out = append(out, l)
		}
	}
	return out
}

// checkLocks holds the timeline's lock spans to the lock key's lives,
// one for one on each node: the value, when it began and ended, how it
// ended and by whose command, and whose it was.
func (f *Facts) checkLocks() []string {
	tl := f.Timeline
	if tl.Scenario.Coord {
		return nil
	}
	var out []string
	lives := f.LockLives()
	nodes := map[string]bool{}
	for _, l := range lives {
		nodes[l.Node] = true
	}
	for _, s := range tl.Locks {
		nodes[s.Node] = true
	}
	for node := range nodes {
		var ls []Life
		for _, l := range lives {
			if l.Node == node {
				ls = append(ls, l)
			}
		}
		var ss []sim.LockSpan
		for _, s := range tl.Locks {
			if s.Node == node {
				ss = append(ss, s)
			}
		}
		for i := 0; i < max(len(ls), len(ss)); i++ {
			switch {
			case i >= len(ss):
				out = append(out, fmt.Sprintf("%s held %s = %s from %s, which no lock span shows", node, ls[i].Key, ls[i].Val.Str, sim.FormatMS(ls[i].From)))
			case i >= len(ls):
				out = append(out, fmt.Sprintf("a lock span on %s (%s, %s from %s) matches no key the server held", node, ss[i].Owner, ss[i].Value, sim.FormatMS(ss[i].From)))
			default:
				out = append(out, f.checkSpan(ss[i], ls[i])...)
			}
		}
	}
	slices.Sort(out)
	return out
}

func (f *Facts) checkSpan(s sim.LockSpan, l Life) []string {
	var out []string
	say := func(what string, claim, fact any) {
		out = append(out, fmt.Sprintf("lock span on %s (%s from %s): %s %v, the server says %v", s.Node, s.Value, sim.FormatMS(s.From), what, claim, fact))
	}
	if s.Value != l.Val.Str {
		say("value", s.Value, l.Val.Str)
	}
	if s.From != l.From {
		say("begins at", sim.FormatMS(s.From), sim.FormatMS(l.From))
	}
	if s.To != l.To {
		say("ends at", s.To, l.To)
	}
	if s.End != l.End {
		say("ends", s.End, l.End)
	}
	if (l.End == EndDeleted || l.End == EndOverwritten) && s.DeletedBy != l.EndBy {
		say("ended by", s.DeletedBy, l.EndBy)
	}
	if o := f.Owner(l); s.Owner != o {
		say("belongs to", s.Owner, o)
	}
	if l.End == "" && s.Expiry != l.Expiry {
		say("expires at", s.Expiry, l.Expiry)
	}
	return out
}

// checkExpiries holds the event log's expiry rows to the lock lives that
// expired: one row each, at the instant, naming the value and its owner;
// no row for a key that did not expire.
func (f *Facts) checkExpiries() []string {
	tl := f.Timeline
	if tl.Scenario.Coord {
		return nil
	}
	var out []string
	type exp struct {
		node, value string
		at          int64
	}
	want := map[exp]string{}
	for _, l := range f.LockLives() {
		if l.End == EndExpired {
			want[exp{l.Node, l.Val.Str, l.To}] = f.Owner(l)
		}
	}
	for _, e := range tl.Events {
		if e.Kind != sim.KindExpired {
			continue
		}
		k := exp{e.Actor, e.Value, e.At}
		owner, ok := want[k]
		if !ok {
			out = append(out, fmt.Sprintf("event #%d says %s's lock %s expired on %s at %s; it did not expire then", e.Seq+1, e.Owner, e.Value, e.Actor, sim.FormatMS(e.At)))
			continue
		}
		if owner != e.Owner {
			out = append(out, fmt.Sprintf("event #%d names %s the owner of the expired key; it was %s's", e.Seq+1, e.Owner, owner))
		}
		delete(want, k)
	}
	for k := range want {
		out = append(out, fmt.Sprintf("%s's key %s expired on %s at %s, which no event shows", want[k], k.value, k.node, sim.FormatMS(k.at)))
	}
	slices.Sort(out)
	return out
}

// checkStorage holds the storage's view to its keys at the end.
func (f *Facts) checkStorage() []string {
	tl := f.Timeline
	sc, keys := tl.Scenario, f.End[sim.NodeStorage]
	var out []string
	sv := tl.Storage
	if sv.Kind == sim.StoreCharges {
		got := keys[sc.ChargesKey()].List
		var shown []string
		for _, c := range got[:min(len(got), sim.ChargesShown)] {
			shown = append(shown, sim.Shown(c))
		}
		if !slices.Equal(shown, sv.Charges) || len(got) != sv.ChargesLen {
			out = append(out, fmt.Sprintf("the storage shows charges %v; %s holds %v", sv.Charges, sc.ChargesKey(), got))
		}
		return out
	}
	if got := keys[sc.DataKey()].Str; sim.Shown(got) != sv.Value {
		out = append(out, fmt.Sprintf("the storage shows %q; %s holds %q", sv.Value, sc.DataKey(), got))
	}
	tok, _ := strconv.ParseInt(keys[sc.TokenKey()].Str, 10, 64)
	if tok != sv.LastToken {
		out = append(out, fmt.Sprintf("the storage shows token %d; %s holds %q", sv.LastToken, sc.TokenKey(), keys[sc.TokenKey()].Str))
	}
	return out
}

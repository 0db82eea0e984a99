// facts.go derives what the servers did from the recorder's ops: every
// key's lives on every node (from when to when, made by whose command,
// ended how and by whom), every command lined up with the event that
// shows it, and each node's keys at the end.

package oracle

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"locklab/sim"
	"locklab/sim/rediscli"
)

// Facts is what one replay's servers did.
type Facts struct {
	Timeline *sim.Timeline
	Ops      []Op
	// Lives is every key's every life, on every node, in the order they
	// began.
	Lives []Life
	// EventOf maps a command op's Seq to the Seq of the event that
	// shows it; OpOf the other way.
	EventOf, OpOf map[int]int
	// End is every node's keys when the timeline ends.
	End map[string]Keys
	// Down: for each node, the stretches [from, to) it was down (to -1:
	// still down), from the node events.
	Down map[string][][2]int64
	// Mismatch lists where the event log and the servers disagree: an
	// event no server saw, a command no event shows, a reply or instant
	// that differs.
	Mismatch []string
}

// How a key's life ended.
const (
	EndExpired     = sim.EndExpired     // its TTL ran out on the server's clock
	EndDeleted     = sim.EndDeleted     // a command removed it (DEL, UNLINK, GETDEL, RENAME, a script)
	EndOverwritten = sim.EndOverwritten // a command gave it another value
	EndLost        = sim.EndLost        // the server restarted without it
)

// Life is one key with one content on one node, from the op that made it
// to the op that ended it.
type Life struct {
	Node, Key string
	Val       Key   // its content when it began (TTL: as set then)
	From      int64 // world ms
	FromOp    int
	By        string // who sent the command that made it (an event's actor; "" if unknown)
	To        int64  // world ms; -1 while it lasts
	End       string // "" while it lasts
	EndOp     int
	EndBy     string // who sent the command that ended it
	// Expiry is the world instant its TTL runs out, as last set (0: no
	// TTL); for an expired life, the instant it expired.
	Expiry int64
	// GaveTTL are the command ops that gave it a TTL when it had none.
	GaveTTL []int
	// TTLBy is who sent the command that last set its TTL ("" if none
	// did), and OwnExpiry the instant its TTL ran out as its maker last
	// set it (0: no TTL): a TTL typed by hand that ends before OwnExpiry
	// took the key from its holder early.
	TTLBy     string
	OwnExpiry int64
}

// Replay replays (sc, opts, actions) on a Recorder and derives its facts.
func Replay(sc *sim.Scenario, opts sim.Opts, actions []sim.Action) (*sim.Timeline, *Facts, error) {
	rec := &Recorder{}
	defer rec.Shut()
	tl, err := sim.ReplayOn(context.Background(), rec, sc, opts, actions)
	if err != nil {
		return nil, nil, err
	}
	return tl, Derive(tl, rec), nil
}

// Run is Replay from a URL's halves, like sim.Run.
func Run(scenario, do, opt string) (*sim.Timeline, *Facts, error) {
	sc, ok := sim.Lookup(scenario)
	if !ok {
		return nil, nil, fmt.Errorf("no scenario %q", scenario)
	}
	return RunOn(sc, do, opt)
}

// RunOn is Run for a scenario already built (a design's).
func RunOn(sc *sim.Scenario, do, opt string) (*sim.Timeline, *Facts, error) {
	opts, err := sc.ParseOptions(opt)
	if err != nil {
		return nil, nil, err
	}
	actions, err := sim.ParseActions(do)
	if err != nil {
		return nil, nil, err
	}
	return Replay(sc, opts, actions)
}

// Derive reads the facts off rec's ops, lined up with tl's events.
func Derive(tl *sim.Timeline, rec *Recorder) *Facts {
	f := &Facts{Timeline: tl, Ops: rec.Ops(), EventOf: map[int]int{}, OpOf: map[int]int{}, End: rec.Now(), Down: map[string][][2]int64{}}
	f.align()
	f.lives()
	f.downs()
	return f
}

// align pairs every command a server received with the event that shows
// it, in order. An event of a Redis node that is not refused must have
// been received, unless it is a labelled model (WAIT in the replication
// model is the model's answer, never sent).
func (f *Facts) align() {
	servers := map[string]bool{}
	for _, op := range f.Ops {
		servers[op.Node] = true
	}
	var cmds []Op
	for _, op := range f.Ops {
		if op.Kind == OpCommand {
			cmds = append(cmds, op)
		}
	}
	p := 0
	for _, e := range f.Timeline.Events {
		if e.Kind != sim.KindCommand || e.Refused || !servers[e.Node] {
			continue
		}
		if p < len(cmds) && cmds[p].Node == e.Node && slices.Equal(cmds[p].Args, e.Command) {
			op := cmds[p]
			f.EventOf[op.Seq], f.OpOf[e.Seq] = e.Seq, op.Seq
			p++
			if got := replyOf(op).Clip(sim.ReplyShown); !sameReply(got, e.Reply) {
				f.Mismatch = append(f.Mismatch, fmt.Sprintf("event #%d %s %s shows %q; the server answered %q", e.Seq+1, e.Node, strings.Join(e.Command, " "), e.Reply.String(), got.String()))
			}
			if op.At != e.At {
				f.Mismatch = append(f.Mismatch, fmt.Sprintf("event #%d is at %s; the server got it at %s", e.Seq+1, sim.FormatMS(e.At), sim.FormatMS(op.At)))
			}
			continue
		}
		if !e.Model {
			f.Mismatch = append(f.Mismatch, fmt.Sprintf("event #%d %s %s: no server received it", e.Seq+1, e.Node, strings.Join(e.Command, " ")))
		}
	}
	for ; p < len(cmds); p++ {
		f.Mismatch = append(f.Mismatch, fmt.Sprintf("%s received %s at %s, which no event shows", cmds[p].Node, strings.Join(cmds[p].Args, " "), sim.FormatMS(cmds[p].At)))
	}
}

// replyOf is an op's answer as a value (types of strings aside: go-redis
// reads a simple and a bulk string alike).
func replyOf(op Op) rediscli.Reply {
	switch {
	case op.Err == "redis: nil":
		return rediscli.Reply{Kind: rediscli.ReplyNil}
	case op.Err != "":
		return rediscli.Reply{Kind: rediscli.ReplyError, Str: op.Err}
	}
	return valueReply(op.Val)
}

func valueReply(v any) rediscli.Reply {
	switch x := v.(type) {
	case nil:
		return rediscli.Reply{Kind: rediscli.ReplyNil}
	case int64:
		return rediscli.IntReply(x)
	case string:
		return rediscli.Reply{Kind: rediscli.ReplyBulk, Str: x}
	case []any:
		r := rediscli.Reply{Kind: rediscli.ReplyArray}
		for _, e := range x {
			r.Elems = append(r.Elems, valueReply(e))
		}
		return r
	case error:
		return rediscli.Reply{Kind: rediscli.ReplyError, Str: x.Error()}
	}
	return rediscli.Reply{Kind: rediscli.ReplyUnknown}
}

// sameReply compares a value with an event's reply, a simple string and
// a bulk string alike.
func sameReply(v, e rediscli.Reply) bool {
	norm := func(r rediscli.Reply) rediscli.Reply {
		if r.Kind == rediscli.ReplyStatus {
			r.Kind = rediscli.ReplyBulk
		}
		return r
	}
	if v.Kind == rediscli.ReplyArray && e.Kind == rediscli.ReplyArray {
		if len(v.Elems) != len(e.Elems) {
			return false
		}
		for i := range v.Elems {
			if !sameReply(v.Elems[i], e.Elems[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(norm(v), norm(e))
}

// actor is who sent a command op ("" if no event shows it).
func (f *Facts) actor(op Op) string {
	if op.Kind != OpCommand {
		return ""
	}
	if seq, ok := f.EventOf[op.Seq]; ok {
		return f.Timeline.Events[seq].Actor
	}
	return ""
}

// lives walks the ops and keeps, per node and key, the life that is open.
// A key that appears begins a life; one that vanishes ends it (expired on
// a clock move, deleted by a command, lost in a restart); a string whose
// value changes ends one life (overwritten) and begins another; any other
// change of content or TTL stays in the same life.
func (f *Facts) lives() {
	open := map[[2]string]int{} // node, key → index in f.Lives
	for _, op := range f.Ops {
		keys := map[string]bool{}
		for k := range op.Before {
			keys[k] = true
		}
		for k := range op.After {
			keys[k] = true
		}
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			b, had := op.Before[k]
			a, has := op.After[k]
			id := [2]string{op.Node, k}
			i, isOpen := open[id]
			if had && !isOpen {
				// present before any op saw it begin: cannot happen with
				// servers that start empty
				continue
			}
			switch {
			case had && !has:
				f.end(i, op, b)
				delete(open, id)
			case !had && has:
				open[id] = f.begin(op, k, a)
			case had && has && !b.Same(a) && (a.Type != b.Type || a.Type == "string"):
				f.end(i, op, b)
				open[id] = f.begin(op, k, a)
			case had && has:
				l := &f.Lives[i]
				if b.TTL <= 0 && a.TTL > 0 && op.Kind == OpCommand {
					l.GaveTTL = append(l.GaveTTL, op.Seq)
				}
				exp := f.expiry(op, a)
				if op.Kind == OpCommand && exp != l.Expiry {
					l.TTLBy = f.actor(op)
					if l.TTLBy == l.By {
						l.OwnExpiry = exp
					}
				}
				l.Expiry = exp
			}
		}
	}
}

func (f *Facts) begin(op Op, k string, a Key) int {
	l := Life{Node: op.Node, Key: k, Val: a, From: op.At, FromOp: op.Seq, By: f.actor(op), To: -1, Expiry: f.expiry(op, a)}
	if l.Expiry != 0 {
		l.TTLBy, l.OwnExpiry = l.By, l.Expiry
	}
	f.Lives = append(f.Lives, l)
	return len(f.Lives) - 1
}

// expiry is the world instant a key's TTL ends, read after op.
func (f *Facts) expiry(op Op, k Key) int64 {
	if k.TTL <= 0 {
		return 0
	}
	return op.At + k.TTL
}

// end closes life i at op. A key gone at a clock move expired at the
// instant its TTL ran out on the server's clock (the clock move's own
// instant if the server's clock jumped ahead).
func (f *Facts) end(i int, op Op, before Key) {
	l := &f.Lives[i]
	l.To, l.EndOp = op.At, op.Seq
	switch op.Kind {
	case OpCommand:
		l.EndBy = f.actor(op)
		l.End = EndDeleted
		if _, still := op.After[l.Key]; still {
			l.End = EndOverwritten
		}
	case OpRestart:
		l.End = EndLost
	case OpClock:
		l.End = EndExpired
		at := op.NodeBefore + before.TTL // on the server's clock
		// the world instant that is: the server's lead over the world
		// clock is NodeAt-At after the move
		w := at - (op.NodeAt - op.At)
		l.To = max(min(w, op.At), f.prevWorld(op))
		l.Expiry = l.To
	}
}

// prevWorld is the world's time at the op before op on the same node.
func (f *Facts) prevWorld(op Op) int64 {
	for i := op.Seq - 1; i >= 0; i-- {
		if f.Ops[i].Node == op.Node {
			return f.Ops[i].At
		}
	}
	return 0
}

// downs reads when each node was down from the node events (the
// learner's actions on the nodes: a model, the servers do not know).
func (f *Facts) downs() {
	for _, e := range f.Timeline.Events {
		if e.Kind != sim.KindNode {
			continue
		}
		d := f.Down[e.Actor]
		switch e.Text {
		case "down":
			if len(d) == 0 || d[len(d)-1][1] >= 0 {
				d = append(d, [2]int64{e.At, -1})
			}
		case "up", "restart": // a restart brings a node that was down back up
			if len(d) > 0 && d[len(d)-1][1] < 0 {
				d[len(d)-1][1] = e.At
			}
		}
		f.Down[e.Actor] = d
	}
}

// DownAt reports whether node was down at world time t (after the
// events at t that took it down or brought it up).
func (f *Facts) DownAt(node string, t int64) bool {
	for _, d := range f.Down[node] {
		if d[0] <= t && (d[1] < 0 || t < d[1]) {
			return true
		}
	}
	return false
}

// EventOfOp is the Seq of the event that shows op seq (-1 if none).
func (f *Facts) EventOfOp(seq int) int {
	if e, ok := f.EventOf[seq]; ok {
		return e
	}
	return -1
}

// LivesOf is the lives of key on node, in order.
func (f *Facts) LivesOf(node, key string) []Life {
	var out []Life
	for _, l := range f.Lives {
		if l.Node == node && l.Key == key {
			out = append(out, l)
		}
	}
	return out
}

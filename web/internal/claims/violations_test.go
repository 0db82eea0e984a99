package claims_test

import (
	"fmt"
	"slices"
	"strings"

	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/sim/oracle"
	"locklab/sim/rediscli"
	"locklab/web/i18n"
	"locklab/web/narrate"
)

// violationWords: each line of "What went wrong" words its failure as the
// facts have it: what the hurt client's hold on the lock was (a TTL, no
// TTL, a mutex, a Redlock validity, a ZooKeeper session, an etcd lease),
// why a client still acted as the holder (paused, cut off, or running
// past its own count), whether anyone took the lock after a late writer,
// whether a key was deleted or replaced, and whether a lock held forever
// was deleted after all.
func violationWords(tl *sim.Timeline, f *oracle.Facts, u *i18n.UI) []string {
	var out []string
	for _, v := range tl.Violations {
		if msg := unsupported(tl, f, v); msg != "" {
			out = append(out, fmt.Sprintf("at %s %s: %s", sim.FormatMS(v.At), v.Kind, msg))
		}
		got := narrate.ViolationText(u, v)
		if w := narrate.ViolationText(u, expected(tl, f, v)); got != w {
			out = append(out, fmt.Sprintf("at %s %s says %q; the facts say %q", sim.FormatMS(v.At), v.Kind, got, w))
		}
	}
	return out
}

// unsupported says what in the facts contradicts v itself ("" if
// nothing): someone else's lock deleted needs a key of Actors[1]'s ended
// by Actors[0]'s command at that event, a release, an extend or a command
// typed by hand — an acquire that replaced a key is an acquisition.
func unsupported(tl *sim.Timeline, f *oracle.Facts, v sim.Violation) string {
	e := tl.Events[v.Event]
	if v.Kind == sim.ScriptError && (e.Reply.Kind != rediscli.ReplyError || len(e.Command) < 2 || e.Command[0] != "EVAL") {
		return fmt.Sprintf("event #%d (%s) is not a script Redis answered with an error", e.Seq+1, strings.Join(e.Command, " "))
	}
	if v.Kind == sim.StaleWrite {
		return replaced(tl, f, v, e)
	}
	if v.Kind != sim.ForeignDelete || tl.Scenario.Coord {
		return ""
	}
	if len(v.Actors) < 2 {
		return fmt.Sprintf("it names no one whose lock it was (actors %v)", v.Actors)
	}
	if e.Purpose == "acquire" || e.Purpose == "retry" {
		return fmt.Sprintf("event #%d is %s's acquire (%s), not a release", e.Seq+1, e.Actor, strings.Join(e.Command, " "))
	}
	for _, l := range f.LockLives() {
		if f.EventOfOp(l.EndOp) == v.Event && l.EndBy == v.Actors[0] && f.Owner(l) == v.Actors[1] {
			return ""
		}
		if shortened(tl, l, v) && f.Owner(l) == v.Actors[1] {
			return ""
		}
	}
	return fmt.Sprintf("no key of %s's was ended by %s's command at event #%d", v.Actors[1], v.Actors[0], v.Event+1)
}

// shortened: l is a key that expired at v's event on a TTL typed by
// hand (v's first actor) before the TTL its maker had set ran out.
func shortened(tl *sim.Timeline, l oracle.Life, v sim.Violation) bool {
	e := tl.Events[v.Event]
	return e.Kind == sim.KindExpired && e.Actor == l.Node && l.End == oracle.EndExpired && l.To == v.At &&
		l.TTLBy == v.Actors[0] && v.Actors[0] == sim.Operator && (l.OwnExpiry == 0 || l.To < l.OwnExpiry)
}

// replaced: a stale write "loses the newer result" only if, after the
// older holder's write, the record holds exactly what that write sent —
// the newer value replaced, not added to.
func replaced(tl *sim.Timeline, f *oracle.Facts, v sim.Violation, e sim.Event) string {
	op, ok := f.OpOf[e.Seq]
	if !ok || len(e.Command) < 3 {
		return ""
	}
	sent := e.Command[len(e.Command)-1] // SET key value, an EVAL's last ARGV
	if e.Command[0] == "MSET" {
		sent = e.Command[2]
	}
	rec := f.Ops[op].After[tl.Scenario.DataKey()]
	if rec.Str != sent {
		return fmt.Sprintf("after %s's write the record holds %q, not the %q it sent: nothing newer was replaced", e.Actor, rec.Str, sent)
	}
	return ""
}

// expected is v with the circumstances the facts give it.
func expected(tl *sim.Timeline, f *oracle.Facts, v sim.Violation) sim.Violation {
	w := sim.Violation{Kind: v.Kind, Actors: slices.Clone(v.Actors)}
	actor := func(i int) string {
		if i < len(v.Actors) {
			return v.Actors[i]
		}
		return ""
	}
	switch v.Kind {
	case sim.TwoHolders:
		w.Hold = holdOf(tl, actor(1), v.Event)
		switch {
		case renewed(tl, f, actor(0), v):
			w.Why = sim.WhyRenewed
		case w.Hold == sim.HoldTTL && keyExpiredUnder(tl, f, actor(1), v):
			w.Why = sim.WhyKeyExpired
		}
	case sim.Overlap:
		w.Hold = holdOf(tl, actor(1), v.Event)
		w.Why = whyActing(tl, actor(1), v.Event)
	case sim.LateWrite:
		w.Hold = holdOf(tl, actor(0), v.Event)
		w.Why = sim.WhyNone
		w.Actors = w.Actors[:1]
		if n := newerHolder(tl, f, actor(0), v.At, v.Event); n != "" {
			w.Why, w.Actors = sim.WhyNewer, []string{actor(0), n}
			if wroteSince(tl, n, v.Event) {
				w.Why = sim.WhyNewerWrote
			}
		}
	case sim.ScriptError:
		w.Why = scriptOf(tl, v)
	case sim.LockRefused:
		w.Why = refusedWhy(tl, f, actor(0), v)
	case sim.ForeignDelete:
		w.Why = sim.WhyDeleted
		for _, l := range f.LockLives() {
			if f.EventOfOp(l.EndOp) == v.Event && l.EndBy == actor(0) && f.Owner(l) == actor(1) && l.End == oracle.EndOverwritten {
				w.Why = sim.WhyReplaced
			}
			if shortened(tl, l, v) && f.Owner(l) == actor(1) {
				w.Why = sim.WhyShortened
			}
		}
	case sim.Orphan:
		w.Actors = w.Actors[:1]
		for _, l := range f.LockLives() {
			// the crashed client's key that was there when it crashed:
			// the first command after the crash that gave it a TTL or
			// removed it ended "for ever"
			if f.Owner(l) != actor(0) || f.EventOfOp(l.FromOp) >= v.Event || l.Node != nodeOf(tl, v) {
				continue
			}
			for _, op := range l.GaveTTL {
				if e := f.EventOfOp(op); e > v.Event && !w.Ended() {
					w.Until, w.Why, w.Actors = f.Ops[op].At, sim.WhyGaveTTL, []string{actor(0), tl.Events[e].Actor}
				}
			}
			if (l.End == oracle.EndDeleted || l.End == oracle.EndOverwritten) && f.EventOfOp(l.EndOp) > v.Event && !w.Ended() {
				w.Until, w.Actors = l.To, []string{actor(0), l.EndBy}
			}
		}
	}
	return w
}

// refusedWhy is why an acquire was refused while no client held the
// lock, as the servers had it: the acquire's own command made the key
// (it set the key, then answered no), or the key that refused it was
// another client's, made before and still there.
func refusedWhy(tl *sim.Timeline, f *oracle.Facts, who string, v sim.Violation) string {
	why := ""
	for _, l := range f.LivesOf(sim.NodeRedis, tl.Scenario.LockKey()) { // a design's one lock node
		from, owner := f.EventOfOp(l.FromOp), f.Owner(l)
		lasts := l.End == "" || f.EventOfOp(l.EndOp) > v.Event
		switch {
		case from == v.Event && owner == who:
			return sim.WhyTook
		case from < v.Event && lasts && owner != who && slices.ContainsFunc(tl.Clients, func(c sim.ClientView) bool { return c.ID == owner }):
			why = sim.WhyLeftKey
		}
	}
	return why
}

// scriptOf names the design's piece whose script v's event sent: the
// piece with a part equal to the EVAL's body, the write's if it went to
// the storage (two pieces may share a text; the one the violation names
// is kept if it is among them).
func scriptOf(tl *sim.Timeline, v sim.Violation) string {
	e := tl.Events[v.Event]
	d, ok := tl.Scenario.Scripted.Source.(*lockdesign.Design)
	if !ok || len(e.Command) < 2 {
		return ""
	}
	var names []string
	for _, p := range sim.Pieces {
		if (p == sim.PieceWrite) == (e.Node == sim.NodeStorage) && slices.Contains(sim.Parts(d.Script(p)), e.Command[1]) {
			names = append(names, p.Name())
		}
	}
	if slices.Contains(names, v.Why) {
		return v.Why
	}
	if len(names) == 0 {
		return "(no piece's script: " + e.Command[1] + ")"
	}
	return names[0]
}

// nodeOf is the node whose key v is about: the node the clients' commands
// went to last before v was found (the primary of the time).
func nodeOf(tl *sim.Timeline, v sim.Violation) string {
	if tl.Scenario.Redlock {
		return tl.Nodes[0].Name // a Redlock client's first node stands for its lock
	}
	node := ""
	for _, e := range tl.Events {
		if e.Seq > v.Event {
			break
		}
		if e.Kind == sim.KindCommand && !e.Model && e.Node != sim.NodeStorage && slices.ContainsFunc(tl.Clients, func(c sim.ClientView) bool { return c.ID == e.Actor }) {
			node = e.Node
		}
	}
	return node
}

// holdOf is what id's hold on the lock was when event seq revealed it: the service's session or
// lease in a model, a mutex, a Redlock validity; for a Redis key, whether
// id's own commands since it last tried for the lock asked for a TTL (a
// SET … PX, a PEXPIRE): its hold is what it counts on, whatever became of
// the key.
func holdOf(tl *sim.Timeline, id string, seq int) string {
	sc := tl.Scenario
	switch {
	case sc.Coord && tl.Opts[sim.OptService] == sim.ServiceEtcd:
		return sim.HoldLease
	case sc.Coord:
		return sim.HoldSession
	case tl.Opts[sim.OptLock] == sim.LockLocal:
		return sim.HoldMutex
	case sc.Redlock:
		return sim.HoldValidity
	case sc.Scripted != nil:
		return sim.HoldTTL // a design's client counts the TTL it asked for
	}
	hold := sim.HoldTTL
	for _, e := range tl.Events {
		if e.Seq > seq {
			break
		}
		if e.Actor != id || e.Kind != sim.KindCommand || e.Node == sim.NodeStorage || len(e.Command) == 0 {
			continue
		}
		switch c := e.Command; {
		case (c[0] == "SET" || c[0] == "SETNX") && (e.Purpose == "acquire" || e.Purpose == "retry"):
			hold = sim.HoldForever
			if slices.Contains(c, "PX") {
				hold = sim.HoldTTL
			}
		case c[0] == "PEXPIRE":
			hold = sim.HoldTTL
		}
	}
	return hold
}

// wroteSince: the storage accepted a write of id's before event seq,
// after id's last acquisition.
func wroteSince(tl *sim.Timeline, id string, seq int) bool {
	wrote := false
	for _, e := range tl.Events {
		if e.Seq >= seq {
			break
		}
		if e.Actor != id || e.Kind != sim.KindCommand {
			continue
		}
		switch {
		case e.Accepted != nil && *e.Accepted:
			wrote = true
		case e.Node != sim.NodeStorage && (e.Purpose == "acquire" || e.Purpose == "retry") && !e.Refused:
			wrote = false
		}
	}
	return wrote
}

// keyExpiredUnder: id's latest key on the lock node by v (one made later,
// by a later acquisition, does not count) had expired by v — while id's
// lease was still valid (the violation's own claim, which the lease
// checks hold apart), so before the TTL id counts by.
func keyExpiredUnder(tl *sim.Timeline, f *oracle.Facts, id string, v sim.Violation) bool {
	var last *oracle.Life
	for _, l := range f.LockLives() {
		if l.Node == tl.Nodes[0].Name && f.Owner(l) == id && f.EventOfOp(l.FromOp) <= v.Event && (last == nil || l.From >= last.From) {
			last = &l
		}
	}
	return last != nil && last.End == oracle.EndExpired && last.To <= v.At
}

// renewed: id's action at v was an extend of its own key (its TTL moved),
// not an acquisition.
func renewed(tl *sim.Timeline, f *oracle.Facts, id string, v sim.Violation) bool {
	if v.Event < 0 || v.Event >= len(tl.Events) {
		return false
	}
	e := tl.Events[v.Event]
	return e.Actor == id && e.Purpose == "extend"
}

// whyActing is why id still acted as the holder when event seq revealed
// it: its last pause had not been followed by a resume, or the service's
// events say it was cut off; otherwise it ran on past its own count.
func whyActing(tl *sim.Timeline, id string, seq int) string {
	paused, cut := false, false
	for _, e := range tl.Events {
		if e.Seq > seq {
			break
		}
		if e.Actor != id {
			continue
		}
		switch {
		case e.Kind == sim.KindPause:
			paused = true
		case e.Kind == sim.KindResume:
			paused = false
		case e.Model && e.Purpose == sim.VerbDisconnect:
			cut = true
		case e.Model && e.Purpose == sim.VerbReconnect:
			cut = false
		}
	}
	switch {
	case paused:
		return sim.WhyPaused
	case cut:
		return sim.WhyCutOff
	}
	return sim.WhyUnaware
}

// newerHolder is the latest client other than id to take the lock after
// id's last acquisition and by t ("" if none did).
func newerHolder(tl *sim.Timeline, f *oracle.Facts, id string, t int64, seq int) string {
	if tl.Scenario.Coord {
		var mine int64 = -1
		newer := ""
		for _, l := range tl.Locks {
			if l.FromEvent > seq {
				break
			}
			// the service made o's entry the lowest; o took the lock when
			// it listed the entries and found its own first (a paused o
			// has not yet)
			saw := slices.ContainsFunc(tl.Events, func(e sim.Event) bool {
				return e.Actor == l.Owner && e.Purpose == "check" && e.Seq >= l.FromEvent && e.Seq <= seq
			})
			if l.Owner == id {
				mine, newer = l.From, ""
			} else if l.From >= mine && mine >= 0 && saw {
				newer = l.Owner
			}
		}
		return newer
	}
	var mine int64 = -1
	type acq struct {
		who string
		at  int64
		seq int
	}
	var acqs []acq
	for _, e := range tl.Events {
		if e.Seq > seq {
			break
		}
		if got := acquired(tl, f, e); got != "" {
			acqs = append(acqs, acq{got, e.At, e.Seq})
			if got == id {
				mine = int64(e.Seq)
			}
		}
	}
	newer := ""
	for _, a := range acqs {
		if int64(a.seq) > mine && a.who != id {
			newer = a.who
		}
	}
	return newer
}

// acquired is the client event e made a holder, by the facts: a Redis
// lock key it set on the node clients take the lock from (a Redlock
// client's verdict, a mutex, a service's lowest entry: the models' own).
func acquired(tl *sim.Timeline, f *oracle.Facts, e sim.Event) string {
	sc := tl.Scenario
	switch {
	case e.Kind == sim.KindLocal:
		return e.Actor
	case e.Kind == sim.KindRedlock:
		if strings.HasSuffix(e.Text, "acquired") {
			return e.Actor
		}
		return ""
	case e.Kind != sim.KindCommand || sc.Redlock:
		return ""
	}
	op, ok := f.OpOf[e.Seq]
	if !ok {
		return ""
	}
	for _, l := range f.LockLives() {
		if l.FromOp == op && l.By == e.Actor && slices.ContainsFunc(tl.Clients, func(c sim.ClientView) bool { return c.ID == e.Actor }) {
			return e.Actor
		}
	}
	return ""
}

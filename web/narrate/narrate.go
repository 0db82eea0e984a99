// Package narrate says what happened on a timeline in the page's
// language: who acted, what an action was, what a reply or a verdict
// means, what went wrong. Every surface that words an event (the event
// log, the picture's labels and tooltips, its text alternative, the Lab,
// the class views, the JSON) reads it from here, so one event is worded
// one way. It knows nothing of HTTP or HTML.
package narrate

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"locklab/sim"
	"locklab/sim/luarun"
	"locklab/sim/rediscli"
	"locklab/web/i18n"
)

// ModelCommand localizes a modelled command for the page: the whole line
// where the catalog has a phrase for it (a language may put its words in
// another order: "A のセッションが期限切れ"), else ModelArgs.
func ModelCommand(u *i18n.UI, cmd []string) []string {
	if line := strings.Join(cmd, " "); len(cmd) > 1 && u.Localize(line) != line {
		return []string{u.Localize(line)}
	}
	return ModelArgs(u, cmd)
}

// ModelArgs localizes a modelled command one argument at a time, keeping
// its shape (the JSON's): API names and paths stay as they are.
func ModelArgs(u *i18n.UI, cmd []string) []string {
	out := make([]string, len(cmd))
	for i, c := range cmd {
		out[i] = u.Localize(c)
	}
	return out
}

// NodeLabel is a node's name on its lane, in the event log and on its
// controls: a role or a product name in the page's language; Redlock's
// n1…n5 keep their names.
func NodeLabel(u *i18n.UI, name string) string {
	if l, ok := u.NodeName[name]; ok {
		return l
	}
	return name
}

// EventReply is an event's reply as the page shows it: a model's reply
// localized; a Redis server's reply exactly as redis-cli prints it, with
// what a sentence must add (a part shown, Lua's own wording).
func EventReply(u *i18n.UI, e sim.Event) string {
	reply, cut := ReplyParts(u, e)
	if note := WordingNote(u, e); note != "" {
		cut += u.Paren(note)
	}
	return reply + cut
}

// WordingNote says, of a script's error that Lock Lab's Lua words its
// own way, that Redis's may word it otherwise ("" for any other reply):
// never shown as Redis's without saying so. The event log puts it in the
// row's note, a sentence after the reply.
func WordingNote(u *i18n.UI, e sim.Event) string {
	if !e.Model && e.Reply.Kind == rediscli.ReplyError && luarun.WordedOwnWay(e.Reply.Str) {
		return u.LuaWording
	}
	return ""
}

// ReplyParts is the reply in two parts: the reply, and the note that it
// is shown in part ("" for a whole one), for a page that shows the note
// first (the event log: a long reply's note would sit past its end).
func ReplyParts(u *i18n.UI, e sim.Event) (reply, cut string) {
	if e.Model {
		return u.Localize(e.Reply.String()), ""
	}
	return e.Reply.String(), cutNote(u, e.Reply)
}

// cutNote says, after a reply the timeline keeps only in part
// (sim.ReplyShown), how much of how much is shown: of the reply itself
// where it was cut, else of the first of its elements that was.
func cutNote(u *i18n.UI, r rediscli.Reply) string {
	switch {
	case r.Cut > 0 && r.Kind == rediscli.ReplyArray:
		return u.Paren(i18n.Fill(u.ElemsCut, u.Count(len(r.Elems)), u.Count(r.Cut)))
	case r.Cut > 0:
		return u.Paren(i18n.Fill(u.ReplyCut, u.Count(len(r.Str)), u.Count(r.Cut)))
	}
	for _, e := range r.Elems {
		if note := cutNote(u, e); note != "" {
			return note
		}
	}
	return ""
}

// ReplyBrief is e's reply as a sentence quotes it ("what the last action
// did", a card's text): whole where it is short, and always for an error
// (Redis's errors are one line); a longer value or array is named by its
// size, which the event log shows in full. A cut would split an escape
// (\x0…) or a word in two.
func ReplyBrief(u *i18n.UI, e sim.Event, n int) string {
	reply := ReplyText(e, u)
	r := e.Reply
	switch {
	case utf8.RuneCountInString(reply) <= n || r.Kind == rediscli.ReplyError || e.Refused || e.Model:
		return reply
	case r.Kind == rediscli.ReplyArray:
		return i18n.Fill(u.LongArray, u.Count(max(r.Cut, len(r.Elems))))
	}
	return i18n.Fill(u.LongValue, u.Count(max(r.Cut, len(r.Str))))
}

// ShowsToken: c's token is worth naming beside it — it holds (or
// believes it holds) the lock it was given with. A client trying again
// holds nothing: its last token is spent (failover), or is its place in
// the queue (ZooKeeper's czxid) until it is first.
func ShowsToken(c sim.ClientView) bool {
	st := c.State
	if n := len(c.Spans); st == sim.StatePaused && n > 1 {
		st = c.Spans[n-2].State // what it was doing when it froze
	}
	return c.Token > 0 && (st == sim.StateHolding || st == sim.StateWorking)
}

// State is client c's state now in u's words. A client that acts as the
// holder while no server keeps its lock any more (the key expired, was
// deleted or renamed, or a node holding it went away) is said to think it
// holds: the page's claims are the servers', not the client's belief.
func State(u *i18n.UI, tl *sim.Timeline, c sim.ClientView) string {
	if c.State == sim.StateHolding && len(tl.Locks) > 0 && !slices.ContainsFunc(tl.Locks, func(l sim.LockSpan) bool {
		return l.To < 0 && lockOf(l, c)
	}) {
		return u.Believes
	}
	return u.StateName[c.State]
}

// SpanState is client c's state st from instant at in u's words: a
// holding span that begins at an instant when no lock of c's was on any
// server thinks it holds. (Several events share an instant, and a span
// knows only its instant: one touched by c's lock at all, as at c's own
// release, is called holding.)
func SpanState(u *i18n.UI, tl *sim.Timeline, c sim.ClientView, st sim.State, at int64) string {
	if st == sim.StateHolding && len(tl.Locks) > 0 && len(locksAt(tl, c, at)) == 0 {
		return u.Believes
	}
	return u.StateName[st]
}

// HeldUntil is when the lock c held at instant at stopped being on any
// server: its last lock span of c's covering at ended then (-1: one
// still lasts, or none covered at). A holding bar that outlives it is
// holding until then and thinks it holds after, as its lane says.
func HeldUntil(tl *sim.Timeline, c sim.ClientView, at int64) int64 {
	end := int64(-1)
	for _, l := range locksAt(tl, c, at) {
		if l.To < 0 {
			return -1
		}
		end = max(end, l.To)
	}
	return end
}

// locksAt are the lock spans of c's on any server at instant at (one
// that began or ended at it included).
func locksAt(tl *sim.Timeline, c sim.ClientView, at int64) []sim.LockSpan {
	var out []sim.LockSpan
	for _, l := range tl.Locks {
		if lockOf(l, c) && l.From <= at && (l.To < 0 || at <= l.To) {
			out = append(out, l)
		}
	}
	return out
}

// GoneBefore: every lock of c's there at instant at had ended at it by
// an event logged before c's own first event then (A's key expired at
// 10.000s, A resumed at 10.000s): by the log's order, the span c begins
// then starts without its lock, though an instant's view (SpanState)
// cannot tell.
func GoneBefore(tl *sim.Timeline, c sim.ClientView, at int64) bool {
	first := -1
	for _, e := range tl.Events {
		if e.Actor == c.ID && e.At == at {
			first = e.Seq
			break
		}
	}
	if first < 0 {
		return false
	}
	locks := locksAt(tl, c, at)
	for _, l := range locks {
		if l.To != at || l.EndEvent < 0 || l.EndEvent > first {
			return false
		}
	}
	return len(locks) > 0
}

// lockOf: lock span l is client c's — a key it set, or one with its value
// (a server cannot tell two holders apart that use the same value).
func lockOf(l sim.LockSpan, c sim.ClientView) bool {
	return l.Owner == c.ID || c.Value != "" && l.Value == c.Value
}

// NodeState describes a node for its lane and its controls: its role
// where its name does not already say it (a promoted replica is the
// primary), and what the learner did to it.
func NodeState(u *i18n.UI, n sim.NodeView) string {
	var parts []string
	role := ""
	switch {
	case n.Model:
		parts = append(parts, u.Model)
	case n.Primary:
		role = u.PrimaryRole
	case n.Replicated && !n.Down:
		role = u.ReplicaRole // a crashed ex-primary is no one's replica
	}
	if role != "" && role != NodeLabel(u, n.Name) {
		parts = append(parts, role)
	}
	switch {
	case n.Down && n.Replicated:
		parts = append(parts, u.Crashed)
	case n.Down:
		parts = append(parts, u.Down)
	}
	if n.Offset > 0 {
		parts = append(parts, i18n.Fill(u.ClockAhead, sim.FormatDuration(n.Offset)))
	}
	if n.Latency > 0 {
		parts = append(parts, i18n.Fill(u.SlowBy, sim.FormatDuration(n.Latency)))
	}
	return strings.Join(parts, " · ")
}

// Who names an actor as its lane does: a client by its letter, a node by
// its role or product name in the page's language, the learner as —.
func Who(actor string, u *i18n.UI) string {
	switch actor {
	case "", sim.Learner:
		return "—"
	case sim.NodeRedis:
		return u.Lock
	case sim.NodeStorage:
		return u.Storage
	case sim.Operator:
		return u.You
	}
	if len(actor) == 1 {
		return strings.ToUpper(actor) // a client
	}
	return NodeLabel(u, actor) // a node or a modelled service
}

// Validity is a Redlock holder's validity as its lane says it: until when,
// or, once now has passed it, that it is over (no time: beside the keys'
// own expiry a time read as the key's, and the label strip has no room
// for "validity ended at …").
func Validity(u *i18n.UI, until, now int64) string {
	if until <= now {
		return u.ValidEnded
	}
	return i18n.Fill(u.ValidUntil, sim.FormatMS(until))
}

// VerbWord is a verb's label in sc: in the replication model a node's
// down is a crash and its up a restart with nothing in memory, not a
// node cut off and reached again ("down/lost", "up/lost").
func VerbWord(u *i18n.UI, sc *sim.Scenario, verb string) string {
	if (verb == sim.NodeDown || verb == sim.NodeUp) && sc != nil && sc.Replicated {
		return u.Verb[verb+"/"+sim.NodeLostData]
	}
	return u.Verb[verb]
}

// Action says an action of scenario sc in the page's language: "A:
// pause", "wait 10s", "n3: restart".
func Action(u *i18n.UI, sc *sim.Scenario, a sim.Action) string {
	if a.Verb == sim.VerbCLI { // "you → storage: GET data:order:42:token"
		return u.You + " → " + Who(a.Who, u) + u.LabelSep() + rediscli.ShowCommand(a.Cmd)
	}
	arg := ""
	if a.Ms > 0 {
		arg = sim.FormatDuration(a.Ms)
	}
	label := i18n.Fill(VerbWord(u, sc, a.Verb), arg)
	switch a.Doer() {
	case sim.ByLearner:
		return label
	case sim.ToNode:
		return NodeLabel(u, a.Who) + u.LabelSep() + label
	}
	// "continue: {0}" has nothing to name here
	return strings.ToUpper(a.Who) + u.LabelSep() + strings.TrimRight(label, ": ：")
}

// Step is tl's action i in words, as Action says it, with what came of
// it where the words alone would mislead: "B: acquire" for an acquire
// the server refused reads as if B had the lock (readers took it so), so
// it says it was refused, and whether the client retries.
func Step(u *i18n.UI, tl *sim.Timeline, i int) string {
	a := tl.Actions[i]
	text := Action(u, tl.Scenario, a)
	if i < len(tl.After) && a.Verb == sim.VerbAcquire {
		switch tl.After[i] {
		case sim.StateTrying:
			text = i18n.Fill(u.AcquireRetries, text)
		case sim.StateIdle:
			text = i18n.Fill(u.AcquireRefused, text)
		}
	}
	return text
}

// ReplyText is the reply as the log shows it, or why there was none.
func ReplyText(e sim.Event, u *i18n.UI) string {
	switch {
	case e.Refused:
		return u.Refused
	case e.Lost:
		return e.Reply.String() + u.Paren(i18n.Fill(u.LostReply, strings.ToUpper(e.Actor)))
	}
	return EventReply(u, e)
}

// Verdict is what the storage did with a write: accepted, refused (by
// its check, with the token), already done, or an error reply (no check
// judged it: the script or the command failed, and the reply says why).
func Verdict(e sim.Event, u *i18n.UI) string {
	word := u.Rejected
	switch {
	case *e.Accepted:
		word = u.Accepted
	case AlreadyDone(e):
		word = u.AlreadyPaid
	case e.Reply.Kind == rediscli.ReplyError:
		return u.NotWritten
	}
	if e.Token > 0 { // "token 2 accepted": a # would read as the event log's number
		return i18n.Fill(u.Token, strconv.FormatInt(e.Token, 10)) + " " + word
	}
	return word
}

// AlreadyDone: a write the storage turned into a no-op because the same
// request was already applied (the idempotency key was taken). Not a
// refusal: the order is paid, once, which is what the client wanted.
func AlreadyDone(e sim.Event) bool {
	return e.Accepted != nil && !*e.Accepted && e.Script == "charge-once"
}

// ViolationText words a failure as this timeline had it: the sentence of
// its kind, chosen by what the checks knew when they raised it (sim's
// Violation.Hold and Why, Until), then the sentence of its circumstance.
// The catalog's keys: "kind/ended" (a condition someone ended, {2} when),
// "kind/hand/why" (a command typed by hand), "kind/why" (a circumstance
// that makes its own sentence), "kind/hold", "kind"; then "kind+why".
// {0} is who did it, {1} whom it hurt, named as their lanes name them.
func ViolationText(u *i18n.UI, v sim.Violation) string {
	args := []string{"", "", ""}
	for i, a := range v.Actors {
		if i < 2 {
			args[i] = Who(a, u)
		}
	}
	if v.Ended() {
		args[2] = sim.FormatMS(v.Until)
	}
	k := string(v.Kind)
	text := func(key string) string { return u.ViolationText[sim.ViolationKind(key)] }
	var base string
	clause := true
	switch {
	case v.Kind == sim.DoubleCharge && len(v.Actors) == 2 && v.Actors[0] == v.Actors[1]:
		base = u.ChargedTwiceBy // one client charged twice (a retry)
	case v.Ended():
		base, clause = text(k+"/ended"), false
		if v.Why != "" {
			base = text(k + "/ended/" + v.Why)
		}
	case len(v.Actors) > 0 && v.Actors[0] == sim.Operator:
		base, clause = text(k+"/hand/"+v.Why), false
	case len(v.Actors) > 1 && v.Actors[1] == sim.Operator && text(k+"/of-hand/"+v.Why) != "":
		base, clause = text(k+"/of-hand/"+v.Why), false // a value typed by hand
	case v.Why != "" && text(k+"/"+v.Why) != "":
		base, clause = text(k+"/"+v.Why), false
	case v.Hold != "":
		base = text(k + "/" + v.Hold)
	}
	if base == "" {
		base = u.ViolationText[v.Kind]
	}
	s := i18n.Fill(base, args...)
	if c := text(k + "+" + v.Why); clause && v.Why != "" && c != "" {
		s = i18n.Sentences(s, i18n.Fill(c, args...))
	}
	return u.Tidy(s)
}

// CommandText is the command as one line, a Lua body replaced by its
// name: a Redis command as redis-cli reads it (rediscli.ShowCommand), a
// model's in its own words.
func CommandText(u *i18n.UI, e sim.Event) string {
	if e.Model {
		return strings.Join(ModelCommand(u, e.Command), " ")
	}
	if e.Script != "" && len(e.Command) > 1 {
		return e.Command[0] + " ‹" + e.Script + ".lua› " + rediscli.ShowCommand(e.Command[2:])
	}
	return rediscli.ShowCommand(e.Command)
}

// KindNote is what the timeline says of an event that is not a command.
// A design's drop loses only the reply to the client's next storage
// write, and says so.
func KindNote(u *i18n.UI, e sim.Event) string {
	if e.Kind == sim.KindDrop && e.Text == sim.DropWrite {
		return u.DropWriteNote
	}
	return u.KindNote[e.Kind]
}

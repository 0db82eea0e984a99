package narrate

import (
	"strings"

	"locklab/sim"
	"locklab/sim/rediscli"
	"locklab/web/i18n"
)

// Narration is one event said once, in the page's language: who acted,
// what, to what, and how it came out. The event log, the picture's
// tooltips and the picture's text alternative all word an event from its
// Narration, so they cannot disagree (TestNarrationAgrees holds them to
// it).
type Narration struct {
	// Message: Actor sent a command to Target, which answered (Reply). A
	// happening (a key expiring, a session ending, a watch firing, a lost
	// connection, a pause) is not a message: it has no Target and is never
	// said to be "sent".
	Message bool
	Actor   string // as the lanes name it: "A", "Redis", "ZooKeeper", 「プライマリ」
	Target  string // where the command went, as the lanes name it ("" unless Message)
	What    string // the command (a script by its name) or what happened
	Reply   string // the answer as redis-cli prints it (a model's in the page's language), or why there is none
	Outcome Outcome
}

// Outcome is how an event came out, in one vocabulary for every surface.
type Outcome string

// The outcomes. An expiry is not a delete, a no-op is not a rejection, a
// lost connection is not an expired session.
const (
	Answered       Outcome = "answered"        // a reply with no verdict of its own
	Accepted       Outcome = "accepted"        // the storage took the write
	Rejected       Outcome = "rejected"        // the storage refused the write
	NoOp           Outcome = "no-op"           // already done (an idempotency key): nothing changed, as asked
	Refused        Outcome = "refused"         // the node was down: no answer at all
	ReplyLost      Outcome = "reply-lost"      // the server answered; the client never saw it
	Expired        Outcome = "expired"         // a key's TTL ran out
	SessionExpired Outcome = "session-expired" // a ZooKeeper session or etcd lease ran out
	ConnectionLost Outcome = "connection-lost" // a client's connection to the service broke
	Happened       Outcome = "happened"        // a pause, a resume, a crash, a node fault, a wait, work, a note
)

// Of narrates e in u's language.
func Of(u *i18n.UI, e sim.Event) Narration {
	n := Narration{Actor: Who(e.Actor, u), Outcome: Happened}
	switch e.Kind {
	case sim.KindCommand:
		n.What = CommandText(u, e)
		n.Reply = ReplyText(e, u)
		n.Outcome = Answered
		switch {
		case e.Purpose == sim.VerbDisconnect:
			n.Outcome = ConnectionLost
		case e.Purpose == sim.VerbReconnect:
			// the connection coming back: nothing is sent, the client
			// hears how its session fared
		case e.Purpose == "timeout":
			n.Outcome = SessionExpired
		case e.Actor != e.Node:
			n.Message, n.Target = true, Who(e.Node, u)
		}
		switch {
		case e.Refused:
			n.Outcome = Refused
		case e.Lost:
			n.Outcome = ReplyLost
		case e.Accepted != nil && *e.Accepted:
			n.Outcome = Accepted
		case AlreadyDone(e):
			n.Outcome = NoOp
		case e.Accepted != nil && e.Reply.Kind == rediscli.ReplyError:
			n.Outcome = Answered // no check refused it: the error reply says what failed
		case e.Accepted != nil:
			n.Outcome = Rejected
		}
	case sim.KindExpired:
		n.Outcome = Expired
		n.What = i18n.Fill(u.ExpiredAt, strings.ToUpper(e.Owner))
	case sim.KindNode:
		arg := ""
		if e.Ms > 0 {
			arg = sim.FormatDuration(e.Ms)
		}
		note := u.NodeNote[e.Text]
		if lost := u.NodeNote[e.Text+"/"+e.Value]; e.Value != "" && lost != "" {
			note = lost // a crash that lost the node's data, or its coming back empty
		}
		n.What = u.Tidy(i18n.Fill(note, n.Actor, arg))
	case sim.KindRedlock:
		n.What = u.Localize(e.Text)
	case sim.KindLocal, sim.KindLocalUnlock, sim.KindDrop, sim.KindGiveUp, sim.KindCut, sim.KindMend:
		n.What = KindNote(u, e)
	case sim.KindPause:
		n.What = u.Paused
	case sim.KindResume:
		n.What = u.Verb[sim.VerbResume]
	case sim.KindCrash:
		n.What = u.Crashed
	case sim.KindWork:
		n.What = u.Working + " " + sim.FormatDuration(e.Ms)
	case sim.KindWait:
		n.What = i18n.Fill(u.Verb[sim.VerbWait], sim.FormatDuration(e.Ms))
	}
	return n
}

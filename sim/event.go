// event.go holds what a replay produces: the event log, violations, and the
// spans the timeline picture is drawn from.

package sim

import "locklab/sim/rediscli"

// Kind tells what sort of thing an Event records.
type Kind string

// Event kinds.
const (
	KindCommand Kind = "command" // a client sent a command; Reply is what the server answered
	KindExpired Kind = "expired" // a key's TTL ran out (seen on the node, at that instant)
	KindPause   Kind = "pause"   // the learner froze a client
	KindResume  Kind = "resume"  // … and let it continue
	KindCrash   Kind = "crash"   // the client process died
	KindWork    Kind = "work"    // the client worked (virtual time passed inside a step)
	KindWait    Kind = "wait"    // the learner let time pass
	KindDrop    Kind = "drop"    // the learner made the network lose the client's next reply
	KindCut     Kind = "cut"     // a design's client lost its connection to Redis (its storage still answers)
	KindMend    Kind = "mend"    // … and has it back
	KindGiveUp  Kind = "give-up" // a client that tries once found the lock taken and stopped
	KindNode    Kind = "node"    // the learner did something to a node (Text: the verb)
	KindRedlock Kind = "redlock" // a Redlock client's verdict on one attempt (Text)
	// KindLocal / KindLocalUnlock: an in-process mutex taken or released
	// (a model: no server sees it).
	KindLocal       Kind = "local-lock"
	KindLocalUnlock Kind = "local-unlock"
)

// Learner is the actor of what the learner does to the world itself
// (letting time pass), as opposed to what a client does.
const Learner = "learner"

// ReplyShown is how many bytes of a reply a timeline keeps and shows
// (rediscli.Reply.Clip): a value can be up to a megabyte
// (sim/redisfront), and a page quotes a reply several times (the log, the
// picture, its text alternative), so a page of many long replies would be
// hundreds of megabytes. What is cut says so, with the whole length.
const ReplyShown = 512

// ChargesShown is how many of a ledger's charges a timeline lists
// (StorageView.Charges; ChargesLen counts them all).
const ChargesShown = 32

// Shown is a value as a timeline keeps and shows it: at most ReplyShown
// bytes, cut before a UTF-8 character rather than inside one, with "…"
// after a cut (the reply's Cut says the same of a reply).
func Shown(s string) string {
	if len(s) <= ReplyShown {
		return s
	}
	cut := ReplyShown
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// Event is one line of the event log.
type Event struct {
	Seq     int            // position in the log, from 0
	At      int64          // virtual ms
	Step    int            // index of the learner action that led to it
	Actor   string         // client id ("a") or node name ("redis", "storage")
	Kind    Kind           // see the Kind constants
	Node    string         // the server a command went to
	Command []string       // the command as sent, every argument
	Script  string         // for EVAL: the script's name (release, fenced-write)
	Reply   rediscli.Reply // what the server answered (String: as redis-cli prints it)
	Purpose string         // what the client meant: acquire, token, retry, write, release
	Token   int64          // the fencing token a write carried (0 if none)
	// Accepted is set on storage writes: whether the storage took it.
	Accepted *bool
	Key      string // for expiry: the key that expired
	// Value: for expiry, the value it held; for a node event,
	// NodeLostData when the node lost its data (a crash, and coming back
	// empty)
	Value string
	Owner string // for expiry: the client that value belonged to
	Ms    int64  // for work and wait: how long
	// Lost: the server did answer Reply, but the network lost it on the
	// way back: the client saw a timeout.
	Lost bool
	// Refused: the node was down; the command never arrived.
	Refused bool
	// Model: what this event shows comes from one of Lock Lab's labelled
	// models (replication, a Redlock client's own arithmetic, ZooKeeper,
	// etcd), not from a Redis server.
	Model bool
	// Text is a model event's own description (e.g. "3/5 OK, validity
	// 9886ms"), language-neutral.
	Text string
}

// Violation is an invariant broken at an instant. Actors[0] is the client
// that broke it, Actors[1] (if any) the one it hurt.
type Violation struct {
	At     int64
	Step   int
	Event  int // Seq of the event that revealed it
	Kind   ViolationKind
	Actors []string
	// Hold is what the hurt (or late) client's hold on the lock was,
	// so a sentence names it truly: a TTL lease, a key with no TTL, a
	// process's own mutex, a Redlock validity, a ZooKeeper session, an
	// etcd lease (the Hold constants).
	Hold string
	// Why words the circumstance that kind's sentence depends on (the
	// Why constants, by kind in kinds.go); "" for none.
	Why string
	// Until: for a condition that later ended (a key locked forever
	// that someone deleted), when; Actors[1] is who ended it. It may be
	// 0 (ended at the first instant): Ended says whether it ended.
	Until int64
}

// Ended reports whether v is a condition that later ended (Until, and
// Actors[1] who ended it).
func (v Violation) Ended() bool { return v.Kind == Orphan && len(v.Actors) > 1 }

// What a client's hold on the lock was (Violation.Hold).
const (
	HoldTTL      = "ttl"      // a key with a TTL: a lease by the client's own count
	HoldForever  = "no-ttl"   // a key with no TTL: it never runs out
	HoldMutex    = "mutex"    // an in-process mutex (a model): no server sees it
	HoldValidity = "validity" // a Redlock majority, valid until its computed end
	HoldSession  = "session"  // a ZooKeeper session (a model)
	HoldLease    = "lease"    // an etcd lease (a model)
)

// Why a client still acted as the holder (Overlap, LateWrite), or how a
// lock was taken from its owner (ForeignDelete, TwoHolders).
const (
	WhyPaused     = "paused"      // frozen: it could not notice
	WhyCutOff     = "cut-off"     // cut off from the service: it cannot know yet
	WhyCutRedis   = "cut-redis"   // a design's client cut off from Redis: its renewals fail unseen
	WhyUnaware    = "unaware"     // running, its own count had run out: it could have known
	WhyNone       = "none"        // (late write) no one took the lock after it
	WhyNewer      = "newer"       // (late write) Actors[1] took the lock after it and had not written
	WhyNewerWrote = "newer-wrote" // (late write, a write that adds) Actors[1] took it after and had written: both count
	WhyDeleted    = "deleted"     // (foreign delete) the key was deleted
	WhyReplaced   = "replaced"    // (foreign delete) the key was given another value
	WhyShortened  = "shortened"   // (foreign delete) a TTL set by hand ran out before the holder's own count
	WhyRenewed    = "renewed"     // (two holders) the lock was renewed, not taken
	WhyGaveTTL    = "ttl"         // (locked forever, ended) the key was given a TTL
	WhyTook       = "took"        // (lock refused) the refused acquire had set the key itself
	WhyLeftKey    = "left-key"    // (lock refused) a key of a client that no longer held the lock was there
	WhyKeyExpired = "key-expired" // (two holders) the holder's key expired before the TTL it counts by
)

// State is what a client is doing, for the lanes of the picture.
type State string

// Client states.
const (
	StateIdle     State = "idle"
	StateTrying   State = "trying"   // failed to acquire, retrying on its own
	StateChecking State = "checking" // read the key, found it free, about to set it
	StateWaiting  State = "waiting"  // waiting for the replica to acknowledge (WAIT)
	StateHolding  State = "holding"  // believes it holds the lock
	StateWorking  State = "working"  // holding, doing its work before a write
	StatePaused   State = "paused"   // frozen: nothing happens until resume
	StateCrashed  State = "crashed"
)

// Span is a stretch of time a client spent in one state. To is -1 while it
// lasts at the end of the timeline.
type Span struct {
	State State
	From  int64
	To    int64
}

// How a lock span ended.
const (
	EndExpired     = "expired"
	EndDeleted     = "deleted"
	EndOverwritten = "overwritten"
	EndLost        = "lost" // the node lost its data (restart, failover)
)

// LockSpan is a stretch of time a lock key existed with one value, as the
// node saw it: Owner is the client whose value it held, Expiry the instant
// its TTL would end (0 without TTL), End how it ended ("expired",
// "deleted", or "" while it lasts).
type LockSpan struct {
	Node      string
	Owner     string
	Value     string
	From      int64
	To        int64
	Expiry    int64
	End       string
	DeletedBy string
	// Key names the lock where it lives: the Redis key, or in a modelled
	// service the entry (a znode's path, an etcd key); Value there is
	// its token (czxid, create revision).
	Key string
	// FromEvent and EndEvent are the Seq of the events that began and
	// ended it: the command that set the value, and the command, expiry
	// or node fault that ended it (-1: none, or still open).
	FromEvent, EndEvent int
	// handTTL: the key's TTL was last set by a command typed by hand, so
	// its expiry is the operator's doing, not the lease the owner counts.
	handTTL bool
}

// ClientView is a client at the end of the timeline.
type ClientView struct {
	ID    string
	State State
	Token int64  // token of its current or last acquisition
	Value string // lock value of its current or last acquisition
	Spans []Span
	// Pending is the command `next` would send ("" if none): the client
	// stopped between two commands of one program.
	Pending string
	// ValidUntil: a Redlock holder's end of validity (0 if not Redlock).
	ValidUntil int64
}

// NodeView is a lock node at the end of the timeline.
type NodeView struct {
	Name    string
	Down    bool
	Offset  int64 // its clock's lead over the world's, ms
	Latency int64 // ms each command takes to reach it
	Primary bool  // the node clients talk to, in a replicated scenario
	// Replicated: a node of the replication model, where down is a crash
	// that loses what the node held (Redlock's down is a node cut off).
	Replicated bool
	// LockTTL is the lock key's remaining TTL on this node, ms, as the
	// server reports it (-1: no TTL, -2: no key), like PTTL.
	LockTTL int64
	Model   bool // a modelled service (ZooKeeper, etcd), not a Redis node
}

// StorageView is the protected resource at the end of the timeline.
type StorageView struct {
	Kind      StoreKind
	Value     string // "" if nothing was ever written (Shown)
	LastToken int64  // the token key's value as a number (0 without one)
	HasToken  bool   // the token key exists
	TokenText string // the token key's value as stored, Shown (a hand may store any)
	Fenced    bool
	Charges   []string // for a ledger: who each charge came from (the first ChargesShown)
	// ChargesLen is how many charges the ledger holds.
	ChargesLen int
}

// Timeline is everything a replay produced.
type Timeline struct {
	Scenario *Scenario
	Opts     Opts
	Actions  []Action
	// After is, for each action a client took, that client's state right
	// after it ("" for the learner's and the nodes' actions): whether an
	// acquire got the lock, which the action's own words cannot say.
	After []State
	Now   int64
	// ActionAt is the instant the last action began: before its first
	// event when its first command takes time to arrive (a slow node).
	ActionAt   int64
	Events     []Event
	Violations []Violation
	Clients    []ClientView
	Locks      []LockSpan
	Storage    StorageView
	// LockTTL is the remaining TTL of the lock key now, ms (0 if absent).
	LockTTL int64
	// Allowed lists, per client id, the verbs that are possible now.
	Allowed map[string][]string
	// Nodes are the lock nodes; NodeAllowed the node verbs possible now.
	Nodes       []NodeView
	NodeAllowed map[string][]string
}

// kinds.go is the one vocabulary of failures: every kind the checks can
// report, what it means, and how bad it is. The lessons' event log, the
// Lab and the design grade all read this list, so one name never means
// two things on two pages.

package sim

// ViolationKind names a failure the checks report.
type ViolationKind string

// Class is how bad a kind of failure is. The verdicts summarise by class:
// harm is the protected data gone wrong; a broken lock is the lock's own
// promise failing while its leases were valid; what a lease allows is
// what every lock with a time limit lets happen to a holder that outlives
// its lease — not harm by itself, and the storage's check is what must
// keep it harmless.
type Class int

// The classes, worst first.
const (
	ClassHarm Class = iota
	ClassBroken
	ClassAllowed
)

// The kinds, in the order every surface lists them (worst class first).
const (
	// StaleWrite (harm): the storage accepted a write of an older holder
	// after it had accepted a newer holder's: it went back in time, a
	// lost update. (Older and newer: in the order the lock was granted.)
	// Not for a write that adds to a total: both amounts count, in any
	// order.
	StaleWrite ViolationKind = "stale-write"
	// DoubleCharge (harm): the order was charged more than once.
	DoubleCharge ViolationKind = "double-charge"
	// RepeatedWrite (harm, designs whose write adds to a total): the
	// storage accepted one acquisition's write twice — a retry after a
	// lost reply applied again, so the job counts twice.
	RepeatedWrite ViolationKind = "repeated-write"
	// TwoHolders (broken lock): a client got or renewed the lock while
	// another holder's lease had not run out.
	TwoHolders ViolationKind = "two-holders"
	// DoubleWrite (broken lock): two holders whose leases were both
	// valid both had their writes accepted: the lock let the protected
	// work run twice at once. The writes landed in the order the lock was
	// handed out (otherwise it is a stale write), so the record holds the
	// newer holder's: what the data shows is not harmed, but a job that
	// must run once ran twice (a ledger shows it: a double charge).
	DoubleWrite ViolationKind = "double-write"
	// ForeignDelete (broken lock): a client's release or extend, or a
	// command typed by hand, deleted or replaced a lock that someone
	// still held (Why: deleted or replaced). An acquire that replaces a
	// key is judged as an acquisition (TwoHolders, Overlap).
	ForeignDelete ViolationKind = "foreign-delete"
	// NotReleased (broken lock, designs): after a release the key still
	// held the releaser's value.
	NotReleased ViolationKind = "not-released"
	// Orphan (broken lock): the holder crashed and its key has no TTL:
	// the lock is held forever — until someone deletes the key by hand
	// (Until, and Actors[1] who).
	Orphan ViolationKind = "orphan"
	// LingeringLock (broken lock, designs): the holder crashed and the
	// server keeps its key for more than twice the TTL the client asked
	// for (ARGV[2]): a TTL in the wrong unit or hard-coded, so a crash
	// blocks everyone for that long. Not forever (Orphan), but no client
	// counts on it.
	LingeringLock ViolationKind = "lingering-lock"
	// LeaseOverrun (broken lock): a client got the lock after another
	// holder's lease ran out while that holder was still doing its work:
	// the job is not shorter than the lease and nothing renews it. No fault
	// was needed — every run of this work overruns — so it is the
	// design's failure, not what a lease allows (lesson 3: "just a bug").
	LeaseOverrun ViolationKind = "lease-overrun"
	// LockRefused (broken lock, designs): a client's acquire was refused
	// while no one held the lock: no client was inside and the key, if
	// any, was no crashed holder's (whose TTL is what must free it). A
	// lock that nobody can take does not work, however safe it is.
	LockRefused ViolationKind = "lock-refused"
	// WriteRefused (broken lock, designs): the storage refused the write
	// of the newest holder while its lease was valid: no newer holder
	// existed for the refusal to protect. A storage that refuses every
	// write keeps the data safe by never taking it.
	WriteRefused ViolationKind = "write-refused"
	// ScriptError (broken lock, designs): one of the design's scripts
	// answered an error at run time (Why: the piece; the error is the
	// event's reply, as Redis printed it). A client cannot tell an
	// error from a refusal, and neither is what the author meant.
	ScriptError ViolationKind = "script-error"
	// Overlap (allowed by a lease): a client got the lock after another
	// holder's lease had run out while that holder still acted as the
	// holder (Why: it was paused, or cut off from the service, or it ran
	// on past its own count). Two clients act as holders; every
	// lease-based lock allows it.
	Overlap ViolationKind = "overlap"
	// LateWrite (allowed by a lease): the storage accepted a write from a
	// client whose lease had run out, and no newer holder had written
	// yet, so nothing newer was overwritten (Why: no one took the lock
	// after it, or Actors[1] did and had not written). Fencing can only refuse such
	// a write once a newer token has reached the storage; until then the
	// late write is still the newest, and letting it through is the fence
	// working.
	LateWrite ViolationKind = "late-write"
)

// Kinds is every kind, in the order surfaces list them.
var Kinds = []ViolationKind{StaleWrite, DoubleCharge, RepeatedWrite,
	TwoHolders, DoubleWrite, ForeignDelete, NotReleased, Orphan, LingeringLock,
	LeaseOverrun, LockRefused, WriteRefused, ScriptError, Overlap, LateWrite}

// ClassOf is the class of kind k.
func ClassOf(k ViolationKind) Class {
	switch k {
	case StaleWrite, DoubleCharge, RepeatedWrite:
		return ClassHarm
	case TwoHolders, DoubleWrite, ForeignDelete, NotReleased, Orphan, LingeringLock,
		LeaseOverrun, LockRefused, WriteRefused, ScriptError:
		return ClassBroken
	}
	return ClassAllowed
}

// Fails reports whether any of vs harmed the data or broke the lock: a
// timeline that shows only what every lease allows (or nothing) is a
// schedule, not a counterexample.
func Fails(vs []Violation) bool {
	for _, v := range vs {
		if ClassOf(v.Kind) != ClassAllowed {
			return true
		}
	}
	return false
}

// KindsFor lists the kinds a world of scenario sc can report, in the
// order of Kinds: a ledger is charged twice, a record goes back in time
// or is written twice (a late write can reach either); only a design can repeat a write that adds or
// fail to release.
func KindsFor(sc *Scenario) []ViolationKind {
	var out []ViolationKind
	for _, k := range Kinds {
		switch k {
		case DoubleCharge:
			if sc.Storage != StoreCharges {
				continue
			}
		case StaleWrite, DoubleWrite:
			if sc.Storage != StoreFenced {
				continue
			}
		case RepeatedWrite:
			if sc.Scripted == nil || !sc.Scripted.Adds() {
				continue
			}
		case NotReleased, LingeringLock, LockRefused, WriteRefused, ScriptError:
			if sc.Scripted == nil {
				continue
			}
		}
		out = append(out, k)
	}
	return out
}

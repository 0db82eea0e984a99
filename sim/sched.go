// sched.go holds the discrete-event queue: what clients and nodes do by
// themselves while virtual time passes (retries, expiry).

package sim

import "container/heap"

// timer is something due at a virtual instant. Ties run in the order they
// were scheduled, so replays never depend on map order or goroutines.
type timer struct {
	at   int64
	seq  int
	kind timerKind
	who  string // client id for retries
}

type timerKind int

const (
	timerRetry      timerKind = iota // a trying client sends SET NX PX again
	timerExpiry                      // a lock key's TTL ends: look at the node
	timerWriteRetry                  // a write whose reply was lost is sent again
	timerReplicate                   // a change of the primary reaches the replica
	timerSession                     // a silent client's session/lease times out
)

type queue struct {
	items []timer
	seq   int
}

func (q *queue) Len() int { return len(q.items) }
func (q *queue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}
func (q *queue) Swap(i, j int) { q.items[i], q.items[j] = q.items[j], q.items[i] }
func (q *queue) Push(x any)    { q.items = append(q.items, x.(timer)) }
func (q *queue) Pop() any {
	t := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return t
}

func (q *queue) schedule(at int64, kind timerKind, who string) {
	q.seq++
	heap.Push(q, timer{at: at, seq: q.seq, kind: kind, who: who})
}

// next pops the earliest timer due at or before limit.
func (q *queue) next(limit int64) (timer, bool) {
	if len(q.items) == 0 || q.items[0].at > limit {
		return timer{}, false
	}
	return heap.Pop(q).(timer), true
}

// cancel drops every timer of a client (it crashed).
func (q *queue) cancel(who string) {
	kept := q.items[:0]
	for _, t := range q.items {
		if t.who != who {
			kept = append(kept, t)
		}
	}
	q.items = kept
	heap.Init(q)
}

// runUntil lets virtual time pass up to limit: every timer due runs at its
// own instant, in order, then the clock rests at limit.
func (w *World) runUntil(limit int64) {
	for {
		t, ok := w.queue.next(limit)
		if !ok {
			break
		}
		w.advance(t.at)
		switch t.kind {
		case timerRetry:
			w.retry(t.who)
		case timerExpiry:
			w.observe("")
		case timerWriteRetry:
			w.rewrite(t.who)
		case timerReplicate:
			w.deliver()
		case timerSession:
			w.sessionTimer(t.who)
		}
	}
	w.advance(limit)
}

// hub.go is one instance's side of the live class: the set of its
// own SSE subscribers, fed from Redis pub/sub. The hub holds no room
// state; it only routes each room's notices ("move 7", "votes 12") to the
// streams this process has open for that room. Every instance runs one,
// on one pattern subscription (every room's channel), confirmed before
// the hub accepts a stream, so no instance misses a move published after
// a student's page was drawn. The streams an instance holds are its own
// resource, so it counts them here, per client first (the address a
// stream comes from), then in all.

package class

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

// notice is one event of a room, as published.
type notice struct {
	Kind string // move, end (to everyone); votes, here (to teachers)
	Seq  int64
}

// subscriber is one open SSE stream.
type subscriber struct {
	code    string
	teacher bool
	sid     string // the student's id ("" for the teacher or without a cookie)
	client  string // the address it comes from
	ch      chan notice
	gone    chan struct{} // closed when the hub drops the stream
	once    sync.Once
}

func (s *subscriber) drop() { s.once.Do(func() { close(s.gone) }) }

type hubRoom struct {
	students map[*subscriber]struct{}
	teachers map[*subscriber]struct{}
	sids     map[string]int // open student streams per student id
}

type classHub struct {
	mu      sync.Mutex
	rooms   map[string]*hubRoom
	n       int // open streams
	max     int
	clients map[string]int // open streams per client
	perMax  int            // of which one client may hold
	buf     int
	closed  bool
	dropped int64 // streams dropped for falling behind (for tests and logs)
	ps      *redis.PubSub
	wg      sync.WaitGroup
	done    chan struct{}
}

var errHubClosed = errors.New("class: shutting down")
var errTooManyStreams = errors.New("class: too many streams")
var errClientStreams = errors.New("class: too many streams from one client")

func newClassHub(maxStreams, perClient, buf int) *classHub {
	return &classHub{rooms: map[string]*hubRoom{}, max: maxStreams, clients: map[string]int{}, perMax: perClient,
		buf: buf, done: make(chan struct{})}
}

// start subscribes to every room's channel and waits for Redis to confirm.
func (h *classHub) start(ctx context.Context, rdb redis.UniversalClient) error {
	ps := rdb.PSubscribe(ctx, classChannelPrefix+"*")
	if _, err := ps.Receive(ctx); err != nil { // the subscription's confirmation
		_ = ps.Close()
		return err
	}
	h.ps = ps
	ch := ps.Channel(redis.WithChannelSize(1024))
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		for m := range ch {
			code := strings.TrimPrefix(m.Channel, classChannelPrefix)
			kind, seq, ok := strings.Cut(m.Payload, " ")
			if !ok {
				continue
			}
			n, err := strconv.ParseInt(seq, 10, 64)
			if err != nil {
				continue
			}
			h.dispatch(code, notice{Kind: kind, Seq: n})
		}
	}()
	return nil
}

// subscribe registers a stream from client, within that client's share
// (errClientStreams) and then the instance's limit (errTooManyStreams);
// sid is the student's id, if their cookie came with it.
func (h *classHub) subscribe(code string, teacher bool, sid, client string) (*subscriber, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errHubClosed
	}
	if h.clients[client] >= h.perMax {
		return nil, errClientStreams
	}
	if h.n >= h.max {
		return nil, errTooManyStreams
	}
	s := &subscriber{code: code, teacher: teacher, sid: sid, client: client, ch: make(chan notice, h.buf), gone: make(chan struct{})}
	r := h.rooms[code]
	if r == nil {
		r = &hubRoom{students: map[*subscriber]struct{}{}, teachers: map[*subscriber]struct{}{}, sids: map[string]int{}}
		h.rooms[code] = r
	}
	if teacher {
		r.teachers[s] = struct{}{}
	} else {
		r.students[s] = struct{}{}
		if sid != "" {
			r.sids[sid]++
		}
	}
	h.n++
	h.clients[client]++
	return s, nil
}

// unsubscribe forgets a stream (idempotent).
func (h *classHub) unsubscribe(s *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.removeLocked(s)
}

func (h *classHub) removeLocked(s *subscriber) {
	r := h.rooms[s.code]
	if r == nil {
		return
	}
	set := r.students
	if s.teacher {
		set = r.teachers
	}
	if _, ok := set[s]; !ok {
		return
	}
	delete(set, s)
	if !s.teacher && s.sid != "" {
		if r.sids[s.sid]--; r.sids[s.sid] <= 0 {
			delete(r.sids, s.sid)
		}
	}
	h.n--
	if h.clients[s.client]--; h.clients[s.client] <= 0 {
		delete(h.clients, s.client)
	}
	if len(r.students) == 0 && len(r.teachers) == 0 {
		delete(h.rooms, s.code)
	}
}

// dispatch hands a notice to this instance's streams of the room without
// ever waiting: a stream whose buffer is full is dropped (its browser
// reconnects and catches up from Last-Event-ID), so one slow phone costs
// the others nothing. Votes and presence go to teachers only.
func (h *classHub) dispatch(code string, n notice) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.rooms[code]
	if r == nil {
		return
	}
	send := func(set map[*subscriber]struct{}) {
		for s := range set {
			select {
			case s.ch <- n:
			default:
				if !s.teacher || (n.Kind != "votes" && n.Kind != "here") {
					h.dropped++
					h.removeLocked(s)
					s.drop()
				}
				// a teacher's queue full of vote notices: the stream
				// re-reads the counts anyway, so one more can be skipped
			}
		}
	}
	send(r.teachers)
	if n.Kind == "move" || n.Kind == "end" {
		send(r.students)
	}
}

// streamsOf is how many streams this instance holds open for student sid
// in room code: when a student's last stream closes (their other tab is
// still open?) the count of who is here changes only if this is 0.
func (h *classHub) streamsOf(code, sid string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.rooms[code]; r != nil {
		return r.sids[sid]
	}
	return 0
}

// streams is the number of open streams (for tests).
func (h *classHub) streams() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// close ends every stream and the subscription; the handlers return.
func (h *classHub) close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	for _, r := range h.rooms {
		for s := range r.students {
			s.drop()
		}
		for s := range r.teachers {
			s.drop()
		}
	}
	h.rooms = map[string]*hubRoom{}
	h.n = 0
	h.clients = map[string]int{}
	close(h.done)
	h.mu.Unlock()
	if h.ps != nil {
		_ = h.ps.Close()
	}
	h.wg.Wait()
}

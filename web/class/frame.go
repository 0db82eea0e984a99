// frame.go makes a move cheap to fan out. Before, every student's
// stream sent only "move 7" and every phone then fetched its page: a
// thousand requests, each reading the room and the answers from Redis and
// drawing the same step again. Now the first stream of this instance that
// sends a move reads the room and the answers of its checkpoints once (one
// frame per room and move), draws each distinct student fragment once (per
// site address, language and the student's own answers: a handful), and
// frames it as one Server-Sent Event; every other stream writes the same
// bytes. The phone swaps the fragment in without asking the server again.

package class

import (
	"bytes"
	"context"
	"errors"
	"locklab/web/i18n"
	"locklab/web/links"
	"net/http"
	"net/url"
	"strconv"
	"sync"
)

// moveFrames holds, per room, the newest move as this instance's student
// streams send it. It is a cache of what Redis says, never the truth: a
// frame older than the move a stream was told about is read again.
type moveFrames struct {
	mu sync.Mutex
	m  map[string]*moveFrame
}

// moveFrame is one room at one move: its state and the answers of the
// checkpoints its page shows (read together), and the SSE events drawn
// from them so far.
type moveFrame struct {
	ready chan struct{} // closed once room, votes and err are set
	room  *Room
	votes [2]map[string]string // the answered step's, the asked step's
	err   error

	mu     sync.Mutex
	events map[string][]byte // by site, language and the student's answers
}

func (f *moveFrame) built() bool {
	select {
	case <-f.ready:
		return true
	default:
		return false
	}
}

// get returns the frame of room code at move seq or later; build reads it
// from Redis, once, however many streams ask at the same moment.
func (fs *moveFrames) get(code string, seq int64, build func() (*Room, [2]map[string]string, error)) (*moveFrame, error) {
	for {
		fs.mu.Lock()
		f := fs.m[code]
		if f == nil || (f.built() && (f.err != nil || f.room.Seq < seq)) {
			f = &moveFrame{ready: make(chan struct{}), events: map[string][]byte{}}
			if fs.m == nil || len(fs.m) >= 1024 { // rooms that ended are forgotten here
				fs.m = map[string]*moveFrame{}
			}
			fs.m[code] = f
			fs.mu.Unlock()
			f.room, f.votes, f.err = build()
			close(f.ready)
			return f, f.err
		}
		fs.mu.Unlock()
		<-f.ready
		if f.err != nil {
			return nil, f.err
		}
		if f.room.Seq >= seq {
			return f, nil
		}
		// a frame read before this move: the next turn reads it again
	}
}

// forget drops a room's frame (it ended).
func (fs *moveFrames) forget(code string) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	delete(fs.m, code)
}

// event is the SSE event of key, drawn by draw the first time.
func (f *moveFrame) event(key string, draw func() ([]byte, error)) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b, ok := f.events[key]; ok {
		return b, nil
	}
	b, err := draw()
	if err != nil {
		return nil, err
	}
	f.events[key] = b
	return b, nil
}

// frameEvent frames an HTML fragment as one Server-Sent Event: every line
// of it a data: line (the browser joins them with newlines again).
func frameEvent(id int64, kind string, html []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(html) + len(html)/16 + 64)
	b.WriteString("id: ")
	b.WriteString(strconv.FormatInt(id, 10))
	b.WriteString("\nevent: ")
	b.WriteString(kind)
	b.WriteByte('\n')
	html = bytes.ReplaceAll(html, []byte("\r\n"), []byte("\n"))
	html = bytes.ReplaceAll(html, []byte("\r"), []byte("\n"))
	for line := range bytes.SplitSeq(html, []byte("\n")) {
		b.WriteString("data: ")
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// studentMove is the "move" event carrying student sid's fragment of room
// code at move seq or later, and the move it shows. ended: the room is
// gone. On any other failure it returns nil, and the stream sends the bare
// notice instead (the phone then fetches its page, as before).
func (s *Handler) studentMove(r *http.Request, u *i18n.UI, code, sid string, seq int64) (ev []byte, at int64, ended bool) {
	c := s.class
	ctx := context.WithoutCancel(r.Context()) // one stream leaving does not fail the others' frame
	f, err := c.frames.get(code, seq, func() (*Room, [2]map[string]string, error) {
		room, err := c.store.get(ctx, code)
		if err != nil {
			return nil, [2]map[string]string{}, err
		}
		p, _ := s.stepOf(u.Lang, room.Slug, room.Do, room.Opt)
		return room, c.store.votes(ctx, code, p.Answered, p.Ask), nil
	})
	if err != nil {
		return nil, 0, errors.Is(err, errNoRoom)
	}
	mineR, mineQ := "", ""
	if sid != "" {
		mineR, mineQ = f.votes[0][sid], f.votes[1][sid]
	}
	key := s.Absolute(r, "") + "|" + u.Lang + "|" + mineR + "|" + mineQ
	ev, err = f.event(key, func() ([]byte, error) {
		// drawn as the page's own fragment request would be
		fr := r.Clone(ctx)
		fr.Method = http.MethodGet
		fr.URL = &url.URL{Path: links.Join(u.Lang, code)}
		fr.RequestURI = fr.URL.RequestURI()
		fr.Header = r.Header.Clone()
		fr.Header.Set("HX-Request", "true")
		cs, e := s.studentPage(fr, u, f.room, f.votes, sid)
		if e != nil {
			return nil, e
		}
		html, _, e := s.RenderBytes(fr, u, ClassStudentFragment(cs))
		if e != nil {
			return nil, e
		}
		return frameEvent(f.room.Seq, "move", html), nil
	})
	if err != nil {
		return nil, 0, false
	}
	return ev, f.room.Seq, false
}

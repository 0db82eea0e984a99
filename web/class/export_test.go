package class

import (
	"context"
	"locklab/web/site"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/redis/go-redis/v9"
)

// What the external tests (package class_test, which build the whole
// site through web.New) need of the class's insides.

const (
	TeacherPrefix = teacherPrefix
	SidCookie     = sidCookie
	RoomsKey      = roomsKey
)

var (
	NormCode   = normCode
	Spaced     = spaced
	HashSecret = hashSecret
	RandomHex  = randomHex
	MembersKey = membersKey
	NewCode    = newCode
)

// Counts are the votes per choice of a room's checkpoint step.
func (c *Classroom) Counts(ctx context.Context, code string, step, choices int) ([]int, error) {
	return c.store.counts(ctx, code, step, choices)
}

// Connected is how many students a room counts.
func (c *Classroom) Connected(ctx context.Context, code string) int {
	return c.store.connected(ctx, code)
}

// Room reads a room.
func (c *Classroom) Room(ctx context.Context, code string) (*Room, error) {
	return c.store.get(ctx, code)
}

// SetClock makes now the clock of presence and slots (before any
// request).
func (c *Classroom) SetClock(now func() time.Time) { c.store.now = now }

// StudentCookie is a new student's cookie as the room's first visit
// would set it (signed), for load tests that skip that visit.
func (c *Classroom) StudentCookie(ctx context.Context, code string) (*http.Cookie, error) {
	room, err := c.store.get(ctx, code)
	if err != nil {
		return nil, err
	}
	w := httptest.NewRecorder()
	if _, err := (&Handler{Site: &site.Site{}, class: c}).issueStudent(w, httptest.NewRequest(http.MethodGet, "/", nil), room); err != nil {
		return nil, err
	}
	return w.Result().Cookies()[0], nil
}

// RDB is the class Redis.
func (c *Classroom) RDB() redis.UniversalClient { return c.store.rdb }

// SetBareMoves makes streams send bare "move N" notices (see bareMoves).
func (c *Classroom) SetBareMoves(on bool) { c.bareMoves = on }

// DropStreams ends every stream this instance holds for a room, as a
// dropped connection would.
func (c *Classroom) DropStreams(code string) {
	h := c.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.rooms[code]; r != nil {
		for s := range r.students {
			h.removeLocked(s)
			s.drop()
		}
	}
}

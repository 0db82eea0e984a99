package class

import (
	"context"

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

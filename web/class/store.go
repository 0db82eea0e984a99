// store.go keeps live-class rooms in Redis: the one place in Lock Lab
// with server state. Every instance of the
// app talks to the same Redis, so any instance can serve any student or
// the teacher; no room lives in process memory.
//
// Keys of room CODE (all with the room's sliding expiry):
//
//	lockclass:CODE          hash: slug, do, opt, seq (moves), vseq (votes),
//	                        ask (the checkpoint step now asked, 0 none),
//	                        rN (checkpoint step N revealed), n (steps),
//	                        secret (SHA-256 of the teacher's secret),
//	                        go (1 once the teacher started the class: before,
//	                        the teacher's screen is the lobby), lines (how
//	                        many of the step's dialog lines the room has
//	                        seen in presenter mode; absent or -1: all),
//	                        client (the address that created it, whose
//	                        share of rooms it takes), lock (1: the
//	                        teacher let no one new join)
//	lockclass:CODE:members  set of student ids that joined (the teacher's
//	                        "joined", bounded by Limits.Joined): a student
//	                        joins when their cookie first comes back
//	                        (page, stream or answer), not on the
//	                        cookie-less first visit
//	lockclass:CODE:here     sorted set: student id → counted until (ms);
//	                        the students here hold the room's seats
//	lockclass:CODE:votes:N  hash: student id → choice, for checkpoint step N
//	lockclass:CODE:chal, lockclass:CODE:chalnames: a posed challenge's
//	                        results and the names typed (challenge.go)
//	lockclass:CODE:summary  list: the tallies of the lessons the class left
//	                        for the next one ("slug\tstep\tn1,n2,…")
//	lockclass:rooms         sorted set: code → slot held until (ms), the
//	                        rooms limit (a room nobody attends frees its
//	                        slot after Limits.Unattended)
//	lockclass:client:ADDR   sorted set: the same, for the rooms client ADDR
//	                        created (its share, Limits.RoomsPerClient)
//	lockclass:sidkey        the key that signs student ids (identity.go)
//	lockclass-ended:CODE    after End class, for EndedFor: the lesson and
//	                        state the class ended at (slug, do, opt), so a
//	                        reload says "ended", not "no such code", and the
//	                        teacher's secret, for the summary
//	lockclass-ended:CODE:summary  after End class: every lesson's tallies
//
// and the pub/sub channel lockclass:ch:CODE, which carries "kind seq".

package class

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// codeAlphabet has no 0/O and no 1/I: a code read aloud or typed from a
// projector has nothing to confuse. 32 letters, so each byte's low five
// bits pick one uniformly.
const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// CodeLen is a room code's length: 40 random bits.
const CodeLen = 8

var (
	errNoRoom      = errors.New("class: no such room")
	errRoomsFull   = errors.New("class: too many rooms")
	errClientRooms = errors.New("class: too many rooms from one client")
	errClassFull   = errors.New("class: room is full")
	errLocked      = errors.New("class: room locked")
	errNotAsked    = errors.New("class: that question is not open")
	errBadSession  = errors.New("class: no student id")
	errNotPosed    = errors.New("class: that challenge is not the one posed")
)

// EndedFor is how long a room's code, after End class, still says the
// class ended (rather than "no class with this code").
const EndedFor = 2 * time.Hour

// endedError: the room was ended by its teacher (recently), at this lesson
// state.
type endedError struct{ Slug, Do, Opt string }

func (e *endedError) Error() string        { return "class: ended" }
func (e *endedError) Is(target error) bool { return target == errNoRoom }

func endedKey(code string) string { return "lockclass-ended:" + code }

// summaryKey and endedSummaryKey hold a class's tallies, one row per
// checkpoint asked: "slug\tstep\tn1,n2,…" (how many chose each answer).
func summaryKey(code string) string      { return "lockclass:" + code + ":summary" }
func endedSummaryKey(code string) string { return endedKey(code) + ":summary" }

// Limits bound what one room, one client and one instance take: each
// client's share first, then the server's. Zero fields take the
// defaults.
type Limits struct {
	// StudentsPerRoom is how many students one room seats (1,000). A
	// seat is held by a student counted here now (present): identities
	// that joined and went away free theirs, so a room cannot be filled
	// by identities that never show up again, and a student who joined
	// before always comes back.
	StudentsPerRoom int
	// Joined is how many identities may join one room in its life
	// (5,000): it bounds the room's keys in Redis (members, presence,
	// answers) whoever comes and goes. Each identity costs its client a
	// join (limits.Join), and the teacher sees the count and can lock
	// the room long before.
	Joined int
	// Rooms is how many rooms hold a slot on the class Redis (500), and
	// RoomsPerClient how many of them one client may hold (20: a school
	// of 20 teachers behind one address starting classes at once). A
	// room holds its slot while someone attends it (a teacher's move,
	// page or stream, a student's page or stream) and frees it after
	// Unattended without.
	Rooms, RoomsPerClient int
	// Streams is how many SSE connections one instance holds (4,000),
	// StreamsPerClient how many of them one client may hold (400: a
	// class of 60 behind one school NAT holds about 120, each phone's
	// stream, a second tab and a reconnection overlapping the old
	// connection; 400 leaves room for a lecture of 200 behind one
	// address, and 10 clients are needed to take all 4,000).
	Streams, StreamsPerClient int
	// Idle: a room in use (started, or joined by a student) ends after
	// this long without its teacher (4 h).
	Idle time.Duration
	// Unattended: a room nobody attended this long frees its slot (30
	// min); one nobody ever joined or started ends then too.
	Unattended time.Duration
	Heartbeat  time.Duration // SSE comment interval (15 s)
	Buffer     int           // events queued per subscriber before it is dropped (16)
}

func (l Limits) withDefaults() Limits {
	if l.StudentsPerRoom <= 0 {
		l.StudentsPerRoom = 1000
	}
	if l.Joined <= 0 {
		l.Joined = 5 * l.StudentsPerRoom
	}
	if l.Rooms <= 0 {
		l.Rooms = 500
	}
	if l.RoomsPerClient <= 0 {
		l.RoomsPerClient = 20
	}
	if l.Streams <= 0 {
		l.Streams = 4000
	}
	if l.StreamsPerClient <= 0 {
		l.StreamsPerClient = 400
	}
	if l.Idle <= 0 {
		l.Idle = 4 * time.Hour
	}
	if l.Unattended <= 0 {
		l.Unattended = 30 * time.Minute
	}
	l.Unattended = min(l.Unattended, l.Idle)
	if l.Heartbeat <= 0 {
		l.Heartbeat = 15 * time.Second
	}
	if l.Buffer <= 0 {
		l.Buffer = 16
	}
	return l
}

// streamPresence: an open stream keeps its student counted this long past
// each heartbeat (three missed heartbeats: the phone is gone; a stream
// that closes stops counting at once).
func (l Limits) streamPresence() time.Duration { return 3 * l.Heartbeat }

// pagePresence: a page load with the student's cookie (Refresh, the page
// after an answer) counts them this long, so a student without
// JavaScript, who reads a step and presses Refresh at the next, stays
// counted in between (2 minutes with the default heartbeat). The
// teacher's bar says so.
func (l Limits) pagePresence() time.Duration { return 8 * l.Heartbeat }

type classStore struct {
	rdb redis.UniversalClient
	lim Limits
	// now is the clock of presence and slots (time.Now; a test's own);
	// the rooms' expiry is Redis's own
	now func() time.Time
}

func (s *classStore) nowMS() int64 { return s.now().UnixMilli() }

// Room is one room's state as a page needs it.
type Room struct {
	Code, Slug, Do, Opt string
	Seq                 int64
	Ask                 int // the checkpoint step (1-based) now open for answers; 0 none
	Steps               int
	Lines               int    // dialog lines of the step the room has seen (-1: all)
	Started             bool   // the teacher started the class (before: the lobby)
	Chal                string // the challenge posed to the room ("" none; challenge.go)
	Locked              bool   // the teacher lets no one new join
	revealed            map[int]bool
	secret              string // SHA-256 hex of the teacher secret
	client              string // the address that created it
	sidKey              []byte // the key student ids are signed with, read with the room (identity.go)
}

// Revealed reports whether checkpoint step n (1-based) was shown.
func (r *Room) Revealed(n int) bool { return r.revealed[n] }

func roomKey(code string) string    { return "lockclass:" + code }
func membersKey(code string) string { return "lockclass:" + code + ":members" }
func hereKey(code string) string    { return "lockclass:" + code + ":here" }

// invitedKey is the first visitors given the room's page, each with the
// time it was given (inviteScript, a sorted set); presentLua names it as
// its members key and ":invitedat".
func invitedKey(code string) string { return membersKey(code) + ":invitedat" }

// lateKey counts the phones let in after a lock on a first visit within
// the grace (lateMax); presentLua names it as its members key and ":late".
func lateKey(code string) string { return membersKey(code) + ":late" }

// inviteGrace is how long a first visit given the room's page before the
// lock may still come in after it (inviteScript): long enough for a
// phone to send its cookie back (a reload, a tap), too short for ids
// collected ahead of the lock to be a way past it.
const (
	inviteGrace   = 2 * time.Minute
	inviteGraceMS = "120000" // inviteGrace as the scripts read it (TestInviteGraceMS)
	// lateMax is how many phones given the page within the grace may come
	// in after the lock: the few a room has whose cookie had not come
	// back yet; ids collected by the hundred in the grace get no further.
	lateMax = "5"
)

func votesKey(code string, step int) string {
	return "lockclass:" + code + ":votes:" + strconv.Itoa(step)
}
func channelOf(code string) string { return classChannelPrefix + code }

// clientRoomsKey holds the slots of the rooms client created (a room
// made before rooms knew their client counts under "-").
func clientRoomsKey(client string) string {
	if client == "" {
		client = "-"
	}
	return "lockclass:client:" + client
}

const (
	roomsKey           = "lockclass:rooms"
	classChannelPrefix = "lockclass:ch:"
)

// newCode draws a room code from crypto/rand.
func newCode() (string, error) {
	var b [CodeLen]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	for i := range b {
		b[i] = codeAlphabet[b[i]&31]
	}
	return string(b[:]), nil
}

// normCode turns what a student typed into a code, or "" if it cannot be
// one: case, spaces and dashes are forgiven, the letters the alphabet
// leaves out are not guessed at.
func normCode(s string) string {
	if len(s) > 64 {
		return ""
	}
	s = strings.ToUpper(strings.NewReplacer(" ", "", "-", "", "\u3000", "").Replace(strings.TrimSpace(s)))
	if len(s) != CodeLen {
		return ""
	}
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(codeAlphabet, s[i]) < 0 {
			return ""
		}
	}
	return s
}

func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// isTeacher compares the cookie's secret with the room's in constant time.
func (r *Room) isTeacher(secret string) bool {
	if secret == "" || r.secret == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(hashSecret(secret)), []byte(r.secret)) == 1
}

func (s *classStore) ttlSeconds() int64 { return int64(s.lim.Idle / time.Second) }

// unattendedSeconds is how long a room nobody attends keeps its slot,
// and one nobody joined or started lives.
func (s *classStore) unattendedSeconds() int64 { return int64(s.lim.Unattended / time.Second) }

// slotUntil is until when (ms) a room attended now holds its slot.
func (s *classStore) slotUntil() int64 { return s.nowMS() + s.lim.Unattended.Milliseconds() }

// keepSlotLua defines keepSlot(rooms, clientRooms, code, until, ttl):
// the room holds its slot in the rooms limit and in its client's share
// until then (ms). A room whose slot had lapsed takes one again, even
// past the limit: the limit stops new rooms, never one in use.
const keepSlotLua = `
local function keepSlot(rooms, clientRooms, code, untl, ttl)
  redis.call('ZADD', rooms, untl, code)
  redis.call('ZADD', clientRooms, untl, code)
  redis.call('EXPIRE', clientRooms, ttl)
end`

// createScript makes a room if its client's share (-2) and the server's
// rooms (-1) have a slot free, once the slots nobody attends are dropped;
// 0: the code is taken. A new room lives Unattended (ARGV[3]) until it
// is in use (touchScript).
var createScript = redis.NewScript(keepSlotLua + `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[11]) then return -2 end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return -1 end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'slug', ARGV[4], 'do', ARGV[5], 'opt', ARGV[6], 'seq', 1, 'vseq', 0,
  'ask', ARGV[7], 'n', ARGV[8], 'secret', ARGV[9], 'client', ARGV[13])
redis.call('EXPIRE', KEYS[1], ARGV[3])
keepSlot(KEYS[2], KEYS[3], ARGV[10], ARGV[12], ARGV[3])
return 1`)

// create makes a room at the given state for client (its address); it
// returns the code and the teacher's secret (128 bits, hex), which only
// the teacher's cookie holds.
func (s *classStore) create(ctx context.Context, client, slug, do, opt string, ask, steps int) (code, secret string, err error) {
	var sb [16]byte
	if _, err := rand.Read(sb[:]); err != nil {
		return "", "", err
	}
	secret = hex.EncodeToString(sb[:])
	for range 5 { // a collision in 2^40 codes is rare; retry a few times
		if code, err = newCode(); err != nil {
			return "", "", err
		}
		n, err := createScript.Run(ctx, s.rdb, []string{roomKey(code), roomsKey, clientRoomsKey(client)},
			s.nowMS(), s.lim.Rooms, s.unattendedSeconds(), slug, do, opt, ask, steps, hashSecret(secret), code,
			s.lim.RoomsPerClient, s.slotUntil(), client).Int()
		if err != nil {
			return "", "", err
		}
		switch n {
		case -2:
			return "", "", errClientRooms
		case -1:
			return "", "", errRoomsFull
		case 1:
			return code, secret, nil
		}
	}
	return "", "", errors.New("class: no free code")
}

// goneRooms reports, for each of codes, whether the room is gone: neither
// running nor recently ended (its summary kept). One round trip.
func (s *classStore) goneRooms(ctx context.Context, codes []string) ([]bool, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.IntCmd, len(codes))
	for i, code := range codes {
		cmds[i] = pipe.Exists(ctx, roomKey(code), endedKey(code))
	}
	if len(codes) > 0 {
		if _, err := pipe.Exec(ctx); err != nil {
			return nil, err
		}
	}
	out := make([]bool, len(codes))
	for i, c := range cmds {
		out[i] = c.Val() == 0
	}
	return out, nil
}

// seq is how many moves room code has had (errNoRoom: it is gone): what
// a stream's heartbeat reads to catch up a lost notice.
func (s *classStore) seq(ctx context.Context, code string) (int64, error) {
	n, err := s.rdb.HGet(ctx, roomKey(code), "seq").Int64()
	if errors.Is(err, redis.Nil) {
		return 0, errNoRoom
	}
	return n, err
}

// get reads a room, with the key its students' ids are signed with (in
// the same round trip); errNoRoom if it ended or expired.
func (s *classStore) get(ctx context.Context, code string) (*Room, error) {
	pipe := s.rdb.Pipeline()
	hm := pipe.HGetAll(ctx, roomKey(code))
	key := pipe.Get(ctx, sidKeyKey)
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	m := hm.Val()
	if len(m) == 0 || m["slug"] == "" {
		if e, err := s.rdb.HGetAll(ctx, endedKey(code)).Result(); err == nil && e["slug"] != "" {
			return nil, &endedError{Slug: e["slug"], Do: e["do"], Opt: e["opt"]}
		}
		return nil, errNoRoom
	}
	r := &Room{Code: code, Slug: m["slug"], Do: m["do"], Opt: m["opt"], Chal: m["chal"], secret: m["secret"], revealed: map[int]bool{},
		client: m["client"], Locked: m["lock"] == "1", sidKey: decodeKey(key.Val())}
	r.Seq, _ = strconv.ParseInt(m["seq"], 10, 64)
	r.Ask, _ = strconv.Atoi(m["ask"])
	r.Steps, _ = strconv.Atoi(m["n"])
	r.Lines = -1
	if v, ok := m["lines"]; ok {
		r.Lines, _ = strconv.Atoi(v)
	}
	r.Started = m["go"] == "1"
	for k := range m {
		if n, ok := strings.CutPrefix(k, "r"); ok {
			if i, err := strconv.Atoi(n); err == nil {
				r.revealed[i] = true
			}
		}
	}
	return r, nil
}

// touchScript slides every key of a room forward and keeps its slot; run
// on each of the teacher's moves, pages and heartbeats, so a room in use
// (started, or joined by a student) ends after Idle (ARGV[1]) without
// its teacher, and one that is not after Unattended (ARGV[5]).
var touchScript = redis.NewScript(keepSlotLua + `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local ttl = ARGV[5]
if redis.call('HGET', KEYS[1], 'go') == '1' or redis.call('SCARD', KEYS[2]) > 0 then ttl = ARGV[1] end
redis.call('EXPIRE', KEYS[1], ttl)
redis.call('EXPIRE', KEYS[2], ttl)
redis.call('EXPIRE', KEYS[3], ttl)
redis.call('EXPIRE', KEYS[1] .. ':summary', ttl)
redis.call('EXPIRE', KEYS[1] .. ':chal', ttl)
redis.call('EXPIRE', KEYS[1] .. ':chalnames', ttl)
for i = 1, tonumber(ARGV[2]) do redis.call('EXPIRE', KEYS[1] .. ':votes:' .. i, ttl) end
keepSlot(KEYS[4], KEYS[5], ARGV[4], ARGV[3], ARGV[5])
return 1`)

func (s *classStore) touch(ctx context.Context, r *Room) error {
	n, err := touchScript.Run(ctx, s.rdb, []string{roomKey(r.Code), membersKey(r.Code), hereKey(r.Code), roomsKey, clientRoomsKey(r.client)},
		s.ttlSeconds(), r.Steps, s.slotUntil(), r.Code, s.unattendedSeconds()).Int()
	if err == nil && n == 0 {
		err = errNoRoom
	}
	return err
}

// moveScript sets the room's state and the lines of it the room has
// seen, opens or closes the question, marks a checkpoint step revealed
// when the room reaches it (a teacher who moves on without revealing
// has still closed it), starts the class, and counts the move.
var moveScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('HSET', KEYS[1], 'do', ARGV[1], 'opt', ARGV[2], 'ask', ARGV[3], 'lines', ARGV[4])
if ARGV[5] == '1' then redis.call('HSET', KEYS[1], 'go', 1) end
return redis.call('HINCRBY', KEYS[1], 'seq', 1)`)

// move changes the room's state (only the teacher's handler calls it)
// and tells every instance; start: the class begins (if it had not).
func (s *classStore) move(ctx context.Context, r *Room, do, opt string, ask, lines int, start bool) (int64, error) {
	seq, err := moveScript.Run(ctx, s.rdb, []string{roomKey(r.Code)}, do, opt, ask, lines, boolInt(start)).Int64()
	if err != nil {
		return 0, err
	}
	if seq < 0 {
		return 0, errNoRoom
	}
	_ = s.touch(ctx, r)
	return seq, s.publish(ctx, r.Code, "move", seq)
}

// revealScript closes the question open at step ARGV[1] and shows its
// answer, the room staying on its step (the class discusses it before
// the teacher moves on); -2: that question is not the one open.
var revealScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HGET', KEYS[1], 'ask') ~= ARGV[1] then return -2 end
redis.call('HSET', KEYS[1], 'r' .. ARGV[1], 1)
return redis.call('HINCRBY', KEYS[1], 'seq', 1)`)

// reveal shows the answer of the question open at step and tells every
// instance; errNotAsked if that question is not the one open.
func (s *classStore) reveal(ctx context.Context, r *Room, step int) (int64, error) {
	seq, err := revealScript.Run(ctx, s.rdb, []string{roomKey(r.Code)}, step).Int64()
	switch {
	case err != nil:
		return 0, err
	case seq == -1:
		return 0, errNoRoom
	case seq == -2:
		return 0, errNotAsked
	}
	_ = s.touch(ctx, r)
	return seq, s.publish(ctx, r.Code, "move", seq)
}

// nextLessonScript takes the room, its students and its code on to
// another lesson: the tallies of the lesson left go to the summary
// (ARGV[6…]), its answers and reveals are cleared (step numbers start
// again), and the state is the new lesson's first step: its first line
// only, if the teacher was showing the room a line at a time (presenter
// mode), so no phone runs ahead of the projector while its page loads.
var nextLessonScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local old = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
for i = 1, old do
  redis.call('DEL', KEYS[1] .. ':votes:' .. i)
  redis.call('HDEL', KEYS[1], 'r' .. i)
end
for i = 6, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], redis.call('TTL', KEYS[1])) end
local lines = -1
if tonumber(redis.call('HGET', KEYS[1], 'lines') or '-1') >= 0 then lines = 1 end
redis.call('HSET', KEYS[1], 'slug', ARGV[1], 'do', ARGV[2], 'opt', ARGV[3], 'ask', ARGV[4], 'n', ARGV[5], 'lines', lines, 'go', 1)
return redis.call('HINCRBY', KEYS[1], 'seq', 1)`)

// nextLesson moves room r on to lesson slug at (do, opt), keeping its
// code and students; rows are the tallies of the lesson it leaves.
func (s *classStore) nextLesson(ctx context.Context, r *Room, slug, do, opt string, ask, steps int, rows []string) (int64, error) {
	args := []any{slug, do, opt, ask, steps}
	for _, row := range rows {
		args = append(args, row)
	}
	seq, err := nextLessonScript.Run(ctx, s.rdb, []string{roomKey(r.Code), summaryKey(r.Code)}, args...).Int64()
	if err != nil {
		return 0, err
	}
	if seq < 0 {
		return 0, errNoRoom
	}
	r.Slug, r.Steps = slug, steps
	_ = s.touch(ctx, r)
	return seq, s.publish(ctx, r.Code, "move", seq)
}

// tallies is how many students chose each of n[i] choices at checkpoint
// steps[i], in one round trip.
func (s *classStore) tallies(ctx context.Context, code string, steps []int, n []int) ([][]int, error) {
	pipe := s.rdb.Pipeline()
	cmds := make([]*redis.StringSliceCmd, len(steps))
	for i, step := range steps {
		cmds[i] = pipe.HVals(ctx, votesKey(code, step))
	}
	if len(steps) > 0 {
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return nil, err
		}
	}
	out := make([][]int, len(steps))
	for i, c := range cmds {
		out[i] = make([]int, n[i])
		for _, v := range c.Val() {
			if k, err := strconv.Atoi(v); err == nil && k >= 1 && k <= n[i] {
				out[i][k-1]++
			}
		}
	}
	return out, nil
}

// summary is the rows the class left behind (the lessons it moved on
// from, or after End class every lesson's), and whether the class ended;
// secret is the ended class's teacher's (SHA-256), "" while it runs.
func (s *classStore) summary(ctx context.Context, code string) (rows []string, ended bool, secret string, err error) {
	if rows, err = s.rdb.LRange(ctx, summaryKey(code), 0, -1).Result(); err != nil {
		return nil, false, "", err
	}
	if n, err := s.rdb.Exists(ctx, roomKey(code)).Result(); err != nil || n == 1 {
		return rows, false, "", err
	}
	e, err := s.rdb.HGetAll(ctx, endedKey(code)).Result()
	if err != nil || e["slug"] == "" {
		return nil, false, "", errNoRoom
	}
	rows, err = s.rdb.LRange(ctx, endedSummaryKey(code), 0, -1).Result()
	return rows, true, e["secret"], err
}

// boolInt is a flag as a script argument: 1 or 0.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (s *classStore) publish(ctx context.Context, code, kind string, seq int64) error {
	return s.rdb.Publish(ctx, channelOf(code), kind+" "+strconv.FormatInt(seq, 10)).Err()
}

// presentScript is a student's id coming back to the room (their page
// with the cookie, their stream, an answer): it admits them (idempotent)
// unless the room is locked or full, keeps them counted until ARGV[5]
// (ms), never shortening a later deadline already set, and keeps the
// room's slot (someone attends it). 2: they were not counted before, and
// the teachers' streams are told ("here", in the same round trip: a
// class that scans the QR code at once makes 1,000 of these), 1: they
// were.
var presentScript = redis.NewScript(presentLua + keepSlotLua + `
local p = present(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
if p > 0 then keepSlot(KEYS[4], KEYS[5], ARGV[8], ARGV[9], ARGV[10]) end
if p == 2 then redis.call('PUBLISH', ARGV[7], 'here 0') end
return p`)

// presentLua defines present(room, members, here, sid, seats, joined,
// now, until, idle) for the scripts that admit a student: -1 no room,
// -2 locked (and sid never joined, nor was given the room's page before
// the lock, within inviteGrace of it: members .. ':invitedat', see
// invite), 0 full, 1 counted
// already, 2 newly counted. The "here" sorted set scores each student with the time (ms)
// until which they count; the ones past it are trimmed here, so the
// students here are its size. A student who joined before is always let
// back; a new one needs the room unlocked, a seat (fewer than seats
// here) and room in its members (fewer than joined). The first member
// puts the room in use: it lives Idle (idle, in seconds) from then.
const presentLua = `
local function present(room, members, here, sid, seats, joined, now, untl, idle)
  if redis.call('EXISTS', room) == 0 then return -1 end
  local ttl = redis.call('TTL', room)
  redis.call('ZREMRANGEBYSCORE', here, '-inf', now)
  if redis.call('SISMEMBER', members, sid) == 0 then
    if redis.call('HGET', room, 'lock') == '1' then
      local given = redis.call('ZSCORE', members .. ':invitedat', sid)
      if not given or tonumber(given) < tonumber(now) - ` + inviteGraceMS + ` then return -2 end
      local late = redis.call('INCR', members .. ':late')
      if ttl > 0 then redis.call('EXPIRE', members .. ':late', ttl) end
      if late > ` + lateMax + ` then return -2 end
    end
    local n = redis.call('SCARD', members)
    if n >= tonumber(joined) or redis.call('ZCARD', here) >= tonumber(seats) then return 0 end
    if n == 0 and ttl > 0 and ttl < tonumber(idle) then
      redis.call('EXPIRE', room, idle)
      ttl = tonumber(idle)
    end
    redis.call('SADD', members, sid)
    if ttl > 0 then redis.call('EXPIRE', members, ttl) end
  end
  local old = redis.call('ZSCORE', here, sid)
  if not old or tonumber(old) < tonumber(untl) then redis.call('ZADD', here, untl, sid) end
  if ttl > 0 then redis.call('EXPIRE', here, ttl) end
  if old then return 1 end
  return 2
end`

// admitErr is the error of present's answer n (nil: admitted).
func admitErr(n int64) error {
	switch n {
	case -1:
		return errNoRoom
	case -2:
		return errLocked
	case 0:
		return errClassFull
	}
	return nil
}

// present admits student sid to room r (idempotent; errLocked or
// errClassFull if they cannot join) and counts them as here for the next
// d, telling the teachers' streams if the count went up. Only a request
// that carries the student's cookie calls it: a first visit (no cookie
// yet) is not a student until their cookie comes back, so a reload in a
// private tab, a link preview or a curl check is never counted.
func (s *classStore) present(ctx context.Context, r *Room, sid string, d time.Duration) error {
	now := s.nowMS()
	n, err := presentScript.Run(ctx, s.rdb, []string{roomKey(r.Code), membersKey(r.Code), hereKey(r.Code), roomsKey, clientRoomsKey(r.client)},
		sid, s.lim.StudentsPerRoom, s.lim.Joined, now, now+d.Milliseconds(), s.ttlSeconds(), channelOf(r.Code),
		r.Code, s.slotUntil(), s.unattendedSeconds()).Int64()
	if err != nil {
		return err
	}
	return admitErr(n)
}

// inviteScript notes that student id ARGV[1] was given the room's page
// on a first visit (no cookie yet): they do not count until the cookie
// comes back (present), but a lock that comes in between does not shut
// them out, since from where they sit they had joined. At most ARGV[2]
// are kept (the join share already bounds how fast they come).
var inviteScript = redis.NewScript(`
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', tonumber(ARGV[3]) - ` + inviteGraceMS + `)
if redis.call('ZCARD', KEYS[2]) < tonumber(ARGV[2]) then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1]) end
local ttl = redis.call('TTL', KEYS[1])
if ttl > 0 then redis.call('EXPIRE', KEYS[2], ttl) end
return 1`)

// invite: see inviteScript. A visit given the page counts for
// inviteGrace: a lock within it does not shut that phone out (from where
// it sits, it had joined), one later does, so ids collected before a
// lock are no way past it (security retest N1).
func (s *classStore) invite(ctx context.Context, code, sid string) error {
	return inviteScript.Run(ctx, s.rdb, []string{roomKey(code), invitedKey(code)}, sid, s.lim.Joined, s.nowMS()).Err()
}

// roomScript is present's check for a new student alone, admitting no
// one: -1 no room, -2 locked, 0 full, 1 a seat is free.
var roomScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HGET', KEYS[1], 'lock') == '1' then return -2 end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[3])
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) or redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[1]) then return 0 end
return 1`)

// roomForOneMore reports errLocked or errClassFull if no new student can
// join: the first visit's check, so a locked or full room says so at
// once (the join itself waits for the cookie to come back).
func (s *classStore) roomForOneMore(ctx context.Context, code string) error {
	n, err := roomScript.Run(ctx, s.rdb, []string{roomKey(code), membersKey(code), hereKey(code)},
		s.lim.StudentsPerRoom, s.lim.Joined, s.nowMS()).Int64()
	if err != nil {
		return err
	}
	return admitErr(n)
}

// answerScript records a student's choice, or their new one, only while
// the question is open: the check and the write are one step, so an
// answer cannot slip in or change after the reveal; one vote per
// student, a replayed one changes nothing (0).
// The answer carries the student's cookie, so it also admits them and
// counts them here (present), as their page would; -3 and -4: they may
// not join (full, locked).
var answerScript = redis.NewScript(presentLua + `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HGET', KEYS[1], 'ask') ~= ARGV[3] or redis.call('HEXISTS', KEYS[1], 'r' .. ARGV[3]) == 1 then return -2 end
local p = present(KEYS[1], KEYS[3], KEYS[4], ARGV[1], ARGV[4], ARGV[7], ARGV[5], ARGV[6], ARGV[8])
if p == 0 then return -3 end
if p == -2 then return -4 end
if redis.call('HGET', KEYS[2], ARGV[1]) == ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], redis.call('TTL', KEYS[1]))
return redis.call('HINCRBY', KEYS[1], 'vseq', 1)`)

func (s *classStore) answer(ctx context.Context, code string, step int, sid string, choice int) error {
	now := s.nowMS()
	n, err := answerScript.Run(ctx, s.rdb, []string{roomKey(code), votesKey(code, step), membersKey(code), hereKey(code)},
		sid, choice, step, s.lim.StudentsPerRoom, now, now+s.lim.pagePresence().Milliseconds(), s.lim.Joined, s.ttlSeconds()).Int64()
	switch {
	case err != nil:
		return err
	case n == -1:
		return errNoRoom
	case n == -2:
		return errNotAsked
	case n == -3:
		return errClassFull
	case n == -4:
		return errLocked
	case n == 0:
		return nil // the same answer again
	}
	return s.publish(ctx, code, "votes", n)
}

// lockScript locks (ARGV[1] = 1) or unlocks the room, and counts a vote
// notice so the teachers' bars show it.
var lockScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if ARGV[1] == '1' then redis.call('HSET', KEYS[1], 'lock', 1) else redis.call('HDEL', KEYS[1], 'lock') end
return redis.call('HINCRBY', KEYS[1], 'vseq', 1)`)

// lock lets no one new join room r (on), or lets them again, and tells
// the teachers' streams.
func (s *classStore) lock(ctx context.Context, r *Room, on bool) error {
	n, err := lockScript.Run(ctx, s.rdb, []string{roomKey(r.Code)}, boolInt(on)).Int64()
	if err != nil {
		return err
	}
	if n < 0 {
		return errNoRoom
	}
	_ = s.touch(ctx, r)
	return s.publish(ctx, r.Code, "here", 0)
}

// counts is how many students chose each of n choices at checkpoint step.
func (s *classStore) counts(ctx context.Context, code string, step, n int) ([]int, error) {
	if step <= 0 {
		return make([]int, n), nil
	}
	t, err := s.tallies(ctx, code, []int{step}, []int{n})
	if err != nil {
		return nil, err
	}
	return t[0], nil
}

// votes reads the answers (student id → choice) of two checkpoint steps
// (0: none) in one round trip; a step without answers, or a failed read,
// gives an empty map.
func (s *classStore) votes(ctx context.Context, code string, steps ...int) [2]map[string]string {
	var out [2]map[string]string
	var cmds [2]*redis.MapStringStringCmd
	pipe := s.rdb.Pipeline()
	for i, step := range steps[:min(len(steps), 2)] {
		if step > 0 {
			cmds[i] = pipe.HGetAll(ctx, votesKey(code, step))
		}
	}
	if pipe.Len() > 0 {
		_, _ = pipe.Exec(ctx)
	}
	for i, c := range cmds {
		if c != nil {
			out[i], _ = c.Result()
		}
	}
	return out
}

// gone stops counting a student whose last stream closed.
func (s *classStore) gone(ctx context.Context, code, sid string) {
	if sid != "" {
		s.rdb.ZRem(ctx, hereKey(code), sid)
	}
}

// connected is how many students count as here now (see present).
func (s *classStore) connected(ctx context.Context, code string) int {
	n, _ := s.rdb.ZCount(ctx, hereKey(code), "("+strconv.FormatInt(s.nowMS(), 10), "+inf").Result()
	return int(n)
}

// joined is how many identities have joined the room (here or not).
func (s *classStore) joined(ctx context.Context, code string) int {
	n, _ := s.rdb.SCard(ctx, membersKey(code)).Result()
	return int(n)
}

// endSummaryScript keeps a class's summary past its end, for EndedFor.
var endSummaryScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[1])
return 1`)

// end removes every key of the room and tells every instance, whose
// streams for it then close.
func (s *classStore) end(ctx context.Context, r *Room, rows []string) error {
	if len(rows) > 0 {
		vals := make([]any, len(rows))
		for i, row := range rows {
			vals[i] = row
		}
		if err := s.rdb.RPush(ctx, summaryKey(r.Code), vals...).Err(); err != nil {
			return err
		}
	}
	if err := endSummaryScript.Run(ctx, s.rdb, []string{summaryKey(r.Code), endedSummaryKey(r.Code)}, int64(EndedFor/time.Second)).Err(); err != nil && !errors.Is(err, redis.Nil) {
		return err
	}
	keys := []string{roomKey(r.Code), membersKey(r.Code), invitedKey(r.Code), lateKey(r.Code), hereKey(r.Code), chalKey(r.Code), chalNamesKey(r.Code)}
	for i := 1; i <= r.Steps; i++ {
		keys = append(keys, votesKey(r.Code, i))
	}
	pipe := s.rdb.TxPipeline()
	pipe.Del(ctx, keys...)
	pipe.ZRem(ctx, roomsKey, r.Code)
	pipe.ZRem(ctx, clientRoomsKey(r.client), r.Code)
	pipe.HSet(ctx, endedKey(r.Code), "slug", r.Slug, "do", r.Do, "opt", r.Opt, "secret", r.secret)
	pipe.Expire(ctx, endedKey(r.Code), EndedFor)
	if _, err := pipe.Exec(ctx); err != nil {
		return err
	}
	return s.publish(ctx, r.Code, "end", r.Seq+1)
}

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
//	                        seen in presenter mode; absent or -1: all)
//	lockclass:CODE:members  set of student ids that joined (the size limit):
//	                        a student joins when their cookie first comes
//	                        back (page, stream or answer), not on the
//	                        cookie-less first visit
//	lockclass:CODE:here     sorted set: student id → counted until (ms)
//	lockclass:CODE:votes:N  hash: student id → choice, for checkpoint step N
//	lockclass:CODE:chal, lockclass:CODE:chalnames: a posed challenge's
//	                        results and the names typed (challenge.go)
//	lockclass:CODE:summary  list: the tallies of the lessons the class left
//	                        for the next one ("slug\tstep\tn1,n2,…")
//	lockclass:rooms         sorted set: code → expiry (ms), the rooms limit
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
	errNoRoom     = errors.New("class: no such room")
	errRoomsFull  = errors.New("class: too many rooms")
	errClassFull  = errors.New("class: room is full")
	errNotAsked   = errors.New("class: that question is not open")
	errBadSession = errors.New("class: no student id")
	errNotPosed   = errors.New("class: that challenge is not the one posed")
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

// Limits bound what one room and one instance take. Zero fields take
// the defaults.
type Limits struct {
	StudentsPerRoom int           // students who may join one room (1,000)
	Rooms           int           // live rooms on the class Redis (500)
	Streams         int           // SSE connections one instance holds (4,000)
	Idle            time.Duration // a room ends after this long without its teacher (4 h)
	Heartbeat       time.Duration // SSE comment interval (15 s)
	Buffer          int           // events queued per subscriber before it is dropped (16)
}

func (l Limits) withDefaults() Limits {
	if l.StudentsPerRoom <= 0 {
		l.StudentsPerRoom = 1000
	}
	if l.Rooms <= 0 {
		l.Rooms = 500
	}
	if l.Streams <= 0 {
		l.Streams = 4000
	}
	if l.Idle <= 0 {
		l.Idle = 4 * time.Hour
	}
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
}

// Room is one room's state as a page needs it.
type Room struct {
	Code, Slug, Do, Opt string
	Seq                 int64
	Ask                 int // the checkpoint step (1-based) now open for answers; 0 none
	Steps               int
	Lines               int    // dialog lines of the step the room has seen (-1: all)
	Started             bool   // the teacher started the class (before: the lobby)
	Chal                string // the challenge posed to the room ("" none; challenge.go)
	revealed            map[int]bool
	secret              string // SHA-256 hex of the teacher secret
}

// Revealed reports whether checkpoint step n (1-based) was shown.
func (r *Room) Revealed(n int) bool { return r.revealed[n] }

func roomKey(code string) string    { return "lockclass:" + code }
func membersKey(code string) string { return "lockclass:" + code + ":members" }
func hereKey(code string) string    { return "lockclass:" + code + ":here" }
func votesKey(code string, step int) string {
	return "lockclass:" + code + ":votes:" + strconv.Itoa(step)
}
func channelOf(code string) string { return classChannelPrefix + code }

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

var createScript = redis.NewScript(`
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return -1 end
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'slug', ARGV[4], 'do', ARGV[5], 'opt', ARGV[6], 'seq', 1, 'vseq', 0,
  'ask', ARGV[7], 'n', ARGV[8], 'secret', ARGV[9])
if ARGV[11] ~= '0' then redis.call('HSET', KEYS[1], 'r' .. ARGV[11], 1) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], now + 1000 * tonumber(ARGV[3]), ARGV[10])
return 1`)

// create makes a room at the given state; it returns the code and the
// teacher's secret (128 bits, hex), which only the teacher's cookie holds.
func (s *classStore) create(ctx context.Context, slug, do, opt string, ask, answered, steps int) (code, secret string, err error) {
	var sb [16]byte
	if _, err := rand.Read(sb[:]); err != nil {
		return "", "", err
	}
	secret = hex.EncodeToString(sb[:])
	for range 5 { // a collision in 2^40 codes is rare; retry a few times
		if code, err = newCode(); err != nil {
			return "", "", err
		}
		n, err := createScript.Run(ctx, s.rdb, []string{roomKey(code), roomsKey},
			time.Now().UnixMilli(), s.lim.Rooms, s.ttlSeconds(), slug, do, opt, ask, steps, hashSecret(secret), code, answered).Int()
		if err != nil {
			return "", "", err
		}
		switch n {
		case -1:
			return "", "", errRoomsFull
		case 1:
			return code, secret, nil
		}
	}
	return "", "", errors.New("class: no free code")
}

// get reads a room; errNoRoom if it ended or expired.
// seq is how many moves room code has had (errNoRoom: it is gone): what
// a stream's heartbeat reads to catch up a lost notice.
func (s *classStore) seq(ctx context.Context, code string) (int64, error) {
	n, err := s.rdb.HGet(ctx, roomKey(code), "seq").Int64()
	if errors.Is(err, redis.Nil) {
		return 0, errNoRoom
	}
	return n, err
}

func (s *classStore) get(ctx context.Context, code string) (*Room, error) {
	m, err := s.rdb.HGetAll(ctx, roomKey(code)).Result()
	if err != nil {
		return nil, err
	}
	if len(m) == 0 || m["slug"] == "" {
		if e, err := s.rdb.HGetAll(ctx, endedKey(code)).Result(); err == nil && e["slug"] != "" {
			return nil, &endedError{Slug: e["slug"], Do: e["do"], Opt: e["opt"]}
		}
		return nil, errNoRoom
	}
	r := &Room{Code: code, Slug: m["slug"], Do: m["do"], Opt: m["opt"], Chal: m["chal"], secret: m["secret"], revealed: map[int]bool{}}
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

// touchScript slides every key of a room forward; run on each of the
// teacher's moves and heartbeats, so a room ends after Idle without its
// teacher.
var touchScript = redis.NewScript(`
if redis.call('EXPIRE', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('EXPIRE', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[3], ARGV[1])
redis.call('EXPIRE', KEYS[1] .. ':summary', ARGV[1])
redis.call('EXPIRE', KEYS[1] .. ':chal', ARGV[1])
redis.call('EXPIRE', KEYS[1] .. ':chalnames', ARGV[1])
for i = 1, tonumber(ARGV[2]) do redis.call('EXPIRE', KEYS[1] .. ':votes:' .. i, ARGV[1]) end
redis.call('ZADD', KEYS[4], tonumber(ARGV[3]) + 1000 * tonumber(ARGV[1]), ARGV[4])
return 1`)

func (s *classStore) touch(ctx context.Context, r *Room) error {
	n, err := touchScript.Run(ctx, s.rdb, []string{roomKey(r.Code), membersKey(r.Code), hereKey(r.Code), roomsKey},
		s.ttlSeconds(), r.Steps, time.Now().UnixMilli(), r.Code).Int()
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
redis.call('HSET', KEYS[1], 'do', ARGV[1], 'opt', ARGV[2], 'ask', ARGV[3], 'lines', ARGV[5])
if ARGV[6] == '1' then redis.call('HSET', KEYS[1], 'go', 1) end
if ARGV[4] ~= '0' then redis.call('HSET', KEYS[1], 'r' .. ARGV[4], 1) end
return redis.call('HINCRBY', KEYS[1], 'seq', 1)`)

// move changes the room's state (only the teacher's handler calls it)
// and tells every instance; start: the class begins (if it had not).
func (s *classStore) move(ctx context.Context, r *Room, do, opt string, ask, reveal, lines int, start bool) (int64, error) {
	seq, err := moveScript.Run(ctx, s.rdb, []string{roomKey(r.Code)}, do, opt, ask, reveal, lines, boolInt(start)).Int64()
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
// (ARGV[7…]), its answers and reveals are cleared (step numbers start
// again), and the state is the new lesson's first step.
var nextLessonScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local old = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
for i = 1, old do
  redis.call('DEL', KEYS[1] .. ':votes:' .. i)
  redis.call('HDEL', KEYS[1], 'r' .. i)
end
for i = 7, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('EXPIRE', KEYS[2], redis.call('TTL', KEYS[1])) end
redis.call('HSET', KEYS[1], 'slug', ARGV[1], 'do', ARGV[2], 'opt', ARGV[3], 'ask', ARGV[4], 'n', ARGV[5], 'lines', -1, 'go', 1)
if ARGV[6] ~= '0' then redis.call('HSET', KEYS[1], 'r' .. ARGV[6], 1) end
return redis.call('HINCRBY', KEYS[1], 'seq', 1)`)

// nextLesson moves room r on to lesson slug at (do, opt), keeping its
// code and students; rows are the tallies of the lesson it leaves.
func (s *classStore) nextLesson(ctx context.Context, r *Room, slug, do, opt string, ask, answered, steps int, rows []string) (int64, error) {
	args := []any{slug, do, opt, ask, steps, answered}
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
// unless the room is full, and keeps them counted until ARGV[4] (ms),
// never shortening a later deadline already set. 2: they were not
// counted before, and the teachers' streams are told ("here", in the
// same round trip: a class that scans the QR code at once makes 1,000
// of these), 1: they were.
var presentScript = redis.NewScript(presentLua + `
local p = present(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4])
if p == 2 then redis.call('PUBLISH', ARGV[5], 'here 0') end
return p`)

// presentLua defines present(room, members, here, sid, limit, now, until)
// for the scripts that admit a student: -1 no room, 0 full, 1 counted
// already, 2 newly counted. The "here" sorted set scores each student
// with the time (ms) until which they count, so counting is one ZCOUNT
// and the ones past it are trimmed here.
const presentLua = `
local function present(room, members, here, sid, limit, now, untl)
  if redis.call('EXISTS', room) == 0 then return -1 end
  local ttl = redis.call('TTL', room)
  if redis.call('SISMEMBER', members, sid) == 0 then
    if redis.call('SCARD', members) >= tonumber(limit) then return 0 end
    redis.call('SADD', members, sid)
    if ttl > 0 then redis.call('EXPIRE', members, ttl) end
  end
  redis.call('ZREMRANGEBYSCORE', here, '-inf', now)
  local old = redis.call('ZSCORE', here, sid)
  if not old or tonumber(old) < tonumber(untl) then redis.call('ZADD', here, untl, sid) end
  if ttl > 0 then redis.call('EXPIRE', here, ttl) end
  if old then return 1 end
  return 2
end`

// present admits student sid to the room (idempotent; errClassFull if
// the room is full) and counts them as here for the next d, telling the
// teachers' streams if the count went up. Only a request that
// carries the student's cookie calls it: a first visit (no cookie yet)
// is not a student until their cookie comes back, so a reload in a
// private tab, a link preview or a curl check is never counted.
func (s *classStore) present(ctx context.Context, code, sid string, d time.Duration) error {
	now := time.Now().UnixMilli()
	n, err := presentScript.Run(ctx, s.rdb, []string{roomKey(code), membersKey(code), hereKey(code)},
		sid, s.lim.StudentsPerRoom, now, now+d.Milliseconds(), channelOf(code)).Int()
	switch {
	case err != nil:
		return err
	case n == -1:
		return errNoRoom
	case n == 0:
		return errClassFull
	}
	return nil
}

// roomForOneMore reports errClassFull if no new student can join: the
// first visit's check, so a full room says so at once (the join itself
// waits for the cookie to come back).
func (s *classStore) roomForOneMore(ctx context.Context, code string) error {
	n, err := s.rdb.SCard(ctx, membersKey(code)).Result()
	if err == nil && n >= int64(s.lim.StudentsPerRoom) {
		err = errClassFull
	}
	return err
}

// answerScript records a student's choice, or their new one, only while
// the question is open: the check and the write are one step, so an
// answer cannot slip in or change after the reveal; one vote per
// student, a replayed one changes nothing (0).
// The answer carries the student's cookie, so it also admits them and
// counts them here (present), as their page would.
var answerScript = redis.NewScript(presentLua + `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HGET', KEYS[1], 'ask') ~= ARGV[3] or redis.call('HEXISTS', KEYS[1], 'r' .. ARGV[3]) == 1 then return -2 end
local p = present(KEYS[1], KEYS[3], KEYS[4], ARGV[1], ARGV[4], ARGV[5], ARGV[6])
if p == 0 then return -3 end
if redis.call('HGET', KEYS[2], ARGV[1]) == ARGV[2] then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], redis.call('TTL', KEYS[1]))
return redis.call('HINCRBY', KEYS[1], 'vseq', 1)`)

func (s *classStore) answer(ctx context.Context, code string, step int, sid string, choice int) error {
	now := time.Now().UnixMilli()
	n, err := answerScript.Run(ctx, s.rdb, []string{roomKey(code), votesKey(code, step), membersKey(code), hereKey(code)},
		sid, choice, step, s.lim.StudentsPerRoom, now, now+s.lim.pagePresence().Milliseconds()).Int64()
	switch {
	case err != nil:
		return err
	case n == -1:
		return errNoRoom
	case n == -2:
		return errNotAsked
	case n == -3:
		return errClassFull
	case n == 0:
		return nil // the same answer again
	}
	return s.publish(ctx, code, "votes", n)
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
	n, _ := s.rdb.ZCount(ctx, hereKey(code), "("+strconv.FormatInt(time.Now().UnixMilli(), 10), "+inf").Result()
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
	keys := []string{roomKey(r.Code), membersKey(r.Code), hereKey(r.Code), chalKey(r.Code), chalNamesKey(r.Code)}
	for i := 1; i <= r.Steps; i++ {
		keys = append(keys, votesKey(r.Code, i))
	}
	pipe := s.rdb.TxPipeline()
	pipe.Del(ctx, keys...)
	pipe.ZRem(ctx, roomsKey, r.Code)
	pipe.HSet(ctx, endedKey(r.Code), "slug", r.Slug, "do", r.Do, "opt", r.Opt, "secret", r.secret)
	pipe.Expire(ctx, endedKey(r.Code), EndedFor)
	if _, err := pipe.Exec(ctx); err != nil {
		return err
	}
	return s.publish(ctx, r.Code, "end", r.Seq+1)
}

// Package redisfront stands in front of an embedded miniredis's command
// table (miniredis's Server.SetPreHook) and holds what a timeline may
// store on that server to the bounds of a redis-server configured for a
// public teaching site:
//
//	proto-max-bulk-len 1mb   (MaxValue: the smallest value Redis accepts)
//	maxmemory          1mb   (MaxMemory, counted as Lock Lab counts it)
//	maxmemory-policy   noeviction
//
// A link is a timeline, and anyone may send one: without these bounds one
// typed SETRANGE key 600000000 x made the server allocate 600 MB, and a
// GET of it answered a page of hundreds of megabytes. miniredis has
// neither limit, so the front answers as Redis does where Redis has one:
//
//   - SETRANGE and APPEND that would make a string longer than MaxValue
//     answer "ERR string exceeds maximum allowed size
//     (proto-max-bulk-len)", after the same checks Redis makes first (a
//     bad offset, a key of another type, an empty value); SETRANGE with
//     an empty value stores nothing, as on Redis (miniredis padded the
//     key to the offset);
//   - a command Redis flags denyoom (SET, APPEND, INCR, RPUSH, COPY…)
//     sent while the server holds more than MaxMemory answers "OOM command
//     not allowed when used memory > 'maxmemory'."; inside a script only
//     the script's first write is checked, against the memory before the
//     script began, as Redis 7 does (a script is never cut in half).
//
// What differs from a redis-server with that configuration is how memory
// is counted: Redis counts its allocator's bytes (a fresh server already
// uses about 1 MB), the front counts the bytes of every key's name and
// value (a list's elements). docs/parity.md says so.
//
// Redis has no bound on what one connection may read, but a timeline is
// replayed on every request for its link: reading a 1 MB value two
// hundred times costs the process gigabytes of garbage. So the front also
// counts the bytes a server copies for one timeline (MaxWork: replies it
// sends, strings it rewrites in place) and past that refuses the command
// with ErrWork, which is not Redis's and never shown as a reply: the
// simulator stops the timeline there and says it is too big (sim's
// CodeTooBig).
//
// Memory is measured by reading the server's keys, which costs a walk of
// them; the front measures only when an upper bound it keeps (the bytes
// the last measurement found plus what every write since could have
// added) passes MaxMemory, so a timeline of small values never pays for
// it. The explorer, which loads snapshots into servers, says how much it
// loaded (Reset).
//
// EVAL goes to sim/luarun (its scripts on reused Lua states); the commands
// a script calls come back through the front like any other. A script
// outside luarun's subset is refused here rather than handed to
// miniredis's own EVAL, which would call the front while holding the
// server's lock (and every caller already refuses such scripts: the
// command line, the design page and the lessons run only the subset).
//
// Of Lock Lab it imports only sim/luarun and sim/rediscli (Redis's command
// names; TestImportDirection): the simulator's servers use it, so it must
// not import the simulator.
package redisfront

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"locklab/sim/luarun"
	"locklab/sim/rediscli"
)

// The bounds, as a redis-server's configuration would state them.
const (
	// MaxValue is proto-max-bulk-len: the longest string SETRANGE or
	// APPEND may make (1 MB, the smallest Redis allows).
	MaxValue = 1 << 20
	// MaxMemory is maxmemory: past it, writes that may grow the data
	// are refused (the bytes of keys and values, see the package doc).
	MaxMemory = 1 << 20
	// MaxWork is how many bytes a server copies for one timeline:
	// replies of values and lists, strings rewritten in place.
	MaxWork = 4 << 20
)

// Redis's own error texts for the two bounds.
const (
	ErrTooLong = "ERR string exceeds maximum allowed size (proto-max-bulk-len)"
	ErrOOM     = "OOM command not allowed when used memory > 'maxmemory'."
	// errOutside answers a script luarun does not run; no page sends one.
	errOutside = "ERR Lock Lab runs only scripts its checker accepts"
	// ErrWork refuses a command past MaxWork. It is Lock Lab's, not
	// Redis's: Refused finds it (inside a script's error too) so that the
	// timeline stops rather than show it.
	ErrWork = "LOCKLAB-TOO-BIG this timeline's server would copy more than MaxWork bytes"
)

// errFailed marks the error reply of a front that failed (a panic it
// caught): a bug of Lock Lab's, never Redis's answer.
const errFailed = "LOCKLAB-FRONT-FAILED"

// ErrTooBig is what Refused says of ErrWork.
var ErrTooBig = errors.New("redisfront: the timeline's server would copy more than MaxWork bytes")

// Refused reads an error reply for the front's own refusals, which are
// not Redis's answers and must not be shown as one: ErrTooBig for
// ErrWork (inside a script's error too), another error when the front
// failed, nil for every answer of Redis's.
func Refused(msg string) error {
	switch {
	case strings.Contains(msg, ErrWork):
		return ErrTooBig
	case strings.Contains(msg, errFailed):
		return errors.New(msg)
	}
	return nil
}

// denyoom are the commands Redis 7 flags denyoom (COMMAND INFO) among
// those a timeline may send, each with the fewest arguments it takes
// (its name included; Redis's arity): with fewer, the command's own
// arity error comes first, as on Redis.
var denyoom = map[string]int{
	"SET": 3, "SETNX": 3, "GETSET": 3, "MSET": 3, "MSETNX": 3, "APPEND": 3, "SETRANGE": 4,
	"INCR": 2, "INCRBY": 3, "DECR": 2, "DECRBY": 3, "INCRBYFLOAT": 3,
	"LPUSH": 3, "RPUSH": 3, "LPUSHX": 3, "RPUSHX": 3, "LINSERT": 5, "LSET": 4,
	"COPY": 3, "SETEX": 4, "PSETEX": 4, "GETEX": 2,
	"HSET": 4, "HSETNX": 4, "HMSET": 4, "HINCRBY": 4, "SADD": 3, "ZADD": 4,
}

// Keyspace is what the bounds read of one server: its keys, and each
// key's type and size.
type Keyspace interface {
	// Keys is every key the server holds (for a shared real server,
	// those of this timeline).
	Keys() []string
	// Size is key's type ("string", "list", …; "" for no such key) and
	// the bytes it counts towards MaxMemory besides its name: a string's
	// length, a list's elements and ListElem for each.
	Size(key string) (typ string, n int)
}

// ListElem is what one list element counts besides its bytes: a list of
// a million empty strings is not empty.
const ListElem = 8

// Bounds is one server's bookkeeping of the bounds, for any backend: the
// embedded front calls it for every command, scripts' own included; the
// live backend (sim/realredis) for every command a client sends.
type Bounds struct {
	ks Keyspace
	// bound is at least the bytes the server holds: what the last
	// measurement found plus what each write since could have added.
	bound int
	// A script under way: whether the server was over MaxMemory when it
	// began, and whether it has written yet.
	inScript, scriptOOM, scriptWrote bool
	// work is the bytes copied for this timeline so far (MaxWork).
	work int
}

// NewBounds keeps the bounds of the server ks reads, which holds nothing
// yet.
func NewBounds(ks Keyspace) *Bounds { return &Bounds{ks: ks} }

// Front is the embedded server's front: its bounds and the pre-hook that
// applies them.
type Front struct {
	*Bounds
	m   *miniredis.Miniredis
	srv *server.Server
	now int64 // the server's clock, Unix ms (SetTime)
	// ReadOnly: the server is a replica to the client sending now, and
	// answers a write with Redis's READONLY error (inside a script too).
	ReadOnly bool
	served   uint64
}

// Served counts the commands the front has been sent: while it stays
// the same (and the clock too), nothing has changed the keyspace but
// its owner's direct writes.
func (f *Front) Served() uint64 { return f.served }

// SetTime sets m's clock (miniredis's SetTime) and tells the front, which
// judges an expiry added to it as Redis does.
func (f *Front) SetTime(t time.Time) {
	f.m.SetTime(t)
	f.now = t.UnixMilli()
}

// Install puts a front in front of m's commands (with sim/luarun's EVAL
// behind it) and returns it. m must only ever have one command in flight,
// as luarun requires, and nothing else may set its pre-hook.
func Install(m *miniredis.Miniredis) (*Front, error) {
	if m.Server() == nil {
		// A miniredis that is only ever dialled makes its server on the
		// first Dial; make it now, so the hook is there before any command.
		conn, err := m.Dial()
		if err != nil {
			return nil, err
		}
		_ = conn.Close()
	}
	f := &Front{Bounds: NewBounds(miniKeys{m}), m: m, srv: m.Server()}
	f.srv.SetPreHook(f.hook)
	return f, nil
}

// replaceFirst deletes COPY … REPLACE's destination before miniredis
// copies onto it, as Redis replaces it: miniredis kept the old value of
// another type beside the new one, and it came back once the key was
// deleted. Only where Redis would copy (the source exists, they differ,
// the destination is in this database).
func (f *Front) replaceFirst(cmd string, args []string) {
	if cmd != "COPY" || len(args) < 3 || args[0] == args[1] || !f.m.Exists(args[0]) || !f.m.Exists(args[1]) {
		return
	}
	replace := false
	for j := 2; j < len(args); j++ {
		switch strings.ToUpper(args[j]) {
		case "REPLACE":
			replace = true
		case "DB":
			if j+1 < len(args) && args[j+1] != "0" {
				return
			}
			j++
		}
	}
	if replace && f.m.Type(args[0]) != f.m.Type(args[1]) {
		f.m.Del(args[1])
	}
}

// typeOf is key's type on the server, "" if there is none.
func (f *Front) typeOf(key string) string {
	if !f.m.Exists(key) {
		return ""
	}
	return f.m.Type(key)
}

// valueOf is a string key's value.
func (f *Front) valueOf(key string) string {
	v, _ := f.m.Get(key)
	return v
}

// miniKeys reads an embedded server's keys for its bounds.
type miniKeys struct{ m *miniredis.Miniredis }

func (k miniKeys) Keys() []string { return k.m.Keys() }

func (k miniKeys) Size(key string) (string, int) {
	switch t := k.m.Type(key); t {
	case "string":
		v, _ := k.m.Get(key)
		return t, len(v)
	case "list":
		l, _ := k.m.List(key)
		return t, Size("", l...) + ListElem*len(l)
	default:
		// No timeline can make a hash, set or sorted set (the command
		// line sends none of their commands); count the name.
		return t, 0
	}
}

// Reset says the server now holds used bytes (0 after FlushAll; what a
// snapshot held after the explorer loads it: Size of its keys).
func (b *Bounds) Reset(used int) {
	b.bound, b.work = used, 0
	b.inScript, b.scriptOOM, b.scriptWrote = false, false, false
}

// Size is what one key counts towards MaxMemory: its name and its value
// (a list's elements).
func Size(key string, value ...string) int {
	n := len(key)
	for _, v := range value {
		n += len(v)
	}
	return n
}

// hook answers a command itself (true) or lets miniredis answer it. It
// runs on the connection's own goroutine, where a panic would end the
// process: one is answered as an error reply instead (ErrWork's marker,
// which the simulator turns into an internal error).
func (f *Front) hook(c *server.Peer, cmd string, args ...string) (done bool) {
	f.served++
	defer func() {
		if p := recover(); p != nil {
			c.WriteError(fmt.Sprintf("%s: %v", errFailed, p))
			done = true
		}
	}()
	if !rediscli.Known(cmd) { // one miniredis may know, Redis 7.0 does not: Redis's answer (worded by rediscli.Conn)
		c.WriteError("ERR unknown command `" + cmd + "`, with args beginning with: ")
		return true
	}
	if f.ReadOnly && rediscli.IsWrite(cmd) {
		c.WriteError(rediscli.ErrReadOnly)
		return true
	}
	switch msg := argError(cmd, args, f.now, f.typeOf, f.valueOf); msg {
	case "":
	case answerNil:
		c.WriteNull()
		return true
	default:
		c.WriteError(msg)
		return true
	}
	f.replaceFirst(cmd, args)
	if cmd == "PING" && len(args) == 1 { // Redis echoes it as a bulk string, "" too
		c.WriteBulk(args[0])
		return true
	}
	if cmd == "EVAL" && !f.inScript {
		return f.eval(c, args)
	}
	if msg := f.Check(cmd, args); msg != "" {
		c.WriteError(msg)
		return true
	}
	if n, ok := f.setNothing(cmd, args); ok {
		c.WriteInt(n)
		return true
	}
	if f.ltSame(cmd, args) {
		c.WriteInt(0)
		return true
	}
	if v, ok := f.getrange(cmd, args); ok {
		c.WriteBulk(v)
		return true
	}
	if cmd == "TTL" && len(args) == 1 && f.m.Exists(args[0]) {
		// Redis rounds the milliseconds left to the nearest second
		// ((ms+500)/1000); miniredis cuts them (1500 ms: Redis 2, it 1).
		// Only DB 0 is ever used (the command line refuses SELECT).
		if ttl := f.m.TTL(args[0]); ttl > 0 {
			c.WriteInt(int((ttl.Milliseconds() + 500) / 1000))
			return true
		}
	}
	return false
}

// Check is the bounds' answer to cmd (its name upper case) with args,
// before the server runs it: "" to let the server answer, else the error
// reply to give instead — ErrOOM or ErrTooLong, Redis's own, or ErrWork,
// on which the timeline stops. A command it lets through is counted.
func (b *Bounds) Check(cmd string, args []string) string {
	if w := b.copies(cmd, args); w > 0 {
		if b.work+w > MaxWork {
			return ErrWork
		}
		b.work += w
	}
	min, ok := denyoom[cmd]
	if !ok || len(args)+1 < min {
		return ""
	}
	if b.inScript {
		if b.scriptOOM && !b.scriptWrote {
			return ErrOOM
		}
		b.scriptWrote = true
	} else if b.over() {
		return ErrOOM
	}
	if b.tooLong(cmd, args) {
		return ErrTooLong
	}
	b.bound += b.growth(cmd, args)
	return ""
}

// BeginScript and EndScript bracket a script the server runs, whose
// commands Check sees one by one (the embedded server's): only its first
// write is checked against MaxMemory, as it stood when the script began.
func (b *Bounds) BeginScript() { b.scriptOOM, b.scriptWrote, b.inScript = b.over(), false, true }

// EndScript: see BeginScript.
func (b *Bounds) EndScript() { b.inScript = false }

// setNothing answers SETRANGE with an empty value as Redis does: the
// string's length, 0 for no key, and nothing stored. miniredis would pad
// a missing key with offset zero bytes (SETRANGE k 600000000 "" made a
// 600 MB string).
func (f *Front) setNothing(cmd string, args []string) (int, bool) {
	if cmd != "SETRANGE" || len(args) != 3 || args[2] != "" {
		return 0, false
	}
	if off, err := strconv.ParseInt(args[1], 10, 64); err != nil || off < 0 || f.other(args[0]) {
		return 0, false // Redis's (and miniredis's) own answers
	}
	_, n := f.ks.Size(args[0])
	return n, true
}

// getrange answers GETRANGE on a string key or none as Redis 7.0's
// t_string.c does (its indexes already checked as integers): two
// negative indexes with start after end are empty at once, then each
// negative index counts from the end and is clamped at 0, and the end at
// the last byte. miniredis clamps otherwise: GETRANGE k -2
// -9223372036854775808 on a 20-byte value gave its first byte, Redis
// nothing (the differential test found it). ok is false where it leaves
// the answer to miniredis (another type: WRONGTYPE).
func (f *Front) getrange(cmd string, args []string) (string, bool) {
	if cmd != "GETRANGE" || len(args) != 3 {
		return "", false
	}
	if t := f.typeOf(args[0]); t != "" && t != "string" {
		return "", false
	}
	start, ok1 := redisInt(args[1])
	end, ok2 := redisInt(args[2])
	if !ok1 || !ok2 {
		return "", false
	}
	str := f.valueOf(args[0])
	n := int64(len(str))
	if start < 0 && end < 0 && start > end {
		return "", true
	}
	if start < 0 {
		start += n
	}
	if end < 0 {
		end += n
	}
	start, end = max(start, 0), max(end, 0)
	if end >= n {
		end = n - 1
	}
	if n == 0 || start > end {
		return "", true
	}
	return str[start : end+1], true
}

// ltSame reports an EXPIRE or PEXPIRE with LT whose new expiry equals
// the key's: Redis sets only a strictly earlier one and answers 0, where
// miniredis sets it and answers 1. The command line's differential test
// typed "SET l 0 PX 1000", then "PEXPIRE l 1000 LT" at the same virtual
// instant. The arguments have passed argError.
func (f *Front) ltSame(cmd string, args []string) bool {
	if (cmd != "EXPIRE" && cmd != "PEXPIRE") || len(args) < 3 {
		return false
	}
	lt := false
	for _, o := range args[2:] {
		lt = lt || strings.EqualFold(o, "LT")
	}
	if !lt || !f.m.Exists(args[0]) {
		return false
	}
	when, ok := redisInt(args[1])
	if !ok {
		return false
	}
	if cmd == "EXPIRE" {
		when *= 1000
	}
	ttl := f.m.TTL(args[0])
	return ttl > 0 && when == ttl.Milliseconds()
}

// eval runs a script through luarun, noting for its writes whether the
// server was over MaxMemory when it began.
func (f *Front) eval(c *server.Peer, args []string) bool {
	if len(args) >= 2 && !luarun.InSubset(args[0]) {
		if n, err := strconv.Atoi(args[1]); err == nil && n >= 0 && n <= len(args)-2 {
			c.WriteError(errOutside)
			return true
		}
		return false // miniredis answers the malformed call; no command runs
	}
	f.BeginScript()
	defer f.EndScript()
	return luarun.Eval(f.srv, c, args)
}

// over reports whether the server holds more than MaxMemory, measuring
// only when the bound says it might.
func (b *Bounds) over() bool {
	if b.bound <= MaxMemory {
		return false
	}
	b.bound = b.used()
	return b.bound > MaxMemory
}

// used measures the bytes the server holds (every key's name and Size).
func (b *Bounds) used() int {
	n := 0
	for _, k := range b.ks.Keys() {
		_, size := b.ks.Size(k)
		n += len(k) + size
	}
	return n
}

// tooLong: SETRANGE or APPEND would make a string longer than MaxValue,
// after every check Redis makes before its own (checkStringLength).
func (b *Bounds) tooLong(cmd string, args []string) bool {
	switch {
	case cmd == "SETRANGE" && len(args) == 3:
		off, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil || off < 0 || args[2] == "" || b.other(args[0]) {
			return false // Redis's (and miniredis's) own answers
		}
		return off > MaxValue-int64(len(args[2]))
	case cmd == "APPEND" && len(args) == 2:
		typ, n := b.ks.Size(args[0])
		return typ == "string" && n+len(args[1]) > MaxValue
	}
	return false
}

// other: key exists and is not a string (WRONGTYPE comes first).
func (b *Bounds) other(key string) bool {
	t, _ := b.ks.Size(key)
	return t != "" && t != "none" && t != "string"
}

// growth is at most how many bytes cmd can add to the server.
func (b *Bounds) growth(cmd string, args []string) int {
	switch cmd {
	case "SETRANGE":
		off, err := strconv.Atoi(args[1])
		if err != nil {
			off = 0 // no integer: refused (an overflowing one read as MaxInt made the bound wrap)
		}
		return Size(args[0], args[2]) + max(off, 0)
	case "COPY":
		_, n := b.ks.Size(args[0])
		return len(args[1]) + n
	case "INCR", "INCRBY", "DECR", "DECRBY", "INCRBYFLOAT":
		return Size(args[0]) + 24 // a number's digits
	case "LPUSH", "RPUSH", "LPUSHX", "RPUSHX":
		return Size("", args...) + ListElem*(len(args)-1)
	}
	// Every other write stores at most its arguments.
	return Size("", args...)
}

// copies is at most how many bytes of values cmd makes the server copy:
// the strings and lists it answers with, a string it rewrites in place
// (miniredis copies the whole string to change a byte of it), a key COPY
// duplicates. Commands that answer with a number or OK copy nothing
// worth counting.
func (b *Bounds) copies(cmd string, args []string) int {
	if len(args) == 0 {
		return 0
	}
	switch cmd {
	case "GET", "GETDEL", "GETEX", "GETSET", "GETRANGE", "SETRANGE", "APPEND", "SET", "COPY",
		"LRANGE", "LINDEX", "LPOP", "RPOP":
		if cmd == "SET" && (len(args) < 3 || !hasWord(args[2:], "GET")) {
			return 0
		}
		_, n := b.ks.Size(args[0])
		return n
	case "MGET":
		n := 0
		for _, k := range args {
			_, size := b.ks.Size(k)
			n += size
		}
		return n
	}
	return 0
}

func hasWord(args []string, w string) bool {
	for _, a := range args {
		if strings.EqualFold(a, w) {
			return true
		}
	}
	return false
}

// answerNil is argError's answer where Redis answers nil.
const answerNil = "nil"

// Package library is Lock Lab's model of the Redis lock libraries
// engineers use: for each one, what it sends to a Redis node to acquire,
// extend and release a lock, what it does after each reply (retry, clean
// up, report an error), and its defaults. It is the first layer of issue
// 46's "lock your team uses": sim/lockdesign writes each library's
// acquire and release as a design's scripts and holds them to these
// calls; this package only says what they are.
//
// A call is a plain command or a script. The scripts are Lock Lab's own
// writing, not the libraries' text: they make Redis run the same
// commands with the same arguments and give the same reply. The
// differential test (library_test.go) holds each model to the real
// library on redis-server, read with MONITOR: in the same server state,
// the library's operation and the model's make Redis run the same
// commands (a script counted by its keys, its arguments and the commands
// it runs inside, whatever its text), answer the same, leave the same
// keys, and the library reports what the model says it reports.
//
// Versions modelled (each a Go test dependency, run by that test):
// go-redsync/redsync v4.18.1 with its go-redis v9 pool, one node; and
// bsm/redislock v0.9.4, the newest the module proxy serves here
// (docs/libraries.md says what differs from the v0.10.0 the study read).
//
// It imports nothing of Lock Lab: sim will import it, never the reverse.
package library

import (
	"strconv"
	"strings"
)

// Op is what a library does to a lock.
type Op string

const (
	Acquire Op = "acquire"
	Extend  Op = "extend"
	Release Op = "release"
)

// Outcome is what a library reports of an operation, in one vocabulary
// for every library (each library's own error is named beside it).
type Outcome string

const (
	OK      Outcome = "ok"      // taken, extended, released
	Taken   Outcome = "taken"   // another value holds the key
	Gone    Outcome = "gone"    // no key at all (expired, or never there)
	NotHeld Outcome = "notheld" // the library cannot tell taken from gone
	// Refused: the library refuses before it sends anything (redis-py
	// will not extend a lock that has no timeout)
	Refused Outcome = "refused"
	// NoExpiry: the key is this client's but has no TTL to extend
	// (python-redis-lock's NotExpirable)
	NoExpiry Outcome = "noexpiry"
)

// Call is one request to a node: a command's words, or a script with
// its keys and arguments. In either, "{key}", "{value}", "{ttl}" (in
// ms) and "{ttls}" (in whole seconds) stand for the lock's,
// "{gounit}" and "{gottl}" for the unit and the number go-redis's SetNX
// sends (ex and seconds for a whole number of them, else px and ms),
// "{tokenlen}" for the value's length (redislock's token, with no
// metadata after it), and "{signal}" for the list python-redis-lock
// pushes to on release ("lock-signal:" and the key after its "lock:").
type Call struct {
	Command []string
	Script  string
	Keys    []string
	Args    []string
}

// Step is a call and what the library makes of its reply: an outcome,
// and for a refusal, the calls it sends before it reports (redsync and
// node-redlock release what they may have taken). A step with no call is
// refused by the library itself (Refused).
type Step struct {
	// Before are calls the library sends first, for a check of its own
	// (python-redis-lock reads the key to refuse taking a lock it holds)
	Before []Call
	Call   Call
	// Read maps the reply (an integer, "OK", or "nil") to the outcome the
	// library reports.
	Read func(reply string) Outcome
	// OnRefused is sent after a call whose reply is not OK, before the
	// library reports it.
	OnRefused []Call
}

// Library is one library's model.
type Library struct {
	ID, Module, Version string
	// TTLms is the expiry the library uses when the caller gives none
	// (0: the caller always gives one, or, with NoTTL, none is set).
	TTLms int64
	// NoTTL: the lock's key never expires (redis-py's default timeout=None)
	NoTTL bool
	// Tries, RetryMinMs, RetryMaxMs: how often an acquire is tried, and
	// the delay between two tries (uniform in [min, max)).
	Tries                  int
	RetryMinMs, RetryMaxMs int64
	// Drift is the share of the TTL the library takes off its own
	// validity for clock drift (0: it computes no validity).
	Drift float64
	Ops   map[Op]Step
}

// Majority is how many of n nodes must agree for an operation of a
// library that runs on several (Redlock: redsync with several pools,
// node-redlock with several clients): more than half.
func Majority(n int) int { return n/2 + 1 }

// Words is call c for the lock key, value and TTL: a command's words,
// or a script's keys and arguments, the placeholders filled in.
func (c Call) Words(key, value string, ttlMs int64) (command, keys, args []string) {
	fill := func(xs []string) []string {
		var out []string
		for _, x := range xs {
			switch x {
			case "{key}":
				x = key
			case "{value}":
				x = value
			case "{ttl}":
				x = strconv.FormatInt(ttlMs, 10)
			case "{ttls}":
				x = strconv.FormatInt(ttlMs/1000, 10)
			case "{gounit}", "{gottl}":
				// go-redis's SetNX: EX in seconds for a whole number of
				// seconds, else PX in ms
				whole := ttlMs >= 1000 && ttlMs%1000 == 0
				switch {
				case x == "{gounit}" && whole:
					x = "ex"
				case x == "{gounit}":
					x = "px"
				case whole:
					x = strconv.FormatInt(ttlMs/1000, 10)
				default:
					x = strconv.FormatInt(ttlMs, 10)
				}
			case "{tokenlen}":
				x = strconv.Itoa(len(value))
			case "{signal}":
				x = "lock-signal:" + strings.TrimPrefix(key, "lock:")
			}
			out = append(out, x)
		}
		return out
	}
	return fill(c.Command), fill(c.Keys), fill(c.Args)
}

// byInt reads an integer reply through m (an unknown reply is NotHeld).
func byInt(m map[string]Outcome) func(string) Outcome {
	return func(r string) Outcome {
		if o, ok := m[r]; ok {
			return o
		}
		return NotHeld
	}
}

// setOK: SET's reply, OK or nil (refused).
func setOK(r string) Outcome {
	if r == "OK" {
		return OK
	}
	return Taken
}

// Lock Lab's scripts, written for these models (see the package doc).
const (
	// compareExpire renews the key's TTL if it holds this value: 1, else 0.
	compareExpire = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end\nreturn redis.call('PEXPIRE', KEYS[1], ARGV[2])"
	// compareDelete deletes the key if it holds this value: 1, else 0.
	compareDelete = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end\nreturn redis.call('DEL', KEYS[1])"
	// addExpire adds ARGV[2] ms to the TTL of the key if it holds this
	// value and has a TTL: 1, else 0 (redis-py's extend, which adds to
	// the time left by default)
	addExpire = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end\n" +
		"local left = redis.call('PTTL', KEYS[1])\n" +
		"if left < 0 then return 0 end\n" +
		"local ttl = ARGV[2]\n" +
		"if ARGV[3] == '0' then ttl = ARGV[2] + left end\n" +
		"redis.call('PEXPIRE', KEYS[1], ttl)\nreturn 1"
	// deleteIfMine deletes the key if it holds this value: 1, else 0,
	// whatever DEL answers (redis-py's release)
	deleteIfMine = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end\nredis.call('DEL', KEYS[1])\nreturn 1"
	// takeIfFree sets the key with this value and TTL unless it exists:
	// 1, else 0 (node-redlock 4's lock script, for one key)
	takeIfFree = "if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end\nredis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])\nreturn 1"
	// compareSetTTL sets the key again with this value and a new TTL if
	// it holds this value: 1, else 0 (node-redlock 4's extend)
	compareSetTTL = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end\nredis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])\nreturn 1"
	// releaseCount deletes the key if it holds this value: 1, else 0
	// (node-redlock 4's unlock, which counts the keys it removed)
	releaseCount = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end\nredis.pcall('DEL', KEYS[1])\nreturn 1"
	// releaseAndSignal deletes the key if it holds this value and pushes
	// to its signal list (emptied first, expiring in ARGV[2] ms), which
	// wakes a client blocked waiting for the lock: 0, else 1
	// (python-redis-lock's unlock, whose codes are errors)
	releaseAndSignal = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 1 end\n" +
		"redis.call('DEL', KEYS[2])\nredis.call('LPUSH', KEYS[2], 1)\nredis.call('PEXPIRE', KEYS[2], ARGV[2])\n" +
		"redis.call('DEL', KEYS[1])\nreturn 0"
	// expireIfMine sets the key's TTL to ARGV[2] s if it holds this value
	// and has a TTL: 0; 1 if it is not this value's, 2 if it has no TTL
	// (python-redis-lock's extend, whose codes are errors)
	expireIfMine = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 1 end\n" +
		"if redis.call('TTL', KEYS[1]) < 0 then return 2 end\n" +
		"redis.call('EXPIRE', KEYS[1], ARGV[2])\nreturn 0"
	// compareDeleteOrGone is compareDelete that tells an absent key (-1)
	// from another's (0), as redsync reports them apart.
	compareDeleteOrGone = "local held = redis.call('GET', KEYS[1])\nif held ~= ARGV[1] then\n  if held then return 0 end\n  return -1\nend\nreturn redis.call('DEL', KEYS[1])"
	// takeOrRetake sets the key if it is free; else, if the value held
	// begins with this caller's token (ARGV[2] bytes long), sets it again
	// with this value and TTL: redislock's "obtain with the same token".
	// nil where another token holds it.
	takeOrRetake = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[3]) then return redis.status_reply('OK') end\n" +
		"local n = tonumber(ARGV[2])\n" +
		"if redis.call('GETRANGE', KEYS[1], 0, n - 1) == string.sub(ARGV[1], 1, n) then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3]) end"
)

// Redsync is go-redsync/redsync v4 on one node through its go-redis v9
// pool: SET NX with the expiry in whole seconds where it is a whole
// number of them, else in ms (go-redis's SetNX), a refused try followed
// by its release script, extend and release by value.
var Redsync = &Library{
	ID: "redsync", Module: "github.com/go-redsync/redsync/v4", Version: "v4.18.1",
	TTLms: 8000, Tries: 32, RetryMinMs: 50, RetryMaxMs: 250, Drift: 0.01,
	Ops: map[Op]Step{
		Acquire: {Call: Call{Command: []string{"set", "{key}", "{value}", "{gounit}", "{gottl}", "nx"}}, Read: setOK,
			OnRefused: []Call{{Script: compareDeleteOrGone, Keys: []string{"{key}"}, Args: []string{"{value}"}}}},
		// an extend refused reports ErrTaken, the key gone or another's
		// (its script does not tell them apart; its release's does)
		Extend: {Call: Call{Script: compareExpire, Keys: []string{"{key}"}, Args: []string{"{value}", "{ttl}"}},
			Read: byInt(map[string]Outcome{"1": OK, "0": Taken})},
		// ErrLockAlreadyExpired for -1, ErrTaken for 0
		Release: {Call: Call{Script: compareDeleteOrGone, Keys: []string{"{key}"}, Args: []string{"{value}"}},
			Read: byInt(map[string]Outcome{"1": OK, "0": Taken, "-1": Gone})},
	},
}

// Redislock is bsm/redislock v0.9.4: one script that takes a free key or
// retakes one its own token holds, extend and release by value; one try
// unless the caller gives a retry strategy; no validity of its own.
var Redislock = &Library{
	ID: "redislock", Module: "github.com/bsm/redislock", Version: "v0.9.4",
	Tries: 1,
	Ops: map[Op]Step{
		Acquire: {Call: Call{Script: takeOrRetake, Keys: []string{"{key}"}, Args: []string{"{value}", "{tokenlen}", "{ttl}"}}, Read: setOK},
		Extend: {Call: Call{Script: compareExpire, Keys: []string{"{key}"}, Args: []string{"{value}", "{ttl}"}},
			Read: byInt(map[string]Outcome{"1": OK, "0": NotHeld})},
		Release: {Call: Call{Script: compareDelete, Keys: []string{"{key}"}, Args: []string{"{value}"}},
			Read: byInt(map[string]Outcome{"1": OK, "0": NotHeld})},
	},
}

// RedisPy is redis-py's Lock (redis.lock.Lock) as Debian's python3-redis
// 4.3.4 has it, with its default timeout=None: SET NX with no expiry, so
// a holder that dies holds the lock for ever; tried every 0.1 s for ever
// (blocking, no blocking_timeout); extend refused by the library itself;
// release by value, LockNotOwnedError (not held) whatever the reason.
var RedisPy = &Library{
	ID: "redis-py", Module: "redis (python3-redis)", Version: "4.3.4",
	NoTTL: true, RetryMinMs: 100, RetryMaxMs: 100,
	Ops: map[Op]Step{
		Acquire: {Call: Call{Command: []string{"set", "{key}", "{value}", "nx"}}, Read: setOK},
		Extend:  {},
		Release: {Call: Call{Script: deleteIfMine, Keys: []string{"{key}"}, Args: []string{"{value}"}},
			Read: byInt(map[string]Outcome{"1": OK, "0": NotHeld})},
	},
}

// RedisPyTimeout is redis-py's Lock given a timeout: SET with PX, and
// extend adding to the time left (replace_ttl=False, its default).
var RedisPyTimeout = &Library{
	ID: "redis-py-timeout", Module: "redis (python3-redis)", Version: "4.3.4",
	RetryMinMs: 100, RetryMaxMs: 100,
	Ops: map[Op]Step{
		Acquire: {Call: Call{Command: []string{"set", "{key}", "{value}", "px", "{ttl}", "nx"}}, Read: setOK},
		Extend: {Call: Call{Script: addExpire, Keys: []string{"{key}"}, Args: []string{"{value}", "{ttl}", "0"}},
			Read: byInt(map[string]Outcome{"1": OK, "0": NotHeld})},
		Release: RedisPy.Ops[Release],
	},
}

// NodeRedlock is node-redlock 4.2.0, what `npm install redlock` gives
// today, on one node: every operation a script; a refused try, or a
// refused extend, followed by its release script; 11 tries 100–300 ms
// apart; validity TTL − (1 % of TTL + 2 ms), and an extend refused by the
// library itself once that has passed.
var NodeRedlock = &Library{
	ID: "node-redlock", Module: "redlock (npm)", Version: "4.2.0",
	Tries: 11, RetryMinMs: 100, RetryMaxMs: 300, Drift: 0.01,
	Ops: map[Op]Step{
		Acquire: {Call: Call{Script: takeIfFree, Keys: []string{"{key}"}, Args: []string{"{value}", "{ttl}"}},
			Read:      byInt(map[string]Outcome{"1": OK, "0": Taken}),
			OnRefused: []Call{{Script: releaseCount, Keys: []string{"{key}"}, Args: []string{"{value}"}}}},
		Extend: {Call: Call{Script: compareSetTTL, Keys: []string{"{key}"}, Args: []string{"{value}", "{ttl}"}},
			Read:      byInt(map[string]Outcome{"1": OK, "0": NotHeld}),
			OnRefused: []Call{{Script: releaseCount, Keys: []string{"{key}"}, Args: []string{"{value}"}}}},
		Release: {Call: Call{Script: releaseCount, Keys: []string{"{key}"}, Args: []string{"{value}"}},
			Read: byInt(map[string]Outcome{"1": OK, "0": NotHeld})},
	},
}

// PythonRedisLock is python-redis-lock 4.0.1 with an expiry (here 8 s)
// and no auto_renewal: GET (it refuses to take a lock it holds), then SET
// NX EX; a refused try waits on BLPOP of the
// signal list when blocking (here, blocking=False: no wait); release
// deletes the key and pushes to the signal list; extend sets the TTL
// again in seconds. (With auto_renewal a thread of its own extends every
// two thirds of the expiry: not modelled yet.)
var PythonRedisLock = &Library{
	ID: "python-redis-lock", Module: "python-redis-lock", Version: "4.0.1",
	Ops: map[Op]Step{
		Acquire: {Before: []Call{{Command: []string{"get", "{key}"}}},
			Call: Call{Command: []string{"set", "{key}", "{value}", "ex", "{ttls}", "nx"}}, Read: setOK},
		Extend: {Call: Call{Script: expireIfMine, Keys: []string{"{key}", "{signal}"}, Args: []string{"{value}", "{ttls}"}},
			Read: byInt(map[string]Outcome{"0": OK, "1": NotHeld, "2": NoExpiry})},
		Release: {Call: Call{Script: releaseAndSignal, Keys: []string{"{key}", "{signal}"}, Args: []string{"{value}", "1000"}},
			Read: byInt(map[string]Outcome{"0": OK, "1": NotHeld})},
	},
}

// All lists the libraries modelled.
var All = []*Library{Redsync, Redislock, RedisPy, RedisPyTimeout, NodeRedlock, PythonRedisLock}

// scripts.go holds the Lua scripts clients and the storage run with EVAL.
// They are shown to the learner as they are sent.

package sim

// ReleaseScript deletes the lock only while it still holds the caller's
// value, in one atomic step on the server. 1 = deleted, 0 = not mine.
const ReleaseScript = `-- release: delete the lock only if it still holds my value
local holder = redis.call('GET', KEYS[1])
if holder ~= ARGV[1] then
  return 0
end
return redis.call('DEL', KEYS[1])`

// FencedWriteScript is the storage's fencing check: a write carrying a token
// lower than the last accepted one is refused; otherwise the token and the
// value are stored together. Check and update are one script, so no other
// write can slip between them. 1 = accepted, 0 = rejected.
const FencedWriteScript = `-- fenced-write: refuse a token older than the last accepted one
local last = tonumber(redis.call('GET', KEYS[2]) or 0)
if tonumber(ARGV[1]) < last then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SET', KEYS[1], ARGV[2])
return 1`

// FencedWriteStrictScript is the stricter policy: a token must be greater
// than the last accepted one, so even the same holder retrying the same
// write with the same token is refused. 1 = accepted, 0 = rejected.
const FencedWriteStrictScript = `-- fenced-write-strict: accept only a token greater than the last one
local last = tonumber(redis.call('GET', KEYS[2]) or 0)
if tonumber(ARGV[1]) <= last then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SET', KEYS[1], ARGV[2])
return 1`

// ExtendScript pushes the lock's expiry out again only while the key
// still holds the caller's value. 1 = extended, 0 = not mine any more.
const ExtendScript = `-- extend: a new TTL, but only for my own lock
local holder = redis.call('GET', KEYS[1])
if holder ~= ARGV[1] then
  return 0
end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`

// ChargeOnceScript charges an order only if its idempotency key is new:
// the key and the charge are written in one atomic step, so a retried or
// duplicated request becomes a no-op. 1 = charged, 0 = already charged.
const ChargeOnceScript = `-- charge-once: the idempotency key and the charge, together
if redis.call('SET', KEYS[1], ARGV[1], 'NX') == false then
  return 0
end
redis.call('RPUSH', KEYS[2], ARGV[1])
return 1`

// scriptTTLs names, for each script that sets a TTL from its arguments
// (PEXPIRE KEYS[key] ARGV[argv], relative ms), that key and argument: the
// live backend (sim/realredis) translates that TTL to the server's clock
// as it does a PEXPIRE's. A new such script is one line here; the design
// presets add theirs at start-up (DeclareScriptTTL), before any replay.
var scriptTTLs = map[string]struct{ key, argv int }{
	ExtendScript: {key: 1, argv: 2},
}

// DeclareScriptTTL says that script body sets the TTL of KEYS[key] to
// ARGV[argv] ms, as PEXPIRE would: the design presets declare theirs
// (sim/lockdesign, at start-up, before any replay runs).
func DeclareScriptTTL(body string, key, argv int) {
	scriptTTLs[body] = struct{ key, argv int }{key: key, argv: argv}
}

// ScriptTTL reports, for a script that sets a TTL from its arguments,
// which key (KEYS[key]) and which argument (ARGV[argv], relative ms):
// what sim/realredis needs to put that TTL on the server's clock.
func ScriptTTL(body string) (key, argv int, ok bool) {
	t, ok := scriptTTLs[body]
	return t.key, t.argv, ok
}

// Scripts maps the names the event log shows to the script text.
var Scripts = map[string]string{
	"release":             ReleaseScript,
	"fenced-write":        FencedWriteScript,
	"fenced-write-strict": FencedWriteStrictScript,
	"extend":              ExtendScript,
	"charge-once":         ChargeOnceScript,
}

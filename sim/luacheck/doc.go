// Package luacheck decides whether a learner's Lua script may run by EVAL
// in Lock Lab: it parses the script with gopher-lua's own parser (the one
// miniredis runs it with) and accepts only a small subset of Lua that
// always ends, touches only the keys it is given, and cannot build a value
// larger than a few kilobytes. Everything else is refused with an *Error
// that names the line, the column and a stable reason code, so the web
// side can explain the refusal in the learner's language.
//
// # API
//
//	type Kind int                 // Acquire, Release, Extend, Storage
//	func Check(src string, k Kind) error   // nil or *Error
//	type Error struct { Line, Col int; Code, Arg, Allowed string }
//
// Line and Col are 1-based; Col counts characters (runes), not bytes. Code
// is one of the Code* constants below and never changes meaning; Arg is the
// offending piece (a name, a command, "KEYS[3]", a byte count), Allowed is
// filled for CodeIndex with what the script kind does have ("KEYS[1]").
//
// What a kind is given (KEYS and ARGV a script of that kind may use):
//
//	Acquire  KEYS[1] lock key                ARGV[1] value, ARGV[2] TTL ms
//	Release  KEYS[1] lock key                ARGV[1] value
//	Extend   KEYS[1] lock key                ARGV[1] value, ARGV[2] TTL ms
//	Storage  KEYS[1] record, KEYS[2] token   ARGV[1] token, ARGV[2] value
//
// # The accepted subset
//
//   - statements: `local` declarations, assignment to a local already
//     declared, `if`/`elseif`/`else`, `do … end`, `return`, and a call of
//     redis.call or redis.pcall as a statement;
//   - expressions: nil, true, false, number and string literals, locals,
//     KEYS[i] and ARGV[i] with a literal i the kind has, comparisons
//     (== ~= < <= > >=), arithmetic (+ - * / % ^ and unary -), `..`, `#`,
//     `and`, `or`, `not`, tonumber(x [, base]), tostring(x), and
//     redis.call / redis.pcall;
//   - redis.call's first argument is a string literal naming an allowed
//     command (case-insensitive), each key position holds KEYS[i] written
//     as such (or a local declared as `local k = KEYS[i]` and never
//     assigned again), options are string literals. Allowed commands:
//     GET; SET k v [NX|XX] [GET] [KEEPTTL] [EX s|PX ms]; SETNX; GETDEL;
//     DEL k…; EXISTS k…; EXPIRE; PEXPIRE; TTL; PTTL; PERSIST; INCR; DECR;
//     INCRBY; DELEX k IFEQ v|IFNE v; RPUSH k v… (see the commands table);
//   - every argument of redis.pcall is a string or a number for sure
//     (string and number literals, KEYS/ARGV, arithmetic, `#`, `..`,
//     tostring, and locals only ever given those): on nil, a boolean or a
//     table miniredis raises an error where Redis returns an error table
//     and carries on (CodePcallArg).
//
// # Same replies on Redis
//
// TestSubsetParity runs the safe corpus and ~650 generated scripts of the
// subset on miniredis and on a real redis-server and compares replies and
// the keys afterwards (errors compared as "an error": the wording
// differs). Known differences the checker does not refuse: how a
// non-integer number (and NaN, inf, integers from 1e15) prints in tostring
// and `..` (gopher-lua: shortest round trip, Lua 5.1: %.14g), clock
// dependent replies (TTL, PTTL), and DELEX on a Redis older than 8.4.
//
// Refused, each with its own code: loops (while, repeat, for) and break;
// goto and labels; function definitions (including `local function`);
// every other global (string, os, _G, loadstring, pcall, setmetatable,
// server, …), fields other than redis.call/redis.pcall, method calls,
// table constructors, `...`, assignment to a global or a field, locals
// named KEYS, ARGV, redis, tonumber or tostring; commands outside the
// allow-list, a command name that is not a literal, a key that is not
// KEYS[i]; more than 2048 bytes; invalid UTF-8, NUL and other control
// characters (tab, newline and carriage return excepted), Unicode bidi
// controls and invisible characters anywhere, comments and strings
// included; nesting deeper than MaxDepth.
//
// # Why an accepted script always ends
//
// The subset has no loop, no goto, no function definition and no way to
// reach one (no globals beyond tonumber/tostring/redis.call/redis.pcall,
// no method calls, no metatables), so control only moves forward: every
// statement runs at most once and every expression is evaluated at most
// once. A run therefore executes at most as many operations as the script
// has syntax nodes, and a 2048-byte script has at most ~2048 of them. Each
// redis.call is one command from the allow-list, each of them O(1) or
// linear in the size of one bounded value (TestAcceptedScriptsEnd and
// FuzzCheck run accepted scripts on miniredis under a deadline).
//
// # Why values stay small (the concatenation bomb)
//
// Without loops the only way to grow a string is `..`:
// `local a = ARGV[1]..ARGV[1]; local b = a..a; …` doubles on every line.
// Check keeps an upper bound on the length of every expression and local,
// in source order (which, with no loops, is execution order, and the bound
// of a local is the largest value ever assigned to it so far):
// literals count their bytes, a number (and tostring of one) counts 24,
// each ARGV counts MaxArgBytes (the caller must keep its ARGV within
// that), a .. b counts the sum. A concatenation whose bound exceeds
// MaxValueBytes is refused (CodeConcatBomb). A string read from Redis has
// no bound known to the checker — a previous run may have stored a big
// one — so concatenating it is refused outright (CodeConcatRedis);
// otherwise a script could double a stored value on every run. Replies of
// commands that answer an integer (INCR, DEL, PTTL …) count as numbers.
// There is no string library, APPEND or SETRANGE, so every value a script
// stores is a literal of the script, an ARGV, a number, a bounded
// concatenation or a copy of a stored value: no stored value ever exceeds
// max(MaxValueBytes, MaxArgBytes, 2048) bytes, however many runs.
package luacheck

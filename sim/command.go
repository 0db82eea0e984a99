// command.go reads and checks the commands a learner types on a timeline's
// command line: redis-cli's quoting (ParseCommand), one canonical way to
// print them back into a URL (FormatCommand), and the rule for which
// commands the command line sends (CheckCommand). A command that could
// block, leave the connection in a mode of its own, administer the server
// or run away never reaches a server.

package sim

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"locklab/sim/luacheck"
	"locklab/sim/rediscli"
)

// ParseCommand reads a typed line as redis-cli does (rediscli.ParseCommand),
// its refusal as the code a page explains: CodeCmdSyntax for unbalanced
// quotes or an empty line, CodeCmdTooLong past the limits.
func ParseCommand(line string) ([]string, Code) {
	args, err := rediscli.ParseCommand(line)
	switch {
	case errors.Is(err, rediscli.ErrTooLong):
		return nil, CodeCmdTooLong
	case err != nil:
		return nil, CodeCmdSyntax
	}
	return args, ""
}

// CommandAction is the typed line, sent to node, as an action: read as
// redis-cli reads it and checked (CheckCommand). A command the command
// line does not send gives its code, with the command's name as Who.
func CommandAction(node, line string) (Action, Code) { return commandAction(nil, node, line) }

// CommandActionIn is CommandAction on a timeline of sc, where a line
// pasted from the event log may name a script as the log shows it:
// EVAL ‹release.lua› 1 … sends that script of sc (a lesson's, or a
// design's part) as its body.
func (sc *Scenario) CommandActionIn(node, line string) (Action, Code) {
	return commandAction(sc, node, line)
}

func commandAction(sc *Scenario, node, line string) (Action, Code) {
	args, code := ParseCommand(line)
	if code != "" {
		return Action{}, code
	}
	if sc != nil && len(args) > 1 && strings.EqualFold(args[0], "EVAL") {
		if body, ok := sc.scriptNamed(args[1]); ok {
			args[1] = body
		}
	}
	if code := CheckCommand(args); code != "" {
		return Action{Who: strings.ToUpper(args[0])}, code
	}
	return Action{Who: node, Verb: VerbCLI, Cmd: args}, ""
}

// Why a command is not sent, by its name.
var (
	// blocking commands could wait for ever; the command line's every
	// command answers at once.
	blockingCmds = words("BLPOP BRPOP BRPOPLPUSH BLMOVE BLMPOP BZPOPMIN BZPOPMAX BZMPOP WAIT WAITAOF XREAD XREADGROUP")
	// modeCmds leave the connection in a mode of its own.
	modeCmds = words("MULTI EXEC DISCARD WATCH UNWATCH SUBSCRIBE PSUBSCRIBE SSUBSCRIBE UNSUBSCRIBE PUNSUBSCRIBE SUNSUBSCRIBE MONITOR SELECT RESET HELLO AUTH QUIT CLIENT READONLY READWRITE SYNC PSYNC")
	// adminCmds administer the server (and would on a shared real Redis).
	adminCmds = words("SHUTDOWN CONFIG DEBUG SCRIPT FUNCTION FCALL FCALL_RO FLUSHALL FLUSHDB SAVE BGSAVE BGREWRITEAOF LASTSAVE REPLICAOF SLAVEOF FAILOVER SWAPDB MOVE MIGRATE MODULE ACL CLUSTER LATENCY MEMORY SLOWLOG INFO OBJECT COMMAND ROLE LOLWUT DUMP RESTORE PUBLISH SPUBLISH PUBSUB")
	// sentCmds are what the command line sends: reads, writes, deletes,
	// relative expiry, counters, lists, a simple script and DELEX (the
	// compare-and-delete lesson 4 shows, Redis 8.4+) — each with
	// its keys where the real-Redis backend knows to find them
	// (sim/realredis keyPositions, which a test holds to this list). Not sent, though harmless on one's own
	// server: what reads the wall clock or absolute times (TIME,
	// EXPIREAT, EXPIRETIME…), which would break replaying on virtual time,
	// what sets a TTL in a way the real backend does not track (SETEX,
	// PSETEX, GETEX: SET … PX does the same),
	// and what walks the whole key space (KEYS, SCAN, DBSIZE), which on a
	// shared real Redis would show other timelines' keys.
	sentCmds = words("GET SET SETNX GETSET GETDEL MGET MSET MSETNX APPEND STRLEN GETRANGE SETRANGE " +
		"INCR INCRBY DECR DECRBY DEL UNLINK DELEX EXISTS TYPE TTL PTTL EXPIRE PEXPIRE PERSIST " +
		"RENAME RENAMENX COPY LPUSH RPUSH LPOP RPOP LRANGE LLEN LINDEX ECHO PING EVAL")
)

// SentCommands are the names of the commands the command line sends,
// sorted: what its completion offers. Callers must not change it.
func SentCommands() []string { return sentNames }

var sentNames = slices.Sorted(maps.Keys(sentCmds))

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// ScriptRefusal is why CheckCommand refuses args as CodeCmdScript, for a
// page to say: the script checker's own error (a *luacheck.Error, with
// its line, column and code), or nil where it is another rule (an
// argument past luacheck.MaxArgBytes) or no refusal at all.
func ScriptRefusal(args []string) error {
	if len(args) < 3 || !strings.EqualFold(args[0], "EVAL") {
		return nil
	}
	return luacheck.Check(args[1], luacheck.Operator)
}

// MaxTypedTTL is the longest TTL a typed command may set, in ms: a
// hundred years. The embedded server keeps a key's time to live as Go's
// time.Duration, nanoseconds in 64 bits (292 years at most): a longer one
// wrapped round and the key expired at once, where Redis keeps it.
const MaxTypedTTL int64 = 100 * 365 * 24 * 3600 * 1000

// typedTTL is the TTL in ms that a typed SET (EX, PX), EXPIRE or PEXPIRE
// asks for, or 0 (none, a relative one Redis itself refuses, or an
// absolute time).
func typedTTL(args []string) int64 {
	ms := func(s string, unit int64) int64 {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			return 0
		}
		if n > math.MaxInt64/unit {
			return math.MaxInt64
		}
		return n * unit
	}
	switch strings.ToUpper(args[0]) {
	case "EXPIRE":
		if len(args) >= 3 {
			return ms(args[2], 1000)
		}
	case "PEXPIRE":
		if len(args) >= 3 {
			return ms(args[2], 1)
		}
	case "SET":
		for i := 3; i+1 < len(args); i++ {
			switch strings.ToUpper(args[i]) {
			case "EX":
				return ms(args[i+1], 1000)
			case "PX":
				return ms(args[i+1], 1)
			}
		}
	}
	return 0
}

// CheckCommand says whether the command line sends args ("" if it does):
// a blocking, mode-changing or administrative command, or another Redis
// command it does not offer, is refused with its own code; a name that is
// no Redis command is sent, and gets Redis's "unknown command" on its row; a script (EVAL) must pass the
// design page's checker, which admits only scripts that always end.
func CheckCommand(args []string) Code {
	name := strings.ToUpper(args[0])
	switch {
	case blockingCmds[name]:
		return CodeCmdBlocking
	case modeCmds[name]:
		return CodeCmdMode
	case adminCmds[name]:
		return CodeCmdAdmin
	case !sentCmds[name] && rediscli.Known(name):
		return CodeCmdNotOffered
	case !sentCmds[name]:
		return "" // no Redis command: sent, and answered "unknown command" as Redis answers it
	case typedTTL(args) > MaxTypedTTL:
		return CodeCmdTTL
	case name == "EVAL":
		if len(args) < 3 {
			return "" // Redis answers the missing arguments itself
		}
		if luacheck.Check(args[1], luacheck.Operator) != nil {
			return CodeCmdScript
		}
		for _, a := range args[3:] {
			if len(a) > luacheck.MaxArgBytes { // the checker's size bounds assume it
				return CodeCmdScript
			}
		}
	}
	return ""
}

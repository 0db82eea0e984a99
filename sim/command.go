// command.go reads and checks the commands a learner types on a timeline's
// command line: redis-cli's quoting (ParseCommand), one canonical way to
// print them back into a URL (FormatCommand), and the rule for which
// commands the command line sends (CheckCommand). A command that could
// block, leave the connection in a mode of its own, administer the server
// or run away never reaches a server.
package sim

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"locklab/sim/luacheck"
)

// Limits on one typed command: its arguments' bytes and their number.
// Its printed form may be longer (an escaped byte takes four), up to
// maxCommandLine.
const (
	MaxCommandLen  = 512 // bytes of all the arguments together
	MaxCommandArgs = 16  // the command name included
	maxCommandLine = 4*MaxCommandLen + 3*MaxCommandArgs
)

// ParseCommand splits a command line as redis-cli does: arguments
// separated by spaces; "double quotes" with the escapes \n \r \t \b \a
// \\ \" and \xHH; 'single quotes' with only \' (and \\); a closing quote
// must be followed by a space or the end. It returns CodeCmdSyntax for an
// unbalanced quote or an empty line, CodeCmdTooLong past the limits.
func ParseCommand(line string) ([]string, Code) {
	if len(line) > maxCommandLine {
		return nil, CodeCmdTooLong
	}
	var args []string
	size := 0
	i := 0
	for {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		var b strings.Builder
		inDouble, inSingle, done := false, false, false
		for !done {
			if i == len(line) {
				if inDouble || inSingle {
					return nil, CodeCmdSyntax // unbalanced quotes
				}
				break
			}
			c := line[i]
			switch {
			case inDouble:
				switch {
				case c == '\\' && i+3 < len(line) && line[i+1] == 'x' && isHex(line[i+2]) && isHex(line[i+3]):
					v, _ := strconv.ParseUint(line[i+2:i+4], 16, 8)
					b.WriteByte(byte(v))
					i += 3
				case c == '\\' && i+1 < len(line):
					i++
					b.WriteByte(unescape(line[i]))
				case c == '"':
					if i+1 < len(line) && !isSpace(line[i+1]) {
						return nil, CodeCmdSyntax // a closing quote must be followed by a space
					}
					done = true
				default:
					b.WriteByte(c)
				}
			case inSingle:
				switch {
				case c == '\\' && i+1 < len(line) && (line[i+1] == '\'' || line[i+1] == '\\'):
					i++
					b.WriteByte(line[i])
				case c == '\'':
					if i+1 < len(line) && !isSpace(line[i+1]) {
						return nil, CodeCmdSyntax
					}
					done = true
				default:
					b.WriteByte(c)
				}
			default:
				switch c {
				case ' ', '\n', '\r', '\t', '\v', '\f':
					done = true
				case '"':
					inDouble = true
				case '\'':
					inSingle = true
				default:
					b.WriteByte(c)
				}
			}
			i++
		}
		args = append(args, b.String())
		size += b.Len()
		if len(args) > MaxCommandArgs || size > MaxCommandLen {
			return nil, CodeCmdTooLong
		}
	}
	if len(args) == 0 {
		return nil, CodeCmdSyntax
	}
	return args, ""
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f'
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'b':
		return '\b'
	case 'a':
		return '\a'
	}
	return c
}

// FormatCommand prints args as one command line ParseCommand reads back
// to the same args. An argument that is plain (letters, digits and
// -_:.*?/@{}[]=+) is printed as it is; any other is double-quoted as
// redis-cli prints a string (quote, reply.go), with the comma that
// separates actions in a URL written \x2c too. The same args always print the same
// way, so a typed command has one URL.
func FormatCommand(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = quoteArg(a)
	}
	return strings.Join(parts, " ")
}

// ShowCommand is a command as a page shows it: every argument as
// redis-cli reads it back, so the line pasted into a command line sends
// the same arguments ("written by A" in quotes, a comma bare).
func ShowCommand(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = showArg(a)
	}
	return strings.Join(parts, " ")
}

func showArg(a string) string {
	plain := a != ""
	for i := 0; i < len(a) && plain; i++ {
		c := a[i]
		plain = c > ' ' && c < 0x7f && c != '"' && c != '\'' && c != '\\'
	}
	if plain {
		return a
	}
	return quote(a)
}

func quoteArg(a string) string {
	plain := a != ""
	for i := 0; i < len(a) && plain; i++ {
		c := a[i]
		plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_:.*?/@{}[]=+", c) >= 0
	}
	if plain {
		return a
	}
	// quote (reply.go) never writes a comma but the argument's own
	return strings.ReplaceAll(quote(a), ",", `\x2c`)
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
	adminCmds = words("SHUTDOWN CONFIG DEBUG SCRIPT FUNCTION FCALL FCALL_RO FLUSHALL FLUSHDB SAVE BGSAVE BGREWRITEAOF LASTSAVE REPLICAOF SLAVEOF FAILOVER SWAPDB MOVE MIGRATE MODULE ACL CLUSTER LATENCY MEMORY SLOWLOG INFO OBJECT COMMAND ROLE LOLWUT EVALSHA EVALSHA_RO EVAL_RO DUMP RESTORE PUBLISH SPUBLISH PUBSUB")
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

// CheckCommand says whether the command line sends args ("" if it does):
// a blocking, mode-changing or administrative command, or one it does
// not offer, is refused with its own code; a script (EVAL) must pass the
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
	case !sentCmds[name]:
		return CodeCmdNotOffered
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

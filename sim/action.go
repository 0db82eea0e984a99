// action.go parses and prints learner actions, the `do` half of a
// timeline's URL state (options.go holds the other half). What each verb
// is and does is table.go's.

package sim

import (
	"strconv"
	"strings"

	"locklab/sim/rediscli"
)

// Limits on what one timeline may hold. They bound the work of a replay
// whatever a URL says.
const (
	MaxActions     = 200
	MaxStateLen    = 4096          // bytes of an encoded action or option list
	MaxWait        = 3_600_000     // one wait action, ms
	MaxVirtualTime = 6 * 3_600_000 // a whole timeline, ms
)

// The built-in verbs; table.go says what each does.
const (
	VerbAcquire = "acquire"
	VerbWrite   = "write"
	VerbRelease = "release"
	VerbPause   = "pause"
	VerbResume  = "resume"
	VerbCrash   = "crash"
	VerbNext    = "next"   // continue a program stopped between two commands
	VerbExtend  = "extend" // push the lock's TTL out (compare-and-PEXPIRE)
	VerbDrop    = "drop"   // the network loses the reply to the next command
	VerbTTL     = "ttl"    // ask the lock key's remaining TTL (PTTL): -1 no expiry, -2 no key
	VerbWait    = "wait"   // global: wait.<duration>
)

// Node verbs: faults and operations on a Redis node, written
// <node>.<verb>[.<duration>] (n3.down, n3.jump.5s, replica.promote).
const (
	NodeDown    = "down"    // stops answering: crashed or cut off
	NodeUp      = "up"      // answers again, with the data it had
	NodeRestart = "restart" // crashes and comes back: with or without its data (persist option)
	NodeJump    = "jump"    // its clock jumps forward: <node>.jump.<duration>
	NodeSlow    = "slow"    // each command takes this long to arrive: <node>.slow.<duration>
	NodePromote = "promote" // a replica becomes the primary clients talk to
)

// Action is one learner input: a client verb ("a.acquire"), a node verb
// ("n3.jump.5s") or a global verb with an argument ("wait.10s"). Ms holds a
// parsed duration.
type Action struct {
	Who  string // client id (one lower-case letter) or node name; "" for a global verb
	Verb string
	Ms   int64
	// Cmd is a typed command's arguments (VerbCLI; Who is its node).
	Cmd []string
}

// String is the canonical form used in URLs: the same action always prints
// the same way, so equal timelines have equal URLs.
func (a Action) String() string {
	switch {
	case a.Verb == VerbCLI:
		return VerbCLI + "." + a.Who + "." + rediscli.FormatCommand(a.Cmd)
	case a.Who == "":
		return a.Verb + "." + FormatDuration(a.Ms)
	case a.Ms > 0:
		return a.Who + "." + a.Verb + "." + FormatDuration(a.Ms)
	}
	return a.Who + "." + a.Verb
}

// Doer says who does the action, from its verb's entry (0 if the verb
// has none).
func (a Action) Doer() Doer {
	if s := spec(a.Verb); s != nil {
		return s.Doer
	}
	return 0
}

// FormatDuration prints ms as the shortest exact unit: 10s, 1500ms, 2m.
func FormatDuration(ms int64) string {
	switch {
	case ms != 0 && ms%60_000 == 0:
		return itoa(ms/60_000) + "m"
	case ms != 0 && ms%1000 == 0:
		return itoa(ms/1000) + "s"
	default:
		return itoa(ms) + "ms"
	}
}

// ParseDuration reads "10s", "500ms" or "2m" (whole numbers only).
func ParseDuration(s string) (int64, bool) {
	unit := int64(0)
	num := ""
	switch {
	case strings.HasSuffix(s, "ms"):
		unit, num = 1, strings.TrimSuffix(s, "ms")
	case strings.HasSuffix(s, "s"):
		unit, num = 1000, strings.TrimSuffix(s, "s")
	case strings.HasSuffix(s, "m"):
		unit, num = 60_000, strings.TrimSuffix(s, "m")
	default:
		return 0, false
	}
	if num == "" || len(num) > 8 || strings.TrimLeft(num, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return 0, false
	}
	return n * unit, true
}

// ParseActions reads a comma-separated action list. It checks the grammar
// and the limits only; whether an action is possible at its point of the
// timeline is for Replay to say.
func ParseActions(s string) ([]Action, error) {
	if len(s) > MaxStateLen {
		return nil, &ActionError{Index: -1, Action: s[:32] + "…", Code: CodeTooLong}
	}
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > MaxActions {
		return nil, &ActionError{Index: MaxActions, Action: parts[MaxActions], Code: CodeTooMany}
	}
	out := make([]Action, 0, len(parts))
	for i, p := range parts {
		a, code := parseAction(p)
		if code != "" {
			return nil, &ActionError{Index: i, Action: p, Code: code, Who: a.Who}
		}
		out = append(out, a)
	}
	return out, nil
}

// parseAction reads one action: <verb>.<arg> for the learner's own
// verbs, <who>.<verb>[.<arg>] otherwise, where who is a client's
// one-letter id for a client verb and a node's longer name for a node
// verb.
func parseAction(p string) (Action, Code) {
	head, tail, ok := strings.Cut(p, ".")
	if !ok || head == "" || tail == "" {
		return Action{}, CodeSyntax
	}
	if head == VerbCLI {
		return parseCLI(tail)
	}
	if s := spec(head); s != nil && s.Doer == ByLearner {
		ms, code := parseArg(s, tail, true)
		return Action{Verb: head, Ms: ms}, code
	}
	if !isName(head) {
		return Action{}, CodeSyntax
	}
	verb, arg, hasArg := strings.Cut(tail, ".")
	doer := ToNode
	if isClientID(head) {
		doer = ByClient
	}
	s := spec(verb)
	if s == nil || s.Doer != doer {
		return Action{}, CodeUnknownVerb
	}
	ms, code := parseArg(s, arg, hasArg)
	return Action{Who: head, Verb: verb, Ms: ms}, code
}

// parseCLI reads a typed command's <node>.<command>. A command the command
// line does not send is refused here, with its name as Who.
func parseCLI(tail string) (Action, Code) {
	node, line, ok := strings.Cut(tail, ".")
	if !ok || !isName(node) || isClientID(node) {
		return Action{}, CodeSyntax
	}
	return CommandAction(node, line)
}

// parseArg reads the argument of s's verb, if it takes one.
func parseArg(s *ActionSpec, arg string, present bool) (int64, Code) {
	if present != (s.Arg == ArgDuration) {
		return 0, CodeBadDuration
	}
	if !present {
		return 0, ""
	}
	ms, ok := ParseDuration(arg)
	if !ok || ms <= 0 || ms > MaxWait {
		return 0, CodeBadDuration
	}
	return ms, ""
}

// isClientID: a client is one letter; anything longer names a node.
func isClientID(s string) bool { return len(s) == 1 }

// isName: a client id is one letter, a node name a short [a-z][a-z0-9]*.
func isName(s string) bool {
	if s == "" || len(s) > 12 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// FormatActions is the canonical comma-separated form of an action list.
func FormatActions(as []Action) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = a.String()
	}
	return strings.Join(parts, ",")
}

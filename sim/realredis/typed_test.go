package realredis_test

// typed_test.go is the command line's differential test (issue 44):
// commands generated from everything the command line sends — each
// command in its valid shapes and broken ones (missing and extra
// arguments, conflicting options, bad and huge numbers, wrong types,
// binary and CJK values, scripts that fail at run time) — are typed on a
// timeline on the embedded server and on redis-server, in the same order
// on the same keys, and every reply must be equal in type and text.
// rediscli_test.go's TestShownAsRedisCLI holds how a reply is printed to
// redis-cli's own output, so equal replies are equal lines on the page.

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"locklab/sim"
	"locklab/sim/luarun"
	"locklab/sim/rediscli"
	"locklab/sim/redistest"
)

var (
	typedSeed  = flag.Uint64("typed.seed", 0, "seed of TestTypedCommandsAsRedis's generator (0: the clock's; printed on failure)")
	typedCount = flag.Int("typed.n", 0, "commands TestTypedCommandsAsRedis generates (0: 12,000 under CI, 1,000 locally)")
)

// Keys and values the generator draws from: a few names so commands meet
// each other's keys (a string, a counter, a list, a missing one), and
// values of every kind a learner might type.
var (
	typedKeys   = []string{"k", "n", "l", "s", "nokey", "鍵", "键 2", "k\x00bin"}
	typedValues = []string{"v", "1", "-3", "0", "41", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
		"1.5", "", " ", "\x00\xff\xfe", "日本語の値", "值", "a b", `quo"te`, "1e3", "+5", "007", strings.Repeat("x", 300)}
	typedNumbers = []string{"0", "1", "2", "-1", "-2", "5", "100", "1000", "100000", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808", "1.5", "abc", "", "0x10", " 1", "1e2", "+3", "99999999999999999999"}
)

// shape is one way a command may be typed: its arguments after the name,
// as tokens a generator fills (K a key, V a value, N a number, O an
// option word of the command, S a script), or literal words.
type shape []string

// typedShapes lists, per command the command line sends, the shapes it
// is typed in: the documented forms, then broken ones.
var typedShapes = map[string][]shape{
	"GET":      {{"K"}, {}, {"K", "K"}},
	"SET":      {{"K", "V"}, {"K", "V", "O"}, {"K", "V", "O", "O"}, {"K", "V", "O", "N"}, {"K", "V", "O", "O", "N"}, {"K", "V", "O", "N", "O"}, {"K"}, {"K", "V", "V"}},
	"SETNX":    {{"K", "V"}, {"K"}, {"K", "V", "V"}},
	"GETSET":   {{"K", "V"}, {"K"}},
	"GETDEL":   {{"K"}, {}, {"K", "K"}},
	"MGET":     {{"K"}, {"K", "K", "K"}, {}},
	"MSET":     {{"K", "V"}, {"K", "V", "K", "V"}, {"K", "V", "K"}, {"K"}, {}},
	"MSETNX":   {{"K", "V"}, {"K", "V", "K", "V"}, {"K", "V", "K"}, {}},
	"APPEND":   {{"K", "V"}, {"K"}, {"K", "V", "V"}},
	"STRLEN":   {{"K"}, {}, {"K", "K"}},
	"GETRANGE": {{"K", "N", "N"}, {"K", "N"}, {"K", "N", "N", "N"}},
	"SETRANGE": {{"K", "N", "V"}, {"K", "N"}, {"K", "N", "V", "V"}},
	"INCR":     {{"K"}, {}, {"K", "K"}},
	"INCRBY":   {{"K", "N"}, {"K"}, {"K", "N", "N"}},
	"DECR":     {{"K"}, {}},
	"DECRBY":   {{"K", "N"}, {"K"}},
	"DEL":      {{"K"}, {"K", "K", "K"}, {}},
	"UNLINK":   {{"K"}, {"K", "K"}, {}},
	"EXISTS":   {{"K"}, {"K", "K", "K"}, {}},
	"TYPE":     {{"K"}, {}, {"K", "K"}},
	"TTL":      {{"K"}, {}, {"K", "K"}},
	"PTTL":     {{"K"}, {}},
	"EXPIRE":   {{"K", "N"}, {"K", "N", "O"}, {"K", "N", "O", "O"}, {"K"}, {"K", "N", "V"}},
	"PEXPIRE":  {{"K", "N"}, {"K", "N", "O"}, {"K"}},
	"PERSIST":  {{"K"}, {}, {"K", "K"}},
	"RENAME":   {{"K", "K"}, {"K"}, {"K", "K", "K"}},
	"RENAMENX": {{"K", "K"}, {"K"}},
	"COPY":     {{"K", "K"}, {"K", "K", "O"}, {"K", "K", "O", "N"}, {"K"}},
	"LPUSH":    {{"K", "V"}, {"K", "V", "V"}, {"K"}},
	"RPUSH":    {{"K", "V"}, {"K", "V", "V", "V"}, {"K"}},
	"LPOP":     {{"K"}, {"K", "N"}, {"K", "N", "N"}, {}},
	"RPOP":     {{"K"}, {"K", "N"}, {}},
	"LRANGE":   {{"K", "N", "N"}, {"K", "N"}, {"K", "N", "N", "N"}},
	"LLEN":     {{"K"}, {}},
	"LINDEX":   {{"K", "N"}, {"K"}, {"K", "N", "N"}},
	"ECHO":     {{"V"}, {}, {"V", "V"}},
	"PING":     {{}, {"V"}, {"V", "V"}},
	"EVAL":     {{"S", "0"}, {"S", "1", "K"}, {"S", "1", "K", "V"}, {"S", "2", "K", "K", "V"}, {"S"}, {"S", "N"}, {"S", "2", "K"}, {"S", "-1"}},
}

// typedOptions are the option words of the commands that take some.
var typedOptions = map[string][]string{
	"SET":    {"NX", "XX", "GET", "EX", "PX", "KEEPTTL", "nx", "Px", "BOGUS"},
	"EXPIRE": {"NX", "XX", "GT", "LT", "BOGUS"}, "PEXPIRE": {"NX", "XX", "GT", "LT"},
	"COPY": {"REPLACE", "DB", "BOGUS"},
}

// typedScripts are scripts the checker admits, among them some that fail
// at run time (a wrong type, a non-number, an error raised on purpose, a
// call with a bad arity) or answer each reply type.
var typedScripts = []string{
	"return redis.call('GET', KEYS[1])",
	"return redis.call('SET', KEYS[1], ARGV[1])",
	"return redis.call('INCR', KEYS[1])",
	"return redis.pcall('INCR', KEYS[1])",
	"return redis.call('LPUSH', KEYS[1], ARGV[1])",
	"return redis.call('DEL', KEYS[1], KEYS[2])",
	"return redis.call('LRANGE', KEYS[1], 0, -1)",
	"return redis.call('GET')",
	"return redis.call('EXISTS', KEYS[1]) == 1",
	"return {1, 'two', {3}}",
	"return ARGV[1] .. '!'",
	"return tonumber(ARGV[1]) * 2",
	"return 3.99",
	"return nil",
	"return false",
	"return true",
	"return redis.error_reply('MY custom')",
	"return redis.status_reply('FINE')",
	"return error('raised')",
	"local n = tonumber(redis.call('GET', KEYS[1])) return n + 1",
	"return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])",
	"local held = redis.call('GET', KEYS[1]) if held ~= ARGV[1] then return 0 end return redis.call('DEL', KEYS[1])",
	"return #KEYS + #ARGV",
	"return tostring(1/3) .. ' ' .. tostring(0.1 + 0.2) .. ' ' .. tostring(2^53) .. ' ' .. tostring(-1.5e-7)",
	"redis.call('SET', KEYS[1], 1/3) return redis.call('GET', KEYS[1])",
	"local z = 0 redis.call('SET', KEYS[1], -z) return redis.call('GET', KEYS[1])",
	"return tostring(tonumber(ARGV[1]))",
}

// typedGen draws commands from a seeded PRNG.
type typedGen struct{ r *rand.Rand }

func (g typedGen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

// command is one generated command the command line sends, as typed.
func (g typedGen) command() []string {
	names := sim.SentCommands()
	for {
		name := g.pick(names)
		shapes, ok := typedShapes[name]
		if !ok {
			continue // DELEX: Redis 8.4's; Debian's redis-server has none (docs/parity.md)
		}
		sh := shapes[g.r.IntN(len(shapes))]
		args := []string{name}
		if g.r.IntN(8) == 0 {
			args[0] = strings.ToLower(name) // redis-cli sends what was typed
		}
		for _, tok := range sh {
			switch tok {
			case "K":
				args = append(args, g.pick(typedKeys))
			case "V":
				args = append(args, g.pick(typedValues))
			case "N":
				args = append(args, g.pick(typedNumbers))
			case "O":
				args = append(args, g.pick(typedOptions[name]))
			case "S":
				args = append(args, g.pick(typedScripts))
			default:
				args = append(args, tok)
			}
		}
		if sim.CheckCommand(args) != "" {
			continue // not sent
		}
		longTTLs(args)
		return args
	}
}

// longTTLs makes a TTL of less than a second in milliseconds a thousand
// times longer: a real server's clock runs while it executes a command
// (the real backend gives each key exactly its virtual time left before
// each one), so a key with a millisecond left may be gone on it and not on
// the virtual clock, which a command does not move.
func longTTLs(args []string) {
	for i := 1; i+1 < len(args); i++ {
		name := strings.ToUpper(args[0])
		if (name == "PEXPIRE" && i == 1) || (name == "SET" && i >= 3 && strings.EqualFold(args[i], "PX")) {
			if n, err := strconv.Atoi(args[i+1]); err == nil && n > 0 && n < 1000 && args[i+1] == strconv.Itoa(n) {
				args[i+1] += "000"
			}
		}
	}
}

// TestTypedCommandsAsRedis generates commands and types each on a
// timeline on both backends, in chunks of one timeline each, and
// compares every reply. Under CI it types 12,000 commands (about 6 s);
// locally 1,000, from a new seed each run (docs/testing.md); -typed.n and
// -typed.seed set both.
func TestTypedCommandsAsRedis(t *testing.T) {
	n := *typedCount
	if n == 0 {
		n = 1000
		if os.Getenv("CI") == "true" {
			n = 12_000
		}
	}
	seed := *typedSeed
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	servers := redistest.Start(t, 2) // the lock node and the storage
	sc, _ := sim.Lookup("atomic-acquire")
	g := typedGen{rand.New(rand.NewPCG(seed, 0x10c4))}
	var diffs []string
	compared, known := 0, 0
	const chunk = 150
	for done := 0; done < n; done += chunk {
		var actions []sim.Action
		for range min(chunk, n-done) {
			actions = append(actions, sim.Action{Who: sim.NodeRedis, Verb: sim.VerbCLI, Cmd: g.command()})
		}
		mem, memErr := sim.Replay(sc, sc.DefaultOpts(), actions)
		real, _, realErr := replayReal(t, servers, sc, sc.DefaultOpts(), actions)
		if memErr != nil || realErr != nil {
			if fmt.Sprint(memErr) != fmt.Sprint(realErr) {
				t.Fatalf("seed %d: the replays stopped differently:\n embedded:     %v\n redis-server: %v", seed, memErr, realErr)
			}
			continue
		}
		for i := range min(len(mem.Events), len(real.Events)) {
			m, r := mem.Events[i], real.Events[i]
			if m.Kind != sim.KindCommand || m.Actor != sim.Operator {
				continue
			}
			compared++
			if luaWording(m.Reply, r.Reply) {
				known++
				continue
			}
			if !reflect.DeepEqual(m.Reply, r.Reply) {
				diffs = append(diffs, fmt.Sprintf("%s\n    Lock Lab:     %s\n    redis-server: %s%s",
					sim.Action{Who: sim.NodeRedis, Verb: sim.VerbCLI, Cmd: m.Command}, oneLine(m.Reply.String()), oneLine(r.Reply.String()),
					before(mem.Events[:i], m.Command)))
			}
		}
	}
	t.Logf("seed %d: %d typed commands compared, %d differ, %d only by Lua's naming of a value (docs/parity.md)", seed, compared, len(diffs), known)
	if compared < n*9/10 {
		t.Errorf("seed %d: only %d of %d commands compared", seed, compared, n)
	}
	if len(diffs) > 0 {
		t.Errorf("seed %d (go test ./sim/realredis -run TypedCommands -typed.seed %d -typed.n %d): %d replies differ:\n  %s",
			seed, seed, n, len(diffs), strings.Join(diffs[:min(len(diffs), 60)], "\n  "))
	}
}

func oneLine(s string) string { return strconv.Quote(s) }

// luaNameRe is what Redis's Lua adds to some errors: the failing value's
// name ("local 'n' (a nil value)" for "a nil value").
var luaNameRe = regexp.MustCompile(`(?:local|global|field|upvalue|method) '[^']*' \(a (\w+) value\)`)

// luaWording: the one known difference (docs/parity.md), which the page
// says beside the reply (luarun.WordedOwnWay): the same error but for
// the value's name, which Lock Lab's Lua leaves out.
func luaWording(mem, real rediscli.Reply) bool {
	if mem.Kind != rediscli.ReplyError || real.Kind != rediscli.ReplyError || !luarun.WordedOwnWay(mem.Str) {
		return false
	}
	return mem.Str == luaNameRe.ReplaceAllString(real.Str, "a $1 value")
}

// before lists the last commands of events that named one of cmd's
// arguments (where a state that parted without a reply that differs
// may have parted).
func before(events []sim.Event, cmd []string) string {
	var out []string
	for i := len(events) - 1; i >= 0 && len(out) < 6; i-- {
		e := events[i]
		if e.Kind != sim.KindCommand || e.Actor != sim.Operator {
			continue
		}
		for _, a := range cmd[1:] {
			if slices.Contains(e.Command[1:], a) {
				out = append(out, "\n      after "+rediscli.FormatCommand(e.Command)+" -> "+oneLine(e.Reply.String()))
				break
			}
		}
	}
	slices.Reverse(out)
	return strings.Join(out, "")
}

// TestUnknownCommandAsRedis: a name that is no Redis command is typed
// like any other and gets, on its row, what redis-server itself answers
// (sent straight to it here: the real backend never sends one, since a
// newer server might know it), its case, quoting, NUL bytes, line breaks
// and the 128-byte cut included.
func TestUnknownCommandAsRedis(t *testing.T) {
	srv := redistest.Start(t, 1)[0]
	sc, _ := sim.Lookup("atomic-acquire")
	long := strings.Repeat("長", 50)
	cmds := [][]string{{"FOO", "bar"}, {"foo"}, {"Foo", "a b", "c"}, {"FOO", "x\x00y", "z"}, {"FOO", "line\nbreak\r"},
		{"FOO", long, long, "more"}, {strings.Repeat("N", 200)}, {"SETT", "k", "v"}, {"HGETEX", "h", "f"}, {"F'O", "'"}}
	rows, _ := typedRows(t, sc, "", sim.NodeRedis, cmds)
	for i, got := range rows {
		want, err := sendRaw(srv, cmds[i])
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != "(error) "+want {
			t.Errorf("%q:\n  Lock Lab:     %q\n  redis-server: %q", cmds[i], got.String(), "(error) "+want)
		}
	}
}

// typedRows types cmds on node of a timeline of sc after the actions of
// do, and returns the reply each row shows, in order, and the timeline.
func typedRows(t *testing.T, sc *sim.Scenario, do, node string, cmds [][]string) ([]rediscli.Reply, *sim.Timeline) {
	t.Helper()
	actions, err := sim.ParseActions(do)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if code := sim.CheckCommand(c); code != "" {
			t.Fatalf("%q: the command line does not send it (%s)", c, code)
		}
		actions = append(actions, sim.Action{Who: node, Verb: sim.VerbCLI, Cmd: c})
	}
	tl, err := sim.Replay(sc, sc.DefaultOpts(), actions)
	if err != nil {
		t.Fatal(err)
	}
	var rows []rediscli.Reply
	for _, e := range tl.Events {
		if e.Kind == sim.KindCommand && e.Actor == sim.Operator {
			rows = append(rows, e.Reply)
		}
	}
	if len(rows) != len(cmds) {
		t.Fatalf("%d rows for %d commands", len(rows), len(cmds))
	}
	return rows, tl
}

// sendRaw sends args to the server and returns its error reply's text.
func sendRaw(s *redistest.Server, args []string) (string, error) {
	_, err := s.Send(args...)
	if err == nil {
		return "", fmt.Errorf("%q: no error", args)
	}
	return err.Error(), nil
}

// TestCommandsAreRedis: the names the command line takes for Redis's
// commands (rediscli.Known) are the server's own (COMMAND LIST), but
// DELEX, Redis 8.4's, which the embedded server runs (docs/parity.md).
func TestCommandsAreRedis(t *testing.T) {
	srv := redistest.Start(t, 1)[0]
	version, err := srv.Version()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(version, "7.0.") {
		t.Skipf("redis-server %s: the list is Redis 7.0's", version)
	}
	c := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer c.Close()
	names, err := c.Do(context.Background(), "COMMAND", "LIST").StringSlice()
	if err != nil {
		t.Fatal(err)
	}
	var server []string
	for _, n := range names {
		if !strings.Contains(n, "|") {
			server = append(server, strings.ToUpper(n))
		}
	}
	slices.Sort(server)
	ours := slices.DeleteFunc(rediscli.Commands(), func(n string) bool { return n == "DELEX" })
	if !slices.Equal(server, ours) {
		t.Errorf("redis-server %s knows %d commands, rediscli.Known %d:\n  server %v\n  ours   %v", version, len(server), len(ours), server, ours)
	}
	infos, err := c.Command(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	var writes []string
	for name, info := range infos {
		if !strings.Contains(name, "|") && slices.Contains(info.Flags, "write") {
			writes = append(writes, strings.ToUpper(name))
		}
	}
	slices.Sort(writes)
	if ours := slices.DeleteFunc(rediscli.Writes(), func(n string) bool { return n == "DELEX" }); !slices.Equal(writes, ours) {
		t.Errorf("redis-server flags %d commands write, rediscli.IsWrite %d:\n  server %v\n  ours   %v", len(writes), len(ours), writes, ours)
	}
}

// TestReplicaReadOnlyAsRedis: commands typed on the failover lesson's
// replica answer as a real replica does (replica-read-only, Redis's
// default): a write is refused with READONLY, inside a script too, and a
// read is answered; the replication model's own writes still arrive.
func TestReplicaReadOnlyAsRedis(t *testing.T) {
	srv := redistest.Start(t, 2)
	host, port, _ := strings.Cut(srv[0].Addr, ":")
	if _, err := srv[1].Send("REPLICAOF", host, port); err != nil {
		t.Fatal(err)
	}
	var d net.Dialer
	real := rediscli.NewConn(&redis.Options{Addr: srv[1].Addr, Protocol: 2, DisableIdentity: true}, d.DialContext)
	defer real.Close()
	cmds := [][]string{{"SET", "x", "1"}, {"GET", "x"}, {"DEL", "x"}, {"incr", "n"}, {"EXPIRE", "x", "5"}, {"COPY", "a", "b"},
		{"EVAL", "return redis.call('GET', KEYS[1])", "1", "x"}, {"EVAL", "return redis.call('SET', KEYS[1], 'v')", "1", "x"},
		{"EVAL", "return 1", "0"}, {"PERSIST", "x"}, {"LPOP", "l"}, {"TYPE", "x"}}
	sc, _ := sim.Lookup("failover")
	rows, tl := typedRows(t, sc, "a.acquire,wait.3s", sim.NodeReplica, cmds)
	for i, got := range rows {
		args := make([]any, len(cmds[i]))
		for j, a := range cmds[i] {
			args[j] = a
		}
		want, _, err := real.Do(context.Background(), args...)
		if err != nil && !rediscli.IsReply(err) {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q on the replica:\n  Lock Lab:     %s\n  redis-server: %s", cmds[i], got.String(), want.String())
		}
	}
	// the model's replication still wrote A's key to the replica
	if got := tl.Events; !slices.ContainsFunc(got, func(e sim.Event) bool {
		return e.Node == sim.NodeReplica && e.Kind == sim.KindCommand && e.Actor != sim.Operator && e.Reply.String() == "OK"
	}) {
		t.Error("the replication model's writes to the replica were refused")
	}
}

// TestTTLRoundsAsRedis: TTL answers the seconds left rounded to the
// nearest ((ms+500)/1000), as Redis does, not cut (a Japanese reader typed
// SET t v PX 1500, TTL t and got 1 where redis-server says 2). The
// lengths keep clear of the half second: a real server's clock runs on
// while it answers.
func TestTTLRoundsAsRedis(t *testing.T) {
	servers := redistest.Start(t, 2)
	sc, _ := sim.Lookup("atomic-acquire")
	var actions []sim.Action
	for _, ms := range []string{"1700", "1300", "2600", "2400", "900"} {
		for _, cmd := range [][]string{{"SET", "t" + ms, "v", "PX", ms}, {"TTL", "t" + ms}} {
			actions = append(actions, sim.Action{Who: sim.NodeRedis, Verb: sim.VerbCLI, Cmd: cmd})
		}
	}
	mem, err := sim.Replay(sc, sc.DefaultOpts(), actions)
	if err != nil {
		t.Fatal(err)
	}
	real, _, err := replayReal(t, servers, sc, sc.DefaultOpts(), actions)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"t1700": 2, "t1300": 1, "t2600": 3, "t2400": 2, "t900": 1}
	seen := 0
	for i, m := range mem.Events {
		if m.Kind != sim.KindCommand || m.Actor != sim.Operator || m.Command[0] != "TTL" {
			continue
		}
		seen++
		r := real.Events[i]
		if !reflect.DeepEqual(m.Reply, r.Reply) || !m.Reply.IsInt(want[m.Command[1]]) {
			t.Errorf("TTL %s: Lock Lab %s, redis-server %s, want (integer) %d", m.Command[1], oneLine(m.Reply.String()), oneLine(r.Reply.String()), want[m.Command[1]])
		}
	}
	if seen != len(want) {
		t.Errorf("%d TTL replies seen, want %d", seen, len(want))
	}
}

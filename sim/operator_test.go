package sim

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"locklab/sim/rediscli"
)

// TestParseCommand: redis-cli's quoting, and one canonical print that
// reads back to the same arguments and never holds the URL's comma.
func TestParseCommand(t *testing.T) {
	for line, want := range map[string][]string{
		"PTTL lock:order:42":      {"PTTL", "lock:order:42"},
		"  get   k  ":             {"get", "k"},
		`SET k "a b"`:             {"SET", "k", "a b"},
		`SET k "a\"b\\c\n"`:       {"SET", "k", "a\"b\\c\n"},
		`SET k "\x41\x00z"`:       {"SET", "k", "A\x00z"},
		`SET k 'it\'s'`:           {"SET", "k", "it's"},
		`SET k 'a\nb'`:            {"SET", "k", `a\nb`},
		`SET k ""`:                {"SET", "k", ""},
		"SET k a,b":               {"SET", "k", "a,b"},
		`EVAL "return 1" 0`:       {"EVAL", "return 1", "0"},
		"SET k\tv":                {"SET", "k", "v"},
		`SET k "日本"`:              {"SET", "k", "日本"},
		`ECHO "\xZZ"`:             {"ECHO", "xZZ"},
		"GET data:order:42:token": {"GET", "data:order:42:token"},
	} {
		got, code := ParseCommand(line)
		if code != "" || !slices.Equal(got, want) {
			t.Errorf("ParseCommand(%q) = %q, %q; want %q", line, got, code, want)
			continue
		}
		f := rediscli.FormatCommand(got)
		if strings.Contains(f, ",") {
			t.Errorf("FormatCommand(%q) = %q holds a comma", got, f)
		}
		if back, code := ParseCommand(f); code != "" || !slices.Equal(back, got) {
			t.Errorf("FormatCommand(%q) = %q reads back as %q, %q", got, f, back, code)
		}
	}
	for _, line := range []string{"", "   ", `GET "k`, `GET 'k`, `GET "k"x`, `GET 'k'x`, strings.Repeat("a ", 20), strings.Repeat("x", rediscli.MaxCommandLen+1), strings.Repeat(`"\x00" `, 200)} {
		if _, code := ParseCommand(line); code == "" {
			t.Errorf("ParseCommand(%q) accepted", line)
		}
	}
}

// FuzzParseCommand: whatever is typed, the parser answers without
// panicking, and what it accepts prints to a form that reads back the same.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"GET k", `SET k "a\x00,b"`, `'a\'b'`, `"\x4`, "EVAL 'return 1' 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args, code := ParseCommand(line)
		if code != "" {
			return
		}
		out := rediscli.FormatCommand(args)
		if back, code := ParseCommand(out); code != "" || !slices.Equal(back, args) {
			t.Fatalf("%q → %q → %q (%q)", line, out, back, code)
		}
		as, err := ParseActions("cli.redis." + out)
		if err == nil && (len(as) != 1 || !slices.Equal(as[0].Cmd, args)) {
			t.Fatalf("the action of %q reads back as %v", out, as)
		}
	})
}

// TestCheckCommand: what the command line refuses, and why.
func TestCheckCommand(t *testing.T) {
	for line, want := range map[string]Code{
		"GET k": "", "del lock:order:42": "", "EVAL 'return redis.call(\"GET\", KEYS[1])' 1 k": "",
		"BLPOP q 0": CodeCmdBlocking, "WAIT 1 0": CodeCmdBlocking, "XREAD BLOCK 0 STREAMS s $": CodeCmdBlocking,
		"MULTI": CodeCmdMode, "SUBSCRIBE c": CodeCmdMode, "MONITOR": CodeCmdMode, "CLIENT PAUSE 1000": CodeCmdMode,
		"SHUTDOWN": CodeCmdAdmin, "CONFIG SET maxmemory 1": CodeCmdAdmin, "DEBUG SLEEP 10": CodeCmdAdmin,
		"FLUSHALL": CodeCmdAdmin, "SCRIPT KILL": CodeCmdAdmin,
		"KEYS *": CodeCmdNotOffered, "TIME": CodeCmdNotOffered, "HSET h f v": CodeCmdNotOffered,
		"EVAL 'while true do end' 0": CodeCmdScript, "EVAL 'local function f() end' 0": CodeCmdScript,
	} {
		args, code := ParseCommand(line)
		if code != "" {
			t.Fatalf("%q: %s", line, code)
		}
		if got := CheckCommand(args); got != want {
			t.Errorf("CheckCommand(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestOperatorCommands: typed commands run on the timeline's own servers
// at its virtual instant, their replies are what Redis answered, and the
// checks see their effects.
func TestOperatorCommands(t *testing.T) {
	you := func(tl *Timeline) []Event {
		var out []Event
		for _, e := range tl.Events {
			if e.Actor == Operator {
				out = append(out, e)
			}
		}
		return out
	}
	// PTTL at 4 s into A's 10 s lock; GET of the storage's token.
	tl := run(t, "fencing", "", "a.acquire,wait.4s,cli.redis.PTTL lock:order:42,cli.storage.GET data:order:42:token,cli.redis.PTTL nokey")
	ev := you(tl)
	if len(ev) != 3 || !ev[0].Reply.IsInt(6000) || ev[0].Node != NodeRedis || ev[1].Reply.Kind != rediscli.ReplyNil || !ev[2].Reply.IsInt(-2) {
		t.Fatalf("typed commands: %v", ev)
	}
	// Deleting B's lock by hand lets C in beside B: two holders.
	tl = run(t, "safe-release", "", "a.acquire,a.pause,wait.10s,b.acquire,cli.redis.DEL lock:order:42,c.acquire")
	if ev := you(tl); len(ev) != 1 || !ev[0].Reply.IsInt(1) {
		t.Fatalf("DEL by hand: %v", ev)
	}
	if !slices.Contains(kinds(tl), "two-holders:c,b") {
		t.Errorf("C beside B after a hand DEL: violations %v", kinds(tl))
	}
	// A TTL shortened by hand runs out before B's own count: the key's
	// expiry is the operator taking B's lock, not B's lease ending.
	tl = run(t, "safe-release", "", "b.acquire,cli.redis.PEXPIRE lock:order:42 500,wait.1s,a.acquire")
	if got := kinds(tl); !slices.Contains(got, "foreign-delete:you,b") || !slices.Contains(got, "two-holders:a,b") {
		t.Errorf("hand-shortened TTL: violations %v", got)
	}
	// Redlock: one node's key deleted by hand leaves A a majority, which
	// is the lesson's "two nodes may fail"; the third one takes it.
	tl = run(t, "redlock", "", "a.acquire,cli.n1.DEL lock:order:42,cli.n2.DEL lock:order:42")
	if got := kinds(tl); len(got) != 0 {
		t.Errorf("Redlock, two of five keys deleted by hand: violations %v", got)
	}
	tl = run(t, "redlock", "", "a.acquire,cli.n1.DEL lock:order:42,cli.n2.DEL lock:order:42,cli.n3.DEL lock:order:42")
	if got := kinds(tl); !slices.Equal(got, []string{"foreign-delete:you,a"}) {
		t.Errorf("Redlock, the third key deleted by hand: violations %v", got)
	}
	// The same TTL set by hand but longer than B's count is no one's harm.
	tl = run(t, "safe-release", "", "b.acquire,cli.redis.PEXPIRE lock:order:42 20000,wait.1s")
	if got := kinds(tl); len(got) != 0 {
		t.Errorf("a longer hand TTL: violations %v", got)
	}
	// Resetting the storage's token lets A's older write land after B's.
	tl = run(t, "fencing", "", "a.acquire,a.pause,wait.10s,b.acquire,b.write,cli.storage.SET data:order:42:token 0,a.resume,a.write")
	if aw := find(tl, "a", "write"); len(aw) != 1 || !aw[0].Reply.IsInt(1) {
		t.Fatalf("A's write after the reset: %v", aw)
	}
	if !slices.Contains(kinds(tl), "stale-write:a,b") {
		t.Errorf("the reset token let A's stale write in: violations %v", kinds(tl))
	}
	// A Redis error reply is a reply, shown as such.
	tl = run(t, "fencing", "", "a.acquire,cli.redis.INCR lock:order:42")
	if ev := you(tl); len(ev) != 1 || ev[0].Reply.Kind != rediscli.ReplyError {
		t.Fatalf("INCR of a lock value: %v", ev)
	}
}

// TestOperatorRefusals: what a typed command cannot do, as action errors
// a page can word.
func TestOperatorRefusals(t *testing.T) {
	for do, want := range map[string]Code{
		"cli.redis.BLPOP q 0": CodeCmdBlocking,
		"cli.redis.FLUSHALL":  CodeCmdAdmin,
		`cli.redis.GET "k`:    CodeCmdSyntax,
		"cli.A.GET k":         CodeSyntax,
		"cli.redis.":          CodeCmdSyntax,
		"cli.redis.GET " + strings.Repeat("k", rediscli.MaxCommandLen): CodeCmdTooLong,
	} {
		_, err := ParseActions(do)
		var ae *ActionError
		if !errors.As(err, &ae) || ae.Code != want {
			t.Errorf("%q: %v, want %s", do, err, want)
		}
	}
	sc, _ := Lookup("coordination")
	opts := sc.DefaultOpts()
	for do, want := range map[string]Code{"cli.redis.GET k": CodeCmdNode, "cli.storage.GET data:order:42": ""} {
		as, err := ParseActions(do)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Replay(sc, opts, as)
		var ae *ActionError
		if (want == "") != (err == nil) || (err != nil && (!errors.As(err, &ae) || ae.Code != want)) {
			t.Errorf("coordination %q: %v, want %q", do, err, want)
		}
	}
}

// TestTypedTTLBound: a TTL the embedded server cannot keep (it counts
// nanoseconds in 64 bits: 292 years) is not sent, whatever command asks
// for it; a hundred years is.
func TestTypedTTLBound(t *testing.T) {
	for line, want := range map[string]Code{
		"SET k v EX 3153600000": "", "SET k v EX 3153600001": CodeCmdTTL, "SET k v PX 9223372036854775807": CodeCmdTTL,
		"EXPIRE k 9223372037": CodeCmdTTL, "PEXPIRE k 3153600000000": "", "PEXPIRE k 3153600000001": CodeCmdTTL,
		"SET k v NX EX 9999999999999": CodeCmdTTL, "EXPIRE k -5": "", "SET k v EX abc": "",
	} {
		args, _ := ParseCommand(line)
		if got := CheckCommand(args); got != want {
			t.Errorf("%s: %q, want %q", line, got, want)
		}
	}
}

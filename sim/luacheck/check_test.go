package luacheck_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"locklab/sim"
	"locklab/sim/luacheck"
)

// corpusCase is one testdata file: its first line is a header comment
// "-- kind=K [want=CODE] [at=LINE:COL]", the rest is the script.
type corpusCase struct {
	name, src string
	kind      luacheck.Kind
	want, at  string
}

var kinds = map[string]luacheck.Kind{"acquire": luacheck.Acquire, "release": luacheck.Release,
	"extend": luacheck.Extend, "storage": luacheck.Storage}

func corpus(t testing.TB, dir string) []corpusCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.lua"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in testdata/%s: %v", dir, err)
	}
	var cs []corpusCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		header, src, _ := strings.Cut(string(b), "\n")
		c := corpusCase{name: filepath.Base(f), src: src}
		kindSeen := false
		for _, field := range strings.Fields(strings.TrimPrefix(header, "--")) {
			k, v, _ := strings.Cut(field, "=")
			switch k {
			case "kind":
				c.kind, kindSeen = kinds[v]
				if !kindSeen {
					t.Fatalf("%s: unknown kind %q", f, v)
				}
			case "want":
				c.want = v
			case "at":
				c.at = v
			}
		}
		if !kindSeen {
			t.Fatalf("%s: header %q names no kind", f, header)
		}
		cs = append(cs, c)
	}
	return cs
}

// TestSafeCorpus: every preset a learner starts from, and more scripts a
// learner could reasonably write, are accepted.
func TestSafeCorpus(t *testing.T) {
	for _, c := range corpus(t, "safe") {
		if err := luacheck.Check(c.src, c.kind); err != nil {
			t.Errorf("%s (%s): refused: %v", c.name, c.kind, err)
		}
	}
}

// TestSimScripts: the scripts the lessons already run pass as the kind
// they play.
func TestSimScripts(t *testing.T) {
	kindOf := map[string]luacheck.Kind{"release": luacheck.Release, "fenced-write": luacheck.Storage,
		"fenced-write-strict": luacheck.Storage, "extend": luacheck.Extend, "charge-once": luacheck.Storage}
	for name, src := range sim.Scripts {
		k, ok := kindOf[name]
		if !ok {
			t.Errorf("script %q: no kind for it in this test; add one", name)
			continue
		}
		if err := luacheck.Check(src, k); err != nil {
			t.Errorf("sim script %q: refused: %v", name, err)
		}
	}
}

// TestHostileCorpus: every hostile script is refused with the code its
// file names, at the place it names.
func TestHostileCorpus(t *testing.T) {
	codes := map[string]int{}
	for _, c := range corpus(t, "hostile") {
		if c.want == "" {
			t.Fatalf("%s: a hostile case must name want=CODE", c.name)
		}
		err := luacheck.Check(c.src, c.kind)
		var e *luacheck.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: accepted (or not an *Error: %v), want %s", c.name, err, c.want)
			continue
		}
		codes[e.Code]++
		if e.Code != c.want {
			t.Errorf("%s: refused with %q (%v), want %q", c.name, e.Code, e, c.want)
		}
		if c.at != "" && c.at != strconv.Itoa(e.Line)+":"+strconv.Itoa(e.Col) {
			t.Errorf("%s: refused at %d:%d, want %s (%v)", c.name, e.Line, e.Col, c.at, e)
		}
		if e.Line < 1 || e.Col < 1 || !utf8.ValidString(e.Arg) {
			t.Errorf("%s: no position or a broken Arg: %q", c.name, e)
		}
		if msg := e.Error(); !strings.Contains(msg, "line ") || strings.Contains(msg, "{") {
			t.Errorf("%s: message %q", c.name, msg)
		}
	}
	t.Logf("refusals by code: %v", codes)
}

// TestEveryCodeHasEnglish: Error() never shows a bare code.
func TestEveryCodeHasEnglish(t *testing.T) {
	for _, code := range luacheck.Codes {
		e := &luacheck.Error{Line: 1, Col: 1, Code: code, Arg: "x", Allowed: "KEYS[1]"}
		if strings.HasSuffix(e.Error(), ": "+code) {
			t.Errorf("code %q has no English message", code)
		}
	}
}

// TestKindCounts pins what each kind is given (the table).
func TestKindCounts(t *testing.T) {
	for k, want := range map[luacheck.Kind][2]int{luacheck.Acquire: {1, 2}, luacheck.Release: {1, 1},
		luacheck.Extend: {1, 2}, luacheck.Storage: {2, 2}} {
		if k.Keys() != want[0] || k.Args() != want[1] {
			t.Errorf("%s: %d keys %d args, want %v", k, k.Keys(), k.Args(), want)
		}
		last := "KEYS[" + strconv.Itoa(want[0]) + "]"
		if err := luacheck.Check("return "+last, k); err != nil {
			t.Errorf("%s: %s refused: %v", k, last, err)
		}
		over := "return ARGV[" + strconv.Itoa(want[1]+1) + "]"
		if err := luacheck.Check(over, k); err == nil {
			t.Errorf("%s: %s accepted", k, over)
		}
	}
}

// runner evaluates scripts on a fresh miniredis through go-redis over an
// in-memory pipe, as sim does.
type runner struct {
	m  *miniredis.Miniredis
	rc *redis.Client
}

func newRunner(t testing.TB) *runner {
	t.Helper()
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	rc := redis.NewClient(&redis.Options{
		Addr:                  "pipe",
		Dialer:                func(context.Context, string, string) (net.Conn, error) { return m.Dial() },
		MaxRetries:            -1,
		ContextTimeoutEnabled: true,
		PoolSize:              1,
		Protocol:              2,
		DisableIdentity:       true,
	})
	t.Cleanup(func() { _ = rc.Close(); m.Close() })
	return &runner{m: m, rc: rc}
}

// keysFor names the keys a script of kind k gets.
func keysFor(k luacheck.Kind) []string {
	if k == luacheck.Storage {
		return []string{"record", "token"}
	}
	return []string{"lock"}
}

// maxStored is the largest string any accepted script can leave in Redis.
const maxStored = max(luacheck.MaxValueBytes, luacheck.MaxBytes, luacheck.MaxArgBytes)

// run evaluates src several times in a row (a value that grows per run
// would show) and fails the test on anything but a reply or an error
// reply, or on a value larger than the bound.
func (r *runner) run(t testing.TB, src string, k luacheck.Kind, argv []string) {
	t.Helper()
	r.runN(t, src, k, argv, 8)
}

// runN is run with n runs in a row (the fuzzer uses fewer, for speed: an
// EVAL on miniredis costs about a millisecond, most of it a new Lua state).
func (r *runner) runN(t testing.TB, src string, k luacheck.Kind, argv []string, n int) {
	t.Helper()
	r.m.FlushAll()
	r.m.Set("lock", "someone-else")
	r.m.Set("token", "3")
	keys := keysFor(k)
	args := make([]any, k.Args())
	for i := range args {
		args[i] = "1000"
		if i < len(argv) {
			args[i] = argv[i]
		}
	}
	for range n {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		start := time.Now()
		err := r.rc.Eval(ctx, src, keys, args...).Err()
		cancel()
		var re redis.Error
		if err != nil && err != redis.Nil && !errors.As(err, &re) {
			t.Fatalf("EVAL of an accepted script failed after %v: %v\n%s", time.Since(start), err, src)
		}
		for _, key := range r.m.Keys() {
			if !strings.HasPrefix(key, "lock") && !strings.HasPrefix(key, "record") && !strings.HasPrefix(key, "token") {
				t.Fatalf("an accepted script created key %q\n%s", key, src)
			}
			if v, err := r.m.Get(key); err == nil && len(v) > maxStored {
				t.Fatalf("an accepted script stored %d bytes in %q\n%s", len(v), key, src)
			}
		}
	}
}

// TestAcceptedScriptsEnd runs every safe script on miniredis: each ends
// with a reply or an error reply, never a timeout.
func TestAcceptedScriptsEnd(t *testing.T) {
	r := newRunner(t)
	long := strings.Repeat("9", luacheck.MaxArgBytes) // the longest ARGV a caller may pass
	for _, c := range corpus(t, "safe") {
		r.run(t, c.src, c.kind, []string{"a:1", "1000"})
		r.run(t, c.src, c.kind, []string{long, long})
	}
}

// TestLongestAcceptedScript: a script at the size limit made of nothing but
// commands (the most work a script can ask for) ends promptly, and the
// biggest concatenation the bound lets through stays within it.
func TestLongestAcceptedScript(t *testing.T) {
	var b strings.Builder
	for b.Len() < luacheck.MaxBytes-40 {
		b.WriteString("redis.call('INCR', KEYS[2])\n")
	}
	cmds := b.String()
	if err := luacheck.Check(cmds, luacheck.Storage); err != nil {
		t.Fatalf("%d bytes of INCR refused: %v", len(cmds), err)
	}
	bomb := "local a = ARGV[1] .. ARGV[2]\nlocal b = a .. a\nlocal c = b .. b\nlocal d = c .. c\n" +
		"redis.call('SET', KEYS[1], d)\nreturn d"
	if err := luacheck.Check(bomb, luacheck.Storage); err != nil {
		t.Fatalf("four doublings refused: %v", err)
	}
	if err := luacheck.Check(bomb+" .. d", luacheck.Storage); err == nil {
		t.Fatal("a fifth doubling accepted")
	}
	r := newRunner(t)
	long := strings.Repeat("x", luacheck.MaxArgBytes)
	r.run(t, cmds, luacheck.Storage, nil)
	r.run(t, bomb, luacheck.Storage, []string{long, long})
	if v, _ := r.m.Get("record"); len(v) != 16*luacheck.MaxArgBytes || len(v) > luacheck.MaxValueBytes {
		t.Errorf("stored %d bytes, want %d", len(v), 16*luacheck.MaxArgBytes)
	}
}

// FuzzCheck: Check never panics, and whatever it accepts runs by EVAL on
// miniredis and ends promptly with a reply or an error reply, never
// creating another key or storing a value past the bound, however many
// times it runs. Seeded with both corpora.
func FuzzCheck(f *testing.F) {
	for _, dir := range []string{"safe", "hostile"} {
		for _, c := range corpus(f, dir) {
			f.Add(c.src, uint8(c.kind), "a:1", "1000")
		}
	}
	for _, src := range sim.Scripts {
		f.Add(src, uint8(luacheck.Storage), "7", "v")
	}
	for i := range 20 {
		f.Add(strings.Repeat(string(rune('a'+i)), 40+i*7), uint8(i), "a:1", strconv.Itoa(i*100))
	}
	r := newRunner(f)
	f.Fuzz(func(t *testing.T, src string, kind uint8, a1, a2 string) {
		k := luacheck.Kind(kind % 4)
		argv := []string{clip(a1), clip(a2)}
		err := luacheck.Check(src, k)
		if err != nil {
			var e *luacheck.Error
			if !errors.As(err, &e) || e.Line < 1 || e.Col < 1 || e.Code == "" || !utf8.ValidString(e.Arg) {
				t.Fatalf("refusal %#v is not a positioned *Error", err)
			}
		} else {
			r.runN(t, src, k, argv, 3)
		}
		// The same bytes steer a generator of the subset: what it writes
		// is accepted unless a size rule says no, and then it runs.
		gen := generate([]byte(src), k)
		err = luacheck.Check(gen, k)
		var e *luacheck.Error
		if errors.As(err, &e) && !sizeRules[e.Code] {
			t.Fatalf("a script of the subset was refused: %v\n%s", err, gen)
		}
		if err == nil {
			r.runN(t, gen, k, argv, 3)
		}
	})
}

// clip keeps an ARGV within what the caller promises.
func clip(s string) string {
	if len(s) > luacheck.MaxArgBytes {
		return s[:luacheck.MaxArgBytes]
	}
	return s
}

// TestArgShort: a refusal quotes at most a short piece of the script, so a
// 2 KB name does not become a 2 KB message.
func TestArgShort(t *testing.T) {
	err := luacheck.Check("return "+strings.Repeat("x", 1500), luacheck.Release)
	var e *luacheck.Error
	if !errors.As(err, &e) || e.Code != luacheck.CodeGlobal || len(e.Arg) > 50 {
		t.Fatalf("got %v", err)
	}
}

// TestPositions: lines end at \n, \r\n or \r (a browser's form sends
// \r\n) and columns count characters, so a refusal points where the
// learner's editor does.
func TestPositions(t *testing.T) {
	for src, want := range map[string]string{
		"local x = 1\r\nwhile true do end":                    "2:1",
		"local x = 1\rlocal y = 2\r\n  goto z":                "3:3",
		"\tlocal s = string.rep('x', 9)":                      "1:12",
		"local a = '日本語' .. os.time()":                        "1:20",
		"-- コメント\nreturn redis.call('DEL', 'x')":              "2:26",
		"return redis.call('DEL', KEYS[1], KEYS[1], KEYS[2])": "1:44",
		"if true then\n  return 1\n":                          "3:1",
	} {
		var e *luacheck.Error
		if err := luacheck.Check(src, luacheck.Release); !errors.As(err, &e) {
			t.Errorf("%q accepted", src)
			continue
		}
		if got := strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col); got != want {
			t.Errorf("%q: refused at %s, want %s (%v)", src, got, want, e)
		}
	}
}

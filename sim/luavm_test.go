package sim

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"locklab/sim/luacheck"
)

// luaWorstCases are the scripts luacheck accepts that ask most of a Lua
// state: the most locals that compile in 2 KB, the deepest nesting it
// allows (calls, which hold registers, and blocks), redis.call with as
// many arguments as compile and with more (a compile error, at any size),
// and 2 KB of commands. Each is checked to be accepted (as a storage
// script: KEYS[1..2], ARGV[1..2]).
func luaWorstCases(t *testing.T) map[string]string {
	t.Helper()
	m := map[string]string{}
	// Locals: each one a register of the main chunk, up to the 200 the
	// compiler allows, with a command at the end that needs a few more.
	for _, n := range []int{150, 185, 190, 195} {
		var b strings.Builder
		for range n {
			b.WriteString("local a=1\n")
		}
		m["locals"+strconv.Itoa(n)] = b.String() + "return redis.call('SET',KEYS[1],a)"
	}
	// The deepest nesting: the longest chain of calls luacheck lets
	// through, as a command's argument (a register per level).
	deepest := ""
	for x := "ARGV[1]"; ; x = "tonumber(" + x + ")" {
		src := "return redis.call('RPUSH', KEYS[1], 1, 2, 3, " + x + ")"
		if luacheck.Check(src, luacheck.Storage) != nil {
			break
		}
		deepest = src
	}
	m["deepest-calls"] = deepest
	deepestIf := ""
	for n := 1; ; n++ {
		src := strings.Repeat("if ARGV[1] then ", n) + "redis.call('INCR', KEYS[2])" + strings.Repeat(" end", n) + " return 1"
		if luacheck.Check(src, luacheck.Storage) != nil {
			break
		}
		deepestIf = src
	}
	m["deepest-if"] = deepestIf
	// redis.call with many arguments: up to the most that compile, and
	// past it.
	for _, n := range []int{100, 190, 196, 197, 198, 250, 900} {
		m["args"+strconv.Itoa(n)] = "return redis.call('RPUSH', KEYS[1]" + strings.Repeat(",1", n) + ")"
	}
	// 2 KB of commands, and an error raised by one of them.
	var b strings.Builder
	for b.Len() < luacheck.MaxBytes-40 {
		b.WriteString("redis.call('INCR', KEYS[2])\n")
	}
	m["commands-2k"] = b.String() + "return 1"
	m["error"] = "redis.call('SET', KEYS[1], 'x')\nreturn redis.call('INCR', KEYS[1])"
	for name, src := range m {
		if src == "" {
			t.Fatalf("%s: nothing accepted", name)
		}
		if len(src) > luacheck.MaxBytes {
			t.Fatalf("%s: %d bytes", name, len(src))
		}
		if err := luacheck.Check(src, luacheck.Storage); err != nil {
			t.Fatalf("%s refused: %v", name, err)
		}
	}
	return m
}

// evalEach runs each script by EVAL on a fresh pooled server (two keys,
// two arguments) and returns its reply and the keys it left.
func evalEach(t *testing.T, scripts map[string]string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, src := range scripts {
		e := servers.get("lua")
		e.m.Set("token", "3")
		r, err := e.Connect().Client.Do(context.Background(), "EVAL", src, 2, "record", "token", "7", "v").Result()
		var got strings.Builder
		got.WriteString(fmtReply(r, err))
		for _, k := range slices.Sorted(slices.Values(e.m.Keys())) {
			v, _ := e.m.Get(k)
			l, _ := e.m.List(k)
			got.WriteString(" " + k + "=" + v + strings.Join(l, ","))
		}
		out[name] = got.String()
		e.Close()
	}
	return out
}

func fmtReply(r any, err error) string {
	if err != nil {
		return "error " + err.Error()
	}
	switch v := r.(type) {
	case int64:
		return "int " + strconv.FormatInt(v, 10)
	case string:
		return "string " + v
	case []any:
		return "array " + strconv.Itoa(len(v))
	}
	return "other"
}

// TestLuaSizesSuffice: with the smaller Lua state sizes luavm.go sets,
// every lesson script, the safe corpus of sim/luacheck and the scripts
// luacheck accepts that ask most of a Lua state give the same replies and
// leave the same keys as with gopher-lua's own sizes — and still do with
// a quarter of that registry and an eighth of that call stack (the
// margin luavm.go claims).
func TestLuaSizesSuffice(t *testing.T) {
	if lua.RegistrySize != luaRegistrySize || lua.CallStackSize != luaCallStackSize {
		t.Fatalf("sizes %d, %d: luavm.go's init did not run", lua.RegistrySize, lua.CallStackSize)
	}
	scripts := luaWorstCases(t)
	for name, src := range Scripts {
		scripts["lesson-"+name] = src
	}
	files, _ := filepath.Glob(filepath.Join("luacheck", "testdata", "safe", "*.lua"))
	if len(files) == 0 {
		t.Fatal("no safe corpus")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		scripts["safe-"+filepath.Base(f)] = string(b)
	}
	set := func(reg, cs int) { lua.RegistrySize, lua.CallStackSize = reg, cs }
	defer set(luaRegistrySize, luaCallStackSize)
	set(256*20, 256) // gopher-lua's own (config.go)
	want := evalEach(t, scripts)
	ok := 0
	for _, g := range want {
		if !strings.Contains(g, "error") {
			ok++
		}
	}
	if ok < len(scripts)/2 {
		t.Fatalf("only %d of %d scripts ran without an error: %v", ok, len(scripts), want)
	}
	for _, size := range [][2]int{{luaRegistrySize, luaCallStackSize}, {luaRegistrySize / 4, luaCallStackSize / 8}} {
		set(size[0], size[1])
		got := evalEach(t, scripts)
		for name := range scripts {
			if got[name] != want[name] {
				t.Errorf("registry %d, call stack %d: %s:\n got %s\nwant %s", size[0], size[1], name, got[name], want[name])
			}
		}
	}
}

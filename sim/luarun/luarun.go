// Package luarun answers EVAL on an embedded miniredis without building a
// new Lua state for every call, for the scripts it can prove need none of
// their own: those of sim/luacheck's subset.
//
// miniredis (v2.40) builds, for every EVAL, a gopher-lua state with seven
// standard libraries, a JSON module and a guard on globals: about 200 KB
// of garbage, ten times the work of the script itself, and the explorer
// runs an EVAL for most of the states it reaches. It also keeps every
// distinct script it ever compiled in a package-level map that nothing
// empties, so a public server that runs learners' scripts grows for ever.
// miniredis offers no way to change either, short of a fork.
//
// Install puts a hook in front of the server's command table (miniredis's
// own Server.SetPreHook). For an EVAL whose script luacheck accepts, the
// hook runs it on a Lua state taken from a small free list, with KEYS and
// ARGV set for the call and a `redis` table whose call and pcall dispatch
// each command to the same miniredis, as miniredis's own EVAL does (same
// argument rules, same reply conversions, same error texts). Compiled
// scripts live in a bounded cache (cacheSize scripts, least recently used
// forgotten first). Every other EVAL — a script outside the subset, a
// malformed call — falls through to miniredis unchanged.
//
// Why a reused state is safe for exactly these scripts: the subset has no
// assignment to a global or a field, no table constructor, no function
// definition and no way to reach any global but KEYS, ARGV, tonumber,
// tostring and redis.call/pcall (sim/luacheck's doc). A script of it
// cannot leave anything behind in the state for the next one: KEYS and
// ARGV are new tables each call, and the stack is emptied after it.
//
// Why the run is still atomic: miniredis's EVAL holds the server's lock
// for the whole script; the hook cannot take that lock (the commands it
// dispatches take it themselves), so it relies on what the simulator
// guarantees instead: a world sends one command at a time and waits for
// its reply, so no other command reaches the server while a script runs.
// Install is for such servers only.
//
// What differs from miniredis's EVAL, for scripts of the subset: the
// script is not added to the server's script cache, so an EVALSHA of its
// hash would answer NOSCRIPT (Lock Lab never sends EVALSHA; the command
// line refuses it). TestSameAsMiniredis (sim/luacheck) compares every
// reply and every key, error texts included, with miniredis's own EVAL on
// the safe corpus, the presets and thousands of generated scripts.
//
// Of Lock Lab it imports only sim/luacheck (TestImportDirection): the
// simulator's servers use it, so it must not import the simulator.
package luarun

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"
	lru "github.com/hashicorp/golang-lru/v2"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"locklab/sim/luacheck"
)

// cacheSize is how many distinct scripts stay compiled. The lessons and
// the design presets use a few dozen; a learner's own scripts come and go.
// An entry is its text (at most luacheck's 2 KB) and its compiled form (a
// few KB), so the cache stays under a few MB whatever is posted.
const cacheSize = 256

// freeStates is how many idle Lua states are kept for reuse: enough for
// every explorer worker of a few concurrent requests; a state beyond it
// is closed when its call ends.
const freeStates = 32

// compiled is one script as the cache holds it: its hash (what
// redis.call's errors name) and its compiled form, or nil when the script
// is not one luarun runs (miniredis's own EVAL answers it).
type compiled struct {
	sha   string
	proto *lua.FunctionProto
}

var (
	scripts = func() *lru.Cache[string, compiled] {
		c, err := lru.New[string, compiled](cacheSize)
		if err != nil {
			panic(err)
		}
		return c
	}()
	free = make(chan *state, freeStates)
	runs atomic.Int64
)

// Runs is how many EVALs luarun has answered in this process (the rest
// went to miniredis): what tests read to know the fast path was taken.
func Runs() int64 { return runs.Load() }

// Install makes m answer EVAL of luacheck's subset on reused Lua states.
// m must only ever have one command in flight (see the package doc), and
// nothing else may set its pre-hook (miniredis's SetError does).
func Install(m *miniredis.Miniredis) error {
	if m.Server() == nil {
		// A miniredis that is only ever dialled makes its server on the
		// first Dial; make it now, so the hook is there before any command.
		conn, err := m.Dial()
		if err != nil {
			return err
		}
		_ = conn.Close()
	}
	srv := m.Server()
	srv.SetPreHook(func(c *server.Peer, cmd string, args ...string) bool {
		if cmd != "EVAL" {
			return false
		}
		return Eval(srv, c, args)
	})
	return nil
}

// Eval answers one EVAL (args: the script, numkeys, keys and arguments)
// on c and reports true, or reports false and leaves it to miniredis: a
// malformed call, or a script outside the subset (InSubset). A pre-hook
// of srv that does more than EVAL (sim/redisfront) calls it for its
// EVALs; the commands the script dispatches come back through srv's
// pre-hook like any other.
func Eval(srv *server.Server, c *server.Peer, args []string) bool {
	if len(args) < 2 {
		return false
	}
	script := args[0]
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 0 || n > len(args)-2 {
		return false
	}
	sc := lookup(script)
	if sc.proto == nil {
		return false
	}
	runs.Add(1)
	st := take()
	defer st.give()
	l := st.l
	st.srv, st.sha = srv, sc.sha
	keys, argv := l.CreateTable(n, 0), l.CreateTable(len(args)-2-n, 0)
	for i, k := range args[2 : 2+n] {
		keys.RawSetInt(i+1, lua.LString(k))
	}
	for i, a := range args[2+n:] {
		argv.RawSetInt(i+1, lua.LString(a))
	}
	l.G.Global.RawSetString("KEYS", keys)
	l.G.Global.RawSetString("ARGV", argv)
	l.Push(l.NewFunctionFromProto(sc.proto))
	if err := l.PCall(0, lua.MultRet, nil); err != nil {
		c.WriteError(st.failure(err))
		return true
	}
	oldresp := c.Resp3
	toRedis(l, c, l.Get(1))
	c.Resp3 = oldresp
	c.SwitchResp3 = nil
	return true
}

// InSubset reports whether luarun runs script itself (sim/luacheck's
// subset, compiled by gopher-lua): for any other, Eval leaves the call
// to miniredis's own EVAL.
func InSubset(script string) bool { return lookup(script).proto != nil }

// lookup finds or compiles script. A script outside the subset, or one
// gopher-lua does not compile, is remembered as such (nil proto).
func lookup(script string) compiled {
	if sc, ok := scripts.Get(script); ok {
		return sc
	}
	sum := sha1.Sum([]byte(script))
	sc := compiled{sha: hex.EncodeToString(sum[:])}
	if luacheck.Check(script, luacheck.Operator) == nil {
		if chunk, err := parse.Parse(strings.NewReader(script), "<string>"); err == nil {
			if proto, err := lua.Compile(chunk, ""); err == nil {
				// The main chunk is a vararg function, and gopher-lua (with
				// Lua 5.0's compatibility on) builds an `arg` table of its
				// arguments on every call. No name reaches it in a main
				// chunk (it is not a local there, and the subset refuses
				// `...` and every global but its five), so it is not built.
				proto.IsVarArg &^= lua.VarArgNeedsArg
				sc.proto = proto
			}
		}
	}
	scripts.Add(script, sc)
	return sc
}

// state is one reusable Lua state with what its redis.call needs: the
// server and script of the call under way, and a buffer for the replies
// of the commands it dispatches.
type state struct {
	l   *lua.LState
	srv *server.Server
	sha string
	// raised is the error reply a redis.call raised in this run (""
	// none), and line the script's line that made the call: Redis words
	// the script's failure from them.
	raised string
	line   int
	buf    bytes.Buffer
	w      *bufio.Writer
	r      *bufio.Reader
}

func take() *state {
	select {
	case st := <-free:
		return st
	default:
	}
	st := &state{}
	st.w = bufio.NewWriter(&st.buf)
	st.r = bufio.NewReader(&st.buf)
	l := lua.NewState(lua.Options{SkipOpenLibs: true})
	// tonumber and tostring are all the subset uses of the standard
	// libraries; miniredis opens the base library the same way.
	if err := l.CallByParam(lua.P{Fn: l.NewFunction(lua.OpenBase), NRet: 0, Protect: true}, lua.LString(lua.BaseLibName)); err != nil {
		panic(err)
	}
	// Lua 5.1's tonumber (Redis's) reads a string as C's strtod does:
	// "1e3", " 7 ", "0x10"; gopher-lua's reads fewer.
	base := l.GetGlobal("tonumber")
	l.SetGlobal("tonumber", l.NewFunction(func(l *lua.LState) int {
		if s, ok := l.Get(1).(lua.LString); ok && l.GetTop() == 1 {
			if n, ok := str2number(string(s)); ok {
				l.Push(lua.LNumber(n))
			} else {
				l.Push(lua.LNil)
			}
			return 1
		}
		l.Insert(base, 1)
		l.Call(l.GetTop()-1, 1)
		return 1
	}))
	// Lua 5.1's tostring writes a number as C's %.14g (1/3 is
	// 0.33333333333333, 0.1+0.2 is 0.3); gopher-lua's as Go does.
	baseToString := l.GetGlobal("tostring")
	l.SetGlobal("tostring", l.NewFunction(func(l *lua.LState) int {
		if n, ok := l.Get(1).(lua.LNumber); ok && l.GetTop() == 1 {
			l.Push(lua.LString(cNumber(float64(n), 14)))
			return 1
		}
		l.Insert(baseToString, 1)
		l.Call(l.GetTop()-1, 1)
		return 1
	}))
	redisMod := l.CreateTable(0, 2)
	redisMod.RawSetString("call", l.NewFunction(st.call(true)))
	redisMod.RawSetString("pcall", l.NewFunction(st.call(false)))
	l.G.Global.RawSetString("redis", redisMod)
	st.l = l
	return st
}

// cNumber writes f as C's printf "%.<prec>g" does: Go's 'g' but for
// infinities and NaN, which C spells inf, -inf and nan (-nan when the
// sign is set, as glibc does).
func cNumber(f float64, prec int) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	}
	return strconv.FormatFloat(f, 'g', prec, 64)
}

// str2number reads s as Lua 5.1's luaO_str2d does: C's strtod (leading
// space, a sign, decimals, an exponent, inf and nan), else a hexadecimal
// integer after "0x"; trailing space is allowed, nothing else.
func str2number(s string) (float64, bool) {
	t := strings.Trim(s, " \t\n\v\f\r") // C's isspace
	if t == "" {
		return 0, false
	}
	if strings.ContainsRune(t, '_') {
		return 0, false // Go's literals allow them; strtod does not
	}
	if h, ok := strings.CutPrefix(strings.ToLower(strings.TrimLeft(t, "+-")), "0x"); ok {
		n, err := strconv.ParseUint(h, 16, 64)
		if err != nil {
			return 0, false
		}
		if strings.HasPrefix(t, "-") {
			return -float64(n), true
		}
		return float64(n), true
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return f, true
}

// give empties the state and keeps it for the next call, or closes it
// when enough are kept.
func (st *state) give() {
	st.l.SetTop(0)
	st.l.G.Global.RawSetString("KEYS", lua.LNil)
	st.l.G.Global.RawSetString("ARGV", lua.LNil)
	st.srv, st.raised, st.line = nil, "", 0
	select {
	case free <- st:
	default:
		st.l.Close()
	}
}

// call is redis.call (failFast) or redis.pcall, as miniredis's EVAL
// defines them: the arguments must be strings or numbers, the command is
// dispatched to the same server, and its reply becomes a Lua value; an
// error reply raises an error (call) or is returned as {err=…} (pcall).
func (st *state) call(failFast bool) lua.LGFunction {
	return func(l *lua.LState) int {
		top := l.GetTop()
		if top == 0 {
			st.raise(l, "ERR Please specify at least one argument for this redis lib call")
			return 0
		}
		args := make([]string, 0, top)
		for i := 1; i <= top; i++ {
			switch a := l.Get(i).(type) {
			case lua.LNumber:
				args = append(args, cNumber(float64(a), 17)) // Redis 7 sends a number as C's %.17g
			case lua.LString:
				args = append(args, string(a))
			default:
				const msg = "ERR Lua redis lib command arguments must be strings or integers"
				if failFast {
					st.raise(l, msg)
					return 0
				}
				t := l.CreateTable(0, 1) // pcall answers it as Redis 7 does: {err=…}
				t.RawSetString("err", lua.LString(msg))
				l.Push(t)
				return 1
			}
		}
		st.buf.Reset()
		st.w.Reset(&st.buf)
		peer := server.NewPeer(st.w)
		st.srv.Dispatch(peer, args)
		_ = st.w.Flush()
		st.r.Reset(&st.buf)
		res, err := server.ParseReply(st.r)
		if err != nil {
			msg := err.Error()
			if failFast {
				if strings.Contains(msg, "ERR unknown command") {
					msg = "ERR Unknown Redis command called from script"
				}
				st.raise(l, msg)
				return 0
			}
			if strings.Contains(msg, "ERR unknown command") {
				msg = "ERR Unknown Redis command called from script"
			}
			t := l.CreateTable(0, 1)
			t.RawSetString("err", lua.LString(msg))
			l.Push(t)
			return 1
		}
		switch r := res.(type) {
		case nil:
			l.Push(lua.LFalse)
		case int64:
			l.Push(lua.LNumber(r))
		case int:
			l.Push(lua.LNumber(r))
		case []uint8:
			l.Push(lua.LString(string(r)))
		case []any:
			l.Push(toLua(l, r))
		case server.Simple:
			t := l.CreateTable(0, 1)
			t.RawSetString("ok", lua.LString(string(r)))
			l.Push(t)
		case string:
			l.Push(lua.LString(r))
		case error:
			st.raise(l, r.Error())
			return 0
		default:
			l.Error(lua.LString(fmt.Sprintf("reply of type %T", r)), 1)
			return 0
		}
		return 1
	}
}

// toLua is a multi-bulk reply as a Lua array (nil elements as false).
func toLua(l *lua.LState, res []any) *lua.LTable {
	t := l.NewTable()
	for _, e := range res {
		var v lua.LValue = lua.LFalse
		switch et := e.(type) {
		case int:
			v = lua.LNumber(et)
		case int64:
			v = lua.LNumber(et)
		case []uint8:
			v = lua.LString(string(et))
		case []any:
			v = toLua(l, et)
		case string:
			v = lua.LString(et)
		}
		l.RawSet(t, lua.LNumber(t.Len()+1), v)
	}
	return t
}

// toRedis writes the script's result as miniredis's EVAL does: nil and
// false as a null, true as 1, numbers truncated to integers, a table with
// an err or ok field as an error or status, any other table as an array
// up to its first nil.
func toRedis(l *lua.LState, c *server.Peer, value lua.LValue) {
	switch t := value.(type) {
	case nil, *lua.LNilType:
		c.WriteNull()
	case lua.LBool:
		if t {
			c.WriteInt(1)
		} else {
			c.WriteNull()
		}
	case lua.LNumber:
		c.WriteInt(int(t))
	case lua.LString:
		c.WriteBulk(string(t))
	case *lua.LTable:
		if s := t.RawGetString("err"); s.Type() != lua.LTNil {
			c.WriteError(s.String())
			return
		}
		if s := t.RawGetString("ok"); s.Type() != lua.LTNil {
			c.WriteInline(s.String())
			return
		}
		var items []lua.LValue
		for j := 1; ; j++ {
			v := l.GetTable(t, lua.LNumber(j))
			if v == nil || v.Type() == lua.LTNil {
				break
			}
			items = append(items, v)
		}
		c.WriteLen(len(items))
		for _, v := range items {
			toRedis(l, c, v)
		}
	default:
		// A function or userdata: the subset cannot return one.
		c.WriteError(fmt.Sprintf("ERR script returned a %s", value.Type()))
	}
}

// raise is redis.call failing with the error reply msg: the script stops
// there, and Redis answers msg with where it happened (failure).
func (st *state) raise(l *lua.LState, msg string) {
	st.raised, st.line = msg, 0
	if m := whereRe.FindStringSubmatch(l.Where(1)); m != nil {
		st.line, _ = strconv.Atoi(m[1])
	}
	l.RaiseError("%s", msg)
}

// WordedOwnWay reports whether msg, a script's error reply, is one of
// the Lua errors that gopher-lua words without the name of the value it
// failed on: "attempt to concatenate a nil value", where Redis's Lua 5.1
// may say "attempt to concatenate local 'n' (a nil value)" (field, global,
// upvalue, method) when the value has a name. Nothing else of a reply is
// worded otherwise (the command line's differential test,
// sim/realredis): a page says so beside these, and docs/parity.md lists
// them.
func WordedOwnWay(msg string) bool { return ownWayRe.MatchString(msg) }

var ownWayRe = regexp.MustCompile(`user_script:\d+: attempt to (?:perform arithmetic on|concatenate|index|call|get length of) a \w+ value`)

// whereRe reads the line out of gopher-lua's "chunk:line:" prefix.
var whereRe = regexp.MustCompile(`^[^:]*:(\d+):\s?(.*)$`)

// failure is the error reply of a script that failed, worded as Redis 7
// words it (miniredis says "Error compiling script" for every failure,
// with gopher-lua's stack trace): a redis.call that got an error reply
// answers that reply, and a Lua error answers "user_script:LINE: …";
// both end with the script's SHA and the line.
//
//	ERR value is not an integer or out of range script: 6163…, on @user_script:1.
//	ERR user_script:2: attempt to compare number with nil script: da94…, on @user_script:2.
func (st *state) failure(err error) string {
	if st.raised != "" {
		return fmt.Sprintf("%s script: %s, on @user_script:%d.", st.raised, st.sha, st.line)
	}
	msg, line := err.Error(), 0
	var ae *lua.ApiError
	if errors.As(err, &ae) && ae.Object != nil {
		msg = ae.Object.String()
	}
	if m := whereRe.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	return fmt.Sprintf("ERR user_script:%d: %s script: %s, on @user_script:%d.", line, lua51(msg), st.sha, line)
}

// lua51 words a gopher-lua run-time error as Lua 5.1 (Redis's) does
// where the two differ and the words say enough: an operand that is no
// number, a value indexed that is no table. Lua 5.1 names the operand's
// variable when it has one ("local 'last' (a nil value)"); gopher-lua
// does not know it, so such an error still reads differently.
func lua51(msg string) string {
	if m := arithRe.FindStringSubmatch(msg); m != nil {
		t := m[2]
		if t == "number" || (m[1] == "concat" && t == "string") {
			t = m[3]
		}
		if m[1] == "concat" {
			return "attempt to concatenate a " + t + " value"
		}
		return "attempt to perform arithmetic on a " + t + " value"
	}
	if m := indexRe.FindStringSubmatch(msg); m != nil {
		return "attempt to index a " + m[1] + " value"
	}
	if m := compareRe.FindStringSubmatch(msg); m != nil && m[1] == m[2] {
		return "attempt to compare two " + m[1] + " values"
	}
	return msg
}

var (
	arithRe   = regexp.MustCompile(`^cannot perform (\w+) operation between (\w+) and (\w+)$`)
	indexRe   = regexp.MustCompile(`^attempt to index a non-table object\((\w+)\) with key '.*'$`)
	compareRe = regexp.MustCompile(`^attempt to compare (\w+) with (\w+)$`)
)

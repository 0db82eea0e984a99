package library_test

// library_test.go is the differential test of each library's model
// against the library itself, on redis-server, read with MONITOR: each
// case puts the server in a state (the lock free, held by this client,
// held by another, gone), then runs the library's operation and, on the
// server in the same state again, the model's; both must make Redis run
// the same commands with the same arguments (a script counted by its
// keys, arguments and the commands it runs inside, whatever its text),
// report the same outcome and leave the same key. The values are fixed
// on both sides (each library takes a caller's value or token), so
// nothing is compared "modulo" anything but time stamps, connection
// set-up and TTLs rounded to the second.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	"github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	goredislib "github.com/redis/go-redis/v9"

	"locklab/sim/library"
	"locklab/sim/redistest"
)

const (
	key   = "lock:order:42"
	value = "bG9ja2xhYi12YWx1ZS0wMQ==" // 24 characters, as redsync's own values
	other = "another-client-value"
	ttl   = 8 * time.Second
)

// a case: the state before (the lock taken by this client first, then
// "" left as it is, "gone" deleted, "other" another's, "nottl" its TTL
// taken off), and the operation.
type libCase struct {
	op    library.Op
	first bool   // this client takes the lock first (not watched)
	then  string // "", "gone", "other"
}

var cases = []libCase{
	{op: library.Acquire},
	{op: library.Acquire, then: "other"},
	{op: library.Extend, first: true},
	{op: library.Extend, first: true, then: "gone"},
	{op: library.Extend, first: true, then: "other"},
	{op: library.Extend, first: true, then: "nottl"},
	{op: library.Release, first: true},
	{op: library.Release, first: true, then: "gone"},
	{op: library.Release, first: true, then: "other"},
}

func (c libCase) String() string {
	s := string(c.op)
	if c.then != "" {
		s += "/" + c.then
	}
	return s
}

// real is the library's own client for one case: take the lock (not
// watched), then the operation watched, and the outcome it reports.
type real interface {
	take(ctx context.Context) error
	do(ctx context.Context, op library.Op) library.Outcome
}

// redsyncReal is redsync with a pool per node.
type redsyncReal struct{ mu *redsync.Mutex }

func newRedsync(cs ...*goredislib.Client) real {
	var pools []redis.Pool
	for _, c := range cs {
		pools = append(pools, goredis.NewPool(c))
	}
	// one try: the model's acquire is one try (its Tries say how many)
	return &redsyncReal{redsync.New(pools...).NewMutex(key, redsync.WithGenValueFunc(func() (string, error) { return value, nil }),
		redsync.WithTries(1), redsync.WithExpiry(ttl))}
}

func (r *redsyncReal) take(ctx context.Context) error { return r.mu.LockContext(ctx) }

func (r *redsyncReal) do(ctx context.Context, op library.Op) library.Outcome {
	var err error
	ok := true
	switch op {
	case library.Acquire:
		err = r.mu.LockContext(ctx)
		ok = err == nil
	case library.Extend:
		ok, err = r.mu.ExtendContext(ctx)
	case library.Release:
		ok, err = r.mu.UnlockContext(ctx)
	}
	// ErrTaken: a node answered that another value holds the key, which
	// is also what its extend says of a key that is gone (on several
	// nodes a majority may succeed beside it)
	var taken *redsync.ErrTaken
	switch {
	case ok:
		return library.OK
	case errors.As(err, &taken):
		return library.Taken
	case errors.Is(err, redsync.ErrLockAlreadyExpired):
		return library.Gone
	}
	return library.Outcome("error: " + err.Error())
}

type redislockReal struct {
	c *redislock.Client
	l *redislock.Lock
}

func newRedislock(c *goredislib.Client) real { return &redislockReal{c: redislock.New(c)} }

func (r *redislockReal) take(ctx context.Context) (err error) {
	r.l, err = r.c.Obtain(ctx, key, ttl, &redislock.Options{Token: value})
	return err
}

func (r *redislockReal) do(ctx context.Context, op library.Op) library.Outcome {
	var err error
	switch op {
	case library.Acquire:
		_, err = r.c.Obtain(ctx, key, ttl, &redislock.Options{Token: value})
	case library.Extend:
		err = r.l.Refresh(ctx, ttl, nil)
	case library.Release:
		err = r.l.Release(ctx)
	}
	switch {
	case err == nil:
		return library.OK
	case errors.Is(err, redislock.ErrNotObtained) && op == library.Acquire:
		return library.Taken
	case errors.Is(err, redislock.ErrNotObtained) || errors.Is(err, redislock.ErrLockNotHeld):
		return library.NotHeld
	}
	return library.Outcome("error: " + err.Error())
}

// model runs the library model's operation on the nodes cs: its calls
// to every node, and where fewer than a majority answered OK, what the
// library sends to every node before it reports. On one node the
// outcome is that node's; on several, a refusal is reported as Taken.
func model(ctx context.Context, t *testing.T, cs []*goredislib.Client, lib *library.Library, op library.Op) library.Outcome {
	st := lib.Ops[op]
	if st.Read == nil {
		return library.Refused // the library sends nothing
	}
	oks, out := 0, library.OK
	for _, c := range cs {
		for _, call := range st.Before {
			send(ctx, t, c, call)
		}
		if out = st.Read(send(ctx, t, c, st.Call)); out == library.OK {
			oks++
		}
	}
	if oks >= library.Majority(len(cs)) {
		return library.OK
	}
	if len(cs) > 1 {
		out = library.Taken
	}
	for _, c := range cs {
		for _, call := range st.OnRefused {
			send(ctx, t, c, call)
		}
	}
	return out
}

// send makes call on c and gives its reply as the model reads it: an
// integer, OK, or nil.
func send(ctx context.Context, t *testing.T, c *goredislib.Client, call library.Call) string {
	t.Helper()
	cmd, keys, args := call.Words(key, value, ttl.Milliseconds())
	var res any
	var err error
	if call.Script != "" {
		as := make([]any, len(args))
		for i, a := range args {
			as[i] = a
		}
		res, err = c.Eval(ctx, call.Script, keys, as...).Result()
	} else {
		as := make([]any, len(cmd))
		for i, a := range cmd {
			as[i] = a
		}
		res, err = c.Do(ctx, as...).Result()
	}
	switch {
	case errors.Is(err, goredislib.Nil):
		return "nil"
	case err != nil:
		t.Fatalf("the model's %v: %v", call, err)
	}
	return fmt.Sprint(res)
}

// monitor reads what one server runs, between two markers this test
// sends: waiting on the lines themselves, never on time.
type monitor struct {
	cmd   *exec.Cmd
	lines chan string
	c     *goredislib.Client
}

func watch(t *testing.T, s *redistest.Server, c *goredislib.Client) *monitor {
	t.Helper()
	host, port, _ := strings.Cut(s.Addr, ":")
	cmd := exec.Command(redistest.CLI(t), "-h", host, "-p", port, "monitor")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	m := &monitor{cmd: cmd, lines: make(chan string, 256), c: c}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			m.lines <- sc.Text()
		}
		close(m.lines)
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// MONITOR answers OK, then the commands from that moment on: echo a
	// marker until it comes through
	m.until(t, "ready")
	return m
}

// until sends ECHO marker (again, until MONITOR shows it) and returns
// the lines before it.
func (m *monitor) until(t *testing.T, marker string) []string {
	t.Helper()
	var got []string
	deadline := time.After(2 * time.Minute)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	m.c.Echo(context.Background(), "locklab-"+marker)
	for {
		select {
		case l, ok := <-m.lines:
			if !ok {
				t.Fatalf("MONITOR ended before %s", marker)
			}
			if strings.Contains(l, `"locklab-`+marker+`"`) {
				return got
			}
			got = append(got, l)
		case <-tick.C:
			if marker == "ready" {
				m.c.Echo(context.Background(), "locklab-"+marker)
			}
		case <-deadline:
			t.Fatalf("MONITOR never showed %s", marker)
		}
	}
}

var option = regexp.MustCompile(`^(?i:nx|xx|px|ex|get|keepttl)$`)

var monitorLine = regexp.MustCompile(`^[0-9.]+ \[\d+ ([^\]]+)\] (.*)$`)

// normal is what a MONITOR excerpt says of the lock: each command with
// its arguments ("lua:" before one a script ran), a script as "script"
// with its key count, keys and arguments (the EVALSHA a library tries
// first, refused as NOSCRIPT and followed by the same EVAL, or by SCRIPT
// LOAD and the same EVALSHA, once); a PEXPIRE's length to the second (a
// length added to the time left differs by the milliseconds between
// setting up and acting); connection set-up and the markers left out.
func normal(t *testing.T, lines []string) []string {
	t.Helper()
	var out []string
	for _, l := range lines {
		m := monitorLine.FindStringSubmatch(l)
		if m == nil {
			continue // "OK", MONITOR's own answer
		}
		words, err := splitQuoted(m[2])
		if err != nil || len(words) == 0 {
			t.Fatalf("MONITOR line %q: %v", l, err)
		}
		name := strings.ToLower(words[0])
		switch {
		case name == "hello" || name == "echo" || name == "client" || name == "ping" || name == "script" || name == "info": // connection set-up (ioredis asks INFO), markers, SCRIPT LOAD
			continue
		case name == "evalsha" || name == "eval":
			s := "script " + strings.Join(words[2:], " ")
			if len(out) > 0 && out[len(out)-1] == s {
				continue // the call again after a NOSCRIPT EVALSHA
			}
			out = append(out, s)
			continue
		case name == "pexpire" && len(words) == 3:
			if ms, err := strconv.ParseInt(words[2], 10, 64); err == nil {
				words[2] = "~" + strconv.FormatInt((ms+500)/1000, 10) + "s"
			}
		}
		words[0] = name
		for i, w := range words {
			if option.MatchString(w) {
				words[i] = strings.ToLower(w) // SET's options, in either case
			}
		}
		if m[1] == "lua" {
			out = append(out, "lua: "+strings.Join(words, " "))
		} else {
			out = append(out, strings.Join(words, " "))
		}
	}
	return out
}

// splitQuoted reads MONITOR's quoted words ("a" "b\"c").
func splitQuoted(s string) ([]string, error) {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return nil, err
		}
		w, err := strconv.Unquote(q)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
		s = s[len(q):]
	}
	return out, nil
}

// keyState is the lock key as the server holds it: its value and its
// TTL to the second ("none" when absent).
func keyState(ctx context.Context, c *goredislib.Client) string {
	v, err := c.Get(ctx, key).Result()
	if err != nil {
		return "none"
	}
	d := c.PTTL(ctx, key).Val()
	if d < 0 {
		return v + " with no TTL"
	}
	return fmt.Sprintf("%s ttl %ds", v, (d.Milliseconds()+500)/1000)
}

// sameKey reports whether two keyState answers agree: the same value,
// both with a TTL or neither, and TTLs within a second of each other
// (8 s and 10 s, two libraries' defaults, still differ).
// The commands and their arguments are compared exactly on the wire; the
// TTL left afterwards also counts the wall time each side took, and a
// library in a process of its own (Python, Node) started on a busy
// machine had let a key another client set a second earlier read 9 s
// where the model's read 10 s.
func sameKey(a, b string) bool {
	va, ta, oka := splitKey(a)
	vb, tb, okb := splitKey(b)
	if !oka || !okb {
		return a == b
	}
	return va == vb && (ta < 0) == (tb < 0) && max(ta-tb, tb-ta) <= 1
}

// splitKey reads a keyState answer with a TTL: its value and whole
// seconds (-1: no TTL); ok false for "none".
func splitKey(k string) (value string, ttl int, ok bool) {
	if v, found := strings.CutSuffix(k, " with no TTL"); found {
		return v, -1, true
	}
	i := strings.LastIndex(k, " ttl ")
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(strings.TrimSuffix(k[i+len(" ttl "):], "s"))
	if err != nil {
		return "", 0, false
	}
	return k[:i], n, true
}

// recordPRL: a directory holding python-redis-lock's redis_lock module
// (from its repository, at the version the model names): the test runs
// it and writes its answers to testdata/recorded/, which later runs read.
var recordPRL = flag.String("record-python-redis-lock", "", "a directory with python-redis-lock's redis_lock module: run it and record its answers in testdata/recorded/")

// answer is what a library did in one case: the outcome it reported,
// what Redis ran, and the key after.
type answer struct {
	Outcome library.Outcome
	Wire    []string
	Key     string
}

func recordedFile(lib *library.Library) string {
	return filepath.Join("testdata", "recorded", lib.ID+"-"+lib.Version+".json")
}

func TestModelsAsTheLibraries(t *testing.T) {
	s := redistest.Start(t, 1)[0]
	ctx := context.Background()
	c := goredislib.NewClient(&goredislib.Options{Addr: s.Addr, Protocol: 2})
	defer c.Close()
	ctl := goredislib.NewClient(&goredislib.Options{Addr: s.Addr, Protocol: 2})
	defer ctl.Close()
	mon := watch(t, s, ctl)
	libs := map[*library.Library]func(*goredislib.Client) real{library.Redsync: func(c *goredislib.Client) real { return newRedsync(c) }, library.Redislock: newRedislock,
		library.RedisPy: newPy(t, s.Addr, library.RedisPy), library.RedisPyTimeout: newPy(t, s.Addr, library.RedisPyTimeout),
		library.NodeRedlock: newNode(t, s.Addr)}
	// python-redis-lock cannot be installed here (no package index): its
	// answers were recorded from the library itself (-record-python-redis-lock)
	recorded := map[*library.Library]map[string]answer{library.PythonRedisLock: nil}
	for lib := range recorded {
		if *recordPRL != "" {
			libs[lib] = newPyRedisLock(t, s.Addr, *recordPRL)
			recorded[lib] = map[string]answer{}
			continue
		}
		b, err := os.ReadFile(recordedFile(lib))
		if err != nil {
			t.Fatal(err)
		}
		var rec map[string]answer
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatalf("%s: %v", recordedFile(lib), err)
		}
		recorded[lib] = rec
	}
	for _, lib := range library.All {
		for _, tc := range cases {
			name := lib.ID + " " + tc.String()
			// the state before, made the same way for both sides
			prepare := func(r real) {
				ctl.FlushAll(ctx)
				if tc.first {
					if r != nil {
						if err := r.take(ctx); err != nil {
							t.Fatalf("%s: the library could not take the lock first: %v", name, err)
						}
					} else {
						exp := ttl
						if lib.NoTTL {
							exp = 0
						}
						ctl.Set(ctx, key, value, exp)
					}
				}
				switch tc.then {
				case "gone":
					ctl.Del(ctx, key)
				case "other":
					ctl.Set(ctx, key, other, 10*time.Second)
				case "nottl":
					ctl.Persist(ctx, key)
				}
			}
			var gotReal library.Outcome
			var wire []string
			var keyReal string
			if mk, ok := libs[lib]; ok {
				r := mk(c)
				prepare(r)
				mon.until(t, "before-real")
				gotReal = r.do(ctx, tc.op)
				wire = normal(t, mon.until(t, "after-real"))
				keyReal = keyState(ctx, ctl)
				if rec := recorded[lib]; rec != nil {
					rec[tc.String()] = answer{gotReal, wire, keyReal}
				}
			} else {
				a, ok := recorded[lib][tc.String()]
				if !ok {
					t.Fatalf("%s: no answer recorded in %s", name, recordedFile(lib))
				}
				gotReal, wire, keyReal = a.Outcome, a.Wire, a.Key
			}

			prepare(nil)
			mon.until(t, "before-model")
			gotModel := model(ctx, t, []*goredislib.Client{c}, lib, tc.op)
			wireModel := normal(t, mon.until(t, "after-model"))
			keyModel := keyState(ctx, ctl)

			if gotReal != gotModel {
				t.Errorf("%s: the library reports %q, the model %q", name, gotReal, gotModel)
			}
			if !slices.Equal(wire, wireModel) {
				t.Errorf("%s: on the wire\nthe library: %q\nthe model:   %q", name, wire, wireModel)
			}
			if !sameKey(keyReal, keyModel) {
				t.Errorf("%s: the key after: the library's %q, the model's %q", name, keyReal, keyModel)
			}
			if testing.Verbose() {
				t.Logf("%s: %s, %q, key %s", name, gotReal, wire, keyReal)
			}
		}
	}
	if *recordPRL != "" {
		for lib, rec := range recorded {
			b, err := json.MarshalIndent(rec, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(recordedFile(lib)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(recordedFile(lib), append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestRedlockAsTheLibraries holds the models of the libraries that run
// Redlock on several nodes (redsync with a pool per node, node-redlock
// with a client per node) to the libraries themselves on five
// redis-server processes, each read with its own MONITOR. The model
// sends each call to every node and needs a majority; after a failed
// acquire it sends its release to every node. In the same states, every
// node must run the same commands, and the outcome and the keys must
// agree.
func TestRedlockAsTheLibraries(t *testing.T) {
	servers := redistest.Start(t, 5)
	ctx := context.Background()
	var cs, ctls []*goredislib.Client
	var mons []*monitor
	var addrs []string
	for _, s := range servers {
		c := goredislib.NewClient(&goredislib.Options{Addr: s.Addr, Protocol: 2})
		ctl := goredislib.NewClient(&goredislib.Options{Addr: s.Addr, Protocol: 2})
		t.Cleanup(func() { _ = c.Close(); _ = ctl.Close() })
		cs, ctls = append(cs, c), append(ctls, ctl)
		mons = append(mons, watch(t, s, ctl))
		addrs = append(addrs, s.Addr)
	}
	libs := []struct {
		lib *library.Library
		mk  func() real
	}{
		{library.Redsync, func() real { return newRedsync(cs...) }},
		{library.NodeRedlock, func() real { return newNode(t, strings.Join(addrs, ","))(nil) }},
	}
	type state struct {
		name   string
		op     library.Op
		first  bool  // this client takes the lock first on every node it can
		others []int // nodes where another client holds the key (before the first take)
		want   library.Outcome
	}
	states := []state{
		{name: "acquire, all free", op: library.Acquire, want: library.OK},
		{name: "acquire, two held by another", op: library.Acquire, others: []int{3, 4}, want: library.OK},
		{name: "acquire, three held by another", op: library.Acquire, others: []int{2, 3, 4}, want: library.Taken},
		{name: "extend, held on all", op: library.Extend, first: true, want: library.OK},
		{name: "release, held on three", op: library.Release, first: true, others: []int{3, 4}, want: library.OK},
	}
	watchAll := func(marker string) [][]string {
		out := make([][]string, len(mons))
		for i, m := range mons {
			out[i] = normal(t, m.until(t, marker))
		}
		return out
	}
	keys := func() []string {
		var out []string
		for _, ctl := range ctls {
			out = append(out, keyState(ctx, ctl))
		}
		return out
	}
	for _, l := range libs {
		lib := l.lib
		for _, st := range states {
			name := lib.ID + " " + st.name
			prepare := func(take func()) {
				for i, ctl := range ctls {
					ctl.FlushAll(ctx)
					if slices.Contains(st.others, i) {
						ctl.Set(ctx, key, other, 10*time.Second)
					}
				}
				if st.first {
					take()
				}
			}
			r := l.mk()
			prepare(func() {
				if err := r.take(ctx); err != nil {
					t.Fatalf("%s: the library could not take the lock first: %v", name, err)
				}
			})
			watchAll("before-real")
			gotReal := r.do(ctx, st.op)
			wireReal, keysReal := watchAll("after-real"), keys()

			prepare(func() {
				for _, ctl := range ctls {
					ctl.SetNX(ctx, key, value, ttl)
				}
			})
			watchAll("before-model")
			gotModel := model(ctx, t, cs, lib, st.op)
			wireModel, keysModel := watchAll("after-model"), keys()

			if gotReal != st.want || gotModel != st.want {
				t.Errorf("%s: the library reports %q, the model %q; want %q", name, gotReal, gotModel, st.want)
			}
			for i := range servers {
				if !slices.Equal(wireReal[i], wireModel[i]) {
					t.Errorf("%s: on node %d\nthe library: %q\nthe model:   %q", name, i+1, wireReal[i], wireModel[i])
				}
			}
			if !slices.EqualFunc(keysReal, keysModel, sameKey) {
				t.Errorf("%s: the keys after: the library's %q, the model's %q", name, keysReal, keysModel)
			}
			if testing.Verbose() {
				t.Logf("%s: %s, %q, keys %q", name, gotReal, wireReal, keysReal)
			}
		}
	}
}

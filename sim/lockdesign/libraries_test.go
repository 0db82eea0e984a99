package lockdesign

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	goredis "github.com/redis/go-redis/v9"

	"locklab/sim"
	"locklab/sim/library"
)

// TestLibraryDesignsAsTheModels: each library's design scripts do what
// the library's model sends (sim/library, held there to the library
// itself on redis-server), in every state of the lock key an operation
// meets — free, another's, and for a release this value's, with a TTL
// or none: the
// same reply, and the key left with the same value and TTL. The model
// runs whole, its check before and its clean-up after a refusal too,
// so what the design leaves out is shown to change nothing.
func TestLibraryDesignsAsTheModels(t *testing.T) {
	const key, mine, other = "lock:order:42", "mine-0123456789", "other-987654321"
	type state struct {
		name  string
		value string // "" no key
		ttl   time.Duration
	}
	states := []state{{"free", "", 0}, {"mine", mine, 5 * time.Second}, {"another's", other, 5 * time.Second}, {"mine, no TTL", mine, 0}}
	ctx := context.Background()
	for _, ld := range Libraries {
		d := ld.Design()
		if err := d.Validate(); err != nil {
			t.Fatalf("%s: the script checker refuses its design: %v", ld.Lib.ID, err)
		}
		ops := []library.Op{library.Acquire, library.Release}
		if ld.Extend != "" {
			ops = append(ops, library.Extend)
		}
		for _, ttl := range []int64{ld.TTL, 2500} {
			for _, op := range ops {
				piece, args := sim.PieceAcquire, []any{mine, ttl}
				switch op {
				case library.Release:
					piece, args = sim.PieceRelease, []any{mine}
				case library.Extend:
					piece = sim.PieceExtend
				}
				for _, st := range states {
					if op == library.Acquire && st.value == mine {
						// never met: every acquisition takes a new value, and
						// a design loses no acquire's reply (where the key
						// holds it, redsync's clean-up would delete it and
						// redislock would take it again: both left out)
						continue
					}
					name := fmt.Sprintf("%s %s ttl %d, key %s", ld.Lib.ID, op, ttl, st.name)
					model, design := newServer(t), newServer(t)
					for _, s := range []*miniredis.Miniredis{model.m, design.m} {
						if st.value != "" {
							if err := s.Set(key, st.value); err != nil {
								t.Fatal(err)
							}
							if st.ttl > 0 {
								s.SetTTL(key, st.ttl)
							}
						}
					}
					step := ld.Lib.Ops[op]
					for _, c := range step.Before {
						model.send(ctx, t, c, key, mine, ttl)
					}
					want := model.send(ctx, t, step.Call, key, mine, ttl)
					if step.Read(want) != library.OK {
						for _, c := range step.OnRefused {
							model.send(ctx, t, c, key, mine, ttl)
						}
					}
					got := design.reply(t, design.c.Eval(ctx, d.Script(piece), []string{key}, args...))
					switch {
					case op == library.Extend:
						// a design's extend says done with 1 (python-redis-lock's
						// says it with 0): the same outcome, not the same reply
						if (got == "1") != (step.Read(want) == library.OK) {
							t.Errorf("%s: the design answers %s, the model %s (%s)", name, got, want, step.Read(want))
						}
					case got != want:
						t.Errorf("%s: the design answers %s, the model %s", name, got, want)
					}
					if ok := got == "OK" || got == "1"; op == library.Acquire && ok != (step.Read(want) == library.OK) {
						t.Errorf("%s: the design reads %s as taken %v, the library as %s", name, got, ok, step.Read(want))
					}
					if a, b := model.m.Exists(key), design.m.Exists(key); a != b {
						t.Errorf("%s: the key exists %v after the model, %v after the design", name, a, b)
					} else if a {
						va, _ := model.m.Get(key)
						vb, _ := design.m.Get(key)
						if va != vb || model.m.TTL(key) != design.m.TTL(key) {
							t.Errorf("%s: the key is %q (TTL %v) after the model, %q (%v) after the design", name, va, model.m.TTL(key), vb, design.m.TTL(key))
						}
					}
				}
			}
		}
	}
}

// server is a miniredis and a go-redis client on it.
type server struct {
	m *miniredis.Miniredis
	c *goredis.Client
}

func newServer(t *testing.T) *server {
	m := miniredis.RunT(t)
	c := goredis.NewClient(&goredis.Options{Addr: m.Addr()})
	t.Cleanup(func() { c.Close() })
	return &server{m, c}
}

// send makes a model's call with the lock's key, value and TTL.
func (s *server) send(ctx context.Context, t *testing.T, call library.Call, key, value string, ttl int64) string {
	t.Helper()
	cmd, keys, args := call.Words(key, value, ttl)
	if call.Script != "" {
		as := make([]any, len(args))
		for i, a := range args {
			as[i] = a
		}
		return s.reply(t, s.c.Eval(ctx, call.Script, keys, as...))
	}
	as := make([]any, len(cmd))
	for i, a := range cmd {
		as[i] = a
	}
	return s.reply(t, s.c.Do(ctx, as...))
}

// reply is a reply as the model reads it: an integer, OK, or nil.
func (s *server) reply(t *testing.T, cmd *goredis.Cmd) string {
	t.Helper()
	res, err := cmd.Result()
	switch {
	case errors.Is(err, goredis.Nil):
		return "nil"
	case err != nil:
		t.Fatalf("%v: %v", cmd.Args(), err)
	}
	return fmt.Sprint(res)
}

// TestCutOffFromRedis: a design's client cut off from Redis (disconnect)
// still reaches its storage. Its commands to Redis are not delivered:
// a renewal that carries on writes anyway, and the storage takes it; a
// release that never arrived leaves the key to its TTL, so another
// client's refusal meanwhile is no failure of the lock, unless the key
// has no TTL, which then no one ever removes.
func TestCutOffFromRedis(t *testing.T) {
	replay := func(d *Design, do string) *sim.Timeline {
		t.Helper()
		sc, err := d.ScenarioFor(2)
		if err != nil {
			t.Fatal(err)
		}
		as, err := sim.ParseActions(do)
		if err != nil {
			t.Fatal(err)
		}
		tl, err := sim.Replay(sc, sc.DefaultOpts(), as)
		if err != nil {
			t.Fatalf("%s: %v", do, err)
		}
		return tl
	}
	renew, _ := LibraryNamed("python-redis-lock-renew")
	long := renew.Design()
	long.Work = 15_000 // renewed after each 4 s of it, but the last
	tl := replay(long, "a.acquire,a.disconnect,a.write")
	var toRedis, refused, writes int
	for _, e := range tl.Events {
		if e.Kind != sim.KindCommand || e.Actor != "a" {
			continue
		}
		switch {
		case e.Node == sim.NodeStorage:
			if e.Accepted != nil && *e.Accepted {
				writes++
			}
			if e.Refused {
				t.Errorf("a command to the storage was not delivered: %+v", e)
			}
		case e.Purpose == "extend" || e.Purpose == sim.PurposeRenewGaveUp:
			toRedis++
			if e.Refused {
				refused++
			}
		}
	}
	gaveUp := slices.ContainsFunc(tl.Events, func(e sim.Event) bool { return e.Purpose == sim.PurposeRenewGaveUp })
	if toRedis != 1 || refused != toRedis || writes != 1 || !gaveUp {
		t.Errorf("cut off, renewing and carrying on: %d extends, %d not delivered, %d writes taken; want one extend (the renewal stops at its first failure), refused and marked as the renewal giving up (%v), and the write taken", toRedis, refused, writes, gaveUp)
	}
	for lib, want := range map[string]bool{"redsync": false, "redis-py": true} {
		ld, _ := LibraryNamed(lib)
		tl := replay(ld.Design(), "a.acquire,a.disconnect,a.release,b.acquire")
		got := slices.ContainsFunc(tl.Violations, func(v sim.Violation) bool { return v.Kind == sim.LockRefused })
		if got != want {
			t.Errorf("%s: B refused while A's undelivered release left its key: lock refused %v, want %v (%v)", lib, got, want, tl.Violations)
		}
		if slices.ContainsFunc(tl.Violations, func(v sim.Violation) bool { return v.Kind == sim.NotReleased }) {
			t.Errorf("%s: a release that never reached Redis is called a release script that deleted nothing", lib)
		}
	}
}

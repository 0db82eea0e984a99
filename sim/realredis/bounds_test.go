package realredis_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"locklab/sim"
	"locklab/sim/redisfront"
	"locklab/sim/redistest"
)

// TestBoundsOnRealRedis: the live backend holds a timeline to the
// embedded server's bounds, so a link cannot make a shared redis-server
// allocate half a gigabyte, nor Lock Lab read a megabyte two hundred
// times from it: the same links get the same replies and the same stop
// on both backends, and nothing past the bound reaches the server.
func TestBoundsOnRealRedis(t *testing.T) {
	servers := redistest.Start(t, 1)
	sc, _ := sim.Lookup("ttl")
	opts, err := sc.ParseOptions("ttl.off")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		do    string
		reply string // the last event's reply on both backends ("" when the timeline stops)
		stop  sim.Code
	}{
		{do: "cli.redis.SETRANGE k 600000000 x", reply: "(error) " + redisfront.ErrTooLong},
		{do: "cli.redis.SETRANGE k 1048100 x,cli.redis.APPEND k " + strings.Repeat("y", 500), reply: "(error) " + redisfront.ErrTooLong},
		{do: "cli.redis.SETRANGE k 1048575 x,cli.redis.SET j x", reply: "(error) " + redisfront.ErrOOM},
		{do: "cli.redis.SETRANGE k 1048575 x," + strings.Repeat("cli.redis.GET k,", 5) + "cli.redis.GET k", stop: sim.CodeTooBig},
	} {
		actions, err := sim.ParseActions(c.do)
		if err != nil {
			t.Fatal(err)
		}
		mem, memErr := sim.ReplayOn(t.Context(), sim.Embedded{}, sc, opts, actions)
		real, _, realErr := replayReal(t, servers, sc, opts, actions)
		for name, r := range map[string]struct {
			tl  *sim.Timeline
			err error
		}{"embedded": {mem, memErr}, "redis-server": {real, realErr}} {
			var ae *sim.ActionError
			switch {
			case c.stop != "":
				if !errors.As(r.err, &ae) || ae.Code != c.stop {
					t.Errorf("%s on %s: %v, want the timeline stopped with %s", c.do, name, r.err, c.stop)
				}
			case r.err != nil:
				t.Errorf("%s on %s: %v", c.do, name, r.err)
			default:
				if got := r.tl.Events[len(r.tl.Events)-1].Reply.String(); got != c.reply {
					t.Errorf("%s on %s: last reply %q, want %q", c.do, name, got, c.reply)
				}
			}
		}
	}
	if n, err := servers[0].Send("DBSIZE"); err != nil || n != "0" {
		t.Errorf("the server holds %s keys after the replays (%v), want none", n, err)
	}
	info, err := servers[0].Send("INFO", "memory")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory_peak:"); ok {
			if n, _ := strconv.Atoi(v); n > 64<<20 {
				t.Errorf("redis-server's memory peaked at %d bytes: something past the bounds reached it", n)
			}
			return
		}
	}
	t.Error("INFO memory has no used_memory_peak")
}

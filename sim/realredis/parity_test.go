package realredis_test

// parity_test.go replays every lesson's guided path, and every option
// variant of each lesson's paths, twice — on miniredis and on real
// redis-server processes — and compares the two command by command. The
// tolerances it allows are exactly those listed in docs/parity.md.

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/explore"
	"locklab/sim/lockdesign"
	"locklab/sim/realredis"
	"locklab/sim/rediscli"
	"locklab/sim/redistest"
)

// parityPath is one timeline to replay on both backends.
type parityPath struct {
	lesson string
	sc     *sim.Scenario
	opt    string
	do     string
}

// parityPaths lists each lesson's steps and, for each lesson's longest
// paths, every combination of its scenario's options; a path that is a
// prefix of another with the same options adds nothing and is left out.
func parityPaths(t *testing.T) []parityPath {
	t.Helper()
	cat, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []parityPath
	add := func(l *lessons.Lesson, opt, do string) {
		key := l.Scenario.ID + "|" + opt + "|" + do
		if !seen[key] {
			seen[key] = true
			out = append(out, parityPath{lesson: l.Slug, sc: l.Scenario, opt: opt, do: do})
		}
	}
	for _, l := range cat.List("en") {
		var dos []string
		for _, st := range l.Steps {
			add(l, st.Opt, st.Do)
			dos = append(dos, st.Do)
		}
		for _, do := range dos {
			if slices.ContainsFunc(dos, func(o string) bool { return strings.HasPrefix(o, do+",") }) {
				continue
			}
			for _, o := range l.Scenario.AllOptions() {
				opt := l.Scenario.FormatOptions(o)
				add(l, opt, do)
			}
		}
	}
	// The command line: a corpus of typed commands (reads, writes,
	// deletes, lists, scripts, error replies, quoting) at several points
	// of the Redis lessons, compared like every other command. Left out:
	// a script that fails at run time (miniredis words that error with
	// its Lua stack trace, Redis with the script's SHA: both are error
	// replies) and a script that returns a key's name (the real backend's
	// keys carry a prefix).
	corpus := strings.Join([]string{
		"cli.redis.PTTL lock:order:42", "cli.redis.GET lock:order:42", "cli.redis.TTL lock:order:42",
		"cli.redis.EXISTS lock:order:42 nokey", "cli.redis.TYPE lock:order:42", "cli.redis.TYPE nokey",
		"cli.storage.GET data:order:42:token", "cli.storage.MGET data:order:42 data:order:42:token",
		`cli.redis.SET k "a b\x00c\x2c'd"`, "cli.redis.GET k", "cli.redis.STRLEN k", "cli.redis.APPEND k xyz",
		"cli.redis.GETRANGE k 0 2", "cli.redis.INCR k", "cli.redis.SET n 41", "cli.redis.INCRBY n 1", "cli.redis.DECR n",
		"cli.redis.RPUSH l a b", "cli.redis.LPUSH l z", "cli.redis.LRANGE l 0 -1", "cli.redis.LLEN l", "cli.redis.LINDEX l 1",
		"cli.redis.GET l", "cli.redis.RENAME n m", "cli.redis.COPY m m2", "cli.redis.MSET x 1 y 2", "cli.redis.MGET x y nokey",
		`cli.redis.EVAL "return redis.call('GET'\x2c KEYS[1])" 1 lock:order:42`,
		`cli.redis.EVAL "return ARGV[1] .. '!'" 0 a`,
		"cli.redis.ECHO hi", "cli.redis.PING", "cli.redis.SET", "cli.redis.GET a b",
		"cli.redis.PEXPIRE lock:order:42 5000", "cli.redis.PTTL lock:order:42", "cli.redis.DEL lock:order:42 x y", "cli.redis.UNLINK m2",
	}, ",")
	for _, at := range []struct{ slug, do string }{
		{"fencing", "a.acquire"},
		{"fencing", "a.acquire,a.pause,wait.10s,b.acquire,b.write"},
		{"atomic-acquire", "a.acquire,wait.3s"},
	} {
		l, ok := cat.Get("en", at.slug)
		if !ok {
			t.Fatalf("no lesson %s", at.slug)
		}
		add(l, "", at.do+","+corpus)
	}
	// Drop a path another one extends with the same options: its
	// commands are the first of the longer one's.
	var kept []parityPath
	for _, p := range out {
		if !slices.ContainsFunc(out, func(o parityPath) bool {
			return o.sc.ID == p.sc.ID && o.opt == p.opt && (p.do == "" || strings.HasPrefix(o.do, p.do+","))
		}) {
			kept = append(kept, p)
		}
	}
	return kept
}

// serverOf maps a scenario's node names onto the started servers: lock
// nodes in order from the first, the storage on the last.
func serverOf(sc *sim.Scenario, servers []*redistest.Server, node string) *redistest.Server {
	if node == sim.NodeStorage {
		return servers[len(servers)-1]
	}
	if i := slices.Index(sc.Nodes, node); i >= 0 {
		return servers[i]
	}
	return servers[0] // sim.NodeRedis, the one lock node of a single-node lesson
}

// parityReport adds up what the suite compared.
type parityReport struct {
	paths, commands, exact, estimated, knownDiffs int
}

func TestParityWithRealRedis(t *testing.T) {
	paths := parityPaths(t)
	servers := redistest.Start(t, 6) // Redlock's five nodes and the storage
	version, err := servers[0].Version()
	if err != nil {
		t.Fatal(err)
	}
	delex := versionAtLeast(version, 8, 4)
	start := time.Now()
	var rep parityReport
	for _, p := range paths {
		name := p.lesson + "/" + p.opt + "/" + p.do
		t.Run(name, func(t *testing.T) { rep.add(parityOne(t, servers, p, delex)) })
	}
	t.Logf("parity with redis-server %s: %d paths, %d commands compared, %d TTLs exact, %d estimated, %d known differences met, in %v",
		version, rep.paths, rep.commands, rep.exact, rep.estimated, rep.knownDiffs, time.Since(start).Round(time.Millisecond))
	if rep.commands == 0 {
		t.Fatal("no command was compared")
	}
}

func (r *parityReport) add(o parityReport) {
	r.paths += o.paths
	r.commands += o.commands
	r.exact += o.exact
	r.estimated += o.estimated
	r.knownDiffs += o.knownDiffs
}

// parityOne replays one path on both backends and compares them. A path
// that stops at an impossible action must stop at the same one on both;
// the timeline up to it is then compared.
func parityOne(t *testing.T, servers []*redistest.Server, p parityPath, delex bool) parityReport {
	t.Helper()
	actions, err := sim.ParseActions(p.do)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := p.sc.ParseOptions(p.opt)
	if err != nil {
		t.Fatal(err)
	}
	for {
		mem, memErr := sim.ReplayOn(context.Background(), sim.Embedded{}, p.sc, opts, actions)
		real, st, realErr := replayReal(t, servers, p.sc, opts, actions)
		if memErr != nil || realErr != nil {
			var ae *sim.ActionError
			if !errors.As(memErr, &ae) || realErr == nil || memErr.Error() != realErr.Error() {
				t.Fatalf("replay errors differ:\n miniredis: %v\n redis-server: %v", memErr, realErr)
			}
			if ae.Index <= 0 {
				return parityReport{paths: 1}
			}
			actions = actions[:ae.Index] // compare what came before
			continue
		}
		rep := compareTimelines(t, mem, real, delex)
		rep.paths, rep.exact, rep.estimated = 1, st.TTLExact, st.TTLEstimated
		return rep
	}
}

// replayReal replays on the real servers, emptied first.
func replayReal(t *testing.T, servers []*redistest.Server, sc *sim.Scenario, opts sim.Opts, actions []sim.Action) (*sim.Timeline, realredis.RealStats, error) {
	t.Helper()
	for _, s := range servers {
		if _, err := s.Send("FLUSHALL"); err != nil {
			t.Fatalf("FLUSHALL %s: %v", s.Addr, err)
		}
	}
	b := &realredis.RealRedis{
		Prefix: "parity:",
		Options: func(node string) *redis.Options {
			return &redis.Options{Addr: serverOf(sc, servers, node).Addr, DialTimeout: 2 * time.Second}
		},
		Restart: func(node string) error { return serverOf(sc, servers, node).Restart() },
	}
	tl, err := sim.ReplayOn(context.Background(), b, sc, opts, actions)
	return tl, b.Stats, err
}

// sentToServer: a command event whose reply came from a server (not one a
// down node refused, nor the modelled WAIT).
func sentToServer(e sim.Event) bool {
	return e.Kind == sim.KindCommand && !e.Refused && !(e.Model && e.Command[0] == "WAIT")
}

// compareTimelines compares the replies command by command, then the
// whole transcript (times, expiries, checks, final state). The one
// tolerance: DELEX on a server older than 8.4 (docs/parity.md).
func compareTimelines(t *testing.T, mem, real *sim.Timeline, delex bool) parityReport {
	t.Helper()
	var rep parityReport
	me, re := mem.Events, real.Events
	for i := 0; i < len(me) && i < len(re); i++ {
		m, r := me[i], re[i]
		if m.Kind != r.Kind || m.At != r.At || m.Node != r.Node || !slices.Equal(m.Command, r.Command) {
			t.Fatalf("event %d differs:\n miniredis:    %s\n redis-server: %s\n\n%s", i, eventLine(m), eventLine(r), diffHint(mem, real))
		}
		if !sentToServer(m) {
			continue
		}
		rep.commands++
		if reflect.DeepEqual(m.Reply, r.Reply) {
			continue
		}
		if !delex && m.Command[0] == "DELEX" && r.Reply.Kind == rediscli.ReplyError && strings.HasPrefix(r.Reply.Str, "ERR unknown command 'DELEX'") {
			// Known difference: DELEX needs Redis 8.4. What follows
			// depends on whether it deleted, so comparing stops here.
			rep.knownDiffs++
			return rep
		}
		t.Fatalf("reply %d differs for %s:\n miniredis:    %s\n redis-server: %s\n\n%s",
			i, strings.Join(m.Command, " "), m.Reply.String(), r.Reply.String(), diffHint(mem, real))
	}
	if a, b := mem.Transcript(), real.Transcript(); a != b {
		t.Fatalf("transcripts differ:\n%s", diffHint(mem, real))
	}
	return rep
}

func eventLine(e sim.Event) string {
	return sim.FormatMS(e.At) + " " + e.Actor + " " + string(e.Kind) + " " + e.Node + "> " + strings.Join(e.Command, " ") + " -> " + e.Reply.String()
}

// diffHint shows the first lines where the transcripts part.
func diffHint(mem, real *sim.Timeline) string {
	a, b := strings.Split(mem.Transcript(), "\n"), strings.Split(real.Transcript(), "\n")
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return "first difference at transcript line " + strconv.Itoa(i+1) + ":\n miniredis:    " + x + "\n redis-server: " + y +
				"\n\nminiredis transcript:\n" + mem.Transcript() + "\nredis-server transcript:\n" + real.Transcript()
		}
	}
	return "(transcripts equal)"
}

// versionAtLeast compares a "7.0.15" version with major.minor.
func versionAtLeast(v string, major, minor int) bool {
	parts := strings.SplitN(v, ".", 3)
	num := func(i int) int {
		if i >= len(parts) {
			return 0
		}
		n := 0
		for _, c := range parts[i] {
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	return num(0) > major || (num(0) == major && num(1) >= minor)
}

// TestParityDesigns: every preset of "bring your own lock" (each piece's
// presets, the rest of the design at its default), on the schedules its
// grade finds (every kind's shortest counterexample, with two clients)
// and one where both clients run their programs in turn, gives the same
// replies and the same transcript on redis-server as on miniredis.
func TestParityDesigns(t *testing.T) {
	servers := redistest.Start(t, 2) // the lock node and the storage
	version, err := servers[0].Version()
	if err != nil {
		t.Fatal(err)
	}
	delex := versionAtLeast(version, 8, 4)
	var rep parityReport
	for _, pr := range lockdesign.Presets {
		d := lockdesign.DefaultDesign()
		if pr.Effect != "" {
			d.Effect = pr.Effect
		}
		d.SetScript(pr.Piece, pr.Script)
		sc, err := d.ScenarioFor(2)
		if err != nil {
			t.Fatal(err)
		}
		res, err := lockdesign.Grade(context.Background(), d, 2, explore.MaxStates)
		if err != nil {
			t.Fatal(err)
		}
		if pr.Name == "delex" && !delex {
			t.Logf("release=delex left out: DELEX needs Redis 8.4, this is %s (docs/parity.md)", version)
			continue
		}
		dos := []string{inTurn(t, sc)}
		for _, f := range res.Found {
			dos = append(dos, sim.FormatActions(f.Shortest))
		}
		slices.Sort(dos[1:])
		for _, do := range slices.Compact(dos) {
			t.Run(pr.Piece.Name()+"="+pr.Name+"/"+do, func(t *testing.T) {
				rep.add(parityOne(t, servers, parityPath{lesson: "design", sc: sc, do: do}, delex))
			})
		}
	}
	t.Logf("design parity with redis-server %s: %d paths, %d commands compared, %d TTLs exact, %d estimated, %d known differences met",
		version, rep.paths, rep.commands, rep.exact, rep.estimated, rep.knownDiffs)
	if rep.commands == 0 {
		t.Fatal("no command was compared")
	}
}

// inTurn is a schedule where A and B run their programs one after the
// other (B trying meanwhile), each command of a split script continued at
// once with next.
func inTurn(t *testing.T, sc *sim.Scenario) string {
	t.Helper()
	var as []sim.Action
	for _, step := range []string{"a.acquire", "b.acquire", "a.write", "a.release", "wait.1s", "b.write", "b.release"} {
		a, err := sim.ParseActions(step)
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a...)
		for {
			tl, err := sim.Replay(sc, sc.DefaultOpts(), as)
			if err != nil {
				t.Fatalf("%s: %v", sim.FormatActions(as), err)
			}
			who := as[len(as)-1].Who
			if who == "" || !slices.Contains(tl.Allowed[who], sim.VerbNext) {
				break
			}
			as = append(as, sim.Action{Who: who, Verb: sim.VerbNext})
		}
	}
	return sim.FormatActions(as)
}

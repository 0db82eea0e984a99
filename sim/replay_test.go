package sim

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"locklab/sim/rediscli"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata/")

// guided is the fencing lesson's guided path.
const guided = "a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write,a.release"

// twoStep is the fencing lesson's path for a two-command storage check:
// both writers read the old token, then B's write lands, then A's.
const twoStep = "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.write,b.write,b.next,a.next"

// twoStepInOrder: the guided interleaving — B's write done before A reads
// the token — which a two-command check survives.
const twoStepInOrder = "a.acquire,a.pause,wait.10s,b.acquire,b.write,b.next,a.resume,a.write"

// clientCheck: A asks "still mine?", pauses right after the answer, and
// writes once B holds the lock (the fencing lesson's client-side check).
const clientCheck = "a.acquire,a.write,a.pause,wait.9s,b.acquire,b.write,b.next,a.resume,a.next"

// hostValue: A and B share the lock value (their host's name), so A's
// stale compare-and-delete removes B's lock (the safe-release lesson).
const hostValue = "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.release,c.acquire"

// goldenCases are the scenario paths whose transcripts are kept in
// testdata/: the guided path, its variants, and the paths around it.
var goldenCases = []struct{ name, scenario, opt, do string }{
	{"fencing-guided", "fencing", "", guided},
	{"fencing-guided-release-del", "fencing", "release.del", guided + ",b.write,b.release"},
	{"fencing-guided-fence-off", "fencing", "fence.off", guided + ",b.write,b.release"},
	{"fencing-guided-full", "fencing", "", guided + ",b.write,b.release"},
	{"fencing-no-pause", "fencing", "", "a.acquire,a.write,a.release,b.acquire,b.write,b.release"},
	{"fencing-b-retries", "fencing", "", "a.acquire,b.acquire,wait.5s,a.write,a.release,wait.1s"},
	{"fencing-crash-holder", "fencing", "", "a.acquire,a.crash,b.acquire,wait.12s,b.write,b.release"},
	{"fencing-pause-while-trying", "fencing", "", "a.acquire,b.acquire,b.pause,wait.12s,b.resume,b.write"},
	{"two-servers-local", "two-servers", "lock.local", "a.acquire,b.acquire,a.write,b.write"},
	{"two-servers-redis", "two-servers", "", "a.acquire,b.acquire,a.write,a.release"},
	{"atomic-getset-race", "atomic-acquire", "acquire.getset", "a.acquire,b.acquire,a.next,b.next,a.write,b.write"},
	{"atomic-setnx-crash", "atomic-acquire", "acquire.setnx", "a.acquire,a.crash,b.acquire,wait.12s"},
	{"atomic-set-nx-px", "atomic-acquire", "", "a.acquire,b.acquire,a.crash,wait.10s"},
	{"atomic-setnx-pttl", "atomic-acquire", "acquire.setnx", "b.ttl,a.acquire,a.crash,b.acquire,wait.2s,b.ttl"},
	{"ttl-none-crash", "ttl", "ttl.off", "a.acquire,a.crash,b.acquire,wait.12s"},
	{"ttl-crash", "ttl", "", "a.acquire,a.crash,b.acquire,wait.10s"},
	{"ttl-extend-pause", "ttl", "", "a.acquire,wait.5s,a.extend,a.pause,wait.11s,b.acquire,a.resume,a.extend"},
	{"ttl-long-job", "ttl", "work.long", "a.acquire,b.acquire,a.write"},
	{"fencing-strict-retry", "fencing", "fence.strict", guided + ",b.write"},
	{"fencing-twostep-race", "fencing", "fence.twostep", twoStep},
	{"fencing-twostep-in-order", "fencing", "fence.twostep", twoStepInOrder},
	{"fencing-client-check", "fencing", "fence.off,check.get", clientCheck},
	{"fencing-client-check-fenced", "fencing", "check.get", clientCheck},
	{"release-host-value", "safe-release", "value.host", hostValue},
	{"release-del", "safe-release", "release.del", "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.release,c.acquire"},
	{"release-getdel", "safe-release", "release.getdel", "a.acquire,a.release,a.pause,wait.10s,b.acquire,a.resume,a.next,c.acquire"},
	{"release-lua", "safe-release", "", "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.release,c.acquire"},
	{"release-delex", "safe-release", "release.delex", "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.release,c.acquire"},
	{"exactly-once-none", "exactly-once", "idem.none", "a.acquire,a.drop,a.write,wait.1s,a.release"},
	{"exactly-once-key", "exactly-once", "", "a.acquire,a.drop,a.write,wait.1s,a.release"},
	{"exactly-once-takeover", "exactly-once", "idem.none", "a.acquire,a.drop,a.write,a.crash,b.acquire,wait.10s,b.write"},
	{"failover-no-wait", "failover", "wait.off", "a.acquire,wait.1s,primary.down,replica.promote,b.acquire,a.write,b.write"},
	{"failover-wait", "failover", "", "a.acquire,primary.down,replica.promote,b.acquire,wait.1s"},
	{"failover-wait-fails", "failover", "", "replica.down,a.acquire,wait.2s"},
	{"redlock-one-down", "redlock", "", "n5.down,a.acquire,b.acquire"},
	{"redlock-slow", "redlock", "", "n1.slow.4s,n2.slow.4s,n3.slow.4s,a.acquire"},
	{"redlock-restart-none", "redlock", "persist.none", "n4.down,n5.down,a.acquire,n3.restart,n4.up,n5.up,b.acquire"},
	{"redlock-restart-fsync", "redlock", "", "n4.down,n5.down,a.acquire,n3.restart,n4.up,n5.up,b.acquire"},
	{"redlock-clock-jump", "redlock", "", "n4.down,n5.down,a.acquire,n3.jump.10s,n4.up,n5.up,b.acquire"},
	{"redlock-pause", "redlock", "", "a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write"},
	{"zk-short-disconnect", "coordination", "", "a.acquire,b.acquire,a.disconnect,wait.3s,a.reconnect,a.write,a.release"},
	{"zk-pause-fenced", "coordination", "", "a.acquire,b.acquire,a.pause,wait.7s,b.write,a.resume,a.write"},
	{"zk-pause-unfenced", "coordination", "fence.off", "a.acquire,b.acquire,a.pause,wait.7s,b.write,a.resume,a.write"},
	{"zk-partition", "coordination", "", "a.acquire,a.disconnect,wait.7s,b.acquire,a.reconnect"},
	{"etcd-pause-fenced", "coordination", "svc.etcd", "a.acquire,b.acquire,a.pause,wait.7s,b.write,a.resume,a.write"},
	{"etcd-release", "coordination", "svc.etcd", "a.acquire,b.acquire,a.write,a.release,b.write,b.release"},
}

func run(t *testing.T, scenario, opt, do string) *Timeline {
	t.Helper()
	tl, err := Run(scenario, do, opt)
	if err != nil {
		t.Fatalf("replay scenario=%s opt=%s do=%s: %v", scenario, opt, do, err)
	}
	return tl
}

func TestGoldenTranscripts(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, tc.scenario, tc.opt, tc.do).Transcript()
			path := filepath.Join("testdata", tc.name+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./sim -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("transcript differs from %s (reproduce: scenario=%s opt=%s do=%s; -update rewrites)\n--- got\n%s--- want\n%s",
					path, tc.scenario, tc.opt, tc.do, got, want)
			}
		})
	}
}

// TestSameInputSameTimeline replays each case twice: virtual time and a
// seeded PRNG must make the transcripts identical.
func TestSameInputSameTimeline(t *testing.T) {
	for _, tc := range goldenCases {
		a := run(t, tc.scenario, tc.opt, tc.do).Transcript()
		b := run(t, tc.scenario, tc.opt, tc.do).Transcript()
		if a != b {
			t.Errorf("%s: two replays differ:\n%s\n%s", tc.name, a, b)
		}
	}
}

// find returns the events of one client with one purpose, in order.
func find(tl *Timeline, actor, purpose string) []Event {
	var out []Event
	for _, e := range tl.Events {
		if e.Actor == actor && e.Purpose == purpose {
			out = append(out, e)
		}
	}
	return out
}

func kinds(tl *Timeline) []string {
	var out []string
	for _, v := range tl.Violations {
		out = append(out, string(v.Kind)+":"+strings.Join(v.Actors, ","))
	}
	return out
}

func TestGuidedPathDefault(t *testing.T) {
	tl := run(t, "fencing", "", guided)

	// B got the lock only when A's TTL had run out: at exactly 10 s.
	b := find(tl, "b", "acquire")
	if len(b) != 1 || !b[0].Reply.IsOK() || b[0].At != 10_000 {
		t.Fatalf("B's acquire = %+v, want one OK at 10.000s", b)
	}
	// A's stale write (token 1 after B's token 2) was rejected by the fence.
	aw := find(tl, "a", "write")
	if len(aw) != 1 || !aw[0].Reply.IsInt(0) || *aw[0].Accepted || aw[0].Token != 1 {
		t.Fatalf("A's write = %+v, want rejected token 1", aw)
	}
	// A's release replied 0 and B's lock is still there, with its TTL.
	ar := find(tl, "a", "release")
	if len(ar) != 1 || !ar[0].Reply.IsInt(0) {
		t.Fatalf("A's release = %+v, want (integer) 0", ar)
	}
	last := tl.Locks[len(tl.Locks)-1]
	if last.Owner != "b" || last.End != "" || tl.LockTTL != 8000 {
		t.Fatalf("lock at the end = %+v ttl %d, want B's, live, 8000 ms left", last, tl.LockTTL)
	}
	if tl.Storage.Value != "written by B" || tl.Storage.LastToken != 2 {
		t.Fatalf("storage = %+v, want B's value, token 2", tl.Storage)
	}
	// Exclusion was lost (A paused inside) but the data was not.
	if got := kinds(tl); len(got) != 1 || got[0] != "overlap:b,a" {
		t.Fatalf("violations = %v, want only overlap:b,a", got)
	}
}

func TestGuidedPathReleaseDel(t *testing.T) {
	tl := run(t, "fencing", "release.del", guided)
	ar := find(tl, "a", "release")
	if len(ar) != 1 || ar[0].Command[0] != "DEL" || !ar[0].Reply.IsInt(1) {
		t.Fatalf("A's release = %+v, want DEL replying 1", ar)
	}
	last := tl.Locks[len(tl.Locks)-1]
	if last.Owner != "b" || last.End != "deleted" || last.DeletedBy != "a" {
		t.Fatalf("B's lock = %+v, want deleted by A", last)
	}
	if got := kinds(tl); strings.Join(got, " ") != "overlap:b,a foreign-delete:a,b" {
		t.Fatalf("violations = %v", got)
	}
}

func TestGuidedPathFenceOff(t *testing.T) {
	tl := run(t, "fencing", "fence.off", guided)
	aw := find(tl, "a", "write")
	if len(aw) != 1 || aw[0].Command[0] != "SET" || !aw[0].Reply.IsOK() || !*aw[0].Accepted {
		t.Fatalf("A's write = %+v, want a plain SET accepted", aw)
	}
	if tl.Storage.Value != "written by A" {
		t.Fatalf("storage = %q, want A's stale value over B's", tl.Storage.Value)
	}
	if got := kinds(tl); strings.Join(got, " ") != "overlap:b,a stale-write:a,b" {
		t.Fatalf("violations = %v", got)
	}
}

func TestSameTokenRetryAccepted(t *testing.T) {
	tl := run(t, "fencing", "", guided+",b.write")
	bw := find(tl, "b", "write")
	if len(bw) != 2 || !bw[1].Reply.IsInt(1) || bw[1].Token != 2 {
		t.Fatalf("B's writes = %+v, want the second (token 2 again) accepted", bw)
	}
}

func TestBRetriesUntilExpiry(t *testing.T) {
	tl := run(t, "fencing", "", "a.acquire,a.pause,b.acquire,wait.10s")
	var replies []string
	for _, e := range tl.Events {
		if e.Actor == "b" && e.Command != nil && e.Command[0] == "SET" {
			replies = append(replies, FormatMS(e.At)+" "+e.Reply.String())
		}
	}
	want := "0.000s (nil)|1.000s (nil)|2.000s (nil)|3.000s (nil)|4.000s (nil)|5.000s (nil)|" +
		"6.000s (nil)|7.000s (nil)|8.000s (nil)|9.000s (nil)|10.000s OK"
	if got := strings.Join(replies, "|"); got != want {
		t.Fatalf("B's attempts:\n%s\nwant\n%s", got, want)
	}
}

func TestCrashedHolderKeepsLockUntilTTL(t *testing.T) {
	tl := run(t, "fencing", "", "a.acquire,a.crash,wait.9999ms")
	if tl.LockTTL != 1 {
		t.Fatalf("TTL after 9999 ms = %d, want 1", tl.LockTTL)
	}
	tl = run(t, "fencing", "", "a.acquire,a.crash,wait.10s")
	if tl.LockTTL != 0 || tl.Locks[0].End != "expired" || tl.Locks[0].To != 10_000 {
		t.Fatalf("lock = %+v ttl %d, want expired at 10.000s", tl.Locks[0], tl.LockTTL)
	}
}

func TestImpossibleActions(t *testing.T) {
	many := strings.TrimSuffix(strings.Repeat("wait.1s,", MaxActions+1), ",")
	cases := []struct {
		do, opt string
		code    Code
		index   int
	}{
		{"a.fly", "", CodeUnknownVerb, 0},
		{"x.acquire,z.acquire", "", CodeUnknownClient, 0},
		{"acquire", "", CodeSyntax, 0},
		{"a.acquire,,a.write", "", CodeSyntax, 1},
		{"a.acquire,a.pause,a.write", "", CodePaused, 2},
		{"a.write", "", CodeNotHolding, 0},
		{"a.release", "", CodeNotHolding, 0},
		{"a.resume", "", CodeNotPaused, 0},
		{"a.acquire,a.acquire", "", CodeBusy, 1},
		{"a.crash,a.acquire", "", CodeCrashed, 1},
		{"wait.10", "", CodeBadDuration, 0},
		{"wait.0s", "", CodeBadDuration, 0},
		{"wait.-1s", "", CodeBadDuration, 0},
		{"wait.99999999999s", "", CodeBadDuration, 0},
		{many, "", CodeTooMany, MaxActions},
		{"", "release.rm", CodeBadOption, -1},
		{"", "colour.red", CodeUnknownOption, -1},
		{"", "fence.off,fence.on", CodeUnknownOption, -1},
		{strings.Repeat("wait.60m,", 7) + "wait.1s", "", CodeTimeLimit, 6},
	}
	for _, tc := range cases {
		_, err := Run("fencing", tc.do, tc.opt)
		var ae *ActionError
		if !errors.As(err, &ae) {
			t.Errorf("do=%q opt=%q: err = %v, want an *ActionError", tc.do, tc.opt, err)
			continue
		}
		if ae.Code != tc.code || ae.Index != tc.index {
			t.Errorf("do=%.40q opt=%q: got code %s index %d, want %s index %d", tc.do, tc.opt, ae.Code, ae.Index, tc.code, tc.index)
		}
	}
}

func TestActionsRoundTrip(t *testing.T) {
	as, err := ParseActions("a.acquire,wait.1500ms,wait.2000ms,wait.120s,b.crash")
	if err != nil {
		t.Fatal(err)
	}
	if got := FormatActions(as); got != "a.acquire,wait.1500ms,wait.2s,wait.2m,b.crash" {
		t.Fatalf("canonical form = %q", got)
	}
}

// violationSet is the sorted-by-time kinds of a timeline's violations.
func violationSet(tl *Timeline) string { return strings.Join(kinds(tl), " ") }

// TestLessonClaims pins the one outcome each lesson is built on, in its
// failing and its fixed variant.
func TestLessonClaims(t *testing.T) {
	cases := []struct {
		name, scenario, opt, do, want string
	}{
		{"in-process mutexes do not exclude", "two-servers", "lock.local", "a.acquire,b.acquire,a.write,b.write", "two-holders:b,a double-charge:b,a"},
		{"a shared key makes B give up", "two-servers", "", "a.acquire,b.acquire,a.write,b.acquire,a.release", ""},
		{"check-then-set lets both in", "atomic-acquire", "acquire.getset", "a.acquire,b.acquire,a.next,b.next", "two-holders:b,a"},
		{"SETNX then crash: locked forever", "atomic-acquire", "acquire.setnx", "a.acquire,a.crash", "orphan:a"},
		{"SET NX PX then crash: freed by TTL", "atomic-acquire", "", "a.acquire,a.crash,b.acquire,wait.10s", ""},
		{"no TTL then crash: locked forever", "ttl", "ttl.off", "a.acquire,a.crash,b.acquire,wait.1m", "orphan:a"},
		{"a paused holder outlives its TTL", "ttl", "", "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.write", "overlap:b,a late-write:a,b"},
		{"DEL deletes the next holder's lock", "safe-release", "release.del", "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.release,c.acquire", "overlap:b,a foreign-delete:a,b two-holders:c,b"},
		{"compare-and-delete keeps it", "safe-release", "", "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.release,c.acquire", "overlap:b,a"},
		{"lost reply + retry charges twice", "exactly-once", "idem.none", "a.acquire,a.drop,a.write,wait.1s", "double-charge:a,a"},
		{"idempotency key makes it a no-op", "exactly-once", "", "a.acquire,a.drop,a.write,wait.1s", ""},
		{"failover before replication: two holders", "failover", "wait.off", "a.acquire,wait.1s,primary.down,replica.promote,b.acquire,a.write", "two-holders:b,a"},
		{"WAIT until the replica has it: B waits", "failover", "", "a.acquire,primary.down,replica.promote,b.acquire,wait.1s", ""},
		{"Redlock: one node down, still one holder", "redlock", "", "n5.down,a.acquire,b.acquire", ""},
		{"Redlock: restart without persistence", "redlock", "persist.none", "n4.down,n5.down,a.acquire,n3.restart,n4.up,n5.up,b.acquire", "two-holders:b,a"},
		{"Redlock: restart with fsync", "redlock", "", "n4.down,n5.down,a.acquire,n3.restart,n4.up,n5.up,b.acquire", ""},
		{"Redlock: a clock jump", "redlock", "", "n4.down,n5.down,a.acquire,n3.jump.10s,n4.up,n5.up,b.acquire", "two-holders:b,a"},
		{"Redlock: a pause after acquiring", "redlock", "", "a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write", "overlap:b,a stale-write:a,b"},
		{"ZooKeeper: a short connection loss keeps the lock", "coordination", "", "a.acquire,b.acquire,a.disconnect,wait.3s,a.reconnect,a.write,a.release", ""},
		{"ZooKeeper: session expiry, czxid fences A out", "coordination", "", "a.acquire,b.acquire,a.pause,wait.7s,b.write,a.resume,a.write", "overlap:b,a"},
		{"ZooKeeper: without the storage's check", "coordination", "fence.off", "a.acquire,b.acquire,a.pause,wait.7s,b.write,a.resume,a.write", "overlap:b,a stale-write:a,b"},
		{"etcd: lease expiry, revision fences A out", "coordination", "svc.etcd", "a.acquire,b.acquire,a.pause,wait.7s,b.write,a.resume,a.write", "overlap:b,a"},
	}
	for _, tc := range cases {
		tl := run(t, tc.scenario, tc.opt, tc.do)
		if got := violationSet(tl); got != tc.want {
			t.Errorf("%s: violations %q, want %q\n%s", tc.name, got, tc.want, tl.Transcript())
		}
	}
}

func TestRedisRepliesPerVariant(t *testing.T) {
	tl := run(t, "atomic-acquire", "acquire.setnx", "a.acquire,a.crash")
	if tl.LockTTL != 0 || len(tl.Locks) != 1 || tl.Locks[0].Expiry != 0 {
		t.Fatalf("SETNX without EXPIRE: the key should have no TTL: %+v", tl.Locks)
	}
	tl = run(t, "safe-release", "release.delex", "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.release")
	if r := find(tl, "a", "release"); len(r) != 1 || r[0].Command[0] != "DELEX" || !r[0].Reply.IsInt(0) {
		t.Fatalf("DELEX IFEQ with A's stale value = %+v, want (integer) 0", r)
	}
	tl = run(t, "atomic-acquire", "acquire.getset", "a.acquire,b.acquire,a.next,b.next")
	if l := tl.Locks; len(l) != 2 || l[0].End != EndOverwritten || l[0].DeletedBy != "b" {
		t.Fatalf("B's plain SET should overwrite A's key: %+v", l)
	}
}

func TestFailoverRepeatsTokens(t *testing.T) {
	tl := run(t, "failover", "wait.off", "a.acquire,wait.1s,primary.down,replica.promote,b.acquire,a.write,b.write")
	var toks []int64
	for _, e := range tl.Events {
		if e.Purpose == "write" {
			toks = append(toks, e.Token)
		}
	}
	if len(toks) != 2 || toks[0] != 1 || toks[1] != 1 {
		t.Fatalf("tokens written = %v: the promoted replica never got INCR, so B should draw 1 again", toks)
	}
}

func TestRedlockValidity(t *testing.T) {
	tl := run(t, "redlock", "", "n1.slow.4s,n2.slow.4s,n3.slow.4s,a.acquire")
	var verdict string
	for _, e := range tl.Events {
		if e.Kind == KindRedlock {
			verdict = e.Text
		}
	}
	want := "5/5 OK (need 3) · elapsed 12000ms · validity 10000−12000−102 = −2102ms → failed"
	if verdict != want || tl.Clients[0].State != StateTrying {
		t.Fatalf("verdict %q (state %s), want %q", verdict, tl.Clients[0].State, want)
	}
}

func TestReplayContextStops(t *testing.T) {
	sc, _ := Lookup("fencing")
	as, _ := ParseActions(guided)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := ReplayContext(ctx, sc, sc.DefaultOpts(), as)
	var ae *ActionError
	if !errors.As(err, &ae) || ae.Code != CodeTooSlow || ae.Index != 0 {
		t.Fatalf("cancelled replay: %v, want too-slow at the first action", err)
	}
}

// TestStrictTokenPolicyRejectsRetry: under "greater only" the holder's
// retry with its own token is refused; under "not lower" it passes.
func TestStrictTokenPolicyRejectsRetry(t *testing.T) {
	for opt, want := range map[string]string{"fence.strict": "(integer) 0", "": "(integer) 1"} {
		tl := run(t, "fencing", opt, guided+",b.write")
		bw := find(tl, "b", "write")
		if len(bw) != 2 || bw[0].Reply.String() != "(integer) 1" || bw[1].Reply.String() != want || bw[1].Token != 2 {
			t.Errorf("opt=%q: B's writes = %v, want (integer) 1 then %s with token 2", opt, bw, want)
		}
	}
}

// TestLongJobOverlaps: a job longer than the TTL, with no pause, lets B in
// at the expiry while A still works (the job overran its lease: the
// design's failure, not what a lease allows), and A's result lands after.
func TestLongJobOverlaps(t *testing.T) {
	tl := run(t, "ttl", "work.long", "a.acquire,b.acquire,a.write")
	if k := kinds(tl); strings.Join(k, " ") != "lease-overrun:b,a late-write:a,b" {
		t.Fatalf("violations = %v, want B taking the lock from A's overrun job, then A's late write (B has not written yet)", k)
	}
	for _, e := range tl.Events {
		if e.Kind == KindPause {
			t.Fatal("the long job must overlap without any pause")
		}
	}
	if b := find(tl, "b", "retry"); len(b) == 0 || b[len(b)-1].At != 10_000 || !b[len(b)-1].Reply.IsOK() {
		t.Fatalf("B's last retry = %v, want OK at 10.000s", b)
	}
	if aw := find(tl, "a", "write"); len(aw) != 1 || aw[0].At != 15_000 {
		t.Fatalf("A's write = %v, want one at 15.000s", aw)
	}
}

// TestPTTLShowsTheOrphan: PTTL answers -2 before anyone locked, and -1 for
// the key a client left behind when it crashed between SETNX and PEXPIRE.
func TestPTTLShowsTheOrphan(t *testing.T) {
	tl := run(t, "atomic-acquire", "acquire.setnx", "b.ttl,a.acquire,a.crash,b.acquire,wait.2s,b.ttl")
	got := find(tl, "b", "ttl")
	if len(got) != 2 || !got[0].Reply.IsInt(-2) || !got[1].Reply.IsInt(-1) || got[1].Command[0] != "PTTL" {
		t.Fatalf("B's PTTLs = %v, want (integer) -2 then (integer) -1", got)
	}
	if k := kinds(tl); len(k) != 1 || k[0] != "orphan:a" {
		t.Fatalf("violations = %v, want A's orphan", k)
	}
}

// TestTwoStepCheckLetsOldWriteLandLast: with the storage's check as GET
// then MSET, both writers read no token yet, B's write lands, then A's
// older one overwrites it — accepted, flagged as a stale write. On the
// guided interleaving (B wrote before A read) the same check refuses A.
func TestTwoStepCheckLetsOldWriteLandLast(t *testing.T) {
	tl := run(t, "fencing", "fence.twostep", twoStep)
	reads := append(find(tl, "a", "lasttoken"), find(tl, "b", "lasttoken")...)
	if len(reads) != 2 || reads[0].Reply.Kind != rediscli.ReplyNil || reads[1].Reply.Kind != rediscli.ReplyNil {
		t.Fatalf("token reads = %v, want both (nil): no token accepted yet", reads)
	}
	aw, bw := find(tl, "a", "write"), find(tl, "b", "write")
	if len(aw) != 1 || len(bw) != 1 || aw[0].Command[0] != "MSET" || !aw[0].Reply.IsOK() || !bw[0].Reply.IsOK() || aw[0].Seq < bw[0].Seq {
		t.Fatalf("writes: A %v, B %v; want B's MSET OK, then A's MSET OK", aw, bw)
	}
	if tl.Storage.Value != "written by A" || tl.Storage.LastToken != 1 {
		t.Fatalf("storage = %q, token %d; want A's older write (token 1) last", tl.Storage.Value, tl.Storage.LastToken)
	}
	if k := kinds(tl); strings.Join(k, " ") != "overlap:b,a stale-write:a,b" {
		t.Fatalf("violations = %v, want the overlap and A's stale write", k)
	}
	g := run(t, "fencing", "fence.twostep", twoStepInOrder)
	ar := find(g, "a", "lasttoken")
	if len(ar) != 1 || ar[0].Reply.String() != `"2"` || ar[0].Accepted == nil || *ar[0].Accepted || len(find(g, "a", "write")) != 0 {
		t.Fatalf("guided order: A's read = %v and writes %v; want it to see \"2\", refuse, and send no MSET", ar, find(g, "a", "write"))
	}
	if g.Storage.Value != "written by B" {
		t.Fatalf("guided order: storage = %q, want B's", g.Storage.Value)
	}
}

// TestClientCheckDoesNotHelp: A's GET says the lock is still its own, A
// pauses right after, and its write lands when B holds the lock: accepted
// without fencing, refused with it.
func TestClientCheckDoesNotHelp(t *testing.T) {
	for opt, want := range map[string]string{"fence.off,check.get": "OK", "check.get": "(integer) 0"} {
		tl := run(t, "fencing", opt, clientCheck)
		ac := find(tl, "a", "stillmine")
		if len(ac) != 1 || ac[0].At != 1000 || ac[0].Reply.String() != `"`+tl.Clients[0].Value+`"` {
			t.Fatalf("%s: A's check = %v, want its own value at 1.000s", opt, ac)
		}
		aw := find(tl, "a", "write")
		if len(aw) != 1 || aw[0].At != 11_000 || aw[0].Reply.String() != want {
			t.Fatalf("%s: A's write = %v, want %s at 11.000s", opt, aw, want)
		}
		stale := slices.Contains(kinds(tl), "stale-write:a,b")
		if stale != (want == "OK") {
			t.Fatalf("%s: violations %v", opt, kinds(tl))
		}
	}
	// A client whose check finds the lock gone does not write.
	tl := run(t, "fencing", "check.get", "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.write")
	if ac := find(tl, "a", "stillmine"); len(ac) != 1 || ac[0].Reply.Kind != rediscli.ReplyBulk || len(find(tl, "a", "write")) != 0 {
		t.Fatalf("A saw %v and wrote %v; want B's value and no write", ac, find(tl, "a", "write"))
	}
}

// TestSharedValueDeletesNewLock: with the host's name as the value, A
// and B hold the same value, so A's stale compare-and-delete matches and
// deletes B's lock; the checker tells the two acquisitions apart.
func TestSharedValueDeletesNewLock(t *testing.T) {
	tl := run(t, "safe-release", "value.host", hostValue)
	if tl.Clients[0].Value != "app-1" || tl.Clients[1].Value != "app-1" || tl.Clients[2].Value != "app-2" {
		t.Fatalf("values = %v, want app-1, app-1, app-2", tl.Clients)
	}
	rel := find(tl, "a", "release")
	if len(rel) != 1 || !rel[0].Reply.IsInt(1) {
		t.Fatalf("A's release = %v, want (integer) 1: the script matched B's equal value", rel)
	}
	if k := kinds(tl); strings.Join(k, " ") != "overlap:b,a foreign-delete:a,b two-holders:c,b" {
		t.Fatalf("violations = %v, want B over A (A's lease had run out), A deleting B's lock, C beside B (B's lease had not)", k)
	}
	var owners []string
	for _, l := range tl.Locks {
		owners = append(owners, l.Owner+":"+l.End)
	}
	if strings.Join(owners, " ") != "a:expired b:deleted c:" {
		t.Fatalf("lock spans = %v, want A's expired, B's deleted (by A), C's", owners)
	}
	// With a value per acquisition the same release deletes nothing.
	u := run(t, "safe-release", "", hostValue)
	if rel := find(u, "a", "release"); len(rel) != 1 || !rel[0].Reply.IsInt(0) {
		t.Fatalf("unique values: A's release = %v, want (integer) 0", rel)
	}
}

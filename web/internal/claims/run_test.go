package claims_test

import (
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/sim/oracle"
	"locklab/web/i18n"
	"locklab/web/internal/webtest"
)

// TestMain fails the package if a goroutine outlives the tests.
func TestMain(m *testing.M) { webtest.Main(m) }

// TestGuidedSteps holds every guided step of every lesson, in every
// language, to what its servers did.
func TestGuidedSteps(t *testing.T) {
	t.Parallel()
	cat, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range cat.List(i18n.Fallback) {
		for i, st := range l.Steps {
			tl, f, err := oracle.Run(l.Scenario.ID, st.Do, st.Opt)
			if err != nil {
				t.Fatalf("%s step %d: %v", l.Slug, i+1, err)
			}
			for _, code := range i18n.Codes() {
				if p := claimsOf(tl, f, i18n.For(code)); len(p) > 0 {
					t.Errorf("/%s/lessons/%s?do=%s&opt=%s (step %d):\n  %s", code, l.Slug, st.Do, st.Opt, i+1, strings.Join(p, "\n  "))
				}
			}
		}
	}
}

// TestReadersTimelines: timelines fresh readers of each language found
// untrue, and hand commands on the lock and the storage's keys.
func TestReadersTimelines(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ sc, do, opt string }{
		{"atomic-acquire", "a.acquire,a.crash,b.acquire,wait.15s,b.ttl,cli.redis.DEL lock:order:42,wait.1s", "acquire.setnx"},
		{"two-servers", "a.acquire,cli.redis.DEL lock:order:42,b.acquire", ""},
		{"safe-release", "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.release,c.acquire,cli.redis.DEL lock:order:42,wait.1s", ""},
		{"redlock", "n1.slow.4s,n2.slow.4s,n3.slow.4s,a.acquire", ""},
		{"redlock", "n1.slow.4s,n2.slow.4s,n3.slow.4s,a.acquire,b.acquire", ""},
		{"redlock", "a.acquire,wait.15s,b.acquire", ""},
		// a wait the clock outran: B's retry to slow nodes was under way
		{"redlock", "n1.slow.4s,n2.slow.4s,a.acquire,b.acquire,wait.1s", ""},
		{"failover", "a.acquire,wait.1s", ""},
		{"failover", "a.acquire,wait.1s,primary.down,replica.promote,b.acquire,a.write,b.write", "wait.off"},
		{"failover", "a.acquire,wait.1s,primary.down", "wait.off"},
		{"coordination", "a.acquire,b.acquire,a.disconnect,wait.3s,a.reconnect,a.pause,wait.7s", ""},
		{"coordination", "a.acquire,b.acquire,a.disconnect,wait.10s,a.reconnect", ""},
		{"two-servers", "a.acquire,b.acquire", "lock.local"},
		{"two-servers", "a.acquire,a.pause", "lock.local"}, // a paused process keeps its mutex (ja reader 7)
		{"two-servers", "a.acquire,b.acquire,a.pause", "lock.local"},
		{"two-servers", "a.acquire,a.crash,b.acquire", "lock.local"}, // a crash takes it
		{"two-servers", "a.acquire,a.pause,wait.10s,a.resume,a.write", ""},
		{"fencing", "a.acquire,b.acquire,b.pause,wait.10s,a.write", ""},
		{"fencing", "a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.write,b.write,b.next,a.next", "fence.twostep"},
		{"atomic-acquire", "a.acquire,cli.redis.UNLINK lock:order:42,b.acquire", ""},
		{"atomic-acquire", "a.acquire,cli.redis.GETDEL lock:order:42,b.acquire", ""},
		{"atomic-acquire", "a.acquire,cli.redis.RENAME lock:order:42 x,b.acquire", ""},
		{"atomic-acquire", "a.acquire,cli.redis.SET lock:order:42 mine,b.acquire", ""},
		{"atomic-acquire", "a.acquire,cli.redis.PERSIST lock:order:42,wait.15s,b.acquire", ""},
		{"fencing", "a.acquire,a.write,cli.storage.SET data:order:42:token 0,a.pause,wait.10s,b.acquire,b.write", ""},
		// FuzzClaims under CI: a TTL shortened by hand is the operator's
		// taking of B's lock, though the key itself expired
		{"exactly-once", "b.acquire,a.crash,cli.redis.PEXPIRE lock:order:42 1500,b.write,b.write", ""},
		{"atomic-acquire", "a.acquire,cli.redis.PEXPIRE lock:order:42 1500,wait.5s,b.acquire", ""},
		// a release that deletes a value typed by hand deleted the
		// operator's value, in a design as in a lesson
		{"safe-release", "a.acquire,cli.redis.SET lock:order:42 typed,a.release", "release.del"},
		// a TTL typed by hand that ends with the holder's own (its count
		// starts at its SET, not after WAIT's acknowledgement) took nothing
		{"failover", "a.acquire,cli.replica.PERSIST lock:order:42,wait.5s,cli.replica.EXPIRE lock:order:42 3,wait.5s", ""},
		{"redlock", "a.acquire,cli.n4.DEL lock:order:42,cli.n2.EXPIRE lock:order:42 3,n2.jump.3s", ""},
		// FuzzClaims under CI: a write script that fails on a record typed
		// by hand is the write's error, and says so
		{"design-add", "cli.storage.SET data:order:42 typed,a.acquire,a.write", ""},
		{"design-set", "cli.storage.SET data:order:42:token typed,a.acquire,a.write", ""},
	} {
		run := oracle.Run
		if effect, ok := strings.CutPrefix(c.sc, "design-"); ok { // the design page's default lock
			run = func(_, do, opt string) (*sim.Timeline, *oracle.Facts, error) {
				d := lockdesign.DefaultDesign()
				d.SetEffect(effect)
				sc, err := d.ScenarioFor(2)
				if err != nil {
					return nil, nil, err
				}
				return oracle.RunOn(sc, do, opt)
			}
		}
		tl, f, err := run(c.sc, c.do, c.opt)
		if err != nil {
			t.Fatalf("%s %s: %v", c.sc, c.do, err)
		}
		for _, code := range i18n.Codes() {
			if p := claimsOf(tl, f, i18n.For(code)); len(p) > 0 {
				t.Errorf("/%s/lessons/%s?do=%s&opt=%s:\n  %s", code, c.sc, c.do, c.opt, strings.Join(p, "\n  "))
			}
		}
	}
}

package oracle_test

import (
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim/oracle"
)

// TestGuidedSteps holds every guided step of every lesson to what its
// servers did.
func TestGuidedSteps(t *testing.T) {
	cat, err := lessons.Load("en")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range cat.List("en") {
		for i, st := range l.Steps {
			_, f, err := oracle.Run(l.Scenario.ID, st.Do, st.Opt)
			if err != nil {
				t.Fatalf("%s step %d: %v", l.Slug, i+1, err)
			}
			if p := f.Check(); len(p) > 0 {
				t.Errorf("%s step %d (do=%s opt=%s):\n  %s", l.Slug, i+1, st.Do, st.Opt, strings.Join(p, "\n  "))
			}
		}
	}
}

// TestReadersTimelines: the timelines fresh readers found untrue.
func TestReadersTimelines(t *testing.T) {
	for _, c := range []struct{ sc, do, opt string }{
		{"atomic-acquire", "a.acquire,a.crash,b.acquire,wait.15s,b.ttl,cli.redis.DEL lock:order:42,wait.1s", "acquire.setnx"},
		{"two-servers", "a.acquire,cli.redis.DEL lock:order:42,b.acquire", ""},
		{"redlock", "n1.slow.4s,n2.slow.4s,n3.slow.4s,a.acquire", ""},
		{"redlock", "n1.slow.4s,n2.slow.4s,n3.slow.4s,a.acquire,b.acquire", ""},
		{"failover", "a.acquire,wait.1s,primary.down,replica.promote,b.acquire,a.write,b.write", "wait.off"},
		{"atomic-acquire", "a.acquire,cli.redis.UNLINK lock:order:42,b.acquire", ""},
		{"atomic-acquire", "a.acquire,cli.redis.RENAME lock:order:42 x,b.acquire", ""},
	} {
		_, f, err := oracle.Run(c.sc, c.do, c.opt)
		if err != nil {
			t.Fatalf("%s %s: %v", c.sc, c.do, err)
		}
		if p := f.Check(); len(p) > 0 {
			t.Errorf("%s do=%s opt=%s:\n  %s", c.sc, c.do, c.opt, strings.Join(p, "\n  "))
		}
	}
}

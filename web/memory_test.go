package web_test

import (
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/web"
	"locklab/web/internal/sitetest"
	"locklab/web/links"
	"locklab/web/site"
)

// rssMB is the process's resident set, in MB (Linux's /proc).
func rssMB(t *testing.T) float64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status: RSS cannot be read here")
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				t.Fatal(err)
			}
			return float64(kb) / 1024
		}
	}
	t.Fatal("no VmRSS line")
	return 0
}

// TestScriptsMemoryBounded (LOCKLAB_MEMORY=1; .ci/run runs it) sends
// 50,000 distinct valid acquire scripts, each as a design counterexample
// run that EVALs it, and wants the process's RSS to grow by less than
// 50 MB from after a warm-up of 2,000 — the compiled scripts live in
// luarun's bounded cache, not in miniredis's map that never forgets — and
// every later request still answered.
func TestScriptsMemoryBounded(t *testing.T) {
	if os.Getenv("LOCKLAB_MEMORY") == "" {
		t.Skip("set LOCKLAB_MEMORY=1 to send 50,000 scripts (a few minutes)")
	}
	h := sitetest.Handler(t, web.Config{Config: site.Config{Version: "test", LabDeadline: time.Minute}})
	acquire, err := sim.ParseActions("a.acquire")
	if err != nil {
		t.Fatal(err)
	}
	send := func(lo, hi int) {
		var next atomic.Int64
		next.Store(int64(lo))
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for {
					i := int(next.Add(1)) - 1
					if i >= hi {
						return
					}
					d := lockdesign.DefaultDesign()
					d.SetScript(sim.PieceAcquire, fmt.Sprintf("-- acquire, variant %d\nif ARGV[1] == 'v%d' then\n  return 0\nend\nreturn redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])", i, i))
					w := from(h, "10.1.0.1:1", "GET", links.DesignRun("en", d, 2, acquire), nil)
					if w.Code != http.StatusOK {
						t.Errorf("script %d: %d", i, w.Code)
						return
					}
				}
			})
		}
		wg.Wait()
	}
	settle := func() float64 {
		runtime.GC()
		debug.FreeOSMemory()
		return rssMB(t)
	}
	send(0, 2_000)
	base := settle()
	start := time.Now()
	send(2_000, 52_000)
	after := settle()
	t.Logf("RSS after 2,000 scripts: %.1f MB; after 50,000 more: %.1f MB (+%.1f MB); %.0f scripts/s", base, after, after-base, 50_000/time.Since(start).Seconds())
	if after-base >= 50 {
		t.Errorf("RSS grew by %.1f MB for 50,000 scripts (want < 50)", after-base)
	}
	for _, p := range []string{"/en/lessons/fencing?do=a.acquire", "/ja/lab/design", "/en/lab?lesson=fencing"} {
		if w := from(h, "10.1.0.2:1", "GET", p, nil); w.Code != http.StatusOK {
			t.Errorf("%s after the scripts: %d", p, w.Code)
		}
	}
}

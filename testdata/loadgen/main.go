// Command loadgen measures never-seen lesson steps on a running Lock Lab:
// from -c concurrent connections for -d, it asks for steps of the fencing
// lesson's guided path, each with a random extra wait.<ms> at its end, so
// almost every request is a timeline no cache has seen (a replay and a
// render). It prints requests per second, the median and p99 latency,
// the errors, and — given the server's process id — the server's peak RSS
// (VmHWM). Run the app first, then:
//
//	go run ./testdata/loadgen -url http://127.0.0.1:8080 -pid $(pgrep -n locklab) -d 20s
//
// (testdata/ is left out of ./... so this is not part of the build or
// the tests; it is a measuring tool.)
package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"locklab/lessons"
	"locklab/sim"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "the running app")
	conns := flag.Int("c", 64, "concurrent connections")
	dur := flag.Duration("d", 20*time.Second, "how long to send requests")
	pid := flag.Int("pid", 0, "the server's process id, to read its peak RSS (0: not read)")
	lesson := flag.String("lesson", "fencing", "the lesson whose guided path is asked")
	lang := flag.String("lang", "en", "the language")
	flag.Parse()

	course, err := lessons.Load()
	if err != nil {
		fail(err)
	}
	l, ok := course.Get(*lang, *lesson)
	if !ok {
		fail(fmt.Errorf("no lesson %s/%s", *lang, *lesson))
	}
	// Each guided step's actions, to which a random wait is added.
	type step struct{ do, opt string }
	var steps []step
	for _, st := range l.Steps {
		steps = append(steps, step{st.Do, st.Opt})
	}

	tr := &http.Transport{MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns, DisableCompression: true}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var (
		mu       sync.Mutex
		lat      []time.Duration
		errs     atomic.Int64
		statuses sync.Map
	)
	stop := time.Now().Add(*dur)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range *conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), uint64(time.Now().UnixNano())))
			var mine []time.Duration
			for time.Now().Before(stop) {
				st := steps[r.IntN(len(steps))]
				do := "wait." + sim.FormatDuration(int64(1+r.IntN(9999)))
				if st.do != "" {
					do = st.do + "," + do
				}
				u := *base + "/" + *lang + "/lessons/" + *lesson + "?do=" + do
				if st.opt != "" {
					u += "&opt=" + st.opt
				}
				t0 := time.Now()
				resp, err := client.Get(u)
				if err != nil {
					errs.Add(1)
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					errs.Add(1)
					n, _ := statuses.LoadOrStore(resp.StatusCode, new(atomic.Int64))
					n.(*atomic.Int64).Add(1)
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	el := time.Since(start)
	slices.Sort(lat)
	if len(lat) == 0 {
		fail(fmt.Errorf("no request answered (%d errors)", errs.Load()))
	}
	fmt.Printf("%d requests in %.1fs: %.0f req/s, p50 %.1f ms, p99 %.1f ms, %d errors\n",
		len(lat), el.Seconds(), float64(len(lat))/el.Seconds(),
		ms(lat[len(lat)/2]), ms(lat[len(lat)*99/100]), errs.Load())
	statuses.Range(func(k, v any) bool {
		fmt.Printf("  status %d: %d\n", k, v.(*atomic.Int64).Load())
		return true
	})
	if *pid > 0 {
		fmt.Printf("server peak RSS (VmHWM): %s\n", vmHWM(*pid))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func vmHWM(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return err.Error()
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(rest)
		}
	}
	return "?"
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "loadgen:", err)
	os.Exit(1)
}

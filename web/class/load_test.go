package class_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"locklab/web"
	"locklab/web/class"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/site"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/redistest"
)

// TestClassLoad is the load benchmark of the live class: 1,000 students'
// SSE streams (in-process clients over loopback HTTP) and a teacher who
// makes 20 moves, on one instance with the embedded miniredis, then on two
// instances sharing a redis-server. It reports the fan-out latency (from
// the teacher's request to the last student's complete event, which
// carries that student's page of the new step) and the process's
// peak RSS. Every run checks that every student gets every move, in
// order, and that no goroutine is left after the class ends; with
// LOCKLAB_CLASS_LOAD=1 it also holds the targets (p99 under 250 ms, RSS
// under 200 MB), which are for an otherwise idle machine:
//
//	LOCKLAB_CLASS_LOAD=1 go test ./web -run TestClassLoad -v -count=1
func TestClassLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	students := 1000
	if s := os.Getenv("LOCKLAB_CLASS_STUDENTS"); s != "" {
		students, _ = strconv.Atoi(s)
	}
	t.Run("one-instance-miniredis", func(t *testing.T) {
		rdb, _ := webtest.MiniRDB(t)
		classLoad(t, students, []redis.UniversalClient{rdb})
	})
	t.Run("two-instances-redis-server", func(t *testing.T) {
		srv := redistest.Start(t, 1)[0]
		classLoad(t, students, []redis.UniversalClient{realRDB(t, srv), realRDB(t, srv)})
	})
}

func classLoad(t *testing.T, students int, rdbs []redis.UniversalClient) {
	const moves = 20
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	var sites []*classSite
	// every phone here is one client (loopback): its share of streams is
	// the whole instance's
	lim := class.Limits{Streams: students + 10, StreamsPerClient: students + 10, StudentsPerRoom: students + 10}
	for _, rdb := range rdbs {
		c, err := class.NewClassroom(context.Background(), rdb, lim)
		if err != nil {
			t.Fatal(err)
		}
		sites = append(sites, &classSite{class: c})
	}
	for _, s := range sites {
		s.srv = httptest.NewServer(sitetest.Handler(t, web.Config{Config: site.Config{Version: "test"}, Class: s.class}))
		s.URL = s.srv.URL
		t.Cleanup(func() { s.class.Close(); s.srv.Close() })
	}
	// LOCKLAB_CLASS_FETCH=1 measures the way moves went out before
	// class_frame.go: the stream carries a bare notice and each phone then
	// fetches its page (each on its own kept-alive connection, as phones).
	fetch := os.Getenv("LOCKLAB_CLASS_FETCH") == "1"
	for _, s := range sites {
		s.class.SetBareMoves(fetch)
	}
	tr := &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}
	client := &http.Client{Transport: tr}
	ftr := &http.Transport{MaxIdleConnsPerHost: students, DisableCompression: true}
	defer ftr.CloseIdleConnections()
	course, _ := lessons.Load()
	l, _ := course.Get("en", "fencing")
	code, teacher := startClass(t, sites[0].URL, "en", "", "")

	// students join (one page each, as a phone would) and open streams
	type arrival struct {
		student int
		seq     int64
		at      time.Time
	}
	got := make(chan arrival, students*(moves+1))
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	rss := newRSSWatch()
	// every phone opens its stream at once (the class scanned the QR
	// code), carrying its cookie: the stream joins the student
	type open struct {
		err error
		d   time.Duration
	}
	opened := make(chan open, students)
	joinStart := time.Now()
	for i := range students {
		site := sites[i%len(sites)]
		sid, err := sites[0].class.StudentCookie(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, site.URL+"/en/class/"+code+"/events?since=1", nil)
			req.AddCookie(sid)
			t0 := time.Now()
			res, err := client.Do(req)
			if err == nil && res.StatusCode != http.StatusOK {
				res.Body.Close()
				err = fmt.Errorf("status %d", res.StatusCode)
			}
			opened <- open{err, time.Since(t0)}
			if err != nil {
				return
			}
			defer res.Body.Close()
			// an event counts when it is complete (its blank line) and
			// carries the student's page of that move. The lines are read
			// in place (no copy each), so the clients' own work weighs
			// little beside the server's.
			br := bufio.NewReaderSize(res.Body, 4<<10)
			var id int64
			var seqAttr []byte
			page := false
			for {
				line, err := br.ReadSlice('\n')
				if err != nil && err != bufio.ErrBufferFull {
					return
				}
				if err == nil { // (else a long line's first part)
					line = bytes.TrimSuffix(line, []byte("\n"))
				}
				switch {
				case len(line) == 0:
					if id > 0 && !page && fetch {
						page = fetchPage(ctx, ftr, site.URL+"/en/class/"+code, sid, id)
					}
					if id > 0 {
						if !page {
							id = -id // the move came without its page
						}
						got <- arrival{student: i, seq: id, at: time.Now()}
					}
					id, page = 0, false
				case bytes.HasPrefix(line, []byte("id: ")):
					id, _ = strconv.ParseInt(string(line[4:]), 10, 64)
					seqAttr = []byte(`data-seq="` + strconv.FormatInt(id, 10) + `"`)
				case !page && bytes.HasPrefix(line, []byte("data: ")) && bytes.Contains(line, []byte(`<div id="classroom"`)):
					page = bytes.Contains(line, seqAttr)
				}
			}
		}()
	}
	var slowest time.Duration
	for i := range students {
		o := <-opened
		if o.err != nil {
			t.Fatalf("student %d of %d: %v", i, students, o.err)
		}
		slowest = max(slowest, o.d)
	}
	joined := time.Since(joinStart)
	for _, s := range sites { // every stream is registered by now
		if n := s.class.Streams(); n < students/len(sites) {
			t.Fatalf("%d streams registered of %d", n, students/len(sites))
		}
	}

	// every student counts once, whichever instance holds their stream
	if n := sites[0].class.Connected(ctx, code); n != students {
		t.Errorf("the teacher's count says %d connected, want %d", n, students)
	}

	var moveLat, allLat []time.Duration
	last := make([]int64, students)
	cpu0 := cpuTime()
	for k := range moves {
		st := l.Steps[(k+1)%len(l.Steps)]
		seq := int64(k + 2)
		t0 := time.Now()
		if res := webtest.Post(t, sites[0].URL, "/en/class/"+code+"/move", url.Values{"do": {st.Do}, "opt": {st.Opt}}, teacher); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("move %d: %d", k, res.StatusCode)
		}
		var worst time.Duration
		for n := 0; n < students; {
			select {
			case a := <-got:
				if a.seq < 0 {
					t.Fatalf("student %d: move %d came without the student's page", a.student, -a.seq)
				}
				if a.seq != last[a.student]+1 && !(last[a.student] == 0 && a.seq == 2) {
					t.Fatalf("student %d got move %d after %d", a.student, a.seq, last[a.student])
				}
				last[a.student] = a.seq
				if a.seq != seq {
					t.Fatalf("student %d got move %d during move %d", a.student, a.seq, seq)
				}
				d := a.at.Sub(t0)
				allLat = append(allLat, d)
				worst = max(worst, d)
				n++
			case <-time.After(60 * time.Second):
				t.Fatalf("move %d: only %d of %d students got it", k, n, students)
			}
		}
		moveLat = append(moveLat, worst)
	}
	cpu := cpuTime() - cpu0
	peak := rss.stop()
	streams := 0
	for _, s := range sites {
		streams += s.class.Streams()
	}
	// the class ends: every stream closes, nothing stays behind
	if res := webtest.Post(t, sites[0].URL, "/en/class/"+code+"/end", nil, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("end: %d", res.StatusCode)
	}
	wg.Wait()
	// the class Redis clients' pools (go-redis default size, 10 per CPU):
	// a wait is a command that found every connection busy
	var waits uint32
	var waited time.Duration
	conns := 0
	for _, rdb := range rdbs {
		ps := rdb.PoolStats()
		waits += ps.WaitCount
		waited += time.Duration(ps.WaitDurationNs)
		conns += int(ps.TotalConns)
	}
	cancel()
	for _, s := range sites {
		s.class.Close()
		s.srv.Close()
	}
	tr.CloseIdleConnections()
	defer func() {
		for _, rdb := range rdbs {
			_ = rdb.Close()
		}
	}()
	// the lesson replays that drew the pages keep their miniredis servers
	// for the next replay (sim's pool): close them, they are no leak
	defer sim.CloseIdleServers()
	if keys := roomKeys(t, rdbs[0], code); len(keys) != 0 {
		t.Fatalf("keys left: %v", keys)
	}

	p := func(ds []time.Duration, q float64) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[min(len(s)-1, int(q*float64(len(s))))]
	}
	t.Logf("%d students on %d instance(s), %d moves, %d streams open at the end: "+
		"%d streams opened at once in %v (slowest %v); fan-out to the last student p50 %v p99 %v max %v; per event p50 %v p99 %v; peak RSS %.1f MB; "+
		"CPU (server and clients, user+system) %v per move; class Redis pool: %d connections, %d waits (%v in all)",
		students, len(sites), moves, streams, students, joined.Round(time.Millisecond), slowest.Round(time.Millisecond),
		p(moveLat, .5).Round(time.Microsecond), p(moveLat, .99).Round(time.Microsecond), slices.Max(moveLat).Round(time.Microsecond),
		p(allLat, .5).Round(time.Microsecond), p(allLat, .99).Round(time.Microsecond), float64(peak)/(1<<20),
		(cpu / moves).Round(time.Microsecond), conns, waits, waited.Round(time.Millisecond))
	if os.Getenv("LOCKLAB_CLASS_LOAD") == "1" {
		if p99 := p(moveLat, .99); p99 > 250*time.Millisecond {
			t.Errorf("p99 %v over 250 ms", p99)
		}
		if peak > 200<<20 {
			t.Errorf("peak RSS %d MB over 200 MB", peak>>20)
		}
	}
}

// fetchPage is a phone's request for its class page after a bare notice:
// whether the page shows move seq.
func fetchPage(ctx context.Context, tr http.RoundTripper, u string, sid *http.Cookie, seq int64) bool {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	req.Header.Set("HX-Request", "true")
	req.AddCookie(sid)
	res, err := tr.RoundTrip(req)
	if err != nil {
		return false
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode == http.StatusOK && bytes.Contains(b, []byte(`data-seq="`+strconv.FormatInt(seq, 10)+`"`))
}

// cpuTime is the CPU time this process has used (user and system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rssWatch samples the process's resident set while a load runs.
type rssWatch struct {
	stopc chan struct{}
	done  chan int64
}

func newRSSWatch() *rssWatch {
	w := &rssWatch{stopc: make(chan struct{}), done: make(chan int64)}
	go func() {
		var peak int64
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, rssBytes())
			select {
			case <-w.stopc:
				w.done <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *rssWatch) stop() int64 { close(w.stopc); return <-w.done }

// rssBytes is VmRSS from /proc/self/status (0 where there is none).
func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

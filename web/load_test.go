package web_test

// The load harness: Go benchmarks that serve the site on a real loopback
// listener and hit it from 64 concurrent connections (2 cores × parallelism
// 32). Each reports median and p99 latency, requests per second, errors,
// the process's peak RSS and the goroutines left after the run:
//
//	go test ./web -run '^$' -bench BenchmarkLoad -benchtime 20s
//
// The README's Performance section has the figures.

import (
	"io"
	"locklab/web"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"locklab/lessons"
	"locklab/static"
	"locklab/web/links"
	"locklab/web/site"
)

const loadConns = 64

func loadServer(b *testing.B, cacheBytes int) *httptest.Server {
	b.Helper()
	return httptest.NewServer(sitetest.Handler(b, web.Config{Config: site.Config{Version: "load", CacheBytes: cacheBytes}}))
}

// runLoad sends GETs to the urls (round robin per worker) from loadConns
// workers until b.N requests are done, and reports what it measured.
func runLoad(b *testing.B, srv *httptest.Server, urls []string, headers map[string]string) {
	b.Helper()
	tr := &http.Transport{MaxIdleConnsPerHost: loadConns, MaxConnsPerHost: loadConns, DisableCompression: true}
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	defer tr.CloseIdleConnections()
	baseline := runtime.NumGoroutine()
	var mu sync.Mutex
	var all []time.Duration
	var errs atomic.Int64
	var next atomic.Int64
	b.SetParallelism(loadConns / runtime.GOMAXPROCS(0))
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			u := srv.URL + urls[int(next.Add(1))%len(urls)]
			req, _ := http.NewRequest(http.MethodGet, u, nil)
			for k, v := range headers {
				req.Header.Set(k, v)
			}
			t0 := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				errs.Add(1)
				continue
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				errs.Add(1)
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		all = append(all, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	if len(all) > 0 {
		b.ReportMetric(ms(all[len(all)/2]), "p50-ms")
		b.ReportMetric(ms(all[len(all)*99/100]), "p99-ms")
	}
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(errs.Load()), "errors")
	b.ReportMetric(peakRSSMB(), "peak-RSS-MB")
	tr.CloseIdleConnections()
	time.Sleep(100 * time.Millisecond)
	b.ReportMetric(float64(runtime.NumGoroutine()-baseline), "goroutines-left")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// peakRSSMB is the process's high-water resident set (VmHWM), in MB.
func peakRSSMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return -1
}

// BenchmarkLoadStatic: the vendored htmx, the ceiling for the others.
func BenchmarkLoadStatic(b *testing.B) {
	assets, _ := site.NewAssets(static.FS)
	srv := loadServer(b, 16<<20)
	defer srv.Close()
	runLoad(b, srv, []string{assets.URL("css/app.css")}, nil)
}

// BenchmarkLoadCachedStep: the guided path's steps, all in the page cache.
func BenchmarkLoadCachedStep(b *testing.B) {
	srv := loadServer(b, 16<<20)
	defer srv.Close()
	urls := guidedURLs()
	for _, u := range urls { // warm the cache
		resp, err := http.Get(srv.URL + u)
		if err == nil {
			resp.Body.Close()
		}
	}
	runLoad(b, srv, urls, nil)
}

// BenchmarkLoadUncachedStep: the fencing guided path with the cache off:
// every request replays and renders.
func BenchmarkLoadUncachedStep(b *testing.B) {
	srv := loadServer(b, 1)
	defer srv.Close()
	runLoad(b, srv, guidedURLs(), nil)
}

// BenchmarkLoadWorstCase: the longest timeline the limits allow (200
// actions), uncached.
func BenchmarkLoadWorstCase(b *testing.B) {
	srv := loadServer(b, 1)
	defer srv.Close()
	worst := "/en/lessons/redlock?do=" + strings.TrimSuffix(strings.Repeat("a.acquire,a.release,", 100), ",")
	runLoad(b, srv, []string{worst}, nil)
}

func guidedURLs() []string {
	course, _ := lessons.Load()
	l, _ := course.Get("en", "fencing")
	var out []string
	for _, st := range l.Steps {
		out = append(out, links.Lesson(l)+links.Query(st.Do, st.Opt))
	}
	return out
}

// BenchmarkPageWeight reports what a learner downloads, compressed: the
// first load of a lesson step (the page and every file it loads from
// /static/; not the code editor, which the command line loads when first
// used) and a step swap (the htmx fragment of the next step). It
// measures sizes, so one iteration is enough:
//
//	go test ./web -run '^$' -bench BenchmarkPageWeight -benchtime 1x
func BenchmarkPageWeight(b *testing.B) {
	srv := loadServer(b, 1<<20)
	defer srv.Close()
	tr := &http.Transport{DisableCompression: true}
	client := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()
	fetch := func(path string, hx bool) int {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		if hx {
			req.Header.Set("HX-Request", "true")
		}
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d", path, resp.StatusCode)
		}
		return len(body)
	}
	page := "/en/lessons/fencing?do=a.acquire,a.pause"
	next := "/en/lessons/fencing?do=a.acquire,a.pause,wait.10s"
	for b.Loop() {
		total := fetch(page, false)
		// the files the page references (its HTML, uncompressed, to find them)
		req, _ := http.NewRequest(http.MethodGet, srv.URL+page, nil)
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		html, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		seen := map[string]bool{}
		parts := strings.Split(string(html), `"/static/`)
		for i, part := range parts[1:] {
			if strings.HasSuffix(parts[i], "data-editor-src=") {
				continue // the editor: loaded only when the command line is first used
			}
			ref := "/static/" + part[:strings.IndexByte(part, '"')]
			if !seen[ref] {
				seen[ref] = true
				total += fetch(ref, false)
			}
		}
		b.ReportMetric(float64(total)/1024, "first-load-KB")
		b.ReportMetric(float64(len(seen)), "files")
		b.ReportMetric(float64(fetch(next, true))/1024, "step-swap-KB")
	}
}

// BenchmarkGuidedStepServerTime is the server time of an uncached step of
// the fencing guided path, one request at a time (no queueing): each
// iteration requests every step of the path in turn with the page cache
// off, and the median and p99 are over all those requests.
//
//	go test ./web -run '^$' -bench BenchmarkGuidedStepServerTime -benchtime 200x
func BenchmarkGuidedStepServerTime(b *testing.B) {
	h := sitetest.Handler(b, web.Config{Config: site.Config{Version: "bench", CacheBytes: 1}})
	urls := guidedURLs()
	var all []time.Duration
	for b.Loop() {
		for _, u := range urls {
			t0 := time.Now()
			if r := webtest.Get(b, h, u); r.Status != http.StatusOK {
				b.Fatalf("%s: %d", u, r.Status)
			}
			all = append(all, time.Since(t0))
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	b.ReportMetric(ms(all[len(all)/2]), "p50-ms")
	b.ReportMetric(ms(all[len(all)*99/100]), "p99-ms")
	b.ReportMetric(float64(len(urls)), "steps")
}

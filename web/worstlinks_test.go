package web_test

import (
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"locklab/sim"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
)

// cli is a typed command as a do= action on node.
func cli(node, cmd string) string { return "cli." + node + "." + cmd }

// most is prefix followed by as many copies of action as one timeline
// holds (sim.MaxActions actions, sim.MaxStateLen bytes).
func most(prefix, action string) string {
	do, n := prefix, strings.Count(prefix, ",")+1
	for ; n < sim.MaxActions && len(do)+1+len(action) <= sim.MaxStateLen; n++ {
		do += "," + action
	}
	return do
}

// worstLinks are the links the security test (2026-12-07) and its
// extrapolations built to make one request hold or send the most: values
// as long as a server may hold, read back as often as a timeline allows,
// multiplied by MGET and COPY, lists read whole, the storage's record
// and the lock key itself holding them, and the longest wait. Each is a
// lesson timeline (lesson ttl, no TTL).
var worstLinks = map[string]string{
	"setrange-600MB": cli("redis", "SETRANGE k 600000000 x") + "," + cli("redis", "GET k"),
	"setrange-empty": cli("redis", `SETRANGE k 600000000 ""`) + "," + cli("redis", "GET k"),
	"setrange-get":   cli("redis", "SETRANGE k 10000000 x") + "," + cli("redis", "GET k"),
	"1MB-read":       most(cli("redis", "SETRANGE k 1048575 x"), cli("redis", "GET k")),
	"mget-15x1MB":    most(cli("redis", "SETRANGE k 1048575 x"), cli("redis", "MGET k k k k k k k k k k k k k k k")),
	"copy-fill":      most(cli("redis", "SETRANGE k 1048575 x"), cli("redis", "COPY k k2 REPLACE")),
	"append":         most(cli("redis", "SET k x"), cli("redis", "APPEND k "+strings.Repeat("y", 400))),
	"rpush-lrange": most(cli("redis", "RPUSH l "+strings.TrimSpace(strings.Repeat(strings.Repeat("a", 33)+" ", 14))),
		cli("redis", "LRANGE l 0 -1")),
	"lock-key-1MB": "a.acquire," + cli("redis", "SETRANGE lock:order:42 1048575 x") + ",a.release,b.acquire," +
		cli("redis", "SETRANGE lock:order:42 1048575 x") + ",wait.60m",
	"record-1MB": "a.acquire,a.write," + cli("storage", "SETRANGE data:order:42 1048575 x") + ",a.release,b.acquire,b.write",
	"record-1MB-read": most("a.acquire,a.write,"+cli("storage", "SETRANGE data:order:42 1048575 x")+",a.release",
		cli("storage", "GET data:order:42")),
	"quoted-512": most(cli("redis", "SETRANGE k 511 x"), cli("redis", "GET k")),
	"wait-60m":   "a.acquire,a.crash,b.acquire,wait.60m",
}

// renderings are every way a timeline is drawn, for a lesson link's query.
var renderings = map[string]func(q string) string{
	"page":     func(q string) string { return "/en/lessons/ttl?" + q },
	"fragment": func(q string) string { return "/en/lessons/ttl?" + q }, // with HX-Request
	"embed":    func(q string) string { return "/en/embed/lessons/ttl?" + q },
	"svg":      func(q string) string { return "/en/lessons/ttl/timeline.svg?" + q },
	"json":     func(q string) string { return "/en/lessons/ttl/timeline.json?" + q },
	"png":      func(q string) string { return "/en/lessons/ttl/timeline.png?" + q },
	"ja-page":  func(q string) string { return "/ja/lessons/ttl?" + q },
}

// bigWrite is a storage script as large as the checker admits that grows
// the record's list by as much as one script can: about 300 strings of
// about a kilobyte each, on every write.
var bigWrite = func() string {
	src := "local y = '" + strings.Repeat("z", 1000) + "' .. ARGV[1]\nredis.call('RPUSH', KEYS[1]"
	for len(src) < 2000 {
		src += ", y"
	}
	return src + ")\nreturn 1"
}()

// worstDesigns are design pages (a grade: the explorer) and design runs
// whose storage grows by bigWrite on every write.
var worstDesigns = map[string]string{
	"grade":     "/en/lab/design?write=" + url.QueryEscape(bigWrite),
	"run":       "/en/lab/design/run?clients=2&write=" + url.QueryEscape(bigWrite) + "&do=" + url.QueryEscape(most("a.acquire", "a.write")),
	"run-embed": "/en/embed/lab/design/run?clients=2&write=" + url.QueryEscape(bigWrite) + "&do=" + url.QueryEscape(most("a.acquire", "a.write")),
	"run-png":   "/en/lab/design/run.png?clients=2&write=" + url.QueryEscape(bigWrite) + "&do=" + url.QueryEscape(most("a.acquire", "a.write")),
}

// Bounds one request of a worst link must keep (any rendering).
const (
	maxResponse  = 4 << 20  // bytes sent
	maxAllocated = 96 << 20 // bytes allocated while answering (runtime.MemStats.TotalAlloc)
)

// TestWorstLinks sends every worst link to every rendering and holds each
// answer to the bounds: what it sends, what answering it allocated, and a
// status that is not a 5xx. (How long each takes, and the process's peak
// memory under many at once, are measured by testdata/attack, not here:
// a unit test does not time.)
func TestWorstLinks(t *testing.T) {
	h := sitetest.Default(t)
	for name, at := range worstDesigns {
		held(t, h, "design "+name, at, nil)
	}
	for name, do := range worstLinks {
		q := "do=" + url.QueryEscape(do) + "&opt=ttl.off"
		// the canonical form of the link, which every rendering is asked for
		if loc := webtest.Get(t, h, renderings["page"](q)).Header.Get("Location"); loc != "" {
			q = loc[strings.Index(loc, "?")+1:]
		}
		for kind, at := range renderings {
			var headers []string
			if kind == "fragment" {
				headers = []string{"HX-Request", "true"}
			}
			held(t, h, name+" "+kind, at(q), headers)
		}
	}
}

// held gets u and holds the answer to the bounds: no 5xx, at most
// maxResponse bytes sent and maxAllocated allocated while answering.
func held(t *testing.T, h http.Handler, name, u string, headers []string) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := webtest.Get(t, h, u, headers...)
	if loc := r.Header.Get("Location"); r.Status == http.StatusSeeOther && loc != "" {
		r = webtest.Get(t, h, loc, headers...) // the canonical address
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%-24s %d %9d bytes, %6.1f MB allocated", name, r.Status, len(r.Body), float64(alloc)/(1<<20))
	if r.Status >= 500 {
		t.Errorf("%s: %d", name, r.Status)
	}
	if len(r.Body) > maxResponse {
		t.Errorf("%s: %d bytes sent, bound %d", name, len(r.Body), maxResponse)
	}
	if alloc > maxAllocated {
		t.Errorf("%s: %d MB allocated, bound %d", name, alloc>>20, maxAllocated>>20)
	}
}

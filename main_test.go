package main

import (
	"bufio"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/redistest"
	"locklab/static"
	"locklab/web"
	"locklab/web/site"
)

// TestMain lets the test binary act as the server when asked to, so the
// shutdown test can run the real main in a child process.
func TestMain(m *testing.M) {
	if os.Getenv("LOCKLAB_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// TestGracefulShutdown starts the server on a free port, checks it
// answers (a lesson step too), sends SIGTERM and expects a clean exit
// with status 0.
func TestGracefulShutdown(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "LOCKLAB_RUN_MAIN=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no start-up line: %v", err)
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("start-up line has no URL: %q", line)
	}
	url := strings.Fields(line[i:])[0]
	resp, err := http.Get(url + "healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()
	// A lesson step leaves pooled embedded servers behind: shutdown
	// closes them.
	resp, err = http.Get(url + "en/lessons/fencing?do=a.acquire")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("lesson step: %v %v", resp, err)
	}
	resp.Body.Close()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v, want status 0", err)
		}
	case <-time.After(15 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("did not exit within 15 s of SIGTERM")
	}
}

// TestPublicURLFlag: a bad -public-url stops start-up with a message
// instead of printing QR codes no phone can open.
func TestPublicURLFlag(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"", true},
		{"http://192.168.1.20:8080", true},
		{"https://locks.example.org/", true},
		{"192.168.1.20:8080", false},
		{"ftp://example.org", false},
		{"http://", false},
		{"http://example.org/?a=1", false},
	} {
		if err := checkPublicURL(tc.in); (err == nil) != tc.ok {
			t.Errorf("checkPublicURL(%q) = %v, want ok=%v", tc.in, err, tc.ok)
		}
	}
}

// TestLiveBackend walks every step of every lesson with the live backend
// on a real redis-server and with the default embedded miniredis: the
// timeline JSON must be the same, byte for byte. Then the server goes
// away, and a page must say so (503, in the page's language).
func TestLiveBackend(t *testing.T) {
	srv := redistest.Start(t, 1)[0]
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	assets, err := site.NewAssets(static.FS)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	replay, err := replayFunc("redis://" + srv.Addr + "/3")
	if err != nil {
		t.Fatal(err)
	}
	live := httptest.NewServer(web.New(course, assets, replay, log, web.Config{Config: site.Config{Version: "t", NoCache: true}}).Handler())
	defer live.Close()
	embedded := httptest.NewServer(web.New(course, assets, sim.ReplayContext, log, web.Config{Config: site.Config{Version: "t"}}).Handler())
	defer embedded.Close()

	before := commandsProcessed(t, srv)
	steps := 0
	for _, l := range course.List("en") {
		for _, st := range l.Steps {
			q := url.Values{}
			if st.Do != "" {
				q.Set("do", st.Do)
			}
			if st.Opt != "" {
				q.Set("opt", st.Opt)
			}
			path := "/en/lessons/" + l.Slug + "/timeline.json?" + q.Encode()
			got, want := get(t, live.URL+path, 200), get(t, embedded.URL+path, 200)
			if got != want && !(strings.Contains(st.Opt, "release.delex") && strings.Contains(got, "unknown command 'DELEX'")) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Fatalf("%s: the live backend's timeline differs from the embedded one at byte %d:\n live: %.160s\n embedded: %.160s",
					path, i, got[max(0, i-60):], want[max(0, i-60):])
			}
			steps++
		}
	}
	if after := commandsProcessed(t, srv); after <= before {
		t.Fatalf("the live Redis processed no command (%d, then %d)", before, after)
	}
	if keys, err := srv.Send("DBSIZE"); err != nil || keys != "0" {
		t.Fatalf("keys left on the live Redis after the requests: %s %v", keys, err)
	}
	t.Logf("%d lesson steps replayed on the live backend, same timelines as on miniredis", steps)

	srv.Stop()
	body := get(t, live.URL+"/ja/lessons/fencing/timeline.json?do=a.acquire", http.StatusServiceUnavailable)
	if !strings.Contains(body, `"redis-unreachable"`) || !strings.Contains(body, "Redis がいま応答していません") {
		t.Fatalf("unreachable Redis: %s", body)
	}
	page := get(t, live.URL+"/en/lessons/fencing?do=a.acquire", http.StatusServiceUnavailable)
	if !strings.Contains(page, "that Redis is not answering right now") {
		t.Fatal("the 503 page does not say Redis is unreachable")
	}
	// Lessons with several nodes stay on miniredis, so they still work.
	get(t, live.URL+"/en/lessons/redlock?do=a.acquire", 200)
}

func get(t *testing.T, u string, status int) string {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("GET %s: %d, want %d: %.300s", u, resp.StatusCode, status, b)
	}
	return string(b)
}

func commandsProcessed(t *testing.T, s *redistest.Server) int {
	t.Helper()
	info, err := s.Send("INFO", "stats")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "total_commands_processed:"); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("total_commands_processed: %q", v)
			}
			return n
		}
	}
	t.Fatal("no total_commands_processed in INFO")
	return 0
}

// TestLiveBackendURL: a malformed -redis value stops the start-up with a
// message naming the expected form, and never prints a password.
func TestLiveBackendURL(t *testing.T) {
	for _, bad := range []string{"localhost:6379", "http://x:6379/0", "redis://:secret@host:6379/notadb"} {
		_, err := replayFunc(bad)
		if err == nil {
			t.Fatalf("%q accepted", bad)
		}
		if !strings.Contains(err.Error(), "redis://host:port/db") || strings.Contains(err.Error(), "secret") {
			t.Fatalf("%q: unclear or leaking error: %v", bad, err)
		}
	}
	if _, err := replayFunc("redis://127.0.0.1:6379/0"); err != nil {
		t.Fatalf("a good URL refused: %v", err)
	}
}

// TestShutdownClosesClassStreams: a live class's event streams never end
// by themselves, so SIGTERM must close them (main registers the class
// service's Close on shutdown); otherwise Shutdown would wait its full
// timeout and exit with an error.
func TestShutdownClosesClassStreams(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "LOCKLAB_RUN_MAIN=1", "LOCKLAB_CLASS_REDIS=")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("no start-up line: %v", err)
	}
	base := strings.TrimSuffix(strings.Fields(line[strings.Index(line, "http://"):])[0], "/")
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest(http.MethodPost, base+"/en/class", strings.NewReader("lesson=fencing"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", base)
	res, err := noFollow.Do(req)
	if err != nil || res.StatusCode != http.StatusSeeOther {
		t.Fatalf("start a class: %v %v", res, err)
	}
	res.Body.Close()
	classPath := strings.TrimSuffix(res.Header.Get("Location"), "/teach")
	stream, err := http.Get(base + classPath + "/events")
	if err != nil || stream.StatusCode != http.StatusOK {
		t.Fatalf("event stream: %v %v", stream, err)
	}
	ended := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, stream.Body); close(ended) }()
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM with a stream open: %v, want status 0", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("did not exit within 30 s of SIGTERM")
	}
	<-ended
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("shutdown took %v: the stream held it up", d)
	}
}

package main

import (
	"bufio"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
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
// answers, sends SIGTERM and expects a clean exit with status 0.
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

// Package redistest starts real redis-server processes for tests: each on
// a free loopback port, with no persistence, stopped when the test ends.
// Without redis-server a test is skipped with a message, except under CI
// (CI=true), where a missing server is a failure: CI installs it.
//
// It imports nothing of Lock Lab (TestImportDirection): any package's
// tests may start a server with it.
package redistest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Server is one redis-server process.
type Server struct {
	Addr string // 127.0.0.1:port
	bin  string
	port int
	cmd  *exec.Cmd
	done chan struct{}
}

// Binary finds redis-server, or skips t (fails it under CI).
func Binary(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("redis-server"); err == nil {
		return p
	}
	for _, p := range []string{"/usr/bin/redis-server", "/usr/local/bin/redis-server"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("redis-server not found: CI must install it (.ci/run installs Debian's redis-server)")
	}
	t.Skip("redis-server not found: install it (apt-get install redis-server) to run the tests against a real Redis (lesson parity, the live class on two instances)")
	return ""
}

// CLI finds redis-cli (Debian's redis-tools, which redis-server brings),
// or skips t (fails it under CI).
func CLI(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("redis-cli"); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("redis-cli not found: CI must install it (.ci/run installs Debian's redis-server, which brings redis-tools)")
	}
	t.Skip("redis-cli not found: install it (apt-get install redis-tools) to compare what the pages show with what redis-cli prints")
	return ""
}

// Start starts n servers and stops them when t ends.
func Start(t testing.TB, n int) []*Server {
	t.Helper()
	bin := Binary(t)
	out := make([]*Server, 0, n)
	for range n {
		s := &Server{bin: bin}
		if err := s.start(0); err != nil {
			for _, o := range out {
				o.Stop()
			}
			t.Fatalf("start redis-server: %v", err)
		}
		out = append(out, s)
	}
	t.Cleanup(func() {
		for _, s := range out {
			s.Stop()
		}
	})
	return out
}

// Version is the server's version, as INFO says it.
func (s *Server) Version() (string, error) {
	reply, err := s.Send("INFO", "server")
	if err != nil {
		return "", err
	}
	for _, l := range strings.Split(reply, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "redis_version:"); ok {
			return v, nil
		}
	}
	return "", fmt.Errorf("no redis_version in INFO")
}

// start runs redis-server on port (0: a free one) and waits until it
// answers PING.
func (s *Server) start(port int) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		p := port
		if p == 0 {
			if p, err = freePort(); err != nil {
				return err
			}
		}
		if err = s.run(p); err == nil {
			return nil
		}
		if port != 0 {
			time.Sleep(50 * time.Millisecond) // the old process may still hold it
		}
	}
	return err
}

func (s *Server) run(port int) error {
	cmd := exec.Command(s.bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--protected-mode", "no", "--daemonize", "no",
		"--dir", os.TempDir(), "--loglevel", "warning", "--databases", "16")
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd, s.port, s.Addr, s.done = cmd, port, "127.0.0.1:"+strconv.Itoa(port), make(chan struct{})
	go func(done chan struct{}) { _ = cmd.Wait(); close(done) }(s.done)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("redis-server on port %d exited at start", port)
		default:
		}
		if r, err := s.Send("PING"); err == nil && r == "PONG" {
			return nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.Stop()
	return fmt.Errorf("redis-server on port %d did not answer PING", port)
}

// Restart kills the server and starts it again on the same port: with no
// persistence it comes back empty, as a crashed node would.
func (s *Server) Restart() error {
	s.Stop()
	return s.start(s.port)
}

// Stop kills the server and waits for it to exit.
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

// Send runs one command over a fresh connection and returns the reply as
// text (a simple or bulk string, or an integer); an error reply is an error.
func (s *Server) Send(args ...string) (string, error) {
	c, err := net.DialTimeout("tcp", s.Addr, time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := c.Write([]byte(b.String())); err != nil {
		return "", err
	}
	r := bufio.NewReader(c)
	line, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	switch {
	case strings.HasPrefix(line, "+"), strings.HasPrefix(line, ":"):
		return line[1:], nil
	case strings.HasPrefix(line, "-"):
		return "", fmt.Errorf("%s", line[1:])
	case strings.HasPrefix(line, "$"):
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return "", err
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return "", err
		}
		return string(buf[:n]), nil
	}
	return line, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

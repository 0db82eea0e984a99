package library_test

// redispy_test.go runs redis-py's own Lock for the differential test:
// Debian's python3-redis (4.3.4), driven line by line from the test
// ("take", then the operation) so the test can change the server and
// start watching between the two.

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	goredislib "github.com/redis/go-redis/v9"

	"locklab/sim/library"
)

// pyLock is the Python side: one Lock, its token fixed, each line read
// from the test answered with one line.
const pyLock = `
import sys
import redis
from redis.exceptions import LockError, LockNotOwnedError
host, port, timeout, key, value, ttl_ms = sys.argv[1:7]
r = redis.Redis(host=host, port=int(port))
lock = r.lock(key, timeout=None if timeout == "none" else int(ttl_ms) / 1000)
for line in sys.stdin:
    op = line.strip()
    try:
        if op in ("take", "acquire"):
            ok = lock.acquire(blocking=False, token=value)
            print("ok" if ok else "taken", flush=True)
        elif op == "extend":
            lock.extend(int(ttl_ms) / 1000)
            print("ok", flush=True)
        elif op == "release":
            lock.release()
            print("ok", flush=True)
    except LockNotOwnedError:
        print("notheld", flush=True)
    except LockError:
        print("refused", flush=True)
`

// python finds a python3 that can import redis, or skips t (fails it
// under CI, which installs python3-redis).
func python(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(p, "-c", "import redis").Run() == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no python3 with the redis package: CI must install python3-redis (.ci/run installs it)")
	}
	t.Skip("no python3 with the redis package: install python3-redis (apt-get install python3-redis) to hold the redis-py model to redis-py")
	return ""
}

type pyReal struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Scanner
}

func newPy(t *testing.T, addr string, lib *library.Library) func(*goredislib.Client) real {
	bin := python(t)
	return func(*goredislib.Client) real {
		host, port, _ := strings.Cut(addr, ":")
		timeout := "none"
		if !lib.NoTTL {
			timeout = "ttl"
		}
		cmd := exec.Command(bin, "-c", pyLock, host, port, timeout, key, value, "8000")
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = in.Close(); _ = cmd.Wait() })
		return &pyReal{t: t, in: in, out: bufio.NewScanner(out)}
	}
}

func (p *pyReal) ask(line string) string {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
	if !p.out.Scan() {
		p.t.Fatalf("redis-py said nothing to %q: %v", line, p.out.Err())
	}
	return p.out.Text()
}

func (p *pyReal) take(context.Context) error {
	if got := p.ask("take"); got != "ok" {
		return errString(got)
	}
	return nil
}

func (p *pyReal) do(_ context.Context, op library.Op) library.Outcome {
	return library.Outcome(p.ask(string(op)))
}

type errString string

func (e errString) Error() string { return string(e) }

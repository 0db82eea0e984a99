package library_test

// process_test.go runs the libraries that are not Go for the
// differential test, each in its own process driven line by line from
// the test ("take", then the operation) so the test can change the
// server and start watching between the two: redis-py's own Lock
// (Debian's python3-redis, 4.3.4) and node-redlock 4.2.0 (npm, pinned in
// testdata/node, installed there by .ci/run with npm ci).

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

// procReal is a library run by another process (Python, Node), one
// line asked, one line answered.
type procReal struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Scanner
}

// newProc starts argv for each case's lock.
func newProc(t *testing.T, argv ...string) real {
	cmd := exec.Command(argv[0], argv[1:]...)
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
	return &procReal{t: t, in: in, out: bufio.NewScanner(out)}
}

func newPy(t *testing.T, addr string, lib *library.Library) func(*goredislib.Client) real {
	bin := python(t)
	return func(*goredislib.Client) real {
		host, port, _ := strings.Cut(addr, ":")
		timeout := "none"
		if !lib.NoTTL {
			timeout = "ttl"
		}
		return newProc(t, bin, "-c", pyLock, host, port, timeout, key, value, "8000")
	}
}

func (p *procReal) ask(line string) string {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatal(err)
	}
	if !p.out.Scan() {
		p.t.Fatalf("the library's process said nothing to %q: %v", line, p.out.Err())
	}
	return p.out.Text()
}

func (p *procReal) take(context.Context) error {
	if got := p.ask("take"); got != "ok" {
		return errString(got)
	}
	return nil
}

func (p *procReal) do(_ context.Context, op library.Op) library.Outcome {
	return library.Outcome(p.ask(string(op)))
}

type errString string

func (e errString) Error() string { return string(e) }

// node finds node and the pinned node-redlock (testdata/node), or skips
// t (fails it under CI, which installs them).
func node(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("node")
	_, modErr := os.Stat("testdata/node/node_modules/redlock/package.json")
	if err == nil && modErr == nil {
		return bin
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("node or node-redlock missing: CI installs them (.ci/run: npm ci in sim/library/testdata/node)")
	}
	t.Skip("node or node-redlock missing: run npm ci --ignore-scripts in sim/library/testdata/node to hold the node-redlock model to node-redlock")
	return ""
}

// newNode drives node-redlock on the nodes at addrs (host:port,
// comma-separated).
func newNode(t *testing.T, addrs string) func(*goredislib.Client) real {
	bin := node(t)
	return func(*goredislib.Client) real {
		return newProc(t, bin, "testdata/node/redlock-driver.js", addrs, key, value, "8000")
	}
}

// pyRedisLock drives python-redis-lock (its redis_lock module in the
// directory given, on Debian's redis-py) as pyLock drives redis-py's Lock.
const pyRedisLock = `
import logging
import sys
sys.path.insert(0, sys.argv[6])
import redis
import redis_lock
host, port, key, value, ttl_ms = sys.argv[1:6]
r = redis.Redis(host=host, port=int(port))
logging.disable(logging.WARNING)  # "Failed to acquire": the test reads the outcome
lock = redis_lock.Lock(r, key[len("lock:"):], expire=int(ttl_ms) // 1000, id=value)
for line in sys.stdin:
    op = line.strip()
    try:
        if op in ("take", "acquire"):
            print("ok" if lock.acquire(blocking=False) else "taken", flush=True)
        elif op == "extend":
            lock.extend()
            print("ok", flush=True)
        elif op == "release":
            lock.release()
            print("ok", flush=True)
    except redis_lock.NotExpirable:
        print("noexpiry", flush=True)
    except redis_lock.NotAcquired:
        print("notheld", flush=True)
`

func newPyRedisLock(t *testing.T, addr, module string) func(*goredislib.Client) real {
	bin := python(t)
	return func(*goredislib.Client) real {
		host, port, _ := strings.Cut(addr, ":")
		return newProc(t, bin, "-c", pyRedisLock, host, port, key, value, "8000", module)
	}
}

package rediscli_test

// rediscli_test.go holds what the pages show of Redis to redis-cli itself:
// every command the command line sends, in several shapes, is typed into
// redis-cli against redis-server and sent by Lock Lab to the same server,
// and the reply Lock Lab shows must be what redis-cli printed, byte for
// byte (its type included: OK bare, "OK" quoted).

import (
	"context"
	"net"
	"os/exec"
	"strings"
	"testing"

	"locklab/sim"
	"locklab/sim/rediscli"
	"locklab/sim/redistest"
)

// cliCorpus is each command the command line sends, in the shapes that
// answer differently: a hit and a miss, a wrong type, a missing argument,
// quoting, and scripts that answer each reply type.
var cliCorpus = []string{
	"PING", "PING hello", "ECHO hi", `ECHO "two words"`,
	"GET k", "SET k v", "GET k", `SET k "a b"`, "GET k", `SET k "quote\"and\\slash"`, "GET k", `SET k "\x00\x7f\xff"`, "GET k",
	"SET k v NX", "SET k w XX", "SET k v GET", "SET k", "SETNX k v", "SETNX fresh v", "GETSET k x", "GETDEL k", "GETDEL k",
	"MSET a 1 b 2", "MGET a b nokey", "MSETNX a 1 c 3", "MSETNX c 3 d 4", "APPEND a xyz", "STRLEN a", "GETRANGE a 0 1", "SETRANGE a 1 Z", "GET a",
	"INCR n", "INCRBY n 41", "DECR n", "DECRBY n 2", "INCR a",
	"DEL a", "DEL a", "DEL b c d", "UNLINK n", "EXISTS k fresh nokey", "TYPE fresh", "TYPE nokey",
	"TTL fresh", "PTTL fresh", "PTTL nokey", "EXPIRE fresh 100000", "PERSIST fresh", "PERSIST fresh", "PEXPIRE nokey 5",
	"RENAME fresh moved", "RENAME fresh moved", "RENAMENX moved k", "COPY moved copied", "GET copied",
	"RPUSH l a b", "LPUSH l z", "LRANGE l 0 -1", "LRANGE nolist 0 -1", "LLEN l", "LINDEX l 1", "LINDEX l 9", "LPOP l", "RPOP l 2", "GET l",
	"DELEX k IFEQ x",
	`EVAL "return redis.call('SET', KEYS[1], ARGV[1])" 1 s v`,
	`EVAL "return redis.call('GET', KEYS[1])" 1 s`,
	`EVAL "return redis.call('GET', KEYS[1])" 1 nokey`,
	`EVAL "return redis.call('INCR', KEYS[1])" 1 m`,
	`EVAL "return redis.call('DEL', KEYS[1])" 1 s`,
	`EVAL "return redis.pcall('INCR', KEYS[1])" 1 k`,
	`EVAL "return redis.call('DELEX', KEYS[1], 'IFEQ', ARGV[1])" 1 m 1`,
	`EVAL "local n = tonumber(redis.call('GET', KEYS[1])) return n * 2" 1 m`,
	`EVAL "return ARGV[1] .. '!'" 0 a`,
}

// TestShownAsRedisCLI: for each line, redis-cli's own output and the reply
// Lock Lab shows, from the same server (two databases, the same history).
func TestShownAsRedisCLI(t *testing.T) {
	t.Parallel()
	cli := redistest.CLI(t)
	srv := redistest.Start(t, 1)[0]
	host, port, _ := strings.Cut(srv.Addr, ":")
	o := sim.ClientOptions()
	o.Addr, o.DB = srv.Addr, 1
	conn := rediscli.NewConn(o, (&netDialer{}).dial)
	t.Cleanup(func() { conn.Close() })
	for _, line := range cliCorpus {
		act, code := sim.CommandAction(sim.NodeRedis, line)
		if code != "" {
			t.Errorf("%s: the command line does not send it (%s)", line, code)
			continue
		}
		cmd := exec.Command(cli, "--no-raw", "-h", host, "-p", port, "-n", "0")
		cmd.Stdin = strings.NewReader(line + "\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: redis-cli: %v", line, err)
		}
		args := make([]any, len(act.Cmd))
		for i, a := range act.Cmd {
			args[i] = a
		}
		reply, _, err := conn.Do(context.Background(), args...)
		if err != nil && reply.Kind != rediscli.ReplyError && reply.Kind != rediscli.ReplyNil {
			t.Fatalf("%s: %v", line, err)
		}
		if got, want := reply.String(), strings.TrimSuffix(string(out), "\n"); got != want {
			t.Errorf("%s\n  redis-cli prints %q\n  Lock Lab shows  %q", line, want, got)
		}
	}
}

type netDialer struct{}

func (*netDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

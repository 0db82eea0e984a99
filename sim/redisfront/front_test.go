package redisfront_test

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"locklab/sim/redisfront"
	"locklab/sim/redistest"
)

// reply is a command's answer as text, an error as its message.
func reply(c *redis.Client, args ...any) string {
	v, err := c.Do(context.Background(), args...).Result()
	if err != nil {
		return "(error) " + err.Error()
	}
	switch v := v.(type) {
	case string:
		return v
	case int64:
		return "(integer) " + itoa(v)
	}
	return "?"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func embedded(t *testing.T) (*redis.Client, *miniredis.Miniredis) {
	t.Helper()
	m := miniredis.NewMiniRedis()
	t.Cleanup(m.Close)
	if _, err := redisfront.Install(m); err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(&redis.Options{Dialer: func(context.Context, string, string) (net.Conn, error) { return m.Dial() },
		Protocol: 2, DisableIdentity: true, MaxRetries: -1, PoolSize: 1})
	t.Cleanup(func() { _ = c.Close() })
	return c, m
}

// valueCases are commands around MaxValue, each run in order on a fresh
// server: what proto-max-bulk-len 1mb makes Redis answer. The string
// stays a few bytes short of MaxMemory, which the front also holds
// (TestMemoryBound), so that only the value's bound answers.
var valueCases = [][]any{
	{"SETRANGE", "k", "600000000", "x"},            // the security test's link: refused, nothing allocated
	{"SETRANGE", "k", "1048576", "x"},              // one byte past
	{"SETRANGE", "k", "-1", "x"},                   // Redis's own check comes first
	{"SETRANGE", "k", "99999999999999999999", "x"}, // not an integer
	{"SETRANGE", "k", "2000000", ""},               // nothing to set: 0, no check
	{"RPUSH", "l", "a"},
	{"SETRANGE", "l", "2000000", "x"},   // WRONGTYPE first
	{"SETRANGE", "k", "1048560", "x"},   // allowed: 1048561 bytes
	{"APPEND", "k", "0123456789abcdef"}, // 1048577: one past
	{"SETRANGE", "k", "600000000", ""},  // the key's length, nothing stored
	{"GETRANGE", "k", "1048550", "-1"},
	{"STRLEN", "k"},
}

// valueLen is the string valueCases leave in k.
const valueLen = 1048561

// TestValueBoundAsRedis: SETRANGE and APPEND answer what a redis-server
// with proto-max-bulk-len 1mb answers, and the embedded server never
// holds a longer string.
func TestValueBoundAsRedis(t *testing.T) {
	c, m := embedded(t)
	var got []string
	for _, cmd := range valueCases {
		got = append(got, reply(c, cmd...))
	}
	if v, _ := m.Get("k"); len(v) != valueLen {
		t.Errorf("the server holds a string of %d bytes, want %d", len(v), valueLen)
	}
	if !strings.Contains(got[8], redisfront.ErrTooLong) {
		t.Errorf("APPEND one byte past MaxValue = %q, want %q", got[8], redisfront.ErrTooLong)
	}
	if !strings.Contains(got[0], redisfront.ErrTooLong) {
		t.Errorf("SETRANGE k 600000000 x = %q, want %q", got[0], redisfront.ErrTooLong)
	}

	srv := redistest.Start(t, 1)[0]
	r := redis.NewClient(&redis.Options{Addr: srv.Addr, Protocol: 2, DisableIdentity: true})
	t.Cleanup(func() { _ = r.Close() })
	if s := reply(r, "CONFIG", "SET", "proto-max-bulk-len", "1mb"); s != "OK" {
		t.Fatalf("CONFIG SET proto-max-bulk-len: %s", s)
	}
	for i, cmd := range valueCases {
		want := reply(r, cmd...)
		if got[i] != want {
			t.Errorf("%v: embedded %q, redis-server %q", cmd, got[i], want)
		}
	}
}

// TestMemoryBound: past MaxMemory, commands Redis flags denyoom answer
// Redis's OOM error; reads and deletes still work and deleting frees
// room; a script is checked before its first write only, against the
// memory when it began.
func TestMemoryBound(t *testing.T) {
	c, m := embedded(t)
	big := strings.Repeat("v", 256)
	n := 0
	for ; n < 10_000; n++ {
		if s := reply(c, "SET", "key"+itoa(int64(n)), big); s != "OK" {
			if s != "(error) "+redisfront.ErrOOM {
				t.Fatalf("SET #%d = %q, want OK or the OOM error", n, s)
			}
			break
		}
	}
	if n < redisfront.MaxMemory/300 || n > redisfront.MaxMemory/256+1 {
		t.Errorf("%d SETs of 256 bytes before the OOM error, want about %d", n, redisfront.MaxMemory/262)
	}
	for _, cmd := range [][]any{{"APPEND", "key0", "x"}, {"INCR", "n"}, {"RPUSH", "l", "x"}, {"COPY", "key0", "key-copy"}, {"SETRANGE", "key0", "0", "x"}} {
		if s := reply(c, cmd...); s != "(error) "+redisfront.ErrOOM {
			t.Errorf("%v past maxmemory = %q, want the OOM error", cmd, s)
		}
	}
	if s := reply(c, "SET", "k"); !strings.Contains(s, "wrong number of arguments") {
		t.Errorf("SET k past maxmemory = %q: the arity error comes first, as on Redis", s)
	}
	// A script that began over the limit fails at its first write.
	if s := reply(c, "EVAL", "redis.call('GET', KEYS[1]) return redis.call('SET', KEYS[1], 'x')", "1", "key0"); !strings.Contains(s, redisfront.ErrOOM) {
		t.Errorf("a script's first write past maxmemory = %q, want the OOM error", s)
	}
	for _, cmd := range [][]any{{"GET", "key1"}, {"DEL", "key1"}, {"EXPIRE", "key2", "100"}} {
		if s := reply(c, cmd...); strings.HasPrefix(s, "(error)") {
			t.Errorf("%v past maxmemory = %q, want it answered", cmd, s)
		}
	}
	for i := 2; i < 40; i++ {
		m.Del("key" + itoa(int64(i)))
	}
	if s := reply(c, "SET", "again", "x"); s != "OK" {
		t.Errorf("SET after deleting keys = %q, want OK (the memory was measured again)", s)
	}
}

// TestScriptBeganUnderLimit: a script that began under the limit runs to
// its end (Redis never cuts a script in half), and the next command is
// refused.
func TestScriptBeganUnderLimit(t *testing.T) {
	c, _ := embedded(t)
	big := strings.Repeat("w", 4000)
	for i := 0; i < 261; i++ { // 261 × 4,005 bytes: just under MaxMemory
		if s := reply(c, "SET", "key"+itoa(int64(i)), big); s != "OK" {
			t.Fatalf("SET #%d = %q", i, s)
		}
	}
	src := "redis.call('SET', KEYS[1], ARGV[1]) redis.call('SET', KEYS[2], ARGV[1]) return redis.call('SET', KEYS[3], ARGV[1])"
	if s := reply(c, "EVAL", src, "3", "a", "b", "c", big); s != "OK" {
		t.Errorf("a script begun under maxmemory = %q, want OK: it runs to its end", s)
	}
	if s := reply(c, "SET", "d", "x"); s != "(error) "+redisfront.ErrOOM {
		t.Errorf("the next SET = %q, want the OOM error", s)
	}
}

// TestExpireErrorsAsRedis: an expiry of zero or less gets Redis 7's words
// (redis-server 7.0.15 answered each of these; miniredis says "ERR
// invalid expire time in set"), inside a script too; a GETEX of a missing
// key is nil before its expiry is read, and a non-integer is left to
// miniredis, which words it as Redis does.
func TestExpireErrorsAsRedis(t *testing.T) {
	send := frontClient(t)
	for _, c := range []struct {
		args []any
		want string
	}{
		{[]any{"GETEX", "k", "PX", "0"}, "redis: nil"},
		{[]any{"SET", "k", "v", "EX", "0"}, "ERR invalid expire time in 'set' command"},
		{[]any{"SET", "k", "v", "PX", "-5"}, "ERR invalid expire time in 'set' command"},
		{[]any{"SET", "k", "v", "EXAT", "0"}, "ERR invalid expire time in 'set' command"},
		{[]any{"SET", "k", "v", "EX", "abc"}, "ERR value is not an integer or out of range"},
		{[]any{"SETEX", "k", "0", "v"}, "ERR invalid expire time in 'setex' command"},
		{[]any{"PSETEX", "k", "-1", "v"}, "ERR invalid expire time in 'psetex' command"},
		{[]any{"SET", "k", "v"}, "OK"},
		{[]any{"GETEX", "k", "EX", "-1"}, "ERR invalid expire time in 'getex' command"},
		{[]any{"EVAL", "return redis.call('SET', KEYS[1], 'v', 'PX', 0)", "1", "k"}, "ERR invalid expire time in 'set' command script: "},
	} {
		got := send(c.args...)
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%v: %q, want %q", c.args, got, c.want)
		}
	}
}

// TestExpireLTAsRedis: EXPIRE and PEXPIRE with LT set an expiry only
// when it is strictly earlier than the key's (Redis 7's expire.c: "when
// >= current_expire" answers 0); miniredis also set an equal one and
// answered 1. The differential test typed it at one virtual instant.
func TestExpireLTAsRedis(t *testing.T) {
	send := frontClient(t)
	for _, c := range []struct {
		args []any
		want string
	}{
		{[]any{"SET", "l", "0", "PX", "1000"}, "OK"},
		{[]any{"PEXPIRE", "l", "1000", "LT"}, "0"},
		{[]any{"PEXPIRE", "l", "1000", "lt"}, "0"},
		{[]any{"PEXPIRE", "l", "999", "LT"}, "1"},
		{[]any{"PTTL", "l"}, "999"},
		{[]any{"SET", "k", "v", "EX", "5"}, "OK"},
		{[]any{"EXPIRE", "k", "5", "LT"}, "0"},
		{[]any{"EXPIRE", "k", "6", "LT"}, "0"},
		{[]any{"EXPIRE", "k", "4", "LT"}, "1"},
		{[]any{"RPUSH", "q", "a"}, "1"},
		{[]any{"PEXPIRE", "q", "500"}, "1"},
		{[]any{"PEXPIRE", "q", "500", "LT"}, "0"},
	} {
		got := send(c.args...)
		if got != c.want {
			t.Errorf("%v: %q, want %q", c.args, got, c.want)
		}
	}
}

// TestGetrangeAsRedis: GETRANGE's indexes as Redis 7.0 reads them (the
// differential test found miniredis answering "-" where Redis answers
// ""); each row was typed into redis-server 7.0.15 too.
func TestGetrangeAsRedis(t *testing.T) {
	send := frontClient(t)
	for _, c := range []struct {
		args []any
		want string
	}{
		{[]any{"SET", "k", "-9223372036854775809"}, "OK"},
		{[]any{"GETRANGE", "k", "-2", "-9223372036854775808"}, ""},
		{[]any{"GETRANGE", "k", "-2", "-1"}, "09"},
		{[]any{"GETRANGE", "k", "-100", "2"}, "-92"},
		{[]any{"GETRANGE", "k", "0", "-100"}, "-"},
		{[]any{"GETRANGE", "k", "5", "2"}, ""},
		{[]any{"GETRANGE", "k", "18", "9223372036854775807"}, "09"},
		{[]any{"GETRANGE", "k", "-1", "-2"}, ""},
		{[]any{"GETRANGE", "none", "0", "-1"}, ""},
		{[]any{"SET", "e", ""}, "OK"},
		{[]any{"GETRANGE", "e", "0", "-1"}, ""},
		{[]any{"RPUSH", "q", "a"}, "1"},
		{[]any{"GETRANGE", "q", "0", "-1"}, "WRONGTYPE Operation against a key holding the wrong kind of value"},
	} {
		got := send(c.args...)
		if got != c.want {
			t.Errorf("%v: %q, want %q", c.args, got, c.want)
		}
	}
}

// frontClient is a client of a fresh miniredis behind a front, as a
// timeline's server is: each call sends one command and reads its reply
// as the tests compare it, the value or the error's words.
func frontClient(t *testing.T) func(args ...any) string {
	t.Helper()
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	if _, err := redisfront.Install(m); err != nil {
		t.Fatal(err)
	}
	rc := redis.NewClient(&redis.Options{Addr: m.Addr(), Protocol: 2, DisableIdentity: true, MaxRetries: -1})
	t.Cleanup(func() { _ = rc.Close() })
	return func(args ...any) string {
		v, err := rc.Do(context.Background(), args...).Result()
		if err != nil {
			return err.Error()
		}
		return fmt.Sprint(v)
	}
}

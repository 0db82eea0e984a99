// resp.go keeps the type of every reply as the server sent it. go-redis
// hands a simple string (+OK, which redis-cli prints bare) and a bulk
// string ("OK", which it quotes) back as the same Go string, and a script
// may answer either; so each connection's bytes are tapped on their way
// in, and the reply's RESP type marks (+ $ : - *) decide its Kind. The
// value still comes from go-redis (a real backend adjusts some values on
// their way out: a virtual PTTL, an error without its key prefix).

package rediscli

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"
)

// Conn is one client's connection to a node: a go-redis client with one
// connection whose incoming bytes are tapped, so that the timeline shows
// each reply with the type the server gave it.
type Conn struct {
	*redis.Client
	tap *tap
}

// Dialer opens the network connection under a Conn: an in-memory pipe
// into miniredis, or a TCP connection to a real server.
type Dialer func(ctx context.Context, network, addr string) (net.Conn, error)

// NewConn is a client with options o whose connections come from dial,
// tapped. Every backend makes its client connections here.
func NewConn(o *redis.Options, dial Dialer) *Conn {
	t := &tap{}
	o.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
		nc, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &tappedConn{Conn: nc, t: t}, nil
	}
	return &Conn{Client: redis.NewClient(o), tap: t}
}

// Do sends one command and returns its reply as a value with the type the
// server sent, go-redis's own value, and its error (redis.Nil for a nil).
func (c *Conn) Do(ctx context.Context, args ...any) (Reply, any, error) {
	c.tap.reset()
	val, err := c.Client.Do(ctx, args...).Result()
	shape, ok := c.tap.last()
	name := ""
	if len(args) > 0 {
		name, _ = args[0].(string) // the command's name, always a string
	}
	if err != nil && !IsReply(err) {
		return Reply{}, val, err
	}
	var r Reply
	if !ok {
		r = Of(name, val, err)
	} else {
		r = shaped(shape, val, err)
	}
	if r.Kind == ReplyError && strings.HasPrefix(r.Str, miniredisUnknown) {
		// miniredis knew no such command, but words it its own way (and
		// the embedded server's front sees the name upper case): the
		// words Redis answers, from what was sent.
		strs := make([]string, len(args))
		for i, a := range args {
			strs[i] = fmt.Sprint(a)
		}
		r.Str = UnknownCommand(strs)
	}
	return r, val, err
}

// tap holds the bytes a connection read since the last command was sent.
type tap struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tap) reset() {
	t.mu.Lock()
	t.buf = t.buf[:0]
	t.mu.Unlock()
}

// last is the type shape of the last complete reply read since reset.
func (t *tap) last() (respShape, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out respShape
	ok := false
	for b := t.buf; len(b) > 0; {
		s, n := parseShape(b)
		if n <= 0 {
			break
		}
		out, ok, b = s, true, b[n:]
	}
	return out, ok
}

type tappedConn struct {
	net.Conn
	t *tap
}

func (c *tappedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.t.mu.Lock()
		c.t.buf = append(c.t.buf, p[:n]...)
		c.t.mu.Unlock()
	}
	return n, err
}

// respShape is a reply's RESP type, and its elements' for an array.
type respShape struct {
	mark  byte // '+', '-', ':', '$', '*'
	null  bool // $-1 or *-1
	elems []respShape
}

// parseShape reads one RESP2 reply at the start of b and returns its
// shape and its length in bytes (0 if b holds no complete reply).
func parseShape(b []byte) (respShape, int) {
	line := bytes.Index(b, []byte("\r\n"))
	if line < 1 {
		return respShape{}, 0
	}
	s := respShape{mark: b[0]}
	n := line + 2
	switch b[0] {
	case '+', '-', ':':
		return s, n
	case '$':
		size, err := strconv.Atoi(string(b[1:line]))
		if err != nil {
			return respShape{}, 0
		}
		if size < 0 {
			s.null = true
			return s, n
		}
		if len(b) < n+size+2 {
			return respShape{}, 0
		}
		return s, n + size + 2
	case '*':
		count, err := strconv.Atoi(string(b[1:line]))
		if err != nil {
			return respShape{}, 0
		}
		if count < 0 {
			s.null = true
			return s, n
		}
		for range count {
			e, m := parseShape(b[n:])
			if m == 0 {
				return respShape{}, 0
			}
			s.elems = append(s.elems, e)
			n += m
		}
		return s, n
	}
	return respShape{}, 0
}

// shaped is go-redis's value with the type the server sent.
func shaped(s respShape, val any, err error) Reply {
	if err == redis.Nil || s.null {
		return Reply{Kind: ReplyNil}
	}
	if err != nil {
		return Reply{Kind: ReplyError, Str: err.Error()}
	}
	switch v := val.(type) {
	case int64:
		return IntReply(v)
	case string:
		if s.mark == '+' {
			return Reply{Kind: ReplyStatus, Str: v}
		}
		return Reply{Kind: ReplyBulk, Str: v}
	case []any:
		r := Reply{Kind: ReplyArray, Elems: make([]Reply, len(v))}
		for i, e := range v {
			es := respShape{mark: '$'}
			if i < len(s.elems) {
				es = s.elems[i]
			}
			var eerr error
			if ee, ok := e.(error); ok {
				eerr = ee
			}
			r.Elems[i] = shaped(es, e, eerr)
		}
		return r
	case nil:
		return Reply{Kind: ReplyNil}
	}
	return Reply{Kind: ReplyUnknown}
}

// IsReply reports whether err is the server's answer (nil, or an error
// reply) rather than a failure to reach it.
func IsReply(err error) bool {
	if err == redis.Nil {
		return true
	}
	_, ok := err.(redis.Error)
	return ok
}

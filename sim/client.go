// client.go holds a simulated app server: a go-redis client with a small
// program (acquire → work → write → release) that the learner steps.
package sim

import (
	"context"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Client is one simulated app server. It talks to the lock node and to the
// storage through its own go-redis connections, and believes what their
// replies tell it — nothing more.
type Client struct {
	ID     string
	lock   *redis.Client
	store  *redis.Client
	state  State
	before State // the state a pause interrupted
	value  string
	token  int64
	// retryDue is set when a retry came due while the client was paused;
	// resuming runs it at once, as a frozen process would on waking.
	retryDue bool
	spans    []Span
}

// Name is the client's label on the timeline: "A", "B".
func (c *Client) Name() string { return strings.ToUpper(c.ID) }

// inside reports whether the client believes it is in the critical section,
// paused or not: a paused holder still thinks the lock is its own.
func (c *Client) inside() bool {
	s := c.state
	if s == StatePaused {
		s = c.before
	}
	return s == StateHolding || s == StateWorking
}

func (c *Client) setState(s State, now int64) {
	if n := len(c.spans); n > 0 {
		if c.spans[n-1].State == s {
			return
		}
		c.spans[n-1].To = now
	}
	c.state = s
	c.spans = append(c.spans, Span{State: s, From: now, To: -1})
}

// send performs one command as this client against one node, records it in
// the event log with the reply Redis gave, and returns that reply.
func (w *World) send(c *Client, conn *redis.Client, node, purpose string, args ...any) (any, error) {
	val, err := conn.Do(context.Background(), args...).Result()
	if err != nil && !isReply(err) {
		return nil, &InternalError{Err: err}
	}
	cmd := make([]string, len(args))
	for i, a := range args {
		cmd[i] = toString(a)
	}
	ev := Event{
		Actor: c.ID, Kind: KindCommand, Node: node, Command: cmd,
		Reply: formatReply(cmd[0], val, err), Purpose: purpose,
	}
	if cmd[0] == "EVAL" {
		ev.Script = scriptName(cmd[1])
	}
	w.record(ev)
	return val, replyErr(err)
}

// isReply tells a Redis reply (nil, or an error reply like WRONGTYPE) from a
// failure of the connection itself.
func isReply(err error) bool {
	if err == redis.Nil {
		return true
	}
	_, ok := err.(redis.Error)
	return ok
}

// replyErr keeps error replies and drops redis.Nil: callers test the value.
func replyErr(err error) error {
	if err == redis.Nil {
		return nil
	}
	return err
}

func scriptName(body string) string {
	for name, s := range Scripts {
		if s == body {
			return name
		}
	}
	return "script"
}

func toString(a any) string {
	switch v := a.(type) {
	case string:
		return v
	case int64:
		return itoa(v)
	case int:
		return itoa(int64(v))
	default:
		return "?"
	}
}

// client.go holds a simulated app server: a go-redis client with a small
// program (acquire → work → write → release) that the learner steps.

package sim

import (
	"context"
	"errors"
	"strings"

	"github.com/redis/go-redis/v9"

	"locklab/sim/rediscli"
	"locklab/sim/redisfront"
)

// Client is one simulated app server. It talks to the lock node and to the
// storage through its own go-redis connections, and believes what their
// replies tell it — nothing more.
type Client struct {
	ID     string
	conns  map[*Node]*rediscli.Conn // one connection per node, opened on first use
	state  State
	before State // the state a pause interrupted
	value  string
	token  int64
	// due holds timers that came due while the client was paused;
	// resuming runs them at once, as a frozen process would on waking.
	due   []timerKind
	spans []Span
	// pending is the rest of a program stopped between two commands.
	pending     step
	pendingWhat string
	// dropNext: the network will lose the reply to the next command.
	dropNext bool
	// validUntil: for a Redlock holder, the instant its validity ends.
	validUntil int64
	// disconnected: its connection to the coordination service, or to a
	// design's Redis, is down.
	disconnected bool
	// keyLeft: a design's client whose release never reached Redis (it
	// was cut off): its key stays until its TTL ends, as a crashed
	// holder's does, and a refusal meanwhile is no failure of the lock.
	keyLeft bool
	// leaseEnd: the instant its own count of the TTL it asked for runs
	// out (from its acquire or last extend; leaseForever with no TTL);
	// acq numbers its latest acquisition in the order the lock was handed
	// out; wrote: the storage accepted its write under this acquisition.
	leaseEnd int64
	acq      int
	wrote    bool
	// dropWindow: a design's client whose next step sends its write
	// (it holds the lock and has not started working, or it stopped
	// between two parts of its write, or before resending it). The
	// explorer loses a design's reply only there (table.go, VerbDrop).
	dropWindow bool
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

// conn is c's connection to n, opened (dialled through the pipe) on first
// use, as a go-redis client does.
func (c *Client) conn(n *Node) *rediscli.Conn {
	if c.conns == nil {
		c.conns = map[*Node]*rediscli.Conn{}
	}
	rc, ok := c.conns[n]
	if !ok {
		rc = n.connect()
		c.conns[n] = rc
	}
	return rc
}

// send performs one command as this client against one node, records it in
// the event log with the reply Redis gave, and returns that reply. A slow
// node makes time pass before the command arrives; a node that is down,
// or a lock node a design's client is cut off from, gets nothing and the
// client sees a refused connection.
func (w *World) send(c *Client, n *Node, purpose string, args ...any) (any, error) {
	cmd := make([]string, len(args))
	for i, a := range args {
		cmd[i] = toString(a)
	}
	if n.latency > 0 {
		w.runUntil(w.clock.Now() + n.latency)
	}
	if n.down || (c.disconnected && w.coord == nil && n != w.store) {
		w.record(Event{Actor: c.ID, Kind: KindCommand, Node: n.Name, Command: cmd, Purpose: purpose, Refused: true})
		if len(cmd) > 1 && strings.EqualFold(cmd[0], "EVAL") {
			w.events[len(w.events)-1].Script = w.scriptName(cmd[1])
		}
		return nil, errRefused
	}
	if n != w.store {
		// What time did to the lock key before the command arrives (a
		// key whose TTL ends at this very instant is gone first).
		w.observeNode(n, "")
	}
	reply, val, err := c.conn(n).Do(context.Background(), args...)
	if err != nil && !isReply(err) {
		var be *BackendError
		if errors.As(err, &be) {
			return nil, be // a real server stopped answering
		}
		return nil, &InternalError{Err: err}
	}
	if reply.Kind == rediscli.ReplyError {
		// The embedded server's front refused it for a bound of its own
		// (no Redis answer): the timeline stops here.
		if ferr := redisfront.Refused(reply.Str); errors.Is(ferr, redisfront.ErrTooBig) {
			if w.fail == nil {
				w.fail = &ActionError{Code: CodeTooBig}
			}
			return nil, errRefused
		} else if ferr != nil {
			return nil, &InternalError{Err: ferr}
		}
	}
	ev := Event{
		Actor: c.ID, Kind: KindCommand, Node: n.Name, Command: cmd,
		Reply: reply, Purpose: purpose,
	}
	if strings.EqualFold(cmd[0], "EVAL") && len(cmd) > 1 {
		ev.Script = w.scriptName(cmd[1])
	}
	if n != w.store {
		// What the command did to the lock key, at the instant it did it.
		defer w.observeNode(n, c.ID)
	}
	if n == w.primary {
		defer w.replicate()
	}
	if c.dropNext && (w.sc.Scripted == nil || n == w.store) {
		// The server ran the command and answered; the answer never
		// arrived. The client sees a timeout and cannot tell what happened.
		c.dropNext = false
		ev.Lost = true
		w.record(ev)
		return nil, errLost
	}
	w.record(ev)
	return val, replyErr(err)
}

// errLost is what a client sees when the network lost a reply: no answer,
// only a timeout. Each program decides what that means for it.
var errLost = errors.New("i/o timeout: the reply was lost")

func isLost(err error) bool { return errors.Is(err, errLost) }

// errRefused is what a client sees from a node that is down.
var errRefused = errors.New("connection refused: the node is down")

// noReply reports a command that got no answer, lost or refused: the
// client has to decide without knowing.
func noReply(err error) bool { return isLost(err) || errors.Is(err, errRefused) }

// failed reports a command that did not do what the client asked: no
// answer (lost, refused), or an error reply (a key typed by hand into
// another type, DELEX on an older Redis). The client carries on as it
// does after no answer; the timeline shows what came back.
func failed(err error) bool { return noReply(err) || isErrorReply(err) }

// isReply tells a Redis reply (nil, or an error reply like WRONGTYPE) from a
// failure of the connection itself.
func isReply(err error) bool {
	if err == redis.Nil {
		return true
	}
	_, ok := err.(redis.Error)
	return ok
}

// isErrorReply: the server answered with an error (DELEX on a Redis
// older than 8.4: an unknown command). The timeline shows it; the client
// carries on as a real one would after a failed release.
func isErrorReply(err error) bool {
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

// scriptName is the name the event log shows for a script: a design's
// piece (and part) first, then the lessons' scripts, else "script".
func (w *World) scriptName(body string) string {
	if dp := w.sc.Scripted; dp != nil {
		if name, ok := dp.names[body]; ok {
			return name
		}
	}
	if name := scriptName(body); name != "script" {
		return name
	}
	// typed by hand: one name per script, so each row shows its own
	if name, ok := w.typed[body]; ok {
		return name
	}
	if w.typed == nil {
		w.typed = map[string]string{}
	}
	name := "script"
	if n := len(w.typed); n > 0 {
		name += "-" + itoa(int64(n+1))
	}
	w.typed[body] = name
	return name
}

// scriptNamed is the body of the script the event log names "‹name.lua›"
// on sc's timelines (a design's part first, then the lessons' scripts).
func (sc *Scenario) scriptNamed(shown string) (string, bool) {
	name, pre := strings.CutPrefix(shown, "‹")
	name, suf := strings.CutSuffix(name, ".lua›")
	if !pre || !suf {
		return "", false
	}
	if dp := sc.Scripted; dp != nil {
		for body, n := range dp.names {
			if n == name {
				return body, true
			}
		}
	}
	body, ok := Scripts[name]
	return body, ok
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

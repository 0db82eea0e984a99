// errors.go holds the typed errors replay and parsing return for bad input.

package sim

import "fmt"

// Code names what was wrong with a learner's input. The web layer turns a
// code into a sentence in the page's language; the English in Error() is for
// logs and tests.
type Code string

// The codes an ActionError can carry.
const (
	CodeSyntax         Code = "syntax"         // not who.verb, who.verb.arg or verb.arg
	CodeUnknownVerb    Code = "unknown-verb"   // no such verb
	CodeUnknownClient  Code = "unknown-client" // no such client in this scenario
	CodeBadDuration    Code = "bad-duration"   // wait with a duration out of range or malformed
	CodeTooMany        Code = "too-many"       // more actions than MaxActions
	CodeTooLong        Code = "too-long"       // the encoded state is longer than MaxStateLen
	CodePaused         Code = "paused"         // the client is paused; only resume or crash
	CodeCrashed        Code = "crashed"        // the client crashed; it does nothing any more
	CodeNotPaused      Code = "not-paused"     // resume on a client that is running
	CodeNotHolding     Code = "not-holding"    // write or release without having acquired
	CodeBusy           Code = "busy"           // acquire while already holding or trying
	CodeTimeLimit      Code = "time-limit"     // the timeline would run past MaxVirtualTime
	CodeUnknownOption  Code = "unknown-option" // no such option in this scenario
	CodeBadOption      Code = "bad-option"     // an option with a value it does not take
	CodeUnknownScene   Code = "unknown-scenario"
	CodePending        Code = "pending"         // the client is between two commands: next, pause or crash
	CodeNothingPending Code = "nothing-pending" // next, but the client is not between two commands
	CodeUnknownNode    Code = "unknown-node"    // no such node in this scenario
	CodeTooSlow        Code = "too-slow"        // the replay ran past the server's deadline
	CodeNodeState      Code = "node-state"      // the node cannot do that now (up when up, promote a primary…)
	CodeNotOffered     Code = "not-offered"     // a client verb this scenario does not offer (ttl where there is no Redis, drop outside its lesson)
	CodeTooBig         Code = "too-big"         // a server would copy more than sim/redisfront's MaxWork bytes for the timeline
	// The command line (command.go, operator.go): Who is the command's
	// name, or the node it was sent to (CodeCmdNode).
	CodeCmdSyntax     Code = "cmd-syntax"      // not a command line redis-cli reads (unbalanced quotes, empty)
	CodeCmdTooLong    Code = "cmd-too-long"    // over MaxCommandLen bytes or MaxCommandArgs arguments
	CodeCmdBlocking   Code = "cmd-blocking"    // could wait for ever
	CodeCmdMode       Code = "cmd-mode"        // would leave the connection in a mode (MULTI, SUBSCRIBE…)
	CodeCmdAdmin      Code = "cmd-admin"       // administers the server
	CodeCmdNotOffered Code = "cmd-not-offered" // not one the command line sends
	CodeCmdScript     Code = "cmd-script"      // an EVAL script the checker refuses
	CodeCmdTTL        Code = "cmd-ttl"         // a TTL longer than the embedded server can keep (MaxTypedTTL)
	CodeCmdNode       Code = "cmd-node"        // no Redis node of that name here (a model's nodes have none)
)

// ActionError says which part of the learner's input was impossible and why.
// Index is the 0-based position of the action (-1 for options and limits).
type ActionError struct {
	Index  int
	Action string // the offending action or option, as written
	Code   Code
	Who    string // the client concerned, upper case, if any
}

func (e *ActionError) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("action %d %q: %s", e.Index+1, e.Action, e.Code)
	}
	return fmt.Sprintf("%q: %s", e.Action, e.Code)
}

// InternalError wraps a failure of the machinery itself (a pipe closed, a
// node that would not start). It is not the learner's fault.
type InternalError struct{ Err error }

func (e *InternalError) Error() string { return "simulator: " + e.Err.Error() }
func (e *InternalError) Unwrap() error { return e.Err }

// BackendError is a real Redis server (the live backend, or a test's)
// that could not be reached or stopped answering. Neither the learner's
// fault nor a bug: the web layer shows a "Redis unreachable" page.
type BackendError struct {
	Node string // the node whose server failed
	Err  error
}

func (e *BackendError) Error() string { return "redis server of " + e.Node + ": " + e.Err.Error() }
func (e *BackendError) Unwrap() error { return e.Err }

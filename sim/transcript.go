// transcript.go prints a timeline as plain text: the golden files in
// testdata/ and the reproduction a failing test prints.

package sim

import (
	"fmt"
	"strings"
)

// Transcript renders the whole timeline, one event per line, then the
// violations and the final state. The header says how to reproduce it.
func (tl *Timeline) Transcript() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# scenario=%s opt=%s do=%s\n", tl.Scenario.ID,
		tl.Scenario.FormatOptions(tl.Opts), FormatActions(tl.Actions))
	for _, e := range tl.Events {
		fmt.Fprintf(&b, "%9s  %-2d %-7s %s\n", FormatMS(e.At), e.Step+1, actorLabel(e.Actor), e.line())
	}
	for _, v := range tl.Violations {
		fmt.Fprintf(&b, "VIOLATION %s at %s (step %d, event %d): %s\n",
			v.Kind, FormatMS(v.At), v.Step+1, v.Event, strings.ToUpper(strings.Join(v.Actors, ",")))
	}
	if tl.Storage.Kind == StoreCharges {
		fmt.Fprintf(&b, "END now=%s lock-ttl=%dms charges=%v\n", FormatMS(tl.Now), tl.LockTTL, tl.Storage.Charges)
	} else {
		fmt.Fprintf(&b, "END now=%s lock-ttl=%dms storage=%q last-token=%d\n",
			FormatMS(tl.Now), tl.LockTTL, tl.Storage.Value, tl.Storage.LastToken)
	}
	for _, c := range tl.Clients {
		pending := ""
		if c.Pending != "" {
			pending = " next=" + c.Pending
		}
		fmt.Fprintf(&b, "END client %s state=%s token=%d%s\n", strings.ToUpper(c.ID), c.State, c.Token, pending)
	}
	return b.String()
}

func actorLabel(a string) string {
	if len(a) == 1 {
		return strings.ToUpper(a)
	}
	if a == "" {
		return "-"
	}
	return a
}

// line is the event as one line of text.
func (e Event) line() string {
	switch e.Kind {
	case KindCommand:
		cmd := make([]string, len(e.Command))
		copy(cmd, e.Command)
		if e.Script != "" && len(cmd) > 1 {
			cmd[1] = "<" + e.Script + ".lua>"
		}
		s := fmt.Sprintf("%s> %s -> %s", e.Node, strings.Join(cmd, " "), strings.ReplaceAll(e.Reply.String(), "\n", " "))
		if e.Lost {
			s += " [reply lost]"
		}
		if e.Refused {
			s = fmt.Sprintf("%s> %s -> [refused: node down]", e.Node, strings.Join(cmd, " "))
		}
		if e.Model {
			s += " [model]"
		}
		if e.Accepted != nil {
			verdict := map[bool]string{true: "accepted", false: "rejected"}[*e.Accepted]
			if e.Token != 0 {
				verdict = fmt.Sprintf("token %d %s", e.Token, verdict)
			}
			s += " [" + verdict + "]"
		}
		return s
	case KindExpired:
		return fmt.Sprintf("key %s expired (value %s of %s)", e.Key, e.Value, actorLabel(e.Owner))
	case KindWork, KindWait:
		return fmt.Sprintf("%s %s", e.Kind, FormatDuration(e.Ms))
	case KindNode:
		if e.Ms > 0 {
			return fmt.Sprintf("node %s %s", e.Text, FormatDuration(e.Ms))
		}
		return "node " + e.Text
	case KindRedlock:
		return "redlock " + e.Text
	default:
		return string(e.Kind)
	}
}

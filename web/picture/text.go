// text.go says in words what a timeline picture shows, for its
// text alternative: what the last action did, who holds the lock now,
// the clients and the storage, and what went wrong.

package picture

import (
	"slices"
	"strings"

	"locklab/sim"
	"locklab/sim/rediscli"
	"locklab/web/i18n"
	"locklab/web/narrate"
)

// briefReply is how many characters of a reply a sentence about the last
// action quotes (the event log shows the reply whole).
const briefReply = 60

// pictureText is what a screen reader gets of a timeline picture on a page.
type pictureText struct {
	Region  string // the scroll container's name
	Name    string // the picture's name: the time, what this step did, who holds the lock
	Summary string // its description: the clients, the storage, what went wrong
	Step    string // what the last action did (the name's middle sentence)
	// LaneText says how the picture reads (the lanes this timeline has);
	// Latency what the timeline models of time on the network.
	LaneText, Latency string
	// Spelled is the Seq of every event of the last action whose sentence
	// Step spells out (a run of equal ones by its first).
	Spelled []int
}

// maxNamed is how many sentences about one step's events the picture's
// name spells out; the rest are counted (the event log lists them all).
const maxNamed = 5

// spelled is one sentence about events of the last action: the first
// one's Seq, how much it says of what the action led to (weight), how
// many events it stands for, and the nodes it names (the same command
// with the same reply from several nodes, or one key's expiry on several
// at one instant, is one sentence naming them).
type spelled struct {
	text   string
	seq    int
	n      int
	weight int
	nodes  []string
}

// weight is how much an event says of what an action led to. Readers
// found the one OK among B's retries, a Redlock round's verdict, a key's
// expiry and the lock reaching the replica hidden in "and N more" when
// only an action's first events were named.
func weight(e sim.Event, n narrate.Narration) int {
	switch e.Kind {
	case sim.KindRedlock:
		return 5
	case sim.KindCommand:
		switch {
		case n.Outcome == narrate.Accepted || n.Outcome == narrate.Rejected || n.Outcome == narrate.NoOp:
			return 5
		case e.Reply.Kind == rediscli.ReplyError || e.Reply.IsOK():
			return 4
		case e.Reply.Kind == rediscli.ReplyNil || e.Reply.Kind == rediscli.ReplyNone:
			return 2
		}
		return 3
	case sim.KindWait, sim.KindWork:
		return 1
	}
	return 4 // an expiry, a fault, a pause, a resume, a client's note
}

// chooseSaid is what Step says of the last action's sentences (equal
// ones already merged, with their count: "B sent SET (retry): (nil)" nine
// times over is one sentence): all of them, or where there are more than
// maxNamed, the first (the action itself) and those that say most of
// what it led to (the later at equal weight), in the order they happened,
// with how many events were left out.
func chooseSaid(runs []spelled, a *i18n.A11yUI) (did []string, seqs []int) {
	keep := make([]bool, len(runs))
	if len(runs) <= maxNamed {
		for i := range keep {
			keep[i] = true
		}
	} else {
		keep[0] = true
		order := make([]int, 0, len(runs)-1)
		for i := 1; i < len(runs); i++ {
			order = append(order, i)
		}
		slices.SortStableFunc(order, func(x, y int) int {
			if runs[x].weight != runs[y].weight {
				return runs[y].weight - runs[x].weight
			}
			return y - x
		})
		for _, i := range order[:maxNamed-1] {
			keep[i] = true
		}
	}
	left := 0
	for i, s := range runs {
		if !keep[i] {
			left += s.n
			continue
		}
		text := s.text
		if s.n > 1 && s.n != len(s.nodes) { // once to each node named needs no count
			text = i18n.Fill(a.Times, s.text, itoa(int64(s.n)))
		}
		did, seqs = append(did, text), append(seqs, s.seq)
	}
	if left > 0 {
		did = append(did, i18n.Fill(a.AndMore, itoa(int64(left))))
	}
	return did, seqs
}

// Describe fills in the picture's text in the page's language. newFrom
// is the Seq of the first event the last action produced.
func (p *Picture) Describe(tl *sim.Timeline, u *i18n.UI, newFrom int) {
	a := u.A11y
	p.Region = a.PictureRegion
	p.LaneText, p.Latency = u.Tidy(laneText(tl, u, a)), u.Tidy(latencyText(tl, u, a))

	var said []spelled
	byKey := map[string]int{} // a sentence's key: its place in said
	// say adds event e's sentence, or counts e in an earlier one with the
	// same key; a sentence that names nodes (render, from their list)
	// names e's node too.
	say := func(e sim.Event, n narrate.Narration, key, node string, render func(nodes string) string) {
		if k, ok := byKey[key]; ok {
			s := &said[k]
			s.n++
			if node != "" && !slices.Contains(s.nodes, node) {
				s.nodes = append(s.nodes, node)
				s.text = render(i18n.JoinAnd(s.nodes, a.ListSep, a.ListAnd))
			}
			return
		}
		byKey[key] = len(said)
		s := spelled{text: render(node), seq: e.Seq, n: 1, weight: weight(e, n)}
		if node != "" {
			s.nodes = []string{node}
		}
		said = append(said, s)
	}
	from := int64(-1) // when the last action began: its first event's instant
	for _, e := range tl.Events {
		if e.Seq < newFrom {
			continue
		}
		if from < 0 {
			from = e.At
		}
		n := narrate.Of(u, e)
		switch {
		case e.Kind == sim.KindExpired:
			// on which nodes: the key expires on each at one instant
			owner := strings.ToUpper(e.Owner)
			say(e, n, "expired\x00"+owner+"\x00"+sim.FormatMS(e.At), n.Actor, func(nodes string) string {
				return i18n.Fill(a.ExpiredOn, owner, nodes)
			})
		case e.Kind == sim.KindCommand && n.Message && n.Outcome == narrate.Answered:
			// the same command with the same reply from several nodes
			say(e, n, commandText(e, n, u, a, "\x00"), n.Target, func(nodes string) string {
				return commandText(e, n, u, a, nodes)
			})
		default:
			text := eventText(e, u, a)
			if text == "" {
				continue
			}
			if end := e.At + e.Ms; e.Kind == sim.KindWait && tl.Now > end {
				// a wait's own length is not how far the clock went
				text += a.Sep + i18n.Fill(a.ClockRanOn, sim.FormatMS(tl.Now))
			}
			say(e, n, text, "", func(string) string { return text })
		}
	}
	if from > tl.ActionAt && tl.ActionAt >= 0 && newFrom > 0 {
		from = tl.ActionAt // it began before its first event arrived (a slow node)
	}
	step := a.NoChange
	did, named := chooseSaid(said, a)
	p.Spelled = named
	switch {
	case len(did) > 0 && from >= 0 && from < tl.Now:
		// the clock may move further than the action's own wait (a WAIT
		// that blocks, a retry's try): say how far it went
		step = i18n.Fill(a.ThisSpan, sim.FormatMS(from), sim.FormatMS(tl.Now), i18n.EndWith(strings.Join(did, a.Sep), a.ThisSpan))
	case len(did) > 0:
		step = i18n.Fill(a.ThisStep, i18n.EndWith(strings.Join(did, a.Sep), a.ThisStep))
	}
	// Tidy: the sentences are filled from templates, node names and
	// verbs; a tight language sets no space between its own words
	p.Step = u.Tidy(step)
	p.Name = u.Tidy(sentences(i18n.Fill(a.PictureAt, sim.FormatMS(tl.Now)), step, holders(tl, u, a)))

	var cs []string
	for _, c := range tl.Clients {
		id, st := strings.ToUpper(c.ID), narrate.State(u, tl, c)
		if narrate.ShowsToken(c) {
			cs = append(cs, i18n.Fill(a.ClientToken, id, st, itoa(c.Token)))
		} else {
			cs = append(cs, i18n.Fill(a.ClientState, id, st))
		}
	}
	sum := []string{i18n.Fill(a.ClientsNow, strings.Join(cs, a.ClientSep)), i18n.Fill(a.StorageNow, storageValue(tl, a.ListSep), storageSub(tl, u))}
	if len(tl.Violations) > 0 {
		var vs []string
		for i, v := range tl.Violations {
			vs = append(vs, itoa(int64(i+1))+". "+narrate.ViolationText(u, v))
		}
		sum = append(sum, i18n.Fill(a.WentWrong, sentences(vs...)))
	}
	p.Summary = u.Tidy(sentences(sum...))
}

// laneText says how the picture reads: time left to right, and the
// lanes this timeline has — its clients, the commands typed by hand, its
// lock's node or nodes or modelled service, the storage.
func laneText(tl *sim.Timeline, u *i18n.UI, a *i18n.A11yUI) string {
	lanes := []string{a.LaneClients}
	if slices.ContainsFunc(tl.Events, func(e sim.Event) bool { return e.Actor == sim.Operator }) {
		lanes = append(lanes, a.LaneYou)
	}
	sc := tl.Scenario
	switch {
	case sc.Coord && tl.Opts[sim.OptService] == sim.ServiceEtcd:
		lanes = append(lanes, a.LaneEtcd)
	case sc.Coord:
		lanes = append(lanes, a.LaneZK)
	case sc.Replicated:
		lanes = append(lanes, a.LanePair)
	case len(tl.Nodes) > 1:
		lanes = append(lanes, i18n.Fill(a.LaneRedlock, itoa(int64(len(tl.Nodes)))))
	default:
		lanes = append(lanes, a.LaneRedis)
	}
	lanes = append(lanes, a.LaneStorage)
	return i18n.Fill(a.Lanes, strings.Join(lanes, a.ListSep))
}

// latencyText says what the timeline models of the network: 0 ms, or
// how long each command to a node the learner slowed took to arrive; the
// replication link's lag where there is one; a process pause, which is a
// model too.
func latencyText(tl *sim.Timeline, u *i18n.UI, a *i18n.A11yUI) string {
	var ss []string
	slow := map[int64][]string{}
	var order []int64
	for _, e := range tl.Events {
		if e.Kind == sim.KindNode && e.Text == sim.NodeSlow && e.Ms > 0 {
			if _, seen := slow[e.Ms]; !seen {
				order = append(order, e.Ms)
			}
			if !slices.Contains(slow[e.Ms], e.Actor) {
				slow[e.Ms] = append(slow[e.Ms], e.Actor)
			}
		}
	}
	if len(order) == 0 {
		ss = append(ss, a.NoLatency)
	}
	for _, ms := range order {
		ss = append(ss, i18n.Fill(a.SlowNodes, strings.Join(slow[ms], a.ListSep), sim.FormatDuration(ms)))
	}
	if tl.Scenario.Replicated {
		ss = append(ss, i18n.Fill(a.LinkLag, sim.FormatDuration(sim.ReplicationLag)))
	}
	return sentences(append(ss, a.PauseModel)...)
}

// holders says who holds the lock now, node by node (a node that is down
// holds nothing anyone can reach), and how long it has left where there
// is one lock node.
func holders(tl *sim.Timeline, u *i18n.UI, a *i18n.A11yUI) string {
	var owners []string
	on := map[string][]string{} // owner → nodes
	var left int64
	open := map[string]sim.LockSpan{} // node → its lock that lives on
	for _, l := range tl.Locks {
		if l.End == "" && l.To < 0 {
			open[l.Node] = l
		}
	}
	for _, n := range tl.Nodes { // in lane order
		l, ok := open[n.Name]
		if !ok || n.Down {
			continue
		}
		if _, ok := on[l.Owner]; !ok {
			owners = append(owners, l.Owner)
		}
		on[l.Owner] = append(on[l.Owner], nodeName(tl, u, l.Node))
		left = l.Expiry - tl.Now
	}
	if len(owners) == 0 {
		// no key, but a client may still act as the holder (its key
		// expired under it): say so, rather than "no one" beside a lane
		// that says "holding"
		if tl.Opts[sim.OptLock] == sim.LockLocal {
			// no key: each server's lock is a mutex in its own memory,
			// held from its lock to its unlock, paused or not
			if held := mutexHolders(tl); len(held) > 0 {
				return i18n.Fill(a.MutexHeld, i18n.JoinAnd(held, a.ListSep, a.ListAnd))
			}
			return a.NoHolder
		}
		var believers []string
		for _, c := range tl.Clients {
			if c.State == sim.StateHolding || c.State == sim.StateWorking {
				believers = append(believers, strings.ToUpper(c.ID))
			}
		}
		if len(believers) > 0 {
			return i18n.Fill(a.NoHolderBelieved, strings.Join(believers, a.ListSep))
		}
		return a.NoHolder
	}
	var hs []string
	for _, o := range owners {
		if o == sim.Operator { // a value typed by hand: no client's lock
			hs = append(hs, i18n.Fill(a.HandHeld, i18n.JoinAnd(on[o], a.ListSep, a.ListAnd)))
			continue
		}
		if o == "" { // a value no client acquired with (a design's INCR counter)
			hs = append(hs, i18n.Fill(a.NoOwnerHeld, i18n.JoinAnd(on[o], a.ListSep, a.ListAnd)))
			continue
		}
		holds, holdsLeft := a.HoldsOn, a.HoldsOnLeft
		switch {
		case crashed(tl, o):
			holds, holdsLeft = a.CrashedKey, a.CrashedKeyLeft
		case idle(tl, o):
			// it released (or gave up) and its key stayed: a reader found
			// "A holds the lock" beside "no client held the lock"
			holds, holdsLeft = a.ReleasedKey, a.ReleasedKeyLeft
		}
		if len(tl.Nodes) == 1 && left > 0 {
			hs = append(hs, i18n.Fill(holdsLeft, strings.ToUpper(o), on[o][0], seconds(left)))
		} else {
			hs = append(hs, i18n.Fill(holds, strings.ToUpper(o), i18n.JoinAnd(on[o], a.ListSep, a.ListAnd)))
		}
	}
	return sentences(hs...)
}

// mutexHolders are the clients whose process holds its own mutex now
// (lesson 1's lock.local), read from the log: locked and not unlocked
// since, and the process not crashed (a crash takes its memory, and the
// mutex with it). A paused process still holds its mutex.
func mutexHolders(tl *sim.Timeline) []string {
	held := map[string]bool{}
	for _, e := range tl.Events {
		switch e.Kind {
		case sim.KindLocal:
			held[e.Actor] = true
		case sim.KindLocalUnlock:
			held[e.Actor] = false
		}
	}
	var out []string
	for _, c := range tl.Clients {
		if held[c.ID] && c.State != sim.StateCrashed {
			out = append(out, strings.ToUpper(c.ID))
		}
	}
	return out
}

// idle: client id is idle (it released, or gave up) though a key of its
// is still on a server.
func idle(tl *sim.Timeline, id string) bool {
	return slices.ContainsFunc(tl.Clients, func(c sim.ClientView) bool { return c.ID == id && c.State == sim.StateIdle })
}

// crashed: client id has crashed (its key, if any, outlives it).
func crashed(tl *sim.Timeline, id string) bool {
	return slices.ContainsFunc(tl.Clients, func(c sim.ClientView) bool { return c.ID == id && c.State == sim.StateCrashed })
}

// nodeName is a lock node as its lane names it: a replica promoted is
// named for what it is now.
func nodeName(tl *sim.Timeline, u *i18n.UI, node string) string {
	if len(tl.Nodes) == 1 && !tl.Nodes[0].Model {
		return u.Lock
	}
	for _, n := range tl.Nodes {
		if n.Name == node && tl.Scenario.Replicated && n.Primary && n.Name != sim.NodePrimary {
			return u.NodeName["promoted"]
		}
	}
	if t, ok := u.NodeInText[node]; ok {
		return t // "the primary"
	}
	return narrate.Who(node, u) // a role or product in the page's language
}

// commandText is what a command did, sent to target (a list of nodes,
// where the same command got the same reply from each).
func commandText(e sim.Event, n narrate.Narration, u *i18n.UI, a *i18n.A11yUI, target string) string {
	cmd := ""
	if len(e.Command) > 0 {
		cmd = u.Localize(e.Command[0])
	}
	if e.Model && !n.Message && len(e.Command) == 2 && e.Purpose == "timeout" {
		// whose session or lease expired: "A's session expired"
		return i18n.Fill(a.TimedOut, n.Actor, cmd, e.Command[1], narrate.ReplyBrief(u, e, briefReply))
	}
	if e.Script != "" {
		cmd += " ‹" + e.Script + ".lua›"
	}
	if p := u.Purpose[e.Purpose]; p != "" && n.Message {
		cmd += u.Paren(p)
	}
	// a reply quoted inside a sentence: without Redis's own trailing
	// space ("… with args beginning with: 'x' "), which the log keeps
	reply := strings.TrimRight(narrate.ReplyBrief(u, e, briefReply), " ")
	switch {
	case !n.Message:
		return i18n.Fill(a.Happened, n.Actor, cmd, reply)
	case e.Reply.Kind == rediscli.ReplyNone:
		return i18n.Fill(a.CommandNoReply, n.Actor, cmd, target, reply)
	case e.Lost:
		return i18n.Fill(a.CommandLost, n.Actor, cmd, target, reply)
	}
	return i18n.Fill(a.CommandTo, n.Actor, cmd, target, reply)
}

// eventText is one event in a sentence ("" for one not worth saying),
// from its narration: only a message is said to be sent, to whom the
// lanes name; a no-op write is not a rejection.
func eventText(e sim.Event, u *i18n.UI, a *i18n.A11yUI) string {
	n := narrate.Of(u, e)
	switch e.Kind {
	case sim.KindCommand:
		tok := itoa(e.Token)
		switch n.Outcome {
		case narrate.Accepted:
			if e.Token > 0 {
				return i18n.Fill(a.VerdictTokenOK, n.Actor, tok)
			}
			return i18n.Fill(a.VerdictOK, n.Actor)
		case narrate.Rejected:
			if e.Token > 0 {
				return i18n.Fill(a.VerdictTokenNo, n.Actor, tok)
			}
			return i18n.Fill(a.VerdictNo, n.Actor)
		case narrate.NoOp:
			return i18n.Fill(a.VerdictNoOp, n.Actor)
		}
		return commandText(e, n, u, a, n.Target)
	case sim.KindExpired, sim.KindNode:
		return n.What
	case sim.KindWait:
		return i18n.Fill(a.WaitedFor, sim.FormatDuration(e.Ms))
	case sim.KindWork:
		return i18n.Fill(a.WorkedFor, n.Actor, sim.FormatDuration(e.Ms))
	case sim.KindPause:
		return i18n.Fill(a.PausedBy, n.Actor)
	case sim.KindCrash:
		return i18n.Fill(a.CrashedBy, n.Actor)
	case sim.KindResume:
		return i18n.Fill(a.ResumedBy, n.Actor)
	case sim.KindRedlock:
		return i18n.Fill(a.RedlockCount, n.Actor, n.What)
	case sim.KindLocal, sim.KindLocalUnlock, sim.KindDrop, sim.KindGiveUp, sim.KindCut, sim.KindMend:
		return i18n.Fill(a.ClientNote, n.Actor, n.What)
	}
	return ""
}

func sentences(ss ...string) string { return i18n.Sentences(ss...) }

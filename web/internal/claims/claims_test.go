package claims_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/sim/luacheck"
	"locklab/sim/oracle"
	"locklab/web/i18n"
	"locklab/web/lesson"
	"locklab/web/narrate"
	"locklab/web/picture"
)

// claimsOf holds every claim the pages make about tl, in u's language,
// to the facts f, and returns the ones that are untrue.
func claimsOf(tl *sim.Timeline, f *oracle.Facts, u *i18n.UI) []string {
	out := f.Check()
	newFrom := picture.FirstNew(tl)
	p := picture.Layout(tl, u, newFrom)
	p.Describe(tl, u, newFrom)
	lanes := laneKeys(tl)
	out = append(out, lockBars(tl, f, u, p, lanes)...)
	out = append(out, endMarks(tl, f, u, p, lanes)...)
	out = append(out, holdersText(tl, f, u, p)...)
	out = append(out, descText(tl, u, p)...)
	out = append(out, clockRanOn(tl, f, u, p, newFrom)...)
	out = append(out, storageLane(tl, f, u, p)...)
	out = append(out, eventLog(tl, f, u)...)
	out = append(out, violationWords(tl, f, u)...)
	out = append(out, nodeTTLs(tl, f)...)
	out = append(out, clientWords(tl, f, u)...)
	return out
}

// clientWords: a client the page calls holding (its lane, its controls,
// "clients now") has its lock value on some server when the timeline
// ends, by the servers' own keys; one whose key is gone is said to think
// it holds. (A modelled service and an in-process mutex keep no Redis
// key to hold this to.)
func clientWords(tl *sim.Timeline, f *oracle.Facts, u *i18n.UI) []string {
	if tl.Scenario.Coord || tl.Opts[sim.OptLock] == sim.LockLocal {
		return nil
	}
	var out []string
	for _, c := range tl.Clients {
		says := narrate.State(u, tl, c)
		held := false
		for _, keys := range f.End {
			if k, ok := keys[tl.Scenario.LockKey()]; ok && c.Value != "" && k.Str == c.Value {
				held = true
			}
		}
		// each holding span the picture titles: "thinks it holds" only
		// where no life of the lock key with its value was on a server at
		// any moment of the span's first instant
		for _, sp := range c.Spans {
			if sp.State != sim.StateHolding || narrate.SpanState(u, tl, c, sp.State, sp.From) != u.Believes {
				continue
			}
			for _, l := range f.Lives {
				if l.Key == tl.Scenario.LockKey() && c.Value != "" && l.Val.Str == c.Value && l.From <= sp.From &&
					(l.To < 0 || sp.From <= l.To) {
					out = append(out, fmt.Sprintf("%s's span from %dms is titled %q, but %s kept its lock value then", upper(c.ID), sp.From, u.Believes, l.Node))
					break
				}
			}
		}
		switch {
		case says == u.StateName[sim.StateHolding] && !held:
			out = append(out, fmt.Sprintf("%s is called %q, but no server keeps its lock value %q", upper(c.ID), says, c.Value))
		case says == u.Believes && held:
			out = append(out, fmt.Sprintf("%s is called %q, but a server keeps its lock value %q", upper(c.ID), says, c.Value))
		}
	}
	return out
}

// nodeTTLs: each lock node's TTL as the JSON reports it (lock_pttl_ms)
// is what PTTL would answer from the key's life: ms left, -1 for a key
// without a TTL, -2 for none.
func nodeTTLs(tl *sim.Timeline, f *oracle.Facts) []string {
	var out []string
	for _, n := range tl.Nodes {
		if n.Model {
			continue
		}
		want := int64(-2)
		for _, l := range f.LivesOf(n.Name, tl.Scenario.LockKey()) {
			switch {
			case l.To >= 0:
			case l.Expiry == 0:
				want = -1
			default:
				want = l.Expiry - tl.Now
			}
		}
		if n.LockTTL != want {
			out = append(out, fmt.Sprintf("%s: the lock key's PTTL is reported as %d, the server's key says %d", n.Name, n.LockTTL, want))
		}
	}
	return out
}

// laneKeys are the picture's lanes, top to bottom, as Layout orders them.
func laneKeys(tl *sim.Timeline) []string {
	var keys []string
	for _, c := range tl.Clients {
		keys = append(keys, c.ID)
	}
	if slices.ContainsFunc(tl.Events, func(e sim.Event) bool { return e.Actor == sim.Operator }) {
		keys = append(keys, sim.Operator)
	}
	for _, n := range tl.Nodes {
		keys = append(keys, n.Name)
	}
	return append(keys, sim.NodeStorage)
}

func num(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// laneAt is the lane whose band holds y.
func laneAt(p *picture.Picture, keys []string, y float64) string {
	for i := len(p.Lanes) - 1; i >= 0; i-- {
		if y >= num(p.Lanes[i].Y) {
			if i < len(keys) {
				return keys[i]
			}
			return "?"
		}
	}
	return "?"
}

func upper(id string) string { return strings.ToUpper(id) }

// lockBars: each lock bar names the key and value its node held, whose it
// was, and from when to when — every lock life on a Redis node, once;
// the bar begins at the marker of the command that set it; a bar whose
// key lives on says how long it has left, if its node holds it with a
// TTL. A lock in a modelled service is not named as a Redis key.
func lockBars(tl *sim.Timeline, f *oracle.Facts, u *i18n.UI, p *picture.Picture, lanes []string) []string {
	var out []string
	key := tl.Scenario.LockKey()
	got := map[string][]string{}     // lane → titles
	starts := map[string][]float64{} // lane|title → each such bar's x, left to right
	var ttls []string
	for _, b := range p.Bars {
		lane := laneAt(p, lanes, num(b.Y))
		switch {
		case strings.Contains(b.Class, "bar lock"):
			got[lane] = append(got[lane], b.Title)
			starts[lane+"|"+b.Title] = append(starts[lane+"|"+b.Title], num(b.X))
		case strings.Contains(b.Class, "bar ttl"):
			ttls = append(ttls, lane+" "+b.Title)
		}
	}
	if tl.Scenario.Coord {
		for lane, ts := range got {
			for _, t := range ts {
				if strings.Contains(t, key) {
					out = append(out, fmt.Sprintf("the %s lane's bar says %q: no Redis key holds this lock", lane, t))
				}
			}
		}
		return out
	}
	want := map[string][]string{}
	var wantTTL []string
	for _, l := range f.LockLives() {
		to := l.To
		if to < 0 {
			to = tl.Now
		}
		title := key + " = " + l.Val.Str + u.Paren(narrate.Who(f.Owner(l), u)) + " " + picture.Span(u, l.From, to, l.To < 0)
		want[l.Node] = append(want[l.Node], title)
		if xs := starts[l.Node+"|"+title]; len(xs) > 0 {
			x := xs[0]
			starts[l.Node+"|"+title] = xs[1:]
			if mx, found := markerX(p, f.EventOfOp(l.FromOp)); found && mx != x {
				out = append(out, fmt.Sprintf("%s: the bar %q begins at x=%.1f, not at the marker of the command that set it (#%d, x=%.1f)", l.Node, title, x, f.EventOfOp(l.FromOp)+1, mx))
			}
		}
		if l.To < 0 && l.Expiry > tl.Now {
			wantTTL = append(wantTTL, l.Node+" PTTL "+strconv.FormatInt(l.Expiry-tl.Now, 10)+" ms")
		}
	}
	for _, lane := range lanes {
		out = append(out, diff(lane+" lock bars", got[lane], want[lane])...)
	}
	out = append(out, diff("TTL left", ttls, wantTTL)...)
	return out
}

// markerX is the x of the numbered marker that shows event seq (a single
// number, or a range such as "4–8" for a Redlock round).
func markerX(p *picture.Picture, seq int) (float64, bool) {
	if seq < 0 {
		return 0, false
	}
	n := seq + 1
	for _, m := range p.Markers {
		if m.Num == "" {
			continue
		}
		a, b, isRange := strings.Cut(m.Num, "–")
		lo, _ := strconv.Atoi(a)
		hi := lo
		if isRange {
			hi, _ = strconv.Atoi(b)
		}
		if lo <= n && n <= hi {
			return num(m.X), true
		}
	}
	return 0, false
}

// endMarks: each end marker on a lock lane says how that lock's life
// ended and when, and by whose command — every ended life once.
func endMarks(tl *sim.Timeline, f *oracle.Facts, u *i18n.UI, p *picture.Picture, lanes []string) []string {
	if tl.Scenario.Coord {
		return nil
	}
	got := map[string][]string{}
	for _, m := range p.Markers {
		if strings.HasPrefix(m.Class, "end ") {
			lane := laneAt(p, lanes, num(m.Y))
			got[lane] = append(got[lane], m.Title)
		}
	}
	// a key lost with its node's data is marked by the node's own fault
	// mark, with the words under it
	lost := map[string]int{}
	for _, lb := range p.Labels {
		if lb.Text == u.LostData {
			lost[laneAt(p, lanes, num(lb.Y))]++
		}
	}
	want := map[string][]string{}
	for _, l := range f.LockLives() {
		at := " " + sim.FormatMS(l.To)
		owner, by := narrate.Who(f.Owner(l), u), narrate.Who(l.EndBy, u)
		switch l.End {
		case oracle.EndExpired:
			want[l.Node] = append(want[l.Node], u.Tidy(i18n.Fill(u.ExpiredAt, owner))+at)
		case oracle.EndDeleted:
			want[l.Node] = append(want[l.Node], u.Tidy(i18n.Fill(u.DeletedBy, by))+at)
		case oracle.EndOverwritten:
			want[l.Node] = append(want[l.Node], u.Tidy(i18n.Fill(u.Overwritten, by))+at)
		case oracle.EndLost:
			if lost[l.Node] > 0 && !slices.Contains(got[l.Node], u.LostData+at) {
				lost[l.Node]--
				continue
			}
			want[l.Node] = append(want[l.Node], u.LostData+at)
		}
	}
	var out []string
	for _, lane := range lanes {
		out = append(out, diff(lane+" end markers", got[lane], want[lane])...)
	}
	return out
}

// holdersText: the picture's name says who holds the lock now, on the
// nodes that are up and hold the holder's key — as the facts have it.
func holdersText(tl *sim.Timeline, f *oracle.Facts, u *i18n.UI, p *picture.Picture) []string {
	if tl.Scenario.Coord {
		return nil
	}
	a := u.A11y
	var owners []string
	on := map[string][]string{}
	var left int64
	for _, n := range tl.Nodes {
		if f.DownAt(n.Name, tl.Now) {
			continue
		}
		for _, l := range f.LivesOf(n.Name, tl.Scenario.LockKey()) {
			if l.To >= 0 {
				continue
			}
			o := f.Owner(l)
			if _, seen := on[o]; !seen {
				owners = append(owners, o)
			}
			on[o] = append(on[o], nodeLabel(tl, u, n))
			left = l.Expiry - tl.Now
		}
	}
	var want string
	switch {
	case len(owners) == 0 && tl.Opts[sim.OptLock] == sim.LockLocal:
		// a mutex per process: held from the log's lock to its unlock,
		// whatever the client's state (a paused process keeps it), and
		// gone with a crashed process's memory
		inside := map[string]bool{}
		for _, e := range tl.Events {
			switch e.Kind {
			case sim.KindLocal:
				inside[e.Actor] = true
			case sim.KindLocalUnlock, sim.KindCrash:
				inside[e.Actor] = false
			}
		}
		var held []string
		for _, c := range tl.Clients {
			if inside[c.ID] {
				held = append(held, upper(c.ID))
			}
		}
		want = a.NoHolder
		if len(held) > 0 {
			want = i18n.Fill(a.MutexHeld, i18n.JoinAnd(held, a.ListSep, a.ListAnd))
		}
	case len(owners) == 0:
		var believers []string
		for _, c := range tl.Clients {
			if c.State == sim.StateHolding || c.State == sim.StateWorking {
				believers = append(believers, upper(c.ID))
			}
		}
		want = a.NoHolder
		if len(believers) > 0 {
			want = i18n.Fill(a.NoHolderBelieved, strings.Join(believers, a.ListSep))
		}
	default:
		var hs []string
		for _, o := range owners {
			if o == sim.Operator {
				hs = append(hs, i18n.Fill(a.HandHeld, i18n.JoinAnd(on[o], a.ListSep, a.ListAnd)))
				continue
			}
			holds, holdsLeft := a.HoldsOn, a.HoldsOnLeft
			if slices.ContainsFunc(tl.Clients, func(c sim.ClientView) bool { return c.ID == o && c.State == sim.StateCrashed }) {
				holds, holdsLeft = a.CrashedKey, a.CrashedKeyLeft // a crashed client holds nothing
			}
			if slices.ContainsFunc(tl.Clients, func(c sim.ClientView) bool { return c.ID == o && c.State == sim.StateIdle }) {
				holds, holdsLeft = a.ReleasedKey, a.ReleasedKeyLeft // one that let go holds nothing either
			}
			if len(tl.Nodes) == 1 && left > 0 {
				hs = append(hs, i18n.Fill(holdsLeft, upper(o), on[o][0], strconv.FormatFloat(float64(left)/1000, 'f', 1, 64)+"s"))
			} else {
				hs = append(hs, i18n.Fill(holds, upper(o), i18n.JoinAnd(on[o], a.ListSep, a.ListAnd)))
			}
		}
		want = i18n.Sentences(hs...)
	}
	if want = u.Tidy(want); !strings.Contains(p.Name, want) {
		return []string{fmt.Sprintf("the picture's name %q does not say %q", p.Name, want)}
	}
	return nil
}

// nodeLabel is how the words name a lock node: "Redis" for the one node
// of a lesson, the role a replicated node has now (the old primary that
// crashed, the replica promoted) as a sentence names it, a Redlock node
// by its name.
func nodeLabel(tl *sim.Timeline, u *i18n.UI, n sim.NodeView) string {
	if len(tl.Nodes) == 1 {
		return u.Lock
	}
	if tl.Scenario.Replicated && n.Primary && n.Name != "primary" {
		return u.NodeName["promoted"]
	}
	if t, ok := u.NodeInText[n.Name]; ok {
		return t // in a sentence: "the primary"
	}
	return narrate.NodeLabel(u, n.Name)
}

// descText: the words above the picture say which lanes it has and what
// it models of the network, true of this timeline.
// clockRanOn: the caption of a last action that was a wait says the
// clock ran on past the wait exactly when it did (the timeline ends after
// the wait's own end), to the instant it stopped, and then only if the
// servers answered a command after the wait had ended (the "commands
// under way" it names).
func clockRanOn(tl *sim.Timeline, f *oracle.Facts, u *i18n.UI, p *picture.Picture, newFrom int) []string {
	var out []string
	for _, e := range tl.Events {
		if e.Seq < newFrom || e.Kind != sim.KindWait {
			continue
		}
		end := e.At + e.Ms
		says := strings.Contains(p.Step, u.Tidy(i18n.Fill(u.A11y.ClockRanOn, sim.FormatMS(tl.Now))))
		answered := false
		for _, op := range f.Ops {
			answered = answered || (op.Kind == oracle.OpCommand && op.At > end && op.At <= tl.Now)
		}
		switch {
		case tl.Now > end && !says:
			out = append(out, fmt.Sprintf("the wait of %s ended at %s and the clock at %s, but the caption does not say it ran on: %q",
				sim.FormatDuration(e.Ms), sim.FormatMS(end), sim.FormatMS(tl.Now), p.Step))
		case tl.Now <= end && strings.Contains(p.Step, strings.TrimSpace(u.Tidy(strings.Split(u.A11y.ClockRanOn, "{0}")[0]))):
			out = append(out, fmt.Sprintf("the caption says the clock ran on past the wait, which ended with it at %s: %q", sim.FormatMS(end), p.Step))
		case says && !answered:
			out = append(out, fmt.Sprintf("the caption says commands under way were answered after the wait's end at %s, but the servers answered none: %q", sim.FormatMS(end), p.Step))
		}
	}
	return out
}

func descText(tl *sim.Timeline, u *i18n.UI, p *picture.Picture) []string {
	var out []string
	slow := false
	for _, e := range tl.Events {
		if e.Kind == sim.KindNode && e.Text == sim.NodeSlow && e.Ms > 0 {
			slow = true
		}
	}
	if slow && strings.Contains(p.Latency, u.A11y.NoLatency) {
		out = append(out, fmt.Sprintf("the timeline's description says %q, but commands to slow nodes took time to arrive", p.Latency))
	}
	// the lock's lanes, as the nodes are: one Redis server, a primary
	// and its replica, N Redlock servers, a modelled service
	a := u.A11y
	want := a.LaneRedis
	switch n := tl.Nodes; {
	case len(n) == 1 && n[0].Model && n[0].Name == "etcd":
		want = a.LaneEtcd
	case len(n) == 1 && n[0].Model:
		want = a.LaneZK
	case len(n) == 2:
		want = a.LanePair
	case len(n) > 2:
		want = i18n.Fill(a.LaneRedlock, strconv.Itoa(len(n)))
	}
	if !strings.Contains(p.LaneText, want) {
		out = append(out, fmt.Sprintf("the timeline's description says %q; its lock lanes are %v", p.LaneText, nodeNames(tl)))
	}
	return out
}

func nodeNames(tl *sim.Timeline) []string {
	var out []string
	for _, n := range tl.Nodes {
		out = append(out, n.Name)
	}
	return out
}

// storageLane: the storage's lane states what its keys hold: the ledger's
// charges, or the token key's value (no number when there is none).
func storageLane(tl *sim.Timeline, f *oracle.Facts, u *i18n.UI, p *picture.Picture) []string {
	sc, keys := tl.Scenario, f.End[sim.NodeStorage]
	lane := p.Lanes[len(p.Lanes)-1]
	var want string
	switch tok, ok := keys[sc.TokenKey()]; {
	case sc.Storage == sim.StoreCharges:
		want = i18n.Fill(u.Charges, strconv.Itoa(len(keys[sc.ChargesKey()].List)))
	case ok:
		want = i18n.Fill(u.TokenKeyIs, tok.Str)
	case tl.Opts[sim.OptFence] == sim.FenceOff,
		lockdesign.Of(sc) != nil && !luacheck.Reads(lockdesign.Of(sc).Script(sim.PieceWrite), "ARGV", 1): // a write that never reads its token
		want = u.NoCheck
	default:
		want = u.NoTokenYet
	}
	if lane.Sub != want {
		return []string{fmt.Sprintf("the storage lane says %q; its keys say %q", lane.Sub, want)}
	}
	return nil
}

// eventLog: each command row shows the command as redis-cli reads it —
// pasted into a command line it sends the same arguments — and the reply
// the server gave.
func eventLog(tl *sim.Timeline, f *oracle.Facts, u *i18n.UI) []string {
	var out []string
	log := lesson.EventLogOf(u, tl)
	for i, e := range tl.Events {
		if e.Kind != sim.KindCommand || e.Model {
			continue
		}
		row := log.Rows[i]
		shown := row.Pre
		if row.Script != "" {
			shown += " ‹" + row.Script + ".lua› " + row.Post
		}
		// pasted into the command line, the row sends what the client sent
		act, code := tl.Scenario.CommandActionIn(e.Node, shown)
		if code != "" || !slices.Equal(act.Cmd, e.Command) {
			out = append(out, fmt.Sprintf("event #%d shows %q, which the command line sends as %q (%s), not %q", e.Seq+1, shown, act.Cmd, code, e.Command))
		}
	}
	return out
}

// diff compares two multisets of claims.
func diff(what string, got, want []string) []string {
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if slices.Equal(g, w) {
		return nil
	}
	var extra, missing []string
	for _, x := range g {
		if i := slices.Index(w, x); i >= 0 {
			w = slices.Delete(w, i, i+1)
		} else {
			extra = append(extra, x)
		}
	}
	missing = w
	return []string{fmt.Sprintf("%s: shown but untrue %q; true but not shown %q", what, extra, missing)}
}

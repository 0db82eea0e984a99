// layout.go lays out the timeline picture: it turns a sim.Timeline into
// positioned shapes (all numbers preformatted) that picture.templ draws.
//
// The axis is hybrid, honest about time and generous with order. Every
// event that shows something (a command, an expiry, a pause, a node
// fault) gets its own slot, and the slots of one instant sit side by side
// in the log's order inside a block that says the instant's time once and
// is shaded across the lanes, so "at 10.000 s: A's key expired, then B's
// SET, then A's DEL" reads left to right instead of piling onto one line.
// Between instants, time is drawn to scale; only when a long quiet gap
// would squeeze short ones below a readable width is it compressed, and
// then it is drawn broken, with its length written on the axis. Labels go
// under their marker in the first free row of their lane; a lane grows a
// row rather than let two labels touch. Layout records a box for every
// marker and label so a test can prove that nothing overlaps.

package picture

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"locklab/sim"
	"locklab/sim/rediscli"
	"locklab/web/i18n"
	"locklab/web/narrate"
)

// Picture geometry, in SVG user units. The viewBox scales to the page.
const (
	svgW    = 820.0 // the least width; a crowded timeline is wider
	labelW  = 128.0
	padR    = 14.0
	barY    = 18.0 // bar top within a lane
	barH    = 22.0
	markerR = 9.0
	rowH    = 14.0 // one row of labels under the bars
	laneMin = 66.0 // a lane's least height (its name and two sub-lines)
	// seam is where the label strip ends and the plot begins: a little
	// left of t=0, so a marker or tick label at t=0 is not cut in half.
	seam = labelW - 16
	// plotX0 is where the first instant's block starts.
	plotX0 = labelW - 4
	// Type sizes the boxes are computed for (picture.templ's classes).
	replyFont = 12.0
	numFont   = 9.0
	timeFont  = 12.0
	// Widths on the axis.
	minGap   = 18.0 // the least width of a gap between two instants
	breakW   = 56.0 // a compressed gap
	blockPad = 5.0
	slotGap  = 4.0
)

// Picture is the whole SVG.
type Picture struct {
	// The picture is two SVGs in one coordinate system: the lane labels
	// (x < labelW), which stay in view while the plot scrolls sideways on
	// narrow screens, and the plot. Their widths are in the same ratio as
	// their viewBoxes, so both scale alike.
	LabelBox, PlotBox string
	LabelPct, PlotPct string
	SeamW             string // where the labels end and the plot begins
	ViewBox, Height   string
	Width             string
	Title             string
	Lanes             []Lane
	Ticks             []Tick
	Instants          []Instant
	Breaks            []Break
	Bars              []Bar
	Markers           []Marker
	Labels            []Label
	Bands             []Band
	NowX, NowY1       string
	NowY2, NowL       string
	AxisY             string // the axis line under the time labels
	Hint              string // on phones: the picture scrolls sideways
	pictureText              // names for assistive technology (a11y_i18n.go)

	w, h  float64
	boxes []box // every marker and label, for the overlap test
}

// box is a marker's or a label's extent, in user units.
type box struct {
	kind, text     string
	x0, y0, x1, y1 float64
}

// Lane is one horizontal row with its label.
type Lane struct {
	Y, LabelY, SubY, Sub2Y, LineY string
	Label, Sub, Sub2, Class       string
	// Sub2Data: Sub2 is a value the storage holds, shown byte for byte
	// as it is in every language (marked as a reply, like the log's).
	Sub2Data bool
}

// Tick is a time mark on the axis; Label may be empty (a line only).
type Tick struct{ X, Label, Y, Y1, Y2 string }

// Instant shades the block of slots that share one instant, across the
// lanes, and carries the instant's time once on the axis.
type Instant struct {
	X, W, Y, H     string
	LineX1, LineX2 string // the bracket under the time (several slots)
	LineY          string
	Label, LX, LY  string
	Several        bool
}

// Break is a quiet gap drawn shorter than its length.
type Break struct {
	X, Y, H, D    string // D: the break's zigzag on the axis
	Label, LX, LY string
}

// Bar is a stretch of state: a client's state or a lock key's life.
type Bar struct {
	X, Y, W, H   string
	Class, Label string
	LabelX       string
	LabelY       string
	Title        string
}

// Marker is one event on a lane: a numbered circle or pill (the event
// log's #), an end of a lock's life, a node's fault. Shapes are paths
// and rectangles, never glyphs of a font.
type Marker struct {
	Class, Title string
	X, Y         string
	Shape        string // "circle", "pill" or "path"
	R            string
	RX, RY       string // a pill's corner
	RW, RH       string
	D            string // a path's shape
	Num          string
	Halo         bool // new since the last step: a calm ring
}

// Label is a text under a marker (a reply, a verdict, how a lock ended).
type Label struct{ Class, X, Y, Text string }

// Band marks a violation across every lane, with a warning shape and the
// numbers keyed to the list under the picture.
type Band struct {
	X, Y, W, H, Class string
	D                 string // the warning shape
	NumX, NumY        string
	Num, Title        string
}

func f(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// slot is one column of the axis: one event, or one Redlock round (a
// client's commands to every node at one instant).
type slot struct {
	t           int64
	first, last int // the events' Seq
	half        float64
	viol        []int   // the numbers of the violations revealed here
	vl, vr      float64 // the violation mark's extent
	lab         float64 // half the widest label anchored here
	x           float64
}

// instant is one distinct time on the axis with its slots [s0, s1).
type instant struct {
	t      int64
	s0, s1 int
	w      float64 // the block's width before placing
	x0, x1 float64
}

// pos is a place on the axis: a slot, or a time (its instant's start or
// end when the time has a block).
type pos struct {
	slot int // -1: by time
	t    int64
	end  bool
}

// mark is something drawn on a lane at a place, with its label under it.
type mark struct {
	at           pos
	lane         string
	m            Marker
	half         float64
	label, class string
}

// pending is a label waiting for its row.
type pending struct {
	lane, text, class string
	x, w              float64
	order             int
}

type layouter struct {
	tl      *sim.Timeline
	u       *i18n.UI
	pu      *i18n.PicUI
	newFrom int
	p       *Picture

	lanes   []string // lane keys, top to bottom
	laneIdx map[string]int
	slots   []slot
	slotOf  map[int]int // Seq → slot
	byTime  map[int64][]sim.Event
	ins     []instant
	insOf   map[int64]int
	gapW    []float64 // gapW[k]: from instant k to k+1
	gapLin  []bool    // drawn to scale
	marks   []mark
	w       float64
}

// Layout builds the picture for tl in the page's language. Lanes, top to
// bottom: each client, "you" when the learner typed commands (the
// operator's own lane), each lock node (one Redis, a primary and its
// replica, five Redlock nodes, or a modelled service), the storage.
func Layout(tl *sim.Timeline, u *i18n.UI, newFrom int) *Picture {
	l := &layouter{tl: tl, u: u, pu: u.Picture, newFrom: newFrom, p: &Picture{},
		laneIdx: map[string]int{}, slotOf: map[int]int{}, byTime: map[int64][]sim.Event{}, insOf: map[int64]int{}}
	for _, c := range tl.Clients {
		l.addLane(c.ID)
	}
	if slices.ContainsFunc(tl.Events, func(e sim.Event) bool { return e.Actor == sim.Operator }) {
		l.addLane(sim.Operator)
	}
	for _, n := range tl.Nodes {
		l.addLane(n.Name)
	}
	l.addLane("storage")
	for _, e := range tl.Events {
		l.byTime[e.At] = append(l.byTime[e.At], e)
	}
	l.buildSlots()
	l.buildMarks()
	l.buildInstants()
	l.placeX()
	return l.draw()
}

func (l *layouter) addLane(key string) {
	l.laneIdx[key] = len(l.lanes)
	l.lanes = append(l.lanes, key)
}

// laneFor is the lane a command's marker goes on: its client's, or the
// node's for what a node or the storage did.
func (l *layouter) laneFor(e sim.Event) (string, bool) {
	key := e.Actor
	if _, ok := l.laneIdx[key]; !ok || e.Node == "storage" {
		key = e.Node
	}
	_, ok := l.laneIdx[key]
	return key, ok
}

// buildSlots gives every event that shows something its slot.
func (l *layouter) buildSlots() {
	evs := l.tl.Events
	for i := 0; i < len(evs); i++ {
		e := evs[i]
		half := 3.0
		switch e.Kind {
		case sim.KindWait, sim.KindWork, sim.KindDrop, sim.KindCut, sim.KindMend:
			continue // drawn by what follows: the refused commands, the reply lost
		case sim.KindCommand, sim.KindLocal, sim.KindLocalUnlock:
			half = markerHalf(itoa(int64(e.Seq + 1)))
		case sim.KindExpired, sim.KindNode:
			half = 8
		}
		j := i
		if e.Kind == sim.KindCommand {
			j = roundEnd(evs, i)
			if j > i {
				half = markerHalf(itoa(int64(e.Seq+1)) + "–" + itoa(int64(evs[j].Seq+1)))
			}
		}
		l.slots = append(l.slots, slot{t: e.At, first: e.Seq, last: evs[j].Seq, half: half})
		for k := i; k <= j; k++ {
			l.slotOf[evs[k].Seq] = len(l.slots) - 1
		}
		i = j
	}
	// violations: on the slot of the event that revealed them
	for n, v := range l.tl.Violations {
		s := l.slotFor(v)
		if s < 0 {
			continue
		}
		l.slots[s].viol = append(l.slots[s].viol, n+1)
	}
	for i := range l.slots {
		if s := &l.slots[i]; len(s.viol) > 0 {
			s.vl, s.vr = 9, 11+textWidth(violNums(s.viol), 11, true)
		}
	}
}

// roundEnd is the last index of a run of one client's commands at one
// instant that starts at i (three or more: a Redlock round), else i.
func roundEnd(evs []sim.Event, i int) int {
	e := evs[i]
	j := i
	for e.Node != "storage" && j+1 < len(evs) && evs[j+1].Kind == sim.KindCommand && evs[j+1].Actor == e.Actor &&
		evs[j+1].At == e.At && evs[j+1].Node != "storage" {
		j++
	}
	if j-i < 2 {
		return i
	}
	return j
}

func (l *layouter) slotFor(v sim.Violation) int {
	if s, ok := l.slotOf[v.Event]; ok {
		return s
	}
	best := -1
	for i, s := range l.slots {
		if s.t == v.At && s.first <= v.Event {
			best = i
		}
	}
	if best < 0 {
		for i, s := range l.slots {
			if s.t >= v.At {
				return i
			}
		}
	}
	return best
}

func violNums(n []int) string {
	if len(n) == 1 {
		return strconv.Itoa(n[0])
	}
	return strconv.Itoa(n[0]) + "–" + strconv.Itoa(n[len(n)-1])
}

// markerHalf is half the width of a numbered marker: a circle, or a pill
// when the number does not fit in one.
func markerHalf(num string) float64 {
	return max(markerR, (textWidth(num, numFont, true)+3)/2)
}

// find is the slot of the first (or last) event at t that pred accepts.
func (l *layouter) find(t int64, pred func(e sim.Event) bool, last bool) int {
	found := -1
	for _, e := range l.byTime[t] {
		s, ok := l.slotOf[e.Seq]
		if !ok || !pred(e) {
			continue
		}
		if !last {
			return s
		}
		found = s
	}
	return found
}

func or(s int, t int64, end bool) pos {
	if s >= 0 {
		return pos{slot: s, t: t}
	}
	return pos{slot: -1, t: t, end: end}
}

// buildMarks collects what each lane shows: commands, the ends of locks,
// node faults; and each mark's label.
func (l *layouter) buildMarks() {
	evs := l.tl.Events
	for i := 0; i < len(evs); i++ {
		switch evs[i].Kind {
		case sim.KindNode:
			l.nodeMark(evs[i])
		case sim.KindCommand, sim.KindLocal, sim.KindLocalUnlock:
			i = l.commandMark(i)
		}
	}
	l.lockEnds()
	l.labelRoom()
}

// nodeWord is the catalog key of a node fault's word: a replication
// model's down is a crash that loses the node's data ("down/lost"),
// Redlock's a node cut off that keeps it ("down"): one word for two
// different faults would teach the wrong one.
func nodeWord(verb, value string) string {
	if value == sim.NodeLostData {
		return verb + "/" + value
	}
	return verb
}

// nodeMark is a node fault's mark on the node's lane, with its word.
func (l *layouter) nodeMark(e sim.Event) {
	u := l.u
	if _, ok := l.laneIdx[e.Actor]; ok {
		word, ok := l.pu.NodeMark[nodeWord(e.Text, e.Value)]
		if !ok {
			word = l.pu.NodeMark[e.Text]
		}
		label := i18n.Fill(word, sim.FormatDuration(e.Ms))
		if label == "" {
			label = e.Text
		}
		l.marks = append(l.marks, mark{at: pos{slot: l.slotOf[e.Seq]}, lane: e.Actor, half: 8,
			m: Marker{Class: "nodemk " + e.Text, Shape: "node", D: nodeShape(e.Text),
				Title: tooltip(u, e)},
			label: label, class: "lbl node"})
	}
}

// commandMark is the mark of the command at evs[i] on its lane: one
// numbered circle, or one pill for a Redlock round (a client's commands to
// every node at one instant), labelled with the reply or the verdict. It
// returns the index of the round's last event.
func (l *layouter) commandMark(i int) int {
	u, evs := l.u, l.tl.Events
	e := evs[i]
	lane, ok := l.laneFor(e)
	if e.Kind != sim.KindCommand {
		lane = e.Actor
		_, ok = l.laneIdx[e.Actor]
	}
	j := i
	if e.Kind == sim.KindCommand {
		j = roundEnd(evs, i)
	}
	if !ok {
		return j
	}
	num := itoa(int64(e.Seq + 1))
	if j > i {
		num += "–" + itoa(int64(evs[j].Seq+1))
	}
	m := Marker{Class: "mk", Num: num}
	var titles []string
	for k := i; k <= j; k++ {
		titles = append(titles, tooltip(u, evs[k]))
	}
	m.Title = strings.Join(titles, "\n")
	label, class := "", "lbl"
	if e.Kind == sim.KindCommand {
		label = shortReply(e)
		if j > i {
			m.Class += " group"
			label = groupReply(u, evs[i:j+1])
		}
		if e.Accepted != nil {
			m.Class += map[bool]string{true: " ok", false: " no"}[*e.Accepted]
			label = narrate.Verdict(e, u)
		}
		if e.Refused || e.Lost {
			m.Class += " lost"
		}
	} else {
		m.Class += " model"
	}
	switch {
	case strings.Contains(m.Class, " ok"):
		class += " ok"
	case strings.Contains(m.Class, " no"):
		class += " no"
	case strings.Contains(m.Class, " lost"):
		class += " lost"
	}
	if e.Seq >= l.newFrom {
		m.Class += " new"
	}
	l.marks = append(l.marks, mark{at: pos{slot: l.slotOf[e.Seq]}, lane: lane, m: m, half: markerHalf(num), label: label, class: class})
	return j
}

// lockEnds marks how each lock's life ended: expired, deleted (by whom),
// overwritten, lost with its node's data.
func (l *layouter) lockEnds() {
	u, tl := l.u, l.tl
	for _, lk := range tl.Locks {
		if _, ok := l.laneIdx[lk.Node]; !ok {
			continue
		}
		owner, by := narrate.Who(lk.Owner, u), narrate.Who(lk.DeletedBy, u)
		at := l.lockEnd(lk)
		var label, class, title string
		switch lk.End {
		case sim.EndExpired:
			label, class, title = u.Expired, "end expired", u.Tidy(i18n.Fill(u.ExpiredAt, owner))+" "+sim.FormatMS(lk.To)
		case sim.EndDeleted:
			label = u.Tidy(i18n.Fill(u.DeletedBy, by))
			class, title = "end deleted", label+" "+sim.FormatMS(lk.To)
			if lk.DeletedBy != lk.Owner {
				class += " foreign" // someone else's lock: what went wrong
			}
		case sim.EndOverwritten:
			label = u.Tidy(i18n.Fill(u.Overwritten, by))
			class, title = "end overwritten foreign", label+" "+sim.FormatMS(lk.To)
		case sim.EndLost:
			label, class, title = u.LostData, "end lost", u.LostData+" "+sim.FormatMS(lk.To)
		default:
			continue
		}
		lc := "lbl end"
		shape := "end"
		if lk.End == sim.EndLost && at.slot >= 0 && l.slots[at.slot].half == 8 {
			shape = "none" // the node's own mark (a restart) stands for it
		}
		if strings.Contains(class, "foreign") {
			lc += " foreign"
		}
		l.marks = append(l.marks, mark{at: at, lane: lk.Node, half: 8, label: label, class: lc,
			m: Marker{Class: class, Shape: shape, D: endShape(lk.End), Title: title}})
	}
}

// labelRoom records half the widest label on each slot, for the last
// instant's room.
func (l *layouter) labelRoom() {
	for _, mk := range l.marks {
		if mk.at.slot >= 0 {
			s := &l.slots[mk.at.slot]
			s.lab = max(s.lab, (textWidth(mk.label, replyFont, true)+6)/2)
		}
	}
}

// lockEnd is where a lock's life ends on the axis: at the event that ended
// it (the expiry, the DEL, the overwriting SET, the restart).
func (l *layouter) lockEnd(lk sim.LockSpan) pos {
	if lk.To < 0 || lk.End == "" {
		return pos{slot: -1, t: l.tl.Now, end: true}
	}
	return l.eventPos(lk.EndEvent, lk.To, true)
}

// lockStart is the command that set the lock's value on its node.
func (l *layouter) lockStart(lk sim.LockSpan) pos {
	return l.eventPos(lk.FromEvent, lk.From, false)
}

// eventPos is where event seq is drawn (its slot), or the time t when it
// has none.
func (l *layouter) eventPos(seq int, t int64, end bool) pos {
	if s, ok := l.slotOf[seq]; ok && seq >= 0 {
		return pos{slot: s}
	}
	return pos{slot: -1, t: t, end: end}
}

// spanStart is the event that put client c into state st at t.
func (l *layouter) spanStart(c string, st, prev sim.State, t int64) pos {
	by := func(k sim.Kind) func(e sim.Event) bool {
		return func(e sim.Event) bool { return e.Actor == c && e.Kind == k }
	}
	any := func(e sim.Event) bool { return e.Actor == c && e.Kind != sim.KindResume && e.Kind != sim.KindPause }
	s := -1
	switch {
	case st == sim.StatePaused:
		s = l.find(t, by(sim.KindPause), true)
	case st == sim.StateCrashed:
		s = l.find(t, by(sim.KindCrash), true)
	case st == sim.StateIdle:
		s = l.find(t, any, true)
	case prev == sim.StatePaused:
		s = l.find(t, by(sim.KindResume), true)
	case st == sim.StateHolding:
		if s = l.find(t, by(sim.KindRedlock), true); s < 0 {
			s = l.find(t, any, false)
		}
	default:
		s = l.find(t, any, false)
	}
	if s < 0 && prev == sim.StatePaused {
		s = l.find(t, by(sim.KindResume), true)
	}
	return or(s, t, false)
}

// buildInstants collects the distinct times the picture needs, with the
// slots of each, and measures each instant's block.
func (l *layouter) buildInstants() {
	tl := l.tl
	ts := []int64{0, tl.Now}
	for _, s := range l.slots {
		ts = append(ts, s.t)
	}
	for _, c := range tl.Clients {
		for _, s := range c.Spans {
			ts = append(ts, s.From)
			if s.To >= 0 {
				ts = append(ts, s.To)
			}
		}
	}
	for _, lk := range tl.Locks {
		ts = append(ts, lk.From)
		if lk.To >= 0 {
			ts = append(ts, lk.To)
		}
		if lk.End == "" && lk.Expiry > tl.Now {
			ts = append(ts, lk.Expiry)
		}
	}
	for _, v := range tl.Violations {
		ts = append(ts, v.At)
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	si := 0
	for _, t := range ts {
		in := instant{t: t, s0: si}
		for si < len(l.slots) && l.slots[si].t == t {
			si++
		}
		in.s1 = si
		if in.s1 > in.s0 {
			w := 2 * padOf(in)
			for i := in.s0; i < in.s1; i++ {
				s := l.slots[i]
				w += max(s.half, s.vl) + max(s.half, s.vr)
				if i > in.s0 {
					w += slotGap
				}
			}
			if t == tl.Now {
				w += l.tailRoom(in, w)
			}
			in.w = w
		}
		l.insOf[t] = len(l.ins)
		l.ins = append(l.ins, in)
	}
}

// tailRoom is what the instant "now" adds at its end so the labels of its
// last slots end before the "now" line.
func (l *layouter) tailRoom(in instant, w float64) float64 {
	s0, s1 := in.s0, in.s1
	x, need := padOf(in), 0.0
	for i := s0; i < s1; i++ {
		s := l.slots[i]
		if i > s0 {
			x += slotGap
		}
		x += max(s.half, s.vl)
		need = max(need, x+s.lab+4)
		x += max(s.half, s.vr)
	}
	return max(0, need-w)
}

// padOf is the room at each end of an instant's block: a shaded block of
// several slots gets some, a single event almost none.
func padOf(in instant) float64 {
	if in.s1-in.s0 > 1 {
		return blockPad
	}
	return 1
}

// placeX decides the scale and every instant's and slot's x. Time is to
// scale where it can be: a gap between two instants is as wide as its
// length at the scale, or as wide as the two blocks need if that is more
// (blocks take their room from the time around them). Only when that
// leaves the short gaps squeezed and a long quiet gap dominates is the
// long gap drawn broken (breakW), and only when even the blocks alone do
// not fit is the picture made wider than svgW.
func (l *layouter) placeX() {
	l.sizeGaps()
	l.placeInstants()
}

// sizeGaps sets each gap between two instants: to scale where the scale
// lets every instant's block fit, else the longest gaps compressed (drawn
// broken) while that frees enough room.
func (l *layouter) sizeGaps() {
	n := len(l.ins)
	d := make([]float64, max(n-1, 0))
	need := make([]float64, len(d))
	for k := range d {
		d[k] = float64(l.ins[k+1].t - l.ins[k].t)
		need[k] = max((l.ins[k].w+l.ins[k+1].w)/2+slotGap, minGap)
	}
	start := plotX0 + 6
	ends := (l.ins[0].w + l.ins[n-1].w) / 2
	room := svgW - padR - start - ends
	comp := make([]bool, len(d))
	width := func(k int, px float64) float64 {
		if comp[k] {
			return max(breakW, need[k])
		}
		return max(d[k]*px, need[k])
	}
	total := func(px float64) float64 {
		t := 0.0
		for k := range d {
			t += width(k, px)
		}
		return t
	}
	solve := func() float64 { // the scale that fills the room, 0 if none
		if len(d) == 0 || total(0) > room {
			return 0
		}
		lo, hi := 0.0, 1.0
		for total(hi) < room && hi < 1e6 {
			hi *= 2
		}
		for range 50 {
			if mid := (lo + hi) / 2; total(mid) > room {
				hi = mid
			} else {
				lo = mid
			}
		}
		return lo
	}
	px := solve()
	for px > 0 {
		squeezed, big := false, -1
		for k := range d {
			if comp[k] {
				continue
			}
			if d[k]*px < need[k] {
				squeezed = true
			}
			if big < 0 || d[k] > d[big] {
				big = k
			}
		}
		if !squeezed || big < 0 || d[big]*px < 3*breakW {
			break
		}
		comp[big] = true
		if px2 := solve(); px2 > px*1.5 {
			px = px2
			continue
		}
		comp[big] = false
		break
	}
	if px == 0 && len(d) > 0 { // the blocks alone overflow: wider, a second at 20 units
		px = 0.02
		for k := range d {
			comp[k] = d[k]*px > breakW
		}
	}
	l.gapW = make([]float64, len(d))
	l.gapLin = make([]bool, len(d))
	for k := range d {
		l.gapW[k], l.gapLin[k] = width(k, px), !comp[k]
	}
}

// placeInstants puts each instant's block and its slots on the axis, the
// gaps between them as sizeGaps set them.
func (l *layouter) placeInstants() {
	x := plotX0 + 6
	for k := range l.ins {
		in := &l.ins[k]
		if k > 0 {
			x += l.gapW[k-1] - l.ins[k-1].w/2 - in.w/2
		}
		in.x0, in.x1 = x, x+in.w
		sx := in.x0 + padOf(*in)
		for i := in.s0; i < in.s1; i++ {
			s := &l.slots[i]
			if i > in.s0 {
				sx += slotGap
			}
			sx += max(s.half, s.vl)
			s.x = sx
			sx += max(s.half, s.vr)
		}
		x = in.x1
	}
	l.w = max(svgW, x+padR)
}

// at is the x of a place on the axis.
func (l *layouter) at(p pos) float64 {
	if p.slot >= 0 {
		return l.slots[p.slot].x
	}
	return l.xOf(p.t, p.end)
}

// xOf is the x of a time: its instant's start or end, or inside a gap.
func (l *layouter) xOf(t int64, end bool) float64 {
	if k, ok := l.insOf[t]; ok {
		if end {
			return l.ins[k].x1
		}
		return l.ins[k].x0
	}
	k, _ := slices.BinarySearchFunc(l.ins, t, func(in instant, t int64) int { return int(in.t - t) })
	if k == 0 {
		return l.ins[0].x0
	}
	if k >= len(l.ins) {
		return l.ins[len(l.ins)-1].x1
	}
	a, b := l.ins[k-1], l.ins[k]
	return a.x1 + float64(t-a.t)/float64(b.t-a.t)*(b.x0-a.x1)
}

// barsOf collects the bars: each client's states, each lock's life, the
// TTL a live lock has left.
type rawBar struct {
	lane         string
	x0, x1       float64
	class, title string
	label        string // drawn inside when it fits, else under the bar
	labelClass   string
}

func (l *layouter) rawBars() []rawBar {
	tl, u := l.tl, l.u
	var bars []rawBar
	for _, c := range tl.Clients {
		prevX := math.Inf(-1)
		starts := make([]float64, len(c.Spans))
		var prev sim.State
		for i, s := range c.Spans {
			starts[i] = max(l.at(l.spanStart(c.ID, s.State, prev, s.From)), prevX)
			prevX, prev = starts[i], s.State
		}
		nowX := l.xOf(tl.Now, true)
		for i, s := range c.Spans {
			if s.State == sim.StateIdle {
				continue
			}
			x1 := nowX
			to := s.To
			switch {
			case i+1 < len(c.Spans):
				x1 = starts[i+1]
			case s.To >= 0:
				x1 = l.xOf(s.To, true)
			default:
				to = tl.Now
			}
			if x1-starts[i] < 1 {
				continue // a state that lasted no time and no event
			}
			bars = append(bars, rawBar{lane: c.ID, x0: starts[i], x1: x1, class: "bar st-" + string(s.State) + " c-" + c.ID,
				title: strings.ToUpper(c.ID) + u.LabelSep() + spanTitle(u, tl, c, s, to)})
		}
	}
	for _, lk := range tl.Locks {
		if _, ok := l.laneIdx[lk.Node]; !ok {
			continue
		}
		x0, x1 := l.at(l.lockStart(lk)), l.at(l.lockEnd(lk))
		x1 = max(x1, x0+6) // a lock that lived 0 ms is still drawn
		owner := narrate.Who(lk.Owner, u)
		label := owner
		if lk.Expiry == 0 && !tl.Scenario.Coord {
			label += " · " + u.NoTTL
		}
		to := lk.To
		if to < 0 {
			to = tl.Now
		}
		// a Redis key and its value; a service's entry and its token
		title := printable(lk.Key) + " = " + printable(lk.Value) + u.Paren(owner)
		if tl.Scenario.Coord {
			title = lk.Key + u.Paren(owner+u.Comma()+u.Localize(lk.Value))
		}
		bars = append(bars, rawBar{lane: lk.Node, x0: x0, x1: x1, class: "bar lock c-" + lk.Owner, label: label, labelClass: "owner c-" + lk.Owner,
			title: title + " " + Span(u, lk.From, to, lk.To < 0)})
		if lk.End == "" && lk.Expiry > tl.Now {
			nx := l.xOf(tl.Now, true)
			bars = append(bars, rawBar{lane: lk.Node, x0: nx, x1: max(l.xOf(lk.Expiry, false), nx+6), class: "bar ttl c-" + lk.Owner,
				label: i18n.Fill(u.TTLLeft, seconds(lk.Expiry-tl.Now)), labelClass: "ttlleft", title: "PTTL " + itoa(lk.Expiry-tl.Now) + " ms"})
		}
	}
	return bars
}

// rows places labels, each in the first row of its lane where it touches
// no other; it returns each label's row and the rows each lane uses.
func rows(ls []pending) ([]int, map[string]int) {
	type span struct{ a, b float64 }
	used := map[string][][]span{}
	out := make([]int, len(ls))
	idx := make([]int, len(ls))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(ls[a].x, ls[b].x); c != 0 {
			return c
		}
		return cmp.Compare(ls[a].order, ls[b].order)
	})
	n := map[string]int{}
	for _, i := range idx {
		lb := ls[i]
		a, b := lb.x-lb.w/2, lb.x+lb.w/2
		r := 0
		for ; ; r++ {
			if r == len(used[lb.lane]) {
				used[lb.lane] = append(used[lb.lane], nil)
			}
			free := true
			for _, s := range used[lb.lane][r] {
				if a < s.b+3 && s.a < b+3 {
					free = false
					break
				}
			}
			if free {
				break
			}
		}
		used[lb.lane][r] = append(used[lb.lane][r], span{a, b})
		out[i] = r
		n[lb.lane] = max(n[lb.lane], r+1)
	}
	return out, n
}

// draw turns the places into the picture's shapes, lane by lane.
func (l *layouter) draw() *Picture {
	d := &drawing{layouter: l, bars: l.rawBars()}
	d.placeLabels()
	d.planAxis()
	d.stackLanes()
	d.drawLanes()
	d.drawAxis()
	d.drawBars()
	d.drawViolations()
	d.drawMarks()
	return d.finish()
}

// drawing is draw's working state, filled in passes a reader can take one
// at a time: where labels go, what the axis shows, how tall each lane is,
// then each kind of shape.
type drawing struct {
	*layouter
	bars   []rawBar
	mx     []float64           // each mark's x
	onLine map[string][]extent // what each lane has on its bar line
	ls     []pending           // labels under marks and bars
	row    []int               // each label's row
	nrows  map[string]int      // rows per lane
	inside []float64           // a bar label's start inside its bar, or NaN
	tls    []pending           // time labels on the axis
	trow   []int               // their rows
	single []pending           // a single event's time, shown where it fits
	ticks  []axisTick          // ticks in gaps drawn to scale
	axisY  float64             // the axis line
	violY  float64             // the violations' warning shapes
	laneY  map[string]float64  // each lane's top
	rowsH  []float64           // each lane's height
	height float64
	bottom float64
}

// extent is a stretch of a lane's bar line that something covers.
type extent struct{ a, b float64 }

// axisTick is a time mark in a gap drawn to scale.
type axisTick struct {
	x     float64
	label string
}

// placeLabels puts the marks on the axis, their labels under them, and
// bar labels inside their bar when they fit there.
func (d *drawing) placeLabels() {
	d.onLine = map[string][]extent{}
	d.mx = make([]float64, len(d.marks))
	for i, mk := range d.marks {
		d.mx[i] = d.at(mk.at)
		d.onLine[mk.lane] = append(d.onLine[mk.lane], extent{d.mx[i] - mk.half, d.mx[i] + mk.half})
	}
	for i, mk := range d.marks {
		if mk.label == "" {
			continue
		}
		w := textWidth(mk.label, replyFont, true) + 4
		d.ls = append(d.ls, pending{lane: mk.lane, text: mk.label, class: mk.class, x: clampLabel(d.mx[i], w), w: w, order: i})
	}
	d.inside = make([]float64, len(d.bars))
	for i, b := range d.bars {
		d.inside[i] = math.NaN()
		if b.label == "" {
			continue
		}
		w := textWidth(b.label, replyFont, true)
		sx := b.x0 + 5
		for moved := true; moved; {
			moved = false
			for _, e := range d.onLine[b.lane] {
				if sx < e.b+3 && e.a < sx+w+3 {
					sx, moved = e.b+3, true
				}
			}
		}
		if sx+w <= b.x1-4 {
			d.inside[i] = sx
			d.onLine[b.lane] = append(d.onLine[b.lane], extent{sx, sx + w})
			continue
		}
		d.ls = append(d.ls, pending{lane: b.lane, text: b.label, class: "lbl " + b.labelClass,
			x: clampLabel((b.x0+b.x1)/2, w+4), w: w + 4, order: len(d.marks) + i})
	}
	d.row, d.nrows = rows(d.ls)
}

// planAxis decides what the axis shows: the instants' times first (an
// instant of several events always shows its time, in a second row if
// need be; a single event's time only where it fits), then ticks in gaps
// drawn to scale.
func (d *drawing) planAxis() {
	for k, in := range d.ins {
		if in.s1 > in.s0 {
			w := textWidth(shortTime(in.t), timeFont, true) + 4
			lb := pending{lane: "axis", text: shortTime(in.t), x: clampLabel((in.x0+in.x1)/2, w), w: w, order: k}
			if in.s1-in.s0 > 1 {
				d.tls = append(d.tls, lb)
			} else {
				d.single = append(d.single, lb)
			}
		}
	}
	var tn map[string]int
	d.trow, tn = rows(d.tls)
	for k, lin := range d.gapLin {
		a, b := d.ins[k], d.ins[k+1]
		if !lin || b.x0-a.x1 < 60 {
			continue
		}
		px := (b.x0 - a.x1) / float64(b.t-a.t)
		step := int64(50)
		for _, s := range []int64{50, 100, 200, 500, 1000, 2000, 5000, 10_000, 30_000, 60_000, 300_000, 600_000, 1_800_000, 3_600_000} {
			if step = s; float64(s)*px >= 60 {
				break
			}
		}
		for t := (a.t/step + 1) * step; t < b.t; t += step {
			x := d.xOf(t, false)
			if x < a.x1+22 || x > b.x0-22 {
				continue
			}
			d.ticks = append(d.ticks, axisTick{x, shortTime(t)})
		}
	}
	d.axisY = 6 + float64(max(tn["axis"], 1))*14
	d.violY = d.axisY + 13
}

// free reports whether a time label of width w at x misses the instants'
// times in the axis's first row.
func (d *drawing) free(x, w float64) bool {
	for i, t := range d.tls {
		if d.trow[i] == 0 && x-w/2 < t.x+t.w/2+4 && t.x-t.w/2 < x+w/2+4 {
			return false
		}
	}
	return true
}

// stackLanes gives each lane its height (a row per label row) under the
// axis, and the picture its size and title.
func (d *drawing) stackLanes() {
	axisH := d.axisY + 4
	if len(d.tl.Violations) > 0 {
		axisH = d.violY + 12
	}
	d.laneY = map[string]float64{}
	y := axisH
	for _, key := range d.lanes {
		d.laneY[key] = y
		h := max(laneMin, barY+barH+6+float64(max(d.nrows[key], 1))*rowH+3)
		d.rowsH = append(d.rowsH, h)
		y += h
	}
	d.height = y + 4
	d.bottom = d.height - 4
	p := d.p
	p.w, p.h = d.w, d.height
	p.Title = d.u.Timeline + " — " + d.u.Now + " " + sim.FormatMS(d.tl.Now)
	p.Hint = d.pu.ScrollHint
	p.AxisY = f(d.axisY)
}

// drawLanes names the lanes: each client with its state and token (or
// validity, or the command it will send next), each lock node with its
// key and what it is now (its role where its name does not say it, cut
// off or crashed), the storage with its check and value.
func (d *drawing) drawLanes() {
	tl, u, p := d.tl, d.u, d.p
	for i, c := range tl.Clients {
		sub2 := ""
		if narrate.ShowsToken(c) {
			sub2 = i18n.Fill(u.Token, itoa(c.Token))
		}
		if c.ValidUntil > 0 && c.State != sim.StateIdle && c.State != sim.StateCrashed {
			sub2 = narrate.Validity(u, c.ValidUntil, tl.Now)
		}
		if c.Pending != "" {
			sub2 = "→ " + c.Pending
		}
		p.Lanes = append(p.Lanes, lane(d.laneY[c.ID], d.rowsH[i], strings.ToUpper(c.ID), narrate.State(u, tl, c), sub2, "client c-"+c.ID))
	}
	if k, ok := d.laneIdx[sim.Operator]; ok {
		p.Lanes = append(p.Lanes, lane(d.laneY[sim.Operator], d.rowsH[k], u.You, "", "", "operator"))
	}
	for _, n := range tl.Nodes {
		label, sub, sub2 := narrate.NodeLabel(u, n.Name), tl.Scenario.LockKey(), narrate.NodeState(u, n)
		if len(tl.Nodes) == 1 && !n.Model {
			label = u.Lock
		}
		if n.Model {
			sub, sub2 = sub2, "" // a modelled service holds no Redis key
		}
		// the key every lock node holds, and under it what the node is now
		// (one line would not fit the label column)
		p.Lanes = append(p.Lanes, lane(d.laneY[n.Name], d.rowsH[d.laneIdx[n.Name]], label, sub, sub2, "node"))
	}
	k := len(d.lanes) - 1
	st := lane(d.laneY["storage"], d.rowsH[k], u.Storage, storageSub(tl, u), storageValue(tl, ", "), "node")
	st.Sub2Data = true
	p.Lanes = append(p.Lanes, st)
}

// drawAxis draws the instants with their times, the broken gaps with
// their lengths, and the ticks, each label only where it has room.
func (d *drawing) drawAxis() {
	p, axisY, bottom := d.p, d.axisY, d.bottom
	for _, t := range d.single {
		if d.free(t.x, t.w) {
			d.tls = append(d.tls, t)
			d.trow = append(d.trow, 0)
		}
	}
	for i, t := range d.tls {
		in := d.ins[t.order]
		ly := 6 + float64(d.trow[i]+1)*14 - 3
		it := Instant{X: f(in.x0), W: f(in.x1 - in.x0), Y: f(axisY), H: f(bottom - axisY), Label: t.text, LX: f(t.x), LY: f(ly),
			Several: in.s1-in.s0 > 1, LineX1: f(in.x0 + 2), LineX2: f(in.x1 - 2), LineY: f(axisY)}
		p.Instants = append(p.Instants, it)
		p.box("time", t.text, t.x-t.w/2+2, ly-timeFont*0.8, t.x+t.w/2-2, ly+timeFont*0.25)
	}
	for k, lin := range d.gapLin {
		if lin {
			continue
		}
		a, b := d.ins[k], d.ins[k+1]
		x := (a.x1 + b.x0) / 2
		br := Break{X: f(x - 5), Y: f(axisY - 6), H: f(bottom - axisY + 6),
			D: "M" + f(x-7) + " " + f(axisY+5) + "l6 -11M" + f(x+1) + " " + f(axisY+5) + "l6 -11"}
		label := "+" + sim.FormatDuration(b.t-a.t)
		if ly, ok := d.axisLabel(label, x); ok {
			br.Label, br.LX, br.LY = label, f(x), f(ly)
		}
		p.Breaks = append(p.Breaks, br)
	}
	for _, t := range d.ticks {
		tick := Tick{X: f(t.x), Y1: f(axisY), Y2: f(bottom)}
		if ly, ok := d.axisLabel(t.label, t.x); ok {
			tick.Label, tick.Y = t.label, f(ly)
		}
		p.Ticks = append(p.Ticks, tick)
	}
}

// axisLabel places a break's or a tick's label at x in the axis's first
// row if it is free there, and reports its baseline.
func (d *drawing) axisLabel(label string, x float64) (float64, bool) {
	w := textWidth(label, timeFont, false) + 4
	if !d.free(x, w) {
		return 0, false
	}
	ly := 6 + 14 - 3.0
	d.tls = append(d.tls, pending{lane: "axis", text: label, x: x, w: w})
	d.trow = append(d.trow, 0)
	d.p.box("time", label, x-w/2+2, ly-timeFont*0.8, x+w/2-2, ly+timeFont*0.25)
	return ly, true
}

// drawBars draws the states and the lock keys' lives, each label inside
// its bar where placeLabels found it room.
func (d *drawing) drawBars() {
	p := d.p
	for i, b := range d.bars {
		by := d.laneY[b.lane] + barY
		bar := Bar{X: f(b.x0), Y: f(by), W: f(b.x1 - b.x0), H: f(barH), Class: b.class, Title: b.title}
		if x := d.inside[i]; !math.IsNaN(x) {
			bar.Label, bar.LabelX, bar.LabelY = b.label, f(x), f(by+15)
			p.box("barlabel", b.label, x, by+15-replyFont*0.8, x+textWidth(b.label, replyFont, true), by+15+replyFont*0.25)
		}
		p.Bars = append(p.Bars, bar)
	}
}

// drawViolations draws each violation as a band across the lanes and a
// warning shape on the axis, numbered as the list under the picture.
func (d *drawing) drawViolations() {
	p, violY := d.p, d.violY
	for _, s := range d.slots {
		if len(s.viol) == 0 {
			continue
		}
		var titles []string
		for _, n := range s.viol {
			titles = append(titles, "⚠"+strconv.Itoa(n)+" "+narrate.ViolationText(d.u, d.tl.Violations[n-1]))
		}
		num := violNums(s.viol)
		p.Bands = append(p.Bands, Band{X: f(s.x - 3), Y: f(violY + 9), W: "6", H: f(d.bottom - violY - 9), Class: "viol",
			D:   "M" + f(s.x) + " " + f(violY-8) + "l8.5 15h-17z",
			Num: num, NumX: f(s.x + 11), NumY: f(violY + 5), Title: strings.Join(titles, "\n")})
		p.box("viol", "", s.x-8.5, violY-8, s.x+8.5, violY+7)
		p.box("violnum", num, s.x+11, violY+5-11*0.8, s.x+11+textWidth(num, 11, true), violY+5+11*0.25)
	}
}

// drawMarks draws the markers on their lanes and the labels under them.
func (d *drawing) drawMarks() {
	p := d.p
	for i, mk := range d.marks {
		m := mk.m
		x, cy := d.mx[i], d.laneY[mk.lane]+barY+barH/2
		m.X, m.Y = f(x), f(cy)
		switch m.Shape {
		case "none":
			continue
		case "end", "node":
			m.D = shapeAt(m.D, x, cy)
			p.box("marker", m.Title, x-8, cy-8, x+8, cy+8)
		default:
			if mk.half > markerR {
				m.Shape, m.RX, m.RY, m.RW, m.RH = "pill", f(x-mk.half), f(cy-markerR), f(2*mk.half), f(2*markerR)
			} else {
				m.Shape, m.R = "circle", f(markerR)
			}
			p.box("marker", m.Num, x-mk.half, cy-markerR, x+mk.half, cy+markerR)
		}
		p.Markers = append(p.Markers, m)
	}
	for i, lb := range d.ls {
		ly := d.laneY[lb.lane] + barY + barH + 6 + float64(d.row[i]+1)*rowH - 3
		p.Labels = append(p.Labels, Label{Class: lb.class, X: f(lb.x), Y: f(ly), Text: lb.text})
		p.box("label", lb.text, lb.x-lb.w/2+2, ly-replyFont*0.8, lb.x+lb.w/2-2, ly+replyFont*0.25)
	}
}

// finish sizes the picture to what was drawn (a label near the end may
// reach past the last instant) and places the "now" line.
func (d *drawing) finish() *Picture {
	p, height := d.p, d.height
	for _, b := range p.boxes {
		p.w = max(p.w, math.Ceil(b.x1+6))
	}
	w := p.w
	p.ViewBox, p.Height, p.Width = "0 0 "+f(w)+" "+f(height), f(height), f(w)
	p.LabelBox, p.PlotBox = "0 0 "+f(seam)+" "+f(height), f(seam)+" 0 "+f(w-seam)+" "+f(height)
	p.LabelPct, p.PlotPct, p.SeamW = f(100*seam/w), f(100*(w-seam)/w), f(seam)
	nx := d.xOf(d.tl.Now, true)
	p.NowX, p.NowY1, p.NowY2, p.NowL = f(nx), f(d.axisY-4), f(d.bottom), d.u.Now+" "+sim.FormatMS(d.tl.Now)
	return p
}

func (p *Picture) box(kind, text string, x0, y0, x1, y1 float64) {
	p.boxes = append(p.boxes, box{kind, text, x0, y0, x1, y1})
}

// clampLabel keeps a label centred under x from starting left of the plot.
func clampLabel(x, w float64) float64 { return max(x, seam+4+w/2) }

// Shapes are drawn around (0,0) and moved to their place: "M{x} {y}"
// starts them, relative moves draw them.
func endShape(end string) string {
	switch end {
	case sim.EndExpired: // an hourglass
		return "m-6 -7h12l-12 14h12z"
	case sim.EndDeleted: // a cross
		return "m-5 -5l10 10m0 -10l-10 10"
	case sim.EndOverwritten: // a slash over a line
		return "m-6 6l12 -12m-12 12h12"
	}
	return "m-6 0a6 6 0 1 0 12 0a6 6 0 1 0 -12 0m1 5l10 -10" // lost: a circle struck through
}

func nodeShape(verb string) string {
	switch verb {
	case "down":
		return "m-7 -5h14l-7 11z"
	case "up":
		return "m-7 5h14l-7 -11z"
	}
	return "m0 -7l7 7l-7 7l-7 -7z" // restart, a clock jump, slowness: a diamond
}

func shapeAt(d string, x, y float64) string { return "M" + f(x) + " " + f(y) + d }

// textWidth estimates a text's width at a type size, generously, so the
// boxes hold the text in the wide fonts a browser may pick (DejaVu Sans
// Bold measures "OK" at 0.86 em a letter): capitals and symbols, digits,
// small letters, narrow marks, and a full em for Japanese. A browser test
// (TestBrowserPictureText) checks the estimate against getBBox.
func textWidth(text string, size float64, bold bool) float64 {
	w := 0.0
	for _, r := range text {
		switch {
		case r >= 0x2E80:
			w += 1.0
		case r == ' ' || r == '.' || r == ',' || r == ':' || r == '\'' || r == 'i' || r == 'l' || r == 'j' || r == '|' || r == 'f' || r == 't':
			w += 0.44
		case r >= '0' && r <= '9':
			w += 0.70
		case r >= 'a' && r <= 'z':
			w += 0.72
		default:
			w += 0.84
		}
	}
	w *= size
	if bold {
		w *= 1.04
	}
	return w
}

func lane(y, h float64, label, sub, sub2, class string) Lane {
	return Lane{Y: f(y), LabelY: f(y + 24), SubY: f(y + 42), Sub2Y: f(y + 58), LineY: f(y + h),
		Label: label, Sub: sub, Sub2: sub2, Class: class}
}

// Reply labels: how a reply reads under its marker and in a tooltip. All
// of the picture's reply wording is here, in one place.

// groupReply summarises a run of replies at one instant in reading order:
// each distinct reply once, with a count when it repeats, and a node that
// refused (it is down) in words — "OK · 1 · \"5e7810…\"", "OK ×3 · down ×2".
func groupReply(u *i18n.UI, evs []sim.Event) string {
	counts := map[string]int{}
	var order []string
	for _, e := range evs {
		r := shortReply(e)
		if e.Refused {
			r = u.Picture.NodeMark["down"]
		}
		if counts[r] == 0 {
			order = append(order, r)
		}
		counts[r]++
	}
	var parts []string
	for _, r := range order {
		if n := counts[r]; n > 1 {
			r += " ×" + strconv.Itoa(n)
		}
		parts = append(parts, r)
	}
	return strings.Join(parts, " · ")
}

// storageSub is what the storage's keys hold beside its record: the
// ledger's charges, or its token key's value as it stands — not "the
// highest token": a two-command check can leave a lower one there. A
// storage that keeps no token key says it checks none (fencing off) or
// has stored none yet.
func storageSub(tl *sim.Timeline, u *i18n.UI) string {
	switch {
	case tl.Storage.Kind == sim.StoreCharges:
		return i18n.Fill(u.Charges, itoa(int64(tl.Storage.ChargesLen)))
	case tl.Storage.HasToken:
		return i18n.Fill(u.TokenKeyIs, printable(tl.Storage.TokenText))
	case !tl.Storage.Fenced:
		return u.NoCheck
	}
	return u.NoTokenYet
}

// storageValue is the record's current value as the lane shows it (for a
// ledger: who charged, the charges joined by sep: ", " in the lane, the
// language's own list separator in a sentence).
func storageValue(tl *sim.Timeline, sep string) string {
	if tl.Storage.Kind == sim.StoreCharges {
		if len(tl.Storage.Charges) == 0 {
			return "—"
		}
		v := printable(strings.Join(tl.Storage.Charges, sep))
		if tl.Storage.ChargesLen > len(tl.Storage.Charges) {
			v += sep + "…"
		}
		return v
	}
	v := tl.Storage.Value
	if v == "" {
		return "—"
	}
	if r := []rune(v); len(r) > 16 {
		v = string(r[:15]) + "…"
	}
	return "“" + printable(v) + "”"
}

// printable is a value typed by hand as the picture may draw it: a
// control or bidi character, or a byte that is not UTF-8, written as
// redis-cli writes a byte (\x00), so the exported SVG stays XML (which
// has no NUL) and no value can turn the picture's text around. Other
// characters, Japanese and Chinese included, are drawn as they are.
func printable(v string) string {
	ok := true
	for _, r := range v {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || unicode.In(r, unicode.Cf) {
			ok = false
			break
		}
	}
	if ok {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); {
		r, n := utf8.DecodeRuneInString(v[i:])
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || unicode.In(r, unicode.Cf) {
			for _, c := range []byte(v[i : i+n]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		} else {
			b.WriteString(v[i : i+n])
		}
		i += n
	}
	return b.String()
}

// shortReply is the reply as it fits under a marker: OK, nil, 1, 0.
func shortReply(e sim.Event) string {
	switch e.Reply.Kind {
	case rediscli.ReplyNil:
		return "nil"
	case rediscli.ReplyInt:
		return itoa(e.Reply.Int)
	case rediscli.ReplyError:
		return "ERR"
	}
	r := e.Reply.String()
	switch {
	case e.Refused:
		return "✕"
	case e.Model && len(r) > 4: // a model's sentence: the log has it in words
		return "✓"
	case len(r) > 8:
		return r[:7] + "…"
	}
	return r
}

func shortTime(ms int64) string {
	if ms%1000 == 0 {
		return itoa(ms/1000) + "s"
	}
	return sim.FormatMS(ms)
}

func seconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + "s"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// FirstNew is the Seq of the first event the last action produced, so the
// page can highlight what just happened.
func FirstNew(tl *sim.Timeline) int {
	last := len(tl.Actions) - 1
	for _, e := range tl.Events {
		if e.Step == last && last >= 0 {
			return e.Seq
		}
	}
	return len(tl.Events)
}

// TextStyle is the type a class of the picture's texts is drawn in, as
// picture.templ's classes and static/css/app.css set it.
type TextStyle struct {
	Size float64
	Bold bool
}

// TextStyles are the styles the layout reserves room for, by class: the
// contract between the boxes computed here and the stylesheet, which the
// browser test TestBrowserPictureText checks against what a browser draws.
var TextStyles = map[string]TextStyle{"lbl": {replyFont, true}, "instantlabel": {timeFont, true}, "ticklabel": {timeFont, false},
	"warnnum": {11, true}, "barlabel": {replyFont, true}, "mknum": {numFont, true}}

// TextWidth is the width the layout reserves for text in style s.
func TextWidth(text string, s TextStyle) float64 { return textWidth(text, s.Size, s.Bold) }

// tooltip is an event's line in its marker's tooltip: number, time, and
// its narration (who → to whom: what → the answer; or who: what happened).
func tooltip(u *i18n.UI, e sim.Event) string {
	n := narrate.Of(u, e)
	line := "#" + itoa(int64(e.Seq+1)) + " " + sim.FormatMS(e.At) + " "
	switch {
	case n.Message:
		return line + n.Actor + " → " + n.Target + u.LabelSep() + n.What + " → " + n.Reply
	case e.Kind == sim.KindCommand:
		return line + n.Actor + u.LabelSep() + n.What + " → " + n.Reply
	case e.Kind == sim.KindNode:
		return line + n.What
	}
	return line + n.Actor + u.LabelSep() + n.What
}

// spanTitle is client c's bar of span s (ending at to, or now) in
// words: its state and when, as its lane says it — a holding bar that
// began after its lock had gone (by the log's order) thinks it holds,
// and one whose lock left every server under it is holding until then
// and thinks it holds from then.
func spanTitle(u *i18n.UI, tl *sim.Timeline, c sim.ClientView, s sim.Span, to int64) string {
	open := s.To < 0
	name := narrate.SpanState(u, tl, c, s.State, s.From)
	if s.State == sim.StateHolding && name == u.StateName[sim.StateHolding] {
		if narrate.GoneBefore(tl, c, s.From) {
			return u.Believes + " " + Span(u, s.From, to, open)
		}
		if end := narrate.HeldUntil(tl, c, s.From); end >= s.From && (end < to || open) {
			after := narrate.SpanState(u, tl, c, s.State, end+1)
			return i18n.Fill(u.SpanThen, name+" "+Span(u, s.From, end, false), after+" "+Span(u, end, to, open))
		}
	}
	return name + " " + Span(u, s.From, to, open)
}

// Span is when a bar lasted, as its tooltip says it: "2.000s–5.000s";
// a bar still open at the timeline's end "from 2.000s" (it has no end
// yet: a closed range would say it stopped); one that began and ended at
// one instant, that instant.
func Span(u *i18n.UI, from, to int64, open bool) string {
	switch {
	case open:
		return i18n.Fill(u.Since, sim.FormatMS(from)) // still going: no end yet
	case from != to:
		return sim.FormatMS(from) + "–" + sim.FormatMS(to)
	}
	return sim.FormatMS(from)
}

// timeline.go lays out the timeline picture: it turns a sim.Timeline into
// positioned shapes (all numbers preformatted) that timeline.templ draws.
package web

import (
	"math"
	"strconv"
	"strings"

	"locklab/sim"
)

// Picture geometry, in SVG user units. The viewBox scales to the page.
const (
	svgW    = 1000.0
	labelW  = 128.0
	padR    = 24.0
	axisH   = 30.0
	laneH   = 76.0
	barY    = 18.0 // bar top within a lane
	barH    = 22.0
	markerR = 9.0
	// seam is where the label strip ends and the plot begins: a little
	// left of t=0, so a marker or tick label at t=0 is not cut in half.
	seam = labelW - 16
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
	labels            labelRows
	ViewBox, Height   string
	Title             string
	Lanes             []Lane
	Ticks             []Tick
	Bars              []Bar
	Markers           []Marker
	Bands             []Band
	NowX, NowY2, NowL string
	pictureText       // names for assistive technology (a11y_i18n.go)
}

// Lane is one horizontal row with its label.
type Lane struct {
	Y, LabelY, SubY, Sub2Y, LineY string
	Label, Sub, Sub2, Class       string
}

// Tick is a time mark on the axis.
type Tick struct{ X, Label, Y2 string }

// Bar is a stretch of state: a client's state or a lock key's life.
type Bar struct {
	X, Y, W, H   string
	Class, Label string
	LabelX       string
	LabelY       string
	Title        string
}

// Marker is one event on a lane: a numbered circle (the event log's #)
// with its reply below, or a storage verdict.
type Marker struct {
	X, Y, R       string
	ReplyX        string // the label's centre: the marker's, moved right near t=0
	Num           string
	Class, Reply  string
	ReplyY, Title string
	// lane and y place an end mark's label after the commands' labels
	// (see placeEnds); commands' markers leave them empty.
	lane string
	y    float64
}

// Band marks a violation across every lane, with a warning shape and a
// number keyed to the list under the picture.
type Band struct {
	X, Y, W, H, Class string
	IconX, IconY      string
	Num, Title        string
	More              string // the last number when several share the shape
}

func f(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// scale picks the time range and tick step so the picture holds the whole
// timeline plus the remaining TTL of a live lock.
func scale(tl *sim.Timeline) (span, step int64) {
	end := max(tl.Now, 10_000)
	for _, l := range tl.Locks {
		if l.End == "" && l.Expiry > end {
			end = l.Expiry
		}
	}
	end += end / 12
	for _, s := range []int64{1000, 2000, 5000, 10_000, 30_000, 60_000, 300_000, 600_000, 1_800_000, 3_600_000} {
		step = s
		if end/s <= 12 {
			break
		}
	}
	return (end/step + 1) * step, step
}

// layout builds the picture for tl in the page's language. Lanes, top to
// bottom: each client, each lock node (one Redis, a primary and its
// replica, five Redlock nodes, or a modelled service), the storage.
func layout(tl *sim.Timeline, u *UI, newFrom int) *Picture {
	span, step := scale(tl)
	x := func(t int64) float64 { return labelW + float64(t)/float64(span)*(svgW-labelW-padR) }
	nodes := tl.Nodes
	nLanes := len(tl.Clients) + len(nodes) + 1
	height := axisH + float64(nLanes)*laneH + 6
	p := &Picture{ViewBox: "0 0 " + f(svgW) + " " + f(height), Height: f(height),
		LabelBox: "0 0 " + f(seam) + " " + f(height), PlotBox: f(seam) + " 0 " + f(svgW-seam) + " " + f(height),
		LabelPct: f(100 * seam / svgW), PlotPct: f(100 * (svgW - seam) / svgW), SeamW: f(seam)}
	p.Title = u.Timeline + " — " + u.Now + " " + sim.FormatMS(tl.Now)

	for t := int64(0); t <= span; t += step {
		p.Ticks = append(p.Ticks, Tick{X: f(x(t)), Label: shortTime(t), Y2: f(height - 6)})
	}
	laneY := func(i int) float64 { return axisH + float64(i)*laneH }
	laneOf := map[string]float64{} // lane key → y

	// client lanes
	for i, c := range tl.Clients {
		y := laneY(i)
		laneOf[c.ID] = y
		sub2 := ""
		if c.Token > 0 && c.State != sim.StateIdle && c.State != sim.StateCrashed {
			sub2 = fill(u.Token, itoa(c.Token))
		}
		if c.ValidUntil > 0 && c.State != sim.StateIdle && c.State != sim.StateCrashed {
			sub2 = fill(u.ValidUntil, sim.FormatMS(c.ValidUntil))
		}
		if c.Pending != "" {
			sub2 = "→ " + c.Pending
		}
		p.Lanes = append(p.Lanes, lane(y, strings.ToUpper(c.ID), u.StateName[c.State], sub2, "client c-"+c.ID))
		for _, s := range c.Spans {
			to := s.To
			if to < 0 {
				to = tl.Now
			}
			if s.State == sim.StateIdle || (to <= s.From && s.To >= 0) {
				continue
			}
			w := max(x(to)-x(s.From), 3)
			p.Bars = append(p.Bars, Bar{
				X: f(x(s.From)), Y: f(y + barY), W: f(w), H: f(barH),
				Class: "bar st-" + string(s.State) + " c-" + c.ID,
				Title: strings.ToUpper(c.ID) + ": " + u.StateName[s.State] + " " + sim.FormatMS(s.From) + "–" + sim.FormatMS(to),
			})
		}
	}

	// node lanes: the lock key's life on each node, value by value
	for i, n := range nodes {
		ry := laneY(len(tl.Clients) + i)
		laneOf[n.Name] = ry
		label, sub := nodeLabel(u, n.Name), tl.Scenario.LockKey()
		if len(nodes) == 1 && !n.Model {
			label = u.Lock
		}
		if st := nodeState(u, n); st != "" {
			sub = st
		}
		p.Lanes = append(p.Lanes, lane(ry, label, sub, "", "node"))
		p.lockBars(tl, u, n.Name, ry, x)
	}

	// storage lane and command markers; labels under markers take the
	// first of two rows where they do not overlap the previous label
	sy := laneY(len(tl.Clients) + len(nodes))
	laneOf["storage"] = sy
	p.Lanes = append(p.Lanes, lane(sy, u.Storage, storageSub(tl, u), storageValue(tl, u), "node"))
	p.labels = labelRows{}
	p.markers(tl, u, newFrom, laneOf, x)
	p.placeEnds()

	// violations: a band across the lanes, a warning shape, a number; the
	// shape sits on the axis, so a time label under it gives way (the
	// list below the picture says the violation's time)
	lastX := -1e9
	for i, v := range tl.Violations {
		vx := x(v.At)
		if n := len(p.Bands); n > 0 && vx-lastX < 10 {
			// violations at one instant share one shape: "1–3"
			b := &p.Bands[n-1]
			b.More = "–" + itoa(int64(i+1)) // beside the shape: "⚠1–3"
			b.Title += "\n" + violationText(u, v)
			continue
		}
		lastX = vx
		p.Bands = append(p.Bands, Band{X: f(vx - 4), Y: f(axisH), W: "8", H: f(float64(nLanes) * laneH), Class: "viol",
			IconX: f(vx), IconY: f(axisH - 4), Num: itoa(int64(i + 1)), Title: violationText(u, v)})
		for j, t := range p.Ticks {
			if tx, _ := strconv.ParseFloat(t.X, 64); math.Abs(tx-vx) < 16 {
				p.Ticks[j].Label = ""
			}
		}
	}
	p.NowX, p.NowY2, p.NowL = f(x(tl.Now)), f(height-6), u.Now+" "+sim.FormatMS(tl.Now)
	return p
}

// lockBars draws one node's lock spans, how each ended, and the TTL left.
func (p *Picture) lockBars(tl *sim.Timeline, u *UI, node string, ry float64, x func(int64) float64) {
	for _, l := range tl.Locks {
		if l.Node != node {
			continue
		}
		to := l.To
		if to < 0 {
			to = tl.Now
		}
		owner := strings.ToUpper(l.Owner)
		label := owner
		if l.Expiry == 0 && !tl.Scenario.Coord {
			label += " · " + u.NoTTL
		}
		p.Bars = append(p.Bars, Bar{X: f(x(l.From)), Y: f(ry + barY), W: f(max(x(to)-x(l.From), 3)), H: f(barH),
			Class: "bar lock c-" + l.Owner, Label: label, LabelX: f(x(l.From) + 6), LabelY: f(ry + barY + 15),
			Title: tl.Scenario.LockKey() + " = " + l.Value + " (" + owner + ")"})
		by := strings.ToUpper(l.DeletedBy)
		switch {
		case l.End == sim.EndExpired:
			p.Markers = append(p.Markers, endMark(node, x(to), ry, "end expired", "⌛", u.Expired, fill(u.ExpiredAt, owner)+" "+sim.FormatMS(to)))
		case l.End == sim.EndDeleted:
			class := "end deleted"
			if l.DeletedBy != l.Owner {
				class += " foreign" // someone else's lock: drawn as an error
			}
			p.Markers = append(p.Markers, endMark(node, x(to), ry, class, "✕", fill(u.DeletedBy, by), fill(u.DeletedBy, by)+" "+sim.FormatMS(to)))
		case l.End == sim.EndOverwritten:
			p.Markers = append(p.Markers, endMark(node, x(to), ry, "end deleted foreign", "✎", fill(u.Overwritten, by), fill(u.Overwritten, by)+" "+sim.FormatMS(to)))
		case l.End == sim.EndLost:
			p.Markers = append(p.Markers, endMark(node, x(to), ry, "end deleted foreign", "∅", u.LostData, u.LostData+" "+sim.FormatMS(to)))
		case l.Expiry > tl.Now:
			left := fill(u.TTLLeft, seconds(l.Expiry-tl.Now))
			p.Bars = append(p.Bars, Bar{X: f(x(tl.Now)), Y: f(ry + barY), W: f(x(l.Expiry) - x(tl.Now)), H: f(barH),
				Class: "bar ttl c-" + l.Owner, Label: left, LabelX: f(x(tl.Now) + 6), LabelY: f(ry + barY + 15),
				Title: "PTTL " + itoa(l.Expiry-tl.Now) + " ms"})
		}
	}
}

// markers draws the commands: a client's commands on its own lane, the
// storage's writes on the storage lane, what a node or a model link did on
// that node's lane. Several commands a client sent at one instant (a
// Redlock round) become one marker, so they do not smear along the axis.
func (p *Picture) markers(tl *sim.Timeline, u *UI, newFrom int, laneOf map[string]float64, x func(int64) float64) {
	labels := p.labels
	last := map[string]float64{}
	evs := tl.Events
	for i := 0; i < len(evs); i++ {
		e := evs[i]
		if e.Kind != sim.KindCommand {
			continue
		}
		key := e.Actor
		if _, ok := laneOf[key]; !ok || e.Node == "storage" {
			key = e.Node
		}
		ly, ok := laneOf[key]
		if !ok {
			continue
		}
		// gather a run of the same client's commands at the same instant
		j := i
		for e.Node != "storage" && j+1 < len(evs) && evs[j+1].Kind == sim.KindCommand && evs[j+1].Actor == e.Actor &&
			evs[j+1].At == e.At && evs[j+1].Node != "storage" {
			j++
		}
		if j-i < 2 {
			j = i
		}
		mx := x(e.At)
		if prev, ok := last[key]; ok && mx < prev+2*markerR+2 {
			mx = prev + 2*markerR + 2
		}
		m := Marker{X: f(mx), Y: f(ly + barY + barH/2), R: f(markerR), Num: itoa(int64(e.Seq + 1)), Class: "mk", Reply: shortReply(e)}
		var titles []string
		for k := i; k <= j; k++ {
			titles = append(titles, "#"+itoa(int64(evs[k].Seq+1))+" "+sim.FormatMS(evs[k].At)+" "+strings.ToUpper(evs[k].Actor)+
				" → "+nodeLabel(u, evs[k].Node)+": "+commandText(u, evs[k])+" → "+replyText(evs[k], u))
		}
		m.Title = strings.Join(titles, "\n")
		if j > i {
			m.Num, m.Class, m.Reply = itoa(int64(e.Seq+1))+"–"+itoa(int64(evs[j].Seq+1)), "mk group", groupReply(evs[i:j+1])
			m.R = f(markerR + 4)
			mx += 10
			m.X = f(mx)
		}
		if e.Accepted != nil {
			m.Class += map[bool]string{true: " ok", false: " no"}[*e.Accepted]
			m.Reply = verdict(e, u)
		}
		if e.Refused || e.Lost {
			m.Class += " no"
		}
		if e.Seq >= newFrom {
			m.Class += " new"
		}
		last[key] = mx
		if j > i {
			last[key] = mx + 10
		}
		m.ReplyX = f(labelX(mx, m.Reply))
		m.ReplyY = f(ly + barY + barH + 15 + labels.place(key, labelX(mx, m.Reply), m.Reply))
		p.Markers = append(p.Markers, m)
		i = j
	}
}

// replyText is the reply as the log shows it, or why there was none.
func replyText(e sim.Event, u *UI) string {
	switch {
	case e.Refused:
		return u.Refused
	case e.Lost:
		return e.Reply.String() + " (" + fill(u.LostReply, strings.ToUpper(e.Actor)) + ")"
	}
	return eventReply(u, e)
}

// groupReply summarises a run of replies: "OK×4 · ✕1".
func groupReply(evs []sim.Event) string {
	counts := map[string]int{}
	var order []string
	for _, e := range evs {
		r := shortReply(e)
		if e.Refused {
			r = "✕"
		}
		if counts[r] == 0 {
			order = append(order, r)
		}
		counts[r]++
	}
	var parts []string
	for _, r := range order {
		parts = append(parts, r+"×"+strconv.Itoa(counts[r]))
	}
	return strings.Join(parts, " ")
}

// labelRows remembers, per lane, where each of two label rows ends.
type labelRows map[string]*[2]float64

// place returns the vertical offset (0 or 12) for a label centred at x.
func (lr labelRows) place(lane string, x float64, text string) float64 {
	rows, ok := lr[lane]
	if !ok {
		rows = &[2]float64{-1e9, -1e9}
		lr[lane] = rows
	}
	w := textWidth(text) + 6
	start := x - w/2
	row := 0
	if start < rows[0] {
		row = 1
		if rows[1] > rows[0] && start < rows[1] {
			row = 0
		}
	}
	rows[row] = x + w/2
	return float64(row) * 12
}

// textWidth estimates a reply label's width in the picture's units (11 px
// type): about 6.4 for Latin letters and digits, a full em for the wide
// characters of Japanese, which would otherwise run into each other.
func textWidth(text string) float64 {
	w := 0.0
	for _, r := range text {
		if r >= 0x2E80 {
			w += 11
		} else {
			w += 6.4
		}
	}
	return w
}

func lane(y float64, label, sub, sub2, class string) Lane {
	return Lane{Y: f(y), LabelY: f(y + 24), SubY: f(y + 42), Sub2Y: f(y + 58), LineY: f(y + laneH),
		Label: label, Sub: sub, Sub2: sub2, Class: class}
}

func endMark(lane string, x, y float64, class, glyph, label, title string) Marker {
	return Marker{X: f(x), Y: f(y + barY + barH/2), R: "0", Num: glyph, Class: class, Reply: label,
		ReplyX: f(labelX(x, label)), ReplyY: f(y + barY + barH + 15), Title: title, lane: lane, y: y}
}

// placeEnds gives the labels of the lock ends ("expired", "deleted by B")
// the first row where they do not run into a command's label on the same
// lane.
func (p *Picture) placeEnds() {
	for i, m := range p.Markers {
		if m.lane == "" {
			continue
		}
		x, _ := strconv.ParseFloat(m.X, 64)
		p.Markers[i].ReplyY = f(m.y + barY + barH + 15 + p.labels.place(m.lane, labelX(x, m.Reply), m.Reply))
	}
}

// labelX keeps a label centred under x from starting left of the plot.
func labelX(x float64, text string) float64 {
	half := (textWidth(text) + 6) / 2
	return max(x, labelW-8+half)
}

func storageSub(tl *sim.Timeline, u *UI) string {
	switch {
	case tl.Storage.Kind == sim.StoreCharges:
		return fill(u.Charges, itoa(int64(len(tl.Storage.Charges))))
	case !tl.Storage.Fenced:
		return u.NoCheck
	}
	return fill(u.MaxToken, itoa(tl.Storage.LastToken))
}

// storageValue is the record's current value as the lane shows it (for a
// ledger: who charged).
func storageValue(tl *sim.Timeline, u *UI) string {
	if tl.Storage.Kind == sim.StoreCharges {
		if len(tl.Storage.Charges) == 0 {
			return "—"
		}
		return strings.Join(tl.Storage.Charges, ", ")
	}
	v := storageText(u, tl.Storage.Value)
	if v == "" {
		return "—"
	}
	if r := []rune(v); len(r) > 16 {
		v = string(r[:15]) + "…"
	}
	return "“" + v + "”"
}

// shortReply is the reply as it fits under a marker: OK, nil, 1, 0.
func shortReply(e sim.Event) string {
	switch e.Reply.Kind {
	case sim.ReplyNil:
		return "nil"
	case sim.ReplyInt:
		return itoa(e.Reply.Int)
	case sim.ReplyError:
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

func verdict(e sim.Event, u *UI) string {
	word := u.Rejected
	switch {
	case *e.Accepted:
		word = u.Accepted
	case alreadyDone(e):
		word = u.AlreadyPaid
	}
	if e.Token > 0 {
		return "#" + itoa(e.Token) + " " + word
	}
	return word
}

// alreadyDone: a write the storage turned into a no-op because the same
// request was already applied (the idempotency key was taken). Not a
// refusal: the order is paid, once, which is what the client wanted.
func alreadyDone(e sim.Event) bool {
	return e.Accepted != nil && !*e.Accepted && e.Script == "charge-once"
}

func violationText(u *UI, v sim.Violation) string {
	args := make([]string, 2)
	for i, a := range v.Actors {
		if i < 2 {
			args[i] = strings.ToUpper(a)
		}
	}
	if v.Kind == sim.DoubleCharge && args[0] == args[1] {
		return fill(u.ChargedTwiceBy, args[0]) // one client charged twice (a retry)
	}
	return fill(u.ViolationText[v.Kind], args...)
}

// commandText is the command as one line, a Lua body replaced by its name.
func commandText(u *UI, e sim.Event) string {
	cmd := append([]string(nil), e.Command...)
	if e.Model {
		cmd = modelCommand(u, cmd)
	}
	if e.Script != "" && len(cmd) > 1 {
		cmd[1] = "‹" + e.Script + ".lua›"
	}
	return strings.Join(cmd, " ")
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

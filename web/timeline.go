// timeline.go lays out the timeline picture: it turns a sim.Timeline into
// positioned shapes (all numbers preformatted) that timeline.templ draws.
package web

import (
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
	ViewBox, Height   string
	Title             string
	Lanes             []Lane
	Ticks             []Tick
	Bars              []Bar
	Markers           []Marker
	Bands             []Band
	NowX, NowY2, NowL string
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
	Num           string
	Class, Reply  string
	ReplyY, Title string
}

// Band marks a violation across every lane, with a warning shape and a
// number keyed to the list under the picture.
type Band struct {
	X, Y, W, H, Class string
	IconX, IconY      string
	Num, Title        string
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

// layout builds the picture for tl in the page's language.
func layout(tl *sim.Timeline, u *UI, newFrom int) *Picture {
	span, step := scale(tl)
	x := func(t int64) float64 { return labelW + float64(t)/float64(span)*(svgW-labelW-padR) }
	nLanes := len(tl.Clients) + 2
	height := axisH + float64(nLanes)*laneH + 6
	p := &Picture{ViewBox: "0 0 " + f(svgW) + " " + f(height), Height: f(height),
		LabelBox: "0 0 " + f(seam) + " " + f(height), PlotBox: f(seam) + " 0 " + f(svgW-seam) + " " + f(height),
		LabelPct: f(100 * seam / svgW), PlotPct: f(100 * (svgW - seam) / svgW)}
	p.Title = u.Timeline + " — " + u.Now + " " + sim.FormatMS(tl.Now)

	for t := int64(0); t <= span; t += step {
		p.Ticks = append(p.Ticks, Tick{X: f(x(t)), Label: shortTime(t), Y2: f(height - 6)})
	}
	laneY := func(i int) float64 { return axisH + float64(i)*laneH }

	// client lanes
	for i, c := range tl.Clients {
		y := laneY(i)
		tok := ""
		if c.Token > 0 && c.State != sim.StateIdle && c.State != sim.StateCrashed {
			tok = fill(u.Token, itoa(c.Token))
		}
		p.Lanes = append(p.Lanes, lane(y, strings.ToUpper(c.ID), u.StateName[c.State], tok, "client c-"+c.ID))
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

	// Redis lane: the lock key's life, value by value
	ry := laneY(len(tl.Clients))
	p.Lanes = append(p.Lanes, lane(ry, u.Lock, tl.Scenario.LockKey(), "", "node"))
	for _, l := range tl.Locks {
		to := l.To
		if to < 0 {
			to = tl.Now
		}
		owner := strings.ToUpper(l.Owner)
		b := Bar{X: f(x(l.From)), Y: f(ry + barY), W: f(max(x(to)-x(l.From), 3)), H: f(barH),
			Class: "bar lock c-" + l.Owner, Label: owner, LabelX: f(x(l.From) + 6), LabelY: f(ry + barY + 15),
			Title: tl.Scenario.LockKey() + " = " + l.Value + " (" + owner + ")"}
		p.Bars = append(p.Bars, b)
		switch {
		case l.End == "expired":
			p.Markers = append(p.Markers, endMark(x(to), ry, "end expired", "⌛", u.Expired, fill(u.ExpiredAt, owner)+" "+sim.FormatMS(to)))
		case l.End == "deleted":
			by := strings.ToUpper(l.DeletedBy)
			class := "end deleted"
			if l.DeletedBy != l.Owner {
				class += " foreign" // someone else's lock: drawn as an error
			}
			p.Markers = append(p.Markers, endMark(x(to), ry, class, "✕", fill(u.DeletedBy, by), fill(u.DeletedBy, by)+" "+sim.FormatMS(to)))
		case l.Expiry > tl.Now:
			left := fill(u.TTLLeft, seconds(l.Expiry-tl.Now))
			p.Bars = append(p.Bars, Bar{X: f(x(tl.Now)), Y: f(ry + barY), W: f(x(l.Expiry) - x(tl.Now)), H: f(barH),
				Class: "bar ttl c-" + l.Owner, Label: left, LabelX: f(x(tl.Now) + 6), LabelY: f(ry + barY + 15),
				Title: "PTTL " + itoa(l.Expiry-tl.Now) + " ms"})
		}
	}

	// storage lane and command markers; labels under markers take the
	// first of two rows where they do not overlap the previous label
	labels := labelRows{}
	sy := laneY(len(tl.Clients) + 1)
	p.Lanes = append(p.Lanes, lane(sy, u.Storage, storageSub(tl, u), storageValue(tl), "node"))
	last := map[string]float64{}
	for _, e := range tl.Events {
		if e.Kind == sim.KindExpired {
			continue
		}
		if e.Kind != sim.KindCommand {
			continue
		}
		ly := ry
		laneKey := "redis"
		if i := clientIndex(tl, e.Actor); i >= 0 && e.Node != "storage" {
			ly, laneKey = laneY(i), e.Actor
		}
		if e.Node == "storage" {
			ly, laneKey = sy, "storage"
		}
		mx := x(e.At)
		if prev, ok := last[laneKey]; ok && mx < prev+2*markerR+2 {
			mx = prev + 2*markerR + 2
		}
		last[laneKey] = mx
		m := Marker{X: f(mx), Y: f(ly + barY + barH/2), R: f(markerR), Num: itoa(int64(e.Seq + 1)),
			Class: "mk", Reply: shortReply(e), ReplyY: f(ly + barY + barH + 15),
			Title: "#" + itoa(int64(e.Seq+1)) + " " + sim.FormatMS(e.At) + " " + strings.ToUpper(e.Actor) + ": " + commandText(e) + " → " + e.Reply}
		if e.Accepted != nil {
			m.Class += map[bool]string{true: " ok", false: " no"}[*e.Accepted]
			m.Reply = verdict(e, u)
		}
		if e.Seq >= newFrom {
			m.Class += " new"
		}
		m.ReplyY = f(ly + barY + barH + 15 + labels.place(laneKey, mx, m.Reply))
		p.Markers = append(p.Markers, m)
	}

	// violations: a band across the lanes, a warning shape, a number
	for i, v := range tl.Violations {
		vx := x(v.At)
		p.Bands = append(p.Bands, Band{X: f(vx - 4), Y: f(axisH), W: "8", H: f(float64(nLanes) * laneH), Class: "viol",
			IconX: f(vx), IconY: f(axisH - 4), Num: itoa(int64(i + 1)), Title: violationText(u, v)})
	}
	p.NowX, p.NowY2, p.NowL = f(x(tl.Now)), f(height-6), u.Now+" "+sim.FormatMS(tl.Now)
	return p
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
	w := float64(len([]rune(text)))*6.4 + 6
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

func lane(y float64, label, sub, sub2, class string) Lane {
	return Lane{Y: f(y), LabelY: f(y + 24), SubY: f(y + 42), Sub2Y: f(y + 58), LineY: f(y + laneH),
		Label: label, Sub: sub, Sub2: sub2, Class: class}
}

func endMark(x, y float64, class, glyph, label, title string) Marker {
	return Marker{X: f(x), Y: f(y + barY + barH/2), R: "0", Num: glyph, Class: class, Reply: label, ReplyY: f(y + barY + barH + 15), Title: title}
}

func storageSub(tl *sim.Timeline, u *UI) string {
	if !tl.Storage.Fenced {
		return u.FenceOff
	}
	return fill(u.MaxToken, itoa(tl.Storage.LastToken))
}

// storageValue is the record's current value as the lane shows it.
func storageValue(tl *sim.Timeline) string {
	v := tl.Storage.Value
	if v == "" {
		return "—"
	}
	if r := []rune(v); len(r) > 16 {
		v = string(r[:15]) + "…"
	}
	return "“" + v + "”"
}

func clientIndex(tl *sim.Timeline, id string) int {
	for i, c := range tl.Clients {
		if c.ID == id {
			return i
		}
	}
	return -1
}

// shortReply is the reply as it fits under a marker: OK, nil, 1, 0.
func shortReply(e sim.Event) string {
	r := e.Reply
	switch {
	case r == "(nil)":
		return "nil"
	case strings.HasPrefix(r, "(integer) "):
		return strings.TrimPrefix(r, "(integer) ")
	case strings.HasPrefix(r, "(error)"):
		return "ERR"
	case len(r) > 8:
		return r[:7] + "…"
	}
	return r
}

func verdict(e sim.Event, u *UI) string {
	word := u.Rejected
	if *e.Accepted {
		word = u.Accepted
	}
	if e.Token > 0 {
		return "#" + itoa(e.Token) + " " + word
	}
	return word
}

func violationText(u *UI, v sim.Violation) string {
	args := make([]string, 2)
	for i, a := range v.Actors {
		if i < 2 {
			args[i] = strings.ToUpper(a)
		}
	}
	return fill(u.ViolationText[v.Kind], args...)
}

// commandText is the command as one line, a Lua body replaced by its name.
func commandText(e sim.Event) string {
	cmd := append([]string(nil), e.Command...)
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

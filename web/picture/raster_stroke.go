// raster_stroke.go outlines strokes for the PNG export: dashes, caps and
// joins as SVG draws them, as polygons to fill.

package picture

import "math"

// pen is how a stroke is drawn, in device pixels.
type pen struct {
	width      float64
	dash       []float64 // on, off, on, off …; nil: solid
	cap, join  string
	miterLimit float64
}

// strokePolys outlines subs drawn with pn as polygons whose union is the
// stroke: a quadrilateral for each segment, a wedge or disc for each
// join, a cap at each open end. All go the same way round, so the
// rasterizer, which sums coverage and clamps it at full, fills their
// union with no seams where they meet.
func strokePolys(subs []subpath, pn pen) [][]pt {
	var out [][]pt
	hw := pn.width / 2
	for _, s := range subs {
		pts := dedupe(s.pts, s.closed)
		if len(pn.dash) > 0 {
			for _, piece := range dashes(pts, s.closed, pn.dash) {
				// a cut may fall on a corner: drop the repeated point
				out = strokeLine(out, dedupe(piece, false), false, hw, pn)
			}
			continue
		}
		out = strokeLine(out, pts, s.closed, hw, pn)
	}
	return out
}

// dedupe drops repeated points (and, on a closed path, a last point on
// top of the first): they have no direction to join or cap by.
func dedupe(pts []pt, closed bool) []pt {
	const eps = 1e-6
	var out []pt
	for _, p := range pts {
		if len(out) > 0 && p.sub(out[len(out)-1]).len() < eps {
			continue
		}
		out = append(out, p)
	}
	if closed && len(out) > 1 && out[0].sub(out[len(out)-1]).len() < eps {
		out = out[:len(out)-1]
	}
	return out
}

// dashes cuts a polyline into the pieces its dash pattern draws, the
// pattern starting afresh at the subpath's first point as in SVG.
func dashes(pts []pt, closed bool, pattern []float64) [][]pt {
	total := 0.0
	for _, d := range pattern {
		total += d
	}
	if total <= 0 || len(pts) < 2 {
		return [][]pt{pts}
	}
	if closed {
		pts = append(pts[:len(pts):len(pts)], pts[0])
	}
	var out [][]pt
	k, left, on := 0, pattern[0], true // dash k, length left of it
	var cur []pt
	if on {
		cur = []pt{pts[0]}
	}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		seg := b.sub(a).len()
		pos := 0.0
		for seg-pos > left {
			pos += left
			p := a.add(b.sub(a).mul(pos / seg))
			if on {
				out = append(out, append(cur, p))
				cur = nil
			} else {
				cur = []pt{p}
			}
			on = !on
			k = (k + 1) % len(pattern)
			left = pattern[k]
		}
		left -= seg - pos
		if on {
			cur = append(cur, b)
		}
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// strokeLine outlines one polyline.
func strokeLine(out [][]pt, pts []pt, closed bool, hw float64, pn pen) [][]pt {
	if len(pts) == 0 || hw <= 0 {
		return out
	}
	if len(pts) == 1 { // a zero-length dash: a dot if the cap has size
		switch pn.cap {
		case "round":
			out = append(out, disc(pts[0], hw))
		case "square":
			p := pts[0]
			out = append(out, []pt{{p.x - hw, p.y - hw}, {p.x + hw, p.y - hw}, {p.x + hw, p.y + hw}, {p.x - hw, p.y + hw}})
		}
		return out
	}
	n := len(pts)
	segs := n - 1
	if closed {
		segs = n
	}
	for i := range segs {
		a, b := pts[i], pts[(i+1)%n]
		d := b.sub(a).mul(1 / b.sub(a).len())
		nv := pt{-d.y, d.x}.mul(hw)
		if !closed && pn.cap == "square" {
			if i == 0 {
				a = a.sub(d.mul(hw))
			}
			if i == segs-1 {
				b = b.add(d.mul(hw))
			}
		}
		out = append(out, []pt{a.add(nv), b.add(nv), b.sub(nv), a.sub(nv)})
	}
	// joins: every inner point, and on a closed line every point
	for i := range n {
		if !closed && (i == 0 || i == n-1) {
			continue
		}
		prev, next := pts[(i+n-1)%n], pts[(i+1)%n]
		out = join(out, prev, pts[i], next, hw, pn)
	}
	if !closed && pn.cap == "round" {
		out = append(out, disc(pts[0], hw), disc(pts[n-1], hw))
	}
	return out
}

// join fills the notch between two segments' quadrilaterals at v, on the
// outside of the turn: a disc (round), a triangle (bevel), or the triangle
// out to the meeting point of the outer edges (miter) while that point is
// within miterLimit half-widths, as SVG says.
func join(out [][]pt, prev, v, next pt, hw float64, pn pen) [][]pt {
	d0 := v.sub(prev).mul(1 / v.sub(prev).len())
	d1 := next.sub(v).mul(1 / next.sub(v).len())
	cross, dot := d0.cross(d1), d0.dot(d1)
	if math.Abs(cross) < 1e-9 && dot > 0 {
		return out // straight on
	}
	if pn.join == "round" {
		return append(out, disc(v, hw))
	}
	side := 1.0 // the outer side: left of the turn's direction
	if cross > 0 {
		side = -1
	}
	n0 := pt{-d0.y, d0.x}.mul(hw * side)
	n1 := pt{-d1.y, d1.x}.mul(hw * side)
	a, b := v.add(n0), v.add(n1)
	if pn.join == "miter" && dot > -1+1e-9 {
		ratio := 1 / math.Sqrt((1+dot)/2) // miter length / stroke width
		if ratio <= pn.miterLimit {
			m := n0.add(n1)
			tip := v.add(m.mul(hw * ratio / m.len()))
			return append(out, []pt{v, a, tip, b})
		}
	}
	return append(out, []pt{v, a, b})
}

// disc is a circle as a polygon fine enough to look round.
func disc(c pt, r float64) []pt {
	n := max(8, int(math.Ceil(2*math.Pi*r/0.75)))
	p := make([]pt, n)
	for i := range p {
		sin, cos := math.Sincos(2 * math.Pi * float64(i) / float64(n))
		p[i] = pt{c.x + r*cos, c.y + r*sin}
	}
	return p
}

// orient returns poly going round one way (positive area in device
// coordinates), reversed if it goes the other: the rasterizer's coverage
// of two overlapping polygons that go opposite ways would cancel.
func orient(poly []pt) []pt {
	a := 0.0
	for i, p := range poly {
		a += p.cross(poly[(i+1)%len(poly)])
	}
	if a >= 0 {
		return poly
	}
	r := make([]pt, len(poly))
	for i, p := range poly {
		r[len(poly)-1-i] = p
	}
	return r
}

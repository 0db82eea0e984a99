// raster_path.go turns the SVG's shapes (rect, circle, line, path …) into
// polylines for the PNG export: curves and arcs flattened finely enough
// that no facet shows at the PNG's scale.

package picture

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

type pt struct{ x, y float64 }

func (a pt) add(b pt) pt        { return pt{a.x + b.x, a.y + b.y} }
func (a pt) sub(b pt) pt        { return pt{a.x - b.x, a.y - b.y} }
func (a pt) mul(k float64) pt   { return pt{a.x * k, a.y * k} }
func (a pt) dot(b pt) float64   { return a.x*b.x + a.y*b.y }
func (a pt) cross(b pt) float64 { return a.x*b.y - a.y*b.x }
func (a pt) len() float64       { return math.Hypot(a.x, a.y) }

// subpath is one polyline of a shape; a closed one joins its last point
// to its first.
type subpath struct {
	pts    []pt
	closed bool
}

// affine maps (x, y) to (a·x + c·y + e, b·x + d·y + f), as SVG's
// matrix(a b c d e f).
type affine [6]float64

var identity = affine{1, 0, 0, 1, 0, 0}

func (m affine) apply(p pt) pt {
	return pt{m[0]*p.x + m[2]*p.y + m[4], m[1]*p.x + m[3]*p.y + m[5]}
}

// then is m followed by n: (m.then(n)).apply(p) = n.apply(m.apply(p)).
func (m affine) then(n affine) affine {
	return affine{
		n[0]*m[0] + n[2]*m[1], n[1]*m[0] + n[3]*m[1],
		n[0]*m[2] + n[2]*m[3], n[1]*m[2] + n[3]*m[3],
		n[0]*m[4] + n[2]*m[5] + n[4], n[1]*m[4] + n[3]*m[5] + n[5],
	}
}

func (m affine) inverse() affine {
	det := m[0]*m[3] - m[1]*m[2]
	if det == 0 {
		return identity
	}
	a, b, c, d := m[3]/det, -m[1]/det, -m[2]/det, m[0]/det
	return affine{a, b, c, d, -(a*m[4] + c*m[5]), -(b*m[4] + d*m[5])}
}

// scale is how many device pixels a user unit is (the square root of the
// area a unit square becomes): stroke widths and type sizes scale by it.
func (m affine) scale() float64 { return math.Sqrt(math.Abs(m[0]*m[3] - m[1]*m[2])) }

// parseTransform reads an SVG transform list: translate, scale, rotate,
// matrix, applied right to left as SVG says.
func parseTransform(s string) (affine, error) {
	m := identity
	s = strings.TrimSpace(s)
	for s != "" {
		open, end := strings.IndexByte(s, '('), strings.IndexByte(s, ')')
		if open < 0 || end < open {
			return m, fmt.Errorf("transform %q", s)
		}
		name := strings.TrimSpace(strings.Trim(s[:open], " ,"))
		var v []float64
		for f := range strings.FieldsSeq(strings.ReplaceAll(s[open+1:end], ",", " ")) {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return m, fmt.Errorf("transform %q: %w", s, err)
			}
			v = append(v, x)
		}
		s = strings.TrimSpace(s[end+1:])
		var t affine
		switch {
		case name == "translate" && len(v) == 1:
			t = affine{1, 0, 0, 1, v[0], 0}
		case name == "translate" && len(v) == 2:
			t = affine{1, 0, 0, 1, v[0], v[1]}
		case name == "scale" && len(v) == 1:
			t = affine{v[0], 0, 0, v[0], 0, 0}
		case name == "scale" && len(v) == 2:
			t = affine{v[0], 0, 0, v[1], 0, 0}
		case name == "rotate" && (len(v) == 1 || len(v) == 3):
			sin, cos := math.Sincos(v[0] * math.Pi / 180)
			t = affine{cos, sin, -sin, cos, 0, 0}
			if len(v) == 3 {
				t = affine{1, 0, 0, 1, -v[1], -v[2]}.then(t).then(affine{1, 0, 0, 1, v[1], v[2]})
			}
		case name == "matrix" && len(v) == 6:
			t = affine(v)
		default:
			return m, fmt.Errorf("transform %s with %d numbers", name, len(v))
		}
		m = t.then(m) // the later transform applies first
	}
	return m, nil
}

// pathBuilder collects subpaths in user units; tol is how far a flattened
// curve may stray from the true one, in user units.
type pathBuilder struct {
	subs       []subpath
	cur, start pt
	tol        float64
}

func (b *pathBuilder) moveTo(p pt) {
	b.subs = append(b.subs, subpath{pts: []pt{p}})
	b.cur, b.start = p, p
}

func (b *pathBuilder) lineTo(p pt) {
	if len(b.subs) == 0 || b.subs[len(b.subs)-1].closed {
		// SVG: a command after Z starts a new subpath where Z ended.
		b.subs = append(b.subs, subpath{pts: []pt{b.cur}})
		b.start = b.cur
	}
	s := &b.subs[len(b.subs)-1]
	s.pts = append(s.pts, p)
	b.cur = p
}

func (b *pathBuilder) close() {
	if len(b.subs) > 0 && !b.subs[len(b.subs)-1].closed {
		b.subs[len(b.subs)-1].closed = true
		b.cur = b.start
	}
}

// steps is how many chords an arc of radius r through angle da needs to
// stay within tol of it.
func (b *pathBuilder) steps(r, da float64) int {
	step := math.Pi / 2
	if b.tol < r {
		step = min(step, 2*math.Acos(1-b.tol/r))
	}
	return max(1, int(math.Ceil(math.Abs(da)/step)))
}

// ellipseArc draws, from the current point, the arc of the ellipse
// centred at c with radii rx, ry (its x axis turned by phi) from angle a0
// through da.
func (b *pathBuilder) ellipseArc(c pt, rx, ry, phi, a0, da float64) {
	n := b.steps(max(rx, ry), da)
	sinP, cosP := math.Sincos(phi)
	for i := 1; i <= n; i++ {
		sin, cos := math.Sincos(a0 + da*float64(i)/float64(n))
		b.lineTo(pt{c.x + rx*cosP*cos - ry*sinP*sin, c.y + rx*sinP*cos + ry*cosP*sin})
	}
}

// arcTo is SVG's elliptical arc command, converted from its endpoints to
// a centre as the SVG spec's appendix on arcs does.
func (b *pathBuilder) arcTo(rx, ry, phiDeg float64, large, sweep bool, p pt) {
	p0 := b.cur
	rx, ry = math.Abs(rx), math.Abs(ry)
	if rx == 0 || ry == 0 || p0 == p {
		b.lineTo(p)
		return
	}
	phi := phiDeg * math.Pi / 180
	sinP, cosP := math.Sincos(phi)
	hx, hy := (p0.x-p.x)/2, (p0.y-p.y)/2
	x1, y1 := cosP*hx+sinP*hy, -sinP*hx+cosP*hy
	if l := x1*x1/(rx*rx) + y1*y1/(ry*ry); l > 1 {
		rx, ry = rx*math.Sqrt(l), ry*math.Sqrt(l)
	}
	num := rx*rx*ry*ry - rx*rx*y1*y1 - ry*ry*x1*x1
	den := rx*rx*y1*y1 + ry*ry*x1*x1
	k := math.Sqrt(max(0, num/den))
	if large == sweep {
		k = -k
	}
	cx1, cy1 := k*rx*y1/ry, -k*ry*x1/rx
	c := pt{cosP*cx1 - sinP*cy1 + (p0.x+p.x)/2, sinP*cx1 + cosP*cy1 + (p0.y+p.y)/2}
	u := pt{(x1 - cx1) / rx, (y1 - cy1) / ry}
	v := pt{(-x1 - cx1) / rx, (-y1 - cy1) / ry}
	a0 := math.Atan2(u.y, u.x)
	da := math.Atan2(u.cross(v), u.dot(v))
	if !sweep && da > 0 {
		da -= 2 * math.Pi
	} else if sweep && da < 0 {
		da += 2 * math.Pi
	}
	b.ellipseArc(c, rx, ry, phi, a0, da)
	b.cur = p
	s := &b.subs[len(b.subs)-1]
	s.pts[len(s.pts)-1] = p // exactly where the command said
}

// cubicTo and quadTo flatten Bézier curves into evenly spaced chords,
// enough of them that the chords stay within tol of the curve.
func (b *pathBuilder) cubicTo(c1, c2, p pt) {
	p0 := b.cur
	n := b.bezierSteps(p0.sub(c1.mul(2)).add(c2), c1.sub(c2.mul(2)).add(p))
	for i := 1; i <= n; i++ {
		t := float64(i) / float64(n)
		s := 1 - t
		b.lineTo(p0.mul(s * s * s).add(c1.mul(3 * s * s * t)).add(c2.mul(3 * s * t * t)).add(p.mul(t * t * t)))
	}
}

func (b *pathBuilder) quadTo(c, p pt) {
	p0 := b.cur
	n := b.bezierSteps(p0.sub(c.mul(2)).add(p), pt{})
	for i := 1; i <= n; i++ {
		t := float64(i) / float64(n)
		s := 1 - t
		b.lineTo(p0.mul(s * s).add(c.mul(2 * s * t)).add(p.mul(t * t)))
	}
}

// bezierSteps bounds a curve's flatness by its second differences.
func (b *pathBuilder) bezierSteps(d1, d2 pt) int {
	dd := max(d1.len(), d2.len())
	return max(1, min(100, int(math.Ceil(math.Sqrt(dd*3/(4*b.tol))))))
}

// parsePath reads SVG path data into b. Every command of SVG 1.1 but the
// smooth curves (S, T), which nothing in layout.go writes; an unknown
// command is an error, so a new shape the PNG cannot draw fails the tests.
func parsePath(d string, b *pathBuilder) error {
	t := pathTokens{s: d}
	cmd := byte(0)
	for {
		t.skip()
		if t.i >= len(t.s) {
			return nil
		}
		if c := t.s[t.i]; (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') {
			cmd = c
			t.i++
		} else if cmd == 0 {
			return fmt.Errorf("path %q: a number before the first command", d)
		}
		rel := cmd >= 'a'
		base := pt{}
		if rel {
			base = b.cur
		}
		n := func() float64 { return t.number() }
		switch cmd | 0x20 { // lower case
		case 'm':
			b.moveTo(base.add(pt{n(), n()}))
			cmd = map[bool]byte{true: 'l', false: 'L'}[rel] // pairs after M are lines
		case 'l':
			b.lineTo(base.add(pt{n(), n()}))
		case 'h':
			x := n()
			if rel {
				x += b.cur.x
			}
			b.lineTo(pt{x, b.cur.y})
		case 'v':
			y := n()
			if rel {
				y += b.cur.y
			}
			b.lineTo(pt{b.cur.x, y})
		case 'z':
			b.close()
		case 'c':
			c1, c2, p := base.add(pt{n(), n()}), base.add(pt{n(), n()}), base.add(pt{n(), n()})
			b.cubicTo(c1, c2, p)
		case 'q':
			c, p := base.add(pt{n(), n()}), base.add(pt{n(), n()})
			b.quadTo(c, p)
		case 'a':
			rx, ry, phi := n(), n(), n()
			large, sweep := t.flag(), t.flag()
			b.arcTo(rx, ry, phi, large, sweep, base.add(pt{n(), n()}))
		default:
			return fmt.Errorf("path %q: command %c the PNG export does not draw", d, cmd)
		}
		if t.err != nil {
			return fmt.Errorf("path %q: %w", d, t.err)
		}
		if cmd|0x20 == 'z' {
			cmd = 0
		}
	}
}

// pathTokens reads the numbers and flags of path data.
type pathTokens struct {
	s   string
	i   int
	err error
}

func (t *pathTokens) skip() {
	for t.i < len(t.s) && strings.IndexByte(" \t\r\n,", t.s[t.i]) >= 0 {
		t.i++
	}
}

func (t *pathTokens) number() float64 {
	t.skip()
	j := t.i
	if j < len(t.s) && (t.s[j] == '-' || t.s[j] == '+') {
		j++
	}
	dot := false
	for j < len(t.s) && (t.s[j] >= '0' && t.s[j] <= '9' || t.s[j] == '.' && !dot) {
		dot = dot || t.s[j] == '.'
		j++
	}
	if j < len(t.s) && (t.s[j] == 'e' || t.s[j] == 'E') {
		j++
		if j < len(t.s) && (t.s[j] == '-' || t.s[j] == '+') {
			j++
		}
		for j < len(t.s) && t.s[j] >= '0' && t.s[j] <= '9' {
			j++
		}
	}
	v, err := strconv.ParseFloat(t.s[t.i:j], 64)
	if err != nil && t.err == nil {
		t.err = fmt.Errorf("a number expected at %d", t.i)
	}
	t.i = j
	return v
}

// flag reads an arc's one-digit flag, which may touch the next number.
func (t *pathTokens) flag() bool {
	t.skip()
	if t.i >= len(t.s) || (t.s[t.i] != '0' && t.s[t.i] != '1') {
		if t.err == nil {
			t.err = fmt.Errorf("a flag expected at %d", t.i)
		}
		return false
	}
	t.i++
	return t.s[t.i-1] == '1'
}

// rectPath is SVG's rect as a path: from (x+rx, y) clockwise, corners
// rounded, so dashes start where a browser starts them.
func rectPath(b *pathBuilder, x, y, w, h, rx, ry float64) {
	rx, ry = min(rx, w/2), min(ry, h/2)
	if rx <= 0 || ry <= 0 {
		b.moveTo(pt{x, y})
		b.lineTo(pt{x + w, y})
		b.lineTo(pt{x + w, y + h})
		b.lineTo(pt{x, y + h})
		b.close()
		return
	}
	b.moveTo(pt{x + rx, y})
	b.lineTo(pt{x + w - rx, y})
	b.ellipseArc(pt{x + w - rx, y + ry}, rx, ry, 0, -math.Pi/2, math.Pi/2)
	b.lineTo(pt{x + w, y + h - ry})
	b.ellipseArc(pt{x + w - rx, y + h - ry}, rx, ry, 0, 0, math.Pi/2)
	b.lineTo(pt{x + rx, y + h})
	b.ellipseArc(pt{x + rx, y + h - ry}, rx, ry, 0, math.Pi/2, math.Pi/2)
	b.lineTo(pt{x, y + ry})
	b.ellipseArc(pt{x + rx, y + ry}, rx, ry, 0, math.Pi, math.Pi/2)
	b.close()
}

// ellipsePath is SVG's circle or ellipse: from (cx+rx, cy), clockwise on
// the screen.
func ellipsePath(b *pathBuilder, cx, cy, rx, ry float64) {
	if rx <= 0 || ry <= 0 {
		return
	}
	b.moveTo(pt{cx + rx, cy})
	b.ellipseArc(pt{cx, cy}, rx, ry, 0, 0, 2*math.Pi)
	b.close()
}

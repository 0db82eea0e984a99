// raster_svg.go reads the export's SVG for the PNG export and walks it:
// each element's style cascaded from export.css, its shape or text handed
// to the painter.

package picture

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"strconv"
	"strings"
)

// node is one SVG element: its name, attributes, classes, children and
// the text directly inside it.
type node struct {
	name    string
	attr    map[string]string
	classes []string
	kids    []*node
	text    string
}

// parseSVG reads an SVG document into its element tree.
func parseSVG(b []byte) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(b))
	var stack []*node
	var root *node
	for {
		tok, err := d.Token()
		if err != nil {
			if root != nil && len(stack) == 0 && err == io.EOF {
				return root, nil
			}
			return nil, fmt.Errorf("svg: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{name: t.Name.Local, attr: map[string]string{}}
			for _, a := range t.Attr {
				n.attr[a.Name.Local] = a.Value
			}
			n.classes = strings.Fields(n.attr["class"])
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.kids = append(p.kids, n)
			} else if root == nil {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(t)
			}
		}
	}
}

// style is what an element is drawn with: the SVG properties export.css
// sets. A child starts from its parent's (all of them inherit but
// opacity, which applies to the element and what it holds).
type style struct {
	fill, stroke                        paint
	fillOpacity, strokeOpacity, opacity float64
	strokeWidth, miterLimit             float64
	dash                                []float64
	lineCap, lineJoin                   string
	fontSize                            float64
	fontWeight                          int
	textAnchor                          string
}

// initialStyle is SVG's initial values (a browser's 16px medium type).
func initialStyle() style {
	return style{
		fill: paint{c: color.NRGBA{0, 0, 0, 255}}, stroke: paint{none: true},
		fillOpacity: 1, strokeOpacity: 1, opacity: 1, strokeWidth: 1, miterLimit: 4,
		lineCap: "butt", lineJoin: "miter", fontSize: 16, fontWeight: 400, textAnchor: "start",
	}
}

// presentation attributes the export may write on an element (templ
// writes text-anchor); CSS overrides them, as in a browser.
var presentation = []string{"fill", "stroke", "stroke-width", "stroke-dasharray", "opacity", "fill-opacity",
	"stroke-opacity", "stroke-linecap", "stroke-linejoin", "font-size", "font-weight", "text-anchor"}

// styleOf is the style of the element at the end of path, whose parent's
// is parent.
func styleOf(rules []cssRule, path []*node, parent style) (style, error) {
	s := parent
	s.opacity = 1
	n := path[len(path)-1]
	for _, a := range presentation {
		if v, ok := n.attr[a]; ok {
			set, err := parseProp(a, v)
			if err != nil {
				return s, fmt.Errorf("<%s %s=%q>: %w", n.name, a, v, err)
			}
			set(&s)
		}
	}
	cascade(rules, path, &s)
	return s, nil
}

// walk draws the element at the end of path and what it holds. m takes
// its parent's user units to device pixels; alpha is the opacity of the
// groups around it.
func (p *painter) walk(path []*node, parent style, m affine, alpha float64) error {
	n := path[len(path)-1]
	switch n.name {
	case "title", "desc", "style", "defs", "metadata":
		return nil // not drawn (a pattern in defs is read by findPatterns)
	}
	s, err := styleOf(p.rules, path, parent)
	if err != nil {
		return err
	}
	if t, ok := n.attr["transform"]; ok {
		tm, err := parseTransform(t)
		if err != nil {
			return err
		}
		m = tm.then(m)
	}
	alpha *= s.opacity
	switch n.name {
	case "svg", "g":
		if n.name == "svg" && len(path) > 1 {
			return fmt.Errorf("svg: a nested <svg>, whose viewport the PNG export does not draw")
		}
		for _, k := range n.kids {
			if err := p.walk(append(path, k), s, m, alpha); err != nil {
				return err
			}
		}
		return nil
	case "text":
		return p.text(n, s, m, alpha)
	}
	subs, err := p.shape(n, m)
	if err != nil {
		return err
	}
	return p.drawShape(subs, s, m, alpha)
}

// shape is an element's outline in device pixels.
func (p *painter) shape(n *node, m affine) ([]subpath, error) {
	b := &pathBuilder{tol: 0.05 / m.scale()}
	num := p.numbers(n)
	switch n.name {
	case "rect":
		rx, ry := num("rx", 0), num("ry", 0)
		if _, ok := n.attr["ry"]; !ok {
			ry = rx
		}
		if _, ok := n.attr["rx"]; !ok {
			rx = ry
		}
		rectPath(b, num("x", 0), num("y", 0), num("width", 0), num("height", 0), rx, ry)
	case "circle":
		ellipsePath(b, num("cx", 0), num("cy", 0), num("r", 0), num("r", 0))
	case "ellipse":
		ellipsePath(b, num("cx", 0), num("cy", 0), num("rx", 0), num("ry", 0))
	case "line":
		b.moveTo(pt{num("x1", 0), num("y1", 0)})
		b.lineTo(pt{num("x2", 0), num("y2", 0)})
	case "polyline", "polygon":
		if err := parsePath("M"+n.attr["points"], b); err != nil {
			return nil, err
		}
		if n.name == "polygon" {
			b.close()
		}
	case "path":
		if err := parsePath(n.attr["d"], b); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("svg: <%s>, an element the PNG export does not draw", n.name)
	}
	if p.err != nil {
		return nil, p.err
	}
	for i := range b.subs {
		for j, q := range b.subs[i].pts {
			b.subs[i].pts[j] = m.apply(q)
		}
	}
	return b.subs, nil
}

// numbers reads n's numeric attributes; a percentage is of the viewBox's
// width or height, as the background's width="100%". A malformed number
// is kept in p.err.
func (p *painter) numbers(n *node) func(name string, def float64) float64 {
	return func(name string, def float64) float64 {
		v, ok := n.attr[name]
		if !ok {
			return def
		}
		if pc, ok := strings.CutSuffix(v, "%"); ok {
			f, err := strconv.ParseFloat(pc, 64)
			if err != nil && p.err == nil {
				p.err = fmt.Errorf("svg: <%s %s=%q>", n.name, name, v)
			}
			if name == "width" || name == "x" || name == "rx" || name == "cx" || name == "x1" || name == "x2" {
				return f / 100 * p.viewW
			}
			return f / 100 * p.viewH
		}
		f, err := strconv.ParseFloat(strings.TrimSuffix(v, "px"), 64)
		if err != nil && p.err == nil {
			p.err = fmt.Errorf("svg: <%s %s=%q>", n.name, name, v)
		}
		return f
	}
}

// pattern is a tile of rectangles that repeats over user space, as the
// paused bars' hatch.
type pattern struct {
	w, h  float64
	toPat affine // user units → the tile's units
	rects []patRect
}

type patRect struct {
	x0, y0, x1, y1 float64
	c              color.NRGBA64 // with its opacity
}

// findPatterns reads every <pattern> under the element at the end of
// path: its tile size, its transform and its rectangles, styled like
// any element.
func (p *painter) findPatterns(path []*node, parent style) error {
	n := path[len(path)-1]
	s, err := styleOf(p.rules, path, parent)
	if err != nil {
		return err
	}
	if n.name != "pattern" {
		for _, k := range n.kids {
			if err := p.findPatterns(append(path, k), s); err != nil {
				return err
			}
		}
		return nil
	}
	if n.attr["patternUnits"] != "userSpaceOnUse" {
		return fmt.Errorf("svg: pattern %q: only patternUnits=userSpaceOnUse", n.attr["id"])
	}
	num := p.numbers(n)
	pat := &pattern{w: num("width", 0), h: num("height", 0), toPat: identity}
	if t, ok := n.attr["patternTransform"]; ok {
		tm, err := parseTransform(t)
		if err != nil {
			return err
		}
		pat.toPat = tm.inverse()
	}
	for _, k := range n.kids {
		if k.name == "title" || k.name == "desc" {
			continue
		}
		ks, err := styleOf(p.rules, append(path, k), s)
		if err != nil {
			return err
		}
		if k.name != "rect" || ks.fill.none || ks.fill.pattern != "" || !ks.stroke.none {
			return fmt.Errorf("svg: pattern %q: only filled rectangles", n.attr["id"])
		}
		kn := p.numbers(k)
		x, y := kn("x", 0), kn("y", 0)
		a := ks.fillOpacity * ks.opacity
		c := ks.fill.c
		pat.rects = append(pat.rects, patRect{x, y, x + kn("width", 0), y + kn("height", 0),
			color.NRGBA64{uint16(c.R) * 0x101, uint16(c.G) * 0x101, uint16(c.B) * 0x101, uint16(a*0xffff + 0.5)}})
	}
	if pat.w <= 0 || pat.h <= 0 || p.err != nil {
		return fmt.Errorf("svg: pattern %q: bad size", n.attr["id"])
	}
	p.patterns[n.attr["id"]] = pat
	return nil
}

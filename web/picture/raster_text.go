// raster_text.go sets the export's text for the PNG export: one glyph a
// character from the embedded fonts, placed on the SVG's baseline and
// anchor, drawn as outlines.

package picture

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// glyphKey names a glyph outline the painter has loaded.
type glyphKey struct {
	face *face
	idx  sfnt.GlyphIndex
}

// unitsPPEM is the "pixels per em" at which sfnt's 26.6 coordinates are
// the font's own units: outlines are loaded once at that size and scaled
// to each text's.
func unitsPPEM(fc *face) fixed.Int26_6 { return fixed.Int26_6(int(fc.upem) << 6) }

// text draws a <text>: its characters, white space collapsed as SVG
// does, from (x+dx, y+dy) on the baseline, moved left by all or half its
// width for text-anchor end or middle. It is set one glyph a character
// with no kerning or ligatures (the fonts keep no layout tables), as a
// browser sets Japanese and Chinese, and Latin within a pixel or two.
func (p *painter) text(n *node, s style, m affine, alpha float64) error {
	for _, k := range n.kids {
		if k.name != "title" && k.name != "desc" {
			return fmt.Errorf("svg: <text> with <%s> inside: the PNG export draws plain text", k.name)
		}
	}
	str := collapseSpace(n.text)
	if str == "" || s.fill.none {
		return nil
	}
	if s.fill.pattern != "" || !s.stroke.none {
		return fmt.Errorf("svg: text %q: the PNG export fills text with a colour only", str)
	}
	num := p.numbers(n)
	x, y := num("x", 0)+num("dx", 0), num("y", 0)+num("dy", 0)
	if p.err != nil {
		return p.err
	}
	bold := s.fontWeight > 500 // 600 takes the bold, as CSS's font matching does
	var gs []glyph
	width := 0.0
	for _, r := range str {
		if ignorable(r) {
			continue
		}
		g := pick(p.fonts.faces(p.lang, bold, r), &p.buf, r)
		gs = append(gs, g)
		width += g.advance / g.face.upem * s.fontSize
	}
	switch s.textAnchor {
	case "middle":
		x -= width / 2
	case "end":
		x -= width
	}
	o := p.fresh()
	for _, g := range gs {
		segs, err := p.outlineOf(g)
		if err != nil {
			return fmt.Errorf("text %q: %w", str, err)
		}
		k := s.fontSize / g.face.upem
		at := func(q fixed.Point26_6) pt { return m.apply(pt{x + float64(q.X)/64*k, y + float64(q.Y)/64*k}) }
		for _, sg := range segs {
			switch sg.Op {
			case sfnt.SegmentOpMoveTo:
				o.add('M', at(sg.Args[0]))
			case sfnt.SegmentOpLineTo:
				o.add('L', at(sg.Args[0]))
			case sfnt.SegmentOpQuadTo:
				o.add('Q', at(sg.Args[0]), at(sg.Args[1]))
			case sfnt.SegmentOpCubeTo:
				o.add('C', at(sg.Args[0]), at(sg.Args[1]), at(sg.Args[2]))
			}
		}
		x += g.advance * k
	}
	return p.paint(o, s.fill, s.fillOpacity*alpha, m)
}

// outlineOf is g's outline in font units (y down), loaded once a picture.
func (p *painter) outlineOf(g glyph) ([]sfnt.Segment, error) {
	k := glyphKey{g.face, g.idx}
	if segs, ok := p.glyphs[k]; ok {
		return segs, nil
	}
	segs, err := g.face.f.LoadGlyph(&p.buf, g.idx, unitsPPEM(g.face), nil)
	if err != nil {
		return nil, err
	}
	segs = slices.Clone(segs) // the buffer's, until its next use
	p.glyphs[k] = segs
	return segs, nil
}

// collapseSpace is SVG's default white-space handling: runs of spaces,
// tabs and newlines become one space, none at either end. (Only those:
// an ideographic space or a no-break space is a character to draw.)
func collapseSpace(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

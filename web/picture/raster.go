// raster.go draws an export as a PNG, for the wikis and chat tools that
// take no SVG: the painter, which fills outlines with colours and patterns.

package picture

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"strconv"
	"strings"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/vector"

	"locklab/web/i18n"
)

// PNGScale is how many pixels a user unit of the export's SVG becomes in
// its PNG: twice, so the least-wide picture (820 units) is about 1640
// pixels, sharp on a high-density screen and within what a wiki shows.
const PNGScale = 2.0

// PNG draws x as a PNG: the very SVG ExportSVG writes, read back and
// painted with export.css's rules, on white, PNGScale pixels a user unit.
// Reading the SVG, rather than drawing the Picture a second way, means
// whatever the templates draw the PNG draws, and a shape or a rule it
// cannot draw is an error (which the tests see) rather than a quiet
// difference. Pure Go (golang.org/x/image's rasterizer and font parser,
// fonts embedded): no browser, no system fonts, and the same Export gives
// the same bytes.
//
// A picture larger than maxPixels at PNGScale is drawn smaller, down to
// minScale; one larger still (a long wait's timeline, tens of thousands
// of units wide) is ErrTooLong: the caller draws TooLong instead, so the
// card and the "Download as PNG" link of any timeline answer a picture.
func PNG(x *Export) ([]byte, error) {
	w, h, err := viewSize(x.ViewBox)
	if err != nil {
		return nil, err
	}
	scale := min(PNGScale, math.Sqrt(maxPixels/(w*h)), maxSide/w, maxSide/h)
	if scale < minScale {
		return nil, ErrTooLong
	}
	img, err := raster(x, scale)
	if err != nil {
		return nil, err
	}
	return encode(img)
}

// encode writes img as a PNG. BestSpeed: a picture is mostly flat colour
// and compresses well either way; the default level makes a file 4%
// smaller in a third more time.
func encode(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// CardW and CardH are a link card's picture: 1.91:1, the shape Open
// Graph and Twitter cards show whole (a timeline's own shape, about 3:2,
// is cropped by most of them).
const (
	CardW = 1200
	CardH = 630
)

// CardPNG draws x for a link's card: the same painting as PNG, as large
// as fits CardW × CardH, centred on white. A picture that would be drawn
// smaller than minScale there is ErrTooLong, as for PNG.
func CardPNG(x *Export) ([]byte, error) {
	w, h, err := viewSize(x.ViewBox)
	if err != nil {
		return nil, err
	}
	scale := min(CardW/w, CardH/h, PNGScale)
	if scale < minScale {
		return nil, ErrTooLong
	}
	pic, err := raster(x, scale)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, CardW, CardH))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	b := pic.Bounds()
	at := image.Pt((CardW-b.Dx())/2, (CardH-b.Dy())/2)
	draw.Draw(img, b.Add(at), pic, b.Min, draw.Src)
	return encode(img)
}

// The PNG's bounds: its pixels (4 bytes each while it is drawn), its
// longest side, and how small a user unit may be drawn before the text
// is too small to read.
const (
	maxPixels = 4e6
	maxSide   = 8000
	minScale  = 0.75
)

// ErrTooLong: the picture would be too large to draw readably (PNG).
var ErrTooLong = errors.New("picture: too large to draw as a PNG")

// viewSize reads a viewBox's width and height.
func viewSize(viewBox string) (w, h float64, err error) {
	var vb []float64
	for f := range strings.FieldsSeq(strings.ReplaceAll(viewBox, ",", " ")) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("svg: viewBox %q", viewBox)
		}
		vb = append(vb, v)
	}
	if len(vb) != 4 || vb[2] <= 0 || vb[3] <= 0 {
		return 0, 0, fmt.Errorf("svg: viewBox %q: not a picture to draw", viewBox)
	}
	return vb[2], vb[3], nil
}

// TooLong is the picture that stands for one too long to draw (PNG's
// ErrTooLong): x's heading and the line under it, a sentence saying so
// with the timeline's length, and the address that opens it live.
func TooLong(x *Export, u *i18n.UI) *Export {
	const width = 820.0
	out := &Export{Lang: x.Lang, Heading: x.Heading, Sub: x.Sub}
	y := 42.0
	for _, line := range wrapText(x.Sub, width-16, 12) {
		out.SubLines = append(out.SubLines, ExportLine{Class: "sub", Y: f(y), Text: line})
		y += 16
	}
	y += 12
	note := i18n.Fill(u.Embed.TooLong, u.Count(int((x.span+999)/1000)), u.Count(x.events))
	for _, line := range wrapText(note, width-16, 13) {
		y += exportLine
		out.Lines = append(out.Lines, ExportLine{Class: "didline", Y: f(y), Text: line})
	}
	y += 12
	for _, line := range wrapAddress(x.address, width-16, 12) {
		y += 16
		out.Lines = append(out.Lines, ExportLine{Class: "sub", Y: f(y), Text: line})
	}
	h := y + 12
	out.ViewBox, out.Width, out.H = "0 0 "+f(width)+" "+f(h), f(width), f(h)
	return out
}

// painter draws one picture.
type painter struct {
	img          *image.RGBA
	rules        []cssRule
	fonts        *fontSet
	lang         string
	viewW, viewH float64 // the viewBox's size, for lengths in %
	patterns     map[string]*pattern
	z            vector.Rasterizer
	buf          sfnt.Buffer
	glyphs       map[glyphKey][]sfnt.Segment // outlines loaded, in font units
	err          error                       // a malformed number, from numbers
	o            outline                     // the shape being painted (fresh)
}

// fresh is the painter's one outline, emptied: shapes are built and
// painted one at a time, so one slice serves them all (a new one for
// every glyph run was half of what drawing a picture allocated).
func (p *painter) fresh() *outline {
	p.o.ops = p.o.ops[:0]
	return &p.o
}

// raster paints x's SVG at scale pixels a user unit.
func raster(x *Export, scale float64) (*image.RGBA, error) {
	rules, err := exportRules()
	if err != nil {
		return nil, err
	}
	fonts, err := loadFonts()
	if err != nil {
		return nil, err
	}
	var svg bytes.Buffer
	if err := ExportSVG(x).Render(context.Background(), &svg); err != nil {
		return nil, err
	}
	root, err := parseSVG(svg.Bytes())
	if err != nil {
		return nil, err
	}
	var vb []float64
	for f := range strings.FieldsSeq(strings.ReplaceAll(root.attr["viewBox"], ",", " ")) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil, fmt.Errorf("svg: viewBox %q", root.attr["viewBox"])
		}
		vb = append(vb, v)
	}
	if root.name != "svg" || len(vb) != 4 || vb[2] <= 0 || vb[3] <= 0 || vb[2]*vb[3]*scale*scale > maxPixels*1.01 {
		return nil, fmt.Errorf("svg: <%s viewBox=%q>: not a picture to draw", root.name, root.attr["viewBox"])
	}
	img := image.NewRGBA(image.Rect(0, 0, int(math.Ceil(vb[2]*scale)), int(math.Ceil(vb[3]*scale))))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	p := &painter{img: img, rules: rules, fonts: fonts, lang: x.Lang, viewW: vb[2], viewH: vb[3],
		patterns: map[string]*pattern{}, glyphs: map[glyphKey][]sfnt.Segment{}}
	m := affine{scale, 0, 0, scale, -vb[0] * scale, -vb[1] * scale}
	if err := p.findPatterns([]*node{root}, initialStyle()); err != nil {
		return nil, err
	}
	if err := p.walk([]*node{root}, initialStyle(), m, 1); err != nil {
		return nil, err
	}
	return img, nil
}

// drawShape fills and then strokes an outline in device pixels, as SVG
// paints them.
func (p *painter) drawShape(subs []subpath, s style, m affine, alpha float64) error {
	if !s.fill.none {
		o := p.fresh()
		for _, sp := range subs {
			if len(sp.pts) > 2 { // a fill closes every subpath
				o.poly(sp.pts)
			}
		}
		if err := p.paint(o, s.fill, s.fillOpacity*alpha, m); err != nil {
			return err
		}
	}
	if s.stroke.none || s.strokeWidth <= 0 {
		return nil
	}
	k := m.scale()
	pn := pen{width: s.strokeWidth * k, cap: s.lineCap, join: s.lineJoin, miterLimit: s.miterLimit}
	for _, d := range s.dash {
		pn.dash = append(pn.dash, d*k)
	}
	o := p.fresh()
	for _, poly := range strokePolys(subs, pn) {
		o.poly(orient(poly))
	}
	return p.paint(o, s.stroke, s.strokeOpacity*alpha, m)
}

// outline is closed paths in device pixels for the rasterizer: lines,
// and a glyph's quadratic and cubic curves as they are.
type outline struct {
	ops    []pathOp
	lo, hi pt // the bounding box of every point
}

type pathOp struct {
	kind byte // 'M', 'L', 'Q', 'C'
	p    [3]pt
}

func (o *outline) add(kind byte, ps ...pt) {
	op := pathOp{kind: kind}
	copy(op.p[:], ps)
	o.ops = append(o.ops, op)
	for i, q := range ps {
		if len(o.ops) == 1 && i == 0 { // the first point: the box starts here
			o.lo, o.hi = q, q
		}
		o.lo = pt{min(o.lo.x, q.x), min(o.lo.y, q.y)}
		o.hi = pt{max(o.hi.x, q.x), max(o.hi.y, q.y)}
	}
}

// poly adds a polygon (closed when painted).
func (o *outline) poly(pts []pt) {
	o.add('M', pts[0])
	for _, q := range pts[1:] {
		o.add('L', q)
	}
}

// paint fills o with a colour, or with a pattern laid in the user space
// m maps, at opacity. Non-zero winding, as SVG fills and as the
// rasterizer's clamped sum of coverage gives; it works only over o's
// bounding box, so a small shape costs little however big the picture.
func (p *painter) paint(o *outline, with paint, opacity float64, m affine) error {
	if len(o.ops) == 0 || opacity <= 0 {
		return nil
	}
	r := image.Rect(int(math.Floor(o.lo.x)), int(math.Floor(o.lo.y)), int(math.Ceil(o.hi.x))+1, int(math.Ceil(o.hi.y))+1).
		Intersect(p.img.Bounds())
	if r.Empty() {
		return nil
	}
	z := &p.z
	z.Reset(r.Dx(), r.Dy())
	ox, oy := float64(r.Min.X), float64(r.Min.Y)
	f := func(q pt) (float32, float32) { return float32(q.x - ox), float32(q.y - oy) }
	open := false
	for _, op := range o.ops {
		switch op.kind {
		case 'M':
			if open {
				z.ClosePath()
			}
			z.MoveTo(f(op.p[0]))
			open = true
		case 'L':
			z.LineTo(f(op.p[0]))
		case 'Q':
			bx, by := f(op.p[0])
			cx, cy := f(op.p[1])
			z.QuadTo(bx, by, cx, cy)
		case 'C':
			bx, by := f(op.p[0])
			cx, cy := f(op.p[1])
			dx, dy := f(op.p[2])
			z.CubeTo(bx, by, cx, cy, dx, dy)
		}
	}
	if open {
		z.ClosePath()
	}
	if with.pattern == "" {
		c := with.c
		z.Draw(p.img, r, image.NewUniform(color.NRGBA64{uint16(c.R) * 0x101, uint16(c.G) * 0x101, uint16(c.B) * 0x101,
			uint16(math.Round(opacity * float64(c.A) / 255 * 0xffff))}), image.Point{})
		return nil
	}
	pat, ok := p.patterns[with.pattern]
	if !ok {
		return fmt.Errorf("svg: fill url(#%s): no such pattern", with.pattern)
	}
	mask := image.NewAlpha(image.Rect(0, 0, r.Dx(), r.Dy()))
	z.DrawOp = draw.Src
	z.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
	toPat := m.inverse().then(pat.toPat)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cov := float64(mask.Pix[(y-r.Min.Y)*mask.Stride+x-r.Min.X]) / 255 * opacity
			if cov == 0 {
				continue
			}
			sr, sg, sb, sa := pat.at(toPat, x, y)
			i := p.img.PixOffset(x, y)
			d := p.img.Pix[i : i+4 : i+4]
			for j, s := range [4]float64{sr, sg, sb, sa} {
				d[j] = uint8(math.Round(s*255*cov + float64(d[j])*(1-sa*cov)))
			}
		}
	}
	return nil
}

// at is the pattern's colour over device pixel (x, y), premultiplied:
// the mean of 4×4 samples, each the tile's rectangles composited in
// order where the sample falls in the tile, so a hatch's stripes are
// smooth at any angle.
func (pat *pattern) at(toPat affine, x, y int) (r, g, b, a float64) {
	const n = 4
	for sy := range n {
		for sx := range n {
			q := toPat.apply(pt{float64(x) + (float64(sx)+0.5)/n, float64(y) + (float64(sy)+0.5)/n})
			u, v := q.x-math.Floor(q.x/pat.w)*pat.w, q.y-math.Floor(q.y/pat.h)*pat.h
			var cr, cg, cb, ca float64
			for _, rc := range pat.rects {
				if u >= rc.x0 && u < rc.x1 && v >= rc.y0 && v < rc.y1 {
					al := float64(rc.c.A) / 0xffff
					cr = float64(rc.c.R)/0xffff*al + cr*(1-al)
					cg = float64(rc.c.G)/0xffff*al + cg*(1-al)
					cb = float64(rc.c.B)/0xffff*al + cb*(1-al)
					ca = al + ca*(1-al)
				}
			}
			r, g, b, a = r+cr, g+cg, b+cb, a+ca
		}
	}
	return r / (n * n), g / (n * n), b / (n * n), a / (n * n)
}

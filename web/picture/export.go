// export.go lays the timeline out as a standalone SVG file, for slides.

package picture

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"strconv"

	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/narrate"
)

//go:embed export.css
var exportStyle string

// ExportCSP allows the export's one style element, by hash, and nothing
// else: opened in a browser tab the file is still under a strict policy.
var ExportCSP = func() string {
	sum := sha256.Sum256([]byte(exportStyle))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; frame-ancestors 'none'"
}()

// Export is what exportSVG draws.
type Export struct {
	P                  *Picture
	Lang, Heading, Sub string
	ViewBox, Width, H  string
	Lines              []ExportLine
	Legend             []ExportLegend
}

// Exportlegend is one legend entry placed under the picture: its sample
// at (X, Y), its words at (TX, TY).
type ExportLegend struct {
	LegendItem
	Transform, TX, TY string
}

// ExportLine is one line of text under the picture.
type ExportLine struct{ Class, Y, Text string }

const (
	exportTop  = 52.0 // heading and sub-heading above the picture
	exportLine = 20.0
)

// NewExport lays tl out for a slide: heading, the picture (nothing is
// "new" on a slide), the violations spelled out and the legend; sub-heading
// the picture's title and the address of the page it came from.
func NewExport(tl *sim.Timeline, u *i18n.UI, heading, address string) *Export {
	p := Layout(tl, u, len(tl.Events)+1)
	ph, _ := strconv.ParseFloat(p.Height, 64)
	x := &Export{P: p, Lang: u.Lang, Heading: heading, Sub: p.Title + " · " + address}
	y := exportTop + ph + 10
	for i, v := range tl.Violations {
		y += exportLine
		x.Lines = append(x.Lines, ExportLine{Class: "vline", Y: f(y), Text: "⚠" + strconv.Itoa(i+1) + "  " + narrate.ViolationText(u, v)})
	}
	y += 16
	lx := 8.0
	for _, it := range legendItems(u) {
		w := 30 + 6 + textWidth(it.Label, 12, false) + 16
		if lx+w > p.w-8 && lx > 8 {
			lx, y = 8, y+22
		}
		x.Legend = append(x.Legend, ExportLegend{LegendItem: it, Transform: "translate(" + f(lx) + " " + f(y) + ")", TX: f(lx + 36), TY: f(y + 12)})
		lx += w
	}
	h := y + 16 + 12
	x.ViewBox, x.Width, x.H = "0 0 "+f(p.w)+" "+f(h), f(p.w), f(h)
	return x
}

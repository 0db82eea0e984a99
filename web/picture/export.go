// export.go lays the timeline out as a standalone SVG file, for slides.

package picture

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
	P             *Picture
	Lang, Heading string
	// Sub is the line under the heading, wrapped (SubLines); Top where
	// the picture begins under them.
	Sub               string
	SubLines          []ExportLine
	Top               string
	ViewBox, Width, H string
	Lines             []ExportLine
	Legend            []ExportLegend
	// what TooLong says of the timeline: its virtual time, its events,
	// and the address that opens it
	span    int64
	events  int
	address string
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

// Caption is what an exported picture says about itself, so that an
// image pasted into a README, a wiki or a slide names what it shows: the
// moment's title (a lesson step's, a design run's), where it comes from
// (the site, the lesson and the step), and the address that opens it live.
type Caption struct{ Title, Source, Address string }

// Name is the caption's title and source in one line: what the moment is
// called wherever one line names it (an embed's title, its iframe's, a
// card's).
func (c Caption) Name() string { return c.Title + " — " + c.Source }

// NewExport lays tl out for a slide: the caption's title and source
// above the picture (nothing is "new" on a slide), then what went wrong
// (each violation spelled out, or that nothing did), the legend, and the
// address, wrapped to the picture's width so no part of it is cut off.
// Under the picture, before what went wrong, it says what the last action
// did: a step whose point is a refusal (the storage rejecting a stale
// write) shows it in words, not only in a lane's small label.
func NewExport(tl *sim.Timeline, u *i18n.UI, c Caption) *Export {
	p := Layout(tl, u, len(tl.Events)+1)
	p.Describe(tl, u, FirstNew(tl))
	ph, _ := strconv.ParseFloat(p.Height, 64)
	x := &Export{P: p, Lang: u.Lang, Heading: c.Title, Sub: u.SiteName + " — " + c.Source + " · " + p.Title,
		span: tl.Now, events: len(tl.Events), address: c.Address}
	top := exportTop
	for i, line := range wrapText(x.Sub, p.w-16, 12) {
		x.SubLines = append(x.SubLines, ExportLine{Class: "sub", Y: f(42 + 16*float64(i)), Text: line})
		top = exportTop + 16*float64(i)
	}
	x.Top = f(top)
	y := top + ph + 10
	for _, line := range wrapText(p.Step, p.w-16, 13) {
		y += exportLine
		x.Lines = append(x.Lines, ExportLine{Class: "didline", Y: f(y), Text: line})
	}
	for i, v := range tl.Violations {
		// the number apart from the text (a "4" before "2 people" read as 42);
		// and what any lease allows said so, in a quieter colour, as the page does
		text := "⚠" + strconv.Itoa(i+1) + u.LabelSep() + narrate.ViolationText(u, v)
		class := "vline"
		if c := sim.ClassOf(v.Kind); c == sim.ClassAllowed {
			text += " " + i18n.Fill(u.Verdict.ClassNote, u.Verdict.Class[c])
			class = "vline allowed"
		}
		for _, line := range wrapText(text, p.w-16, 13) {
			y += exportLine
			x.Lines = append(x.Lines, ExportLine{Class: class, Y: f(y), Text: line})
		}
	}
	if len(tl.Violations) == 0 {
		y += exportLine
		x.Lines = append(x.Lines, ExportLine{Class: "cleanline", Y: f(y), Text: u.Embed.Clean})
	}
	y += 16
	lx := 8.0
	for _, it := range legendItems(u) {
		if it.Kind == "new" {
			continue // nothing is new on a slide
		}
		w := 30 + 6 + textWidth(it.Label, 12, false) + 16
		if lx+w > p.w-8 && lx > 8 {
			lx, y = 8, y+22
		}
		x.Legend = append(x.Legend, ExportLegend{LegendItem: it, Transform: "translate(" + f(lx) + " " + f(y) + ")", TX: f(lx + 36), TY: f(y + 12)})
		lx += w
	}
	y += 16
	for _, line := range wrapAddress(c.Address, p.w-16, 12) {
		y += 16
		x.Lines = append(x.Lines, ExportLine{Class: "sub", Y: f(y), Text: line})
	}
	h := y + 12
	x.ViewBox, x.Width, x.H = "0 0 "+f(p.w)+" "+f(h), f(p.w), f(h)
	return x
}

// wrapAddress cuts an address into lines no wider than width: after a
// ? & , or / where one falls on the line (opt=ttl. / off read as two
// words), anywhere only inside a part longer than a line.
func wrapAddress(s string, width, size float64) []string {
	var parts []string
	for start := 0; start < len(s); {
		end := strings.IndexAny(s[start:], "?&,/")
		if end < 0 {
			parts = append(parts, s[start:])
			break
		}
		parts = append(parts, s[start:start+end+1])
		start += end + 1
	}
	var lines []string
	line := ""
	for _, part := range parts {
		if textWidth(line+part, size, false) <= width {
			line += part
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		line = part
		if textWidth(part, size, false) > width {
			pieces := wrapText(part, width, size)
			lines = append(lines, pieces[:len(pieces)-1]...)
			line = pieces[len(pieces)-1]
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// wrapText cuts s into lines no wider than width at size (by textWidth's
// estimate, a little generous): after a space where a line has one, else
// anywhere (an address has no spaces to break at). In Japanese and
// Chinese text (tight) a space sits between a Latin word and the script
// around it (before a particle), so it is no place to break: such text breaks
// between any two characters, but never before closing punctuation. A
// line too long for the picture was cut off at its right edge.
func wrapText(s string, width, size float64) []string {
	tight := strings.ContainsFunc(s, func(r rune) bool { return r >= 0x2E80 })
	var lines []string
	start, space, w := 0, -1, 0.0
	for i, r := range s {
		cw := textWidth(string(r), size, false)
		if w+cw > width && i > start {
			cut := i
			switch {
			case tight:
				// closing punctuation never starts a line: the character
				// before it goes down with it
				for next := r; cut > start && strings.ContainsRune("。、，．）」』】〉》！？：；", next); {
					prev, n := utf8.DecodeLastRuneInString(s[start:cut])
					cut -= n
					next = prev
				}
				// nor does a line end on a Latin word and its space (a
				// client's "A" before a particle): they go down with the
				// word they belong to
				for cut > start {
					prev, n := utf8.DecodeLastRuneInString(s[start:cut])
					if prev != ' ' && (prev >= 0x2E80 || !unicode.IsLetter(prev) && !unicode.IsDigit(prev)) {
						break
					}
					cut -= n
				}
				if cut == start {
					cut = i
				}
			case space > start:
				cut = space + 1
			}
			lines = append(lines, strings.TrimRight(s[start:cut], " "))
			start, space = cut, -1
			w = textWidth(s[start:i], size, false)
		}
		if r == ' ' {
			space = i
		}
		w += cw
	}
	if start < len(s) {
		lines = append(lines, s[start:])
	}
	return lines
}

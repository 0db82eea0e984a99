// export.go serves the timeline as a standalone SVG file, for slides.
package web

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
)

//go:embed export.css
var exportStyle string

// exportCSP allows the export's one style element, by hash, and nothing
// else: opened in a browser tab the file is still under a strict policy.
var exportCSP = func() string {
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

// ExportLegend is one legend entry placed under the picture: its sample
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

// timelineSVG answers /{lang}/lessons/{slug}/timeline.svg with the same
// state grammar as the page; the file downloads under a name that says
// which lesson and step it shows.
func (s *Server) timelineSVG(w http.ResponseWriter, r *http.Request) {
	rq := reqOf(r)
	u, l, st := rq.UI, rq.L, rq.St
	w = &svgHeaders{ResponseWriter: w, name: "locklab-timeline.svg"}
	s.cached(w, r, u, func() ([]byte, string, *Error) {
		tl, e := s.load(r.Context(), rq)
		if e != nil {
			return nil, "", e
		}
		p := layout(tl, u, len(tl.Events)+1) // nothing is "new" on a slide
		ph, _ := strconv.ParseFloat(p.Height, 64)
		x := &Export{P: p, Lang: u.Lang, Heading: "Lock Lab — " + l.Title, Sub: p.Title + " · " + s.absolute(r, lessonPath(l)+st.Query())}
		y := exportTop + ph + 10
		for i, v := range tl.Violations {
			y += exportLine
			x.Lines = append(x.Lines, ExportLine{Class: "vline", Y: f(y), Text: "⚠" + strconv.Itoa(i+1) + "  " + violationText(u, v)})
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
		body, _, e := s.renderBytes(r, u, exportSVG(x))
		if e != nil {
			return nil, "", e
		}
		return body, "image/svg+xml; charset=utf-8", nil
	})
}

// svgHeaders gives an SVG answer its own policy and file name when it is
// written; an error page from the same handler keeps the site's headers.
type svgHeaders struct {
	http.ResponseWriter
	name string
	done bool
}

func (w *svgHeaders) WriteHeader(code int) {
	if !w.done {
		w.done = true
		h := w.Header()
		if strings.HasPrefix(h.Get("Content-Type"), "image/svg+xml") {
			h.Set("Content-Security-Policy", exportCSP)
			h.Set("Content-Disposition", `inline; filename="`+w.name+`"`)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *svgHeaders) Write(b []byte) (int, error) {
	if !w.done {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// export.go serves the timeline as a standalone SVG file, for slides.

package lesson

import (
	_ "embed"
	"locklab/web/links"
	"locklab/web/picture"
	"locklab/web/site"
	"net/http"
	"strings"
)

// TimelineSVG answers /{lang}/lessons/{slug}/timeline.svg with the same
// state grammar as the page; the file downloads under a name that says
// which lesson and step it shows.
func (s *Handler) TimelineSVG(w http.ResponseWriter, r *http.Request) {
	rq := RequestOf(r)
	u, l, st := rq.UI, rq.L, rq.St
	w = SVGFile(w, "locklab-timeline.svg")
	s.Cached(w, r, u, func() ([]byte, string, *site.Error) {
		tl, e := s.replay(r.Context(), rq)
		if e != nil {
			return nil, "", e
		}
		x := picture.NewExport(tl, u, "Lock Lab — "+l.Title, s.Absolute(r, links.Lesson(l)+st.Query()))
		body, _, e := s.RenderBytes(r, u, picture.ExportSVG(x))
		if e != nil {
			return nil, "", e
		}
		return body, "image/svg+xml; charset=utf-8", nil
	})
}

// SVGFile is w for an answer that is an SVG file named name: its own
// policy and file name once it is written (an error page keeps the
// site's headers).
func SVGFile(w http.ResponseWriter, name string) http.ResponseWriter {
	return &svgHeaders{ResponseWriter: w, name: name}
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
			h.Set("Content-Security-Policy", picture.ExportCSP)
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

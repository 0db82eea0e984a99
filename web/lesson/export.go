// export.go serves the timeline as a standalone picture file: an SVG for
// slides, a PNG for wikis, chats and link cards; both captioned.

package lesson

import (
	_ "embed"
	"errors"
	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/picture"
	"locklab/web/site"
	"net/http"
	"strconv"
	"strings"
)

// TimelineSVG answers /{lang}/lessons/{slug}/timeline.svg with the same
// state grammar as the page; the file downloads under a name that says
// which lesson and step it shows.
func (s *Handler) TimelineSVG(w http.ResponseWriter, r *http.Request) {
	s.timelineFile(w, r, "locklab-timeline.svg")
}

// TimelinePNG answers /{lang}/lessons/{slug}/timeline.png: the same
// picture drawn on the server as a PNG, for the wikis, document editors
// and chats that take no SVG and for a link's card.
func (s *Handler) TimelinePNG(w http.ResponseWriter, r *http.Request) {
	s.timelineFile(w, r, "locklab-timeline.png")
}

// CardPNG answers /{lang}/lessons/{slug}/card.png: the same picture
// fitted to a link card's shape (picture.CardPNG), for og:image.
func (s *Handler) CardPNG(w http.ResponseWriter, r *http.Request) {
	s.timelineFile(w, r, CardFile)
}

// CardFile is the name every feature's card picture is served under:
// ServePicture draws a name ending in "-card.png" as a card.
const CardFile = "locklab-card.png"

// timelineFile is the lesson state's picture as the file name says.
func (s *Handler) timelineFile(w http.ResponseWriter, r *http.Request, name string) {
	rq := RequestOf(r)
	ServePicture(w, r, s.Site, rq.UI, name, func() (*picture.Export, *site.Error) {
		tl, e := s.replay(r.Context(), rq)
		if e != nil {
			return nil, e
		}
		return picture.NewExport(tl, rq.UI, rq.Caption(tl, s.Absolute(r, links.Lesson(rq.L)+rq.Canon))), nil
	})
}

// ServePicture answers with a timeline's exported picture as a file
// named name (every feature's SVG and PNG go through it): an SVG, or for
// a .png name the same picture drawn as a PNG (fitted to a card for a
// name ending in "-card.png"), in one of the site's
// replay slots (a picture costs about what a replay does). export lays
// the picture out, replaying the timeline; it runs inside the page
// cache, so a cached picture costs neither.
func ServePicture(w http.ResponseWriter, r *http.Request, s *site.Site, u *i18n.UI, name string, export func() (*picture.Export, *site.Error)) {
	s.Cached(PictureFile(w, name), r, u, func() ([]byte, string, *site.Error) {
		x, e := export()
		if e != nil {
			return nil, "", e
		}
		if !strings.HasSuffix(name, ".png") {
			body, _, e := s.RenderBytes(r, u, picture.ExportSVG(x))
			return body, "image/svg+xml; charset=utf-8", e
		}
		draw := picture.PNG
		if strings.HasSuffix(name, "-card.png") {
			draw = picture.CardPNG
		}
		var body []byte
		var err error
		if e := s.InSlot(r.Context(), u, func() {
			if body, err = draw(x); errors.Is(err, picture.ErrTooLong) {
				body, err = draw(picture.TooLong(x, u)) // says so, and where to see it
			}
		}); e != nil {
			return nil, "", e
		}
		if err != nil {
			return nil, "", site.Internal(u, err)
		}
		return body, "image/png", nil
	})
}

// Caption is what a picture of this moment says about itself (the SVG
// and PNG files, a link's card, an embed's heading): the step's title and
// its place in the lesson where the state is a guided step; a
// counterexample's title where it came from the Lab, and the variant it
// ran on (what makes it a counterexample: "Storage: no token check");
// else, off the path, the lesson's title and the variant.
func (q *Request) Caption(tl *sim.Timeline, address string) picture.Caption {
	u, l := q.UI, q.L
	order := strconv.Itoa(l.Order)
	c := picture.Caption{Title: l.Title, Source: i18n.Fill(u.Embed.OffPath, order), Address: address}
	switch {
	case q.Lab != "":
		c.Title = u.CounterAllowedTitle
		if sim.Fails(tl.Violations) {
			c.Title = u.CounterTitle
		}
		c.Source = i18n.Fill(u.Chal.Lesson, order, l.Title)
	case q.Exact:
		c.Title = l.Steps[q.Idx].Title
		return picture.Caption{Title: c.Title, Address: address,
			Source: i18n.Fill(u.Embed.StepOf, order, l.Title, strconv.Itoa(q.Idx+1), strconv.Itoa(len(l.Steps)))}
	}
	if words := OptionWords(u, l.Scenario, q.St.Opts, l.Scenario.DefaultOpts()); len(words) > 0 {
		c.Source += " · " + strings.Join(words, u.A11y.ListSep)
	}
	return c
}

// PictureFile is w for an answer that is a picture file named name (an
// SVG or a PNG: a timeline, a QR code): its file name, and for an SVG
// its own policy, once it is written (an error page keeps the site's
// headers).
func PictureFile(w http.ResponseWriter, name string) http.ResponseWriter {
	return &fileHeaders{ResponseWriter: w, name: name}
}

// fileHeaders gives a picture its file name (and an SVG its policy) when
// it is written; an error page from the same handler keeps the site's
// headers.
type fileHeaders struct {
	http.ResponseWriter
	name string
	done bool
}

func (w *fileHeaders) WriteHeader(code int) {
	if !w.done {
		w.done = true
		h := w.Header()
		if typ := h.Get("Content-Type"); strings.HasPrefix(typ, "image/") {
			if strings.HasPrefix(typ, "image/svg+xml") {
				h.Set("Content-Security-Policy", picture.ExportCSP)
			}
			h.Set("Content-Disposition", `inline; filename="`+w.name+`"`)
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *fileHeaders) Write(b []byte) (int, error) {
	if !w.done {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

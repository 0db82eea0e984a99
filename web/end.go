// end.go holds the course's ending page: the learner's progress (read in
// the browser, where progress is kept), one table from each pitfall to
// what breaks, its fix and the lesson that shows it, and the way on to
// the Lab.
package web

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"locklab/lessons"
	"locklab/web/i18n"
)

// Span is a piece of a table cell: text, or a command shown as code.
type Span struct {
	Text string
	Code bool
}

// spans splits a cell at backticks: `SET … NX PX` is code.
func spans(s string) []Span {
	var out []Span
	for i, part := range strings.Split(s, "`") {
		if part != "" {
			out = append(out, Span{Text: part, Code: i%2 == 1})
		}
	}
	return out
}

// EndView is what the ending page template needs.
type EndView struct {
	Page
	E       *i18n.EndUI
	Lessons []*lessons.Lesson
	Rows    []EndRowView
}

// EndRowView is a row with its lesson resolved.
type EndRowView struct {
	i18n.EndRow
	Lesson *lessons.Lesson
}

// Checkpoints counts a lesson's checkpoints, for the progress list.
func (v *EndView) Checkpoints(l *lessons.Lesson) int {
	n := 0
	for _, st := range l.Steps {
		if st.Checkpoint != nil {
			n++
		}
	}
	return n
}

// endPath is the ending page of lang.
func endPath(lang string) string { return "/" + lang + "/end" }

func (s *Server) endPage(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	e := u.End
	v := &EndView{Page: s.page(u, e.Title+" — "+u.SiteName, r), E: e, Lessons: s.course.List(u.Lang)}
	for _, row := range e.Rows {
		l, ok := s.course.Get(u.Lang, row.Slug)
		if !ok {
			s.fail(w, r, u, internal(u, errUnknownSlug(row.Slug)))
			return
		}
		v.Rows = append(v.Rows, EndRowView{EndRow: row, Lesson: l})
	}
	s.render(w, r, EndPage(v))
}

type errUnknownSlug string

func (e errUnknownSlug) Error() string { return "ending page: no lesson " + string(e) }

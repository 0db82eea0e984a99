// Package end holds the course's ending page: the learner's progress (read in
// the browser, where progress is kept), one table from each pitfall to
// what breaks, its fix and the lesson that shows it, and the way on to
// the Lab.
package end

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/lesson"
	"locklab/web/site"
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
	site.Page
	E       *i18n.EndUI
	Lessons []*lessons.Lesson
	Rows    []EndRowView
	// Challenges are every challenge's id, space-separated: app.js
	// counts those this browser solved.
	Challenges string
}

// EndRowView is a row with its lesson resolved.
type EndRowView struct {
	i18n.EndRow
	Lesson *lessons.Lesson
}

// Checkpoints counts a lesson's checkpoints, for the progress list.
func (v *EndView) Checkpoints(l *lessons.Lesson) int { return l.Checkpoints() }

func (s *Handler) Page(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	e := u.End
	v := &EndView{Page: s.Frame(u, e.Title+" — "+u.SiteName, r), E: e, Lessons: s.Course.List(u.Lang),
		Challenges: lesson.ChallengeIDs(s.Course.Challenges(u.Lang))}
	for _, row := range e.Rows {
		l, ok := s.Course.Get(u.Lang, row.Slug)
		if !ok {
			s.Fail(w, r, u, site.Internal(u, errUnknownSlug(row.Slug)))
			return
		}
		v.Rows = append(v.Rows, EndRowView{EndRow: row, Lesson: l})
	}
	s.Render(w, r, EndPage(v))
}

type errUnknownSlug string

func (e errUnknownSlug) Error() string { return "ending page: no lesson " + string(e) }

// Handler serves the ending page.
type Handler struct{ *site.Site }

// New builds the ending page's handler.
func New(s *site.Site) *Handler { return &Handler{Site: s} }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

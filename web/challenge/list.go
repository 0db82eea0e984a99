// list.go serves the lists of challenges: every lesson's, and one
// lesson's (linked from its last step).

package challenge

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/site"
)

// List serves /{lang}/challenges.
func (s *Handler) List(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	v := &ListView{Page: s.Frame(u, u.Chal.Title+" — "+u.SiteName, r), C: u.Chal}
	for _, l := range s.Course.List(u.Lang) {
		if g := s.group(u, l); len(g.Items) > 0 {
			v.Groups = append(v.Groups, g)
		}
	}
	s.Render(w, r, ListPage(v))
}

// OfLesson serves /{lang}/lessons/{slug}/challenges.
func (s *Handler) OfLesson(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	l, ok := s.Course.Get(u.Lang, chi.URLParam(r, "slug"))
	if !ok {
		s.Fail(w, r, u, site.NotFound(u))
		return
	}
	v := &ListView{Page: s.Frame(u, u.Chal.ChallengesOf+" — "+l.Title+" — "+u.SiteName, r), C: u.Chal, One: l}
	v.Groups = []ListGroup{s.group(u, l)}
	s.Render(w, r, ListPage(v))
}

// group is lesson l's challenges, as a list shows them.
func (s *Handler) group(u *i18n.UI, l *lessons.Lesson) ListGroup {
	g := ListGroup{Lesson: l, Head: i18n.Fill(u.Chal.Lesson, strconv.Itoa(l.Order), l.Title)}
	for _, ch := range s.Course.ChallengesOf(l) {
		in := s.info(u, ch)
		g.Items = append(g.Items, ListItem{Ch: ch, Num: in.Num, Kind: in.Kind, URL: in.URL})
	}
	return g
}

// fixedAttr is a fix page's data-solved: "1" once the learner's own
// design is fixed.
func fixedAttr(v *FixView) string {
	if v.Fixed && v.Checked {
		return "1"
	}
	return "0"
}

// predictAttr is a predict page's data-solved: "right", "wrong" or "".
func predictAttr(v *PredictView) string {
	switch {
	case v.Answer == "":
		return ""
	case v.Right():
		return "right"
	}
	return "wrong"
}

// foundNames joins the names of the kinds a search found.
func foundNames(u *i18n.UI, fs []Found) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.Name)
	}
	return strings.Join(names, u.Language().ListSep)
}

package lab

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/explore"
	"locklab/static"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/site"
)

// verdictMarks are what only a finished search may show: the ✓ and the
// "holds within these bounds" sentence, in both languages.
func verdictMarks(lang string) []string {
	return []string{"✓", i18n.For(lang).Verdict.Within}
}

// TestLabIncompleteHasNoVerdict: a search that stopped at its state
// budget says so first, says how far it got, and never shows the ✓ nor
// "holds within these bounds" — in either language.
func TestLabIncompleteHasNoVerdict(t *testing.T) {
	course, _ := lessons.Load()
	assets, _ := site.NewAssets(static.FS)
	s := New(site.New(course, assets, sim.ReplayContext, slog.New(slog.NewTextHandler(io.Discard, nil)), site.Config{Version: "t"}))
	for _, lang := range i18n.Codes() {
		l, _ := course.Get(lang, "redlock")
		c := links.LabDefaults(l)
		u := i18n.For(lang)
		res := &explore.Result{Schedules: 900, States: StateCap, Stopped: explore.StopStates, Depth: 6,
			Found: map[sim.ViolationKind]*explore.Finding{}}
		r := httptest.NewRequest(http.MethodGet, "/"+lang+"/lab?lesson=redlock", nil)
		body, _, e := s.RenderBytes(r, u, LabPage(s.labView(r, u, c, res)))
		if e != nil {
			t.Fatal(e)
		}
		page := string(body)
		result := page[strings.Index(page, `class="lab-result"`):]
		result = result[:strings.Index(result, "</section>")]
		for _, bad := range verdictMarks(lang) {
			if strings.Contains(result, bad) {
				t.Errorf("%s: an incomplete search shows %q", lang, bad)
			}
		}
		inc := i18n.Fill(i18n.For(lang).Lab.Incomplete, i18n.For(lang).Count(StateCap), "6", "7")
		if i, j := strings.Index(result, inc), strings.Index(result, `class="headline"`); i < 0 || i > j {
			t.Errorf("%s: the incomplete notice is missing or not first", lang)
		}
		// A complete search of the same design does show the verdict.
		res.Stopped = ""
		body, _, _ = s.RenderBytes(r, u, LabPage(s.labView(r, u, c, res)))
		if !strings.Contains(string(body), i18n.For(lang).Verdict.Within) {
			t.Errorf("%s: a complete search without harm lacks the verdict", lang)
		}
	}
}

package web_test

import (
	"html"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
)

var (
	rowRe     = regexp.MustCompile(`(?s)<tr data-kind="([^"]+)" data-severity="([^"]+)">(.*?)</tr>`)
	verdictRe = regexp.MustCompile(`(?s)<p id="verdict"[^>]*data-severity="([^"]*)"[^>]*>(.*?)</p>`)
)

// findingsOf reads a Lab or design page's findings: the kinds whose row
// shows a counterexample (every Lab row does; a design row only where a
// search found one), each with its severity, and the verdict line.
func findingsOf(t *testing.T, where, body string) (found map[string]string, verdict, verdictText string) {
	t.Helper()
	found = map[string]string{}
	for _, m := range rowRe.FindAllStringSubmatch(body, -1) {
		if strings.Contains(m[3], "href=") {
			found[m[1]] = m[2]
		}
	}
	v := verdictRe.FindStringSubmatch(body)
	if v == nil {
		t.Fatalf("%s: no verdict line", where)
	}
	return found, v[1], v[2]
}

// checkVerdict: the verdict sums up the rows — its severity is the worst
// row's, and a ✓ never stands beside harm or a failed lock.
func checkVerdict(t *testing.T, where string, found map[string]string, verdict, text string) {
	t.Helper()
	worst := ""
	for _, sev := range []string{"allowed", "broken", "harm"} {
		for _, s := range found {
			if s == sev {
				worst = sev
			}
		}
	}
	if verdict != worst {
		t.Errorf("%s: the verdict says %q, the rows' worst is %q (%v)", where, verdict, worst, found)
	}
	if (worst == "harm" || worst == "broken") && strings.Contains(text, "✓") {
		t.Errorf("%s: a ✓ beside %s rows: %s", where, worst, text)
	}
}

// TestOneVocabulary: the Lab and the design grade speak one vocabulary of
// failures. The course's default design (SET NX PX, compare-and-delete,
// fenced write) gets the same findings and verdict on both pages, and a
// design that breaks one kind gets that kind on both — in every language.
// (Kinds only one page can produce are left out: a double charge needs the
// charge lessons' ledger, a repeated write a design whose write adds, a
// release that leaves the lock a design's own release script.) Outside
// CI each pair runs in one language, the languages taking turns.
func TestOneVocabulary(t *testing.T) {
	h := sitetest.Default(t)
	pairs := []struct {
		lab, design string
		kind        sim.ViolationKind // "": the same findings on both
	}{
		{"lesson=fencing", "", ""},
		{"lesson=fencing&opt=fence.off", "write=none", sim.StaleWrite},
		{"lesson=fencing&opt=fence.twostep", "write=split", sim.StaleWrite},
		{"lesson=fencing&opt=release.del", "release=del", sim.ForeignDelete},
		{"lesson=safe-release&opt=release.getdel", "release=get-del", sim.ForeignDelete},
		{"lesson=atomic-acquire&opt=acquire.getset", "acquire=get-set", sim.TwoHolders},
		{"lesson=atomic-acquire&opt=acquire.setnx", "acquire=setnx-pexpire", sim.Orphan},
		{"lesson=ttl&opt=work.long", "work=15s", sim.LeaseOverrun},
	}
	for _, lang := range i18n.Codes() {
		for i, p := range pairs {
			// each pair in one language outside CI, the languages taking
			// turns (webtest.Turn): every pair is two searches a language
			if !webtest.Turn(i, lang) {
				continue
			}
			lab := "/" + lang + "/lab?" + p.lab
			des := "/" + lang + "/lab/design"
			if p.design != "" {
				des += "?" + p.design
			}
			lf, lv, lt := findingsOf(t, lab, webtest.MustGet(t, h, lab))
			df, dv, dt := findingsOf(t, des, webtest.MustGet(t, h, des))
			checkVerdict(t, lab, lf, lv, lt)
			checkVerdict(t, des, df, dv, dt)
			if p.kind == "" {
				if !maps.Equal(lf, df) || lv != dv {
					t.Errorf("%s and %s disagree: %v (%s) and %v (%s)", lab, des, lf, lv, df, dv)
				}
				if lt != dt {
					t.Errorf("%s and %s word the same verdict differently:\n%s\n%s", lab, des, lt, dt)
				}
				continue
			}
			if lf[string(p.kind)] == "" || df[string(p.kind)] == "" {
				t.Errorf("%s: %s found on the Lab %v, on the design page %v", lang, p.kind, lf, df)
			}
		}
	}
	verdictsAgreeWithRows(t, h)
}

// verdictsAgreeWithRows walks every Lab lesson's default and every
// design preset, in every language: the verdict is the worst row's, and
// no ✓ (nor "holds within these bounds") stands beside harm or a failure
// of the lock. It shares TestOneVocabulary's site, so the pages both walk
// come from its cache.
func verdictsAgreeWithRows(t *testing.T, h http.Handler) {
	course, err := lessons.Load(i18n.Codes()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range i18n.Codes() {
		within := html.EscapeString(i18n.For(lang).Verdict.Within)
		var pages []string
		for _, l := range course.List(lang) {
			pages = append(pages, "/"+lang+"/lab?lesson="+l.Slug)
		}
		for _, p := range lockdesign.Presets {
			q := url.Values{p.Piece.Name(): {p.Name}}
			if p.Effect != "" && p.Effect != lockdesign.EffectSet {
				q.Set("effect", p.Effect)
			}
			pages = append(pages, "/"+lang+"/lab/design?"+q.Encode())
		}
		slices.Sort(pages)
		for _, u := range slices.Compact(pages) {
			r := webtest.Get(t, h, u)
			if r.Status == 303 {
				r = webtest.Get(t, h, r.Header.Get("Location"))
			}
			if r.Status != 200 {
				t.Errorf("%s: %d", u, r.Status)
				continue
			}
			found, v, text := findingsOf(t, u, r.Body)
			checkVerdict(t, u, found, v, text)
			if (v == "harm" || v == "broken") && strings.Contains(text, within) {
				t.Errorf("%s: %q beside a %s verdict", u, i18n.For(lang).Verdict.Within, v)
			}
		}
	}
}

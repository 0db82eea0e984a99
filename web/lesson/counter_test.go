package lesson_test

import (
	"html"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"regexp"
	"strings"
	"testing"
)

// TestLabCounterexampleFrame: a counterexample opened from the Lab gets
// its own frame (the schedule, what broke and when, the way back to the
// same Lab result), not the dialog of an unrelated webtest.Guided step.
func TestLabCounterexampleFrame(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range []string{"en", "ja"} {
		labURL := "/" + lang + "/lab?lesson=fencing&opt=fence.off"
		lab := webtest.MustGet(t, h, labURL)
		m := regexp.MustCompile(`id="open-shortest" class="button primary" href="([^"]+)"`).FindStringSubmatch(lab)
		if m == nil {
			t.Fatalf("%s: no counterexample link on %s", lang, labURL)
		}
		link := html.UnescapeString(m[1])
		if !strings.Contains(link, "&lab=") {
			t.Fatalf("%s: the counterexample link %s does not say which Lab run it came from", lang, link)
		}
		page := webtest.MustGet(t, h, link) // 200: the canonical form keeps lab=
		u := i18n.For(lang)
		for _, want := range []string{u.CounterTitle, u.CounterSchedule, u.CounterBroke, `id="back-to-lab"`,
			`href="` + webtest.Escape(labURL) + `"`} {
			if !strings.Contains(page, webtest.Escape(want)) && !strings.Contains(page, want) {
				t.Errorf("%s: counterexample page lacks %q", lang, want)
			}
		}
		if strings.Contains(page, `class="line chick"`) || strings.Contains(page, `class="line penguin"`) {
			t.Errorf("%s: the counterexample page shows a webtest.Guided step's dialog", lang)
		}
		if !strings.Contains(page, `<ul class="broke"><li>`) {
			t.Errorf("%s: the counterexample page does not say what broke", lang)
		}
	}
	// A lab= value that is not a Lab query is dropped: the page redirects
	// to the plain timeline, and nothing of it reaches a link.
	// (A query that cannot be read at all, lab=%zz, is explained with a
	// 400 by the site: TestMalformedQueryExplained.)
	for _, bad := range []string{"x%3D1", "javascript%3Aalert(1)"} {
		r := webtest.Get(t, h, "/en/lessons/fencing?do=a.acquire&lab="+bad)
		if r.Status != 303 || r.Header.Get("Location") != "/en/lessons/fencing?do=a.acquire" {
			t.Errorf("lab=%s: %d %s, want a redirect to the plain timeline", bad, r.Status, r.Header.Get("Location"))
		}
	}
}

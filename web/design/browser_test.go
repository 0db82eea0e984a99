package design_test

import (
	"context"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"locklab/web/i18n"
)

// TestBrowserDesign walks "bring your own lock" as a learner does, with
// JavaScript on and off (each in every language under CI, in one language
// each outside it: webtest.TakeTurn): from the Lab to the design
// page (safe), the release script edited from compare-and-delete into a
// plain DEL of the learner's own, the grade, and the counterexample
// opened as a timeline whose event log and scripts show the learner's
// script.
func TestBrowserDesign(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	mine := "-- mine: delete whatever is there\nreturn redis.call('DEL', KEYS[1])"
	for _, lang := range i18n.Codes() {
		for _, js := range []bool{true, false} {
			name := lang + "/js"
			if !js {
				name = lang + "/nojs"
			}
			t.Run(name, func(t *testing.T) {
				webtest.TakeTurn(t, map[bool]int{true: 0, false: 1}[js], lang)
				c := webtest.Tab(t, ctx)
				if !js {
					webtest.NoScripts(t, c)
				}
				webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/lab"))
				webtest.WaitLoaded(t, c)
				webtest.Do(t, c, chromedp.Click(chromedp.CSS("#byol")))
				arriveWithin(t, c, "/"+lang+"/lab/design")
				if s := webtest.Run(t, c, chromedp.TextContent(chromedp.CSS("#verdict strong"))); s != i18n.For(lang).Verdict.Allowed {
					t.Errorf("the safe design: %q", s)
				}
				webtest.Do(t, c, chromedp.SetValue(chromedp.CSS("#script-release"), mine), chromedp.Click(chromedp.CSS("#grade")))
				arriveWithin(t, c, "/"+lang+"/lab/design?release=--+mine:+delete+whatever+is+there%0Areturn+redis.call(%27DEL%27,+KEYS[1])")
				if n := webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll('tr[data-kind="foreign-delete"] a.counterexample').length`)); n == 0 {
					t.Fatalf("the plain DEL: no lock deleted by someone else")
				}
				// Grade lands on the grade, not on the top of the page
				if !webtest.WaitTrue(c, `location.hash === "#result-title" && (r => r.top >= -1 && r.top < innerHeight)(document.getElementById("result-title").getBoundingClientRect())`) {
					t.Errorf("after Grade the grade's heading is at %v px, hash %q", webtest.Run(t, c, chromedp.Evaluate[float64](`document.getElementById("result-title").getBoundingClientRect().top`)),
						webtest.Run(t, c, chromedp.Evaluate[string](`location.hash`)))
				}
				if js { // an edit in the script editor marks the grade out of date; undoing it clears the mark
					webtest.Do(t, c, chromedp.Click(chromedp.CSS("#piece-acquire .cm-content")), chromedp.KeyEvent("x"))
					if !webtest.WaitTrue(c, `document.querySelector(".design-result").classList.contains("stale") && document.getElementById("grade-stale").textContent === `+webtest.JSONString(i18n.For(lang).Design.Stale)) {
						t.Error("an edited script left the grade unmarked")
					}
					webtest.Do(t, c, chromedp.KeyEvent("\b"))
					if !webtest.WaitTrue(c, `!document.querySelector(".design-result").classList.contains("stale") && document.getElementById("grade-stale").textContent === ""`) {
						t.Error("the design as graded again, still marked out of date")
					}
					// a preset chosen for another piece keeps the edit not
					// graded yet (the preset links were built from the grade)
					webtest.Do(t, c, chromedp.Click(chromedp.CSS("#piece-acquire .cm-content")), chromedp.KeyEvent("-"), chromedp.KeyEvent("-"))
					edited := webtest.WaitJS(t, c, `(v => v.indexOf("--") >= 0 ? v : "")(document.getElementById("script-acquire").value)`)
					webtest.Run(t, c, chromedp.Evaluate[bool](`window.__before = location.href, document.querySelector("#piece-write a.preset:not(.current)").click(), true`))
					if !webtest.WaitTrue(c, `window.__before === undefined && document.readyState === "complete" && !!document.getElementById("script-acquire")`) {
						t.Fatal("the preset link did not load the design page")
					}
					if got := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("script-acquire").value`)); got != edited {
						t.Errorf("choosing a write preset lost the acquire edit: %q, want %q", got, edited)
					}
					if n := webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll("#piece-release textarea").length && document.getElementById("script-release").value.indexOf("-- mine") >= 0 ? 1 : 0`)); n != 1 {
						t.Error("choosing a write preset lost the graded release script")
					}
					webtest.Back(t, c)
				}
				href := webtest.Run(t, c, chromedp.Evaluate[string](`document.querySelector('tr[data-kind="foreign-delete"] a.counterexample').getAttribute("href")`))
				webtest.Do(t, c, chromedp.Click(chromedp.CSS(`tr[data-kind="foreign-delete"] a.counterexample`)))
				arriveWithin(t, c, href)
				if n := webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".violations li").length`)); n == 0 {
					t.Errorf("the counterexample's timeline shows no violation")
				}
				log := webtest.Run(t, c, chromedp.Evaluate[string](`document.querySelector("table.log tbody").textContent + document.querySelector("details.scripts").textContent`))
				if !strings.Contains(log, "‹release.lua›") || !strings.Contains(log, "-- mine: delete whatever is there") {
					t.Errorf("the event log does not show the learner's release script")
				}
				webtest.Do(t, c, chromedp.Click(chromedp.CSS("#back-to-grade")))
				arriveWithin(t, c, "/"+lang+"/lab/design?release=--+mine")
			})
		}
	}
}

// arriveWithin is arrive for an address that may also carry more query
// after want (a design page grades two searches before it answers, which
// takes seconds on a busy machine: the wait has no bound but the tab's).
func arriveWithin(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	if !webtest.WaitTrue(ctx, `document.readyState === "complete" && location.href.includes(`+webtest.JSONString(want)+`)`) {
		t.Fatalf("never arrived at …%s (at %s)", want, webtest.Where(ctx))
	}
}

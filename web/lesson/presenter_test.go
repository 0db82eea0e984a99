package lesson_test

import (
	"context"
	"fmt"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/links"
)

// TestBrowserEveryLesson walks every lesson's webtest.Guided path in a
// real browser with JavaScript, as a presenter does: presenter mode on,
// the first step loaded, each next one by the key n (a click on Next: an
// htmx swap of the lesson region, through each checkpoint form without
// answering), once the step's held-back lines are shown. At
// each step it checks the step's number and title and that the step fits
// the projector: the whole timeline (its storage lane, the bottom one) and
// the dialog's current line inside the viewport without scrolling, the
// picture's reply labels large enough to read. Under CI it walks every
// lesson in every language and measures each step at 1920×1080 and at
// 1280×720 (the page lays out again when the viewport changes; no script
// of the page measures the screen at load). Outside CI each lesson is
// walked in one language (webtest.Swept) and each step is measured at the
// size it was swapped in at, the sizes taking turns: every step and
// language walked, each size on every other step.
//
// One walk serves both questions (does every step come up, does it fit)
// because they were two walks through the same swaps, and the walk is the
// slowest part of the suite. Without JavaScript every control is a plain
// link or GET form, so the walk without it is TestWalkGuidedPath, over
// HTTP; TestBrowserGuidedPath walks the fencing lesson in a normal window
// with more checks on the way, and with scripts off.
func TestBrowserEveryLesson(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	course, _ := lessons.Load()
	sizes := [][2]int64{{1920, 1080}, {1280, 720}}
	for _, lang := range i18n.Codes() {
		for _, l := range course.List(lang) {
			if !webtest.Swept(l) {
				continue
			}
			t.Run(lang+"/"+l.Slug, func(t *testing.T) {
				t.Parallel()
				c := webtest.Tab(t, ctx)
				webtest.Do(t, c, chromedp.EmulateViewport(sizes[0][0], sizes[0][1]), chromedp.Navigate(srv.URL+"/"+lang+"/"))
				webtest.Run(t, c, chromedp.Evaluate[bool](`localStorage.setItem("locklab:presenter", "1"), true`))
				webtest.Do(t, c, chromedp.Navigate(srv.URL+links.Start(l)))
				for i, st := range l.Steps {
					if i > 0 {
						// as the key n does once the step's lines are all shown
						// (Next shows each held-back line first: they are shown here)
						webtest.Run(t, c, chromedp.Evaluate[bool](`document.querySelectorAll(".dialog .line.pending").forEach(l => l.classList.remove("pending")), true`))
						webtest.Do(t, c, chromedp.KeyEvent("n"))
					}
					webtest.WaitStep(t, c, i+1, st.Title) // swapped and settled
					// the size the step was laid out at first, then the other
					// (outside CI only the first: every step at one size, each
					// size on every other step, the two sizes on each in CI)
					for k := range sizes {
						if k > 0 && !webtest.AllLanguages() {
							// the next step is swapped in at the other size
							next := sizes[(i+1)%len(sizes)]
							webtest.Do(t, c, chromedp.EmulateViewport(next[0], next[1]))
							break
						}
						size := sizes[(i+k)%len(sizes)]
						if k > 0 {
							webtest.Do(t, c, chromedp.EmulateViewport(size[0], size[1]))
							if !webtest.WaitTrue(c, fmt.Sprintf("innerWidth === %d && innerHeight === %d", size[0], size[1])) {
								t.Fatalf("the viewport did not become %d×%d", size[0], size[1])
							}
						}
						presenterFits(t, c, fmt.Sprintf("%d×%d %s/%s step %d", size[0], size[1], lang, l.Slug, i+1))
					}
				}
			})
		}
	}
}

// presenterFits checks the page in tab c at the viewport's size (see
// TestBrowserEveryLesson).
func presenterFits(t *testing.T, c context.Context, name string) {
	t.Helper()
	m := webtest.Run(t, c, chromedp.Evaluate[map[string]float64](`(() => {
		const r = (el) => el ? el.getBoundingClientRect() : {bottom: -1, right: -1};
		const svg = document.querySelector("svg.timeline");
		const line = document.querySelector(".dialog .line:not(.pending)");
		const lbl = document.querySelector("svg.timeline text.lbl");
		return {presenter: document.documentElement.classList.contains("presenter") ? 1 : 0,
			svgBottom: r(svg).bottom, svgRight: r(svg).right, lineBottom: line ? r(line).bottom : 0,
			vh: innerHeight, vw: innerWidth, scrollY: scrollY,
			label: lbl ? lbl.getBoundingClientRect().height : 99};
	})()`))
	if m["presenter"] != 1 {
		t.Fatalf("%s: presenter mode is not on", name)
	}
	if m["scrollY"] != 0 {
		t.Errorf("%s: the page is scrolled by %.0f px", name, m["scrollY"])
	}
	if m["svgBottom"] > m["vh"] || m["svgRight"] > m["vw"] || m["svgBottom"] <= 0 {
		t.Errorf("%s: the timeline ends at (%.0f, %.0f), outside the %.0f×%.0f viewport", name, m["svgRight"], m["svgBottom"], m["vw"], m["vh"])
	}
	if m["lineBottom"] > m["vh"] {
		t.Errorf("%s: the dialog's current line ends at %.0f, below the %.0f viewport", name, m["lineBottom"], m["vh"])
	}
	if m["label"] < 11 {
		t.Errorf("%s: the picture's labels render %.1f px high, too small for a projector", name, m["label"])
	}
}

// TestBrowserCheckpointKeys: with a checkpoint on screen, the keys 1–3
// pick that answer and submit it (a presenter answers for the room).
func TestBrowserCheckpointKeys(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	defer srv.Close()
	course, _ := lessons.Load()
	l, _ := course.Get("en", "fencing")
	for i, st := range l.Steps {
		if st.Checkpoint == nil || i == 0 {
			continue
		}
		prev := l.Steps[i-1] // the question is asked on the step before
		c := webtest.Tab(t, ctx)
		webtest.Do(t, c, chromedp.Navigate(srv.URL+links.Lesson(l)+links.Query(prev.Do, prev.Opt)))
		webtest.WaitLoaded(t, c)
		if !webtest.WaitTrue(c, `!!document.querySelector("form.checkpoint")`) {
			t.Fatalf("step %d: no checkpoint form", i)
		}
		webtest.Do(t, c, chromedp.KeyEvent("2"))
		if !webtest.WaitTrue(c, `/[?&]guess=2/.test(location.search) && !!document.querySelector(".feedback")`) {
			t.Fatalf("the key 2 did not answer the checkpoint: %s", webtest.Run(t, c, chromedp.Location()))
		}
		return
	}
	t.Fatal("fencing has no checkpoint")
}

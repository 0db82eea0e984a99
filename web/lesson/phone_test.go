package lesson_test

import (
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/links"
)

// TestBrowserStepInView: after every kind of swap a learner makes — Next,
// a checkpoint's reveal, Undo, a client's control, a wait — pressed from
// the bottom of a long page, the new step's title is on screen, on a
// 390 px phone and a 1280 px laptop (the browser's scroll anchoring once
// left it thousands of pixels above).
func TestBrowserStepInView(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close) // after the subtests, which run in parallel
	ask, _, _ := webtest.FencingAsk(t)
	start := srv.URL + "/en/lessons/fencing" + links.Query(ask.Do, ask.Opt)
	for _, w := range []int64{390, 1280} {
		t.Run(strconv.FormatInt(w, 10), func(t *testing.T) {
			t.Parallel() // its own tab
			c := webtest.Tab(t, ctx)
			webtest.Do(t, c, chromedp.EmulateViewport(w, 844))
			webtest.Do(t, c, chromedp.Navigate(start))
			webtest.WaitLoaded(t, c)
			// the screen a step has, less a phone's bar of Undo and Next
			room := `(innerHeight - (b => getComputedStyle(b).position === "fixed" ? b.offsetHeight : 0)(document.querySelector(".stepnav")))`
			for _, s := range []struct{ name, js string }{
				// the checkpoint asked on this step: a guess, then its reveal
				{"reveal", `document.querySelector('input[name="guess"]').checked = true; document.getElementById("next").click()`},
				{"next", `document.getElementById("next").click()`},
				{"undo", `document.getElementById("undo").click()`},
				{"control", `document.querySelector(".controls .verbs a").click()`},
				{"wait", `document.getElementById("wait-1s").click()`},
			} {
				before := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("lab").getAttribute("data-url")`))
				webtest.Run(t, c, chromedp.Evaluate[bool](`window.scrollTo(0, document.documentElement.scrollHeight); true`))
				webtest.Run(t, c, chromedp.Evaluate[bool](s.js+"; true"))
				if !webtest.WaitTrue(c, `document.getElementById("lab").getAttribute("data-url") !== `+webtest.JSONString(before)) {
					t.Fatalf("%s did not swap the step (at %s)", s.name, webtest.Where(c))
				}
				if !webtest.WaitTrue(c, `(r => r.top >= -1 && r.bottom <= `+room+`)(document.getElementById("step-title").getBoundingClientRect())`) {
					top := webtest.Run(t, c, chromedp.Evaluate[float64](`document.getElementById("step-title").getBoundingClientRect().top`))
					t.Errorf("after %s at %d px the step title is at %.0f px (the screen is 844 high)", s.name, w, top)
				}
				// on a phone the picture is read with the text: both on
				// the screen, and the way on too
				if w < 600 && !webtest.WaitTrue(c, `document.querySelector(".svgwrap").getBoundingClientRect().top >= -1 && (r => r.top >= 0 && r.bottom <= innerHeight)(document.querySelector(".stepnav").getBoundingClientRect())`) {
					t.Errorf("after %s at %d px the timeline is at %.0f px, the step's buttons at %.0f px", s.name, w,
						webtest.Run(t, c, chromedp.Evaluate[float64](`document.querySelector(".svgwrap").getBoundingClientRect().top`)),
						webtest.Run(t, c, chromedp.Evaluate[float64](`document.querySelector(".stepnav").getBoundingClientRect().top`)))
				}
			}
		})
	}
}

// TestBrowserPhone: on a 390 px phone the header's tools fold behind
// Menu and the legend is folded (both open on a laptop), and a lesson's
// first step offers the step read last in that lesson.
func TestBrowserPhone(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	defer srv.Close()
	c := webtest.Tab(t, ctx)
	visible := func(sel string) bool {
		return webtest.Run(t, c, chromedp.Evaluate[bool](`(e => !!e && e.getClientRects().length > 0)(document.querySelector(`+webtest.JSONString(sel)+`))`))
	}
	for _, w := range []int64{390, 1280} {
		webtest.Do(t, c, chromedp.EmulateViewport(w, 844))
		webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/lessons/fencing?do=a.acquire"))
		webtest.WaitLoaded(t, c)
		phone := w < 600
		if visible("#site-tools") == phone || visible("#menu-toggle") != phone {
			t.Errorf("at %d px: tools shown %v, Menu shown %v", w, visible("#site-tools"), visible("#menu-toggle"))
		}
		if open := webtest.Run(t, c, chromedp.Evaluate[bool](`document.querySelector("details.legendbox").open`)); open == phone {
			t.Errorf("at %d px the legend is open: %v", w, open)
		}
		if !visible("#teach-header") && !phone {
			t.Errorf("at %d px no Teach a class in the header", w)
		}
	}
	// a phone's step in one screen: picture, its key, the step's title
	// and its first line above the bar of Undo and Next, which stays put
	// while the learner reads on
	webtest.Do(t, c, chromedp.EmulateViewport(390, 844))
	for _, lang := range []string{"en", "ja", "zh"} {
		webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/lessons/fencing?do=a.acquire,a.pause,wait.10s,b.acquire"))
		webtest.WaitLoaded(t, c)
		bar := `document.querySelector(".stepnav").getBoundingClientRect()`
		for _, sel := range []string{".svgwrap", "details.legendbox > summary", "#step-title", ".line"} {
			if !webtest.Run(t, c, chromedp.Evaluate[bool](`(r => r.top >= 0 && r.top + 40 <= `+bar+`.top)(document.querySelector(`+webtest.JSONString(sel)+`).getBoundingClientRect())`)) {
				t.Errorf("%s at 390 × 844: %s starts at %.0f px, below the step's buttons at %.0f px", lang, sel,
					webtest.Run(t, c, chromedp.Evaluate[float64](`document.querySelector(`+webtest.JSONString(sel)+`).getBoundingClientRect().top`)),
					webtest.Run(t, c, chromedp.Evaluate[float64](bar+`.top`)))
			}
		}
		// what went wrong comes right after the dialog that tells of it
		if !webtest.Run(t, c, chromedp.Evaluate[bool](`(v => v.previousElementSibling === null || v.getBoundingClientRect().top >= document.querySelector(".dialog").getBoundingClientRect().bottom - 1)(document.querySelector(".violations")) && document.querySelector(".violations").getBoundingClientRect().top < document.querySelector(".controls").getBoundingClientRect().top`)) {
			t.Errorf("%s at 390 px: what went wrong is not right after the dialog", lang)
		}
		// "now" with room after it for the marks drawn there
		if x := webtest.Run(t, c, chromedp.Evaluate[float64](`(w => (w.querySelector("line.now").getBoundingClientRect().left - w.getBoundingClientRect().left) / w.clientWidth)(document.querySelector(".svgwrap"))`)); x < 0.3 || x > 0.8 {
			t.Errorf("%s at 390 px: the now line is at %.2f of the picture's width, want it in view with room after it", lang, x)
		}
		webtest.Run(t, c, chromedp.Evaluate[bool](`window.scrollTo(0, document.getElementById("tl-desc").offsetTop); true`))
		if !webtest.Run(t, c, chromedp.Evaluate[bool](`(r => r.top > 0 && r.bottom <= innerHeight + 1)(`+bar+`)`)) {
			t.Errorf("%s at 390 px: scrolled on, the step's buttons are not on screen", lang)
		}
		webtest.Run(t, c, chromedp.Evaluate[bool](`window.scrollTo(0, document.documentElement.scrollHeight); true`))
		if !webtest.Run(t, c, chromedp.Evaluate[bool](`document.querySelector("footer.site").getBoundingClientRect().bottom <= `+bar+`.top + 1`)) {
			t.Errorf("%s at 390 px: at the page's end the bar hides the footer", lang)
		}
	}
	// a step that asks a checkpoint in Next's place: the bar leads to it
	ask, _, _ := webtest.FencingAsk(t)
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/lessons/fencing"+links.Query(ask.Do, ask.Opt)))
	webtest.WaitLoaded(t, c)
	if !visible(".stepnav #to-ask") {
		t.Fatal("at 390 px a step that asks a checkpoint has no way to it in the bar")
	}
	webtest.Do(t, c, chromedp.Click(chromedp.CSS("#to-ask")))
	if !webtest.WaitTrue(c, `(r => r.top >= -1 && r.top < innerHeight - 100)(document.getElementById("ask").getBoundingClientRect())`) {
		// (a scrolled-to anchor may sit a fraction of a pixel above the top)
		t.Errorf("the bar's Answer the question did not bring the checkpoint into view: its top at %.2f px of %d",
			webtest.Run(t, c, chromedp.Evaluate[float64](`document.getElementById("ask").getBoundingClientRect().top`)),
			webtest.Run(t, c, chromedp.Evaluate[int](`innerHeight`)))
	}
	webtest.Do(t, c, chromedp.Click(chromedp.CSS("#menu-toggle")))
	if !webtest.WaitTrue(c, `document.getElementById("menu-toggle").getAttribute("aria-expanded") === "true"`) || !visible("#present") || !visible("#teach-header") {
		t.Error("Menu did not show the header's tools")
	}

	// the first step offers where this browser was in the lesson, and
	// looking at it does not forget that place
	sixth := "/en/lessons/fencing?do=a.acquire,a.pause,wait.10s,b.acquire,b.write"
	webtest.Do(t, c, chromedp.Navigate(srv.URL+sixth))
	webtest.WaitLoaded(t, c)
	title := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("step-title").textContent`))
	step := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("lab").getAttribute("data-step")`))
	for range 2 {
		webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/lessons/fencing"))
		webtest.WaitLoaded(t, c)
		if !webtest.WaitTrue(c, `(p => p && !p.hidden && p.textContent.includes(`+webtest.JSONString(title)+`) && p.textContent.includes("step `+step+`") && p.querySelector("a").getAttribute("href") === `+webtest.JSONString(sixth)+`)(document.getElementById("resume-offer"))`) {
			t.Fatalf("the first step does not offer step %s, %q: %q", step, title, webtest.Run(t, c, chromedp.Evaluate[string](`(p => p ? p.outerHTML : "none")(document.getElementById("resume-offer"))`)))
		}
	}
	webtest.Do(t, c, chromedp.Click(chromedp.CSS("#resume-offer a")))
	if !webtest.WaitTrue(c, `location.pathname + location.search === `+webtest.JSONString(sixth)) {
		t.Errorf("the offer led to %s", webtest.Where(c))
	}
}

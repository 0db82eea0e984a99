package class_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"locklab/lessons"
	"locklab/web/class"
	"locklab/web/i18n"
	"locklab/web/internal/webtest"
	"locklab/web/links"
)

// TestBrowserClassClicker runs a whole lesson as a teacher with a clicker
// would, in presenter mode on a 1920 × 1080 projector, with three phones
// joined (en, ja, zh): only clicker keys (→, ←, Space, f, u) and the
// page's on-screen buttons, never the address bar. After every press the
// phones show the projector's step and exactly its number of lines, and
// the newest line is on the projector's screen. On the way: Space on the
// focused "Presenter mode" button (the click that turned it on leaves the
// focus there) goes on instead of turning presenter mode off; ← on a
// "What if…" step comes back to the guided step before, not off the path;
// an off-path excursion (Undo) comes back with "Back to the guided path";
// Reset and the guided steps list reach step 1 and any step; a question
// the room jumped past is asked when the room comes back to it; presenter
// mode toggled mid-step takes the phones with it; "Continue the class
// with lesson 6" never shows a phone a line the projector has not; and on
// a 1280 × 720 projector at 150 % the newest line is on screen too.
//
// It walks the whole lesson under CI; outside it, in one run of three
// (webtest.Rotation), as the other long walks (docs/testing.md).
func TestBrowserClassClicker(t *testing.T) {
	if !webtest.Turn(0, "en") {
		t.Skipf("walked in another run of the local rotation (LOCKLAB_TURN=%d; CI=true or LOCKLAB_ALL_LANGS=1 walks it every run)", webtest.Rotation())
	}
	ctx := webtest.Browser(t)
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	course, _ := lessons.Load()
	en, _ := course.Get("en", "fencing")
	ja, _ := course.Get("ja", "fencing")
	zh, _ := course.Get("zh", "fencing")
	shots := 0
	shot := func(c context.Context, name string) {
		if *classShots == "" {
			return
		}
		if err := os.MkdirAll(*classShots, 0o755); err != nil {
			t.Fatal(err)
		}
		shots++
		png := webtest.Run(t, c, chromedp.CaptureScreenshot())
		if err := os.WriteFile(filepath.Join(*classShots, fmt.Sprintf("clicker-%02d-%s.png", shots, name)), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	teacher := webtest.Tab(t, ctx)
	webtest.Do(t, teacher, chromedp.EmulateViewport(1920, 1080))
	webtest.Do(t, teacher, chromedp.Navigate(site.URL+links.Start(en)))
	webtest.WaitLoaded(t, teacher)
	webtest.Do(t, teacher, chromedp.Click(chromedp.CSS("#present")))
	if !webtest.WaitTrue(teacher, `document.documentElement.classList.contains("presenter") && document.activeElement && document.activeElement.id === "present"`) {
		t.Fatal("presenter mode did not turn on, or the button did not keep the focus")
	}
	shown := func(c context.Context) int {
		return webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".dialog .line:not(.pending)").length`))
	}
	if n := shown(teacher); n != 1 {
		t.Fatalf("presenter mode shows %d lines of step 1", n)
	}
	webtest.Do(t, teacher, chromedp.KeyEvent(" "))
	if !webtest.WaitTrue(teacher, `document.documentElement.classList.contains("presenter") && document.querySelectorAll(".dialog .line:not(.pending)").length === 2`) {
		t.Fatal("Space on the focused Presenter mode button did not show the next line (it turned presenter mode off?)")
	}
	webtest.Do(t, teacher, chromedp.KeyEvent(kb.ArrowLeft))

	// The class, from step 1 (the projector's "Teach a class from this
	// step"), and three phones.
	webtest.Do(t, teacher, chromedp.Click(chromedp.CSS("#teach-present")))
	if !webtest.WaitTrue(teacher, `!!document.getElementById("class-code") && document.readyState === "complete"`) {
		t.Fatal("no class")
	}
	code := strings.ReplaceAll(webtest.WaitJS(t, teacher, `document.getElementById("class-code").textContent`), " ", "")
	// the lobby is the room's screen: its code and Start in view (the
	// lesson's lines below it are not scrolled to)
	if !webtest.WaitTrue(teacher, `(r => r.top >= 0 && r.bottom <= innerHeight)(document.getElementById("start-class").getBoundingClientRect()) && (r => r.top >= 0)(document.getElementById("class-code").getBoundingClientRect())`) {
		t.Errorf("the lobby opened scrolled by %.0f px: its code or Start is off the projector", webtest.Run(t, teacher, chromedp.Evaluate[float64](`scrollY`)))
	}
	phones := map[string]context.Context{}
	titles := map[string]*lessons.Lesson{"en": en, "ja": ja, "zh": zh}
	for _, lang := range []string{"en", "ja", "zh"} {
		c := webtest.Tab(t, ctx)
		webtest.Do(t, c, chromedp.EmulateViewport(390, 844))
		webtest.Do(t, c, chromedp.Navigate(site.URL+"/"+lang+"/class/"+code))
		webtest.WaitLoaded(t, c)
		if !webtest.WaitTrue(c, `document.getElementById("cs-live") && !document.getElementById("cs-live").classList.contains("off")`) {
			t.Fatalf("the %s phone is not live", lang)
		}
		phones[lang] = c
	}
	if !webtest.WaitTrue(teacher, `/^3 connected/.test(document.getElementById("cb-connected").textContent)`) {
		t.Fatal("the teacher's bar does not count three phones")
	}

	// sync: the projector's step and lines, on every phone; the newest
	// line on the projector's screen.
	step := func() (int, bool) {
		v := webtest.Run(t, teacher, chromedp.Evaluate[string](`(l => l ? l.getAttribute("data-step") + "|" + !document.querySelector(".dialog .offpath") : "")(document.getElementById("lab"))`))
		n, _ := strconv.Atoi(strings.Split(v, "|")[0])
		return n, strings.HasSuffix(v, "true")
	}
	inView := func(c context.Context, what string) {
		t.Helper()
		r := webtest.Run(t, c, chromedp.Evaluate[[]float64](`(ls => { if (!ls.length) { return []; } const r = ls[ls.length - 1].getBoundingClientRect(); return [r.top, r.bottom, innerHeight]; })(document.querySelectorAll(".dialog .line:not(.pending)"))`))
		if len(r) == 0 {
			if _, exact := step(); exact {
				t.Fatalf("%s: the projector shows no line of a guided step (%s)", what, webtest.Where(c))
			}
			return // off the path: no dialog of its own
		}
		if r[0] >= 0 && r[1] <= r[2] {
			return
		}
		// where the newest line and the class's question (or its tally)
		// do not fit on one screen (1280 × 720 at 150 %, a line with
		// code), the question the focus is in is what the room reads: its
		// box from its top
		if webtest.Run(t, c, chromedp.Evaluate[bool](`!!(document.activeElement && document.activeElement.closest && document.activeElement.closest("#cb-question"))`)) {
			q := webtest.Run(t, c, chromedp.Evaluate[[]float64](`(r => [r.top, r.bottom, innerHeight])(document.querySelector("#cb-question .cb-votes").getBoundingClientRect())`))
			if q[0] >= -1 && (q[1] <= q[2]+1 || q[0] <= 16) {
				return
			}
			t.Errorf("%s: the newest line spans y %.0f–%.0f and the question box with the focus (on #%s) y %.0f–%.0f of a %.0f px screen", what,
				r[0], r[1], webtest.Run(t, c, chromedp.Evaluate[string](`document.activeElement.id`)), q[0], q[1], q[2])
			return
		}
		t.Errorf("%s: the newest line spans y %.0f–%.0f of a %.0f px screen", what, r[0], r[1], r[2])
	}

	sync := func(what string) {
		t.Helper()
		if !webtest.WaitTrue(teacher, webtest.SwapDone+` && document.readyState === "complete"`) {
			t.Fatalf("%s: the projector never settled", what)
		}
		n := shown(teacher)
		st, exact := step()
		// off the path before a "What if…" step (an Undo on it), the
		// page is headed by the lesson's title, not a step's
		before := !exact && webtest.Run(t, teacher, chromedp.Evaluate[string](`(document.getElementById("step-title") || {}).textContent.trim()`)) == titles["en"].Title
		for lang, c := range phones {
			want := titles[lang].Steps[st-1].Title
			if before {
				want = titles[lang].Title
			}
			cond := fmt.Sprintf(`(l => !!l && l.getAttribute("data-step") === %q && (document.getElementById("step-title") || {}).textContent.trim() === %q && document.querySelectorAll(".dialog .line").length === %d)(document.getElementById("lab"))`,
				strconv.Itoa(st), want, n)
			if !webtest.WaitTrue(c, cond) {
				got := webtest.Run(t, c, chromedp.Evaluate[string](`(l => l ? l.getAttribute("data-step") + " with " + document.querySelectorAll(".dialog .line").length + " lines" : "nothing")(document.getElementById("lab"))`))
				t.Fatalf("%s: the projector shows step %d with %d lines; the %s phone shows step %s", what, st, n, lang, got)
			}
		}
		inView(teacher, what)
	}
	// act does f (a press, a click) and waits for what it does: with
	// moves, a new state of the projector's page (its address changes);
	// then the phones follow (sync).
	settled := `document.readyState === "complete" && window.LockLabReady && ` + webtest.SwapDone
	here := func() string {
		return webtest.Run(t, teacher, chromedp.Evaluate[string](`(document.getElementById("lab") || {}).getAttribute ? document.getElementById("lab").getAttribute("data-url") : ""`))
	}
	act := func(what string, moves bool, f func()) {
		t.Helper()
		t.Logf("%s", what)
		was := here()
		f()
		cond := settled
		if moves {
			cond += fmt.Sprintf(` && (document.getElementById("lab") || {}).getAttribute && document.getElementById("lab").getAttribute("data-url") !== %q`, was)
		}
		if !webtest.WaitTrue(teacher, cond) {
			t.Fatalf("%s: the projector's page did not settle on a new state (%s): was %s, now %s", what, webtest.Where(teacher), was,
				webtest.Run(t, teacher, chromedp.Evaluate[string](`JSON.stringify([document.readyState, !!window.LockLabReady, `+webtest.SwapDone+`, (document.getElementById("lab") || {}).outerHTML ? document.getElementById("lab").getAttribute("data-url") : "no lab"])`)))
		}
		sync(what)
	}
	press := func(key string, moves bool, what string) {
		t.Helper()
		act(fmt.Sprintf("%s (%q)", what, key), moves, func() { webtest.Do(t, teacher, chromedp.KeyEvent(key)) })
	}
	click := func(js string, what string) {
		t.Helper()
		act(what, true, func() { webtest.Run(t, teacher, chromedp.Evaluate[bool](js+", true")) })
	}
	vote := func() {
		for lang, c := range phones {
			if !webtest.WaitTrue(c, `document.querySelectorAll("form.cs-answer input[name=choice]").length > 0`) {
				t.Fatalf("the %s phone is not asked the question", lang)
			}
			webtest.Do(t, c, chromedp.Click(chromedp.CSS(`form.cs-answer input[value="1"]`)), chromedp.Click(chromedp.CSS("#send-answer")))
			if !webtest.WaitTrue(c, `!!document.getElementById("my-answer")`) {
				t.Fatalf("the %s phone's answer is not shown", lang)
			}
		}
		if !webtest.WaitTrue(teacher, `/^3 of 3 answered/.test(document.getElementById("cb-total").textContent)`) {
			t.Fatal("the bar does not count three answers")
		}
	}

	press(kb.ArrowRight, false, "Start") // the lobby's Start is the clicker's first press
	if !webtest.WaitTrue(teacher, `!document.querySelector("#classbar.lobby")`) {
		t.Fatal("→ did not start the class")
	}
	shot(teacher, "projector-started")
	// askStep is the step whose Next asks a question (the one before a
	// checkpoint); variant is the first "What if…" step (an option changed,
	// no action of its own), and pastAsk a step after the first question.
	var asks []int
	variant := 0
	for i, s := range en.Steps {
		if s.Checkpoint != nil {
			asks = append(asks, i) // step i (1-based) asks the question of step i+1
		}
		if variant == 0 && i > 0 && s.Opt != en.Steps[i-1].Opt && s.Do == en.Steps[i-1].Do {
			variant = i + 1
		}
	}
	if len(asks) < 2 || variant == 0 {
		t.Fatalf("the fencing lesson changed: questions at %v, first variant at %d", asks, variant)
	}
	skipped, revealed := false, map[int]bool{}
	lineLabels := map[string]int{} // the Next buttons seen while lines were held back
	excursion, toggled, backed := false, false, false
	small, smallAsked, smallDone := false, false, false // the second question on a small projector
	for guard := 0; guard < 400; guard++ {
		st, exact := step()
		if !exact {
			t.Fatalf("the projector left the guided path at step %d", st)
		}
		total := webtest.Run(t, teacher, chromedp.Evaluate[int](`document.querySelectorAll(".dialog .line").length`))
		n := shown(teacher)
		if st == asks[1] && !small {
			// the second question on a 1920 × 1080 projector at 150 %
			small = true
			webtest.Do(t, teacher, chromedp.EmulateViewport(853, 480, chromedp.EmulateScale(1.5)))
		}
		switch {
		case n < total && !toggled && st == 3 && n == 1:
			// presenter mode off and on mid-step: the phones follow
			press("f", false, "presenter mode off mid-step")
			if shown(teacher) != total {
				t.Fatalf("presenter mode off shows %d of %d lines", shown(teacher), total)
			}
			press("f", false, "presenter mode on again")
			// the room has read every line: none is taken back
			if shown(teacher) != total {
				t.Fatalf("presenter mode on again mid-step shows %d of %d lines the room has read", shown(teacher), total)
			}
			toggled = true
			continue
		case n < total:
			// every Next on screen says what → does: a line (a class's
			// "Next step" after a reveal too)
			labels := webtest.Run(t, teacher, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#next, #class-next")].map(b => b.id + "=" + b.textContent)`))
			want := strings.Replace(webtest.Run(t, teacher, chromedp.Evaluate[string](`document.querySelector(".dialog[data-more]").getAttribute("data-more")`)), "{0}", strconv.Itoa(total-n), 1) + " ↓"
			for _, l := range labels {
				id, text, _ := strings.Cut(l, "=")
				if text != want {
					t.Errorf("step %d, %d of %d lines: #%s reads %q, but → shows a line (%q)", st, n, total, id, text, want)
				}
				lineLabels[id]++
			}
			press(kb.ArrowRight, false, fmt.Sprintf("step %d, line %d", st, n+1))
			continue
		}
		// every line shown: the step's end
		if st == variant && !backed {
			// ← takes the lines back, then comes to the step before,
			// on the path, every line of it shown
			for shown(teacher) > 1 {
				press(kb.ArrowLeft, false, fmt.Sprintf("← at step %d", st))
			}
			press(kb.ArrowLeft, true, fmt.Sprintf("← from step %d", st))
			if got, exact := step(); got != st-1 || !exact {
				t.Fatalf("← from the \"What if\" step %d went to step %d (on the path: %v)", st, got, exact)
			}
			if n, all := shown(teacher), webtest.Run(t, teacher, chromedp.Evaluate[int](`document.querySelectorAll(".dialog .line").length`)); n != all {
				t.Errorf("← came back to step %d with %d of its %d lines", st-1, n, all)
			}
			shot(teacher, "projector-back-from-variant")
			backed = true
			continue
		}
		if st == variant+1 && !excursion {
			// off the path with Undo, and back with the on-screen
			// "Back to the guided path"
			press("u", true, "Undo")
			if _, exact := step(); exact {
				t.Fatal("Undo stayed on the path (the test needs an excursion)")
			}
			shot(teacher, "projector-off-path")
			// the phones say the teacher is off the path, not "you"
			shot(phones["ja"], "phone-ja-off-path")
			shot(phones["zh"], "phone-zh-off-path")
			for lang, c := range phones {
				want := i18n.For(lang).Class.TeacherOffPath
				if got := webtest.Run(t, c, chromedp.Evaluate[string](`(p => p ? p.textContent.trim() : "")(document.querySelector(".offpath"))`)); got != want {
					t.Errorf("the %s phone off the path says %q, want %q", lang, got, want)
				}
			}
			click(`document.getElementById("next").click()`, "Back to the guided path")
			if got, exact := step(); !exact || got != st {
				t.Fatalf("\"Back to the guided path\" after an Undo on step %d went to step %d (on the path: %v)", st, got, exact)
			}
			// Reset: step 1, every phone with it; then the guided
			// steps list back to where the class was
			click(`document.getElementById("reset").click()`, "Reset")
			if got, exact := step(); got != 1 || !exact {
				t.Fatalf("Reset went to step %d (on the path: %v)", got, exact)
			}
			click(fmt.Sprintf(`document.querySelectorAll("details.steps ol a")[%d].click()`, st-1), "the guided steps list")
			if got, _ := step(); got != st {
				t.Fatalf("the guided steps list went to step %d, want %d", got, st)
			}
			excursion = true
			continue
		}
		if !skipped && st == asks[0] {
			// the room skips the question (its own button), then comes
			// back: the question is asked again, never answered
			shot(teacher, "projector-question-open")
			click(`document.getElementById("class-skip").click()`, "skip the question")
			if !webtest.WaitTrue(teacher, `!document.querySelector("#cb-question .cb-last")`) {
				t.Error("the bar shows a tally of a question the room skipped")
			}
			for shown(teacher) > 1 {
				press(kb.ArrowLeft, false, "← lines")
			}
			press(kb.ArrowLeft, true, "← back to the question")
			if got, _ := step(); got != st {
				t.Fatalf("← from step %d reached step %d", st+1, got)
			}
			for lang, c := range phones {
				if !webtest.WaitTrue(c, `document.querySelectorAll("form.cs-answer input[name=choice]").length > 0`) {
					t.Errorf("the %s phone is not asked the question the room jumped past", lang)
				}
			}
			skipped = true
			continue
		}
		if slices.Contains(asks, st) && !revealed[st] {
			revealed[st] = true
			vote()
			// the students scroll on (to the page's end, past where the
			// result will be): the reveal must bring it back to them
			for _, c := range phones {
				webtest.Run(t, c, chromedp.Evaluate[bool](`window.scrollTo(0, document.documentElement.scrollHeight), true`))
			}
			// a question under the screen's edge (on a 1280 × 720
			// projector at 150 % a line with code fills the screen above
			// it): → shows it first, the focus on Reveal; the next →
			// reveals
			box := `(q => { const r = q.getBoundingClientRect(); return r.bottom <= innerHeight || r.top <= 8; })(document.querySelector("#cb-question .cb-votes"))`
			if !webtest.Run(t, teacher, chromedp.Evaluate[bool](box)) {
				t.Logf("step %d: → shows the question", st)
				webtest.Do(t, teacher, chromedp.KeyEvent(kb.ArrowRight))
				if !webtest.WaitTrue(teacher, box+` && document.activeElement === document.getElementById("reveal")`) {
					t.Errorf("→ does not bring the open question at step %d on screen: %s", st,
						webtest.Run(t, teacher, chromedp.Evaluate[string](`(q => JSON.stringify([q.getBoundingClientRect().top, q.getBoundingClientRect().bottom, innerHeight, scrollY]))(document.querySelector("#cb-question .cb-votes"))`)))
				}
				if small {
					smallAsked = true
				}
			}
			if small && !smallDone {
				shot(teacher, "projector-1280x720-question")
			}
			act(fmt.Sprintf("reveal at step %d", st), false, func() {
				webtest.Do(t, teacher, chromedp.KeyEvent(kb.ArrowRight))
				// the tally has come, with the focus on its Next step
				if !webtest.WaitTrue(teacher, `!!document.querySelector("#cb-question .cb-result") && document.activeElement === document.getElementById("class-next")`) {
					t.Fatalf("→ did not reveal the question at step %d: %s", st, webtest.Run(t, teacher, chromedp.Evaluate[string](`JSON.stringify([!!document.querySelector("#cb-question .cb-result"), document.activeElement && (document.activeElement.id || document.activeElement.tagName), !!document.getElementById("class-next"), !!document.getElementById("reveal")])`)))
				}
			})
			shot(teacher, fmt.Sprintf("projector-reveal-%d", st))
			if small && !smallDone {
				smallDone = true
				if !smallAsked {
					t.Logf("1280 × 720 at 150 %%: the question at step %d was on screen already", st)
				}
				webtest.Do(t, teacher, chromedp.EmulateViewport(1920, 1080))
			}
			// every phone brings its result (its answer, why, the tally) on
			// screen: one that followed the lines down had it above the top
			for lang, c := range phones {
				if !webtest.WaitTrue(c, `(r => !!r && r.getBoundingClientRect().top >= -1 && r.getBoundingClientRect().top < innerHeight)(document.getElementById("cs-revealed"))`) {
					t.Errorf("the %s phone's result at step %d is off its screen: %s", lang, st,
						webtest.Run(t, c, chromedp.Evaluate[string](`(r => r ? JSON.stringify([r.getBoundingClientRect().top, r.getBoundingClientRect().bottom, innerHeight]) : "none")(document.getElementById("cs-revealed"))`)))
				}
			}
			shot(phones["ja"], fmt.Sprintf("phone-ja-reveal-%d", st))
			if len(revealed) == 1 {
				// presenter mode off and on after the reveal: every line
				// stays; then ← takes one back, and the tally's "Next
				// step" says it shows a line (the loop checks it), since
				// → does
				press("f", false, "presenter mode off after the reveal")
				press("f", false, "presenter mode on after the reveal")
				if got, total := shown(teacher), webtest.Run(t, teacher, chromedp.Evaluate[int](`document.querySelectorAll(".dialog .line").length`)); got != total {
					t.Fatalf("presenter mode on after the reveal shows %d of %d lines", got, total)
				}
				press(kb.ArrowLeft, false, "← a line after the reveal")
				continue
			}
			press(kb.ArrowRight, true, fmt.Sprintf("after the reveal at step %d", st))
			continue
		}
		if st == len(en.Steps) {
			break
		}
		press(kb.ArrowRight, true, fmt.Sprintf("step %d → %d", st, st+1))
	}
	if !skipped || !excursion || !toggled || !backed {
		t.Fatalf("the walk missed a part: skipped %v, excursion %v, toggled %v, backed %v", skipped, excursion, toggled, backed)
	}
	if lineLabels["class-next"] == 0 {
		t.Errorf("the walk never met a class's Next step with lines held back (its labels: %v)", lineLabels)
	}
	shot(teacher, "projector-last-step")

	// Continue with lesson 6: every phone records the most lines it ever
	// showed of the new lesson's step 1; none may show more than the
	// projector.
	for _, c := range phones {
		webtest.Run(t, c, chromedp.Evaluate[bool](`window.most = 0, new MutationObserver(() => {
			const l = document.getElementById("lab");
			if (l && l.getAttribute("data-step") === "1") { window.most = Math.max(window.most, document.querySelectorAll(".dialog .line").length); }
		}).observe(document.body, { childList: true, subtree: true }), true`))
	}
	_, next := course.Neighbours(en)
	for _, lang := range []string{"en", "ja", "zh"} {
		titles[lang], _ = course.Get(lang, next.Slug)
	}
	// the clicker goes on at the last step: its first press brings
	// "Continue the class with lesson 6" on screen and gives it the
	// focus (a tester found the button below the projector's edge and
	// the press doing nothing), the next press continues
	for webtest.Run(t, teacher, chromedp.Evaluate[bool](`!!document.querySelector(".dialog .line.pending")`)) {
		press(kb.ArrowRight, false, "the last step's lines")
	}
	webtest.Do(t, teacher, chromedp.KeyEvent(kb.ArrowRight))
	if !webtest.WaitTrue(teacher, `(b => !!b && document.activeElement === b && b.getBoundingClientRect().top >= 0 && b.getBoundingClientRect().bottom <= innerHeight)(document.getElementById("next-lesson"))`) {
		t.Fatalf("→ at the last step does not bring the next lesson's button into view with the focus (%s): %s", webtest.Where(teacher),
			webtest.Run(t, teacher, chromedp.Evaluate[string](`JSON.stringify({active: document.activeElement && (document.activeElement.id || document.activeElement.tagName), nl: (b => b ? [b.getBoundingClientRect().top, b.getBoundingClientRect().bottom, innerHeight] : null)(document.getElementById("next-lesson")), q: !!document.querySelector("#cb-question #reveal, #cb-question #class-next"), next: !!document.getElementById("next"), pending: document.querySelectorAll(".dialog .line.pending").length, fn: typeof window.LockLabClassNext})`)))
	}
	press(kb.ArrowRight, true, "the next lesson")
	if n := shown(teacher); n != 1 {
		t.Fatalf("the next lesson starts with %d lines on the projector", n)
	}
	for lang, c := range phones {
		if most := webtest.Run(t, c, chromedp.Evaluate[int](`window.most`)); most > 1 {
			t.Errorf("the %s phone showed %d lines of the next lesson's first step, the projector 1", lang, most)
		}
	}
	shot(phones["zh"], "phone-zh-next-lesson")
	// a 1920 × 1080 projector at 150 %: the newest line on screen too
	webtest.Do(t, teacher, chromedp.EmulateViewport(853, 480, chromedp.EmulateScale(1.5)))
	if !webtest.WaitTrue(teacher, `(ls => { const r = ls[ls.length - 1].getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })(document.querySelectorAll(".dialog .line:not(.pending)"))`) {
		inView(teacher, "1280 × 720 at 150 %, step 1")
	}
	for i := 0; i < 6; i++ {
		more := shown(teacher) < webtest.Run(t, teacher, chromedp.Evaluate[int](`document.querySelectorAll(".dialog .line").length`))
		press(kb.ArrowRight, !more, fmt.Sprintf("1280 × 720 at 150 %%, press %d", i+1))
	}
	shot(teacher, "projector-1280x720")
}

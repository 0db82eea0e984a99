package lesson_test

import (
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/links"
)

// guidedLesson is the lesson TestBrowserGuidedPath walks.
const guidedLesson = "fencing"

// TestBrowserGuidedPath walks the fencing lesson in a real browser with
// JavaScript (htmx swaps, URL pushed, back button undoes, a shared URL
// opens the same step in a fresh browser) and without it (every control a
// plain link). Under CI every walk runs in every language; a local run
// takes each walk in one language, the languages taking turns
// (webtest.Turn), since the walks differ in what they do and not in the
// words they read, and TestWalkGuidedPath walks every language over HTTP.
func TestBrowserGuidedPath(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	course, _ := lessons.Load()

	for _, lang := range i18n.Codes() {
		l, _ := course.Get(lang, guidedLesson)
		base := srv.URL + "/" + lang + "/lessons/" + guidedLesson
		last := l.Steps[len(l.Steps)-1]

		t.Run(lang+"/js", func(t *testing.T) {
			webtest.TakeTurn(t, 1, lang)
			c := webtest.Tab(t, ctx)
			// Record every Content-Security-Policy violation on the page.
			if _, err := chromedp.Call(c, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
				Source: `window.__csp = []; document.addEventListener("securitypolicyviolation", function (e) { window.__csp.push(e.violatedDirective + " " + e.blockedURI); });`,
			}); err != nil {
				t.Fatal(err)
			}
			webtest.Do(t, c, chromedp.Navigate(base))
			webtest.WaitStep(t, c, 1, l.Steps[0].Title)
			// A full page load would drop this; htmx swaps keep it.
			webtest.Run(t, c, chromedp.Evaluate[int]("window.__sameDocument = 7"))
			for i := 1; i < len(l.Steps); i++ {
				webtest.Do(t, c, chromedp.Click(chromedp.CSS("#next")))
				webtest.WaitStep(t, c, i+1, l.Steps[i].Title)
				loc := webtest.Run(t, c, chromedp.Location())
				if want := base + links.Query(l.Steps[i].Do, l.Steps[i].Opt); loc != want {
					t.Fatalf("step %d: address bar %q, want %q", i+1, loc, want)
				}
			}
			if webtest.Run(t, c, chromedp.Evaluate[int]("window.__sameDocument || 0")) != 7 {
				t.Error("clicking Next reloaded the page: htmx did not swap")
			}
			if v := webtest.Run(t, c, chromedp.Evaluate[string]("JSON.stringify(window.__csp || [])")); v != "[]" {
				t.Errorf("Content-Security-Policy violations: %s", v)
			}
			if live := webtest.Run(t, c, chromedp.TextContent(chromedp.CSS("#live"))); !strings.Contains(live, last.Title) {
				t.Errorf("live region says %q, want the last step's title", live)
			}
			webtest.Back(t, c)
			webtest.WaitStep(t, c, len(l.Steps)-1, l.Steps[len(l.Steps)-2].Title)

			// The last step was reached: the list marks the lesson finished.
			webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/"))
			badge := webtest.WaitJS(t, c, `(document.querySelector('li[data-slug="fencing"] .badge') || {}).textContent`)
			if badge != "✓ "+i18n.For(lang).DoneLabel {
				t.Errorf("finished badge reads %q, want %q", badge, "✓ "+i18n.For(lang).DoneLabel)
			}
			if n := webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".lessons .continue").length`)); n != 0 {
				t.Error("a finished lesson should not offer to continue")
			}
		})

		t.Run(lang+"/checkpoint", func(t *testing.T) {
			webtest.TakeTurn(t, 2, lang)
			// Predict on the step before a checkpoint, see the verdict on the
			// step itself; the list then offers to continue from there.
			c := webtest.Tab(t, ctx)
			k := 1
			for l.Steps[k].Checkpoint == nil {
				k++
			}
			cp := l.Steps[k].Checkpoint
			webtest.Do(t, c, chromedp.Navigate(base+links.Query(l.Steps[k-1].Do, l.Steps[k-1].Opt)))
			webtest.WaitStep(t, c, k, l.Steps[k-1].Title)
			n := strconv.Itoa(cp.Correct()[0])
			webtest.Do(t, c, chromedp.Click(chromedp.CSS(`input[name="guess"][value="`+n+`"]`)), chromedp.Click(chromedp.CSS("#next")))
			webtest.WaitStep(t, c, k+1, l.Steps[k].Title)
			stepURL := base + links.Query(l.Steps[k].Do, l.Steps[k].Opt) + "&guess=" + n
			// The form sends do with its commas encoded; the server's
			// canonical redirect settles the address.
			if !webtest.WaitTrue(c, `location.href === `+webtest.JSONString(stepURL)) {
				t.Fatalf("after Reveal the address is %q, want %q", webtest.Where(c), stepURL)
			}
			if v := webtest.Run(t, c, chromedp.TextContent(chromedp.CSS(".feedback.right .fb-verdict"))); !strings.Contains(v, "✓") || !strings.Contains(v, i18n.For(lang).Right) {
				t.Errorf("verdict reads %q", v)
			}
			webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/"))
			href := webtest.WaitJS(t, c, `(document.querySelector('li[data-slug="fencing"] .continue a') || {}).href`)
			if href != stepURL {
				t.Errorf("continue link goes to %q, want %q", href, stepURL)
			}
			if n := webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".lessons .badge").length`)); n != 0 {
				t.Error("an unfinished lesson shows the finished badge")
			}
			webtest.Do(t, c, chromedp.Click(chromedp.CSS(".lessons .continue a")))
			webtest.WaitStep(t, c, k+1, l.Steps[k].Title)
		})

		t.Run(lang+"/keyboard", func(t *testing.T) {
			webtest.TakeTurn(t, 0, lang)
			// Enter on a focused control swaps the step and leaves focus on
			// the control of the same id, not on <body>.
			c := webtest.Tab(t, ctx)
			webtest.Do(t, c, chromedp.Navigate(base+links.Query(l.Steps[1].Do, "")))
			webtest.WaitStep(t, c, 2, l.Steps[1].Title)
			webtest.Do(t, c, chromedp.Focus(chromedp.CSS("#next")), chromedp.KeyEvent("\r"))
			webtest.WaitStep(t, c, 3, l.Steps[2].Title)
			if id := webtest.Run(t, c, chromedp.Evaluate[string]("document.activeElement ? document.activeElement.id : ''")); id != "next" {
				t.Errorf("after Enter on Next, focus is on %q, want the new Next button", id)
			}
		})

		t.Run(lang+"/shared-link", func(t *testing.T) {
			webtest.TakeTurn(t, 1, lang)
			c := webtest.Tab(t, ctx)
			webtest.Do(t, c, chromedp.Navigate(base+links.Query(last.Do, last.Opt)))
			webtest.WaitStep(t, c, len(l.Steps), last.Title)
			rows := webtest.Run(t, c, chromedp.TextContent(chromedp.CSS("table.log tbody")))
			if !strings.Contains(rows, "(integer) 0") || !strings.Contains(rows, i18n.Fill(i18n.For(lang).Token, "1")) {
				t.Errorf("the shared link's event log lacks A's rejected write / release 0: %q", rows)
			}
		})

		t.Run(lang+"/nojs", func(t *testing.T) {
			webtest.TakeTurn(t, 0, lang)
			c := webtest.Tab(t, ctx)
			webtest.NoScripts(t, c)
			webtest.Do(t, c, chromedp.Navigate(base))
			webtest.WaitStep(t, c, 1, l.Steps[0].Title)
			// Controls that only work with JavaScript are not shown without it.
			if shown := webtest.Run(t, c, chromedp.Evaluate[int](`[...document.querySelectorAll("#help, #theme, #present, .play")].filter(e => e.offsetParent !== null).length`)); shown != 0 {
				t.Errorf("%d JavaScript-only controls are visible with JavaScript off", shown)
			}
			for i := 1; i < len(l.Steps); i++ {
				webtest.Follow(t, c, "#next")
				webtest.WaitStep(t, c, i+1, l.Steps[i].Title)
			}
			// The options form works as a plain GET form.
			webtest.Do(t, c, chromedp.Click(chromedp.CSS(`input[name="opt-release"][value="del"]`)))
			webtest.Follow(t, c, `form.options button[type="submit"]`)
			if loc := webtest.Run(t, c, chromedp.Location()); !strings.Contains(loc, "opt=release.del") {
				t.Fatalf("options form did not lead to opt=release.del: %s", loc)
			}
		})
	}
}

// TestBrowserEnhancements: the keyboard shortcuts, the help dialog, the
// theme choice, presenter mode (one dialog line at a time) and play mode
// (time runs by itself, each tick a new URL).
func TestBrowserEnhancements(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	defer srv.Close()
	c := webtest.Tab(t, ctx)
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/lessons/fencing?do=a.acquire,a.pause"))
	webtest.WaitLoaded(t, c)
	key := func(k string) { webtest.Do(t, c, chromedp.KeyEvent(k)) }

	// the home page offers the step read last, by lesson and step
	step := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("lab").getAttribute("data-step") + " — " + document.getElementById("step-title").textContent`))
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/"))
	if !webtest.WaitTrue(c, `(p => p && !p.hidden && p.textContent.startsWith("Continue: lesson 5, step `+step+`") && p.querySelector("a").getAttribute("href") === "/en/lessons/fencing?do=a.acquire,a.pause")(document.getElementById("resume"))`) {
		t.Errorf("the home page does not offer to continue at lesson 5, step %s: %q", step, webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("resume").outerHTML`)))
	}
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/lessons/fencing?do=a.acquire,a.pause"))
	webtest.WaitLoaded(t, c)

	key("?")
	if !webtest.WaitTrue(c, `document.getElementById("shortcuts").open`) {
		t.Fatal("? did not open the shortcuts dialog")
	}
	key("\x1b") // Escape closes it
	webtest.WaitTrue(c, `!document.getElementById("shortcuts").open`)

	key("t")
	if !webtest.WaitTrue(c, `document.documentElement.getAttribute("data-theme") === "dark"`) {
		t.Error("t did not switch to the dark theme")
	}
	if label := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("theme").textContent`)); label != "Theme: dark" {
		t.Errorf("the theme button says %q, want it to name the theme that is on", label)
	}
	key("t")
	key("t") // back to automatic

	key("f")
	if !webtest.WaitTrue(c, `document.documentElement.classList.contains("presenter") && document.querySelectorAll(".dialog .line.pending").length > 0`) {
		t.Fatal("f did not enter presenter mode with lines hidden")
	}
	before := webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".dialog .line.pending").length`))
	key("n")
	if after := webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".dialog .line.pending").length`)); after != before-1 {
		t.Errorf("n in presenter mode should reveal one line: pending %d → %d", before, after)
	}
	// turned off mid-step on a small projector: every line shows, and the
	// step's last line is on screen (it was left below the fold)
	webtest.Do(t, c, chromedp.EmulateViewport(853, 480))
	webtest.WaitTrue(c, `innerWidth === 853 && innerHeight === 480`)
	key("f")
	lastOnScreen := `(l => document.querySelectorAll(".dialog .line.pending").length === 0 && l.getBoundingClientRect().top >= 0 && l.getBoundingClientRect().bottom <= innerHeight)([...document.querySelectorAll(".dialog .line")].pop())`
	if !webtest.WaitTrue(c, lastOnScreen) {
		t.Errorf("presenter mode off: the step's last line spans y %s of a 480 px screen", webtest.Run(t, c, chromedp.Evaluate[string](`(r => r.top + "–" + r.bottom)([...document.querySelectorAll(".dialog .line")].pop().getBoundingClientRect())`)))
	}
	webtest.Do(t, c, chromedp.EmulateViewport(1280, 900))

	hist := webtest.Run(t, c, chromedp.Evaluate[int](`history.length`))
	key("p")
	// One run is one wait that grows ("wait.3s"), each tick requested
	// after the previous swap settled, and one history entry.
	if !webtest.WaitTrue(c, `/[?&]do=[^&]*wait\.[3-9]s/.test(location.search)`) {
		t.Fatalf("p did not make time run in one growing wait: %s", webtest.Run(t, c, chromedp.Location()))
	}
	key("p")
	// A tick asked for before the pause still lands; then nothing moves.
	if !webtest.WaitTrue(c, `document.getElementById("play").getAttribute("aria-pressed") === "false" && !document.body.classList.contains("htmx-request")`) {
		t.Fatal("p again did not stop the run")
	}
	stopped := webtest.Run(t, c, chromedp.Location())
	if strings.Contains(stopped, "wait.1s,wait.1s") || strings.Count(stopped, "wait.") != 1 {
		t.Errorf("a play run should collapse into one wait: %s", stopped)
	}
	if h := webtest.Run(t, c, chromedp.Evaluate[int](`history.length`)); h != hist+1 {
		t.Errorf("a play run added %d history entries, want 1", h-hist)
	}
	time.Sleep(1200 * time.Millisecond)
	if loc := webtest.Run(t, c, chromedp.Location()); loc != stopped {
		t.Errorf("p again did not pause: %s → %s", stopped, loc)
	}

	// Share this moment: the QR code is fetched when the box opens, and
	// it is a picture of this very state's address.
	webtest.WaitLoaded(t, c)
	webtest.Do(t, c, chromedp.Click(chromedp.CSS("details.share summary")))
	if !webtest.WaitTrue(c, `(() => { const i = document.querySelector("details.share img.qr"); return i.complete && i.naturalWidth > 0 })()`) {
		t.Fatal("the QR code image did not load when the share box opened")
	}
	if src, loc := webtest.Run(t, c, chromedp.Evaluate[string](`document.querySelector("img.qr").src`)), webtest.Run(t, c, chromedp.Location()); strings.Replace(src, "/qr.svg", "", 1) != loc {
		t.Errorf("the QR code is of %s, the page is %s", src, loc)
	}
}

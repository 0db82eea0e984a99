package web

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"locklab/lessons"
	"locklab/web/i18n"
)

// browser is the test binary's one headless Debian chromium, started by
// the first test that needs it and closed by TestMain. It is Debian's
// chromium-headless-shell when installed (.ci/run installs it): the same
// chromium build (Blink, V8, fonts) without the desktop browser around
// it, at about half the CPU for the same pages; else chromium. Each test opens
// tabs in it (tab), each tab its own browser context, so tests do not
// share history, storage or cache, yet the package pays for one browser
// start, not one per test. Without chromium the test is skipped locally
// and fails under CI, where .ci/run installs it.
//
// A browser test runs in parallel with the other browser tests (it calls
// t.Parallel: call browser first, from the top-level test, and close what
// the test opens with t.Cleanup, not defer, if its subtests are parallel
// too): most of its time is spent waiting on the browser, which other
// tests' tabs can use meanwhile.
func browser(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	t.Parallel()
	// Debian's /usr/bin/chromium-headless-shell runs this binary without
	// exec: started through it, the browser would outlive a kill.
	path, err := exec.LookPath("/usr/lib/chromium/chromium-headless-shell")
	if err != nil {
		path, err = exec.LookPath("chromium-headless-shell")
	}
	if err != nil {
		path, err = exec.LookPath("chromium")
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("chromium is not installed, and CI=true: .ci/run must install it (apt-get install chromium-headless-shell)")
		}
		t.Skip("chromium not installed (apt-get install chromium-headless-shell, or chromium); skipping the browser test")
	}
	shared.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.WindowSize(1280, 900),
		)
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelB := chromedp.NewContext(actx)
		shared.ctx, shared.close = ctx, func() { _ = chromedp.Cancel(ctx); cancelB(); cancelA() }
		shared.err = chromedp.Do(ctx) // start the browser, no timeout on this first call
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.ctx
}

// shared is the one browser of the test binary (see browser).
var shared struct {
	once  sync.Once
	ctx   context.Context
	close func()
	err   error
}

// closeBrowser ends the shared browser, if a test started it.
func closeBrowser() {
	if shared.close != nil {
		shared.close()
	}
}

// tab opens a new tab with a fresh browser context (no shared history,
// storage or cache). It has no deadline of its own: it ends shortly
// before go test's -timeout, so a wait that never ends fails naming the
// test, however slow the machine is; a busy machine only makes it slower.
// A tab that runs no page scripts must be made so with noScripts, so that
// waits on it know to watch navigations rather than poll in the page.
func tab(t *testing.T, parent context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	cancelT := func() {}
	if d, ok := t.Deadline(); ok {
		ctx, cancelT = context.WithDeadline(ctx, d.Add(-10*time.Second))
	}
	t.Cleanup(func() { cancelT(); cancel() })
	return ctx
}

// noScripts turns page JavaScript off in tab c, as for a visitor without
// it. In such a tab nothing in the page changes but by a navigation, and a
// poll run inside the page never gets called back, so waits (waitTrue,
// waitStep…) check their condition after each page load instead.
func noScripts(t *testing.T, c context.Context) {
	t.Helper()
	if _, err := chromedp.Call(c, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	scriptless.Store(chromedp.FromContext(c).Target, true)
}

// scriptless holds the targets of the tabs noScripts made.
var scriptless sync.Map

func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// follow clicks the element sel, a link or a form's button, and waits for
// the page the click leads to (after any redirect) to load.
func follow(t *testing.T, c context.Context, sel string) {
	t.Helper()
	if _, err := chromedp.RunResponse(c, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("following %s: %v", sel, err)
	}
}

// waitFor waits until the JavaScript expression expr yields a truthy
// value in tab c, and returns it (the zero value and the error if the tab
// reaches its deadline first). With page scripts on, the page checks expr
// on every animation frame, and again in the new document when a
// navigation replaces the one it ran in; in a noScripts tab, expr is
// checked now and after every page load.
func waitFor[T any](c context.Context, expr string) (T, error) {
	if _, off := scriptless.Load(chromedp.FromContext(c).Target); off {
		return waitLoads[T](c, expr)
	}
	for {
		v, err := chromedp.Run(c, chromedp.Poll[T](expr, chromedp.WithPollingTimeout(0)))
		if err == nil || c.Err() != nil || !replaced(err) {
			return v, err
		}
	}
}

// replaced: the error of a poll whose document went away under it.
func replaced(err error) bool {
	s := err.Error()
	return strings.Contains(s, "Execution context was destroyed") || strings.Contains(s, "Cannot find context") ||
		strings.Contains(s, "Inspected target navigated or closed")
}

// waitLoads is waitFor in a tab without page scripts.
func waitLoads[T any](c context.Context, expr string) (T, error) {
	loaded := make(chan struct{}, 1)
	lc, cancel := context.WithCancel(c)
	defer cancel()
	if err := chromedp.Listen(lc, func(ev any) {
		if _, ok := ev.(*page.EventLoadEventFired); ok {
			select {
			case loaded <- struct{}{}:
			default:
			}
		}
	}); err != nil {
		var zero T
		return zero, err
	}
	for {
		v, err := chromedp.Run(c, chromedp.Evaluate[T](`document.readyState === "complete" ? (`+expr+`) : null`))
		if err == nil && !reflect.ValueOf(&v).Elem().IsZero() {
			return v, nil
		}
		select {
		case <-loaded:
		case <-c.Done():
			return v, fmt.Errorf("%w (last check: %v)", c.Err(), err)
		}
	}
}

// waitLoaded waits for the load event of a full page navigation; a click
// before that can land on a layout that is still moving.
func waitLoaded(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := waitFor[bool](ctx, `document.readyState === "complete"`); err != nil {
		t.Fatal(err)
	}
}

// waitJS waits until a JavaScript expression yields a non-empty string,
// and returns it.
func waitJS(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	v, err := waitFor[string](ctx, expr)
	if err != nil {
		t.Fatalf("waiting for %s: %v", expr, err)
	}
	return v
}

// waitTrue waits until a JavaScript condition is true, across
// navigations, and reports whether it became so before the tab's deadline.
func waitTrue(ctx context.Context, expr string) bool {
	v, err := waitFor[bool](ctx, expr)
	return err == nil && v
}

// where is the address tab c shows, for a failure message (also once
// the tab's deadline has passed).
func where(c context.Context) string {
	c, cancel := context.WithTimeout(context.WithoutCancel(c), 5*time.Second)
	defer cancel()
	loc, err := chromedp.Run(c, chromedp.Location())
	if err != nil {
		return "?"
	}
	return loc
}

// currentStep reads the step number and title off the DOM without running
// page JavaScript, so it works with scripts disabled too. While a swap or
// a navigation replaces the nodes it can fail; the caller retries.
func currentStep(ctx context.Context) (string, string, error) {
	attr, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS("#lab"), "data-step"))
	if err != nil {
		return "", "", err
	}
	if !attr.Exists {
		return "", "", errors.New("no data-step on #lab")
	}
	title, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("#step-title")))
	return attr.Value, strings.TrimSpace(title), err
}

// swapDone is true once no htmx request, swap or settle is under way:
// htmx has wired the swapped-in controls (it does so when the swap
// settles, a few milliseconds after the new step shows; a click before
// that follows the link as a plain navigation) and the page's own
// afterSettle handlers, such as presenter mode hiding the dialog's later
// lines, have run.
const swapDone = `!document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")`

// waitStep waits until the page shows step n, loaded (after an htmx swap,
// settled, or a full navigation), and checks its title.
func waitStep(t *testing.T, ctx context.Context, n int, title string) {
	t.Helper()
	want := itoa(int64(n))
	got, err := waitFor[string](ctx, `(l => l && l.getAttribute("data-step") === `+jsonString(want)+` && document.readyState === "complete" && `+swapDone+` ? (document.getElementById("step-title") || {}).textContent || " " : "")(document.getElementById("lab"))`)
	if err != nil {
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		step, _, _ := currentStep(c)
		t.Fatalf("waited for step %d, page still shows step %s (%v)", n, step, err)
	}
	if got = strings.TrimSpace(got); got != title {
		t.Fatalf("step %d shows title %q, want %q", n, got, title)
	}
}

// guidedLesson is the lesson TestBrowserGuidedPath walks.
const guidedLesson = "fencing"

// TestBrowserGuidedPath walks the fencing lesson in a real browser, in both
// languages, with JavaScript (htmx swaps, URL pushed, back button undoes,
// a shared URL opens the same step in a fresh browser) and without it
// (every control a plain link).
func TestBrowserGuidedPath(t *testing.T) {
	ctx := browser(t)
	srv := httptest.NewServer(newTestServer(t))
	t.Cleanup(srv.Close)
	course, _ := lessons.Load()

	for _, lang := range i18n.Codes() {
		l, _ := course.Get(lang, guidedLesson)
		base := srv.URL + "/" + lang + "/lessons/" + guidedLesson
		last := l.Steps[len(l.Steps)-1]

		t.Run(lang+"/js", func(t *testing.T) {
			t.Parallel()
			c := tab(t, ctx)
			// Record every Content-Security-Policy violation on the page.
			if _, err := chromedp.Call(c, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
				Source: `window.__csp = []; document.addEventListener("securitypolicyviolation", function (e) { window.__csp.push(e.violatedDirective + " " + e.blockedURI); });`,
			}); err != nil {
				t.Fatal(err)
			}
			do(t, c, chromedp.Navigate(base))
			waitStep(t, c, 1, l.Steps[0].Title)
			// A full page load would drop this; htmx swaps keep it.
			run(t, c, chromedp.Evaluate[int]("window.__sameDocument = 7"))
			for i := 1; i < len(l.Steps); i++ {
				do(t, c, chromedp.Click(chromedp.CSS("#next")))
				waitStep(t, c, i+1, l.Steps[i].Title)
				loc := run(t, c, chromedp.Location())
				if want := base + query(l.Steps[i].Do, l.Steps[i].Opt); loc != want {
					t.Fatalf("step %d: address bar %q, want %q", i+1, loc, want)
				}
			}
			if run(t, c, chromedp.Evaluate[int]("window.__sameDocument || 0")) != 7 {
				t.Error("clicking Next reloaded the page: htmx did not swap")
			}
			if v := run(t, c, chromedp.Evaluate[string]("JSON.stringify(window.__csp || [])")); v != "[]" {
				t.Errorf("Content-Security-Policy violations: %s", v)
			}
			if live := run(t, c, chromedp.TextContent(chromedp.CSS("#live"))); !strings.Contains(live, last.Title) {
				t.Errorf("live region says %q, want the last step's title", live)
			}
			do(t, c, chromedp.NavigateBack())
			waitStep(t, c, len(l.Steps)-1, l.Steps[len(l.Steps)-2].Title)

			// The last step was reached: the list marks the lesson finished.
			do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/"))
			badge := waitJS(t, c, `(document.querySelector('li[data-slug="fencing"] .badge') || {}).textContent`)
			if badge != "✓ "+i18n.For(lang).DoneLabel {
				t.Errorf("finished badge reads %q, want %q", badge, "✓ "+i18n.For(lang).DoneLabel)
			}
			if n := run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".lessons .continue").length`)); n != 0 {
				t.Error("a finished lesson should not offer to continue")
			}
		})

		t.Run(lang+"/checkpoint", func(t *testing.T) {
			t.Parallel()
			// Predict on the step before a checkpoint, see the verdict on the
			// step itself; the list then offers to continue from there.
			c := tab(t, ctx)
			k := 1
			for l.Steps[k].Checkpoint == nil {
				k++
			}
			cp := l.Steps[k].Checkpoint
			do(t, c, chromedp.Navigate(base+query(l.Steps[k-1].Do, l.Steps[k-1].Opt)))
			waitStep(t, c, k, l.Steps[k-1].Title)
			n := itoa(int64(cp.Correct()[0]))
			do(t, c, chromedp.Click(chromedp.CSS(`input[name="guess"][value="`+n+`"]`)), chromedp.Click(chromedp.CSS("#next")))
			waitStep(t, c, k+1, l.Steps[k].Title)
			stepURL := base + query(l.Steps[k].Do, l.Steps[k].Opt) + "&guess=" + n
			// The form sends do with its commas encoded; the server's
			// canonical redirect settles the address.
			if !waitTrue(c, `location.href === `+jsonString(stepURL)) {
				t.Fatalf("after Reveal the address is %q, want %q", where(c), stepURL)
			}
			if v := run(t, c, chromedp.TextContent(chromedp.CSS(".feedback.right .fb-verdict"))); !strings.Contains(v, "✓") || !strings.Contains(v, i18n.For(lang).Right) {
				t.Errorf("verdict reads %q", v)
			}
			do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/"))
			href := waitJS(t, c, `(document.querySelector('li[data-slug="fencing"] .continue a') || {}).href`)
			if href != stepURL {
				t.Errorf("continue link goes to %q, want %q", href, stepURL)
			}
			if n := run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".lessons .badge").length`)); n != 0 {
				t.Error("an unfinished lesson shows the finished badge")
			}
			do(t, c, chromedp.Click(chromedp.CSS(".lessons .continue a")))
			waitStep(t, c, k+1, l.Steps[k].Title)
		})

		t.Run(lang+"/keyboard", func(t *testing.T) {
			t.Parallel()
			// Enter on a focused control swaps the step and leaves focus on
			// the control of the same id, not on <body>.
			c := tab(t, ctx)
			do(t, c, chromedp.Navigate(base+query(l.Steps[1].Do, "")))
			waitStep(t, c, 2, l.Steps[1].Title)
			do(t, c, chromedp.Focus(chromedp.CSS("#next")), chromedp.KeyEvent("\r"))
			waitStep(t, c, 3, l.Steps[2].Title)
			if id := run(t, c, chromedp.Evaluate[string]("document.activeElement ? document.activeElement.id : ''")); id != "next" {
				t.Errorf("after Enter on Next, focus is on %q, want the new Next button", id)
			}
		})

		t.Run(lang+"/shared-link", func(t *testing.T) {
			t.Parallel()
			c := tab(t, ctx)
			do(t, c, chromedp.Navigate(base+query(last.Do, last.Opt)))
			waitStep(t, c, len(l.Steps), last.Title)
			rows := run(t, c, chromedp.TextContent(chromedp.CSS("table.log tbody")))
			if !strings.Contains(rows, "(integer) 0") || !strings.Contains(rows, "#1 ") {
				t.Errorf("the shared link's event log lacks A's rejected write / release 0: %q", rows)
			}
		})

		t.Run(lang+"/nojs", func(t *testing.T) {
			t.Parallel()
			c := tab(t, ctx)
			noScripts(t, c)
			do(t, c, chromedp.Navigate(base))
			waitStep(t, c, 1, l.Steps[0].Title)
			// Controls that only work with JavaScript are not shown without it.
			if shown := run(t, c, chromedp.Evaluate[int](`[...document.querySelectorAll("#help, #theme, #present, .play")].filter(e => e.offsetParent !== null).length`)); shown != 0 {
				t.Errorf("%d JavaScript-only controls are visible with JavaScript off", shown)
			}
			for i := 1; i < len(l.Steps); i++ {
				follow(t, c, "#next")
				waitStep(t, c, i+1, l.Steps[i].Title)
			}
			// The options form works as a plain GET form.
			do(t, c, chromedp.Click(chromedp.CSS(`input[name="opt-release"][value="del"]`)))
			follow(t, c, `form.options button[type="submit"]`)
			if loc := run(t, c, chromedp.Location()); !strings.Contains(loc, "opt=release.del") {
				t.Fatalf("options form did not lead to opt=release.del: %s", loc)
			}
		})
	}
}

// TestBrowserEveryLesson walks every lesson's guided path with JavaScript
// by clicking Next (through each checkpoint form without answering; each
// click an htmx swap), in both languages, and checks each step's number
// and title; every lesson but guidedLesson, which TestBrowserGuidedPath
// walks the same way with more checks on the way.
//
// Without JavaScript every control is a plain link or GET form and every
// page is server-rendered HTML, so the walk without it is
// TestWalkGuidedPath, over HTTP (each Next followed as written, each page
// 200 with its step's number and title); TestBrowserGuidedPath keeps one
// such walk in a real browser with scripts off.
func TestBrowserEveryLesson(t *testing.T) {
	ctx := browser(t)
	srv := httptest.NewServer(newTestServer(t))
	t.Cleanup(srv.Close)
	course, _ := lessons.Load()
	for _, lang := range i18n.Codes() {
		for _, l := range course.List(lang) {
			if l.Slug == guidedLesson {
				continue // TestBrowserGuidedPath walks it so, and checks more
			}
			t.Run(lang+"/"+l.Slug, func(t *testing.T) {
				t.Parallel()
				c := tab(t, ctx)
				do(t, c, chromedp.Navigate(srv.URL+startPath(l)))
				waitStep(t, c, 1, l.Steps[0].Title)
				for i := 1; i < len(l.Steps); i++ {
					do(t, c, chromedp.Click(chromedp.CSS("#next")))
					waitStep(t, c, i+1, l.Steps[i].Title)
				}
			})
		}
	}
}

// TestBrowserEnhancements: the keyboard shortcuts, the help dialog, the
// theme choice, presenter mode (one dialog line at a time) and play mode
// (time runs by itself, each tick a new URL).
func TestBrowserEnhancements(t *testing.T) {
	ctx := browser(t)
	srv := httptest.NewServer(newTestServer(t))
	defer srv.Close()
	c := tab(t, ctx)
	do(t, c, chromedp.Navigate(srv.URL+"/en/lessons/fencing?do=a.acquire,b.acquire"))
	waitLoaded(t, c)
	key := func(k string) { do(t, c, chromedp.KeyEvent(k)) }

	key("?")
	if !waitTrue(c, `document.getElementById("shortcuts").open`) {
		t.Fatal("? did not open the shortcuts dialog")
	}
	key("\x1b") // Escape closes it
	waitTrue(c, `!document.getElementById("shortcuts").open`)

	key("t")
	if !waitTrue(c, `document.documentElement.getAttribute("data-theme") === "dark"`) {
		t.Error("t did not switch to the dark theme")
	}
	if label := run(t, c, chromedp.Evaluate[string](`document.getElementById("theme").textContent`)); label != "Theme: dark" {
		t.Errorf("the theme button says %q, want it to name the theme that is on", label)
	}
	key("t")
	key("t") // back to automatic

	key("f")
	if !waitTrue(c, `document.documentElement.classList.contains("presenter") && document.querySelectorAll(".dialog .line.pending").length > 0`) {
		t.Fatal("f did not enter presenter mode with lines hidden")
	}
	before := run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".dialog .line.pending").length`))
	key("n")
	if after := run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".dialog .line.pending").length`)); after != before-1 {
		t.Errorf("n in presenter mode should reveal one line: pending %d → %d", before, after)
	}
	key("f")

	hist := run(t, c, chromedp.Evaluate[int](`history.length`))
	key("p")
	// One run is one wait that grows ("wait.3s"), each tick requested
	// after the previous swap settled, and one history entry.
	if !waitTrue(c, `/[?&]do=[^&]*wait\.[3-9]s/.test(location.search)`) {
		t.Fatalf("p did not make time run in one growing wait: %s", run(t, c, chromedp.Location()))
	}
	key("p")
	// A tick asked for before the pause still lands; then nothing moves.
	if !waitTrue(c, `document.getElementById("play").getAttribute("aria-pressed") === "false" && !document.body.classList.contains("htmx-request")`) {
		t.Fatal("p again did not stop the run")
	}
	stopped := run(t, c, chromedp.Location())
	if strings.Contains(stopped, "wait.1s,wait.1s") || strings.Count(stopped, "wait.") != 1 {
		t.Errorf("a play run should collapse into one wait: %s", stopped)
	}
	if h := run(t, c, chromedp.Evaluate[int](`history.length`)); h != hist+1 {
		t.Errorf("a play run added %d history entries, want 1", h-hist)
	}
	time.Sleep(1200 * time.Millisecond)
	if loc := run(t, c, chromedp.Location()); loc != stopped {
		t.Errorf("p again did not pause: %s → %s", stopped, loc)
	}

	// Share this moment: the QR code is fetched when the box opens, and
	// it is a picture of this very state's address.
	waitLoaded(t, c)
	do(t, c, chromedp.Click(chromedp.CSS("details.share summary")))
	if !waitTrue(c, `(() => { const i = document.querySelector("details.share img.qr"); return i.complete && i.naturalWidth > 0 })()`) {
		t.Fatal("the QR code image did not load when the share box opened")
	}
	if src, loc := run(t, c, chromedp.Evaluate[string](`document.querySelector("img.qr").src`)), run(t, c, chromedp.Location()); strings.Replace(src, "/qr.svg", "", 1) != loc {
		t.Errorf("the QR code is of %s, the page is %s", src, loc)
	}
}

package webtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"locklab/lessons"
	"locklab/web/i18n"
)

// Browser is the test binary's one headless Debian chromium, started by
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
func Browser(t *testing.T) context.Context {
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
			// No back-forward cache: chromedp loses a page the cache
			// brings back (its next Evaluate waited for ever, with
			// Debian's full chromium; chromium-headless-shell has no
			// such cache). The list is chromedp's own, plus that one.
			chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,BackForwardCache"),
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

// CloseBrowser ends the shared browser, if a test started it.
func CloseBrowser() {
	if shared.close != nil {
		shared.close()
	}
}

// Tab opens a new tab with a fresh browser context (no shared history,
// storage or cache). It has no deadline of its own: it ends shortly
// before go test's -timeout, so a wait that never ends fails naming the
// test, however slow the machine is; a busy machine only makes it slower.
// A tab that runs no page scripts must be made so with noScripts, so that
// waits on it know to watch navigations rather than poll in the page.
func Tab(t *testing.T, parent context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithNewBrowserContext())
	cancelT := func() {}
	if d, ok := t.Deadline(); ok {
		ctx, cancelT = context.WithDeadline(ctx, d.Add(-10*time.Second))
	}
	t.Cleanup(func() { cancelT(); cancel() })
	OutOfTime(t, ctx) // a test that starts after the time ran out says so once, or skips
	return ctx
}

// NoScripts turns page JavaScript off in tab c, as for a visitor without
// it. In such a tab nothing in the page changes but by a navigation, and a
// poll run inside the page never gets called back, so waits (waitTrue,
// waitStep…) check their condition after each page load instead.
func NoScripts(t *testing.T, c context.Context) {
	t.Helper()
	if _, err := chromedp.Call(c, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		OutOfTime(t, c)
		t.Fatal(err)
	}
	scriptless.Store(chromedp.FromContext(c).Target, true)
}

// scriptless holds the targets of the tabs noScripts made.
var scriptless sync.Map

func Run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		OutOfTime(t, ctx)
		t.Fatal(err)
	}
	return v
}

func Do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		OutOfTime(t, ctx)
		t.Fatal(err)
	}
}

// Follow clicks the element sel, a link or a form's button, and waits for
// the page the click leads to (after any redirect) to load.
func Follow(t *testing.T, c context.Context, sel string) {
	t.Helper()
	for try := 1; ; try++ {
		_, err := chromedp.RunResponse(c, chromedp.Click(chromedp.CSS(sel)))
		// a live page (a class's bar) may replace the element between
		// finding it and clicking it: find the new one, as a person would
		// (TestBrowserClass failed so, once in twenty runs, as a phone
		// coming back online refreshed the teacher's bar)
		if err != nil && try < 3 && strings.Contains(err.Error(), "Could not find node with given id") {
			continue
		}
		if err != nil {
			OutOfTime(t, c)
			t.Fatalf("following %s: %v", sel, err)
		}
		return
	}
}

// WaitFor waits until the JavaScript expression expr yields a truthy
// value in tab c, and returns it (the zero value and the error if the tab
// reaches its deadline or MaxWait passes first). With page scripts on,
// the page checks expr every 50 ms, and again in the new document when a
// navigation replaces the one it ran in; in a noScripts tab, expr is
// checked now and after every page load.
func WaitFor[T any](c context.Context, expr string) (T, error) {
	if _, off := scriptless.Load(chromedp.FromContext(c).Target); off {
		return waitLoads[T](c, expr)
	}
	// One wait is bounded well short of the test's deadline: a condition
	// that never comes true fails in minutes, not at the suite's timeout,
	// while a busy machine still has ample time.
	c, cancel := context.WithTimeout(c, MaxWait)
	defer cancel()
	for {
		// on an interval, not on animation frames: a tab the browser does
		// not paint (one of several) may get no frames at all, and its
		// poll would never be called back (TestBrowserScriptEditor hung
		// ~10 minutes so)
		v, err := chromedp.Run(c, chromedp.Poll[T](expr, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(0)))
		if err == nil || c.Err() != nil || !replaced(err) {
			return v, err
		}
	}
}

// MaxWait bounds one WaitFor: generous for two other suites on the same
// two cores, short beside the test binary's deadline.
const MaxWait = 2 * time.Minute

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

// WaitLoaded waits for the load event of a full page navigation; a click
// before that can land on a layout that is still moving.
func WaitLoaded(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := WaitFor[bool](ctx, `document.readyState === "complete"`); err != nil {
		OutOfTime(t, ctx)
		t.Fatal(err)
	}
}

// Back is the browser's back button in tab c: it goes to the entry
// before the current one and waits until the tab shows that entry's
// address, loaded. It never waits on a load event, which a page brought
// back from the back-forward cache does not fire (chromedp's NavigateBack
// did, and TestBrowserDesign hung on it for the suite's whole timeout);
// what the page then shows is the caller's to wait on.
func Back(t *testing.T, c context.Context) {
	t.Helper()
	h, err := chromedp.Call(c, page.GetNavigationHistory, cdp.Empty{})
	var want string
	if err == nil && (h.CurrentIndex <= 0 || h.CurrentIndex >= int64(len(h.Entries))) {
		err = errors.New("no page to go back to")
	}
	if err == nil {
		want = h.Entries[h.CurrentIndex-1].URL
		_, err = chromedp.Call(c, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[h.CurrentIndex-1].ID})
	}
	if err != nil {
		OutOfTime(t, c)
		t.Fatal(err)
	}
	if !WaitTrue(c, `location.href === `+JSONString(want)+` && document.readyState === "complete"`) {
		OutOfTime(t, c)
		t.Fatalf("back: the tab shows %s, want %s", Where(c), want)
	}
}

// WaitJS waits until a JavaScript expression yields a non-empty string,
// and returns it.
func WaitJS(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	v, err := WaitFor[string](ctx, expr)
	if err != nil {
		OutOfTime(t, ctx)
		t.Fatalf("waiting for %s: %v", expr, err)
	}
	return v
}

// WaitTrue waits until a JavaScript condition is true, across
// navigations, and reports whether it became so before the tab's deadline.
func WaitTrue(ctx context.Context, expr string) bool {
	v, err := WaitFor[bool](ctx, expr)
	return err == nil && v
}

// Where is the address tab c shows, for a failure message (also once
// the tab's deadline has passed).
func Where(c context.Context) string {
	c, cancel := context.WithTimeout(context.WithoutCancel(c), 5*time.Second)
	defer cancel()
	loc, err := chromedp.Run(c, chromedp.Location())
	if err != nil {
		return "?"
	}
	return loc
}

// CurrentStep reads the step number and title off the DOM without running
// page JavaScript, so it works with scripts disabled too. While a swap or
// a navigation replaces the nodes it can fail; the caller retries.
func CurrentStep(ctx context.Context) (string, string, error) {
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

// SwapDone is true once no htmx request, swap or settle is under way:
// htmx has wired the swapped-in controls (it does so when the swap
// settles, a few milliseconds after the new step shows; a click before
// that follows the link as a plain navigation) and the page's own
// afterSettle handlers, such as presenter mode hiding the dialog's later
// lines, have run.
const SwapDone = `!document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling, .htmx-added")`

// WaitStep waits until the page shows step n, loaded (after an htmx swap,
// settled, or a full navigation), and checks its title.
func WaitStep(t *testing.T, ctx context.Context, n int, title string) {
	t.Helper()
	want := strconv.Itoa(n)
	got, err := WaitFor[string](ctx, `(l => l && l.getAttribute("data-step") === `+JSONString(want)+` && document.readyState === "complete" && `+SwapDone+` ? (document.getElementById("step-title") || {}).textContent || " " : "")(document.getElementById("lab"))`)
	if err != nil {
		OutOfTime(t, ctx)
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		step, _, _ := CurrentStep(c)
		t.Fatalf("waited for step %d, page still shows step %s (%v)", n, step, err)
	}
	if got = strings.TrimSpace(got); got != title {
		t.Fatalf("step %d shows title %q, want %q", n, got, title)
	}
}

func JSONString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// outOfTime is the first test that found the binary's time gone.
var outOfTime sync.Once

// OutOfTime ends a browser test whose tab reached its deadline (go test's
// -timeout, less 10 s): the first such test says so in one line, and the
// others skip, instead of every test still waiting on the browser failing
// with its own "context deadline exceeded".
func OutOfTime(t *testing.T, c context.Context) {
	t.Helper()
	if !errors.Is(c.Err(), context.DeadlineExceeded) {
		return
	}
	first := false
	outOfTime.Do(func() { first = true })
	if first {
		d, _ := c.Deadline()
		t.Fatalf("out of time: go test's -timeout ends at %s and the browser tests stop 10 s before it; this machine was too busy for that budget (run with a larger -timeout)", d.Add(10*time.Second).Format(time.TimeOnly))
	}
	t.Skip("out of time (see the one failure that says so)")
}

// WatchCSP records, in every page tab c opens from now on, what the page's
// Content-Security-Policy refuses; CSPRefused reads the list.
func WatchCSP(t *testing.T, c context.Context) {
	t.Helper()
	if _, err := chromedp.Call(c, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.__csp = []; document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));`}); err != nil {
		OutOfTime(t, c)
		t.Fatal(err)
	}
}

// CSPRefused is what the CSP refused in tab c's page since it loaded
// (WatchCSP).
func CSPRefused(t *testing.T, c context.Context) []string {
	t.Helper()
	return Run(t, c, chromedp.Evaluate[[]string](`window.__csp || []`))
}

// Swept reports whether the browser sweeps walk lesson l in its
// language. Under CI (CI=true) and with LOCKLAB_ALL_LANGS=1, every
// lesson in every language. Otherwise each lesson once, in one language,
// the languages taking turns by the lesson's number — every lesson and
// every language walked, at a third of the browser time (the
// presenter, every-lesson and accessibility sweeps use it): three languages
// in full had made the README's `go test ./...` take 7½ minutes on two
// cores, most of it Chromium, and the suite must answer in under two.
// Every language walks every lesson over HTTP regardless
// (TestWalkGuidedPath), so what a local run leaves to CI is the same
// walk in a browser in the other two languages.
func Swept(l *lessons.Lesson) bool {
	return Turn(l.Order, l.Lang)
}

// Turn reports whether the browser walk numbered i runs in lang: every
// walk in every language under CI and with LOCKLAB_ALL_LANGS=1,
// otherwise walk i in the (i+rotation)-th language (counting round), so
// that a local run walks each way once and every language at least once,
// and the rotation (Rotation) moves on every ten minutes, so that a few
// local runs walk every way in every language.
func Turn(i int, lang string) bool {
	if AllLanguages() {
		return true
	}
	codes := i18n.Codes()
	return codes[(i+Rotation())%len(codes)] == lang
}

// Rotation is which third of the local sample this run walks: the
// ten-minute slot of the clock, or LOCKLAB_TURN=k to walk slot k again
// (a skipped walk's message says which slot ran).
func Rotation() int {
	if k, err := strconv.Atoi(os.Getenv("LOCKLAB_TURN")); err == nil && k >= 0 {
		return k
	}
	return int(time.Now().Unix() / 600 % 3)
}

// TakeTurn marks the calling subtest parallel if walk i runs in lang
// (Turn), and skips it, saying so, if it does not.
func TakeTurn(t *testing.T, i int, lang string) {
	t.Helper()
	if !Turn(i, lang) {
		t.Skipf("walked in another language outside CI in this run's rotation (LOCKLAB_TURN=%d; CI=true or LOCKLAB_ALL_LANGS=1 walks every language)", Rotation())
	}
	t.Parallel()
}

// AllLanguages reports whether the browser sweeps walk every language in
// full: under CI (CI=true) and with LOCKLAB_ALL_LANGS=1.
func AllLanguages() bool {
	return os.Getenv("CI") == "true" || os.Getenv("LOCKLAB_ALL_LANGS") == "1"
}

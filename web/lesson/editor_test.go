package lesson_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
)

// TestBrowserCommandLine: with the keyboard only, a learner focuses the
// command line (the editor loads then, not before), types the start of a
// command name and takes the completion, finishes the command, sends it
// with Enter (htmx swaps the page in place), and brings it back with Up;
// axe finds nothing on the page with the editor in it, the page's CSP
// refuses nothing the editor does, and the same command works as a plain form with
// JavaScript off — in every language under CI, in one outside it
// (webtest.TakeTurn: the editor and the form are the same in each).
func TestBrowserCommandLine(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	for _, lang := range i18n.Codes() {
		t.Run(lang, func(t *testing.T) {
			webtest.TakeTurn(t, 2, lang) // each language in its own tab
			c := webtest.Tab(t, ctx)
			webtest.WatchCSP(t, c)
			start := srv.URL + "/" + lang + "/lessons/fencing?do=a.acquire,wait.4s"
			webtest.Do(t, c, chromedp.Navigate(start))
			webtest.WaitLoaded(t, c)
			if webtest.Run(t, c, chromedp.Evaluate[bool](`!!window.LockLabEditor`)) {
				t.Fatal("the editor loaded before the command line was used")
			}
			webtest.Do(t, c, chromedp.Focus(chromedp.CSS("#cli-input")))
			webtest.WaitJS(t, c, `document.activeElement && document.activeElement.closest(".cm-cli") ? "yes" : ""`)
			webtest.Do(t, c, chromedp.KeyEvent("PT"))
			webtest.WaitJS(t, c, `[...document.querySelectorAll(".cm-tooltip-autocomplete li")].map(e => e.textContent).join(" ").includes("PTTL") ? "yes" : ""`)
			webtest.Do(t, c, chromedp.KeyEvent("\r"))
			if got := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("cli-input").value`)); got != "PTTL" {
				t.Fatalf("after the completion: %q", got)
			}
			webtest.Do(t, c, chromedp.KeyEvent(" lock:order:42"), chromedp.KeyEvent("\r"))
			webtest.WaitJS(t, c, `location.search.includes("cli.redis.PTTL") && document.body.textContent.includes("(integer) 6000") ? "yes" : ""`)
			webtest.WaitJS(t, c, `document.activeElement && document.activeElement.closest(".cm-cli") ? "yes" : ""`)
			webtest.Do(t, c, chromedp.KeyEvent(kb.ArrowUp))
			if got := webtest.WaitJS(t, c, `(document.querySelector(".cm-cli .cm-content") || {}).textContent || ""`); got != "PTTL lock:order:42" {
				t.Errorf("Up brings back %q", got)
			}
			// A command the line does not send: the same timeline comes
			// back (a 400, swapped in like a step), the line kept to be
			// corrected, and why beside it.
			webtest.Do(t, c, chromedp.KeyEvent(kb.ArrowDown))
			webtest.Do(t, c, chromedp.KeyEvent("KEYS *"), chromedp.KeyEvent("\r"))
			webtest.WaitJS(t, c, `document.getElementById("cli-refused") && document.body.textContent.includes("(integer) 6000") ? "yes" : ""`)
			if got := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("cli-input").value`)); got != "KEYS *" {
				t.Errorf("after the refusal the input holds %q", got)
			}
			if v := axeViolations(t, c); len(v) > 0 {
				t.Errorf("axe, with the editor on the page: %v", v)
			}
			if v := webtest.CSPRefused(t, c); len(v) > 0 {
				t.Errorf("the page's CSP refused: %v", v)
			}

			// Without JavaScript: the same command as a plain form.
			n := webtest.Tab(t, ctx)
			webtest.NoScripts(t, n)
			webtest.Do(t, n, chromedp.Navigate(start))
			webtest.WaitLoaded(t, n)
			webtest.Do(t, n, chromedp.SendKeys(chromedp.CSS("#cli-input"), "PTTL lock:order:42\r"))
			if _, err := webtest.WaitFor[bool](n, `location.search.includes("cli.redis.PTTL")`); err != nil {
				t.Fatalf("without JavaScript: at %s", webtest.Where(n))
			}
		})
	}
}

// axeViolations runs axe-core on tab c as it is now and lists what it
// finds, rules the suite switches off (webtest.AxeDisabled) left out.
func axeViolations(t *testing.T, c context.Context) []string {
	t.Helper()
	webtest.Run(t, c, chromedp.Evaluate[bool](webtest.AxeSource+";true"))
	rules := map[string]map[string]bool{}
	for id := range webtest.AxeDisabled {
		rules[id] = map[string]bool{"enabled": false}
	}
	script := `axe.run(document, {rules: ` + webtest.JSONString(rules) + `}).then(r => r.violations.map(v => v.id + " (" + v.nodes.map(n => n.target.join(" ")).join(", ") + ")"))`
	return webtest.Run(t, c, chromedp.Evaluate[[]string](script, chromedp.EvalAwaitPromise))
}

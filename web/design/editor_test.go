package design_test

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
)

// TestBrowserScriptEditor: the design page's script boxes are code
// editors (line numbers, Lua highlighting), kept in step with the form's
// textareas. With the keyboard only, a learner replaces the release script
// (brackets and quotes close themselves and are typed over), leaves the
// editor with Escape then Tab (Tab alone indents: no trap), and grades:
// the form posts the script as typed and the grade finds the deleted lock.
// The page's CSP refuses nothing the editor does — in every language
// under CI, in one outside it (webtest.TakeTurn). A script the checker
// refuses comes back in the editor, its line marked.
func TestBrowserScriptEditor(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	mine := "return redis.call('DEL', KEYS[1])"
	for _, lang := range i18n.Codes() {
		t.Run(lang, func(t *testing.T) {
			webtest.TakeTurn(t, 2, lang) // its own tab
			c := webtest.Tab(t, ctx)
			webtest.WatchCSP(t, c)
			webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/lab/design"))
			webtest.WaitLoaded(t, c)
			webtest.WaitJS(t, c, `document.querySelectorAll(".cm-script").length === 4 && document.querySelectorAll(".cm-script .cm-lineNumbers").length === 4 ? "yes" : ""`)
			if n := webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".cm-script .tok-keyword").length`)); n == 0 {
				t.Errorf("no Lua keyword highlighted")
			}
			if n := webtest.Run(t, c, chromedp.Evaluate[int](`[...document.querySelectorAll("textarea.script")].filter(e => e.offsetParent !== null).length`)); n != 0 {
				t.Errorf("%d textareas still shown beside their editors", n)
			}
			content := `#script-release + .cm-editor .cm-content`
			webtest.Do(t, c, chromedp.Focus(chromedp.CSS(content)), chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(kb.Delete), chromedp.KeyEvent(mine))
			if got := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("script-release").value`)); got != mine {
				t.Fatalf("the textarea holds %q, want %q", got, mine)
			}
			webtest.Do(t, c, chromedp.KeyEvent(kb.Escape), chromedp.KeyEvent("\t"))
			if in := webtest.Run(t, c, chromedp.Evaluate[bool](`!!document.activeElement.closest("#script-release + .cm-editor")`)); in {
				t.Errorf("Escape then Tab left the focus in the editor")
			}
			webtest.Do(t, c, chromedp.Click(chromedp.CSS("#grade")))
			webtest.WaitJS(t, c, `location.search.includes("release=") && document.querySelector('tr[data-kind="foreign-delete"] a.counterexample') ? "yes" : ""`)
			if v := webtest.CSPRefused(t, c); len(v) > 0 {
				t.Errorf("the page's CSP refused: %v", v)
			}
			if u := webtest.Where(c); !strings.Contains(u, "KEYS[1]") {
				t.Errorf("the grade's address %s does not carry the typed script", u)
			}

			// A script the checker refuses: the page that says so keeps
			// the editor, the refused script's line marked, the caret on
			// it and its reason in view; an edit takes the mark away.
			webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/lab/design?write="+url.QueryEscape("local n = 1\nif then")))
			webtest.WaitJS(t, c, `document.querySelectorAll(".cm-script").length === 4 ? "yes" : ""`)
			at := webtest.Run(t, c, chromedp.Evaluate[[]string](`(() => {
				const ed = document.querySelector("#script-write + .cm-editor"), mark = ed.querySelectorAll(".cm-error-line");
				const lines = [...ed.querySelectorAll(".cm-line")], why = document.getElementById("error-write").getBoundingClientRect();
				return [String(mark.length), String(lines.indexOf(mark[0]) + 1), String(!!document.activeElement.closest("#script-write + .cm-editor")),
					String(why.top >= 0 && why.bottom <= innerHeight), ed.querySelector(".cm-content").getAttribute("aria-invalid") || ""];
			})()`))
			if strings.Join(at, " ") != "1 2 true true true" {
				t.Errorf("the refused write script: [marks, marked line, focus in it, reason in view, aria-invalid] = %v, want [1 2 true true true]", at)
			}
			webtest.Do(t, c, chromedp.KeyEvent("x"))
			if !webtest.WaitTrue(c, `document.querySelectorAll("#script-write + .cm-editor .cm-error-line").length === 0`) {
				t.Error("the error line is still marked after an edit")
			}
			if v := webtest.CSPRefused(t, c); len(v) > 0 {
				t.Errorf("the error page's CSP refused: %v", v)
			}
		})
	}
}

// TestRunCommandLine: a design's counterexample has the command line too;
// its form carries the design and the clients, the run folds the command
// into its timeline, and a refused one answers 400 with the way back.
func TestRunCommandLine(t *testing.T) {
	h := sitetest.Default(t)
	run := "/en/lab/design/run?release=del&clients=2&do=a.acquire,b.acquire,a.pause,wait.10s,a.resume,a.release"
	page := webtest.MustGet(t, h, run)
	for _, f := range []string{`name="release" value="del"`, `name="clients" value="2"`, `id="cli-input"`} {
		if !strings.Contains(page, f) {
			t.Errorf("the run's command line lacks %s", f)
		}
	}
	r := webtest.Get(t, h, run+"&node=redis&cli=GET+lock%3Aorder%3A42")
	want := "/en/lab/design/run?release=del&clients=2&do=a.acquire,b.acquire,a.pause,wait.10s,a.resume,a.release,cli.redis.GET%20lock:order:42"
	if r.Status != 303 || r.Header.Get("Location") != want {
		t.Fatalf("a typed command: %d → %q, want %q", r.Status, r.Header.Get("Location"), want)
	}
	if p := webtest.MustGet(t, h, want); !strings.Contains(p, "GET lock:order:42") {
		t.Errorf("the run does not show the typed command")
	}
	if r := webtest.Get(t, h, run+"&cli=BLPOP+q+0"); r.Status != 400 || !strings.Contains(r.Body, `href="`+strings.ReplaceAll(run, "&", "&amp;")+`"`) {
		t.Errorf("a refused command: %d, or no way back", r.Status)
	}
}

package lab_test

import (
	"context"
	"flag"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"locklab/web/i18n"
)

var labShots = flag.String("lab-screenshots", "", "write full-page screenshots of the Lab walk to this folder")

// TestBrowserLab walks the Lab as a learner does, in both languages, with
// JavaScript on: from the fencing lesson's "what else could go wrong?" to
// the Lab on the same design; switch the fencing check off and explore;
// open the shortest counterexample and see the timeline's violation box.
// With -lab-screenshots DIR it also writes each page as a PNG.
func TestBrowserLab(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	if *labShots != "" {
		if err := os.MkdirAll(*labShots, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, lang := range i18n.Codes() {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			c := webtest.Tab(t, ctx)
			shot := func(name string) {
				if *labShots == "" {
					return
				}
				png := webtest.Run(t, c, chromedp.FullScreenshot(100))
				if err := os.WriteFile(filepath.Join(*labShots, lang+"-"+name+".png"), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/lessons/fencing"))
			webtest.WaitLoaded(t, c)
			webtest.Do(t, c, chromedp.Click(chromedp.CSS("#what-else")))
			arrive(t, c, "/"+lang+"/lab?lesson=fencing")
			if h := webtest.Run(t, c, chromedp.TextContent(chromedp.CSS("#verdict"))); !strings.Contains(h, i18n.For(lang).Verdict.Allowed) {
				t.Errorf("safe design: %q", h)
			}
			shot("safe")
			webtest.Do(t, c, chromedp.Click(chromedp.CSS(`input[name="opt-fence"][value="off"]`)), chromedp.Click(chromedp.CSS("#explore")))
			arrive(t, c, "/"+lang+"/lab?lesson=fencing&opt=fence.off")
			if n := webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll('#verdict[data-severity="harm"]').length`)); n != 1 {
				t.Errorf("fence off: harm not reported")
			}
			shot("fence-off")
			href := webtest.Run(t, c, chromedp.Evaluate[string](`document.querySelector('tr[data-kind="stale-write"] a').getAttribute("href")`))
			if !strings.Contains(href, "/lessons/fencing") {
				t.Fatalf("the harm row links to %q", href)
			}
			webtest.Do(t, c, chromedp.Click(chromedp.CSS(`tr[data-kind="stale-write"] a`)))
			// Not just "opt=fence.off": the Lab's own URL ends so too.
			arrive(t, c, href)
			if n := webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".violations li").length`)); n == 0 {
				t.Errorf("the counterexample's timeline shows no violation")
			}
			shot("counterexample")
		})
	}
}

// arrive waits until a full navigation has landed on a URL ending in
// suffix and the page has loaded.
func arrive(t *testing.T, ctx context.Context, suffix string) {
	t.Helper()
	if !webtest.WaitTrue(ctx, `document.readyState === "complete" && location.href.endsWith(`+webtest.JSONString(suffix)+`)`) {
		t.Fatalf("never arrived at …%s (at %s)", suffix, webtest.Where(ctx))
	}
}

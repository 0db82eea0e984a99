package libraries_test

import (
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"

	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
)

// TestBrowserLibraries: on a 360 px phone and a 1280 px laptop, in every
// language (one per run outside CI), the page does not scroll sideways,
// every cell of the table is in its own box on screen width (on a phone
// a card per library, each cell naming its column), and a ✗ opens its
// timeline.
func TestBrowserLibraries(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	for i, lang := range i18n.Codes() {
		t.Run(lang, func(t *testing.T) {
			webtest.TakeTurn(t, i, lang)
			c := webtest.Tab(t, ctx)
			for _, w := range []int64{360, 1280} {
				webtest.Do(t, c, chromedp.EmulateViewport(w, 800))
				webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/libraries"))
				webtest.WaitLoaded(t, c)
				if sw := webtest.Run(t, c, chromedp.Evaluate[float64](`document.documentElement.scrollWidth`)); sw > float64(w)+1 {
					t.Errorf("%d px: the page is %.0f px wide", w, sw)
				}
				// every cell inside the table's box, none cut off
				out := webtest.Run(t, c, chromedp.Evaluate[int](`(box => Array.from(box.querySelectorAll("td, th")).filter(e => e.getBoundingClientRect().right > box.getBoundingClientRect().right + 1).length)(document.querySelector(".tablewrap"))`))
				if out > 0 {
					t.Errorf("%d px: %d cells reach past the table's box", w, out)
				}
				if w == 360 {
					col := webtest.Run(t, c, chromedp.Evaluate[string](`getComputedStyle(document.querySelector("table.libraries-table td"), "::before").content`))
					if col == "none" || col == "" {
						t.Errorf("360 px: the cells do not name their column")
					}
				}
			}
			webtest.Do(t, c, chromedp.Click(chromedp.CSS(`table.libraries-table td.harm a`)))
			if !webtest.WaitTrue(c, `location.pathname.endsWith("/lab/design/run") && !!document.querySelector("#step-title")`) {
				t.Errorf("a ✗ does not open its timeline: %s", webtest.Run(t, c, chromedp.Location()))
			}
		})
	}
}

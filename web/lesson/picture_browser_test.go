package lesson_test

import (
	"fmt"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/picture"
)

// pictureShots are the steps issue 12 named: where the old picture piled
// events onto one line.
var pictureShots = []struct {
	slug string
	step int // 1-based, as the page says
}{{"safe-release", 5}, {"two-servers", 2}, {"redlock", 8}, {"fencing", 6}, {"fencing", 7}, {"fencing", 8}, {"fencing", 9}}

// TestBrowserPictureText checks the overlap test's premise in a real
// browser: every text of the picture is no wider than the width layout
// reserved for it (so boxes computed in Go hold what the browser draws),
// and at 360, 1280 and 1920 px the labels render large enough to read
// while the page itself never scrolls sideways.
func TestBrowserPictureText(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	course, _ := lessons.Load()
	type text struct {
		Class, Text string
		W, H        float64 // getBBox, in the SVG's units
		PxH         float64 // on screen
	}
	sizes := picture.TextStyles
	widths := []int64{360, 1280, 1920}
	for _, lang := range i18n.Codes() {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			c := webtest.Tab(t, ctx)
			webtest.Do(t, c, chromedp.EmulateViewport(widths[0], 900))
			for i, s := range pictureShots {
				l, _ := course.Get(lang, s.slug)
				st := l.Steps[s.step-1]
				webtest.Do(t, c, chromedp.Navigate(srv.URL+links.Lesson(l)+links.Query(st.Do, st.Opt)))
				// loaded once, laid out at each width: the width it loaded at first
				for k := range widths {
					w := widths[(i+k)%len(widths)]
					if k > 0 {
						webtest.Do(t, c, chromedp.EmulateViewport(w, 900))
						if !webtest.WaitTrue(c, fmt.Sprintf("innerWidth === %d", w)) {
							t.Fatalf("the viewport did not become %d px wide", w)
						}
					}
					name := fmt.Sprintf("%d px %s/%s step %d", w, lang, s.slug, s.step)
					texts := webtest.Run(t, c, chromedp.Evaluate[[]text](`[...document.querySelectorAll("svg.timeline text")].map(e => {
					const b = e.getBBox();
					return {Class: e.getAttribute("class").split(" ")[0], Text: e.textContent, W: b.width, H: b.height, PxH: e.getBoundingClientRect().height};
				})`))
					if len(texts) == 0 {
						t.Fatalf("%s: no text in the picture", name)
					}
					for _, x := range texts {
						sz, ok := sizes[x.Class]
						if !ok {
							continue
						}
						if want := picture.TextWidth(x.Text, sz); x.W > want+1 {
							t.Errorf("%s: %s %q is %.1f wide in the browser, layout reserved %.1f", name, x.Class, x.Text, x.W, want)
						}
						if x.Class == "lbl" && x.PxH < 10 {
							t.Errorf("%s: label %q renders %.1f px high, too small to read", name, x.Text, x.PxH)
						}
					}
					if over := webtest.Run(t, c, chromedp.Evaluate[bool](`document.scrollingElement.scrollWidth > innerWidth + 1`)); over {
						t.Errorf("%s: the page scrolls sideways (only the picture may)", name)
					}
				}
			}
		})
	}
}

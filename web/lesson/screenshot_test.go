package lesson_test

import (
	"flag"
	"fmt"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/links"
)

var shotDir = flag.String("screenshots", "", "write full-page screenshots of every lesson step to this folder")
var shotOnly = flag.String("screenshots-only", "", "with -screenshots: only this lesson slug")
var shotView = flag.String("screenshots-view", "", "with -screenshots: only this view (phone, desktop, phone-dark, desktop-dark, projector, phone-presenter)")

// TestScreenshots writes a PNG (quality 100 means PNG, not JPEG) of every webtest.Guided step of every lesson, in
// every language, light and dark, at phone (360 px) and desktop (1440 px)
// width, and in presenter mode on a projector (1920 px) and a phone: each
// step as it opens (one dialog line), with every line revealed ("-all"),
// and after playing time for a few ticks ("-play", on the first step where
// a client is paused, when the TTL running down is worth watching) — for
// people to look at, not for asserting pixels:
//
//	go test ./web -run TestScreenshots -screenshots /tmp/shots
func TestScreenshots(t *testing.T) {
	if *shotDir == "" {
		t.Skip("pass -screenshots DIR to write screenshots")
	}
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	defer srv.Close()
	course, _ := lessons.Load()
	if err := os.MkdirAll(*shotDir, 0o755); err != nil {
		t.Fatal(err)
	}
	type view struct {
		name  string
		width int64
		dark  bool
		talk  bool // presenter mode
	}
	views := []view{{"phone", 360, false, false}, {"desktop", 1440, false, false}, {"phone-dark", 360, true, false},
		{"desktop-dark", 1440, true, false}, {"projector", 1920, false, true}, {"phone-presenter", 360, false, true}}
	n := 0
	for _, lang := range i18n.Codes() {
		for _, l := range course.List(lang) {
			if *shotOnly != "" && l.Slug != *shotOnly {
				continue
			}
			for _, v := range views {
				if *shotView != "" && v.name != *shotView {
					continue
				}
				c := webtest.Tab(t, ctx)
				scheme := "light"
				if v.dark {
					scheme = "dark"
				}
				if _, err := chromedp.Call(c, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
				}); err != nil {
					t.Fatal(err)
				}
				height := int64(900)
				if v.width == 1920 {
					height = 1080
				}
				webtest.Do(t, c, chromedp.EmulateViewport(v.width, height))
				if v.talk {
					webtest.Do(t, c, chromedp.Navigate(srv.URL+"/robots.txt"))
					webtest.Run(t, c, chromedp.Evaluate[bool](`localStorage.setItem("locklab:presenter", "1"), true`))
				}
				shot := func(st lessons.Step, suffix string) {
					png := webtest.Run(t, c, chromedp.FullScreenshot(100))
					name := fmt.Sprintf("%s-%s-%02d-%s%s.png", l.Slug, lang, st.Index+1, v.name, suffix)
					if err := os.WriteFile(filepath.Join(*shotDir, name), png, 0o644); err != nil {
						t.Fatal(err)
					}
					n++
				}
				for _, st := range l.Steps {
					webtest.Do(t, c, chromedp.Navigate(srv.URL+links.Lesson(l)+links.Query(st.Do, st.Opt)))
					webtest.WaitLoaded(t, c)
					shot(st, "")
					if !v.talk {
						continue
					}
					// Reveal the step's dialog line by line, as a presenter would with "n".
					for webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll(".dialog .line.pending").length`)) > 0 {
						webtest.Do(t, c, chromedp.KeyEvent("n"))
					}
					shot(st, "-all")
					if st.Index == playStep(l) {
						if webtest.Run(t, c, chromedp.Evaluate[int](`document.querySelectorAll("#play").length`)) == 1 {
							webtest.Do(t, c, chromedp.Click(chromedp.CSS("#play")))
							if !webtest.WaitTrue(c, `/[?&]do=[^&]*wait\.[5-9]s/.test(location.search)`) { // five ticks
								t.Fatalf("play did not run: %s", webtest.Where(c))
							}
							webtest.Do(t, c, chromedp.Click(chromedp.CSS("#play")))
							webtest.WaitLoaded(t, c)
							shot(st, "-play")
						}
					}
				}
			}
		}
	}
	t.Logf("wrote %d screenshots to %s", n, *shotDir)
}

// playStep is the first step whose timeline has a paused client, else 0.
func playStep(l *lessons.Lesson) int {
	for _, st := range l.Steps {
		if strings.Contains(st.Do, ".pause") {
			return st.Index
		}
	}
	return 0
}

package web

import (
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"locklab/lessons"
)

var shotDir = flag.String("screenshots", "", "write full-page screenshots of every lesson step to this folder")
var shotOnly = flag.String("screenshots-only", "", "with -screenshots: only this lesson slug")
var shotView = flag.String("screenshots-view", "", "with -screenshots: only this view (phone, desktop, phone-dark, desktop-dark)")

// TestScreenshots writes a PNG (quality 100 means PNG, not JPEG) of every guided step of every lesson, in
// both languages, light and dark, at phone (360 px) and desktop (1440 px)
// width — for people to look at, not for asserting pixels:
//
//	go test ./web -run TestScreenshots -screenshots /tmp/shots
func TestScreenshots(t *testing.T) {
	if *shotDir == "" {
		t.Skip("pass -screenshots DIR to write screenshots")
	}
	ctx := browser(t)
	srv := httptest.NewServer(newTestServer(t))
	defer srv.Close()
	course, _ := lessons.Load()
	if err := os.MkdirAll(*shotDir, 0o755); err != nil {
		t.Fatal(err)
	}
	type view struct {
		name  string
		width int64
		dark  bool
	}
	views := []view{{"phone", 360, false}, {"desktop", 1440, false}, {"phone-dark", 360, true}, {"desktop-dark", 1440, true}}
	n := 0
	for _, lang := range lessons.Langs {
		for _, l := range course.List(lang) {
			if *shotOnly != "" && l.Slug != *shotOnly {
				continue
			}
			for _, v := range views {
				if *shotView != "" && v.name != *shotView {
					continue
				}
				c := tab(t, ctx)
				scheme := "light"
				if v.dark {
					scheme = "dark"
				}
				if _, err := chromedp.Call(c, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
				}); err != nil {
					t.Fatal(err)
				}
				do(t, c, chromedp.EmulateViewport(v.width, 900))
				for _, st := range l.Steps {
					do(t, c, chromedp.Navigate(srv.URL+lessonPath(l)+query(st.Do, st.Opt)))
					waitLoaded(t, c)
					png := run(t, c, chromedp.FullScreenshot(100))
					name := fmt.Sprintf("%s-%s-%02d-%s.png", l.Slug, lang, st.Index+1, v.name)
					if err := os.WriteFile(filepath.Join(*shotDir, name), png, 0o644); err != nil {
						t.Fatal(err)
					}
					n++
				}
			}
		}
	}
	t.Logf("wrote %d screenshots to %s", n, *shotDir)
}

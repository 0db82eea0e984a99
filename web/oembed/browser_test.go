package oembed_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/links"
)

var shots = flag.String("embed-screenshots", "", "TestBrowserEmbedWidths: write PNGs of the embed at 320, 640 and 1024 px, light and dark, in every language, into this folder")

// hostPage is another site's page (another origin: another port) that
// embeds a link the way an oEmbed consumer does — the answer's html as it
// is — beside an iframe of a lesson page, which must refuse; it keeps the
// heights the embed tells it.
func hostPage(embedHTML, refused string) string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>A team's design doc</title></head><body>
<h1>Why our job runner needs a fencing token</h1>` + embedHTML + `
<iframe id="refused" title="a lesson page" src="` + refused + `" width="600" height="200"></iframe>
<script>window.heights = []; window.addEventListener("message", function (e) {
  if (e.data && e.data.type === "locklab:height") { window.heights.push(e.data.height); }
});</script></body></html>`
}

// TestBrowserEmbed: a page on another origin frames the embed its oEmbed
// answer gives; the embed tells it its height; a control clicked inside
// the frame moves the timeline there (the frame's address follows, the
// page around it stays); a lesson page in a frame is refused; and no
// policy is broken in the embed (the console says nothing of one but the
// refusal). Then with JavaScript off the embed's controls are plain
// links that work inside the frame's own page.
func TestBrowserEmbed(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	course, _ := lessons.Load()
	for i, lang := range i18n.Codes() {
		t.Run(lang, func(t *testing.T) {
			webtest.TakeTurn(t, i, lang)
			l, _ := course.Get(lang, "fencing")
			st := l.Steps[5] // B has the lock and writes; A is paused
			page := srv.URL + links.Lesson(l) + links.Query(st.Do, st.Opt)
			res, err := http.Get(srv.URL + "/oembed?format=json&url=" + url.QueryEscape(page))
			if err != nil {
				t.Fatal(err)
			}
			var a answer
			if err := json.NewDecoder(res.Body).Decode(&a); err != nil || res.StatusCode != http.StatusOK {
				t.Fatalf("oEmbed: %d %v", res.StatusCode, err)
			}
			res.Body.Close()
			host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, hostPage(a.HTML, page))
			}))
			t.Cleanup(host.Close)

			c := webtest.Tab(t, ctx)
			var mu sync.Mutex
			var logged []string
			if err := chromedp.Listen(c, func(ev any) {
				mu.Lock()
				defer mu.Unlock()
				switch e := ev.(type) {
				case *cdplog.EventEntryAdded:
					logged = append(logged, e.Entry.Level.String()+" "+e.Entry.Text+" "+e.Entry.URL)
				case *cdpruntime.EventExceptionThrown:
					logged = append(logged, "exception "+e.ExceptionDetails.Text)
				}
			}); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Call(c, cdplog.Enable, cdp.Empty{}); err != nil {
				t.Fatal(err)
			}
			webtest.Do(t, c, chromedp.Navigate(host.URL))
			webtest.WaitLoaded(t, c)
			if !webtest.WaitTrue(c, `window.heights.length > 0 && window.heights[window.heights.length - 1] > 200`) {
				t.Fatal("the embed never told the page its height")
			}
			frames := webtest.Run(t, c, chromedp.Nodes(chromedp.CSSAll("iframe")))
			if len(frames) != 2 {
				t.Fatalf("%d frames", len(frames))
			}
			embed := frames[0]
			if embed.ContentDocument == nil {
				t.Fatal("the embed's frame has no document")
			}
			// the lesson page is refused: its frame shows the browser's
			// error page, not the lesson
			tree := frameTree(t, c)
			refused := ""
			for _, f := range tree.ChildFrames {
				if f.Frame.Name == "" && !strings.Contains(f.Frame.URL, "/embed/") {
					refused = f.Frame.URL + " " + f.Frame.UnreachableURL
				}
			}
			if strings.Contains(refused, "/lessons/fencing") && !strings.HasPrefix(refused, "chrome-error:") {
				t.Errorf("the lesson page was framed: %s", refused)
			}
			title := webtest.Run(t, c, chromedp.Text(chromedp.CSS("#step-title"), chromedp.FromNode(embed)))
			if title != st.Title {
				t.Errorf("the embed shows %q, want %q", title, st.Title)
			}
			// a control inside the frame: A resumes
			webtest.Do(t, c, chromedp.Click(chromedp.CSS("#do-a-resume"), chromedp.FromNode(embed)))
			want := l.Steps[6].Title
			moved := false
			for range 200 {
				tree := frameTree(t, c)
				if len(tree.ChildFrames) > 0 && strings.Contains(tree.ChildFrames[0].Frame.URL, "a.resume") {
					moved = true
					break
				}
				webtest.WaitTrue(c, `new Promise(r => setTimeout(() => r(true), 50))`)
			}
			if !moved {
				frames = webtest.Run(t, c, chromedp.Nodes(chromedp.CSSAll("iframe")))
				got := webtest.Run(t, c, chromedp.Text(chromedp.CSS("#step-title"), chromedp.FromNode(frames[0])))
				t.Fatalf("the frame's address did not follow the control: %s, shows %q; %q", frameTree(t, c).ChildFrames[0].Frame.URL, got, logged)
			}
			frames = webtest.Run(t, c, chromedp.Nodes(chromedp.CSSAll("iframe")))
			if got := webtest.Run(t, c, chromedp.Text(chromedp.CSS("#step-title"), chromedp.FromNode(frames[0]))); got != want {
				t.Errorf("after a.resume the embed shows %q, want %q", got, want)
			}
			if loc := webtest.Run(t, c, chromedp.Location()); loc != host.URL+"/" {
				t.Errorf("the page around the frame moved: %s", loc)
			}
			mu.Lock()
			defer mu.Unlock()
			sawRefusal := false
			for _, m := range logged {
				refusal := strings.Contains(m, "frame-ancestors") || strings.Contains(m, "X-Frame-Options")
				sawRefusal = sawRefusal || refusal
				if strings.Contains(m, "Content Security Policy") && !refusal || strings.HasPrefix(m, "exception") {
					t.Errorf("in the console: %s", m)
				}
			}
			if !sawRefusal {
				t.Errorf("the console does not say the lesson page refused the frame: %q", logged)
			}

			// without JavaScript, in the frame's own page
			n := webtest.Tab(t, ctx)
			webtest.NoScripts(t, n)
			webtest.Do(t, n, chromedp.Navigate(srv.URL+"/"+lang+"/embed/lessons/fencing"+links.Query(st.Do, st.Opt)+"&theme=dark"))
			webtest.WaitLoaded(t, n)
			webtest.Follow(t, n, "#do-a-resume")
			if got := webtest.Run(t, n, chromedp.Text(chromedp.CSS("#step-title"))); got != want {
				t.Errorf("without JavaScript, after a.resume: %q, want %q", got, want)
			}
			if loc := webtest.Run(t, n, chromedp.Location()); !strings.Contains(loc, "/embed/") || !strings.HasSuffix(loc, "&theme=dark") {
				t.Errorf("without JavaScript the control left the embed or its theme: %s", loc)
			}
		})
	}
}

// TestBrowserEmbedWidths: the embed fits any width it is given from 320
// px up — the page never scrolls sideways (the picture scrolls inside its
// own box) — in light and dark, in each language (all of them under CI,
// one a width locally); with -embed-screenshots DIR each is written out.
func TestBrowserEmbedWidths(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	if *shots != "" {
		if err := os.MkdirAll(*shots, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	course, _ := lessons.Load()
	for i, lang := range i18n.Codes() {
		l, _ := course.Get(lang, "fencing")
		st := l.Steps[7] // the stale write refused
		for j, w := range []int64{320, 640, 1024} {
			for _, theme := range []string{"light", "dark"} {
				t.Run(fmt.Sprintf("%s/%d/%s", lang, w, theme), func(t *testing.T) {
					if *shots == "" {
						webtest.TakeTurn(t, i+j, lang)
					}
					c := webtest.Tab(t, ctx)
					webtest.Do(t, c, chromedp.EmulateViewport(w, 700, chromedp.EmulateScale(1)))
					webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/embed/lessons/fencing"+links.Query(st.Do, st.Opt)+"&theme="+theme))
					webtest.WaitLoaded(t, c)
					if over := webtest.Run(t, c, chromedp.Evaluate[bool](`document.scrollingElement.scrollWidth > innerWidth + 1`)); over {
						t.Errorf("%d px: the embed scrolls sideways", w)
					}
					bg := webtest.Run(t, c, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
					if dark := bg == "rgb(20, 24, 29)"; dark != (theme == "dark") {
						t.Errorf("theme=%s: the background is %s", theme, bg)
					}
					if *shots != "" {
						png := webtest.Run(t, c, chromedp.FullScreenshot(100))
						if err := os.WriteFile(filepath.Join(*shots, fmt.Sprintf("embed-%s-%d-%s.png", lang, w, theme)), png, 0o644); err != nil {
							t.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// frameTree is the tab's frames, the page's and its iframes'.
func frameTree(t *testing.T, c context.Context) *page.FrameTree {
	t.Helper()
	res, err := chromedp.Call(c, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		webtest.OutOfTime(t, c)
		t.Fatal(err)
	}
	return res.FrameTree
}

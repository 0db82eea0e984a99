package oembed_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
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
			// the snippet's own script sizes its frame to the content:
			// the whole step shows, no scroll bar inside the frame
			if !webtest.WaitTrue(c, `(f => f.getBoundingClientRect().height === window.heights[window.heights.length - 1] && f.contentDocument === null)(document.querySelector("iframe"))`) {
				t.Errorf("the snippet did not size its frame to the embed's height: frame %v px, posted %v", webtest.Run(t, c, chromedp.Evaluate[float64](`document.querySelector("iframe").getBoundingClientRect().height`)),
					webtest.Run(t, c, chromedp.Evaluate[[]float64](`window.heights`)))
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

var cardShots = flag.String("card-screenshots", "", "TestCardScreenshots: write PNGs of the unfurl card (as a chat draws one from the page's Open Graph tags) of a lesson step, a Lab counterexample and a design run, and of the share box's embed snippets, in every language, into this folder")

var ogTag = regexp.MustCompile(`<meta property="og:(title|description|image|site_name)" content="([^"]*)"`)

// cardPage is how a chat shows a link it unfurled: the site's name, the
// title linking to the page, the description and the picture, from the
// page's Open Graph tags and nothing else.
func cardPage(link string, og map[string]string) string {
	return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>
body { font: 15px/1.45 "Noto Sans CJK JP", sans-serif; margin: 16px; background: #fff; color: #1d1c1d; }
.card { border-left: 4px solid #ddd; padding: 4px 12px; max-width: 520px; }
.site { font-size: 13px; color: #616061; } .title a { font-weight: 700; color: #1264a3; text-decoration: none; }
img { max-width: 100%; border-radius: 6px; margin-top: 6px; border: 1px solid #eee; }
</style></head><body><p>Here is why the job runner needs a fencing token: ` + html.EscapeString(link) + `</p>
<div class="card"><div class="site">` + og["site_name"] + `</div><div class="title"><a href="#">` + og["title"] + `</a></div>
<div>` + og["description"] + `</div><img src="` + og["image"] + `" alt=""></div></body></html>`
}

// TestCardScreenshots writes, with -card-screenshots DIR, each kind of
// timeline page's unfurl card and its share box's embed part, in every
// language, for people to look at.
func TestCardScreenshots(t *testing.T) {
	if *cardShots == "" {
		t.Skip("pass -card-screenshots DIR to write screenshots")
	}
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	if err := os.MkdirAll(*cardShots, 0o755); err != nil {
		t.Fatal(err)
	}
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		for k, page := range timelines(t, h, lang)[:3] {
			name := []string{"step", "counterexample", "design-run"}[k]
			res, err := http.Get(srv.URL + page)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			og := map[string]string{}
			for _, m := range ogTag.FindAllStringSubmatch(string(body), -1) {
				og[m[1]] = m[2] // still escaped: the card page is HTML too
			}
			card := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, cardPage(srv.URL+page, og))
			}))
			c := webtest.Tab(t, ctx)
			webtest.Do(t, c, chromedp.EmulateViewport(600, 800, chromedp.EmulateScale(1)), chromedp.Navigate(card.URL))
			webtest.WaitLoaded(t, c)
			webtest.WaitTrue(c, `document.images[0].complete && document.images[0].naturalWidth > 0`)
			write(t, fmt.Sprintf("card-%s-%s.png", lang, name), webtest.Run(t, c, chromedp.FullScreenshot(100)))
			card.Close()
			if k != 0 {
				continue
			}
			for _, w := range []int64{360, 1280} {
				c := webtest.Tab(t, ctx)
				webtest.Do(t, c, chromedp.EmulateViewport(w, 900, chromedp.EmulateScale(1)), chromedp.Navigate(srv.URL+page))
				webtest.WaitLoaded(t, c)
				webtest.Run(t, c, chromedp.Evaluate[bool](`(d => (d.open = true, document.getElementById("embed-title").scrollIntoView(), true))(document.querySelector("details.share"))`))
				write(t, fmt.Sprintf("share-%s-%d.png", lang, w), webtest.Run(t, c, chromedp.CaptureScreenshot()))
			}
		}
	}
}

func write(t *testing.T, name string, png []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(*cardShots, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

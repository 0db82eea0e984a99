package lesson_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/links"
)

// axTree is Chromium's accessibility tree under the first element that
// matches css, one line per node a screen reader reaches (ignored nodes
// are left out, their children kept): role "name" — "description".
func axTree(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	nodes := webtest.Run(t, ctx, chromedp.Nodes(chromedp.CSS(css)))
	full, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[accessibility.NodeID]*accessibility.Node{}
	var root *accessibility.Node
	for _, n := range full.Nodes {
		byID[n.NodeID] = n
		if n.BackendDOMNodeID == nodes[0].BackendNodeID {
			root = n
		}
	}
	if root == nil {
		t.Fatalf("%s has no accessibility node", css)
	}
	var b strings.Builder
	var walk func(n *accessibility.Node, depth int)
	walk = func(n *accessibility.Node, depth int) {
		if !n.Ignored {
			b.WriteString(strings.Repeat("  ", depth) + axString(n.Role))
			if name := axString(n.Name); name != "" {
				b.WriteString(" " + strconv.Quote(name))
			}
			if d := axString(n.Description); d != "" {
				b.WriteString(" — " + strconv.Quote(d))
			}
			for _, p := range n.Properties {
				if p.Name == accessibility.PropertyNameFocusable && axString(p.Value) == "true" {
					b.WriteString(" [focusable]")
				}
			}
			b.WriteString("\n")
			depth++
		}
		for _, c := range n.ChildIDs {
			if k := byID[c]; k != nil {
				walk(k, depth)
			}
		}
	}
	walk(root, 0)
	return b.String()
}

// axString is an accessibility value as text.
func axString(v *accessibility.Value) string {
	if v == nil || len(v.Value) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(v.Value, &s) == nil {
		return s
	}
	return string(v.Value)
}

// TestTimelineTextAlternative reads the timeline picture of the flagship
// step (the storage rejects A's stale write) as a screen reader gets it,
// from Chromium's accessibility tree: its name says what this step did and
// who holds the lock, its description the clients, the storage and what
// went wrong, in the page's language; the container that scrolls it
// sideways on a phone is a named region reached with the keyboard, with a
// visible focus ring. -v prints the tree.
func TestTimelineTextAlternative(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	want := map[string][]string{
		"en": {`region "Timeline picture" [focusable]`,
			`image "Timeline at 12.000s. The last action, from 11.000s to 12.000s: A worked for 1s; the storage rejected A's write with token 1. B holds the lock on Redis, 8.0s left."`,
			`"Clients now: A thinks it holds with token 1, B holding with token 2. Storage: “written by B” (token key: 2). What went wrong: 1. Exclusion lost: B took the lock after A's lease ran out, while A still believed it held the lock. A was paused, so it could not notice. Time runs left to right.`},
		"ja": {`region "タイムラインの図" [focusable]`,
			`image "12.000s 時点のタイムライン。直前の操作（11.000s〜12.000s）では、A が 1s 作業した。ストレージが A のトークン 1 の書き込みを拒否した。Redis のロックは B が保持している（残り 8.0s）。"`,
			`"いまのクライアント：A は保持のつもり（トークン 1）、B は保持中（トークン 2）。ストレージ：“written by B”（保存トークン 2）。起きた問題：1. 排他が崩れた：A のリースが切れたあと、`},
	}
	for _, lang := range i18n.Codes() {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			c := webtest.Tab(t, ctx)
			webtest.Do(t, c, chromedp.EmulateViewport(360, 780))
			webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/lessons/fencing?do=a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write"))
			webtest.WaitLoaded(t, c)
			tree := axTree(t, c, ".svgwrap")
			t.Logf("accessibility tree of the timeline picture:\n%s", tree)
			for _, w := range want[lang] {
				if !strings.Contains(tree, w) {
					t.Errorf("the accessibility tree has no %s", w)
				}
			}
			// On a phone the picture is wider than its container, and the
			// arrow keys scroll it once it has focus.
			if !webtest.Run(t, c, chromedp.Evaluate[bool](`(e => e.scrollWidth > e.clientWidth)(document.querySelector(".svgwrap"))`)) {
				t.Fatal("at 360 px the timeline does not scroll sideways: the test no longer checks what it should")
			}
			// it arrives with "now" in view, at the right: the step's own
			// events, on a phone's first screen
			if !webtest.WaitTrue(c, `(e => e.scrollLeft > 0 && (n => n.getBoundingClientRect().right <= e.getBoundingClientRect().right)(e.querySelector("line.now")))(document.querySelector(".svgwrap"))`) {
				t.Error("a step loaded fresh on a phone does not show its 'now'")
			}
			before := webtest.Run(t, c, chromedp.Evaluate[float64](`document.querySelector(".svgwrap").scrollLeft`))
			webtest.Do(t, c, chromedp.Focus(chromedp.CSS(".svgwrap")), chromedp.KeyEvent(kb.ArrowLeft))
			if !webtest.WaitTrue(c, fmt.Sprintf(`document.querySelector(".svgwrap").scrollLeft < %f`, before)) {
				t.Error("the arrow key did not scroll the focused timeline")
			}
			ring := webtest.Run(t, c, chromedp.Evaluate[string](`(s => s.outlineStyle + " " + s.outlineWidth)(getComputedStyle(document.querySelector(".svgwrap")))`))
			if ring != "solid 3px" {
				t.Errorf("the focused timeline's outline is %q, want a visible ring (solid 3px)", ring)
			}
		})
	}
}

// TestPictureTextEveryStep: on every webtest.Guided step of every lesson, in both
// languages, the picture's name and description are whole sentences in
// the page's language (no placeholder or untranslated word left), and
// the name says more than "Timeline".
func TestPictureTextEveryStep(t *testing.T) {
	h := sitetest.Default(t)
	course, _ := lessons.Load()
	title := regexp.MustCompile(`<title id="svg-title">([^<]*)</title><desc id="svg-desc">([^<]*)</desc>`)
	for _, lang := range i18n.Codes() {
		a := i18n.For(lang).A11y
		for _, l := range course.List(lang) {
			for _, st := range l.Steps {
				url := links.Lesson(l) + links.Query(st.Do, st.Opt)
				r := webtest.Get(t, h, url)
				m := title.FindStringSubmatch(r.Body)
				if r.Status != 200 || m == nil {
					t.Fatalf("%s: status %d, no picture title and description", url, r.Status)
				}
				name, desc := html.UnescapeString(m[1]), html.UnescapeString(m[2])
				for _, s := range []string{name, desc} {
					if strings.ContainsAny(s, "{}") || strings.Contains(s, "  ") || s == "" {
						t.Errorf("%s: unfinished text %q", url, s)
					}
					if lang == "ja" && regexp.MustCompile(`\b(the|was|holds|sent|passed|worked)\b`).MatchString(s) {
						t.Errorf("%s: English in the Japanese text %q", url, s)
					}
				}
				holds, _, _ := strings.Cut(strings.Split(a.HoldsOn, "}")[1], "{") // " holds the lock on "
				holds = strings.TrimSpace(holds)
				believed := strings.Split(a.NoHolderBelieved, "{")[0]                  // no key held, yet a client acts as the holder
				mutex := strings.Split(a.MutexHeld, "{")[0]                            // no key: each holds its own process's mutex
				crashed, _, _ := strings.Cut(strings.Split(a.CrashedKey, "}")[1], "{") // its holder crashed: a key, no holder
				if !strings.Contains(name, a.NoHolder) && !strings.Contains(name, holds) && !strings.Contains(name, believed) && !strings.Contains(name, mutex) &&
					!strings.Contains(name, strings.TrimSpace(crashed)) {
					t.Errorf("%s: the name %q does not say who holds the lock", url, name)
				}
				if st.Do != "" && strings.Contains(name, a.NoChange) {
					t.Errorf("%s: the name %q says nothing happened", url, name)
				}
			}
		}
	}
}

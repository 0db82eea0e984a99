package web_test

import (
	"html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/lesson"
	"locklab/web/links"
	"locklab/web/site"
)

var controlHref = regexp.MustCompile(`<a id="(?:do|wait)-[^"]*" class="button[^"]*" href="([^"]+)"`)

// TestEmbedFraming: only an embed may be framed, by any site; the pages
// it comes from keep refusing; both keep the strict policy (no inline
// script or style, nothing from elsewhere).
func TestEmbedFraming(t *testing.T) {
	h := sitetest.Default(t)
	course, _ := lessons.Load()
	for _, lang := range i18n.Codes() {
		l, _ := course.Get(lang, "fencing")
		st := l.Steps[7]
		page := links.Lesson(l) + links.Query(st.Do, st.Opt)
		embed := "/" + lang + "/embed/lessons/fencing" + links.Query(st.Do, st.Opt)
		for path, framed := range map[string]bool{page: false, embed: true, "/" + lang + "/": false, "/" + lang + "/lab": false,
			"/" + lang + "/embed/lessons/nope": true} {
			r := webtest.Get(t, h, path)
			csp, xfo := r.Header.Get("Content-Security-Policy"), r.Header.Get("X-Frame-Options")
			if !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "style-src 'self'") || strings.Contains(csp, "unsafe") {
				t.Errorf("%s: policy not strict: %q", path, csp)
			}
			if framed && (!strings.Contains(csp, "frame-ancestors *") || xfo != "") {
				t.Errorf("%s: an embed must be frameable: %q, X-Frame-Options %q", path, csp, xfo)
			}
			if !framed && (!strings.Contains(csp, "frame-ancestors 'none'") || xfo != "DENY") {
				t.Errorf("%s: must refuse to be framed: %q, X-Frame-Options %q", path, csp, xfo)
			}
		}
		body := webtest.MustGet(t, h, embed)
		if strings.Contains(body, `<header class="site"`) || strings.Contains(body, `<footer`) || strings.Contains(body, " style=") ||
			!strings.Contains(body, `<html lang="`+i18n.For(lang).Language().HTMLLang+`" class="embed"`) {
			t.Errorf("%s: not an embed's frame (no header or footer, no inline style, the language's lang)", embed)
		}
		if !strings.Contains(body, `href="http://example.com`+webtest.Escape(page)+`" target="_blank"`) {
			t.Errorf("%s: no way to the same moment on the site (%s)", embed, page)
		}
	}
}

// TestEmbedTheme: theme= fixes the embed's colours without a script, and
// every control keeps it and stays in the frame; another value is a 400
// that says which are allowed, in the page's language, still frameable;
// a state in another spelling goes to the canonical one, theme kept.
func TestEmbedTheme(t *testing.T) {
	h := sitetest.Default(t)
	body := webtest.MustGet(t, h, "/ja/embed/lessons/fencing?do=a.acquire&theme=dark")
	if !strings.Contains(body, `data-theme="dark"`) {
		t.Error("theme=dark: no data-theme on the page")
	}
	hrefs := controlHref.FindAllStringSubmatch(body, -1)
	if len(hrefs) < 4 {
		t.Fatalf("only %d controls", len(hrefs))
	}
	for _, m := range hrefs {
		href := html.UnescapeString(m[1])
		if !strings.HasPrefix(href, "/ja/embed/lessons/fencing?do=a.acquire,") || !strings.HasSuffix(href, "&theme=dark") {
			t.Errorf("control %s leaves the frame or drops the theme", href)
			continue
		}
		if r := webtest.Get(t, h, href); r.Status != http.StatusOK || !strings.Contains(r.Body, `data-theme="dark"`) {
			t.Errorf("control %s: %d", href, r.Status)
		}
	}
	undo := regexp.MustCompile(`<a id="undo" class="button" href="([^"]+)"`).FindStringSubmatch(body)
	if undo == nil || html.UnescapeString(undo[1]) != "/ja/embed/lessons/fencing?theme=dark" {
		t.Errorf("the embed's undo: %v, want the state before, in the frame, dark", undo)
	}
	if b := webtest.MustGet(t, h, "/ja/embed/lessons/fencing?do=a.acquire"); strings.Contains(b, "data-theme") {
		t.Error("no theme: the reader's own setting must decide (no data-theme)")
	}
	for _, theme := range []string{"DARK", "Dark"} {
		if b := webtest.MustGet(t, h, "/en/embed/lessons/fencing?theme="+theme); !strings.Contains(b, `data-theme="dark"`) {
			t.Errorf("theme=%s: not dark", theme)
		}
	}
	r := webtest.Get(t, h, "/ja/embed/lessons/fencing?theme=neon")
	if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, "theme=light") || !strings.Contains(r.Body, "テーマ") ||
		!strings.Contains(r.Header.Get("Content-Security-Policy"), "frame-ancestors *") || strings.Contains(r.Body, `<header class="site"`) {
		t.Errorf("theme=neon: %d, %s", r.Status, r.Header.Get("Content-Security-Policy"))
	}
	r = webtest.Get(t, h, "/en/embed/lessons/fencing?theme=light&opt=&do=a.acquire")
	if loc := r.Header.Get("Location"); r.Status != http.StatusSeeOther || loc != "/en/embed/lessons/fencing?do=a.acquire&theme=light" {
		t.Errorf("a non-canonical embed: %d → %q", r.Status, loc)
	}
	// a fix or predict challenge is a form, not a timeline
	course, _ := lessons.Load()
	for _, ch := range course.Challenges("zh") {
		if ch.Type != lessons.Break {
			if r := webtest.Get(t, h, "/zh/embed/challenges/"+ch.ID); r.Status != http.StatusNotFound || !strings.Contains(r.Body, "时间线") {
				t.Errorf("embed of %s challenge %s: %d", ch.Type, ch.ID, r.Status)
			}
			break
		}
	}
}

// TestEmbedSaysWhatItShows: an embed (and so its oEmbed title, its PNG
// and its card, which share the caption) names what makes the moment
// what it is: a counterexample its variant, a step what its last action
// did (the refusal the flagship step is about), a design run its design;
// a Markdown snippet's addresses cannot end its link early.
func TestEmbedSaysWhatItShows(t *testing.T) {
	h := sitetest.Default(t)
	lab := "/en/lab?lesson=fencing&opt=fence.off"
	m := regexp.MustCompile(`id="open-shortest"[^>]* href="([^"]+)"`).FindStringSubmatch(webtest.MustGet(t, h, lab))
	if m == nil {
		t.Fatalf("%s: no counterexample", lab)
	}
	counter := webtest.MustGet(t, h, site.EmbedPath(html.UnescapeString(m[1])))
	u := i18n.For("en")
	if !strings.Contains(counter, `<h1 id="step-title">`+webtest.Escape(u.CounterTitle)+`</h1>`) ||
		!strings.Contains(counter, webtest.Escape(u.OptionLabel["fence"]+u.LabelSep()+u.OptionValue["fence.off"])) {
		t.Error("a counterexample's embed does not say it is one, on which variant")
	}
	course, _ := lessons.Load()
	l, _ := course.Get("ja", "fencing")
	st := l.Steps[7] // A's late write, refused by the storage
	step := webtest.MustGet(t, h, "/ja/embed/lessons/fencing"+links.Query(st.Do, st.Opt))
	if did := regexp.MustCompile(`<p class="embed-did">([^<]*)</p>`).FindStringSubmatch(step); did == nil || !strings.Contains(did[1], "拒否") {
		t.Errorf("the flagship step's embed does not say the write was refused: %v", did)
	}
	run := webtest.MustGet(t, h, "/en/embed/lab/design/run?release=del&clients=2&do=a.acquire")
	if !strings.Contains(run, webtest.Escape(u.Design.PieceLabel["release"]+u.LabelSep()+u.Design.PresetLabel["release.del"])) {
		t.Error("a design run's embed does not name its design")
	}
	sn := lesson.SnippetsFor(u, "https://x/en/lab/design/run?release=redis.call(%27DEL%27)", "https://x/en/embed/lab/design/run?a=(b)", "https://x/en/lab/design/run.png?a=(b) c", "T [1]")
	if strings.Count(sn.Markdown, "(") != 2 || strings.Count(sn.Markdown, ")") != 2 || strings.Contains(sn.Markdown, " c") || !strings.Contains(sn.Markdown, `T \[1\]`) {
		t.Errorf("Markdown snippet: %s", sn.Markdown)
	}
}

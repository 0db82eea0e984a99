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
	"locklab/web/links"
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
	if b := webtest.MustGet(t, h, "/ja/embed/lessons/fencing?do=a.acquire"); strings.Contains(b, "data-theme") {
		t.Error("no theme: the reader's own setting must decide (no data-theme)")
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

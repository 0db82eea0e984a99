package lesson_test

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html/atom"

	xhtml "golang.org/x/net/html"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/links"
)

var boldRe = regexp.MustCompile(`<strong>(.*?)</strong>`)

// pageNames reads a page into the names a note can point at: the text of
// every control (link, button, label, summary, legend), of every heading
// and of everything else visible (a state, a badge, a mark), each with
// the address a link leads to ("" for what is not a link).
func pageNames(t *testing.T, page string) (controls map[string]string, visible string) {
	t.Helper()
	doc, err := xhtml.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	controls = map[string]string{}
	var all strings.Builder
	var text func(*xhtml.Node) string
	text = func(n *xhtml.Node) string {
		if n.Type == xhtml.TextNode {
			return n.Data
		}
		var b strings.Builder
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			b.WriteString(text(c))
		}
		return b.String()
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	var walk func(*xhtml.Node)
	walk = func(n *xhtml.Node) {
		for _, a := range n.Attr {
			if a.Key == "class" && (a.Val == "bubble" || a.Val == "note") {
				return // the step's own words name things; they are not the things
			}
		}
		if n.Type == xhtml.TextNode {
			all.WriteString(n.Data + " ")
		}
		if n.Type == xhtml.ElementNode {
			switch n.DataAtom {
			case atom.A, atom.Button, atom.Label, atom.Summary, atom.Legend, atom.H2, atom.H3:
				href := ""
				for _, a := range n.Attr {
					if a.Key == "href" {
						href = a.Val
					}
				}
				name := strings.Trim(norm(text(n)), " →←")
				if _, ok := controls[name]; !ok || href != "" {
					controls[name] = href
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return controls, norm(all.String())
}

// TestNotesNameRealControls: every name a step's dialog or notes set in
// bold — a button to press, a section to look at, a state or a mark on
// the picture — is on that step's page under that very name, in every
// language; a name that is a link leads to a page that answers. (The
// kinds of failure a note names are TestNamedFailuresShown's.)
func TestNotesNameRealControls(t *testing.T) {
	h := sitetest.Default(t)
	course, err := lessons.Load(i18n.Codes()...)
	if err != nil {
		t.Fatal(err)
	}
	followed := map[string]bool{}
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		failure := map[string]bool{}
		for _, f := range u.Failures {
			failure[f.Name] = true
		}
		for _, l := range course.List(lang) {
			for _, st := range l.Steps {
				names := boldRe.FindAllStringSubmatch(stepText(st), -1)
				if len(names) == 0 {
					continue
				}
				where := links.Lesson(l) + links.Query(st.Do, st.Opt)
				controls, visible := pageNames(t, webtest.MustGet(t, h, where))
				for _, m := range names {
					name := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(m[1], ""))
					if failure[name] {
						continue
					}
					href, isControl := controls[name]
					if !isControl && !strings.Contains(visible, name) {
						t.Errorf("%s %s step %d (%s): the text names %q, which is not on the page", lang, l.Slug, st.Index+1, st.Title, name)
						continue
					}
					if href == "" || followed[href] || strings.HasPrefix(href, "#") {
						continue
					}
					followed[href] = true
					if r := webtest.Get(t, h, href); r.Status != 200 && r.Status != 303 {
						t.Errorf("%s %s step %d: %q leads to %s, which answers %d", lang, l.Slug, st.Index+1, name, href, r.Status)
					}
				}
			}
		}
	}
}

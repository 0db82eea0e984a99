package pseudo_test

import (
	"io"
	"log/slog"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"locklab/lessons"
	"locklab/sim"
	"locklab/static"
	"locklab/web"
	"locklab/web/i18n"
	"locklab/web/internal/pseudo"
	"locklab/web/internal/webtest"
	"locklab/web/site"
)

// TestMain registers the pseudo-locale before anything looks a language
// up: this package's binary is the only one whose site offers it.
func TestMain(m *testing.M) {
	pseudo.Register()
	webtest.Main(m)
}

// site is the whole site with the pseudo-locale added as data: one
// registry entry, one catalog, one lessons folder.
func newSite(t *testing.T) http.Handler {
	t.Helper()
	fsys, err := pseudo.Lessons(os.DirFS("../../../lessons"))
	if err != nil {
		t.Fatal(err)
	}
	course, err := lessons.LoadFS(fsys, i18n.Codes()...)
	if err != nil {
		t.Fatal(err)
	}
	assets, err := site.NewAssets(static.FS)
	if err != nil {
		t.Fatal(err)
	}
	return web.New(course, assets, sim.ReplayContext, slog.New(slog.NewTextHandler(io.Discard, nil)), web.Config{Config: site.Config{Version: "pseudo"}}).Handler()
}

// TestLanguageIsData: the test-only language is offered like the others —
// the language menu lists it, Accept-Language picks it, robots.txt allows
// it, and every lesson opens in it — though no Go file names it.
func TestLanguageIsData(t *testing.T) {
	h := newSite(t)
	home := webtest.MustGet(t, h, "/en/")
	if !strings.Contains(home, `href="/xa/"`) || !strings.Contains(home, pseudo.Open+"Pseudo"+pseudo.Close) {
		t.Error("the language menu does not offer the pseudo-locale")
	}
	if r := webtest.Get(t, h, "/", "Accept-Language", "en-XA"); r.Header.Get("Location") != "/xa/" {
		t.Errorf("Accept-Language en-XA goes to %q", r.Header.Get("Location"))
	}
	if r := webtest.Get(t, h, "/robots.txt"); !strings.Contains(r.Body, "Allow: /xa/") {
		t.Error("robots.txt does not allow /xa/")
	}
	if n := strings.Count(webtest.MustGet(t, h, "/xa/"), `href="/xa/lessons/`); n < 10 {
		t.Errorf("the pseudo lesson list links %d lessons", n)
	}
}

// pages are one of each kind of page, in the pseudo-locale.
var pages = []string{
	"/xa/",
	"/xa/lessons/fencing",
	"/xa/lessons/fencing?do=a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write",
	"/xa/lessons/zookeeper-etcd?do=a.acquire,b.acquire,a.pause,wait.6s",
	"/xa/lessons/failover?do=a.acquire,primary.down",
	"/xa/lessons/redlock?do=a.acquire",
	"/xa/lessons/exactly-once?do=a.acquire,a.drop,a.write",
	"/xa/lessons/two-servers?do=a.acquire,b.acquire&opt=lock.local",
	"/xa/lessons/summary",
	"/xa/lab",
	"/xa/lab/design",
	"/xa/lab/design/run?release=del&clients=2&do=a.acquire,b.acquire,a.pause,wait.10s,a.resume,a.release",
	"/xa/end",
	"/xa/class",
	"/xa/no-such-page",
	"/xa/lessons/fencing?do=a.acquire,a.nope",
	"/xa/lab?lesson=fencing&pauses=9",
	"/xa/lab/design?release=while+true+do+end",
}

// TestPseudoLocale renders every kind of page in the pseudo-locale and
// fails on visible text that is neither inside the markers nor code, a
// command, a reply or data: a string hard-coded outside the catalogs.
func TestPseudoLocale(t *testing.T) {
	h := newSite(t)
	found := map[string][]string{} // leftover → pages
	for _, p := range pages {
		r := webtest.Get(t, h, p)
		if r.Status >= 500 {
			t.Fatalf("%s: %d", p, r.Status)
		}
		for _, bad := range leftovers(t, r.Body) {
			found[bad] = append(found[bad], p)
		}
	}
	var bad []string
	for s := range found {
		bad = append(bad, s)
	}
	sort.Strings(bad)
	for _, s := range bad {
		t.Errorf("not from a catalog: %q (on %s)", s, strings.Join(found[s], ", "))
	}
}

// skipped hold code, commands and the learner's data: not translated.
var skipped = map[string]bool{"script": true, "style": true, "code": true, "pre": true, "kbd": true, "samp": true,
	"textarea": true, "select": true}

// allowed are the leftovers that are data: numbers, times, client names,
// keys, hex values, replies, symbols.
var allowed = regexp.MustCompile(`^(` +
	`[^\p{L}]*` + // no letters: numbers, punctuation, symbols
	`|[A-E]` + // a client
	`|\+?[\d.,]+(ms|s|h|px|KB)?` + // a number, a duration, a gap on the axis
	`|[0-9a-f]{6,}…?` + // a random value, shortened
	`|[\w.-]+(:[\w.-]+)+` + // a Redis key
	`|[\w-]+\.lua` + // a script's name
	`|OK|nil|ERR|OK×\d+|n[1-5]|[a-e]\.[a-z]+|Lock Lab` + // replies, Redlock's nodes, an action, the site's name
	`)$`)

// leftovers are the visible text runs outside the markers that are not data.
func leftovers(t *testing.T, page string) []string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (skipped[n.Data] || hasClass(n, "cmd") || hasClass(n, "reply") || hasClass(n, "shareurl") ||
			otherLang(n) || (n.Data == "title" && n.Parent != nil && (hasClass(n.Parent, "mk") || hasClass(n.Parent, "bar") || n.Parent.Data == "rect"))) {
			// code, commands, replies, the share link, another
			// language's own name, and a mark's tooltip (which quotes
			// the command; TestNarrationAgrees checks its words)
			text.WriteString(" ")
			return
		}
		if n.Type == html.TextNode {
			text.WriteString(n.Data)
		}
		if n.Type == html.ElementNode && n.Data != "span" && n.Data != "a" && n.Data != "strong" && n.Data != "em" {
			text.WriteString("\n")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	rest := stripMarked(text.String())
	var out []string
	for _, tok := range strings.FieldsFunc(rest, func(r rune) bool { return r == '\n' || r == ' ' || r == '\u00a0' || r == '\t' }) {
		tok = strings.Trim(tok, "()[]{}:;,.!?\"“”'‹›«»→·—–-")
		if tok == "" || allowed.MatchString(tok) {
			continue
		}
		out = append(out, tok)
	}
	return out
}

// stripMarked drops every ⟦…⟧ run (they may nest: a wrapped string filled
// into another).
func stripMarked(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case string(r) == pseudo.Open:
			depth++
		case string(r) == pseudo.Close:
			if depth > 0 {
				depth--
			}
			b.WriteRune(' ')
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasClass(n *html.Node, c string) bool {
	for _, a := range n.Attr {
		if a.Key == "class" && strings.Contains(" "+a.Val+" ", " "+c+" ") {
			return true
		}
	}
	return false
}

// otherLang: an element in another language than the page's (the
// language menu names each language in itself).
func otherLang(n *html.Node) bool {
	for _, a := range n.Attr {
		if a.Key == "lang" && a.Val != "en-XA" {
			return true
		}
	}
	return false
}

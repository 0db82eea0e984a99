package oembed_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/links"
)

// host is the address httptest's requests have.
const host = "http://example.com"

// timelines are one page of each kind that shows a timeline, in lang: a
// lesson step (the flagship's stale write refused), a Lab
// counterexample, a design run and a break challenge.
func timelines(t *testing.T, h http.Handler, lang string) []string {
	course, _ := lessons.Load()
	l, _ := course.Get(lang, "fencing")
	step := l.Steps[7]
	lab := "/" + lang + "/lab?lesson=fencing&opt=fence.off"
	m := regexp.MustCompile(`id="open-shortest"[^>]* href="([^"]+)"`).FindStringSubmatch(webtest.MustGet(t, h, lab))
	if m == nil {
		t.Fatalf("%s has no counterexample link", lab)
	}
	var brk string
	for _, ch := range course.Challenges(lang) {
		if ch.Type == lessons.Break {
			brk = links.Challenge(lang, ch.ID) + "?opt=" + url.QueryEscape(ch.Opt)
			break
		}
	}
	return []string{links.Lesson(l) + links.Query(step.Do, step.Opt), html.UnescapeString(m[1]),
		"/" + lang + "/lab/design/run?release=del&clients=2&do=a.acquire,b.acquire,a.pause,wait.10s,a.resume,a.release", brk}
}

type answer struct {
	Type, Version, Title, HTML string
	ProviderName               string `json:"provider_name"`
	ProviderURL                string `json:"provider_url"`
	Width, Height              int
	Error                      *struct{ Message string }
}

func ask(t *testing.T, h http.Handler, query string) (int, answer) {
	t.Helper()
	r := webtest.Get(t, h, "/oembed?"+query)
	var a answer
	if err := json.Unmarshal([]byte(r.Body), &a); err != nil {
		t.Fatalf("/oembed?%s: %d, not JSON: %v\n%s", query, r.Status, err, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("/oembed?%s: Content-Type %q", query, ct)
	}
	return r.Status, a
}

var iframeSrc = regexp.MustCompile(`^<iframe src="([^"]+)" title="([^"]*)" width="(\d+)" height="(\d+)"`)

// TestOEmbed: every kind of timeline page has an oEmbed answer with the
// fields the specification requires of the rich type, whose iframe is
// the page's embed — which answers, may be framed, and has the answer's
// title — and maxwidth and maxheight bound its size.
func TestOEmbed(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		for _, page := range timelines(t, h, lang) {
			status, a := ask(t, h, "format=json&url="+url.QueryEscape(host+page))
			if status != http.StatusOK || a.Type != "rich" || a.Version != "1.0" || a.Width <= 0 || a.Height <= 0 || a.HTML == "" ||
				a.Title == "" || a.ProviderName != "Lock Lab" || a.ProviderURL != host+"/" {
				t.Fatalf("%s: %d %+v", page, status, a)
			}
			m := iframeSrc.FindStringSubmatch(a.HTML)
			if m == nil {
				t.Fatalf("%s: html is no iframe: %s", page, a.HTML)
			}
			src := html.UnescapeString(m[1])
			path := strings.TrimPrefix(src, host)
			if !strings.HasPrefix(path, "/"+lang+"/embed/") || html.UnescapeString(m[2]) != a.Title {
				t.Errorf("%s: iframe %s titled %q, answer titled %q", page, src, m[2], a.Title)
			}
			r := webtest.Get(t, h, path)
			if r.Status != http.StatusOK {
				t.Fatalf("%s: its embed %s answers %d", page, path, r.Status)
			}
			if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors *") || r.Header.Get("X-Frame-Options") != "" {
				t.Errorf("%s: the embed may not be framed: CSP %q, X-Frame-Options %q", path, csp, r.Header.Get("X-Frame-Options"))
			}
			if !strings.Contains(r.Body, "<title>"+webtest.Escape(a.Title)+" — Lock Lab</title>") {
				t.Errorf("%s: the embed's title is not the answer's %q", path, a.Title)
			}
		}
	}
	page := timelines(t, h, "en")[0]
	status, a := ask(t, h, "url="+url.QueryEscape(host+page)+"&maxwidth=400&maxheight=300")
	if m := iframeSrc.FindStringSubmatch(a.HTML); status != http.StatusOK || a.Width != 400 || a.Height != 300 || m == nil || m[3] != "400" || m[4] != "300" {
		t.Errorf("maxwidth=400&maxheight=300: %d %dx%d %s", status, a.Width, a.Height, a.HTML)
	}
}

// TestOEmbedRefuses: a bad request, a foreign or non-timeline address,
// and a format other than JSON get the status the specification says,
// with a reason in the language of the address asked about.
func TestOEmbedRefuses(t *testing.T) {
	h := sitetest.Default(t)
	for _, c := range []struct {
		query  string
		status int
		lang   string
	}{
		{"", http.StatusBadRequest, "en"},
		{"url=not%20a%20url", http.StatusBadRequest, "en"},
		{"url=ftp://example.com/ja/lessons/fencing", http.StatusBadRequest, "ja"},
		{"url=" + url.QueryEscape("https://elsewhere.example/ja/lessons/fencing"), http.StatusNotFound, "ja"},
		{"url=" + url.QueryEscape(host+"/zh/lab"), http.StatusNotFound, "zh"},
		{"url=" + url.QueryEscape(host+"/zh/lessons/nope"), http.StatusNotFound, "zh"},
		{"url=" + url.QueryEscape(host+"/ja/lessons/fencing?do=a.fly"), http.StatusBadRequest, "ja"}, // the embed's own reason
		{"url=" + url.QueryEscape(host+"/en/lessons/fencing") + "&format=xml", http.StatusNotImplemented, "en"},
		{"url=" + url.QueryEscape(host+"/en/lessons/fencing") + "&maxwidth=wide", http.StatusBadRequest, "en"},
		{"url=" + url.QueryEscape(host+"/en/lessons/fencing") + "&maxheight=-3", http.StatusBadRequest, "en"},
	} {
		status, a := ask(t, h, c.query)
		if status != c.status || a.Error == nil || a.Error.Message == "" {
			t.Errorf("/oembed?%s: %d %+v, want %d with a reason", c.query, status, a, c.status)
			continue
		}
		if strings.Contains(c.query, "a.fly") && !strings.Contains(a.Error.Message, "a.fly") {
			t.Errorf("/oembed?%s: not the embed's own reason: %s", c.query, a.Error.Message)
		}
		if cjk := regexp.MustCompile(`\p{Han}|\p{Hiragana}|\p{Katakana}`).MatchString(a.Error.Message); cjk != (c.lang != "en") {
			t.Errorf("/oembed?%s: the reason is not in %s: %s", c.query, c.lang, a.Error.Message)
		}
	}
}

var (
	shareIFrame = regexp.MustCompile(`<textarea id="embed-html"[^>]*>([^<]*)</textarea>`)
	discovery   = regexp.MustCompile(`<link rel="alternate" type="application/json\+oembed" href="([^"]+)"`)
	ogImage     = regexp.MustCompile(`<meta property="og:image" content="([^"]+)"`)
)

// TestDiscovery: every timeline page names its oEmbed answer, which
// embeds that very page, and carries a card (title, description, its
// picture as a PNG) for a link pasted into a chat.
func TestDiscovery(t *testing.T) {
	h := sitetest.Default(t)
	course, _ := lessons.Load()
	for _, lang := range i18n.Codes() {
		kinds := timelines(t, h, lang)
		pages := slices.Clone(kinds)
		for _, l := range course.List(lang) {
			for _, st := range []lessons.Step{l.Steps[0], l.Steps[len(l.Steps)-1]} {
				pages = append(pages, links.Lesson(l)+links.Query(st.Do, st.Opt))
			}
		}
		for _, page := range pages {
			body := webtest.MustGet(t, h, page)
			m := discovery.FindStringSubmatch(body)
			if m == nil {
				t.Errorf("%s: no oEmbed discovery link", page)
				continue
			}
			for _, tag := range []string{`property="og:title"`, `property="og:description"`, `name="twitter:card" content="summary_large_image"`} {
				if !strings.Contains(body, tag) {
					t.Errorf("%s: no %s", page, tag)
				}
			}
			status, a := ask(t, h, strings.TrimPrefix(html.UnescapeString(m[1]), host+"/oembed?"))
			if status != http.StatusOK || !strings.Contains(html.UnescapeString(a.HTML), `src="`+host+"/"+lang+"/embed/") {
				t.Errorf("%s: its discovery link answers %d %s", page, status, a.HTML)
			}
			// the share box's iframe is the oEmbed answer's: one moment, one frame
			if box := shareIFrame.FindStringSubmatch(body); box == nil || html.UnescapeString(box[1]) != a.HTML {
				t.Errorf("%s: the share box's iframe is not the oEmbed answer's:\n%v\n%s", page, box, a.HTML)
			}
			img := ogImage.FindStringSubmatch(body)
			if img == nil {
				t.Errorf("%s: no og:image", page)
				continue
			}
			if !slices.Contains(kinds, page) {
				continue // a PNG of each kind of page is drawn below; the rest share its code
			}
			r := webtest.Get(t, h, strings.TrimPrefix(html.UnescapeString(img[1]), host))
			if r.Status != http.StatusOK || r.Header.Get("Content-Type") != "image/png" || !strings.HasPrefix(r.Body, "\x89PNG") {
				t.Errorf("%s: its card's image %s answers %d %s", page, img[1], r.Status, r.Header.Get("Content-Type"))
			}
		}
	}
}

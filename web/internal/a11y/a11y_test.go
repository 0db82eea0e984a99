package a11y_test

import (
	"context"
	"flag"
	"fmt"
	"html"
	"locklab/web"
	"locklab/web/class"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/site"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/links"
)

var a11yEveryStep = flag.Bool("a11y-every-step", false, "TestAccessibility: every guided step of every lesson, not one of each kind")
var a11yOnly = flag.String("a11y-only", "", "TestAccessibility: only the pages whose path matches this regular expression")

// flagshipStep is the fencing lesson's step where the storage rejects A's
// stale write (after /{lang}).
const flagshipStep = "/lessons/fencing?do=a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write"

// a11yEnv is what a page kind may use to find its pages: the course, and
// the server under test (to follow a link another page offers, or to
// start a class). Cookies a kind collects are set in every tab; a page
// listed in shows must show an element matching its selector (so a page
// that needs a cookie is checked as itself, not as an error page).
type a11yEnv struct {
	t       *testing.T
	course  *lessons.Catalog
	h       http.Handler
	site    string
	cookies *[]*http.Cookie
	shows   map[string]string // path → CSS selector
}

// href is the address of the link with this id on the page at path.
func (e a11yEnv) href(path, id string) string {
	e.t.Helper()
	m := regexp.MustCompile(`id="` + id + `"[^>]* href="([^"]+)"`).FindStringSubmatch(webtest.MustGet(e.t, e.h, path))
	if m == nil {
		e.t.Fatalf("%s has no link #%s", path, id)
	}
	return html.UnescapeString(m[1])
}

// a11yPageKinds lists the pages the accessibility test opens in each
// language, by kind of page. A new kind of page is one more entry here.
var a11yPageKinds = []struct {
	kind  string
	paths func(e a11yEnv, lang string) []string
}{
	{"lesson list", func(_ a11yEnv, lang string) []string { return []string{"/" + lang + "/"} }},
	{"course end", func(_ a11yEnv, lang string) []string { return []string{"/" + lang + "/end"} }},
	{"lock libraries", func(_ a11yEnv, lang string) []string { return []string{"/" + lang + "/libraries"} }},
	{"lesson steps", func(e a11yEnv, lang string) []string {
		// Every lesson's first step (where a new visitor lands) and last
		// (the finished box); in the flagship lesson also the first
		// checkpoint, asked on the step before and answered on its own
		// step, and the step where the storage rejects A's stale write.
		// The steps in between share these templates; -a11y-every-step
		// opens every guided step and every checkpoint (slow). Outside CI
		// the first and last steps are the flagship's and those of the
		// lessons this language's browser sweep walks (webtest.Swept):
		// every kind of lesson page, at a third of the pages; under CI,
		// every lesson's.
		var ps []string
		for _, l := range e.course.List(lang) {
			asked := false
			ends := webtest.Swept(l) || l.Slug == "fencing"
			for i, st := range l.Steps {
				if (i == 0 || i == len(l.Steps)-1) && ends || *a11yEveryStep {
					ps = append(ps, links.Lesson(l)+links.Query(st.Do, st.Opt))
				}
				if st.Checkpoint != nil && i > 0 && (l.Slug == "fencing" && !asked || *a11yEveryStep) {
					asked = true
					prev := l.Steps[i-1]
					ps = append(ps, links.Lesson(l)+links.Query(prev.Do, prev.Opt), links.Lesson(l)+links.WithGuess(links.Query(st.Do, st.Opt), 1))
				}
			}
		}
		return append(ps, "/"+lang+flagshipStep)
	}},
	{"lab", func(e a11yEnv, lang string) []string {
		findings := "/" + lang + "/lab?lesson=fencing&opt=fence.off"
		return []string{"/" + lang + "/lab", // the flagship design: safe
			findings,                          // findings with counterexamples
			e.href(findings, "open-shortest"), // a counterexample, opened as a timeline
			"/" + lang + "/lab?lesson=zookeeper-etcd"} // a lesson without Go code
	}},
	{"design", func(e a11yEnv, lang string) []string {
		broken := "/" + lang + "/lab/design?release=del"
		run := "/" + lang + "/lab/design/run?release=del&clients=2&do=a.acquire,b.acquire,a.pause,wait.10s,a.resume,a.release"
		return []string{"/" + lang + "/lab/design", // the safe design: no finding
			broken, run, // findings, and a counterexample opened as a timeline
			"/" + lang + "/lab/design/run?effect=add&clients=2&do=a.acquire,a.drop,a.write,a.next", // a lost reply and the resent write
			"/" + lang + "/lab/design?release=while+true+do+end"}                                   // a refused script: the 400 keeps the form
	}},
	{"class", func(e a11yEnv, lang string) []string {
		// a class on the fencing lesson, started on the step that asks
		// its first checkpoint: the teacher's page (presenter's bar with
		// the question and the votes) and a student's
		ask, _, _ := webtest.FencingAsk(e.t)
		l, _ := e.course.Get(lang, "fencing")
		before := l.Steps[ask.Index-1]
		res := webtest.Post(e.t, e.site, "/"+lang+"/class", url.Values{"lesson": {"fencing"}, "do": {before.Do}, "opt": {before.Opt}})
		teach := res.Header.Get("Location")
		if res.StatusCode != http.StatusSeeOther || !strings.HasSuffix(strings.Split(teach, "?")[0], "/teach") {
			e.t.Fatalf("starting a class: %d %s", res.StatusCode, teach)
		}
		*e.cookies = append(*e.cookies, res.Cookies()...) // the teacher's
		student := strings.TrimSuffix(strings.Split(teach, "?")[0], "/teach")
		e.shows[teach], e.shows[student] = "#classbar", ".classroom.student"
		return []string{"/" + lang + "/class", teach, student, // join form, teacher, student
			"/" + lang + "/class/ZZZZZZ"} // no such class
	}},
	{"challenges", func(_ a11yEnv, lang string) []string {
		// outside CI, the first four: a kind's templates are shared by its
		// states (a break under way and refused, a fix at its start)
		return challengePages(lang)[:map[bool]int{true: 8, false: 4}[webtest.AllLanguages()]]
	}},
	{"embed", func(e a11yEnv, lang string) []string {
		// a timeline inside another site's frame: a lesson step (forced
		// dark too), a design run and a break challenge; the same view
		// draws a counterexample
		e.shows["/"+lang+"/embed"+flagshipStep] = "main.embedded"
		return []string{"/" + lang + "/embed" + flagshipStep, "/" + lang + "/embed" + flagshipStep + "&theme=dark",
			"/" + lang + "/embed/lab/design/run?release=del&clients=2&do=a.acquire,b.acquire,a.pause,wait.10s,a.resume,a.release",
			"/" + lang + "/embed/challenges/ts-mutexes?opt=lock.local"}
	}},
	{"errors", func(_ a11yEnv, lang string) []string {
		return []string{"/" + lang + "/lessons/nope", // 404
			"/" + lang + "/lessons/fencing?do=a.fly", // 400, with a way back
			"/" + lang + "/lab?lesson=nope",          // the Lab's 404
			"/" + lang + "/nope"}                     // no such route
	}},
}

// challengePages are the challenge pages the sweep opens in lang: one of
// each kind first (a break solved, the list, a fix fixed, a prediction
// answered), then the other states.
func challengePages(lang string) []string {
	return []string{
		"/" + lang + "/challenges/fe-stale?do=a.acquire,b.acquire,a.pause,wait.10s,b.write,a.resume,a.write&opt=fence.off", // a break, solved
		"/" + lang + "/challenges",                                              // the list
		"/" + lang + "/challenges/fe-fix?opt=",                                  // fixed
		"/" + lang + "/challenges/fe-check?answer=no",                           // answered
		"/" + lang + "/challenges/fe-stale?do=a.acquire&opt=fence.off",          // a break, under way
		"/" + lang + "/challenges/fe-fix",                                       // a fix, at its broken start
		"/" + lang + "/challenges/sr-lua",                                       // a design's fix: its Lua to edit
		"/" + lang + "/challenges/fe-check",                                     // a prediction, to answer
		"/" + lang + "/challenges/fe-stale?do=a.acquire,wait.10s&opt=fence.off"} // a move refused
}

// a11yViews are the widths and colour schemes every page is checked in:
// a phone (a mobile viewport, so the page's viewport meta applies) and a
// desktop, each light and dark. The dark views run axe's colour rules
// only: the theme is the stylesheet's prefers-color-scheme, so the
// document (names, roles, landmarks, order) is the one the light view has
// just checked, and only what colour decides can differ. That halves the
// sweep's browser time without leaving any rule unrun in a view where it
// could fail. The dark views run under CI (webtest.AllLanguages) only.
var a11yViews = []struct {
	name          string
	width, height int64
	mobile        bool
	scheme        string
	colourOnly    bool
}{
	{"360 light", 360, 780, true, "light", false}, {"360 dark", 360, 780, true, "dark", true},
	{"1280 light", 1280, 900, false, "light", false}, {"1280 dark", 1280, 900, false, "dark", true},
}

// TestAccessibility runs axe-core's default rule set (WCAG 2.x A and AA
// and best practices) on every kind of page — all of them in English (a
// rotating third of a kind's pages beyond its first outside CI), one of
// each kind in every other language (all of them under CI) — at phone
// and desktop width, light and dark, as a new visitor sees it (a fresh
// browser context: no saved theme or progress), and expects no violation.
func TestAccessibility(t *testing.T) {
	ctx := webtest.Browser(t)
	rdb, _ := webtest.MiniRDB(t)
	class, err := class.NewClassroom(context.Background(), rdb, class.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	h := sitetest.Handler(t, web.Config{Config: site.Config{Version: "test", LabDeadline: 30 * time.Second}, Class: class})
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer class.Close() // first: it ends the class pages' event streams
	course, _ := lessons.Load()
	var cookies []*http.Cookie
	env := a11yEnv{t, course, h, srv.URL, &cookies, map[string]string{}}
	only := regexp.MustCompile(*a11yOnly)
	var pages []string
	for _, lang := range i18n.Codes() {
		for _, k := range a11yPageKinds {
			for i, p := range k.paths(env, lang) {
				// Beyond English, one page of each kind unless every
				// language is swept (CI, LOCKLAB_ALL_LANGS=1): a page's
				// structure, labels and colours come from the same
				// templates in every language, and what a language
				// changes — its lang attribute, its words — one page of a
				// kind shows. (Three languages in full took this sweep
				// past go test's 10 minutes with two other copies of the
				// suite running.)
				if i > 0 && lang != i18n.Fallback && !webtest.AllLanguages() && *a11yOnly == "" {
					break
				}
				// In English too, outside CI, a kind's pages beyond its
				// first take turns: a third of them each run, every one
				// within three runs (webtest.Rotation), the suite's
				// quiet time being under two minutes.
				if i > 0 && i%3 != webtest.Rotation()%3 && !webtest.AllLanguages() && *a11yOnly == "" {
					continue
				}
				if only.MatchString(p) && !slices.Contains(pages, p) {
					pages = append(pages, p)
				}
			}
		}
	}

	rules := map[string]any{}
	for id := range webtest.AxeDisabled {
		rules[id] = map[string]bool{"enabled": false}
	}
	opts := map[string]any{"rules": rules, "resultTypes": []string{"violations"}}
	colourOpts := map[string]any{"rules": rules, "resultTypes": []string{"violations"},
		// the rules of the default set that colour decides (axe's
		// cat.color, less the AAA color-contrast-enhanced it leaves off)
		"runOnly": map[string]any{"type": "rule", "values": []string{"color-contrast", "link-in-text-block"}}}
	run := func(opts map[string]any) string {
		return fmt.Sprintf(`axe.run(document, %s).then(r => ({
		ran: [].concat(r.passes, r.violations, r.incomplete, r.inapplicable).map(x => x.id),
		violations: r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
			nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + " — " + (n.failureSummary || "").replace(/\s+/g, " "))}))}))`, webtest.JSONString(opts))
	}
	axeRun := [2]string{run(opts), run(colourOpts)}

	// Pages are shared among a few tabs of one browser (each its own fresh
	// browser context); every page is loaded once and checked in every view.
	type finding struct{ page, rule, text string }
	var (
		mu       sync.Mutex
		found    = map[finding][]string{} // → views
		ranRules = map[string]bool{}
		wg       sync.WaitGroup
	)
	work := make(chan string)
	for range min(2, len(pages)) {
		c, cancel := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
		defer cancel()
		// open the tab now, on the test goroutine: a failure is fatal here
		webtest.Do(t, c, chromedp.Navigate("about:blank"))
		for _, k := range cookies {
			if _, err := chromedp.Call(c, network.SetCookie, network.SetCookieParams{Name: k.Name, Value: k.Value,
				URL: srv.URL}); err != nil {
				t.Fatal(err)
			}
		}
		wg.Go(func() {
			for p := range work {
				if err := checkPage(c, srv.URL+p, env.shows[p], axeRun, func(view string, res axeResult) {
					mu.Lock()
					defer mu.Unlock()
					for _, id := range res.Ran {
						ranRules[id] = true
					}
					for _, v := range res.Violations {
						f := finding{p, v.ID, fmt.Sprintf("[%s] %s\n    %s", v.Impact, v.Help, strings.Join(v.Nodes, "\n    "))}
						found[f] = append(found[f], view)
					}
				}); err != nil {
					t.Errorf("%s: %v", p, err)
				}
			}
		})
	}
	for _, p := range pages {
		work <- p
	}
	close(work)
	wg.Wait()

	var report []string
	for f, views := range found {
		report = append(report, fmt.Sprintf("%s: %s (%s) %s", f.page, f.rule, strings.Join(views, ", "), f.text))
	}
	slices.Sort(report)
	for _, r := range report {
		t.Error(r)
	}
	// The run must have been axe's default set, best practices included.
	for _, id := range []string{"color-contrast", "scrollable-region-focusable", "landmark-unique", "region", "heading-order"} {
		if !ranRules[id] && webtest.AxeDisabled[id] == "" {
			t.Errorf("axe did not run rule %s", id)
		}
	}
	views := len(a11yViews)
	if !webtest.AllLanguages() {
		views /= 2 // the light ones
	}
	t.Logf("%d pages × %d views, %d rules ran", len(pages), views, len(ranRules))
}

type axeResult struct {
	Ran        []string               `json:"ran"`
	Violations []webtest.AxeViolation `json:"violations"`
}

// checkPage loads url in tab c and runs axe in every view (axeRun: the
// whole rule set, and the colour rules only). The bound is
// generous (a busy machine may be slow); it only stops a hung page.
func checkPage(c context.Context, url, shows string, axeRun [2]string, report func(view string, res axeResult)) error {
	c, cancel := context.WithTimeout(c, 3*time.Minute)
	defer cancel()
	// the first view before loading, so the page lays out once for it
	v := a11yViews[0]
	if err := setView(c, v.width, v.height, v.mobile, v.scheme); err != nil {
		return err
	}
	if err := chromedp.Do(c, chromedp.Navigate(url)); err != nil {
		return err
	}
	if _, err := chromedp.Run(c, chromedp.Poll[bool](`document.readyState === "complete"`, chromedp.WithPollingTimeout(0))); err != nil {
		return err
	}
	if shows != "" {
		if ok, err := chromedp.Run(c, chromedp.Evaluate[bool](`document.querySelector(`+webtest.JSONString(shows)+`) !== null`)); err != nil || !ok {
			return fmt.Errorf("the page does not show %s (%v)", shows, err)
		}
	}
	if _, err := chromedp.Run(c, chromedp.Evaluate[bool](webtest.AxeSource+";true")); err != nil {
		return err
	}
	for _, v := range a11yViews {
		if v.colourOnly && !webtest.AllLanguages() {
			// the dark views (colour rules only) are the CI tier's: a
			// developer's run checks the document and the light colours
			continue
		}
		if err := setView(c, v.width, v.height, v.mobile, v.scheme); err != nil {
			return err
		}
		script := axeRun[0]
		if v.colourOnly {
			script = axeRun[1]
		}
		res, err := chromedp.Run(c, chromedp.Evaluate[axeResult](script, chromedp.EvalAwaitPromise))
		if err != nil {
			return fmt.Errorf("%s: %w", v.name, err)
		}
		report(v.name, res)
	}
	return nil
}

// setView sets the viewport and the preferred colour scheme of tab c.
func setView(c context.Context, width, height int64, mobile bool, scheme string) error {
	if _, err := chromedp.Call(c, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: width, Height: height, DeviceScaleFactor: 1, Mobile: mobile}); err != nil {
		return err
	}
	_, err := chromedp.Call(c, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
	return err
}

package web

import (
	_ "embed"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"locklab/lessons"
)

//go:embed testdata/axe/axe.min.js
var axeSource string

// TestAccessibility runs axe-core (WCAG 2.x A and AA rules) on every
// kind of page — the lesson list, each lesson's first and last guided step,
// a step with a checkpoint question, an error page, the Lab (with findings,
// and with a lesson that has no Go code) — in both languages,
// light and dark, and expects no violation.
func TestAccessibility(t *testing.T) {
	ctx := browser(t)
	srv := httptest.NewServer(newTestServer(t))
	defer srv.Close()
	course, _ := lessons.Load()
	for _, scheme := range []string{"light", "dark"} {
		for _, lang := range lessons.Langs {
			pages := []string{"/" + lang + "/", "/" + lang + "/lessons/nope", "/" + lang + "/lessons/fencing?do=a.fly",
				"/" + lang + "/lab?lesson=fencing&opt=fence.off", "/" + lang + "/lab?lesson=zookeeper-etcd", "/" + lang + "/lab?lesson=nope"}
			for _, l := range course.List(lang) {
				last := l.Steps[len(l.Steps)-1]
				pages = append(pages, startPath(l), lessonPath(l)+query(last.Do, last.Opt))
				for i, st := range l.Steps {
					if st.Checkpoint != nil && i > 0 { // asked on the step before
						prev := l.Steps[i-1]
						pages = append(pages, lessonPath(l)+query(prev.Do, prev.Opt))
						break
					}
				}
			}
			t.Run(lang+"/"+scheme, func(t *testing.T) {
				c := tab(t, ctx)
				if _, err := chromedp.Call(c, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
				}); err != nil {
					t.Fatal(err)
				}
				for _, p := range pages {
					do(t, c, chromedp.Navigate(srv.URL+p))
					waitLoaded(t, c)
					run(t, c, chromedp.Evaluate[bool](axeSource+";true"))
					res := run(t, c, chromedp.Evaluate[[]axeViolation](`axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}).then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(" ") + " — " + n.failureSummary)})))`, chromedp.EvalAwaitPromise))
					for _, v := range res {
						t.Errorf("%s (%s): %s [%s] %s\n    %s", p, scheme, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n    "))
					}
				}
			})
		}
	}
}

type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

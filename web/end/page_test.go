package end_test

import (
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/links"
)

// TestEndPage: the course's last step leads to the ending page, which has
// the table of pitfalls (each row linking a lesson that exists), the way
// on to the Lab, and the hooks the progress script fills in.
func TestEndPage(t *testing.T) {
	h := sitetest.Default(t)
	course, _ := lessons.Load()
	for _, lang := range i18n.Codes() {
		list := course.List(lang)
		last := list[len(list)-1]
		final := last.Steps[len(last.Steps)-1]
		page := webtest.MustGet(t, h, links.Lesson(last)+links.Query(final.Do, final.Opt))
		if !strings.Contains(page, `id="to-end" class="button primary" href="/`+lang+`/end"`) {
			t.Errorf("%s: the last step of the last lesson does not lead to the ending page", lang)
		}
		end := webtest.MustGet(t, h, "/"+lang+"/end")
		e := i18n.For(lang).End
		if n := strings.Count(end, "<tr>") - 1; n != len(e.Rows) || n < 10 {
			t.Errorf("%s: the pitfalls table has %d rows, want %d", lang, n, len(e.Rows))
		}
		for _, row := range e.Rows {
			l, ok := course.Get(lang, row.Slug)
			if !ok || !strings.Contains(end, `href="`+webtest.Escape(links.Start(l))+`"`) {
				t.Errorf("%s: the row %q does not link its lesson %s", lang, row.Pitfall, row.Slug)
			}
		}
		for _, l := range list {
			if !strings.Contains(end, `data-slug="`+l.Slug+`"`) {
				t.Errorf("%s: lesson %s is missing from the progress list", lang, l.Slug)
			}
		}
		if !strings.Contains(end, `id="to-lab" class="button primary" href="/`+lang+`/lab"`) {
			t.Errorf("%s: the ending page does not lead on to the Lab", lang)
		}
	}
	if r := webtest.Get(t, h, "/en/end/"); r.Status != 301 {
		t.Errorf("/en/end/ = %d, want a redirect", r.Status)
	}
}

// TestBrowserEndProgress: progress kept in this browser shows on the
// ending page: a finished lesson, and a checkpoint answered right.
func TestBrowserEndProgress(t *testing.T) {
	ctx := webtest.Browser(t)
	hs := httptest.NewServer(sitetest.Default(t))
	defer hs.Close()
	srv := hs.URL
	c := webtest.Tab(t, ctx)
	course, _ := lessons.Load()
	l, _ := course.Get("en", "fencing")
	var asked lessons.Step
	for _, st := range l.Steps {
		if st.Checkpoint != nil {
			asked = st
			break
		}
	}
	right := asked.Checkpoint.Correct()[0]
	// Answer a checkpoint right, then reach the lesson's last step.
	webtest.Do(t, c, chromedp.Navigate(srv+links.Lesson(l)+links.Query(asked.Do, asked.Opt)+"&guess="+strconv.Itoa(right)))
	webtest.WaitLoaded(t, c)
	final := l.Steps[len(l.Steps)-1]
	webtest.Do(t, c, chromedp.Navigate(srv+links.Lesson(l)+links.Query(final.Do, final.Opt)))
	webtest.WaitLoaded(t, c)
	webtest.Do(t, c, chromedp.Navigate(srv+"/en/end"))
	webtest.WaitLoaded(t, c)
	got := webtest.Run(t, c, chromedp.Evaluate[string](`document.querySelector('li[data-slug="fencing"] .status').textContent + " | " + document.querySelector(".done-of").textContent`))
	for _, want := range []string{"finished", "checkpoints: 1 right of 1 answered", "1 of 10 lessons finished."} {
		if !strings.Contains(got, want) {
			t.Errorf("ending page progress = %q, want it to contain %q", got, want)
		}
	}
}

package lesson_test

import (
	"encoding/json"
	"html"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/lesson"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/links"
)

// The fencing lesson's checkpoints: asked on "A wakes up" (step 7) and
// answered on "A's late write" (step 8), whose correct choice is 2.
const (
	wakes     = "a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume"
	lateWrite = wakes + ",a.write"
)

// TestCheckpointAsked: the step before a checkpoint replaces Next by a GET
// form to the next step whose submit is #next, and offers a skip link.
func TestCheckpointAsked(t *testing.T) {
	h := sitetest.Default(t)
	page := webtest.MustGet(t, h, "/en/lessons/fencing?do="+wakes)
	form := webtest.AskRe.FindString(page)
	if form == "" {
		t.Fatal("no checkpoint form on the step before A's late write")
	}
	for _, want := range []string{
		`action="/en/lessons/fencing"`, `hx-get="/en/lessons/fencing"`, `hx-target="#lab"`, `hx-select="#lab"`,
		`hx-push-url="true"`, `<input type="hidden" name="do" value="` + lateWrite + `"`,
		`What does the storage reply?`, `<code>(integer) 1</code>`,
		`name="guess" value="1"`, `name="guess" value="2"`, `name="guess" value="3"`,
		`<button type="submit" id="next" class="button primary">Reveal →</button>`,
		`id="skip" class="cp-skip" href="/en/lessons/fencing?do=` + lateWrite + `"`,
	} {
		if !strings.Contains(form, want) {
			t.Errorf("checkpoint form lacks %q", want)
		}
	}
	if strings.Contains(form, `name="opt"`) || strings.Contains(form, "required") || strings.Contains(form, `value="4"`) {
		t.Error("the form has an empty opt field, a required radio or a fourth choice")
	}
	if strings.Count(page, `id="next"`) != 1 {
		t.Error("#next must be exactly the form's submit button")
	}
	if strings.Contains(form, "explanation") || strings.Contains(form, "1 &lt; 2") {
		t.Error("the question gives the answer away before the reveal")
	}
	if ja := webtest.MustGet(t, h, "/ja/lessons/fencing?do="+wakes); !strings.Contains(ja, "答え合わせ") {
		t.Error("the Japanese form's button is not 答え合わせ")
	}
	// Steps whose next step has no checkpoint keep the plain Next link.
	if p := webtest.MustGet(t, h, "/en/lessons/fencing?do=a.acquire"); webtest.AskRe.MatchString(p) || !webtest.NextRe.MatchString(p) {
		t.Error("step 2 should have a plain Next link")
	}
}

// TestCheckpointAnswered: the step a checkpoint reveals tells the learner
// how their guess went, or folds the answer away when they skipped.
func TestCheckpointAnswered(t *testing.T) {
	h := sitetest.Default(t)
	right := webtest.MustGet(t, h, "/en/lessons/fencing?do="+lateWrite+"&guess=2")
	for _, want := range []string{
		`class="feedback right"`, `<span class="fb-mark" aria-hidden="true">✓</span> Right`,
		"You predicted: <code>(integer) 0</code>: the write is rejected", "the fenced-write script refuses the write",
	} {
		if !strings.Contains(right, want) {
			t.Errorf("right guess: page lacks %q", want)
		}
	}
	if strings.Contains(right, "The answer:") {
		t.Error("a right guess should not repeat the answer")
	}
	wrong := webtest.MustGet(t, h, "/en/lessons/fencing?do="+lateWrite+"&guess=3")
	for _, want := range []string{
		`class="feedback wrong"`, `<span class="fb-mark" aria-hidden="true">✗</span> Not quite`,
		"You predicted: An error", "Turning down an old token is an ordinary reply", // the chosen choice's explanation
		"The answer: <code>(integer) 0</code>", "the fenced-write script refuses the write", // and the right one's
	} {
		if !strings.Contains(wrong, want) {
			t.Errorf("wrong guess: page lacks %q", want)
		}
	}
	if strings.Index(wrong, `class="feedback`) > strings.Index(wrong, `class="line`) {
		t.Error("the feedback box should come before the dialog")
	}
	none := webtest.MustGet(t, h, "/en/lessons/fencing?do="+lateWrite)
	if strings.Contains(none, `class="feedback`) || !strings.Contains(none, `<details class="cp-answer"><summary>What the checkpoint asked</summary>`) ||
		!strings.Contains(none, "the fenced-write script refuses the write") {
		t.Error("without a guess the answer should be folded in a details element")
	}
	ja := webtest.MustGet(t, h, "/ja/lessons/fencing?do="+lateWrite+"&guess=1")
	if !strings.Contains(ja, "✗</span> 残念、不正解") || !strings.Contains(ja, "あなたの予想は") || !strings.Contains(ja, "正解は") {
		t.Error("Japanese feedback lacks its words")
	}
	if ja := webtest.MustGet(t, h, "/ja/lessons/fencing?do="+lateWrite); !strings.Contains(ja, "チェックポイントの答え") {
		t.Error("Japanese folded answer lacks its summary")
	}
	frag := webtest.Get(t, h, "/en/lessons/fencing?do="+lateWrite+"&guess=2", "HX-Request", "true")
	if !strings.Contains(frag.Body, "Step 8 of 23: A&#39;s late write — ✓ Right") {
		t.Errorf("the live region does not announce the verdict:\n%.300s", frag.Body)
	}
	// The release step's checkpoint: choice 1 is right.
	if rel := webtest.MustGet(t, h, "/en/lessons/fencing?do="+webtest.Guided+"&guess=1"); !strings.Contains(rel, `class="feedback right"`) {
		t.Error("release checkpoint: choice 1 should be right")
	}
}

// TestGuessCanonical: guess=N stays in the URL only where a checkpoint is
// answered and N is one of its choices, after do and opt.
func TestGuessCanonical(t *testing.T) {
	h := sitetest.Default(t)
	base := "/en/lessons/fencing"
	for _, ok := range []string{base + "?do=" + lateWrite + "&guess=3", base + "?do=" + webtest.Guided + "&guess=1"} {
		if r := webtest.Get(t, h, ok); r.Status != http.StatusOK {
			t.Errorf("%s: %d, want 200 (a valid guess is canonical)", ok, r.Status)
		}
	}
	cases := map[string]string{
		base + "?do=" + lateWrite + "&guess=4":                                   base + "?do=" + lateWrite, // no such choice
		base + "?do=" + lateWrite + "&guess=0":                                   base + "?do=" + lateWrite,
		base + "?do=" + lateWrite + "&guess=":                                    base + "?do=" + lateWrite, // the form's empty radio
		base + "?do=" + lateWrite + "&guess=x":                                   base + "?do=" + lateWrite,
		base + "?do=" + lateWrite + "&guess=1&guess=2":                           base + "?do=" + lateWrite,
		base + "?do=" + wakes + "&guess=1":                                       base + "?do=" + wakes,                  // no checkpoint here
		base + "?do=" + lateWrite + ",wait.1s&guess=1":                           base + "?do=" + lateWrite + ",wait.1s", // off the path
		base + "?do=" + lateWrite + "&opt=fence.off&guess=1":                     base + "?do=" + lateWrite + "&opt=fence.off",
		base + "?guess=2&do=" + lateWrite:                                        base + "?do=" + lateWrite + "&guess=2", // order
		base + "?do=" + lateWrite + "&guess=02":                                  base + "?do=" + lateWrite + "&guess=2",
		base + "?do=" + strings.ReplaceAll(lateWrite, ",", "%2C") + "&guess=2":   base + "?do=" + lateWrite + "&guess=2", // a form's encoding
		base + "?do=" + webtest.Guided + "&guess=1&opt-release=lua&opt-fence=on": base + "?do=" + webtest.Guided + "&guess=1",
	}
	for from, to := range cases {
		r := webtest.Get(t, h, from)
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != to {
			t.Errorf("%s → %d %q, want 303 %q", from, r.Status, r.Header.Get("Location"), to)
		}
	}
	r := webtest.Get(t, h, base+"?guess=2&do="+lateWrite, "HX-Request", "true")
	if !strings.Contains(r.Header.Get("HX-Location"), `"path":"`+base+"?do="+lateWrite+`&guess=2"`) {
		t.Errorf("htmx: HX-Location = %q", r.Header.Get("HX-Location"))
	}
	// The other language keeps the guess: the choices are the same.
	if p := webtest.MustGet(t, h, base+"?do="+lateWrite+"&guess=2"); !strings.Contains(p, `href="/ja/lessons/fencing?do=`+lateWrite+`&amp;guess=2"`) {
		t.Error("the language switch drops the guess")
	}
}

func TestLessonJSON(t *testing.T) {
	h := sitetest.Default(t)
	course, _ := lessons.Load()
	for _, lang := range i18n.Codes() {
		l, _ := course.Get(lang, "fencing")
		r := webtest.Get(t, h, "/"+lang+"/lessons/fencing.json")
		if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			t.Fatalf("%s: %d %q", lang, r.Status, r.Header.Get("Content-Type"))
		}
		var out struct {
			Slug, Lang, Title, Summary, Scenario string
			Order                                int
			Steps                                []struct {
				N                   int
				Title, Do, Opt, URL string
				Violations          []string
				Checkpoint          *struct {
					Question string
					Choices  []struct{ Text string }
				}
			}
		}
		if err := json.Unmarshal([]byte(r.Body), &out); err != nil {
			t.Fatal(err)
		}
		if out.Slug != "fencing" || out.Lang != lang || out.Title != l.Title || out.Summary != l.Summary || out.Order != 5 || out.Scenario != "fencing" {
			t.Errorf("%s: header = %+v", lang, out)
		}
		if len(out.Steps) != len(l.Steps) {
			t.Fatalf("%s: %d steps, want %d", lang, len(out.Steps), len(l.Steps))
		}
		for i, st := range out.Steps {
			want := l.Steps[i]
			if st.N != i+1 || st.Title != want.Title || st.Do != want.Do || st.Opt != want.Opt || st.URL != "/"+lang+"/lessons/fencing"+links.Query(want.Do, want.Opt) {
				t.Errorf("%s step %d = %+v", lang, i+1, st)
			}
			if (st.Checkpoint != nil) != (want.Checkpoint != nil) {
				t.Errorf("%s step %d: checkpoint present = %v", lang, i+1, st.Checkpoint != nil)
			}
			if webtest.Get(t, h, st.URL).Status != http.StatusOK {
				t.Errorf("%s step %d: url %s does not open", lang, i+1, st.URL)
			}
		}
		if v := out.Steps[0].Violations; v == nil || len(v) != 0 {
			t.Errorf("%s step 1: violations = %#v, want []", lang, v)
		}
		if v := strings.Join(out.Steps[4].Violations, ","); v != "overlap" {
			t.Errorf("%s step 5 (B gets the lock): violations = %q", lang, v)
		}
		if v := strings.Join(out.Steps[9].Violations, ","); v != "overlap,foreign-delete" {
			t.Errorf("%s step 10 (plain DEL): violations = %q", lang, v)
		}
		cp := out.Steps[7].Checkpoint
		if cp == nil || len(cp.Choices) != 3 {
			t.Fatalf("%s step 8 checkpoint = %+v", lang, cp)
		}
		if all := cp.Question + cp.Choices[1].Text; strings.Contains(all, "<code>") ||
			strings.Contains(all, "&lt;") || strings.Contains(all, "`") {
			t.Errorf("%s: checkpoint text is not plain: %q / %q", lang, cp.Question, cp.Choices[1].Text)
		}
		if !strings.HasPrefix(cp.Choices[1].Text, "(integer) 0") {
			t.Errorf("%s: choice 2 = %+v", lang, cp.Choices[1])
		}
		if !strings.Contains(r.Body, `"checkpoint": null`) {
			t.Errorf("%s: steps without a checkpoint should say null", lang)
		}
	}
	for _, u := range []string{"/en/lessons/nope.json", "/ja/lessons/nope.json", "/en/lessons/.json"} {
		r := webtest.Get(t, h, u)
		if r.Status != http.StatusNotFound || !strings.Contains(r.Body, `"code":"not-found"`) || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s = %d %q %s", u, r.Status, r.Header.Get("Content-Type"), r.Body)
		}
	}
	if page := webtest.MustGet(t, h, "/en/lessons/fencing?do=a.acquire"); !strings.Contains(page, `<a href="/en/lessons/fencing.json">Lesson as JSON</a>`) {
		t.Error("the lesson page does not link its JSON")
	}
}

func TestPlainText(t *testing.T) {
	for in, want := range map[string]string{
		"<code>(integer) 0</code>: rejected": "(integer) 0: rejected",
		"1 &lt; 2, so <em>no</em>\nwrite":    "1 < 2, so no write",
		"A&#39;s &amp; B&#39;s":              "A's & B's",
	} {
		if got := lesson.PlainText(in); got != want {
			t.Errorf("plainText(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestListCarriesProgressHooks: the list page gives app.js what it needs to
// show progress, in the page's language: labels and each lesson's path.
func TestListCarriesProgressHooks(t *testing.T) {
	h := sitetest.Default(t)
	en := webtest.MustGet(t, h, "/en/")
	for _, want := range []string{
		`<ol class="lessons" data-done-label="Finished" data-continue-label="Continue where you left off">`,
		`<li data-slug="fencing" data-path="/en/lessons/fencing">`,
	} {
		if !strings.Contains(en, want) {
			t.Errorf("list lacks %q", want)
		}
	}
	if ja := webtest.MustGet(t, h, "/ja/"); !strings.Contains(ja, `data-done-label="修了" data-continue-label="続きから"`) {
		t.Error("Japanese list lacks its progress labels")
	}
	page := webtest.MustGet(t, h, "/en/lessons/fencing?do="+lateWrite+"&guess=2")
	if !strings.Contains(page, `data-lesson="fencing" data-url="/en/lessons/fencing?do=`+lateWrite+`&amp;guess=2"`) {
		t.Error("the lesson page does not say which lesson and URL it is")
	}
}

// TestLessonJSONHidesAnswers (F10): the lesson's JSON gives each
// checkpoint's question and choices, not which choice is right nor why:
// a class answering that question must not read the answer there.
func TestLessonJSONHidesAnswers(t *testing.T) {
	h := sitetest.Default(t)
	course, _ := lessons.Load()
	for _, lang := range i18n.Codes() {
		for _, l := range course.List(lang) {
			body := webtest.Get(t, h, "/"+lang+"/lessons/"+l.Slug+".json").Body
			if strings.Contains(body, `"correct"`) || strings.Contains(body, `"explanation"`) {
				t.Errorf("/%s/lessons/%s.json says which answer is right", lang, l.Slug)
			}
			for i, st := range l.Steps {
				if st.Checkpoint == nil {
					continue
				}
				if q := lesson.PlainText(st.Checkpoint.QuestionHTML); !strings.Contains(body, webtest.JSONString(q)) {
					t.Errorf("/%s/lessons/%s.json step %d: the question %q is missing", lang, l.Slug, i+1, q)
				}
				for _, c := range st.Checkpoint.Choices {
					if x := lesson.PlainText(c.ExplainHTML); strings.Contains(body, webtest.JSONString(x)) {
						t.Errorf("/%s/lessons/%s.json step %d gives a choice's explanation: %q", lang, l.Slug, i+1, x)
					}
				}
			}
		}
	}
}

// TestUndoOnAVariantNamesItsDesign: an Undo on a "What if…" step leaves
// a state whose options no step before it has. No step's title heads it
// (a tester saw "What if the storage did not check tokens?" over a
// storage that refused a stale token, and readers the variant's own title
// over a timeline without its last action): the lesson's does, the note
// says it comes before that step, in every language, and "Back to the
// guided path" goes to that step.
func TestUndoOnAVariantNamesItsDesign(t *testing.T) {
	h := sitetest.Default(t)
	course, _ := lessons.Load()
	for _, lang := range i18n.Codes() {
		l, _ := course.Get(lang, "fencing")
		found := false
		for i, s := range l.Steps {
			if i == 0 || s.Opt == l.Steps[i-1].Opt || s.Opt == "" || !strings.Contains(s.Do, ",") {
				continue
			}
			undo := s.Do[:strings.LastIndex(s.Do, ",")]
			if idx, exact := l.Locate(undo, s.Opt); exact || (idx >= 0 && l.Steps[idx].Opt == s.Opt) {
				continue // an earlier step has these options: its heading is true
			}
			found = true
			page := webtest.MustGet(t, h, links.Lesson(l)+links.Query(undo, s.Opt))
			title := html.UnescapeString(between(page, `id="step-title">`, "</h1>"))
			if title != l.Title {
				t.Errorf("%s: Undo on step %d (%s) is headed %q, want the lesson's %q", lang, i+1, s.Opt, title, l.Title)
			}
			if note := i18n.Fill(i18n.For(lang).OffPathBefore, strconv.Itoa(i+1)); !strings.Contains(html.UnescapeString(page), note) {
				t.Errorf("%s: Undo on step %d does not say %q", lang, i+1, note)
			}
			if href, _ := webtest.HrefOf(page, "next"); href != links.Lesson(l)+links.Query(s.Do, s.Opt) {
				t.Errorf("%s: Undo on step %d: the way back is %q", lang, i+1, href)
			}
		}
		if !found {
			t.Fatalf("%s: the fencing lesson has no \"What if…\" step whose Undo leaves its options behind", lang)
		}
	}
}

func between(s, from, to string) string {
	_, rest, _ := strings.Cut(s, from)
	in, _, _ := strings.Cut(rest, to)
	return in
}

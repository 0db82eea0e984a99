package web_test

import (
	"encoding/json"
	"locklab/web"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim"
	"locklab/static"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/site"
)

const guided = webtest.Guided

func TestRootNegotiatesLanguage(t *testing.T) {
	h := sitetest.Default(t)
	for accept, want := range map[string]string{
		"ja,en;q=0.8": "/ja/", "ja-JP": "/ja/", "en-GB,en;q=0.9": "/en/", "fr-FR": "/en/", "": "/en/",
		"de;q=0.9,ja;q=0.5": "/ja/",
	} {
		r := webtest.Get(t, h, "/", "Accept-Language", accept)
		if r.Status != http.StatusFound || r.Header.Get("Location") != want {
			t.Errorf("Accept-Language %q: %d → %q, want 302 → %q", accept, r.Status, r.Header.Get("Location"), want)
		}
	}
}

func TestLessonListBothLanguages(t *testing.T) {
	h := sitetest.Default(t)
	en := webtest.MustGet(t, h, "/en/")
	ja := webtest.MustGet(t, h, "/ja/")
	if !strings.Contains(en, `lang="en"`) || !strings.Contains(en, "Fencing tokens") || !strings.Contains(en, `href="/ja/"`) {
		t.Error("English list lacks lang, the fencing lesson or the switch to Japanese")
	}
	if !strings.Contains(ja, `lang="ja"`) || !strings.Contains(ja, "フェンシングトークン") || !strings.Contains(ja, `href="/en/"`) {
		t.Error("Japanese list lacks lang, the fencing lesson or the switch to English")
	}
}

// TestWalkGuidedPath follows the Next button from the first step to the
// last of every lesson in both languages, as a learner without JavaScript
// would: each page answers 200 and shows its step's number and title.
// It is the no-JavaScript walk of every lesson (the pages are
// server-rendered HTML and a link is followed as written); a browser
// walks one lesson so in TestBrowserGuidedPath, and every lesson with
// JavaScript (in presenter mode) in TestBrowserEveryLesson.
func TestWalkGuidedPath(t *testing.T) {
	h := sitetest.Default(t)
	course, _ := lessons.Load()
	for _, lang := range i18n.Codes() {
		for _, l := range course.List(lang) {
			list := webtest.MustGet(t, h, "/"+lang+"/")
			url := links.Start(l)
			if !strings.Contains(list, `href="`+webtest.Escape(url)+`"`) {
				t.Errorf("%s: the lesson list does not link %s to its first step %s", lang, l.Slug, url)
			}
			for i, st := range l.Steps {
				body := webtest.MustGet(t, h, url)
				if !strings.Contains(body, `data-step="`+itoa(int64(i+1))+`"`) {
					t.Fatalf("%s/%s step %d (%s): the page is not marked as step %d", lang, l.Slug, i+1, url, i+1)
				}
				if !strings.Contains(body, `<h1 id="step-title">`+webtest.Escape(st.Title)+"</h1>") {
					t.Fatalf("%s/%s step %d (%s): title %q not shown", lang, l.Slug, i+1, url, st.Title)
				}
				for _, v := range st.Violations {
					text, self := i18n.For(lang).ViolationText[v], i18n.For(lang).ChargedTwiceBy // self: one client charged twice
					if !strings.Contains(body, webtest.Escape(strings.SplitN(text, "{", 2)[0])) &&
						(v != sim.DoubleCharge || !strings.Contains(body, webtest.Escape(strings.SplitN(self, "{", 2)[0]))) {
						t.Errorf("%s/%s step %d: violation %s not explained on the page", lang, l.Slug, i+1, v)
					}
				}
				next, ok := webtest.NextURL(body)
				if i == len(l.Steps)-1 {
					if ok || !strings.Contains(body, i18n.For(lang).Finished) {
						t.Fatalf("%s/%s: last step should say it is finished and offer no Next", lang, l.Slug)
					}
					break
				}
				if !ok {
					t.Fatalf("%s/%s step %d: no Next link or checkpoint form", lang, l.Slug, i+1)
				}
				url = next
			}
		}
	}
}

// TestFlagshipOutcomes checks, on the page a learner sees, the three
// outcomes the fencing lesson exists for.
func TestFlagshipOutcomes(t *testing.T) {
	h := sitetest.Default(t)
	page := webtest.MustGet(t, h, "/en/lessons/fencing?do="+guided)
	for _, want := range []string{
		"token 1 rejected", "(integer) 0", "Exclusion lost: B took the lock after A&#39;s lease ran out, while A still believed it held the lock. A was paused, so it could not notice.",
		"8.0s left", "token key: 2", "“written by B”",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("default: page lacks %q", want)
		}
	}
	del := webtest.MustGet(t, h, "/en/lessons/fencing?do="+guided+"&opt=release.del")
	if !strings.Contains(del, "Someone else&#39;s lock deleted: A deleted the lock B held.") || !strings.Contains(del, "deleted by A") {
		t.Error("release.del: the page does not say A deleted B's lock")
	}
	off := webtest.MustGet(t, h, "/en/lessons/fencing?do="+guided+"&opt=fence.off")
	if !strings.Contains(off, "Stale write accepted: A&#39;s write landed after B&#39;s, though B got the lock later.") {
		t.Error("fence.off: the page does not flag A's stale write")
	}
	ja := webtest.MustGet(t, h, "/ja/lessons/fencing?do="+guided+"&opt=fence.off")
	if !strings.Contains(ja, "古い書き込みが通った") {
		t.Error("fence.off (ja): no Japanese violation text")
	}
}

// TestBadInputNever500 is the table of malformed and impossible URLs: each
// gets a clear 4xx in the page's language, never a 500.
func TestBadInputNever500(t *testing.T) {
	h := sitetest.Default(t)
	long := "/en/lessons/fencing?do=" + strings.Repeat("a.acquire,", 900)
	cases := []struct {
		url    string
		status int
		want   string
	}{
		{"/en/lessons/nope", 404, "Page not found"},
		{"/ja/lessons/nope", 404, "ページが見つかりません"},
		{"/xx/", 404, "Page not found"},
		{"/en/lessons/fencing?do=a.fly", 400, "“a.fly”: no such action. Clients can acquire, next, write, extend, ttl, release, pause, resume, disconnect, reconnect, drop, crash; nodes"},
		{"/ja/lessons/fencing?do=a.fly", 400, "「a.fly」"},
		{"/en/lessons/fencing?do=a.acquire,a.pause,a.write", 400, "A is paused"},
		{"/en/lessons/fencing?do=z.acquire", 400, "no client Z"},
		{"/en/lessons/fencing?do=wait.0s", 400, "wait take a whole duration between 1ms and 60m"},
		{"/en/lessons/fencing?do=wait.99999999999999999999s", 400, "wait take a whole duration between 1ms and 60m"},
		{"/en/lessons/fencing?do=a.write", 400, "has not acquired"},
		{"/en/lessons/fencing?do=" + strings.TrimSuffix(strings.Repeat("wait.1s,", 201), ","), 400, "at most 200 actions"},
		{long, 400, "too long"},
		{"/en/lessons/fencing?opt=fence.maybe", 400, "does not take that value"},
		{"/en/lessons/fencing?opt=colour.red", 400, "not a variant"},
		{"/en/lessons/fencing?do=a.acquire&do=b.acquire", 400, "“do=” more than once"},
		{"/en/lessons/fencing?do=%ff%fe", 400, "is not an action"},
		{"/en/lessons/fencing?do=<script>alert(1)</script>", 400, "&lt;script&gt;"},
		{"/en/lessons/fencing/timeline.json?do=a.fly", 400, `"code": "unknown-verb"`},
		{"/en/lessons/nope/timeline.json", 404, `"code": "not-found"`},
		{"/en/lessons/fencing/timeline.svg?do=a.fly", 400, "“a.fly”"},
		{"/ja/lessons/nope/timeline.svg", 404, "ページが見つかりません"},
		{"/en/lessons/fencing/qr.svg?do=a.fly", 400, "“a.fly”"},
		{"/en/lessons/fencing/qr.svg?opt=fence.maybe", 400, "does not take that value"},
		{"/en/lessons/nope/qr.svg", 404, "Page not found"},
		{"/en/lessons/fencing/qr.svg?do=" + strings.Repeat("a.acquire,", 900), 400, "too long"},
		{"/static/0000000000/nope.css", 404, ""},
		{"/en/lessons/redlock?do=n9.down", 400, "no such node"},
		{"/en/lessons/redlock?do=n3.jump", 400, "wait take a whole duration between 1ms and 60m"},
		{"/en/lessons/redlock?do=n3.fly.1s", 400, "Clients can acquire"},
		{"/en/lessons/redlock?do=n3.up", 400, "not possible"},
		{"/en/lessons/failover?do=replica.promote", 400, "not possible"},
		{"/en/lessons/fencing?do=a.next", 400, "not between two commands"},
		{"/en/lessons/atomic-acquire?do=a.acquire,a.write&opt=acquire.getset", 400, "stopped between two commands"},
		{"/en/lessons/fencing?do=a.disconnect", 400, "this lesson does not offer disconnect"},
		{"/en/lessons/fencing?do=A.acquire", 400, "is not an action"},
		{"/en/lessons/fencing?do=a.acquire%2Cb.acquire", 303, "do=a.acquire,b.acquire"},
		{"/en/lessons/fencing?do=%E3%81%82.acquire", 400, "is not an action"},
		{"/en/lessons/fencing?guess=abc", 303, ""},
		{"/en/lessons/fencing?opt=", 303, ""},
		{"/en/lessons/fencing?do=wait.1s&opt=release.del,release.lua", 400, "not a variant"},
		{"/en/lessons/..%2F..%2Fetc%2Fpasswd", 404, "Page not found"},
		{"/en/lessons/fencing/..", 404, "Page not found"},
		{"/en/lessons/fencing.json?do=a.fly", 200, `"slug"`},
		{"/en/lessons/FENCING", 404, "Page not found"},
		{"/ja/lessons/fencing?do=" + strings.Repeat("wait.60m,", 6) + "wait.1s", 400, "長くなりすぎます"},
		{"/en/lab?lesson=nope", 400, "There is no lesson"},
		{"/ja/lab?lesson=fencing&depth=x", 400, "「x」"},
		{"/en/lab?lesson=fencing&pauses=99999999999999999999", 400, "is not a value"},
		{"/en/lab?lesson=fencing&pause=%ff", 400, "is not a value"},
		{"/en/lab?lesson=..%2F..%2Fetc", 400, "There is no lesson"},
		{"/en/lab/", 301, ""},
		{"/en/lessons/fencing/?do=a.acquire", 301, ""},
		{"/en/lessons/nope/", 301, ""}, // then a 404 at /en/lessons/nope
		{"/en/lab?lesson=fencing&opt-release=del", 303, ""},
		{"/en/lessons/zookeeper-etcd?do=a.ttl", 400, "this lesson does not offer ttl"},
		{"/ja/lessons/zookeeper-etcd?do=a.ttl", 400, "このレッスンには ttl の操作がありません"},
		{"/en/lessons/fencing?do=a.drop,a.acquire,wait.2s", 400, "this lesson does not offer drop. Here clients can acquire"},
		{"/ja/lessons/fencing?do=a.acquire&do=b.acquire", 400, "「do=」が 2 回以上"},
		{"/en/lessons/fencing?opt=fence.off&opt=release.del", 400, "“opt=” more than once"},
		{"/ja/lessons/fencing?do=" + strings.Repeat("wait.1s,", 3000), 414, "このリンクは長すぎて開けません"},
		{"/en/lessons/fencing?do=" + strings.Repeat("wait.1s,", 3000), 414, `href="/en/lessons/fencing"`},
		{"/ja/lab?lesson=fencing&pauses=2&pause=1s&pause=5s&pause=10s&pause=15s&crashes=1", 400, `href="/ja/lab?lesson=fencing&amp;pauses=2&amp;pause=1s,5s,10s&amp;crashes=1"`},
		{"/en/lab?lesson=fencing&pauses=2&depth=x&crashes=1", 400, `href="/en/lab?lesson=fencing&amp;pauses=2&amp;crashes=1"`},
		{"/ja/lessons/fencing?do=a.acquire&lab=lesson%3Dredlock%26clients%3D9", 303, `href="/ja/lessons/fencing?do=a.acquire"`},
		{"/en/lessons/fencing?do=a.acquire&lab=lesson%3Dfencing%26clients%3D9", 303, `href="/en/lessons/fencing?do=a.acquire"`},
		{"/en/lessons/fencing?do=a.acquire&lab=lesson%3Dfencing%26pauses%3D2", 200, `lab=lesson%3Dfencing%26pauses%3D2`},
		{"/en/lessons", 301, `href="/en/"`},
		{"/ja/lessons/", 301, `href="/ja/"`},
		{"/class", 302, `href="/en/class"`},
		{"/class/", 302, `href="/en/class"`},
		{"/ja/class/", 301, `href="/ja/class"`},
		{"/ja/class/ABCDEFGH/", 301, `href="/ja/class/ABCDEFGH"`},
	}
	for _, tc := range cases {
		r := webtest.Get(t, h, tc.url)
		body := strings.ReplaceAll(r.Body, `":"`, `": "`)
		if r.Status != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("GET %.80s = %d, want %d containing %q\n%.300s", tc.url, r.Status, tc.status, tc.want, r.Body)
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/en/lessons/fencing", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST = %d, want 405", rec.Code)
	}
}

// TestBadActionKeepsTheRest: an impossible action's error page links to
// the timeline up to the last possible action, so nothing is lost.
func TestBadActionKeepsTheRest(t *testing.T) {
	h := sitetest.Default(t)
	r := webtest.Get(t, h, "/en/lessons/fencing?do=a.acquire,a.pause,wait.10s,a.write&opt=fence.off")
	if r.Status != 400 || !strings.Contains(r.Body, `href="/en/lessons/fencing?do=a.acquire,a.pause,wait.10s&amp;opt=fence.off"`) {
		t.Fatalf("no link back to the valid prefix:\n%s", r.Body)
	}
	for _, lang := range []string{"ja", "zh"} {
		if !strings.Contains(r.Body, `href="/`+lang+`/lessons/fencing?do=a.acquire,a.pause,wait.10s,a.write&amp;opt=fence.off"`) {
			t.Errorf("the error page's link to %s does not keep the page and its timeline", lang)
		}
	}
}

func TestSameURLSameBytes(t *testing.T) {
	h := sitetest.Default(t)
	for _, u := range []string{"/en/lessons/fencing?do=" + guided, "/ja/lessons/fencing/timeline.json?do=" + guided + "&opt=release.del"} {
		if a, b := webtest.MustGet(t, h, u), webtest.MustGet(t, h, u); a != b {
			t.Errorf("%s: two renders differ", u)
		}
	}
}

func TestHtmxGetsFragment(t *testing.T) {
	h := sitetest.Default(t)
	r := webtest.Get(t, h, "/en/lessons/fencing?do=a.acquire", "HX-Request", "true")
	if r.Status != 200 || strings.Contains(r.Body, "<html") || !strings.Contains(r.Body, `<main id="lab"`) ||
		!strings.Contains(r.Body, `id="lang-switch"`) || !strings.Contains(r.Body, `hx-swap-oob="true"`) {
		t.Fatalf("htmx fragment wrong:\n%.500s", r.Body)
	}
	if !strings.Contains(r.Body, "Step 2 of 23: A takes the lock") {
		t.Error("the live region does not announce the step")
	}
	if !strings.Contains(strings.Join(r.Header.Values("Vary"), ","), "HX-Request") {
		t.Error("fragment and page share a URL: Vary: HX-Request is needed")
	}
	full := webtest.Get(t, h, "/en/lessons/fencing?do=a.acquire", "HX-Request", "true", "HX-History-Restore-Request", "true")
	if !strings.Contains(full.Body, "<html") {
		t.Error("a history restore needs the full page")
	}
}

func TestCanonicalRedirects(t *testing.T) {
	h := sitetest.Default(t)
	cases := map[string]string{
		"/en/lessons/fencing?do=a.acquire&opt-release=del&opt-fence=on": "/en/lessons/fencing?do=a.acquire&opt=release.del",
		"/en/lessons/fencing?opt-release=lua&opt-fence=on":              "/en/lessons/fencing",
		"/en/lessons/fencing?do=wait.10000ms":                           "/en/lessons/fencing?do=wait.10s",
		"/en/lessons/fencing?do=a.acquire&utm_source=x":                 "/en/lessons/fencing?do=a.acquire",
	}
	for from, to := range cases {
		r := webtest.Get(t, h, from)
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != to {
			t.Errorf("%s → %d %q, want 303 %q", from, r.Status, r.Header.Get("Location"), to)
		}
	}
	r := webtest.Get(t, h, "/en/lessons/fencing?opt-release=del", "HX-Request", "true")
	if !strings.Contains(r.Header.Get("HX-Location"), `"path":"/en/lessons/fencing?opt=release.del"`) {
		t.Errorf("htmx form submit: HX-Location = %q", r.Header.Get("HX-Location"))
	}
	if r := webtest.Get(t, h, "/en/lessons/fencing?do="+guided); r.Status != 200 {
		t.Errorf("a canonical URL was redirected: %d", r.Status)
	}
}

func TestTimelineJSON(t *testing.T) {
	h := sitetest.Default(t)
	var out struct {
		Events []struct {
			AtMS     *int64   `json:"at_ms"`
			Actor    string   `json:"actor"`
			Command  []string `json:"command"`
			Reply    string   `json:"reply"`
			Token    int64    `json:"token"`
			Accepted *bool    `json:"accepted"`
			Node     string   `json:"node"`
		} `json:"events"`
		Violations []struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"violations"`
	}
	if err := json.Unmarshal([]byte(webtest.MustGet(t, h, "/en/lessons/fencing/timeline.json?do="+guided)), &out); err != nil {
		t.Fatal(err)
	}
	var writes []string
	for _, e := range out.Events {
		if e.AtMS == nil || e.Actor == "" {
			t.Fatalf("event without at_ms or actor: %+v", e)
		}
		if e.Node == sim.NodeStorage {
			writes = append(writes, e.Actor+":"+itoa(e.Token)+":"+map[bool]string{true: "accepted", false: "rejected"}[*e.Accepted])
		}
	}
	if strings.Join(writes, " ") != "b:2:accepted a:1:rejected" {
		t.Errorf("storage writes = %v", writes)
	}
	if len(out.Violations) != 1 || out.Violations[0].Kind != "overlap" || out.Violations[0].Message == "" {
		t.Errorf("violations = %+v", out.Violations)
	}
}

func TestStaticCaching(t *testing.T) {
	assets, _ := site.NewAssets(static.FS)
	h := sitetest.Default(t)
	url := assets.URL("css/app.css")
	r := webtest.Get(t, h, url)
	if r.Status != 200 || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/css") {
		t.Errorf("%s: %d %q %q", url, r.Status, r.Header.Get("Cache-Control"), r.Header.Get("Content-Type"))
	}
	old := webtest.Get(t, h, "/static/0000000000/css/app.css")
	if old.Status != 200 || strings.Contains(old.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("an old hash should be served but not cached for long: %q", old.Header.Get("Cache-Control"))
	}
	page := webtest.MustGet(t, h, "/en/")
	if !strings.Contains(page, url) || !strings.Contains(page, assets.URL("vendor/htmx.min.js")) {
		t.Error("pages do not reference the versioned CSS and htmx")
	}
}

// TestUIComplete fails on an error code with no message.
func TestUIComplete(t *testing.T) {
	for _, c := range []sim.Code{sim.CodeSyntax, sim.CodeUnknownVerb, sim.CodeUnknownClient, sim.CodeBadDuration, sim.CodeTooMany,
		sim.CodeTooLong, sim.CodePaused, sim.CodeCrashed, sim.CodeNotPaused, sim.CodeNotHolding, sim.CodeBusy,
		sim.CodeTimeLimit, sim.CodeUnknownOption, sim.CodeBadOption, sim.CodeUnknownScene} {
		if i18n.For("en").ErrorText[c] == "" {
			t.Errorf("no message for error code %s", c)
		}
	}
}

// BenchmarkLessonStep is one uncached lesson step: replay the fencing
// guided path on fresh miniredis nodes and render the full page (the page
// cache is off).
func BenchmarkLessonStep(b *testing.B) {
	h := sitetest.Handler(b, web.Config{Config: site.Config{Version: "bench", CacheBytes: 1}})
	url := "/en/lessons/fencing?do=" + guided
	b.ReportAllocs()
	for b.Loop() {
		if r := webtest.Get(b, h, url); r.Status != 200 {
			b.Fatal(r.Status)
		}
	}
}

// BenchmarkLessonStepCached is the same step served from the page cache.
func BenchmarkLessonStepCached(b *testing.B) {
	h := sitetest.Default(b)
	url := "/en/lessons/fencing?do=" + guided
	b.ReportAllocs()
	for b.Loop() {
		if r := webtest.Get(b, h, url); r.Status != 200 {
			b.Fatal(r.Status)
		}
	}
}

// BenchmarkReplay is the simulator alone on the same path.
func BenchmarkReplay(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sim.Run("fencing", guided, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

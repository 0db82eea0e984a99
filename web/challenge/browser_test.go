package challenge_test

import (
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
)

var shots = flag.String("challenge-screenshots", "", "TestChallengeScreenshots: write PNGs of each kind of challenge, in every language, at 360 and 1280 px, into this folder")

// controlID is the id of the lesson control that takes action a.
func controlID(a sim.Action) string {
	if a.Verb == sim.VerbWait {
		return "wait-" + sim.FormatDuration(a.Ms)
	}
	return "do-" + a.Who + "-" + a.Verb
}

// TestBrowserChallenges plays each kind of challenge in a real browser, as
// a learner does (each in one language outside CI, every language under
// it): a break solved by clicking the timeline's controls (htmx swaps;
// the solve announced; the best moves kept in this browser and shown on
// the list), carried to a fresh browser by the copied progress link and
// forgotten on request; a fix checked with JavaScript off; a prediction
// answered with JavaScript off.
func TestBrowserChallenges(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		t.Run(lang+"/break", func(t *testing.T) {
			webtest.TakeTurn(t, 0, lang)
			ch, _ := course.Challenge(lang, "fe-stale")
			par := search(t, ch, ch.Opts).Found[ch.Goal].Shortest
			c := webtest.Tab(t, ctx)
			// on a phone, played with a thumb: each move keeps the
			// controls where the thumb is, and the solve is on screen
			webtest.Do(t, c, chromedp.EmulateViewport(360, 740))
			webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/challenges/"+ch.ID))
			webtest.WaitLoaded(t, c)
			webtest.Run(t, c, chromedp.Evaluate[bool](`window.__same = 1, true`))
			for i, a := range par {
				id := webtest.JSONString(controlID(a))
				if i == 0 {
					webtest.Do(t, c, chromedp.ScrollIntoView(chromedp.CSS("#"+controlID(a))))
				} else if !webtest.Run(t, c, chromedp.Evaluate[bool](`(e => !!e && e.getBoundingClientRect().top >= 0 && e.getBoundingClientRect().bottom <= innerHeight)(document.getElementById(`+id+`))`)) {
					// the next move's control is on screen: the previous
					// move left the controls where the thumb was
					t.Errorf("move %d: its control %s is at y %.0f of a 740 px phone", i+1, a, webtest.Run(t, c, chromedp.Evaluate[float64](`document.getElementById(`+id+`).getBoundingClientRect().top`)))
					webtest.Do(t, c, chromedp.ScrollIntoView(chromedp.CSS("#"+controlID(a))))
				}
				webtest.Do(t, c, chromedp.Click(chromedp.CSS("#"+controlID(a))))
				// landed, and settled: htmx has wired the new controls
				if !webtest.WaitTrue(c, fmt.Sprintf(`location.search.split(",").length === %d && document.querySelector(".challenge .score") !== null && document.querySelector(".challenge .score").textContent.indexOf(%s) >= 0 && %s`,
					i+1, webtest.JSONString(i18n.Fill(u.Chal.Moves, strconv.Itoa(i+1))), webtest.SwapDone)) {
					t.Fatalf("move %d (%s) did not land: %s", i+1, a, webtest.Run(t, c, chromedp.Location()))
				}
			}
			if !webtest.WaitTrue(c, `(e => !!e && e.getBoundingClientRect().top >= 0 && e.getBoundingClientRect().bottom <= innerHeight)(document.querySelector(".challenge .solved"))`) {
				t.Errorf("\"Solved\" is off the phone's screen, at y %.0f", webtest.Run(t, c, chromedp.Evaluate[float64](`(e => e ? e.getBoundingClientRect().top : -1)(document.querySelector(".challenge .solved"))`)))
			}
			if webtest.Run(t, c, chromedp.Evaluate[int](`window.__same || 0`)) != 1 {
				t.Error("a move reloaded the page: htmx did not swap")
			}
			solved := i18n.Fill(u.Chal.SolvedPar, strconv.Itoa(len(par)), u.Failures[ch.Goal].Name)
			if !webtest.WaitTrue(c, `document.getElementById("live").textContent.indexOf(`+webtest.JSONString(solved)+`) >= 0`) {
				t.Errorf("the solve is not announced: %q", webtest.Run(t, c, chromedp.TextContent(chromedp.CSS("#live"))))
			}
			kept := `(JSON.parse(localStorage.getItem("locklab:challenges") || "{}")["fe-stale"] || {}).moves`
			if !webtest.WaitTrue(c, kept+` === `+strconv.Itoa(len(par))) {
				t.Errorf("kept %v moves, want %d", webtest.Run(t, c, chromedp.Evaluate[any](kept)), len(par))
			}
			badge := i18n.Fill(u.Chal.SolvedBadge, strconv.Itoa(len(par)))
			status := `(document.querySelector('li[data-challenge="fe-stale"] .status') || {}).textContent`
			webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/challenges"))
			if got := webtest.WaitJS(t, c, status); got != badge {
				t.Errorf("the list shows %q, want %q", got, badge)
			}
			// a prediction answered wrong says so; one move is one move
			webtest.Run(t, c, chromedp.Evaluate[bool](`(all => { all["fe-check"] = {answer: "wrong"}; all["ts-mutexes"] = {moves: 1}; localStorage.setItem("locklab:challenges", JSON.stringify(all)); })(JSON.parse(localStorage.getItem("locklab:challenges") || "{}")), true`))
			webtest.Do(t, c, chromedp.Reload())
			wrong, one := "✗ "+u.Chal.Answered, u.Chal.SolvedBadgeOne
			if !webtest.WaitTrue(c, fmt.Sprintf(`(s => s("fe-check") === %s && s("ts-mutexes") === %s)(id => (document.querySelector('li[data-challenge="' + id + '"] .status') || {}).textContent)`, webtest.JSONString(wrong), webtest.JSONString(one))) {
				t.Errorf("the list shows a wrong prediction as %q and one move as %q, want %q and %q",
					webtest.Run(t, c, chromedp.Evaluate[string](`document.querySelector('li[data-challenge="fe-check"] .status').textContent`)),
					webtest.Run(t, c, chromedp.Evaluate[string](`document.querySelector('li[data-challenge="ts-mutexes"] .status').textContent`)), wrong, one)
			}
			// the lesson list and the lesson's header count it, with the
			// checkpoints this browser answered (one right, one wrong)
			webtest.Run(t, c, chromedp.Evaluate[bool](`localStorage.setItem("locklab:cp:fencing:8", "1"), localStorage.setItem("locklab:cp:fencing:12", "0"), true`))
			l, _ := course.Get(lang, "fencing")
			cps := i18n.Fill(u.End.Checkpoints, "1", "2", strconv.Itoa(l.Checkpoints()))
			count := i18n.Fill(u.Chal.Count, "1", strconv.Itoa(len(course.ChallengesOf(l))))
			for _, page := range []string{"/" + lang + "/", "/" + lang + "/lessons/fencing"} {
				webtest.Do(t, c, chromedp.Navigate(srv.URL+page))
				webtest.WaitLoaded(t, c)
				if got := webtest.WaitJS(t, c, `(e => e && !e.hidden ? e.textContent : "")(document.querySelector('.cp-count[data-slug="fencing"]'))`); got != cps {
					t.Errorf("%s counts the checkpoints as %q, want %q", page, got, cps)
				}
				if got := webtest.WaitJS(t, c, `(e => e ? e.textContent : "")(document.querySelector('.chal-count a[href$="/fencing/challenges"]'))`); got != count {
					t.Errorf("%s counts the challenges as %q, want %q", page, got, count)
				}
			}
			webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/challenges"))
			webtest.WaitLoaded(t, c)
			// copy the progress as a link, open it in a fresh browser
			webtest.Do(t, c, chromedp.Click(chromedp.CSS("#copy-progress")))
			link := webtest.WaitJS(t, c, `(document.querySelector("#progress-note input") || {}).value || ""`)
			if !strings.Contains(link, "#progress=") {
				t.Fatalf("the copied link is %q", link)
			}
			other := webtest.Tab(t, ctx)
			webtest.Do(t, other, chromedp.Navigate(link))
			if got := webtest.WaitJS(t, other, status); got != badge {
				t.Errorf("the progress link shows %q in a fresh browser, want %q", got, badge)
			}
			if h := webtest.Run(t, other, chromedp.Evaluate[string](`location.hash`)); h != "" {
				t.Errorf("the address keeps the progress after restoring it: %q", h)
			}
			// and forget it there
			webtest.Do(t, other, chromedp.Click(chromedp.CSS("#forget-progress")))
			if !webtest.WaitTrue(other, status+` === "" && localStorage.getItem("locklab:challenges") === null`) {
				t.Error("Forget my progress left the progress")
			}
		})
		t.Run(lang+"/fix-nojs", func(t *testing.T) {
			webtest.TakeTurn(t, 1, lang)
			c := webtest.Tab(t, ctx)
			webtest.NoScripts(t, c)
			webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/challenges/fe-fix"))
			webtest.WaitLoaded(t, c)
			webtest.Do(t, c, chromedp.Click(chromedp.CSS(`input[name="opt-release"][value="lua"]`)), chromedp.Click(chromedp.CSS(`input[name="opt-fence"][value="on"]`)))
			webtest.Follow(t, c, `form.options button[type="submit"]`)
			if got := webtest.Run(t, c, chromedp.Evaluate[string](`document.querySelector(".challenge").getAttribute("data-solved")`)); got != "1" {
				t.Errorf("the fixed design is not shown fixed (data-solved %q) at %s", got, webtest.Run(t, c, chromedp.Location()))
			}
		})
		t.Run(lang+"/predict-nojs", func(t *testing.T) {
			webtest.TakeTurn(t, 2, lang)
			c := webtest.Tab(t, ctx)
			webtest.NoScripts(t, c)
			webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/challenges/fe-two-pauses"))
			webtest.WaitLoaded(t, c)
			webtest.Follow(t, c, `button[name="answer"][value="no"]`)
			if got := webtest.Run(t, c, chromedp.Evaluate[string](`document.querySelector(".challenge").getAttribute("data-solved")`)); got != "right" {
				t.Errorf("no for fe-two-pauses is %q", got)
			}
		})
	}
}

// TestChallengeScreenshots writes, with -challenge-screenshots DIR, each
// kind of challenge page (a break part-way and solved, a fix, a
// prediction answered, the list) in every language at 360 and 1280 px.
func TestChallengeScreenshots(t *testing.T) {
	if *shots == "" {
		t.Skip("pass -challenge-screenshots DIR to write screenshots")
	}
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	if err := os.MkdirAll(*shots, 0o755); err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{
		"break-start":  "/challenges/fe-stale?opt=fence.off",
		"break-solved": "/challenges/fe-stale?do=a.acquire,b.acquire,a.pause,wait.10s,b.write,a.resume,a.write&opt=fence.off",
		"fix":          "/challenges/fe-fix?opt=release.lua,fence.off",
		"fixed":        "/challenges/fe-fix?opt=",
		"predict":      "/challenges/fe-check?answer=no",
		"list":         "/challenges",
		"refused":      "/challenges/fe-stale?do=a.acquire,wait.10s&opt=fence.off",
	}
	for _, lang := range i18n.Codes() {
		for name, p := range pages {
			for _, w := range []int64{360, 1280} {
				c := webtest.Tab(t, ctx)
				webtest.Do(t, c, chromedp.EmulateViewport(w, 900, chromedp.EmulateScale(1)))
				webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+p))
				webtest.WaitLoaded(t, c)
				png := webtest.Run(t, c, chromedp.FullScreenshot(100))
				if err := os.WriteFile(filepath.Join(*shots, fmt.Sprintf("%s-%s-%d.png", lang, name, w)), png, 0o644); err != nil {
					t.Fatal(err)
				}
				// and one screen from the challenge's box down, as a phone shows it
				webtest.Run(t, c, chromedp.Evaluate[bool](`(b => (b && b.scrollIntoView(), true))(document.querySelector(".challenge, main"))`))
				png = webtest.Run(t, c, chromedp.CaptureScreenshot())
				if err := os.WriteFile(filepath.Join(*shots, fmt.Sprintf("%s-%s-%d-screen.png", lang, name, w)), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// TestBrowserProgressLinkStaysOnSite: a progress link restores only what
// the site itself writes, field by field. A crafted link carrying a
// protocol-relative or foreign address (security test F7: it became the
// home page's Continue button, //evil.example/phish) or a step of the
// wrong shape is left out; a well-formed one, carried along, is kept.
// And a value stored before the check is not used either.
func TestBrowserProgressLinkStaysOnSite(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	c := webtest.Tab(t, ctx)
	link := func(data string) string {
		return webtest.Run(t, c, chromedp.Evaluate[string](`btoa(unescape(encodeURIComponent(`+webtest.JSONString(data)+`))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")`))
	}
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/"))
	webtest.WaitLoaded(t, c)
	forged := `{"resume:en":"{\"slug\":\"ttl\",\"url\":\"//evil.example/phish\",\"lesson\":\"3\",\"step\":\"2\",\"title\":\"Free certificate\"}",` +
		`"at:ttl":"{\"url\":\"https://evil.example/\",\"step\":\"4\",\"title\":\"x\"}",` +
		`"last:ttl":"/\\evil.example","done:ttl":"yes","cp:ttl:2":"1","cp:ttl:x":"1"}`
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/challenges#progress="+link(forged)))
	webtest.WaitLoaded(t, c)
	kept := func() map[string]string {
		return webtest.Run(t, c, chromedp.Evaluate[map[string]string](`(() => { const o = {}; for (let i = 0; i < localStorage.length; i++) { const k = localStorage.key(i); o[k] = localStorage.getItem(k); } return o; })()`))
	}
	got := kept()
	for _, k := range []string{"locklab:resume:en", "locklab:at:ttl", "locklab:last:ttl", "locklab:done:ttl", "locklab:cp:ttl:x"} {
		if v, ok := got[k]; ok {
			t.Errorf("the crafted link stored %s = %q", k, v)
		}
	}
	if got["locklab:cp:ttl:2"] != "1" {
		t.Errorf("a well-formed checkpoint answer was not kept: %v", got)
	}
	// a link whose every entry is refused does not say it restored
	// anything (security retest N5)
	onlyForged := `{"resume:en":"{\"slug\":\"ttl\",\"url\":\"//evil.example/phish\",\"lesson\":\"3\",\"step\":\"2\",\"title\":\"x\"}"}`
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/")) // not a fragment change of the same page: a new load
	webtest.WaitLoaded(t, c)
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/challenges#progress="+link(onlyForged)))
	webtest.WaitLoaded(t, c)
	if note := webtest.WaitJS(t, c, `(n => n && document.getElementById("copy-progress").getAttribute("data-ready") ? "shown:" + n.textContent : "")(document.getElementById("progress-note"))`); note == "shown:"+i18n.For("en").Chal.Restored {
		t.Errorf("a link whose every entry was refused says: %q", note)
	}
	// one stored before the check is not offered either
	webtest.Run(t, c, chromedp.Evaluate[bool](`localStorage.setItem("locklab:resume:en", JSON.stringify({slug: "ttl", url: "//evil.example/phish", lesson: "3", step: "2", title: "x"})), true`))
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/"))
	webtest.WaitLoaded(t, c)
	if href := webtest.Run(t, c, chromedp.Evaluate[string](`(e => e && !e.hidden ? e.querySelector("a").getAttribute("href") : "")(document.getElementById("resume"))`)); href != "" {
		t.Errorf("the home page's Continue goes to %q", href)
	}
	// a genuine one still works
	good := `{"resume:en":"{\"slug\":\"ttl\",\"url\":\"/en/lessons/ttl?do=a.acquire,a.crash&opt=ttl.off\",\"lesson\":\"3\",\"step\":\"2\",\"title\":\"No TTL\"}"}`
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/challenges#progress="+link(good)))
	webtest.WaitLoaded(t, c)
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/"))
	webtest.WaitLoaded(t, c)
	if href := webtest.WaitJS(t, c, `(e => e && !e.hidden ? e.querySelector("a").getAttribute("href") : "")(document.getElementById("resume"))`); href != "/en/lessons/ttl?do=a.acquire,a.crash&opt=ttl.off" {
		t.Errorf("a genuine progress link's Continue goes to %q", href)
	}
	// pasted into an open tab: only the fragment changes, no load (a
	// tester found it did nothing)
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/challenges"))
	webtest.WaitLoaded(t, c)
	webtest.Run(t, c, chromedp.Evaluate[bool](`localStorage.clear(), location.hash = "#progress=`+link(`{"cp:ttl:3":"1"}`)+`", true`))
	if got := webtest.WaitJS(t, c, `localStorage.getItem("locklab:cp:ttl:3") === "1" ? document.getElementById("progress-note").textContent : ""`); got != i18n.For("en").Chal.Restored {
		t.Errorf("a progress link pasted into an open tab: the note says %q", got)
	}
}

// TestBrowserResumeAcrossLanguages: progress is the learner's, not a
// language's (room trial m9: a step read in /ja/ was offered nowhere in
// /en/). The home page's Continue, the lesson list's link and a
// lesson's first step offer the step last read in another language, at
// its address in this page's language, without the other language's
// title.
func TestBrowserResumeAcrossLanguages(t *testing.T) {
	ctx := webtest.Browser(t)
	srv := httptest.NewServer(sitetest.Default(t))
	t.Cleanup(srv.Close)
	c := webtest.Tab(t, ctx)
	start := func(lang string) {
		webtest.Do(t, c, chromedp.Navigate(srv.URL+"/"+lang+"/"))
		webtest.WaitLoaded(t, c)
		first := webtest.Run(t, c, chromedp.Evaluate[string](`document.querySelector('li[data-slug="ttl"] a').getAttribute("href")`))
		webtest.Do(t, c, chromedp.Navigate(srv.URL+first))
		webtest.WaitLoaded(t, c)
	}
	start("ja")
	for range 2 { // to step 3, as a reader would
		next := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("next").getAttribute("href")`))
		webtest.Do(t, c, chromedp.Navigate(srv.URL+next))
		webtest.WaitLoaded(t, c)
	}
	jaURL := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("lab").getAttribute("data-url") || location.pathname + location.search`))
	want := "/en/" + strings.TrimPrefix(jaURL, "/ja/")
	if step := webtest.Run(t, c, chromedp.Evaluate[string](`document.getElementById("lab").getAttribute("data-step")`)); step != "3" || !strings.HasPrefix(jaURL, "/ja/lessons/ttl?") {
		t.Fatalf("step %s of ttl is at %q, want step 3", step, jaURL)
	}
	en := i18n.For("en")
	webtest.Do(t, c, chromedp.Navigate(srv.URL+"/en/"))
	webtest.WaitLoaded(t, c)
	got := webtest.WaitJS(t, c, `(e => e && !e.hidden ? e.querySelector("a").getAttribute("href") + " | " + e.textContent.trim() : "")(document.getElementById("resume"))`)
	if wantText := i18n.Fill(en.ResumeShort, "3", "3") + " →"; got != want+" | "+wantText {
		t.Errorf("the English home page's Continue: %q, want %q", got, want+" | "+wantText)
	}
	cont := webtest.Run(t, c, chromedp.Evaluate[string](`(a => a ? a.getAttribute("href") : "")(document.querySelector('li[data-slug="ttl"] .progress-mark.continue a'))`))
	if cont != want {
		t.Errorf("the English lesson list's continue link for ttl: %q, want %q", cont, want)
	}
	start("en")
	offer := webtest.WaitJS(t, c, `(e => e && !e.hidden ? e.querySelector("a").getAttribute("href") + " | " + e.textContent.trim() : "")(document.getElementById("resume-offer"))`)
	if wantText := i18n.Fill(en.ResumeOfferShort, "3"); offer != want+" | "+wantText {
		t.Errorf("the English first step's offer: %q, want %q", offer, want+" | "+wantText)
	}
}

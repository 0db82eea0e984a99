package class_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/explore"
	"locklab/web/class"
	"locklab/web/internal/webtest"
)

// challengeOf is a course challenge and the explorer's complete search of
// its own design: what the test holds the class's tally to.
func challengeOf(t *testing.T, id string) (*lessons.Challenge, *explore.Result) {
	t.Helper()
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	ch, ok := course.Challenge("en", id)
	if !ok {
		t.Fatalf("no challenge %s", id)
	}
	res, err := explore.Run(context.Background(), ch.Config(ch.Opts))
	if err != nil || !res.Complete() {
		t.Fatalf("%s: search %v complete=%v", id, err, res != nil && res.Complete())
	}
	return ch, res
}

// tally is the teacher bar's line about the posed challenge, as words.
func tally(t *testing.T, site, code string, teacher *http.Cookie) string {
	t.Helper()
	res, page := webtest.GetPage(t, site, "/en/class/"+code+"/teach", teacher)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("teacher page: %d", res.StatusCode)
	}
	m := regexp.MustCompile(`(?s)<div class="cb-chal" id="cb-chal">(.*?)<form`).FindStringSubmatch(page)
	if m == nil {
		return ""
	}
	return strings.Join(strings.Fields(html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(m[1], " "))), " ")
}

// TestClassChallenge: a teacher poses a challenge of each kind to a class
// of three phones; each plays it at the room's address and tells the
// class; the teacher's bar counts the solves, the best move count (the
// explorer's par for a par solution) and only the names typed; a state
// that does not reach the goal, a forged challenge and a stopped
// challenge are refused; Redis holds exactly what was told.
func TestClassChallenge(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	code, teacher := startClass(t, site.URL, "en", "", "")
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/move", url.Values{"do": {""}, "opt": {""}, "start": {"1"}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("start: %d", res.StatusCode)
	}
	students := []*http.Cookie{joinClass(t, site.URL, "en", code), joinClass(t, site.URL, "en", code), joinClass(t, site.URL, "en", code)}
	base := "/en/class/" + code

	// nothing posed: the room's address for a challenge says so, and
	// offers to go on with it alone (the moves kept)
	if res, page := webtest.GetPage(t, site.URL, base+"/challenge/fe-stale?do=a.acquire", students[0]); res.StatusCode != http.StatusNotFound ||
		!strings.Contains(page, "No challenge right now") || !strings.Contains(page, `href="/en/challenges/fe-stale?do=a.acquire"`) {
		t.Fatalf("no challenge posed: %d", res.StatusCode)
	}
	// only the teacher poses, and only a challenge that exists
	if res := webtest.Post(t, site.URL, base+"/pose", url.Values{"id": {"fe-stale"}}, students[0]); res.StatusCode < 400 || res.StatusCode >= 500 {
		t.Fatalf("a student posed a challenge: %d", res.StatusCode)
	}
	if res := webtest.Post(t, site.URL, base+"/pose", url.Values{"id": {"no-such"}}, teacher); res.StatusCode != http.StatusBadRequest {
		t.Fatalf("an unknown challenge posed: %d", res.StatusCode)
	}

	// break: two phones play the explorer's shortest schedule, one with a
	// name; the third sends a state short of the goal
	ch, res := challengeOf(t, "fe-stale")
	par := res.Found[ch.Goal].Shortest
	if res := webtest.Post(t, site.URL, base+"/pose", url.Values{"id": {ch.ID}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("pose: %d", res.StatusCode)
	}
	if _, page := webtest.GetPage(t, site.URL, base, students[2]); !strings.Contains(page, `id="play-challenge" href="`+base+`/challenge/`+ch.ID+`"`) {
		t.Fatal("a phone does not offer the posed challenge")
	}
	do := sim.FormatActions(par)
	at := "?do=" + do + "&opt=" + ch.Opt // the page's canonical address holds the design
	r, page := webtest.GetPage(t, site.URL, base+"/challenge/"+ch.ID+at, students[0])
	if r.StatusCode != http.StatusOK || !strings.Contains(page, `action="`+base+`/tell"`) || !strings.Contains(page, `data-solved="`+strconv.Itoa(len(par))+`"`) {
		t.Fatalf("the par solution played in class: %d %s, no form to tell the class", r.StatusCode, r.Header.Get("Location"))
	}
	if strings.Contains(page, `id="next-challenge"`) {
		t.Error("a challenge played in class offers the next one (the teacher's to pose)")
	}
	if !strings.Contains(page, `href="`+base+`/challenge/`+ch.ID+`?do=`) {
		t.Error("the moves of a challenge played in class leave the class's address")
	}
	for i, name := range []string{"Aiko", ""} {
		r := webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {ch.ID}, "do": {do}, "name": {name}}, students[i])
		if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), base+"/challenge/"+ch.ID+"?do=") {
			t.Fatalf("tell %d: %d %s", i, r.StatusCode, r.Header.Get("Location"))
		}
	}
	if _, page := webtest.GetPage(t, site.URL, base+"/challenge/"+ch.ID+at, students[0]); !strings.Contains(page, "Your class has your result: solved in "+strconv.Itoa(len(par))+" moves.") {
		t.Error("the phone does not say what the class has of its result")
	}
	short := sim.FormatActions(par[:len(par)-1])
	if r := webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {ch.ID}, "do": {short}, "name": {"Cheat"}}, students[2]); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a state short of the goal told the class: %d", r.StatusCode)
	}
	if r := webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {"fe-del"}, "do": {do}}, students[2]); r.StatusCode != http.StatusConflict {
		t.Errorf("a result for another challenge than the one posed: %d", r.StatusCode)
	}
	if r := webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {ch.ID}, "do": {do}, "name": {strings.Repeat("x", class.NameMax+1)}}, students[2]); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a name over %d characters: %d", class.NameMax, r.StatusCode)
	}
	want := "Solved: 2 (here now: 3) · best: " + strconv.Itoa(len(par)) + " moves · Par: " + strconv.Itoa(len(par))
	if got := tally(t, site.URL, code, teacher); !strings.Contains(got, want) || !strings.Contains(got, "Aiko: solved in "+strconv.Itoa(len(par))+" moves") || strings.Contains(got, "Cheat") {
		t.Errorf("teacher's tally %q, want %q and Aiko's name only", got, want)
	}
	kept, _ := rdb.HGetAll(context.Background(), "lockclass:"+code+":chal").Result()
	names, _ := rdb.HGetAll(context.Background(), "lockclass:"+code+":chalnames").Result()
	if len(kept) != 2 || len(names) != 1 {
		t.Errorf("Redis keeps %v and names %v, want two results and one name", kept, names)
	}

	// predict: a new challenge starts a new count; a wrong answer counts
	// as wrong until the same phone answers right
	pch, pres := challengeOf(t, "fe-two-pauses")
	if res := webtest.Post(t, site.URL, base+"/pose", url.Values{"id": {pch.ID}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("pose predict: %d", res.StatusCode)
	}
	right, wrong := "no", "yes"
	if pres.Found[pch.Goal] != nil {
		right, wrong = wrong, right
	}
	if r := webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {pch.ID}, "answer": {wrong}, "name": {"Ben"}}, students[1]); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("tell a wrong prediction: %d", r.StatusCode)
	}
	if got := tally(t, site.URL, code, teacher); !strings.Contains(got, "Solved: 0 (here now: 3) · 1 predicted wrong") || !strings.Contains(got, "Ben: predicted wrong") {
		t.Errorf("after a wrong prediction the tally is %q", got)
	}
	// a prediction counts once: the answer, once seen, cannot be told
	// again right; the other phone's right answer counts
	webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {pch.ID}, "answer": {right}, "name": {"Ben"}}, students[1])
	webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {pch.ID}, "answer": {right}, "name": {"Cy"}}, students[2])
	if got := tally(t, site.URL, code, teacher); !strings.Contains(got, "Solved: 1 (here now: 3) · 1 predicted wrong") ||
		!strings.Contains(got, "Ben: predicted wrong") || !strings.Contains(got, "Cy: predicted right") {
		t.Errorf("after Ben answered again and Cy answered right the tally is %q", got)
	}
	if _, page := webtest.GetPage(t, site.URL, base+"/challenge/"+pch.ID+"?answer="+right, students[1]); strings.Contains(page, `action="`+base+`/tell"`) {
		t.Error("a phone whose prediction was told is offered to tell another")
	}
	// a result sent without a name takes the name back
	webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {pch.ID}, "answer": {right}}, students[2])
	if got := tally(t, site.URL, code, teacher); strings.Contains(got, "Cy") || !strings.Contains(got, "Solved: 1 (here now: 3)") {
		t.Errorf("after Cy's phone sent no name the tally is %q", got)
	}

	// fix: the design the lesson teaches, checked by the explorer here too
	fch, _ := challengeOf(t, "fe-fix")
	fixed, err := explore.Run(context.Background(), fch.Config(sim.Opts{}))
	if err != nil || !fixed.Complete() {
		t.Fatal("the default design's search did not complete")
	}
	harm := false
	for k, f := range fixed.Found {
		harm = harm || (f != nil && sim.ClassOf(k) != sim.ClassAllowed)
	}
	if res := webtest.Post(t, site.URL, base+"/pose", url.Values{"id": {fch.ID}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("pose fix: %d", res.StatusCode)
	}
	r = webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {fch.ID}, "opt": {""}}, students[2])
	if harm != (r.StatusCode == http.StatusBadRequest) {
		t.Errorf("the default design (explorer found harm: %v) told as a fix: %d", harm, r.StatusCode)
	}
	if r := webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {fch.ID}, "opt": {fch.Opt}}, students[0]); r.StatusCode != http.StatusBadRequest {
		t.Errorf("the broken design itself told as a fix: %d", r.StatusCode)
	}

	// stopped: the phones' address for it says so, and nothing more is kept
	if res := webtest.Post(t, site.URL, base+"/pose", url.Values{"stop": {"1"}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("stop: %d", res.StatusCode)
	}
	if res, page := webtest.GetPage(t, site.URL, base+"/challenge/"+fch.ID+"?opt=", students[0]); res.StatusCode != http.StatusNotFound ||
		!strings.Contains(page, `href="/en/challenges/`+fch.ID+`?opt="`) {
		t.Errorf("a stopped challenge: %d, without a way to go on alone", res.StatusCode)
	}
	if n, _ := rdb.Exists(context.Background(), "lockclass:"+code+":chal", "lockclass:"+code+":chalnames").Result(); n != 0 {
		t.Errorf("a stopped challenge left %d keys", n)
	}
}

// TestClassDesignFix: a fix of a design page's lock posed to a class: a
// phone plays it at the room's address, its fixed scripts tell the class
// (judged again from the form's fields), and the broken start does not.
func TestClassDesignFix(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	code, teacher := startClass(t, site.URL, "en", "", "")
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/move", url.Values{"do": {""}, "opt": {""}, "start": {"1"}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("start: %d", res.StatusCode)
	}
	student := joinClass(t, site.URL, "en", code)
	base := "/en/class/" + code
	if res := webtest.Post(t, site.URL, base+"/pose", url.Values{"id": {"sr-lua"}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("pose: %d", res.StatusCode)
	}
	fixed := "if redis.call('GET', KEYS[1]) == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0"
	r, page := webtest.GetPage(t, site.URL, base+"/challenge/sr-lua?release="+url.QueryEscape(fixed), student)
	if r.StatusCode == http.StatusSeeOther {
		r, page = webtest.GetPage(t, site.URL, r.Header.Get("Location"), student)
	}
	if r.StatusCode != http.StatusOK || !strings.Contains(page, `data-solved="1"`) || !strings.Contains(page, `action="`+base+`/tell"`) {
		t.Fatalf("the fixed design played in class: %d, not solved or no form to tell the class", r.StatusCode)
	}
	if res := webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {"sr-lua"}, "release": {"del"}}, student); res.StatusCode != http.StatusBadRequest {
		t.Errorf("the broken start told the class: %d, want 400", res.StatusCode)
	}
	if res := webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {"sr-lua"}, "release": {fixed}, "name": {"Aiko"}}, student); res.StatusCode != http.StatusSeeOther {
		t.Errorf("the fix told the class: %d, want 303", res.StatusCode)
	}
	if bar := tally(t, site.URL, code, teacher); !strings.Contains(bar, "Aiko") {
		t.Errorf("the teacher's bar does not show the fix told: %q", bar)
	}
}

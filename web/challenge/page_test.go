package challenge_test

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
	"locklab/sim/lockdesign"
	"locklab/web"
	"locklab/web/class"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/links"
	"locklab/web/site"
	"time"
)

// TestMain fails the package if a goroutine outlives the tests.
func TestMain(m *testing.M) { webtest.Main(m) }

var course = func() *lessons.Catalog {
	c, err := lessons.Load()
	if err != nil {
		panic(err)
	}
	return c
}()

// get follows the canonical redirect (one) and returns the page.
func get(t *testing.T, h http.Handler, path string) webtest.Response {
	t.Helper()
	r := webtest.Get(t, h, path)
	if r.Status == http.StatusSeeOther {
		r = webtest.Get(t, h, r.Header.Get("Location"))
	}
	return r
}

// text is a page's visible words, tags dropped and entities read.
func text(body string) string {
	body = regexp.MustCompile(`(?s)<(script|style|dialog)\b.*?</(script|style|dialog)>`).ReplaceAllString(body, " ")
	return strings.Join(strings.Fields(html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(body, " "))), " ")
}

// TestChallengePages: every list and every challenge answers in every
// language, each at its start, with its title and goal.
func TestChallengePages(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		list := webtest.MustGet(t, h, "/"+lang+"/challenges")
		for _, ch := range course.Challenges(lang) {
			if !strings.Contains(list, `href="/`+lang+`/challenges/`+ch.ID+`"`) {
				t.Errorf("%s list does not link %s", lang, ch.ID)
			}
			r := get(t, h, "/"+lang+"/challenges/"+ch.ID)
			if r.Status != http.StatusOK {
				t.Errorf("%s %s: %d", lang, ch.ID, r.Status)
				continue
			}
			words := text(r.Body)
			if !strings.Contains(words, ch.Title) || !strings.Contains(words, u.Chal.Goal) {
				t.Errorf("%s %s: no title or goal on the page", lang, ch.ID)
			}
		}
		for _, l := range course.List(lang) {
			page := webtest.MustGet(t, h, "/"+lang+"/lessons/"+l.Slug+"/challenges")
			if n := strings.Count(page, `<li data-challenge=`); n != len(course.ChallengesOf(l)) || n < 3 {
				t.Errorf("%s %s: %d challenges listed", lang, l.Slug, n)
			}
			last := l.Steps[len(l.Steps)-1]
			end := get(t, h, "/"+lang+"/lessons/"+l.Slug+queryOf(last.Do, last.Opt))
			if href, ok := webtest.HrefOf(end.Body, "to-challenges"); !ok || href != "/"+lang+"/lessons/"+l.Slug+"/challenges" {
				t.Errorf("%s %s: the last step does not lead to the lesson's challenges (%q)", lang, l.Slug, href)
			}
		}
		if href, ok := webtest.HrefOf(webtest.MustGet(t, h, "/"+lang+"/end"), "to-challenges"); !ok || href != "/"+lang+"/challenges" {
			t.Errorf("%s: the end page does not lead to the challenges", lang)
		}
	}
}

func queryOf(do, opt string) string {
	var parts []string
	if do != "" {
		parts = append(parts, "do="+do)
	}
	if opt != "" {
		parts = append(parts, "opt="+opt)
	}
	if len(parts) == 0 {
		return ""
	}
	return "?" + strings.Join(parts, "&")
}

// search is the explorer's own complete search of ch's bounds on its
// design: what the pages must agree with.
func search(t *testing.T, ch *lessons.Challenge, opts sim.Opts) *explore.Result {
	t.Helper()
	res, err := explore.Run(context.Background(), ch.Config(opts))
	if err != nil || !res.Complete() {
		t.Fatalf("%s: %v (complete %v)", ch.ID, err, res != nil && res.Complete())
	}
	return res
}

// TestBreakChallenge plays the flagship break challenge: before the goal
// the page says not yet; the explorer's shortest schedule solves it at
// par; a longer way solves it over par; a move the bounds leave out is
// refused with its reason, in the page's language, with a way back.
func TestBreakChallenge(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		ch, _ := course.Challenge(lang, "fe-stale")
		best := search(t, ch, ch.Opts).Found[ch.Goal].Shortest
		par := len(best)
		base := "/" + lang + "/challenges/" + ch.ID

		// before a move: the page and its card say what to do and the
		// par, not what an empty timeline shows
		r := get(t, h, base+"?opt="+ch.Opt)
		begin := i18n.Fill(u.Chal.Begin, strconv.Itoa(par))
		desc := regexp.MustCompile(`<meta property="og:description" content="([^"]*)"`).FindStringSubmatch(r.Body)
		if !strings.Contains(text(r.Body), begin) || len(desc) < 2 || !strings.Contains(html.UnescapeString(desc[1]), begin) ||
			strings.Contains(html.UnescapeString(desc[1]), u.A11y.NoChange) {
			t.Errorf("%s: before a move, the page or its card does not say %q (card: %q)", lang, begin, desc)
		}
		if !strings.Contains(text(r.Body), u.Failures[ch.Goal].Meaning) {
			t.Errorf("%s: the page names its goal without saying what it means", lang)
		}
		// the Lab prints the par solution: no link to it before solving
		if _, ok := webtest.HrefOf(r.Body, "what-else"); ok || strings.Contains(r.Body, "/lab/design?") {
			t.Errorf("%s: an unsolved challenge links the Lab or the design page, which print its par solution", lang)
		}
		r = get(t, h, base+"?do=a.acquire")
		if !strings.Contains(r.Body, `data-solved="0"`) || !strings.Contains(text(r.Body), i18n.Fill(u.Chal.NotYet, u.Failures[ch.Goal].Name)) {
			t.Errorf("%s: one move in, the page does not say not yet", lang)
		}
		// without JavaScript a move's page opens at the controls, whose
		// first line is the score (a phone keeps its thumb on the moves)
		write := base + links.Query("a.acquire,a.write", ch.Opt)
		if href, _ := webtest.HrefOf(r.Body, "do-a-write"); href != write+"#moves" || !strings.Contains(r.Body, `hx-get="`+html.EscapeString(write)+`"`) {
			t.Errorf("%s: a move's link is %q: want its plain link to open at #moves, its htmx request without", lang, href)
		}
		if at := between(r.Body, `class="chal-at-moves"`, "</p>"); !strings.Contains(text(at), i18n.Fill(u.Chal.Moves, "1")) || !strings.Contains(text(at), i18n.Fill(u.Chal.Par, strconv.Itoa(par))) {
			t.Errorf("%s: the controls' score reads %q", lang, text(at))
		}
		r = get(t, h, base+"?do="+sim.FormatActions(best))
		if at := between(r.Body, `class="chal-at-moves solved"`, "</p>"); !strings.Contains(text(at), "✓ "+i18n.Fill(u.Chal.SolvedPar, strconv.Itoa(par), u.Failures[ch.Goal].Name)) || !strings.Contains(at, `href="#why"`) || !strings.Contains(r.Body, `<h2 id="why">`) {
			t.Errorf("%s: solved, the controls' score reads %q", lang, text(at))
		}
		if _, ok := webtest.HrefOf(r.Body, "what-else"); !ok {
			t.Errorf("%s: solved, the challenge does not offer the Lab", lang)
		}
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-solved="`+strconv.Itoa(par)+`"`) ||
			!strings.Contains(text(r.Body), i18n.Fill(u.Chal.SolvedPar, strconv.Itoa(par), u.Failures[ch.Goal].Name)) || !strings.Contains(text(r.Body), ch.Why) {
			t.Errorf("%s: the par solution %s does not show solved at par %d", lang, sim.FormatActions(best), par)
		}
		if href, ok := webtest.HrefOf(r.Body, "par"); !ok || !strings.Contains(href, "do="+sim.FormatActions(best)) {
			t.Errorf("%s: the par link is %q", lang, href)
		}
		// the flagship's own way, with one more move (B acquires before A pauses, both ways): over par?
		longer := "a.acquire,b.acquire,a.pause,wait.10s,b.write,b.release,a.resume,a.write"
		r = get(t, h, base+"?do="+longer)
		tl := replay(t, ch, longer)
		first := -1
		for _, v := range tl.Violations {
			if v.Kind == ch.Goal {
				first = v.Step + 1
				break
			}
		}
		if first <= par {
			t.Fatalf("%s: the longer way shows the goal at move %d", lang, first)
		}
		if !strings.Contains(text(r.Body), i18n.Fill(u.Chal.Solved, strconv.Itoa(first), strconv.Itoa(par), u.Failures[ch.Goal].Name)) {
			t.Errorf("%s: %s does not say solved in %d, par %d", lang, longer, first, par)
		}
		// refused: a second pause; a wait with no one paused
		for _, c := range []struct{ do, keep string }{
			{"a.acquire,a.pause,wait.10s,a.resume,b.acquire,b.pause", "a.acquire,a.pause,wait.10s,a.resume,b.acquire"},
			{"a.acquire,wait.10s", "a.acquire"},
		} {
			r = webtest.Get(t, h, base+"?do="+c.do+"&opt="+ch.Opt)
			if r.Status != http.StatusBadRequest || !strings.Contains(text(r.Body), u.Chal.Refused) {
				t.Errorf("%s %s: %d, want a 400 saying the move is refused", lang, c.do, r.Status)
			}
			if href, ok := webtest.HrefOf(r.Body, "recover"); ok && href != base+"?do="+c.keep+"&opt="+ch.Opt {
				t.Errorf("%s %s: the way back is %q", lang, c.do, href)
			}
			if !strings.Contains(r.Body, html.EscapeString(base+"?do="+c.keep+"&opt="+ch.Opt)) {
				t.Errorf("%s %s: no way back to the last allowed move", lang, c.do)
			}
			if strings.Contains(text(r.Body), u.Chal.Start) {
				t.Errorf("%s %s: a refused move after a move offers %q", lang, c.do, u.Chal.Start)
			}
		}
		// refused at the first move: there is no move to go back to
		r = webtest.Get(t, h, base+"?do=wait.10s&opt="+ch.Opt)
		if r.Status != http.StatusBadRequest || !strings.Contains(text(r.Body), u.Chal.Start) || strings.Contains(text(r.Body), u.Chal.BackLast) {
			t.Errorf("%s: a refused first move: %d, want a 400 offering %q, not %q", lang, r.Status, u.Chal.Start, u.Chal.BackLast)
		}
	}
}

func replay(t *testing.T, ch *lessons.Challenge, do string) *sim.Timeline {
	t.Helper()
	actions, err := sim.ParseActions(do)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := sim.Replay(ch.Lesson.Scenario, ch.Opts, actions)
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// TestFixChallenge: the broken design is not fixed and the page names
// what the explorer found; a design that passes the complete search is
// fixed, with the search's own figures; one that still fails is not.
func TestFixChallenge(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		ch, _ := course.Challenge(lang, "fe-fix")
		base := "/" + lang + "/challenges/" + ch.ID
		r := get(t, h, base)
		if !strings.Contains(r.Body, `data-solved="0"`) || !strings.Contains(text(r.Body), u.Failures[sim.StaleWrite].Name) {
			t.Errorf("%s: the broken design's page does not name the stale write", lang)
		}
		good, _ := ch.Lesson.Scenario.ParseOptions("")
		res := search(t, ch, good)
		r = get(t, h, base+"?opt-release=lua&opt-fence=on&opt-check=none")
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-solved="1"`) ||
			!strings.Contains(text(r.Body), i18n.Fill(u.Chal.FixSolved, u.Count(res.States), strconv.Itoa(res.Depth))) {
			t.Errorf("%s: the fixed design is not shown fixed with the search's figures", lang)
		}
		r = get(t, h, base+"?opt-release=lua&opt-fence=off&opt-check=none")
		if !strings.Contains(r.Body, `data-solved="0"`) || !strings.Contains(text(r.Body), u.Failures[sim.StaleWrite].Name) {
			t.Errorf("%s: half a fix is shown fixed", lang)
		}
	}
}

// TestDesignFixChallenge: a fix of a design page's lock shows its Lua in
// the form, the design's failures with design runs that show them, and
// "fixed" only for a design the explorer passes, judged by the address
// the form sends (the scripts as typed); the design page's default
// design, whose query is empty, has an address of its own; a script the
// checker refuses, or a parameter that is no design's, is a 400 in the
// page's language.
func TestDesignFixChallenge(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		base := "/" + lang + "/challenges/sr-lua"
		r := get(t, h, base)
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-solved="0"`) || !strings.Contains(r.Body, `<textarea id="script-release" name="release"`) ||
			!strings.Contains(text(r.Body), u.Failures[sim.ForeignDelete].Name) || !strings.Contains(r.Body, "/"+lang+"/lab/design/run?release=del") {
			t.Errorf("%s: the broken release's page: %d, its form, its failure and its design run", lang, r.Status)
		}
		if !strings.Contains(text(r.Body), u.Design.ThenHelp) {
			t.Errorf("%s: the page does not say what a script may use before it refuses one", lang)
		}
		own := "if redis.call('GET', KEYS[1]) == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0"
		r = get(t, h, base+"?release="+url.QueryEscape(own))
		if r.Status != http.StatusOK || !strings.Contains(r.Body, `data-solved="1"`) {
			t.Errorf("%s: a compare-and-delete typed by hand is not fixed: %d", lang, r.Status)
		}
		if r := webtest.Get(t, h, base+"?release=compare-delete"); r.Status != http.StatusSeeOther || r.Header.Get("Location") != base+"?ttl=10s" {
			t.Errorf("%s: the default design goes to %q, want %s?ttl=10s", lang, r.Header.Get("Location"), base)
		}
		if r := get(t, h, base+"?ttl=10s"); !strings.Contains(r.Body, `data-solved="1"`) {
			t.Errorf("%s: the default design is not fixed", lang)
		}
		if r := get(t, h, base+"?release=exists-del"); r.Status != http.StatusBadRequest {
			t.Errorf("%s: an unknown preset: %d, want 400", lang, r.Status)
		}
		if r := webtest.Get(t, h, base+"?release=del&release=del"); r.Status != http.StatusBadRequest || !strings.Contains(text(r.Body), i18n.Fill(u.Design.Repeated, "release")) {
			t.Errorf("%s: a piece sent twice: %d, want a 400 that says so", lang, r.Status)
		}
		if r := webtest.Get(t, h, base+"?opt=release.lua"); r.Status != http.StatusBadRequest {
			t.Errorf("%s: a lesson's opt on a design's fix: %d, want 400", lang, r.Status)
		}
		r = get(t, h, base+"?release="+url.QueryEscape("while true do end"))
		if r.Status != http.StatusBadRequest || !strings.Contains(text(r.Body), u.Design.PieceName["release"]) {
			t.Errorf("%s: a script the checker refuses: %d, naming the piece", lang, r.Status)
		}
		// the form kept is the challenge's: its button, back to its
		// verdict, and none of the design page's times (two readers met
		// a TTL and a work menu the challenge does not have)
		if !strings.Contains(r.Body, `action="`+base+`#verdict"`) || !strings.Contains(r.Body, ">"+html.EscapeString(u.Chal.FixCheck)+"</button>") ||
			strings.Contains(r.Body, `id="design-ttl"`) || strings.Contains(r.Body, `id="design-effect"`) || !strings.Contains(r.Body, `<input type="hidden" name="ttl" value="10s">`) ||
			!strings.Contains(text(r.Body), u.Design.KeptCheck) {
			t.Errorf("%s: the refused script's page keeps the design page's form, not the challenge's", lang)
		}
	}
}

// TestPredictChallenge: the answer is the explorer's — a schedule that
// shows the goal, opened as a lesson timeline that does show it, or a
// complete search that found none, with its figures.
func TestPredictChallenge(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		yes, _ := course.Challenge(lang, "fe-check")
		// its design is fixed: an opt= goes to its address (the answer
		// kept), and its card asks the question, with no picture (an empty
		// timeline says nothing has gone wrong: a hint)
		base := "/" + lang + "/challenges/" + yes.ID
		if r := webtest.Get(t, h, base+"?opt="+yes.Opt+"&answer=yes"); r.Status != http.StatusSeeOther || r.Header.Get("Location") != base+"?answer=yes" {
			t.Errorf("%s: opt= on a prediction: %d to %q", lang, r.Status, r.Header.Get("Location"))
		}
		card := get(t, h, base)
		if d := webtest.OG(card.Body, "description"); !strings.Contains(d, u.Failures[yes.Goal].Name) || webtest.OG(card.Body, "image") != "" {
			t.Errorf("%s: the prediction's card: %q, image %q", lang, d, webtest.OG(card.Body, "image"))
		}
		r := get(t, h, base+"?answer=yes")
		if !strings.Contains(r.Body, `data-solved="right"`) || !strings.Contains(text(r.Body), u.Chal.Right) {
			t.Errorf("%s: yes for %s is not right", lang, yes.ID)
		}
		href, ok := webtest.HrefOf(r.Body, "open-schedule")
		if !ok {
			t.Fatalf("%s: no schedule to open", lang)
		}
		if tl := get(t, h, href); tl.Status != http.StatusOK || !strings.Contains(text(tl.Body), u.Failures[yes.Goal].Name) {
			t.Errorf("%s: the schedule %s does not show %s", lang, href, yes.Goal)
		}
		no, _ := course.Challenge(lang, "fe-two-pauses")
		res := search(t, no, no.Opts)
		r = get(t, h, "/"+lang+"/challenges/"+no.ID+"?answer=yes")
		if !strings.Contains(r.Body, `data-solved="wrong"`) || !strings.Contains(text(r.Body), i18n.Fill(u.Chal.AnswerNo, u.Count(res.States), strconv.Itoa(res.Depth), u.Failures[no.Goal].Name)) {
			t.Errorf("%s: yes for %s is not answered no with the search's figures", lang, no.ID)
		}
	}
}

// TestChallengeBadInput: nonsense gets a clear 4xx in the page's
// language, never a 500.
func TestChallengeBadInput(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		for path, want := range map[string]int{
			"/challenges/nope":                              http.StatusNotFound,
			"/challenges/fe-stale?do=a.fly":                 http.StatusBadRequest,
			"/challenges/fe-stale?do=a.acquire&x=1":         http.StatusBadRequest,
			"/challenges/fe-check?answer=maybe":             http.StatusBadRequest,
			"/challenges/fe-check?answer=yes&answer=no":     http.StatusBadRequest,
			"/challenges/fe-fix?opt-fence=bogus":            http.StatusBadRequest,
			"/challenges/fe-fix?opt=fence.on&opt=fence.off": http.StatusBadRequest,
			"/lessons/nope/challenges":                      http.StatusNotFound,
		} {
			r := webtest.Get(t, h, "/"+lang+path)
			if r.Status != want {
				t.Errorf("%s%s: %d, want %d", lang, path, r.Status, want)
			}
			if !strings.Contains(r.Body, `lang="`+u.Language().HTMLLang+`"`) {
				t.Errorf("%s%s: not a page in its language", lang, path)
			}
		}
		// a parameter that has its place, twice: the reason says so
		r := webtest.Get(t, h, "/"+lang+"/challenges/fe-stale?do=a.acquire&do=b.acquire&opt=fence.off")
		if want := i18n.Fill(u.Chal.Repeated, "do"); r.Status != http.StatusBadRequest || !strings.Contains(html.UnescapeString(r.Body), want) {
			t.Errorf("%s: do= twice: %d, want a 400 saying %q", lang, r.Status, want)
		}
		if m := regexp.MustCompile(`class="button primary" href="([^"]*)"`).FindStringSubmatch(r.Body); m == nil || html.UnescapeString(m[1]) != "/"+lang+"/challenges/fe-stale?do=a.acquire,b.acquire&opt=fence.off" {
			t.Errorf("%s: do= twice: the way back is %v, not the moves in one do=", lang, m)
		}
	}
}

// TestChallengesKeepNothing: solving a dozen challenges of every kind
// sets no cookie and writes nothing to the site's Redis; the same
// address on a fresh server gives the same page (the state is the URL).
func TestChallengesKeepNothing(t *testing.T) {
	rdb, mr := webtest.MiniRDB(t)
	room, err := class.NewClassroom(context.Background(), rdb, class.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(room.Close)
	cfg := web.Config{Config: site.Config{Version: "test", LabDeadline: 30 * time.Second}, Class: room}
	h := sitetest.Handler(t, cfg)
	before := mr.Keys()
	var pages []string
	n := 0
	for _, ch := range course.Challenges("en") {
		if n == 12 {
			break
		}
		var path string
		switch ch.Type {
		case lessons.Break:
			path = "/en/challenges/" + ch.ID + "?do=" + sim.FormatActions(search(t, ch, ch.Opts).Found[ch.Goal].Shortest)
			if ch.Opt != "" {
				path += "&opt=" + ch.Opt
			}
		case lessons.Predict:
			path = "/en/challenges/" + ch.ID + "?answer=no"
		default:
			continue
		}
		n++
		r := webtest.Get(t, h, path)
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d", path, r.Status)
		}
		if c := r.Header.Values("Set-Cookie"); len(c) > 0 {
			t.Errorf("%s sets a cookie: %v", path, c)
		}
		pages = append(pages, path)
	}
	if after := mr.Keys(); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Errorf("solving challenges wrote to Redis: %v → %v", before, after)
	}
	fresh := sitetest.Handler(t, cfg)
	for _, p := range pages {
		if a, b := webtest.Get(t, h, p).Body, webtest.Get(t, fresh, p).Body; a != b {
			t.Errorf("%s differs on a fresh server", p)
		}
	}
}

// TestMadeChallenge makes a challenge from a lesson timeline and from a
// Lab counterexample: the link is the whole challenge (lesson, goal,
// bounds, design), the bounds are those the timeline's own moves fit in,
// par is the explorer's (never more than the timeline's own moves), and
// playing par solves it. A timeline whose way to the goal is no move of
// the explorer's (a typed command) makes a challenge that says so, with
// a 4xx.
func TestMadeChallenge(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		flagship := "a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write"
		page := webtest.MustGet(t, h, "/"+lang+"/lessons/fencing?do="+flagship+"&opt=fence.off")
		if !strings.Contains(page, `class="make-challenge"`) || !strings.Contains(page, `value="stale-write"`) {
			t.Fatalf("%s: the flagship step offers no challenge with its stale write", lang)
		}
		r := webtest.Get(t, h, "/"+lang+"/challenges/make?lesson=fencing&do="+flagship+"&opt=fence.off&goal=stale-write")
		want := "/" + lang + "/challenges/c/fencing/stale-write/c2-p1.10s?opt=fence.off"
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != want {
			t.Fatalf("%s: make → %d %s, want %s", lang, r.Status, r.Header.Get("Location"), want)
		}
		start := get(t, h, want)
		if start.Status != http.StatusOK || !strings.Contains(text(start.Body), i18n.Fill(u.Chal.Par, "7")) {
			t.Errorf("%s: the made challenge does not open with par 7 (%d)", lang, start.Status)
		}
		solved := get(t, h, "/"+lang+"/challenges/c/fencing/stale-write/c2-p1.10s?do=a.acquire,b.acquire,a.pause,wait.10s,b.write,a.resume,a.write&opt=fence.off")
		if !strings.Contains(solved.Body, `data-solved="7"`) {
			t.Errorf("%s: par does not solve the made challenge", lang)
		}
		// a typed command is no move of the explorer's
		r = get(t, h, "/"+lang+"/challenges/make?lesson=fencing&do=a.acquire,cli.redis.DEL%20lock:order:42&goal=foreign-delete")
		if r.Status != http.StatusBadRequest || !strings.Contains(text(r.Body), i18n.Fill(u.Chal.MadeNone, u.Failures[sim.ForeignDelete].Name)) {
			t.Errorf("%s: a challenge made from a typed DEL: %d, want a 400 that says why", lang, r.Status)
		}
		// from a Lab counterexample
		lab := webtest.MustGet(t, h, "/"+lang+"/lab?lesson=fencing&opt=release.del")
		open, ok := webtest.HrefOf(lab, "open-shortest")
		if !ok {
			t.Fatalf("%s: the Lab offers no counterexample", lang)
		}
		counter := get(t, h, open)
		m := regexp.MustCompile(`name="goal" value="([a-z-]+)" checked`).FindStringSubmatch(counter.Body)
		if m == nil {
			t.Fatalf("%s: the counterexample offers no challenge", lang)
		}
		do := regexp.MustCompile(`name="do" value="([^"]+)"`).FindStringSubmatch(counter.Body[strings.Index(counter.Body, `class="make-challenge"`):])
		r = webtest.Get(t, h, "/"+lang+"/challenges/make?lesson=fencing&do="+html.UnescapeString(do[1])+"&opt=release.del&goal="+m[1])
		made := get(t, h, r.Header.Get("Location"))
		par := regexp.MustCompile(`data-par="(\d+)"`).FindStringSubmatch(made.Body)
		if made.Status != http.StatusOK || par == nil {
			t.Fatalf("%s: the counterexample's challenge: %d", lang, made.Status)
		}
		if n, _ := strconv.Atoi(par[1]); n > strings.Count(do[1], ",")+1 {
			t.Errorf("%s: par %d is longer than the counterexample (%s)", lang, n, do[1])
		}
	}
	// bounds read back only in their one written form
	for _, s := range []string{"c2", "c2-p1.10s", "c3-p2.1s-x1-n1-d1"} {
		if b, err := lessons.ParseBounds(s); err != nil || b.String() != s {
			t.Errorf("bounds %s: %v, %v", s, b, err)
		}
	}
	for _, s := range []string{"", "c", "p1.10s", "c2-p1", "c2-x0", "c2-d1-x1", "c02"} {
		if _, err := lessons.ParseBounds(s); err == nil {
			t.Errorf("bounds %q read", s)
		}
	}
}

// TestBreakLinksWithin: a break page offers only moves the challenge
// allows — every move link on it answers 200, not a refusal — and, at
// each step of every challenge's par solution, it offers the next move.
func TestBreakLinksWithin(t *testing.T) {
	h := sitetest.Default(t)
	moveLink := regexp.MustCompile(`<a [^>]*href="(/en/challenges/[a-z0-9-]+\?do=[^"#]*)(?:#moves)?"`)
	for _, ch := range course.Challenges("en") {
		if ch.Type != lessons.Break {
			continue
		}
		best := search(t, ch, ch.Opts).Found[ch.Goal].Shortest
		base := "/en/challenges/" + ch.ID
		for i := 0; i < len(best); i++ {
			at := base + "?do=" + sim.FormatActions(best[:i])
			if i == 0 {
				at = base
			}
			page := get(t, h, at)
			next := html.EscapeString(base + links.Query(sim.FormatActions(best[:i+1]), ch.Opt))
			if !strings.Contains(page.Body, `href="`+next+`#moves"`) {
				t.Errorf("%s after %d moves: no link to the par solution's next move %s", ch.ID, i, best[i])
			}
			if i > 1 {
				continue // every link is followed on the first two pages of each
			}
			for _, m := range moveLink.FindAllStringSubmatch(page.Body, -1) {
				link := html.UnescapeString(m[1])
				if r := webtest.Get(t, h, link); r.Status == http.StatusBadRequest {
					t.Errorf("%s offers %s, which it refuses", ch.ID, link)
				}
			}
		}
	}
}

// TestDesignChallenge: a design run's "Make this a challenge" gives a
// link that is the whole challenge (the design's scripts in its address),
// which opens for anyone with the explorer's par: the run's own moves
// solve it, the par link solves it at par, and par is what a search of
// that design finds; a token that is not a design is a 400.
func TestDesignChallenge(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		run := "/" + lang + "/lab/design/run?release=del&clients=3&do=a.acquire,b.acquire,c.acquire,b.pause,wait.10s,a.release,b.resume"
		page := webtest.MustGet(t, h, run)
		box := page[max(strings.Index(page, `class="make-challenge"`), 0):]
		field := func(name string) string {
			m := regexp.MustCompile(`name="` + name + `" value="([^"]*)"`).FindStringSubmatch(box)
			if m == nil {
				t.Fatalf("%s: the design run's make form has no %s", lang, name)
			}
			return html.UnescapeString(m[1])
		}
		q := url.Values{"lesson": {field("lesson")}, "do": {field("do")}, "design": {field("design")}, "clients": {field("clients")}, "goal": {"foreign-delete"}}
		r := webtest.Get(t, h, "/"+lang+"/challenges/make?"+q.Encode())
		loc := r.Header.Get("Location")
		if r.Status != http.StatusSeeOther || !strings.HasPrefix(loc, "/"+lang+"/challenges/c/design/foreign-delete/c3-p1.10s/") {
			t.Fatalf("%s: make from a design run → %d %s", lang, r.Status, loc)
		}
		// par from the explorer's own search of that design
		d := lockdesign.DefaultDesign()
		del, ok := lockdesign.PresetNamed(sim.PieceRelease, d.Effect, "del")
		if !ok {
			t.Fatal("no release preset del")
		}
		d.SetScript(sim.PieceRelease, del.Script)
		sc, err := d.ScenarioFor(3)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := lessons.ParseBounds("c3-p1.10s")
		ch, err := lessons.Custom(&lessons.Lesson{Slug: "design", Scenario: sc}, "", sim.ForeignDelete, b)
		if err != nil {
			t.Fatal(err)
		}
		par := len(search(t, ch, ch.Opts).Found[sim.ForeignDelete].Shortest)
		start := get(t, h, loc)
		if start.Status != http.StatusOK || !strings.Contains(text(start.Body), i18n.Fill(u.Chal.Par, strconv.Itoa(par))) ||
			!strings.Contains(text(start.Body), u.Design.PresetLabel["release.del"]) {
			t.Errorf("%s: the design challenge does not open with par %d and its design (%d)", lang, par, start.Status)
		}
		solved := get(t, h, loc+"?do="+field("do"))
		if !strings.Contains(solved.Body, `data-solved="`) || strings.Contains(solved.Body, `data-solved="0"`) {
			t.Errorf("%s: the run's own moves do not solve the challenge made from it", lang)
		}
		href, found := webtest.HrefOf(solved.Body, "par")
		if !found || !strings.Contains(get(t, h, href).Body, `data-solved="`+strconv.Itoa(par)+`"`) {
			t.Errorf("%s: the par link %q does not solve it at par %d", lang, href, par)
		}
		if r := webtest.Get(t, h, "/"+lang+"/challenges/c/design/foreign-delete/c3-p1.10s/not*a*design"); r.Status != http.StatusBadRequest {
			t.Errorf("%s: a token that is no design: %d", lang, r.Status)
		}
	}
}

// TestDesignChallengeLinks: every link on a design challenge's page
// answers (none leads to a lesson named "design" that is not there).
func TestDesignChallengeLinks(t *testing.T) {
	h := sitetest.Default(t)
	page := get(t, h, "/en/challenges/c/design/foreign-delete/c3-p1.10s/cmVsZWFzZT1kZWw?do=a.acquire")
	if page.Status != http.StatusOK {
		t.Fatalf("design challenge: %d", page.Status)
	}
	for _, m := range regexp.MustCompile(`href="(/[^"#]*)"`).FindAllStringSubmatch(page.Body, -1) {
		link := html.UnescapeString(m[1])
		if strings.HasPrefix(link, "/static/") || strings.HasSuffix(link, "/class") {
			continue // assets; the header's "Join a class" (no classes on this test site)
		}
		if r := webtest.Get(t, h, link); r.Status >= 400 {
			t.Errorf("the design challenge links %s: %d", link, r.Status)
		}
	}
}

// TestChallengeShowsItsClients: a challenge played by fewer clients than
// its lesson has shows only those: no lane, state or control for one
// that cannot move (readers found "C idle" on 4.1 and "B idle" on 9.1,
// and a "Time" heading with nothing under it).
func TestChallengeShowsItsClients(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		for _, ch := range course.Challenges(lang) {
			if ch.Type != lessons.Break || ch.Bounds.Clients >= len(ch.Lesson.Scenario.Clients) {
				continue
			}
			body := get(t, h, links.Challenge(lang, ch.ID)).Body
			for _, id := range ch.Lesson.Scenario.Clients[ch.Bounds.Clients:] {
				lane := regexp.MustCompile(`lanelabel" x="[0-9.]+" y="[0-9.]+">` + strings.ToUpper(id) + `<`)
				if strings.Contains(body, `class="client c-`+id+`"`) || lane.MatchString(body) {
					t.Errorf("%s %s: client %s, who takes no part, has a lane or controls", lang, ch.ID, strings.ToUpper(id))
				}
			}
		}
	}
}

// between is body from the first from to the next to after it ("" if
// from is not there).
func between(body, from, to string) string {
	_, rest, ok := strings.Cut(body, from)
	if !ok {
		return ""
	}
	in, _, _ := strings.Cut(rest, to)
	return in
}

// TestChallengePictures: a break challenge's download links are its own
// picture, as an SVG and as a PNG, both captioned with the challenge (the
// SVG link was the lesson's picture, captioned as the lesson, beside the
// challenge's PNG); the timeline's JSON stays the lesson's data.
func TestChallengePictures(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		ch, _ := course.Challenge(lang, "fe-stale")
		base := "/" + lang + "/challenges/" + ch.ID
		q := "?do=a.acquire&opt=" + ch.Opt
		r := get(t, h, base+q)
		for _, file := range []string{"timeline.svg", "timeline.png"} {
			want := html.EscapeString(base + "/" + file + q)
			if !strings.Contains(r.Body, `href="`+want+`"`) {
				t.Errorf("%s: no link to %s", lang, want)
			}
			p := webtest.Get(t, h, base+"/"+file+q)
			if p.Status != http.StatusOK {
				t.Errorf("%s: %s answers %d", lang, file, p.Status)
				continue
			}
			if file == "timeline.svg" && !strings.Contains(html.UnescapeString(p.Body), ch.Title) {
				t.Errorf("%s: the SVG is not captioned with the challenge %q", lang, ch.Title)
			}
		}
	}
}

// TestSpentNodesNotListed: once a challenge's node faults are spent, the
// nodes that have no move left are not listed under "What the nodes can
// do" (the heading went with them); before, every node offers its faults.
func TestSpentNodesNotListed(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		ch, _ := course.Challenge(lang, "rl-restarts")
		base := "/" + lang + "/challenges/" + ch.ID + "?opt=" + ch.Opt + "&do="
		if r := get(t, h, base+"a.acquire"); !strings.Contains(r.Body, u.NodeControls) || !strings.Contains(r.Body, `id="do-n5-restart"`) {
			t.Errorf("%s: with node faults left, the nodes and their faults are not listed", lang)
		}
		r := get(t, h, base+"a.acquire,n1.restart,n2.restart,n3.restart")
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d", lang, r.Status)
		}
		if strings.Contains(r.Body, u.NodeControls) || strings.Contains(r.Body, `aria-label="n5"`) {
			t.Errorf("%s: the nodes are listed with no move left", lang)
		}
	}
}

// TestDesignFixKeepsRenewal: a fix whose design's renewal carries on after
// a failed extend (fe-prl-renew: python-redis-lock's auto_renewal) keeps
// it when the learner checks a fix, and says it: a form that dropped it
// graded another design, one that stops its work instead.
func TestDesignFixKeepsRenewal(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		du := i18n.For(lang).Design
		body := webtest.MustGet(t, h, "/"+lang+"/challenges/fe-prl-renew")
		if !strings.Contains(body, `<input type="hidden" name="renew" value="carry"`) {
			t.Errorf("%s: the fix's form does not keep renew=carry", lang)
		}
		if !strings.Contains(html.UnescapeString(body), du.RenewField+i18n.For(lang).LabelSep()+du.RenewLabel["carry"]) {
			t.Errorf("%s: the fix does not say its renewal carries on", lang)
		}
	}
}

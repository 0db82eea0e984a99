package class_test

import (
	"bufio"
	"context"
	"encoding/csv"
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
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/links"
)

// classSite is one app instance with classes, listening on loopback. Its
// cleanup closes the class streams first, so the server can close.
type classSite struct {
	URL   string
	srv   *httptest.Server
	class *class.Classroom
}

func newClassSite(t testing.TB, rdb redis.UniversalClient, lim class.Limits) *classSite {
	t.Helper()
	c, err := class.NewClassroom(context.Background(), rdb, lim)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sitetest.Handler(t, web.Config{Config: site.Config{Version: "test"}, Class: c}))
	t.Cleanup(func() { c.Close(); srv.Close() })
	return &classSite{URL: srv.URL, srv: srv, class: c}
}

// startClass creates a room on the fencing lesson at state (do, opt) and
// returns its code and the teacher's cookie.
func startClass(t testing.TB, site string, lang, do, opt string) (string, *http.Cookie) {
	t.Helper()
	res := webtest.Post(t, site, "/"+lang+"/class", url.Values{"lesson": {"fencing"}, "do": {do}, "opt": {opt}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("create: %d", res.StatusCode)
	}
	loc := res.Header.Get("Location")
	code := strings.TrimPrefix(loc, "/"+lang+"/class/")
	code, _, _ = strings.Cut(code, "/")
	tc := webtest.CookieNamed(res, class.TeacherPrefix)
	if tc == nil || tc.Value == "" || !tc.HttpOnly || tc.SameSite != http.SameSiteStrictMode || strings.Contains(loc, tc.Value) {
		t.Fatalf("teacher cookie %+v, location %s", tc, loc)
	}
	return code, tc
}

// visitClass opens the student page without a cookie, as a phone's first
// visit, and returns the student's new id cookie.
func visitClass(t testing.TB, site, lang, code string) *http.Cookie {
	t.Helper()
	res, _ := webtest.GetPage(t, site, "/"+lang+"/class/"+code)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("join %s: %d", code, res.StatusCode)
	}
	c := webtest.CookieNamed(res, class.SidCookie)
	if c == nil {
		t.Fatal("no student cookie")
	}
	return c
}

// joinClass is a student who joins without JavaScript: the first visit,
// then the page again with the cookie (Refresh), which admits them.
func joinClass(t testing.TB, site, lang, code string) *http.Cookie {
	t.Helper()
	c := visitClass(t, site, lang, code)
	if res, _ := webtest.GetPage(t, site, "/"+lang+"/class/"+code, c); res.StatusCode != http.StatusOK {
		t.Fatalf("refresh %s: %d", code, res.StatusCode)
	}
	return c
}

// sseEvent is one event of a class stream.
type sseEvent struct {
	ID, Kind, Data string
	At             time.Time
}

// sseClient reads one class stream until it is closed.
type sseClient struct {
	events chan sseEvent
	cancel context.CancelFunc
	done   chan struct{}
	status int
}

func openSSE(t testing.TB, client *http.Client, site, path, lastID string, cookies ...*http.Cookie) *sseClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, site+path, nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	res, err := client.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	s := &sseClient{events: make(chan sseEvent, 64), cancel: cancel, done: make(chan struct{}), status: res.StatusCode}
	go func() {
		defer close(s.done)
		defer res.Body.Close()
		defer close(s.events)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.Kind != "" {
					ev.At = time.Now()
					select {
					case s.events <- ev:
					case <-ctx.Done():
						return
					}
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "id: "):
				ev.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				ev.Kind = line[7:]
			case strings.HasPrefix(line, "data: "):
				if ev.Data != "" {
					ev.Data += "\n"
				}
				ev.Data += line[6:]
			}
		}
	}()
	t.Cleanup(s.close)
	return s
}

func (s *sseClient) close() { s.cancel(); <-s.done }

// next waits for the next event of kind (others are skipped), bounded by
// a generous deadline so a busy machine does not fail the test.
func (s *sseClient) next(t testing.TB, kind string) sseEvent {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ev, ok := <-s.events:
			if !ok {
				t.Fatalf("stream closed waiting for %q", kind)
			}
			if ev.Kind == kind {
				return ev
			}
		case <-deadline:
			t.Fatalf("no %q event", kind)
		}
	}
}

func roomKeys(t testing.TB, rdb redis.UniversalClient, code string) []string {
	t.Helper()
	keys, err := rdb.Keys(context.Background(), "lockclass:"+code+"*").Result()
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestClassFlow is one class on the embedded miniredis: a student follows
// the teacher's move over SSE, answers once, the teacher sees the count,
// reveals, the student sees the answer and the class's votes, and the end
// of the class removes every key and closes the stream.
func TestClassFlow(t *testing.T) {
	rdb, mr := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	ask, reveal, cp := webtest.FencingAsk(t)
	code, teacher := startClass(t, site.URL, "en", "", "")
	if len(code) != class.CodeLen || class.NormCode(code) != code {
		t.Fatalf("code %q", code)
	}
	if res, body := webtest.GetPage(t, site.URL, "/en/class/"+code+"/teach", teacher); res.StatusCode != 200 || !strings.Contains(body, class.Spaced(code)) {
		t.Fatalf("teacher page: %d", res.StatusCode)
	}
	sid := joinClass(t, site.URL, "en", code)
	// before the teacher starts, the phone says it is waiting
	if _, page := webtest.GetPage(t, site.URL, "/en/class/"+code, sid); !strings.Contains(page, `id="cs-waiting"`) {
		t.Error("a phone that joined before Start does not say the class has not started")
	}
	student := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "", sid)
	teach := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "", teacher)

	// the teacher moves to the step that asks the checkpoint
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/move", url.Values{"do": {ask.Do}, "opt": {ask.Opt}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("move: %d", res.StatusCode)
	}
	ev := student.next(t, "move")
	if ev.ID != "2" {
		t.Fatalf("move id %q", ev.ID)
	}
	// the event carries the student's page of that move (no fetch needed)
	_, page := webtest.GetPage(t, site.URL, "/en/class/"+code, sid)
	if strings.Contains(page, `id="cs-waiting"`) {
		t.Error("the class moved on, and the phone still says it has not started")
	}
	if !strings.Contains(ev.Data, `<div id="classroom"`) || !strings.Contains(ev.Data, `data-seq="2"`) || !strings.Contains(ev.Data, `name="choice"`) {
		t.Fatalf("move event without the student's page: %.200q", ev.Data)
	}
	if i := strings.Index(page, `<div id="classroom"`); i < 0 || !strings.Contains(page, ev.Data[strings.Index(ev.Data, `<div id="classroom"`):]) {
		t.Error("the move event's page differs from the page the student gets by Refresh")
	}
	if !strings.Contains(page, `name="choice"`) || !strings.Contains(page, `value="`+strconv.Itoa(cp)+`"`) {
		t.Fatal("no answer form at the checkpoint")
	}
	// answer, then change the answer: one vote per student, the last
	// one counts; the same answer again changes nothing
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/answer", url.Values{"step": {strconv.Itoa(cp)}, "choice": {"1"}}, sid); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("answer: %d", res.StatusCode)
	}
	teach.next(t, "votes")
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/answer", url.Values{"step": {strconv.Itoa(cp)}, "choice": {"2"}}, sid); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("changed answer: %d", res.StatusCode)
	}
	teach.next(t, "votes")
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/answer", url.Values{"step": {strconv.Itoa(cp)}, "choice": {"2"}}, sid); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("the same answer again: %d", res.StatusCode)
	}
	counts, _ := site.class.Counts(context.Background(), code, cp, 3)
	if counts[0] != 0 || counts[1] != 1 {
		t.Fatalf("counts after a changed answer %v, want [0 1 0]", counts)
	}
	if _, page := webtest.GetPage(t, site.URL, "/en/class/"+code, sid); !strings.Contains(page, "Change my answer") || !strings.Contains(page, `value="2" required checked`) {
		t.Error("the student's page does not offer to change the answer, their choice checked")
	}
	// before the reveal the teacher's screen says how many answered, not
	// what they chose
	_, bar := webtest.GetPage(t, site.URL, "/en/class/"+code+"/bar?do="+ask.Do, teacher)
	if !strings.Contains(bar, "1 of 1 answered") || !strings.Contains(bar, `id="reveal"`) || strings.Contains(bar, `class="bar-n"`) {
		t.Fatalf("teacher's bar before the reveal (want \"1 of 1 answered\", no counts per answer): %s", bar)
	}
	// a second student here who has not answered: Reveal asks first
	// (no-JS: the teacher's page with the warning), the room stays open
	other := joinClass(t, site.URL, "en", code)
	webtest.GetPage(t, site.URL, "/en/class/"+code, other) // their cookie comes back: here
	// at an address of its own, so a reload asks again and posts nothing
	res := webtest.Post(t, site.URL, "/en/class/"+code+"/reveal", url.Values{"step": {strconv.Itoa(cp)}}, teacher)
	warnAt := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.Contains(warnAt, "/en/class/"+code+"/teach?") || !strings.Contains(warnAt, "reveal="+strconv.Itoa(cp)) {
		t.Fatalf("reveal with an answer missing: %d to %q, want a redirect to the teacher's page that asks", res.StatusCode, warnAt)
	}
	for range 2 {
		res, warned := webtest.GetPage(t, site.URL, warnAt, teacher)
		if res.StatusCode != 200 || !strings.Contains(warned, "Only 1 of the 2 students here have answered") || !strings.Contains(warned, "Reveal anyway") {
			t.Fatalf("reveal with an answer missing: %d, want the warning", res.StatusCode)
		}
	}
	if _, page := webtest.GetPage(t, site.URL, "/en/class/"+code+"/teach?reveal="+strconv.Itoa(cp+1), teacher); strings.Contains(page, "Reveal anyway") {
		t.Error("a warning for a step whose question is not open")
	}
	if r, _ := site.class.Room(context.Background(), code); r.Revealed(cp) {
		t.Fatal("the warning revealed the answer")
	}
	// Reveal anyway: the answer shows, the room stays on its step
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/reveal", url.Values{"step": {strconv.Itoa(cp)}, "confirm": {"1"}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("reveal: %d", res.StatusCode)
	}
	student.next(t, "move")
	if r, _ := site.class.Room(context.Background(), code); !r.Revealed(cp) || r.Do != ask.Do {
		t.Fatalf("after the reveal: revealed %v, state %q (want the asking step %q)", r.Revealed(cp), r.Do, ask.Do)
	}
	_, bar = webtest.GetPage(t, site.URL, "/en/class/"+code+"/bar?do="+url.QueryEscape(ask.Do)+"&opt="+url.QueryEscape(ask.Opt), teacher)
	for _, want := range []string{"How the class answered", `class="bar-n"`, "The answer:", `id="class-next"`} {
		if !strings.Contains(bar, want) {
			t.Errorf("teacher's bar after the reveal lacks %q", want)
		}
	}
	_, page = webtest.GetPage(t, site.URL, "/en/class/"+code, sid)
	mine, tally := strings.Index(page, "You predicted:"), strings.Index(page, "How the class answered")
	if mine < 0 || tally < 0 || mine > tally || !strings.Contains(page, "✓") {
		t.Errorf("revealed page: the student's own answer (at %d) must come before the class's (at %d)", mine, tally)
	}
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/answer", url.Values{"step": {strconv.Itoa(cp)}, "choice": {"1"}}, sid); res.StatusCode != http.StatusConflict {
		t.Fatalf("answer after the reveal: %d", res.StatusCode)
	}
	// Next step: the class moves to the checkpoint's step
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/move", url.Values{"do": {reveal.Do}, "opt": {reveal.Opt}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("next step: %d", res.StatusCode)
	}
	student.next(t, "move")
	// the end: keys gone, streams closed; for a while the code says the
	// class ended (410, with the way on from where it stopped), then 404
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/end", nil, teacher); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/en/class/"+code+"/summary" {
		t.Fatalf("end: %d to %q, want the summary", res.StatusCode, res.Header.Get("Location"))
	}
	student.next(t, "end")
	// the summary, for the teacher only: the question with each answer's
	// count, the right one marked, and its CSV
	if res, sum := webtest.GetPage(t, site.URL, "/en/class/"+code+"/summary", teacher); res.StatusCode != 200 || !strings.Contains(sum, "Class summary") || !strings.Contains(sum, "kept for 2 hours after the class ends") || !strings.Contains(sum, "0 of 1 right") && !strings.Contains(sum, "1 of 1 right") {
		t.Fatalf("summary: %d", res.StatusCode)
	}
	// the teacher who opens the class again is taken to its summary
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code+"/teach", teacher); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/en/class/"+code+"/summary" {
		t.Errorf("the teacher's page after the end: %d to %q, want the summary", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code+"/summary", sid); res.StatusCode != http.StatusForbidden {
		t.Fatalf("a student's summary: %d, want 403", res.StatusCode)
	}
	res, csvText := webtest.GetPage(t, site.URL, "/en/class/"+code+"/summary.csv", teacher)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("summary CSV: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	body, bom := strings.CutPrefix(csvText, "\ufeff") // for spreadsheets: UTF-8 only with a BOM
	if !bom {
		t.Error("the summary CSV has no byte-order mark: Excel would read its questions as Latin-1")
	}
	recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil || len(recs) < 3 {
		t.Fatalf("summary CSV: %v, %d rows", err, len(recs))
	}
	chosen := 0
	for _, rec := range recs[1:] {
		n, _ := strconv.Atoi(rec[4])
		chosen += n
		// the step the room saw the question at, the one before its
		// checkpoint's; everyone who answered it
		if rec[1] != strconv.Itoa(cp-1) || rec[6] != "1" || (rec[5] != "0" && rec[5] != "1") {
			t.Errorf("CSV row %q: want step %d, right 0 or 1, 1 answered", rec, cp-1)
		}
	}
	if chosen != 1 {
		t.Errorf("the CSV counts %d answers, want the 1 given", chosen)
	}
	if keys := roomKeys(t, rdb, code); len(keys) != 0 {
		t.Fatalf("keys left: %v", keys)
	}
	for _, lang := range []string{"en", "ja"} {
		res, body := webtest.GetPage(t, site.URL, "/"+lang+"/class/"+code)
		goOn := `href="/` + lang + `/lessons/fencing?do=` + reveal.Do
		if res.StatusCode != http.StatusGone || !strings.Contains(body, i18n.For(lang).Class.EndedTitle) || strings.Contains(body, i18n.For(lang).Class.NoRoomText) || !strings.Contains(body, goOn) {
			t.Fatalf("ended class (%s): %d, want 410 %q with a link %s", lang, res.StatusCode, i18n.For(lang).Class.EndedTitle, goOn)
		}
	}
	// (a student's cookie, or none, is told the class ended: 410 above;
	// the teacher's cookie leads to the summary, checked earlier)
	mr.FastForward(class.EndedFor + time.Second)
	if res, body := webtest.GetPage(t, site.URL, "/ja/class/"+code); res.StatusCode != 404 || !strings.Contains(body, i18n.For("ja").Class.NoRoomTitle) {
		t.Fatalf("long-ended class: %d", res.StatusCode)
	}
}

// TestClassCatchUp: a phone that slept reconnects with Last-Event-ID and
// gets the move it missed at once; one that is up to date gets nothing.
func TestClassCatchUp(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	ask, _, _ := webtest.FencingAsk(t)
	code, teacher := startClass(t, site.URL, "en", "", "")
	sid := joinClass(t, site.URL, "en", code)
	webtest.Post(t, site.URL, "/en/class/"+code+"/move", url.Values{"do": {ask.Do}, "opt": {ask.Opt}}, teacher)
	late := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "1", sid)
	if ev := late.next(t, "move"); ev.ID != "2" {
		t.Fatalf("catch-up id %q", ev.ID)
	}
	fresh := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events?since=2", "", sid)
	webtest.Post(t, site.URL, "/en/class/"+code+"/move", url.Values{"do": {""}, "opt": {""}}, teacher)
	if ev := fresh.next(t, "move"); ev.ID != "3" {
		t.Fatalf("first event of an up-to-date stream: %q", ev.ID)
	}
}

// TestClassHostile: forged teacher cookies, replayed and forged answers,
// cross-site and oversized or malformed POSTs, and 10,000 random codes —
// the room moves only for its teacher, nothing counts twice, and no
// answer is a 5xx.
func TestClassHostile(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	ask, _, cp := webtest.FencingAsk(t)
	code, teacher := startClass(t, site.URL, "en", ask.Do, ask.Opt)
	other, otherTeacher := startClass(t, site.URL, "en", "", "")
	sid := joinClass(t, site.URL, "en", code)
	room := func() *class.Room {
		r, err := site.class.Room(context.Background(), code)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	before := room()
	forged := []*http.Cookie{
		nil,
		{Name: class.TeacherPrefix + code, Value: "00000000000000000000000000000000"},
		{Name: class.TeacherPrefix + code, Value: teacher.Value[:31] + "x"},
		{Name: class.TeacherPrefix + code, Value: strings.Repeat("a", 5000)},
		{Name: class.TeacherPrefix + code, Value: otherTeacher.Value}, // another room's teacher
		{Name: class.TeacherPrefix + other, Value: otherTeacher.Value},
		{Name: class.TeacherPrefix + code, Value: class.HashSecret(teacher.Value)}, // what Redis holds
		sid,
	}
	for i, c := range forged {
		var cs []*http.Cookie
		if c != nil {
			cs = append(cs, c)
		}
		for _, path := range []string{"/move", "/end"} {
			res := webtest.Post(t, site.URL, "/en/class/"+code+path, url.Values{"do": {""}}, cs...)
			if res.StatusCode != http.StatusForbidden && res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
				t.Errorf("forged cookie %d on %s: %d", i, path, res.StatusCode)
			}
		}
		if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code+"/teach", cs...); res.StatusCode != http.StatusForbidden && res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("forged cookie %d opened the teacher's page: %d", i, res.StatusCode)
		}
	}
	// the teacher's own cookie from another site (no Origin match)
	for _, origin := range []string{"", "http://evil.example", "null", site.URL + ".evil.example"} {
		req, _ := http.NewRequest(http.MethodPost, site.URL+"/en/class/"+code+"/move", strings.NewReader("do="))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		req.AddCookie(teacher)
		res, err := webtest.NoRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("origin %q: %d", origin, res.StatusCode)
		}
	}
	if after := room(); after.Seq != before.Seq || after.Do != before.Do {
		t.Fatalf("room moved by someone else: %+v → %+v", before, after)
	}

	// answers: replayed, forged, out of range, for a closed question
	form := url.Values{"step": {strconv.Itoa(cp)}, "choice": {"2"}}
	var wg sync.WaitGroup
	codes := make(chan int, 50)
	for range 50 { // the same answer raced 50 times: counted once
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- webtest.Post(t, site.URL, "/en/class/"+code+"/answer", form, sid).StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != http.StatusSeeOther {
			t.Errorf("raced answer: %d", c)
		}
	}
	if counts, _ := site.class.Counts(context.Background(), code, cp, 3); counts[1] != 1 {
		t.Errorf("50 raced copies of one answer counted %d times", counts[1])
	}
	for i, f := range []url.Values{
		{"step": {strconv.Itoa(cp)}, "choice": {"9"}},
		{"step": {strconv.Itoa(cp)}, "choice": {"0"}},
		{"step": {strconv.Itoa(cp)}, "choice": {"-1"}},
		{"step": {strconv.Itoa(cp)}, "choice": {"1", "2"}},
		{"step": {"999"}, "choice": {"1"}},
		{"step": {"1"}, "choice": {"1"}},
		{"step": {"x"}, "choice": {"1"}},
		{},
		{"choice": {strings.Repeat("9", 900)}},
	} {
		res := webtest.Post(t, site.URL, "/en/class/"+code+"/answer", f, &http.Cookie{Name: class.SidCookie, Value: class.RandomHex(16)})
		if res.StatusCode < 400 || res.StatusCode >= 500 {
			t.Errorf("answer form %d: %d", i, res.StatusCode)
		}
	}
	// an answer without a cookie is refused, and so is one with a
	// made-up student id (the server did not sign it: own_test.go)
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/answer", url.Values{"step": {strconv.Itoa(cp)}, "choice": {"1"}}); res.StatusCode != http.StatusBadRequest {
		t.Errorf("answer without a cookie: %d", res.StatusCode)
	}
	made := &http.Cookie{Name: class.SidCookie, Value: class.RandomHex(16)}
	for i := range 3 {
		if res := webtest.Post(t, site.URL, "/en/class/"+code+"/answer", url.Values{"step": {strconv.Itoa(cp)}, "choice": {"1"}}, made); res.StatusCode != http.StatusBadRequest {
			t.Errorf("made-up student's answer %d: %d, want 400", i, res.StatusCode)
		}
	}
	counts, _ := site.class.Counts(context.Background(), code, cp, 3)
	if counts[0] != 0 || counts[1] != 1 || counts[2] != 0 {
		t.Fatalf("counts %v, want [0 1 0]", counts)
	}
	// none of the refused answers made anyone a member of the class
	if n, _ := rdb.SCard(context.Background(), class.MembersKey(code)).Result(); n != 1 {
		t.Errorf("%d members, want 1 (the student)", n)
	}
	// huge and malformed bodies
	for i, body := range []string{strings.Repeat("choice=1&", 20000), "%zz=%", "step=" + strings.Repeat("%", 500)} {
		req, _ := http.NewRequest(http.MethodPost, site.URL+"/en/class/"+code+"/answer", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", site.URL)
		req.AddCookie(sid)
		res, err := webtest.NoRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode < 400 || res.StatusCode >= 500 {
			t.Errorf("body %d: %d", i, res.StatusCode)
		}
		if i == 0 && res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("huge body: %d, want 413", res.StatusCode)
		}
	}
	// 10,000 random codes, each a 404 in the page's language
	found := 0
	for i := range 10000 {
		c, _ := class.NewCode()
		lang := []string{"en", "ja"}[i%2]
		path := []string{"/" + lang + "/class/" + c, "/" + lang + "/class/" + c + "/events", "/class/" + c}[i%3]
		res, _ := webtest.GetPage(t, site.URL, path)
		if res.StatusCode >= 500 {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		if res.StatusCode == 200 {
			found++
		}
	}
	if found > 0 {
		t.Errorf("%d random codes hit a room", found)
	}
	for _, path := range []string{"/en/class/nope", "/en/class/" + strings.Repeat("A", 500), "/ja/class/ABCDEFGO", "/en/class/join?code=", "/en/class?code=%ff"} {
		if res, _ := webtest.GetPage(t, site.URL, path); res.StatusCode != 404 {
			t.Errorf("%s: %d", path, res.StatusCode)
		}
	}
	if after := room(); after.Seq != before.Seq {
		t.Fatal("room moved")
	}
}

// TestClassPresence: the teacher's "connected" counts students really
// there, each once (QA #14): a first visit without the cookie does not
// count (a curl check, a link preview, a private tab's reload); the
// student counts once their cookie comes back — by a Refresh or an answer
// without JavaScript, by their stream with it — however many pages and
// streams they open; a closed stream stops counting, a shutdown does not
// (the phone comes back to another instance).
func TestClassPresence(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	ask, _, cp := webtest.FencingAsk(t)
	code, teacher := startClass(t, site.URL, "en", ask.Do, ask.Opt)
	ctx := context.Background()
	count := func() int {
		t.Helper()
		_, bar := webtest.GetPage(t, site.URL, "/en/class/"+code+"/bar", teacher)
		m := regexp.MustCompile(`id="cb-connected"[^>]*>(\d+) connected<`).FindStringSubmatch(bar)
		if m == nil {
			t.Fatalf("no count in the teacher's bar: %.300s", bar)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	want := func(n int, what string) {
		t.Helper()
		if got := count(); got != n {
			t.Fatalf("%s: %d connected, want %d", what, got, n)
		}
	}
	teach := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "", teacher)

	for range 5 {
		visitClass(t, site.URL, "en", code)
	}
	want(0, "five cookie-less visits")
	if n, _ := rdb.SCard(ctx, class.MembersKey(code)).Result(); n != 0 {
		t.Fatalf("cookie-less visits joined %d members", n)
	}

	// a student without JavaScript: counted from their first Refresh, once
	nojs := visitClass(t, site.URL, "ja", code)
	want(0, "a first visit")
	for range 3 {
		if res, _ := webtest.GetPage(t, site.URL, "/ja/class/"+code, nojs); res.StatusCode != 200 {
			t.Fatalf("refresh: %d", res.StatusCode)
		}
	}
	want(1, "a no-JS student after three Refreshes")
	teach.next(t, "here")

	// a student with JavaScript: their stream brings the cookie back
	js := visitClass(t, site.URL, "en", code)
	tab1 := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "", js)
	want(2, "a student's stream")
	tab2 := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "", js) // a second tab
	webtest.GetPage(t, site.URL, "/en/class/"+code, js)
	want(2, "the same student's second tab and reload")
	// a cookie-less stream (cookies blocked) follows but does not count
	openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "")
	want(2, "a stream without a cookie")

	// a student who answers straight from the first visit's form
	direct := visitClass(t, site.URL, "en", code)
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/answer", url.Values{"step": {strconv.Itoa(cp)}, "choice": {"1"}}, direct); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("answer: %d", res.StatusCode)
	}
	want(3, "an answer carrying the cookie")

	// both tabs close: the student stops counting at once
	tab1.close()
	tab2.close()
	deadline := time.Now().Add(30 * time.Second)
	for count() != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("closed streams still counted: %d", count())
		}
		teach.next(t, "here")
	}
	// a shutdown closes the streams but not the students' presence
	again := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "", js)
	want(3, "the student back")
	site.class.Close()
	<-again.done
	if n := site.class.Connected(ctx, code); n != 3 {
		t.Fatalf("after a shutdown %d connected, want 3", n)
	}
}

// TestClassLimits: a full room, too many rooms and too many streams are
// each a page in the learner's language, not a 5xx.
func TestClassLimits(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{StudentsPerRoom: 2, Rooms: 2, Streams: 2})
	code, _ := startClass(t, site.URL, "en", "", "")
	joinClass(t, site.URL, "en", code)
	joinClass(t, site.URL, "en", code)
	if res, body := webtest.GetPage(t, site.URL, "/ja/class/"+code); res.StatusCode != http.StatusForbidden || !strings.Contains(body, i18n.For("ja").Class.FullTitle) {
		t.Errorf("third student: %d", res.StatusCode)
	}
	startClass(t, site.URL, "en", "", "")
	if res := webtest.Post(t, site.URL, "/ja/class", url.Values{"lesson": {"fencing"}}); res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("third room: %d", res.StatusCode)
	}
	a := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "")
	b := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "")
	if a.status != 200 || b.status != 200 {
		t.Fatalf("streams: %d %d", a.status, b.status)
	}
	c := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "")
	if c.status != http.StatusServiceUnavailable {
		t.Errorf("third stream: %d", c.status)
	}
}

// TestClassShutdown: closing the class service ends every stream (the
// server's Shutdown calls it), so nothing waits on them.
func TestClassShutdown(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	code, _ := startClass(t, site.URL, "en", "", "")
	var streams []*sseClient
	for range 5 {
		streams = append(streams, openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", ""))
	}
	site.class.Close()
	for _, s := range streams {
		select {
		case <-s.done:
		case <-time.After(30 * time.Second):
			t.Fatal("a stream outlived Close")
		}
	}
}

// TestClassTeacherNoJS: every link and form of the teacher's page (steps,
// verbs, waits, undo, reset, the variants form, the checkpoint) stays in
// the class, so a teacher without JavaScript does not leave it; a GET
// there only shows the step, and "Show this step to the class" moves it.
func TestClassTeacherNoJS(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	ask, _, _ := webtest.FencingAsk(t)
	code, teacher := startClass(t, site.URL, "en", "", "")
	teach := "/en/class/" + code + "/teach"
	// the lobby: a Start button, no "Show this step" before the class began
	_, lobby := webtest.GetPage(t, site.URL, teach+links.Query(ask.Do, ask.Opt), teacher)
	if !strings.Contains(lobby, `id="start-class"`) || strings.Contains(lobby, `id="show-class"`) {
		t.Fatal("the teacher's page before the start is not the lobby with its Start button")
	}
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/move", url.Values{"do": {""}, "opt": {""}, "start": {"1"}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("start: %d", res.StatusCode)
	}
	_, page := webtest.GetPage(t, site.URL, teach+links.Query(ask.Do, ask.Opt), teacher)
	if strings.Contains(page, `id="start-class"`) || !strings.Contains(page, `id="cb-qr"`) {
		t.Fatal("after the start the join panel is not one line with its QR code folded")
	}
	out := regexp.MustCompile(`(?:href|action|hx-get)="/en/lessons/fencing(?:[?"])`).FindAllString(page, -1)
	if len(out) > 0 {
		t.Errorf("the teacher's page has %d links out of the class: %v", len(out), out)
	}
	for _, id := range []string{"undo", "reset", `do-[ab]-[a-z]+`, "wait-10s"} {
		if !regexp.MustCompile(`id="` + id + `"[^>]*href="` + regexp.QuoteMeta(teach)).MatchString(page) {
			t.Errorf("#%s does not stay in the class", id)
		}
	}
	if strings.Contains(page, `id="teach"`) || strings.Contains(page, `id="teach-present"`) {
		t.Error("the teacher's page offers to start a second class")
	}
	// a link followed without JavaScript: the page shows that step, the
	// class still sees the old one until the teacher shows it
	link := regexp.MustCompile(`id="wait-10s"[^>]*href="([^"]+)"`).FindStringSubmatch(page)
	if link == nil {
		t.Fatal("no wait link")
	}
	href := html.UnescapeString(link[1])
	res, next := webtest.GetPage(t, site.URL, href, teacher)
	if res.StatusCode != 200 || !strings.Contains(next, i18n.For("en").Class.ShowClass) || !strings.Contains(next, `id="classbar"`) {
		t.Fatalf("followed link: %d, want the teacher's page with %q", res.StatusCode, i18n.For("en").Class.ShowClass)
	}
	u, _ := url.Parse(href)
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/move", url.Values{"do": {u.Query().Get("do")}, "opt": {u.Query().Get("opt")}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("show this step: %d", res.StatusCode)
	}
	room, err := site.class.Room(context.Background(), code)
	if err != nil || room.Do != u.Query().Get("do") {
		t.Fatalf("the class did not move: %v %+v", err, room)
	}
	// the variants form, as the browser sends it (opt-<name> fields)
	res, _ = webtest.GetPage(t, site.URL, teach+"?do="+url.QueryEscape(ask.Do)+"&opt-release=del", teacher)
	if res.StatusCode != 200 {
		t.Fatalf("variants form on the teacher's page: %d", res.StatusCode)
	}
}

// TestClassThreeLanguages: one teacher (English), students reading
// Chinese, Japanese and English: each follows the same moves on its own
// stream, in its own language, and the answers of all three count in one
// tally.
func TestClassThreeLanguages(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	ask, reveal, cp := webtest.FencingAsk(t)
	code, teacher := startClass(t, site.URL, "en", "", "")
	teach := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "", teacher)
	type student struct {
		lang   string
		sid    *http.Cookie
		stream *sseClient
	}
	var students []student
	for _, lang := range []string{"zh", "ja", "en"} {
		sid := joinClass(t, site.URL, lang, code)
		students = append(students, student{lang, sid, openSSE(t, http.DefaultClient, site.URL, "/"+lang+"/class/"+code+"/events", "", sid)})
	}
	for m, mv := range []lessons.Step{ask, reveal} {
		if res := webtest.Post(t, site.URL, "/en/class/"+code+"/move", url.Values{"do": {mv.Do}, "opt": {mv.Opt}}, teacher); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("move: %d", res.StatusCode)
		}
		for _, s := range students {
			ev := s.stream.next(t, "move")
			u := i18n.For(s.lang)
			if !strings.Contains(ev.Data, `<div id="classroom"`) || !strings.Contains(ev.Data, html.EscapeString(u.Step)) {
				t.Errorf("%s student: the move's page is not in its language: %.300q", s.lang, ev.Data)
			}
		}
		if m == 0 {
			for i, s := range students {
				if res := webtest.Post(t, site.URL, "/"+s.lang+"/class/"+code+"/answer", url.Values{"step": {strconv.Itoa(cp)}, "choice": {strconv.Itoa(1 + i%2)}}, s.sid); res.StatusCode != http.StatusSeeOther {
					t.Fatalf("%s answer: %d", s.lang, res.StatusCode)
				}
			}
			teach.next(t, "votes")
			if counts, _ := site.class.Counts(context.Background(), code, cp, 3); counts[0] != 2 || counts[1] != 1 {
				t.Errorf("one tally of three languages' answers: %v, want [2 1 …]", counts)
			}
		}
	}
}

// TestTeachingPage: the page about teaching offers, for each lesson in
// each language, a form that opens a class at the lesson's first step.
// It tells of the lobby's joined count in the unit the bar counts it in
// (one unit for one number), and of locking and reopening the class by
// the buttons' own names.
func TestTeachingPage(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	formRE := regexp.MustCompile(`(?s)<form method="post" action="/(\w+)/class"><input type="hidden" name="lesson" value="([\w-]+)"> ?<input type="hidden" name="do" value="([^"]*)"> ?<input type="hidden" name="opt" value="([^"]*)"> ?<button`)
	unit := map[string]string{"en": "every phone that has joined", "ja": "参加した端末の数", "zh": "加入过本课堂的设备数"}
	for _, lang := range []string{"en", "ja", "zh"} {
		res, page := webtest.GetPage(t, site.URL, "/"+lang+"/teaching")
		cu := i18n.For(lang).Class
		for _, want := range []string{"<strong>" + cu.LockBtn + "</strong>", "<strong>" + cu.UnlockBtn + "</strong>", unit[lang]} {
			if !strings.Contains(page, want) {
				t.Errorf("/%s/teaching does not tell of the joined count and the lock: no %q", lang, want)
			}
		}
		if !strings.Contains(strings.ToLower(cu.JoinedHint), unit[lang]) {
			t.Errorf("%s: the bar's joined hint counts in another unit than /%s/teaching's %q", lang, lang, unit[lang])
		}
		forms := formRE.FindAllStringSubmatch(page, -1)
		if res.StatusCode != 200 || len(forms) != 10 {
			t.Fatalf("/%s/teaching: %d with %d forms to teach a lesson, want one per lesson (10)", lang, res.StatusCode, len(forms))
		}
		f := forms[len(forms)-1]
		res = webtest.Post(t, site.URL, "/"+f[1]+"/class", url.Values{"lesson": {f[2]}, "do": {html.UnescapeString(f[3])}, "opt": {html.UnescapeString(f[4])}})
		if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/"+lang+"/class/") || !strings.HasSuffix(strings.SplitN(loc, "?", 2)[0], "/teach") {
			t.Fatalf("/%s/teaching's form for %s: %d to %q, want the new class's teacher page", lang, f[2], res.StatusCode, loc)
		}
		_, teach := webtest.GetPage(t, site.URL, res.Header.Get("Location"), webtest.CookieNamed(res, class.TeacherPrefix))
		if !strings.Contains(teach, `data-lesson="`+f[2]+`"`) {
			t.Errorf("/%s/teaching's form for %s opened a class on another lesson", lang, f[2])
		}
	}
}

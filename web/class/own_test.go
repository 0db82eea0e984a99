package class_test

// own_test.go: a class belongs to its teacher and its students (issue 42,
// item 3; the security report's F2–F5, F9, F13, F18). Identities are the
// server's, signed; seats go to students who are here; the teacher sees
// who joined and can lock the room; one client cannot take the server's
// classes or streams; an idle class gives its place back; a prediction
// counts as sent.

import (
	"context"
	"html"
	"io"
	"net"
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

	"locklab/web"
	"locklab/web/class"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/limits"
	"locklab/web/site"
)

// fromAddr sends every request as the client at addr, as the trusted
// proxy in front says it (the last X-Forwarded-For entry).
type fromAddr string

func (a fromAddr) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Forwarded-For", string(a))
	return http.DefaultTransport.RoundTrip(r)
}

// clientAt is a browser at address addr (behind the trusted proxy) that
// does not follow redirects.
func clientAt(addr string) *http.Client {
	return &http.Client{Transport: fromAddr(addr),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// send is one request by browser c (a form posted as the site's own page
// would, or a GET when form is nil), its answer and body.
func send(t testing.TB, c *http.Client, site, path string, form url.Values, cookies ...*http.Cookie) (*http.Response, string) {
	t.Helper()
	var req *http.Request
	if form != nil {
		req, _ = http.NewRequest(http.MethodPost, site+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", site)
	} else {
		req, _ = http.NewRequest(http.MethodGet, site+path, nil)
	}
	for _, ck := range cookies {
		req.AddCookie(ck)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b)
}

// testClock is the class's clock in a test: it moves only when told.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// newOwnSite is one instance with classes behind a trusted proxy (each
// client is the address in X-Forwarded-For) with these per-client rules,
// on a clock the test moves.
func newOwnSite(t testing.TB, rdb redis.UniversalClient, lim class.Limits, rules map[limits.Kind]limits.Rule) (*classSite, *testClock) {
	t.Helper()
	c, err := class.NewClassroom(context.Background(), rdb, lim)
	if err != nil {
		t.Fatal(err)
	}
	clk := &testClock{t: time.Now()}
	c.SetClock(clk.now)
	srv := httptest.NewServer(sitetest.Handler(t, web.Config{Config: site.Config{Version: "test", Limits: limits.New(true, rules)}, Class: c}))
	t.Cleanup(func() { c.Close(); srv.Close() })
	return &classSite{URL: srv.URL, srv: srv, class: c}, clk
}

// members is how many identities joined room code.
func members(t testing.TB, rdb redis.UniversalClient, code string) int64 {
	t.Helper()
	n, err := rdb.SCard(context.Background(), class.MembersKey(code)).Result()
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// barCounts reads "N connected" and "M joined" from the teacher's bar.
func barCounts(t testing.TB, site, code string, teacher *http.Cookie) (connected, joined int, bar string) {
	t.Helper()
	_, bar = webtest.GetPage(t, site, "/en/class/"+code+"/bar", teacher)
	c := regexp.MustCompile(`id="cb-connected"[^>]*>(\d+) connected<`).FindStringSubmatch(bar)
	j := regexp.MustCompile(`id="cb-joined"[^>]*>(\d+) joined<`).FindStringSubmatch(bar)
	if c == nil || j == nil {
		t.Fatalf("the teacher's bar does not say how many are connected and how many joined: %.400s", bar)
	}
	connected, _ = strconv.Atoi(c[1])
	joined, _ = strconv.Atoi(j[1])
	return connected, joined, bar
}

// TestClassForgedIdentity (F3): a student id the server did not issue —
// 32 made-up hex digits, or a real one altered — is no identity: the page
// issues a fresh, signed one and the made-up one never joins, so a flood
// of them cannot fill a class; real students still get in.
func TestClassForgedIdentity(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{StudentsPerRoom: 2})
	code, teacher := startClass(t, site.URL, "en", "", "")
	kept, refused := 0, 0
	for range 20 {
		forged := &http.Cookie{Name: class.SidCookie, Value: class.RandomHex(16)}
		for range 2 { // the visit, then the "refresh" that would join it
			res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code, forged)
			if res.StatusCode != http.StatusOK {
				refused++
			} else if fresh := webtest.CookieNamed(res, class.SidCookie); fresh == nil || fresh.Value == forged.Value {
				kept++
			}
		}
		openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "", forged).close()
	}
	if kept > 0 || refused > 0 {
		t.Errorf("of 40 pages with made-up identities, %d kept the made-up one and %d were refused; want each to issue a fresh identity", kept, refused)
	}
	if n := members(t, rdb, code); n != 0 {
		t.Errorf("%d made-up identities joined the class", n)
	}
	// a real identity with its signature altered is no identity either
	real := visitClass(t, site.URL, "en", code)
	tampered := &http.Cookie{Name: class.SidCookie, Value: real.Value[:len(real.Value)-1] + string("0123456789abcdef"[(strings.IndexByte("0123456789abcdef", real.Value[len(real.Value)-1])+1)%16])}
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code, tampered); webtest.CookieNamed(res, class.SidCookie) == nil {
		t.Error("an altered identity was taken as the server's")
	}
	if n := members(t, rdb, code); n != 0 {
		t.Errorf("an altered identity joined: %d members", n)
	}
	// the class still has both its seats for real students
	joinClass(t, site.URL, "en", code)
	joinClass(t, site.URL, "ja", code)
	if _, joined, _ := barCounts(t, site.URL, code, teacher); joined != 2 {
		t.Errorf("the teacher's bar says %d joined, want the 2 real students", joined)
	}
}

// TestClassIdentityAcrossInstances: the identity one instance issues is
// accepted by every other instance on the same class Redis, including one
// started later: the signing key lives in Redis, not in a process.
func TestClassIdentityAcrossInstances(t *testing.T) {
	rdb, mr := webtest.MiniRDB(t)
	other := func() redis.UniversalClient {
		c := redis.NewClient(&redis.Options{Addr: "class-rooms",
			Dialer: func(context.Context, string, string) (net.Conn, error) { return mr.Dial() }})
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	one := newClassSite(t, rdb, class.Limits{})
	two := newClassSite(t, other(), class.Limits{})
	code, _ := startClass(t, one.URL, "en", "", "")
	sid := visitClass(t, one.URL, "en", code)
	for i, s := range []*classSite{two, newClassSite(t, other(), class.Limits{}), one} {
		res, _ := webtest.GetPage(t, s.URL, "/en/class/"+code, sid)
		if res.StatusCode != http.StatusOK || webtest.CookieNamed(res, class.SidCookie) != nil {
			t.Fatalf("instance %d: %d, and a new identity issued (%v): the first instance's was not accepted", i+2, res.StatusCode, webtest.CookieNamed(res, class.SidCookie) != nil)
		}
	}
	if n := members(t, rdb, code); n != 1 {
		t.Fatalf("%d members, want the one student", n)
	}
}

// TestClassSeatsGoToStudentsHere (F3): a seat is held by a student who is
// here. Identities that joined and went away free their seats; a student
// who joined comes back even when the class is full.
func TestClassSeatsGoToStudentsHere(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site, clk := newOwnSite(t, rdb, class.Limits{StudentsPerRoom: 2}, nil)
	code, teacher := startClass(t, site.URL, "en", "", "")
	first := joinClass(t, site.URL, "en", code)
	joinClass(t, site.URL, "en", code)
	if res, body := webtest.GetPage(t, site.URL, "/ja/class/"+code); res.StatusCode != http.StatusForbidden || !strings.Contains(body, i18n.For("ja").Class.FullTitle) {
		t.Fatalf("a third student while two are here: %d, want 403 (full)", res.StatusCode)
	}
	// three minutes later neither page was loaded again: they are gone
	clk.add(3 * time.Minute)
	third := joinClass(t, site.URL, "ja", code)
	if connected, joined, _ := barCounts(t, site.URL, code, teacher); connected != 1 || joined != 3 {
		t.Errorf("after two left and one came: %d connected, %d joined; want 1 and 3", connected, joined)
	}
	fourth := joinClass(t, site.URL, "zh", code)
	// the class is full again (two here), yet the first student, who
	// joined before, comes back
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code, first); res.StatusCode != http.StatusOK {
		t.Errorf("a student who joined before, back in a full class: %d", res.StatusCode)
	}
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code); res.StatusCode != http.StatusForbidden {
		t.Errorf("a new student while the class is full: %d, want 403", res.StatusCode)
	}
	for _, s := range []*http.Cookie{third, fourth} {
		if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code, s); res.StatusCode != http.StatusOK {
			t.Errorf("a student here: %d", res.StatusCode)
		}
	}
}

// TestClassVoteStuffing (F4): answers with identities the server never
// issued are refused and counted nowhere; /answer and /tell take each
// client's share of answers (limits.Answer), and another client still
// answers.
func TestClassVoteStuffing(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site, _ := newOwnSite(t, rdb, class.Limits{}, map[limits.Kind]limits.Rule{limits.Answer: {Every: time.Hour, Burst: 3}})
	ask, _, cp := webtest.FencingAsk(t)
	code, teacher := startClass(t, site.URL, "en", ask.Do, ask.Opt)
	vote := url.Values{"step": {strconv.Itoa(cp)}, "choice": {"2"}}
	stuffer := clientAt("198.51.100.66")
	for i := range 3 {
		forged := &http.Cookie{Name: class.SidCookie, Value: class.RandomHex(16)}
		if res, _ := send(t, stuffer, site.URL, "/en/class/"+code+"/answer", vote, forged); res.StatusCode != http.StatusBadRequest {
			t.Errorf("answer %d with a made-up identity: %d, want 400", i, res.StatusCode)
		}
	}
	if counts, _ := site.class.Counts(context.Background(), code, cp, 3); counts[1] != 0 {
		t.Fatalf("made-up identities cast %d votes", counts[1])
	}
	if n := members(t, rdb, code); n != 0 {
		t.Fatalf("made-up identities joined: %d members", n)
	}
	// past its share of answers the client gets 429, for /tell too
	sid := visitClass(t, site.URL, "en", code)
	if res, _ := send(t, stuffer, site.URL, "/en/class/"+code+"/answer", vote, sid); res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Errorf("an answer past the client's share: %d, want 429 with Retry-After", res.StatusCode)
	}
	if res, _ := send(t, stuffer, site.URL, "/en/class/"+code+"/tell", url.Values{"challenge": {"fe-stale"}, "do": {""}}, sid); res.StatusCode != http.StatusTooManyRequests {
		t.Errorf("a result told past the client's share: %d, want 429", res.StatusCode)
	}
	if res, _ := send(t, clientAt("198.51.100.7"), site.URL, "/en/class/"+code+"/answer", vote, sid); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("another client's answer: %d", res.StatusCode)
	}
	if counts, _ := site.class.Counts(context.Background(), code, cp, 3); counts[1] != 1 {
		t.Errorf("counts %v, want the one real vote", counts)
	}
	if _, joined, _ := barCounts(t, site.URL, code, teacher); joined != 1 {
		t.Errorf("%d joined, want 1", joined)
	}
}

// TestClassLock: the teacher locks the room: no one new joins (a new
// phone, an identity from another class), students who joined keep
// following and answering; a student cannot lock it; unlocked, new
// students join again.
func TestClassLock(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	ask, _, cp := webtest.FencingAsk(t)
	code, teacher := startClass(t, site.URL, "en", ask.Do, ask.Opt)
	other, _ := startClass(t, site.URL, "en", "", "")
	in := joinClass(t, site.URL, "en", code)
	elsewhere := joinClass(t, site.URL, "en", other) // an identity that never joined this class
	lock := func(on string, who *http.Cookie) int {
		return webtest.Post(t, site.URL, "/en/class/"+code+"/lock", url.Values{"lock": {on}, "do": {ask.Do}, "opt": {ask.Opt}}, who).StatusCode
	}
	if got := lock("1", in); got != http.StatusForbidden {
		t.Fatalf("a student locked the class: %d", got)
	}
	if got := lock("2", teacher); got != http.StatusBadRequest {
		t.Errorf("lock=2: %d, want 400", got)
	}
	// a phone that opened the class once (its first page, not counted
	// yet: its cookie has not come back) before the lock
	var firstVisit *http.Cookie
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code); res.StatusCode == http.StatusOK {
		for _, ck := range res.Cookies() {
			if ck.Name == "locklab_sid" {
				firstVisit = ck
			}
		}
	}
	if firstVisit == nil {
		t.Fatal("a first visit got no student cookie")
	}
	if got := lock("1", teacher); got != http.StatusSeeOther {
		t.Fatalf("lock: %d", got)
	}
	// it is let in after the lock: from where it sits it had joined (a
	// fresh reader's phone without scripts, shut out on its Refresh)
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code, firstVisit); res.StatusCode != http.StatusOK {
		t.Errorf("a phone that opened the class before the lock, on its Refresh: %d, want 200", res.StatusCode)
	}
	if _, _, bar := barCounts(t, site.URL, code, teacher); !strings.Contains(bar, `id="cb-locked"`) || !strings.Contains(bar, i18n.For("en").Class.UnlockBtn) {
		t.Error("the teacher's bar does not say the class is locked, with a way to unlock it")
	}
	// a new phone is told why, in its language, and offered the class's
	// address again (for once the teacher reopens it) and the lesson
	for _, lang := range []string{"ja", "zh", "en"} {
		lockedPage(t, site.URL, "/"+lang+"/class/"+code, lang, code)
	}
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code, elsewhere); res.StatusCode != http.StatusForbidden {
		t.Errorf("another class's student in a locked class: %d, want 403", res.StatusCode)
	}
	if res, body := send(t, http.DefaultClient, site.URL, "/en/class/"+code+"/answer", url.Values{"step": {strconv.Itoa(cp)}, "choice": {"1"}}, elsewhere); res.StatusCode != http.StatusForbidden ||
		!strings.Contains(body, `id="try-again" href="/en/class/`+code+`"`) {
		t.Errorf("another class's student answering in a locked class: %d, want 403 with the class's address to try again", res.StatusCode)
	}
	// the student who joined before goes on
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code, in); res.StatusCode != http.StatusOK {
		t.Errorf("a student of a locked class: %d", res.StatusCode)
	}
	if res := webtest.Post(t, site.URL, "/en/class/"+code+"/answer", url.Values{"step": {strconv.Itoa(cp)}, "choice": {"1"}}, in); res.StatusCode != http.StatusSeeOther {
		t.Errorf("a student of a locked class answering: %d", res.StatusCode)
	}
	if s := openSSE(t, http.DefaultClient, site.URL, "/en/class/"+code+"/events", "", in); s.status != http.StatusOK {
		t.Errorf("a student of a locked class, their stream: %d", s.status)
	}
	if n := members(t, rdb, code); n != 2 {
		t.Errorf("%d members of the locked class, want 2 (the student in, the first visit come back)", n)
	}
	if got := lock("0", teacher); got != http.StatusSeeOther {
		t.Fatalf("unlock: %d", got)
	}
	joinClass(t, site.URL, "ja", code)
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code, elsewhere); res.StatusCode != http.StatusOK {
		t.Errorf("after unlocking, another class's student: %d", res.StatusCode)
	}
	if _, joined, _ := barCounts(t, site.URL, code, teacher); joined != 4 {
		t.Errorf("%d joined, want 4", joined)
	}
}

// lockedPage checks the page a phone that has not joined gets at path
// in locked class code: a 403 in lang saying why, titled as the site's
// pages are, with the class's address to try again and the lesson to
// study alone.
func lockedPage(t *testing.T, site, path, lang, code string) {
	t.Helper()
	u := i18n.For(lang)
	cu := u.Class
	res, body := webtest.GetPage(t, site, path)
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("a new phone in a locked class (%s): %d, want 403", lang, res.StatusCode)
	}
	for what, want := range map[string]string{
		"the title":                 "<title>" + html.EscapeString(cu.LockedTitle+" — "+u.SiteName) + "</title>",
		"the heading":               "<h1>" + html.EscapeString(cu.LockedTitle) + "</h1>",
		"why, and what to do":       html.EscapeString(cu.LockedText),
		"the class's address again": `id="try-again" href="/` + lang + `/class/` + code + `">` + html.EscapeString(cu.TryAgain) + `</a>`,
		"the lesson to study alone": `id="study-alone" href="/` + lang + `/lessons/fencing">` + html.EscapeString(cu.StudyAlone) + `</a>`,
		"the way home":              `<a href="/` + lang + `/">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the locked class's page in %s lacks %s: %q", lang, what, want)
		}
	}
}

// TestClassLockWords (the fresh readers of the joined count and the
// lock, in each language): the lobby writes out what "joined" counts as
// it does "connected" (a tooltip reaches no touch screen, projector or
// screen reader), with the lock's own hint, and says to lock once
// everyone is in only while anyone may still join. Locked, the join
// address and the QR code say that joining is closed and how to reopen
// it (the QR dimmed) and the lobby no longer tells students to scan;
// after the start the strip marks the address and its QR fold says the
// same; unlocked, all of it is gone again.
func TestClassLockWords(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	hintRE := regexp.MustCompile(`<p class="hint cb-joined-hint" id="cb-joined-hint">([^<]*)</p>`)
	for _, lang := range []string{"en", "ja", "zh"} {
		cu := i18n.For(lang).Class
		code, teacher := startClass(t, site.URL, lang, "", "")
		joinClass(t, site.URL, lang, code)
		bar := func() string {
			t.Helper()
			_, b := webtest.GetPage(t, site.URL, "/"+lang+"/class/"+code+"/bar", teacher)
			return b
		}
		post := func(path string, form url.Values) {
			t.Helper()
			if res := webtest.Post(t, site.URL, "/"+lang+"/class/"+code+path, form, teacher); res.StatusCode != http.StatusSeeOther {
				t.Fatalf("%s %s: %d", lang, path, res.StatusCode)
			}
		}
		lock := func(on string) { post("/lock", url.Values{"lock": {on}, "do": {""}, "opt": {""}}) }
		check := func(when, page string, want map[string]bool) {
			t.Helper()
			for s, in := range want {
				if strings.Contains(page, s) != in {
					t.Errorf("%s, %s: has %q = %v, want %v", lang, when, s, !in, in)
				}
			}
			// the tip to lock only while anyone may still join
			hint := i18n.Sentences(cu.JoinedHint, cu.JoinedLockTip)
			if strings.HasSuffix(when, "locked") {
				hint = cu.JoinedHint
			}
			if h := hintRE.FindStringSubmatch(page); h == nil {
				t.Errorf("%s, %s: the joined count's hint is not written out", lang, when)
			} else if h[1] != html.EscapeString(hint) {
				t.Errorf("%s, %s: the joined count's hint reads %q, want %q", lang, when, h[1], hint)
			}
		}
		closed := html.EscapeString(cu.ClosedNote)
		open := bar()
		check("the lobby, open", open, map[string]bool{
			`id="cb-joined" aria-describedby="cb-joined-hint">` + html.EscapeString(i18n.Fill(cu.Joined, "1")) + `<`: true,
			`title="` + html.EscapeString(cu.JoinedHint):                                                             false,
			`id="cb-lockhint">` + html.EscapeString(cu.LockHint) + `<`:                                               true,
			html.EscapeString(cu.LobbyHint):                                                                          true,
			closed:                                                                                                   false,
			`class="qr closed"`:                                                                                      false,
		})
		lock("1")
		check("the lobby, locked", bar(), map[string]bool{
			closed:                                true,
			`class="qr closed"`:                   true,
			html.EscapeString(cu.LobbyHint):       false,
			html.EscapeString(cu.LobbyHintLocked): true,
			html.EscapeString(cu.UnlockBtn):       true,
		})
		post("/move", url.Values{"do": {""}, "opt": {""}, "start": {"1"}})
		check("the strip, locked", bar(), map[string]bool{
			`id="cb-closedmark">` + html.EscapeString(cu.JoinClosed) + `<`: true,
			html.EscapeString(cu.JoinAt) + ` <a`:                           false,
			`<div class="cb-qrbox"><img class="qr closed"`:                 true,
			closed: true,
		})
		lock("0")
		check("the strip, open again", bar(), map[string]bool{
			`id="cb-closedmark"`:                 false,
			html.EscapeString(cu.JoinAt) + ` <a`: true,
			`class="qr closed"`:                  false,
			closed:                               false,
			`id="cb-lockhint">` + html.EscapeString(cu.LockHint) + `<`: true,
		})
	}
}

// classMaker starts classes on site as the browser c, and reads what
// came back.
type classMaker struct {
	t    *testing.T
	site string
}

func (m classMaker) create(c *http.Client, cookies ...*http.Cookie) (*http.Response, string) {
	return send(m.t, c, m.site, "/ja/class", url.Values{"lesson": {"fencing"}}, cookies...)
}

// made is the code and teacher's cookie of the class res started.
func (m classMaker) made(res *http.Response, _ string) (string, *http.Cookie) {
	m.t.Helper()
	if res.StatusCode != http.StatusSeeOther {
		m.t.Fatalf("create: %d", res.StatusCode)
	}
	ck := webtest.CookieNamed(res, class.TeacherPrefix)
	return strings.TrimPrefix(ck.Name, class.TeacherPrefix), ck
}

// TestClassRoomsPerClient (F2): one client holds at most its share of
// the live classes (429), then every client meets the server's cap
// (503).
func TestClassRoomsPerClient(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site, _ := newOwnSite(t, rdb, class.Limits{Rooms: 3, RoomsPerClient: 2}, nil)
	m := classMaker{t, site.URL}
	a, b, c := clientAt("198.51.100.1"), clientAt("198.51.100.2"), clientAt("198.51.100.3")
	m.made(m.create(a))
	m.made(m.create(a))
	jc := i18n.For("ja").Class
	if res, body := m.create(a); res.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, html.EscapeString(jc.RoomsClientTitle)) {
		t.Fatalf("a client's third class: %d, want 429 %q", res.StatusCode, jc.RoomsClientTitle)
	}
	m.made(m.create(b))
	if res, body := m.create(c); res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, html.EscapeString(jc.RoomsTitle)) {
		t.Fatalf("past the server's cap: %d, want 503 %q", res.StatusCode, jc.RoomsTitle)
	}
}

// TestClassIdleGivesBack (F2, F18): a class nobody attends gives its
// place back after Unattended — one nobody joined ends, one in use
// keeps running for its teacher — and a browser's next class forgets
// its key to the class that is gone.
func TestClassIdleGivesBack(t *testing.T) {
	rdb, mr := webtest.MiniRDB(t)
	site, clk := newOwnSite(t, rdb, class.Limits{Rooms: 2, Unattended: 10 * time.Minute}, nil)
	m := classMaker{t, site.URL}
	a, c := clientAt("198.51.100.1"), clientAt("198.51.100.3")
	used, usedKey := m.made(m.create(a))
	unused, unusedKey := m.made(m.create(a))
	joinClass(t, site.URL, "en", used) // a student: this class is in use
	if res, _ := m.create(c); res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("past the server's cap: %d, want 503", res.StatusCode)
	}
	// nobody moves, nobody streams: the places come back, and a's next
	// class forgets the browser's key to the class that is gone (the one
	// to the class in use is kept)
	clk.add(11 * time.Minute)
	mr.FastForward(11 * time.Minute)
	res, _ := m.create(a, usedKey, unusedKey)
	if res.StatusCode != http.StatusSeeOther {
		t.Errorf("classes nobody attended for 11 minutes still hold their places: %d", res.StatusCode)
	}
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+unused+"/teach", unusedKey); res.StatusCode != http.StatusNotFound {
		t.Errorf("a class nobody joined, unattended: %d, want 404 (ended)", res.StatusCode)
	}
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+used+"/teach", usedKey); res.StatusCode != http.StatusOK {
		t.Errorf("a class in use, unattended for a while: %d, want its teacher's page", res.StatusCode)
	}
	for _, ck := range res.Cookies() {
		switch ck.Name {
		case unusedKey.Name:
			if ck.MaxAge >= 0 {
				t.Errorf("the key to a class that is gone is kept: %+v", ck)
			}
		case usedKey.Name:
			t.Errorf("the key to a class in use was touched: %+v", ck)
		}
	}
	if !strings.Contains(strings.Join(res.Header.Values("Set-Cookie"), "\n"), unusedKey.Name+"=;") {
		t.Error("no Set-Cookie clears the key to the class that is gone")
	}
}

// TestClassStreamsPerClient (F5): one client holds at most its share of
// an instance's live streams (429), then every client meets the
// instance's cap (503).
func TestClassStreamsPerClient(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site, _ := newOwnSite(t, rdb, class.Limits{Streams: 4, StreamsPerClient: 2}, nil)
	code, _ := startClass(t, site.URL, "en", "", "")
	a, b, c := clientAt("198.51.100.1"), clientAt("198.51.100.2"), clientAt("198.51.100.3")
	path := "/en/class/" + code + "/events"
	for i := range 2 {
		if s := openSSE(t, a, site.URL, path, ""); s.status != http.StatusOK {
			t.Fatalf("a's stream %d: %d", i+1, s.status)
		}
	}
	if s := openSSE(t, a, site.URL, path, ""); s.status != http.StatusTooManyRequests {
		t.Errorf("a client's third stream: %d, want 429", s.status)
	}
	for i := range 2 {
		if s := openSSE(t, b, site.URL, path, ""); s.status != http.StatusOK {
			t.Fatalf("b's stream %d: %d", i+1, s.status)
		}
	}
	if s := openSSE(t, c, site.URL, path, ""); s.status != http.StatusServiceUnavailable {
		t.Errorf("past the instance's cap: %d, want 503", s.status)
	}
}

// TestClassPredictionCountsAsSent (F9): in a class, a predict challenge's
// answer is recorded when it is sent (a POST), and the first one sent is
// the one that counts; a GET ?answer= does not show the verdict to a
// phone that has not answered.
func TestClassPredictionCountsAsSent(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site := newClassSite(t, rdb, class.Limits{})
	code, teacher := startClass(t, site.URL, "en", "", "")
	webtest.Post(t, site.URL, "/en/class/"+code+"/move", url.Values{"do": {""}, "opt": {""}, "start": {"1"}}, teacher)
	sid := joinClass(t, site.URL, "en", code)
	base := "/en/class/" + code
	pch, pres := challengeOf(t, "fe-two-pauses")
	if res := webtest.Post(t, site.URL, base+"/pose", url.Values{"id": {pch.ID}}, teacher); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("pose: %d", res.StatusCode)
	}
	right, wrong := "no", "yes"
	if pres.Found[pch.Goal] != nil {
		right, wrong = wrong, right
	}
	at := base + "/challenge/" + pch.ID
	// a peek: the verdict is not shown before an answer was sent
	res, page := webtest.GetPage(t, site.URL, at+"?answer="+right, sid)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != at || strings.Contains(page, "data-solved=") {
		t.Fatalf("?answer=%s before any answer was sent: %d to %q, want a redirect to the question", right, res.StatusCode, res.Header.Get("Location"))
	}
	_, page = webtest.GetPage(t, site.URL, at, sid)
	if !regexp.MustCompile(`<form[^>]*method="post"[^>]*action="`+regexp.QuoteMeta(base+"/tell")+`"`).MatchString(page) ||
		!strings.Contains(page, `name="answer" value="yes"`) {
		t.Fatal("the class's question is not a form that sends the answer to the class")
	}
	// the first answer sent is kept; sending the other one changes nothing
	if r := webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {pch.ID}, "answer": {wrong}}, sid); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("answer: %d", r.StatusCode)
	}
	if r := webtest.Post(t, site.URL, base+"/tell", url.Values{"challenge": {pch.ID}, "answer": {right}}, sid); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("second answer: %d", r.StatusCode)
	}
	if got := tally(t, site.URL, code, teacher); !strings.Contains(got, "Solved: 0") || !strings.Contains(got, "1 predicted wrong") {
		t.Errorf("the tally %q, want the first answer (wrong) only", got)
	}
	if _, page := webtest.GetPage(t, site.URL, at+"?answer="+wrong, sid); !strings.Contains(page, "Your class has your result: predicted wrong.") {
		t.Error("after answering, the phone does not say what the class has")
	}
}

// TestClassLockNotPastCollectedIDs: ids handed out by first visits are no
// way past the lock (security retest N1: 100 collected before the lock
// all came in and voted after it). A first visit counts only within the
// grace a phone needs to send its cookie back; one given the page longer
// before the lock is a new phone, shut out like any other.
func TestClassLockNotPastCollectedIDs(t *testing.T) {
	rdb, _ := webtest.MiniRDB(t)
	site, clk := newOwnSite(t, rdb, class.Limits{}, nil)
	code, teacher := startClass(t, site.URL, "en", "", "")
	firstVisit := func() *http.Cookie {
		t.Helper()
		res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code)
		for _, ck := range res.Cookies() {
			if ck.Name == "locklab_sid" {
				return ck
			}
		}
		t.Fatalf("a first visit got no student cookie (%d)", res.StatusCode)
		return nil
	}
	collected := firstVisit()
	clk.add(3 * time.Minute)
	recent := firstVisit()
	clk.add(30 * time.Second)
	if got := webtest.Post(t, site.URL, "/en/class/"+code+"/lock", url.Values{"lock": {"1"}, "do": {""}, "opt": {""}}, teacher).StatusCode; got != http.StatusSeeOther {
		t.Fatalf("lock: %d", got)
	}
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code, collected); res.StatusCode != http.StatusForbidden {
		t.Errorf("an id given 3.5 minutes before the lock: %d, want 403", res.StatusCode)
	}
	if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code, recent); res.StatusCode != http.StatusOK {
		t.Errorf("a phone given the page 30 s before the lock, on its Refresh: %d, want 200", res.StatusCode)
	}
	// ids collected by the dozen within the grace: a few come in, as the
	// room's own late phones would, the rest are new phones
	if got := webtest.Post(t, site.URL, "/en/class/"+code+"/lock", url.Values{"lock": {"0"}, "do": {""}, "opt": {""}}, teacher).StatusCode; got != http.StatusSeeOther {
		t.Fatalf("unlock: %d", got)
	}
	var many []*http.Cookie
	for range 24 {
		many = append(many, firstVisit())
	}
	if got := webtest.Post(t, site.URL, "/en/class/"+code+"/lock", url.Values{"lock": {"1"}, "do": {""}, "opt": {""}}, teacher).StatusCode; got != http.StatusSeeOther {
		t.Fatalf("lock again: %d", got)
	}
	in := 0
	for _, ck := range many {
		if res, _ := webtest.GetPage(t, site.URL, "/en/class/"+code, ck); res.StatusCode == http.StatusOK {
			in++
		}
	}
	if in > 4 { // five late phones in all, the recent one above among them
		t.Errorf("%d of 24 ids collected in the grace came in after the lock, want at most 4 more", in)
	}
	if n := members(t, rdb, code); n > 6 {
		t.Errorf("%d joined, want at most 6", n)
	}
}

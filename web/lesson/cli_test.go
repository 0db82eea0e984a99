package lesson_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"locklab/sim"
	"locklab/sim/luacheck"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
)

// TestCommandLine: a command typed in the form becomes one more action of
// the timeline's address (303 to it), in every language; the page then
// shows the operator's lane and Redis's real reply, and Undo takes it back.
func TestCommandLine(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		r := webtest.Get(t, h, "/"+lang+"/lessons/fencing?do=a.acquire,wait.4s&node=redis&cli="+url.QueryEscape("PTTL lock:order:42"))
		want := "/" + lang + "/lessons/fencing?do=a.acquire,wait.4s,cli.redis.PTTL%20lock:order:42"
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != want {
			t.Fatalf("%s: %d → %q, want 303 → %q", lang, r.Status, r.Header.Get("Location"), want)
		}
		page := webtest.MustGet(t, h, want)
		for _, s := range []string{">" + html.EscapeString(u.You) + "</text>", "PTTL lock:order:42", "(integer) 6000", `id="cli-input"`,
			`data-history="[&#34;PTTL lock:order:42&#34;]"`} {
			if !strings.Contains(page, s) {
				t.Errorf("%s: the page lacks %q", lang, s)
			}
		}
		if undo, ok := webtest.HrefOf(page, "undo"); !ok || undo != "/"+lang+"/lessons/fencing?do=a.acquire,wait.4s" {
			t.Errorf("%s: Undo → %q", lang, undo)
		}
		// A quoted argument with a comma keeps one canonical, readable form.
		r = webtest.Get(t, h, "/"+lang+"/lessons/fencing?do=a.acquire&node=storage&cli="+url.QueryEscape(`SET note "a, b"`))
		if loc := r.Header.Get("Location"); r.Status != http.StatusSeeOther || !strings.HasSuffix(loc, "cli.storage.SET%20note%20%22a%5Cx2c%20b%22") {
			t.Errorf("%s: a quoted comma → %d %q", lang, r.Status, loc)
		} else if p := webtest.Get(t, h, loc); p.Status != 200 || !strings.Contains(p.Body, "OK") {
			t.Errorf("%s: %s = %d", lang, loc, p.Status)
		}
	}
}

// hostileCLI is what a curious or hostile learner types.
var hostileCLI = []struct{ cli, node string }{
	{"BLPOP q 0", ""}, {"WAIT 1 0", ""}, {"SUBSCRIBE c", ""}, {"MULTI", ""}, {"MONITOR", ""}, {"CLIENT PAUSE 100000", ""},
	{"DEBUG SLEEP 10", ""}, {"SHUTDOWN NOSAVE", ""}, {"CONFIG SET maxmemory 1", ""}, {"FLUSHALL", ""}, {"SCRIPT KILL", ""},
	{"EVAL 'while true do end' 0", ""}, {"EVAL 'repeat until false' 0", ""}, {`GET "k`, ""}, {"GET 'k", ""},
	{"SET k " + strings.Repeat("x", 1<<20), ""}, {"SET k \"a\x00b\r\nc\"", ""}, {"GET k", "n9"}, {"HSET h f v", ""},
	{"EVAL \"return redis.call('GET'\x2c KEYS[1])\" 1 " + strings.Repeat("k", 400), ""},
}

// BenchmarkHostileCommands sends the hostile corpus, one request after
// another, and reports the slowest answer (the command line promises an
// answer within a second, whatever is typed):
//
//	go test ./web/lesson -run '^$' -bench HostileCommands -benchtime 3x
func BenchmarkHostileCommands(b *testing.B) {
	h := sitetest.Default(b)
	slowest := time.Duration(0)
	for b.Loop() {
		for _, tc := range hostileCLI {
			q := url.Values{"cli": {tc.cli}}
			if tc.node != "" {
				q.Set("node", tc.node)
			}
			start := time.Now()
			r := webtest.Get(b, h, "/en/lessons/fencing?do=a.acquire&"+q.Encode())
			if r.Status == http.StatusSeeOther {
				webtest.Get(b, h, r.Header.Get("Location"))
			}
			slowest = max(slowest, time.Since(start))
		}
		start := time.Now()
		webtest.Get(b, h, "/en/lessons/fencing?do=a.acquire"+strings.Repeat(",cli.redis.GET%20k", 180))
		slowest = max(slowest, time.Since(start))
	}
	b.ReportMetric(float64(slowest.Microseconds())/1000, "slowest-ms")
}

// TestCommandLineHostile: what the command line must not send — blocking,
// mode-changing and administrative commands, runaway scripts, huge
// arguments, NUL and CR/LF, unbalanced quotes, thousands of commands in
// one address — answers with a 4xx page in the page's language (or, for a
// command Redis itself refuses, its error reply on the timeline), never a
// 5xx; and the next ordinary request is answered as before.
func TestCommandLineHostile(t *testing.T) {
	h := sitetest.Default(t)
	many := strings.Repeat(",cli.redis.GET+k", 2000)
	for _, lang := range i18n.Codes() {
		base := "/" + lang + "/lessons/fencing?do=a.acquire"
		for _, tc := range hostileCLI {
			q := url.Values{"cli": {tc.cli}}
			if tc.node != "" {
				q.Set("node", tc.node)
			}
			r := webtest.Get(t, h, base+"&"+q.Encode())
			if r.Status >= 500 {
				t.Errorf("%s %.40q: %d", lang, tc.cli, r.Status)
			}
			if r.Status == http.StatusSeeOther {
				if f := webtest.Get(t, h, r.Header.Get("Location")); f.Status >= 500 {
					t.Errorf("%s %.40q → %s: %d", lang, tc.cli, r.Header.Get("Location"), f.Status)
				}
			}
		}
		for _, do := range []string{"a.acquire" + many, "a.acquire,cli.redis.GET+%22k", "cli.redis.EVAL+%22while+true+do+end%22+0",
			"cli.redis.GET+k%00,cli.redis.GET+%22a%0D%0Ab%22", "cli.redis.INCR+lock:order:42"} {
			r := webtest.Get(t, h, "/"+lang+"/lessons/fencing?do="+do)
			if r.Status >= 500 {
				t.Errorf("%s do=%.60s: %d", lang, do, r.Status)
			}
		}
		if r := webtest.Get(t, h, "/"+lang+"/lessons/fencing?do=a.acquire,cli.redis.GET%20lock:order:42"); r.Status != 200 {
			t.Errorf("%s: after the hostile ones, an ordinary command: %d", lang, r.Status)
		}
	}
	// A refused command says why, in the page's language, and offers the
	// way back to the timeline it was typed on.
	for _, lang := range i18n.Codes() {
		r := webtest.Get(t, h, "/"+lang+"/lessons/fencing?do=a.acquire&cli=BLPOP+q+0")
		text := i18n.Fill(i18n.For(lang).ErrorText[sim.CodeCmdBlocking], "BLPOP q 0", "BLPOP")
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, html.EscapeString(text)) || !strings.Contains(r.Body, `href="/`+lang+`/lessons/fencing?do=a.acquire"`) {
			t.Errorf("%s: BLPOP: %d, or no reason, or no way back", lang, r.Status)
		}
	}
}

// TestCommandLineAnswersAsRedis: a name that is no Redis command is sent
// and its row shows Redis's own error, the name as typed (issue 44); a
// script the checker refuses is explained by the checker's own reason,
// placed at its line and column, in the page's language, with a 400.
func TestCommandLineAnswersAsRedis(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		r := webtest.Get(t, h, "/"+lang+"/lessons/fencing?do=a.acquire&node=redis&cli="+url.QueryEscape("foo bar"))
		if r.Status != http.StatusSeeOther {
			t.Fatalf("%s: foo bar → %d", lang, r.Status)
		}
		p := webtest.Get(t, h, r.Header.Get("Location"))
		if want := html.EscapeString("(error) ERR unknown command 'foo', with args beginning with: 'bar' "); p.Status != 200 || !strings.Contains(p.Body, want) {
			t.Errorf("%s: the row lacks %q (%d)", lang, want, p.Status)
		}
		r = webtest.Get(t, h, "/"+lang+"/lessons/fencing?do=a.acquire&node=redis&cli="+url.QueryEscape("EVAL 'local n = 1\nwhile true do end' 0"))
		why := u.ScriptError(&luacheck.Error{Line: 2, Col: 1, Code: luacheck.CodeLoop, Arg: "while"})
		if r.Status != http.StatusBadRequest || !strings.Contains(html.UnescapeString(r.Body), why) {
			t.Errorf("%s: a refused script → %d, the page lacks %q", lang, r.Status, why)
		}
		// nothing typed is lost: the timeline it was typed on, the line
		// in the input, the server chosen, and no cache may keep it
		line := "EVAL 'local n = 1\nwhile true do end' 0"
		for _, want := range []string{`id="lab"`, `id="cli-refused"`, `aria-invalid="true"`, `value="` + html.EscapeString(line) + `"`,
			`<option value="redis" selected`, "9585e7f36335ceb2fcfb" /* A's value: the timeline of do=a.acquire */} {
			if !strings.Contains(r.Body, want) {
				t.Errorf("%s: the refusal's page lacks %q", lang, want)
			}
		}
		if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("%s: a refusal is cached: %q", lang, cc)
		}
		// a write the storage answers with an error was not refused by its
		// token check: the row says what happened (a reader found "token 1
		// refused" beside WRONGTYPE)
		p = webtest.Get(t, h, "/"+lang+"/lessons/fencing?do=a.acquire,cli.storage.RPUSH%20data:order:42:token%2099,a.write")
		if p.Status != 200 || !strings.Contains(p.Body, html.EscapeString(u.NotWritten)) || strings.Contains(p.Body, html.EscapeString(i18n.Fill(u.Token, "1")+" "+u.Rejected)) {
			t.Errorf("%s: the WRONGTYPE write's note (%d)", lang, p.Status)
		}
	}
}

// TestTryItStays: a "Try it yourself" in two parts (type a command,
// wait, type it again) keeps its note on the page while the learner
// does it: off the path only by typed commands and waits, the step's
// notes stay (a reader found the second half gone after the first
// command); off the path by a client's action, they go.
func TestTryItStays(t *testing.T) {
	h := sitetest.Default(t)
	base := "/en/lessons/ttl?do=a.acquire,a.pause"
	for _, c := range []struct {
		add  string
		keep bool
	}{
		{",cli.redis.PTTL%20lock:order:42", true},
		{",cli.redis.PTTL%20lock:order:42,wait.5s,cli.redis.PTTL%20lock:order:42", true},
		{",b.acquire", false},
	} {
		body := webtest.MustGet(t, h, base+c.add)
		if got := strings.Contains(body, "Try it yourself: type"); got != c.keep {
			t.Errorf("%s: the Try it yourself note shown %v, want %v", c.add, got, c.keep)
		}
	}
}

package design_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"html"
	"image/png"
	"locklab/web/design"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/web/gocode"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/picture"
)

// designCell finds the link of one kind's counterexample in the grade's
// column for that many clients (2 or 3).
func designCell(body string, kind sim.ViolationKind, clients int) (string, bool) {
	m := regexp.MustCompile(`(?s)<tr data-kind="` + string(kind) + `"[^>]*>(.*?)</tr>`).FindStringSubmatch(body)
	if m == nil {
		return "", false
	}
	cells := regexp.MustCompile(`(?s)<td>(.*?)</td>`).FindAllStringSubmatch(m[1], -1)
	i := 1 + clients - 2 // the meaning, then 2 clients, 3 clients
	if i >= len(cells) {
		return "", false
	}
	h := regexp.MustCompile(`href="([^"]+)"`).FindStringSubmatch(cells[i][1])
	if h == nil {
		return "", false
	}
	return html.UnescapeString(h[1]), true
}

// TestDesignSafeDefault: the default design (SET NX PX, compare-and-
// delete, fenced storage) gets no harm and no failure of the lock with
// two or three clients, only what every lease allows (a holder outliving
// its lease), and the page says so within its bounds, never as a proof —
// in both languages.
func TestDesignSafeDefault(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		body := webtest.MustGet(t, h, "/"+lang+"/lab/design")
		if !strings.Contains(body, html.EscapeString(i18n.For(lang).Verdict.Allowed)) || !strings.Contains(body, html.EscapeString(i18n.For(lang).Verdict.Within)) {
			t.Errorf("%s: the safe design is not graded safe within bounds", lang)
		}
		for _, k := range sim.Kinds {
			_, found := designCell(body, k, 2)
			if want := k == sim.Overlap || k == sim.LateWrite; found != want {
				t.Errorf("%s: the safe design: %s found %v, want %v", lang, k, found, want)
			}
		}
		if strings.Contains(strings.ToLower(body), "proven") || strings.Contains(body, "証明済") {
			t.Errorf("%s: the grade claims a proof", lang)
		}
	}
}

// TestDesignBrokenRelease: a learner turns the safe release into a plain
// DEL (typing the script, as the form sends it); the page redirects to the
// canonical link (the preset by name), grades it, and the counterexample
// link opens a timeline whose event log and "scripts used" show the
// learner's script and whose "what went wrong" names the deleted lock.
func TestDesignBrokenRelease(t *testing.T) {
	h := sitetest.Default(t)
	del, _ := lockdesign.PresetNamed(sim.PieceRelease, lockdesign.EffectSet, "del")
	for _, lang := range i18n.Codes() {
		r := webtest.Get(t, h, "/"+lang+"/lab/design?release="+url.QueryEscape(strings.ReplaceAll(del.Script, "\n", "\r\n")))
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/"+lang+"/lab/design?release=del" {
			t.Fatalf("%s: the typed preset = %d → %q, want a redirect to release=del", lang, r.Status, r.Header.Get("Location"))
		}
		body := webtest.MustGet(t, h, "/"+lang+"/lab/design?release=del")
		link, ok := designCell(body, sim.ForeignDelete, 2)
		if !ok {
			t.Fatalf("%s: plain DEL: no lock deleted by someone else with 2 clients", lang)
		}
		run := webtest.MustGet(t, h, link)
		if !strings.Contains(run, "‹release.lua›") || !strings.Contains(run, html.EscapeString("return redis.call('DEL', KEYS[1])")) {
			t.Errorf("%s: the counterexample does not show the learner's release script", lang)
		}
		if !strings.Contains(run, html.EscapeString(i18n.Fill(i18n.For(lang).ViolationText[sim.ForeignDelete], "A", "B"))) {
			t.Errorf("%s: the counterexample does not show the deleted lock", lang)
		}
	}
}

// TestDesignCustomScript: a script of the learner's own travels as text
// in the link and runs; one that fails at run time shows Redis's error
// reply on the timeline, not an error page.
func TestDesignCustomScript(t *testing.T) {
	h := sitetest.Default(t)
	src := "-- mine\nlocal n = redis.call('GET', KEYS[1]) + 1\nreturn n"
	q := "release=" + links.QueryValue(src)
	body := webtest.MustGet(t, h, "/en/lab/design?"+q)
	if !strings.Contains(body, html.EscapeString("local n = redis.call('GET', KEYS[1]) + 1")) {
		t.Errorf("the page does not show the learner's script")
	}
	run := webtest.MustGet(t, h, "/en/lab/design/run?"+q+"&clients=2&do=a.acquire,a.release")
	if !strings.Contains(run, "(error)") {
		t.Errorf("the runtime error is not on the timeline")
	}
}

// TestDesignEffect: what the write does decides whether a resent write
// is a finding. With the default (the write sets the record) the token
// policy "not lower" is safe; with effect=add the same policy gets a
// write applied twice whose counterexample shows the lost reply and the resent
// write, each a real EVAL, and "greater only" gets none. Choosing "add"
// in the form while the box holds a preset's "set" text swaps in the
// preset's "add" text. In both languages.
func TestDesignEffect(t *testing.T) {
	h := sitetest.Default(t)
	fenced, _ := lockdesign.PresetNamed(sim.PieceWrite, lockdesign.EffectSet, "fenced")
	for _, lang := range i18n.Codes() {
		u, du := i18n.For(lang), i18n.For(lang).Design
		body := webtest.MustGet(t, h, "/"+lang+"/lab/design")
		if strings.Contains(body, `data-kind="repeated-write"`) {
			t.Errorf("%s: the default design's write sets the record, so it cannot be applied twice, yet the grade has a row for it", lang)
		}
		if !strings.Contains(body, html.EscapeString(du.EffectBound[lockdesign.EffectSet])) || !strings.Contains(body, `name="effect"`) {
			t.Errorf("%s: the default design does not say what its write does", lang)
		}
		add := webtest.MustGet(t, h, "/"+lang+"/lab/design?effect=add")
		if !strings.Contains(add, html.EscapeString(du.EffectBound[lockdesign.EffectAdd])) {
			t.Errorf("%s: effect=add: the bounds do not say the write adds", lang)
		}
		if !strings.Contains(add, "INCRBY") || !strings.Contains(add, "const amount = 1") {
			t.Errorf("%s: effect=add: the write preset or the Go code does not add", lang)
		}
		for _, n := range []int{2, 3} {
			link, ok := designCell(add, sim.RepeatedWrite, n)
			if !ok {
				t.Fatalf("%s: effect=add, token not lower: no write applied twice with %d clients", lang, n)
			}
			if !strings.HasSuffix(link, "do=a.acquire,a.drop,a.write,a.next") {
				t.Errorf("%s: %d clients: the shortest write applied twice is %s", lang, n, link)
			}
			if n > 2 {
				continue
			}
			run := webtest.MustGet(t, h, link)
			lost := html.EscapeString(i18n.Fill(u.LostReply, "A"))
			i := strings.Index(run, lost)
			if i < 0 || !strings.Contains(run[i:], "‹write.lua›") || !strings.Contains(run, html.EscapeString(u.DropWriteNote)) {
				t.Errorf("%s: the counterexample does not show the lost reply and the resent write", lang)
			}
			if !strings.Contains(run, html.EscapeString(i18n.Fill(u.ViolationText[sim.RepeatedWrite], "A"))) {
				t.Errorf("%s: the counterexample does not say what broke", lang)
			}
		}
		strict := webtest.MustGet(t, h, "/"+lang+"/lab/design?write=strict&effect=add")
		if _, ok := designCell(strict, sim.RepeatedWrite, 2); ok || !strings.Contains(strict, html.EscapeString(u.Verdict.Allowed)) {
			t.Errorf("%s: effect=add, greater only: not safe", lang)
		}
		r := webtest.Get(t, h, "/"+lang+"/lab/design?write="+url.QueryEscape(strings.ReplaceAll(fenced.Script, "\n", "\r\n"))+"&effect=add")
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/"+lang+"/lab/design?effect=add" {
			t.Errorf("%s: switching the effect with the preset's text = %d → %q, want effect=add", lang, r.Status, r.Header.Get("Location"))
		}
	}
}

// TestDesignRenew: a design whose renewal carries on after a failed
// extend (renew=carry) says so in its form and its Go code, and its grade
// finds the write a paused holder makes after its extend failed, with no
// lost reply needed (with renew=stop the same design needs one); with no
// extend there is nothing to fail, and the link drops renew=.
func TestDesignRenew(t *testing.T) {
	h := sitetest.Default(t)
	const q = "?extend=compare-pexpire&write=none"
	for _, lang := range i18n.Codes() {
		du := i18n.For(lang).Design
		carry := webtest.MustGet(t, h, "/"+lang+"/lab/design"+q+"&renew=carry")
		if !regexp.MustCompile(`<option value="carry" selected>`).MatchString(carry) || !strings.Contains(carry, html.EscapeString(du.RenewLabel[lockdesign.RenewCarry])) {
			t.Errorf("%s: renew=carry is not the chosen renewal", lang)
		}
		if !strings.Contains(carry, "renew = false") {
			t.Errorf("%s: renew=carry: the Go code does not carry on", lang)
		}
		stop := webtest.MustGet(t, h, "/"+lang+"/lab/design"+q)
		if !regexp.MustCompile(`<option value="stop" selected>`).MatchString(stop) || strings.Contains(stop, "renew = false") {
			t.Errorf("%s: the default renewal is not stop", lang)
		}
		for body, want := range map[string]string{
			carry: "do=a.acquire,a.pause,b.acquire,wait.10s,a.resume,b.write,a.write",
			stop:  "do=a.acquire,a.drop,a.write,a.pause,b.acquire,wait.10s,a.resume,b.write,a.next",
		} {
			if link, ok := designCell(body, sim.StaleWrite, 2); !ok || !strings.HasSuffix(link, want) {
				t.Errorf("%s: the shortest stale write is %q, want …%s", lang, link, want)
			}
		}
		// cut off from Redis, a 15 s job: its renewal's failure is said
		// where it happens, in the event log
		run := webtest.MustGet(t, h, "/"+lang+"/lab/design/run"+q+"&renew=carry&work=15s&clients=2&do=a.acquire,a.disconnect,a.write")
		if !strings.Contains(run, html.EscapeString(i18n.For(lang).Purpose[sim.PurposeRenewGaveUp])) {
			t.Errorf("%s: the event log does not say the renewal gave up", lang)
		}
		r := webtest.Get(t, h, "/"+lang+"/lab/design?renew=carry")
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/"+lang+"/lab/design" {
			t.Errorf("%s: renew=carry with no extend = %d → %q, want the default design", lang, r.Status, r.Header.Get("Location"))
		}
	}
}

// TestDesignBadInput: a script the checker refuses, a preset that does not
// exist, a TTL out of bounds and an unknown parameter get a 400 in the
// page's language naming the reason, and the form keeps what was typed,
// in the code editor, with the refused script marked: its reason beside
// it, the focus in it, and the line the checker named.
func TestDesignBadInput(t *testing.T) {
	h := sitetest.Default(t)
	for _, tc := range []struct {
		q, want, kept string
		piece         string // the piece marked ("": none)
		line          int
	}{
		{"release=" + url.QueryEscape("while true do end"), "while", "while true do end", "release", 1},
		{"acquire=" + url.QueryEscape("return redis.call('FLUSHALL')"), "FLUSHALL", "FLUSHALL", "acquire", 1},
		{"write=" + url.QueryEscape("local n = 1\nif then"), "then", "if then", "write", 2},
		{"release=nope", "nope", "", "release", 0},
		{"ttl=500ms", "", "", "", 0},
		{"colour=blue", "colour", "", "", 0},
		{"effect=twice", "twice", "", "", 0},
		{"extend=compare-pexpire&renew=sometimes", "sometimes", "", "", 0},
		{"release=" + url.QueryEscape(strings.Repeat("-- x\n", 600)), "2 KB", "", "release", 0},
	} {
		name := tc.q[:min(len(tc.q), 40)]
		for _, lang := range i18n.Codes() {
			r := webtest.Get(t, h, "/"+lang+"/lab/design?"+tc.q)
			if r.Status != http.StatusBadRequest {
				t.Errorf("%s %s = %d, want 400", lang, name, r.Status)
				continue
			}
			if !strings.Contains(r.Body, i18n.For(lang).Design.BadTitle) || !strings.Contains(r.Body, `<html lang="`+i18n.For(lang).Language().HTMLLang+`"`) {
				t.Errorf("%s %s: not a %s design error page", lang, name, lang)
			}
			if tc.want != "" && !strings.Contains(r.Body, html.EscapeString(tc.want)) {
				t.Errorf("%s %s: the reason does not name %q", lang, name, tc.want)
			}
			if tc.kept != "" && !strings.Contains(r.Body, html.EscapeString(tc.kept)) {
				t.Errorf("%s %s: the form lost what was typed", lang, name)
			}
			if !strings.Contains(r.Body, `<textarea`) || !strings.Contains(r.Body, "editor.min.js") {
				t.Errorf("%s %s: no form to fix it in, or no code editor for it", lang, name)
			}
			marked := regexp.MustCompile(`<fieldset class="piece bad" id="piece-(\w+)">`).FindAllStringSubmatch(r.Body, -1)
			switch {
			case tc.piece == "" && len(marked) > 0:
				t.Errorf("%s %s: the %s script is marked, for a reason that is no script's", lang, name, marked[0][1])
			case tc.piece != "" && (len(marked) != 1 || marked[0][1] != tc.piece):
				t.Errorf("%s %s: marked %v, want the %s script", lang, name, marked, tc.piece)
			case tc.piece != "":
				ta := regexp.MustCompile(`<textarea id="script-` + tc.piece + `"[^>]*>`).FindString(r.Body)
				for _, attr := range []string{`aria-invalid="true"`, `autofocus`, `aria-describedby="error-` + tc.piece + ` help-` + tc.piece + `"`, fmt.Sprintf(`data-error-line="%d"`, tc.line)} {
					if !strings.Contains(ta, attr) {
						t.Errorf("%s %s: the refused script's box %s lacks %s", lang, name, ta, attr)
					}
				}
				if !strings.Contains(r.Body, `<p class="piece-error" id="error-`+tc.piece+`">`) {
					t.Errorf("%s %s: no reason beside the refused script", lang, name)
				}
			}
		}
	}
}

// TestDesignQueryRoundTrip: every preset combination's canonical link
// reads back as the same design, and a long script goes compressed.
func TestDesignQueryRoundTrip(t *testing.T) {
	u := i18n.For("en")
	check := func(d *lockdesign.Design) {
		t.Helper()
		q := links.DesignQuery(d)
		vals, err := url.ParseQuery(q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		in, e := design.Parse(u, vals)
		if e != nil {
			t.Fatalf("%q: %s", q, e.Text)
		}
		if *in != *d {
			t.Errorf("%q reads back as another design", q)
		}
		if len(q) > links.DesignMaxLink {
			t.Errorf("%q is longer than %d", q, links.DesignMaxLink)
		}
		// A browser percent-encodes these in a query (the WHATWG URL
		// standard): a canonical link with one would come back changed.
		if strings.ContainsAny(q, "'\"<># `\\^{}|") {
			t.Errorf("%q has a character a browser rewrites", q)
		}
	}
	for _, p := range lockdesign.Presets {
		d := lockdesign.DefaultDesign()
		if p.Effect != "" {
			d.Effect = p.Effect
		}
		d.SetScript(p.Piece, p.Script)
		check(d)
	}
	d := lockdesign.DefaultDesign()
	long := "-- " + strings.Repeat("x=1; ", 340) + "\nreturn redis.call('DEL', KEYS[1])"
	for _, p := range []sim.Piece{sim.PieceAcquire, sim.PieceRelease, sim.PieceWrite} {
		d.SetScript(p, strings.Replace(long, "DEL', KEYS[1])", map[sim.Piece]string{
			sim.PieceAcquire: "SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])",
			sim.PieceRelease: "DEL', KEYS[1])",
			sim.PieceWrite:   "SET', KEYS[1], ARGV[2])"}[p], 1))
	}
	d.TTL, d.Work = 5000, 500
	check(d)
	carry := lockdesign.DefaultDesign()
	ext, _ := lockdesign.PresetNamed(sim.PieceExtend, lockdesign.EffectSet, "compare-pexpire")
	carry.SetScript(sim.PieceExtend, ext.Script)
	carry.Renew = lockdesign.RenewCarry
	check(carry)
	if !strings.Contains(links.DesignQuery(d), links.CompactPrefix) {
		t.Errorf("a long design did not go compressed")
	}
}

// TestDesignFromLessons: every lesson page links to the design page, and
// a lesson's variant opens there as its presets.
func TestDesignFromLessons(t *testing.T) {
	h := sitetest.Default(t)
	body := webtest.MustGet(t, h, "/en/lessons/fencing?opt=release.del")
	link, ok := webtest.HrefOf(body, "byol")
	if !ok || link != "/en/lab/design?release=del" {
		t.Errorf("fencing with release.del links to %q", link)
	}
	if _, ok := webtest.HrefOf(webtest.MustGet(t, h, "/ja/lab"), "byol"); !ok {
		t.Errorf("the Lab does not link to the design page")
	}
}

// TestDesignUIComplete: every language has words for every piece and
// preset but the libraries' (the kinds of failure: web/lab's TestFailuresComplete; the
// catalogs' strings: web/i18n's tests).
func TestDesignUIComplete(t *testing.T) {
	for _, lang := range i18n.Codes() {
		du := i18n.For(lang).Design
		for _, p := range lockdesign.Presets {
			if lockdesign.IsLibraryPreset(p) {
				continue // named after its library, in no language
			}
			if du.PresetLabel[p.Piece.Name()+"."+p.Name] == "" {
				t.Errorf("%s: no label for preset %s.%s", lang, p.Piece.Name(), p.Name)
			}
		}
		for _, p := range sim.Pieces {
			if du.PieceLabel[p.Name()] == "" || du.PieceHelp[p.Name()] == "" {
				t.Errorf("%s: no label for piece %s", lang, p.Name())
			}
		}
	}
}

// TestDesignHostileCorpus: every script of the checker's hostile corpus
// (sim/luacheck/testdata/hostile), sent as the piece it is written for,
// gets a 400 design page in the page's language that names where and why
// (or, for the 100 KB one, that the design is too long), never a 5xx.
func TestDesignHostileCorpus(t *testing.T) {
	h := sitetest.Default(t)
	files, _ := filepath.Glob("../../sim/luacheck/testdata/hostile/*.lua")
	if len(files) < 50 {
		t.Fatalf("only %d hostile scripts found", len(files))
	}
	pieces := map[string]string{"acquire": "acquire", "release": "release", "extend": "extend", "storage": "write"}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(raw)
		m := regexp.MustCompile(`kind=(\w+)`).FindStringSubmatch(src)
		piece := "release"
		if m != nil && pieces[m[1]] != "" {
			piece = pieces[m[1]]
		}
		lang := i18n.Codes()[len(f)%len(i18n.Codes())]
		q := piece + "=" + url.QueryEscape(src)
		r := webtest.Get(t, h, "/"+lang+"/lab/design?"+q)
		if len(q) > 16<<10 {
			// A link longer than any request line the server takes (the
			// form's fields hold 2048 characters) is refused before the
			// design page sees it, with the site's "link too long" page.
			if r.Status != http.StatusRequestURITooLong || !strings.Contains(r.Body, strings.SplitN(i18n.For(lang).URITooLong, "{", 2)[0]) {
				t.Errorf("%s (%s): %d, want the 414 'link too long' page", filepath.Base(f), piece, r.Status)
			}
			continue
		}
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, i18n.For(lang).Design.BadTitle) {
			t.Errorf("%s (%s): %d, want a 400 design page", filepath.Base(f), piece, r.Status)
			continue
		}
		if len(src) <= design.MaxRaw/3 && !strings.Contains(r.Body, `<textarea`) {
			t.Errorf("%s: the 400 page lost the form", filepath.Base(f))
		}
	}
}

// TestDesignCodeParses: the Go code of every preset, and of a script with
// a backquote in it, is a Go file that parses, carrying the scripts.
func TestDesignCodeParses(t *testing.T) {
	designs := []*lockdesign.Design{}
	for _, p := range lockdesign.Presets {
		d := lockdesign.DefaultDesign()
		if p.Effect != "" {
			d.Effect = p.Effect
		}
		d.SetScript(p.Piece, p.Script)
		designs = append(designs, d)
	}
	d := lockdesign.DefaultDesign()
	d.SetScript(sim.PieceRelease, "-- a `quoted` word\nreturn redis.call('DEL', KEYS[1])")
	designs = append(designs, d)
	for _, d := range designs {
		for _, lang := range i18n.Codes() {
			src := gocode.Design(d, lang)
			if _, err := parser.ParseFile(token.NewFileSet(), "lock.go", src, 0); err != nil {
				t.Fatalf("%s: %v\n%s", lang, err, src)
			}
			if !strings.Contains(src, "rdb.Eval(") || !strings.Contains(src, strings.Split(d.Release, "\n")[0][:10]) {
				t.Errorf("%s: the code does not carry the release script", lang)
			}
		}
	}
}

// TestDesignRunShare: a design run has the share box and the SVG export a
// lesson timeline has; the picture file is captioned with what it shows
// and the run's address, and a bad run is a 400 for its files too.
func TestDesignRunShare(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		run := "/" + lang + "/lab/design/run?clients=2&do=a.acquire,b.acquire,b.pause,wait.10s,a.write"
		body := webtest.MustGet(t, h, run)
		svgURL := "/" + lang + "/lab/design/run.svg?clients=2&amp;do=a.acquire,b.acquire,b.pause,wait.10s,a.write"
		for _, want := range []string{`<details class="share">`, `src="/` + lang + `/lab/design/run.qr.svg?clients=2&amp;do=`, `href="` + svgURL + `"`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: no %s", run, want)
			}
		}
		svg := webtest.Get(t, h, html.UnescapeString(svgURL))
		if svg.Status != http.StatusOK || !strings.HasPrefix(svg.Header.Get("Content-Type"), "image/svg+xml") ||
			!strings.Contains(svg.Body, u.Design.Title) || !strings.Contains(svg.Body, "lab/design/run?clients=2&amp;do=a.acquire") {
			t.Errorf("%s: %d %s, title or address missing", svgURL, svg.Status, svg.Header.Get("Content-Type"))
		}
		if qr := webtest.Get(t, h, "/"+lang+"/lab/design/run.qr.svg?clients=2&do=a.acquire"); qr.Status != http.StatusOK {
			t.Errorf("the run's QR code: %d", qr.Status)
		}
		// the graded design's own share box: its address and QR code
		page := webtest.MustGet(t, h, "/"+lang+"/lab/design?release=del&write=none")
		if !strings.Contains(page, `<details class="share"><summary>`+html.EscapeString(u.ShareDesign)+`</summary>`) || !strings.Contains(page, `src="/`+lang+`/lab/design/qr.svg?release=del&amp;write=none"`) || !strings.Contains(page, `/`+lang+`/lab/design?release=del&amp;write=none</a>`) {
			t.Errorf("%s: the graded design has no share box with its address and QR code", lang)
		}
		if qr := webtest.Get(t, h, "/"+lang+"/lab/design/qr.svg?release=del&write=none"); qr.Status != http.StatusOK || !strings.HasPrefix(qr.Body, "<svg") {
			t.Errorf("the design's QR code: %d", qr.Status)
		}
		for _, bad := range []string{"/lab/design/run.svg?clients=9&do=a.acquire", "/lab/design/run.qr.svg?clients=2&do=a.fly", "/lab/design/qr.svg?release=zap"} {
			if r := webtest.Get(t, h, "/"+lang+bad); r.Status != http.StatusBadRequest {
				t.Errorf("%s: %d, want 400", bad, r.Status)
			}
		}
	}
}

// TestDesignLocalAcrossThen: a local of an earlier part used after
// "-- then" is refused (each part is its own EVAL) with words that say
// so, in every language; a name that is no earlier local gets the
// checker's words alone (a fresh reader read "v is not available … and
// its own locals" about their own local).
func TestDesignLocalAcrossThen(t *testing.T) {
	h := sitetest.Default(t)
	split := "local v = redis.call('GET', KEYS[1])\n-- then\nif v == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0"
	other := "local v = redis.call('GET', KEYS[1])\n-- then\nif w == ARGV[1] then\n  return redis.call('DEL', KEYS[1])\nend\nreturn 0"
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		note := html.EscapeString(i18n.Fill(u.Design.ThenLocal, "v"))
		r := webtest.Get(t, h, "/"+lang+"/lab/design?release="+url.QueryEscape(split))
		if r.Status != http.StatusBadRequest || !strings.Contains(r.Body, note) {
			t.Errorf("%s: a local across -- then: %d, without the note that parts share no locals", lang, r.Status)
		}
		r = webtest.Get(t, h, "/"+lang+"/lab/design?release="+url.QueryEscape(other))
		if r.Status != http.StatusBadRequest || strings.Contains(r.Body, html.EscapeString(i18n.Fill(u.Design.ThenLocal, "w"))) {
			t.Errorf("%s: a name no earlier part declared got the note (%d)", lang, r.Status)
		}
	}
}

// TestDesignCard: a pasted design link unfurls into a card with the
// verdict and, for a broken design, its shortest counterexample named and
// drawn (the design run's own picture); the safe default names none and
// has no picture. A grade is no timeline: no oEmbed link.
func TestDesignCard(t *testing.T) {
	h := sitetest.Default(t)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		for _, c := range []struct {
			q, png string
			kind   sim.ViolationKind
		}{
			{"", "", ""},
			{"?release=del", "/" + lang + "/lab/design/run-card.png?release=del&clients=2&do=", sim.ForeignDelete},
		} {
			r := webtest.Get(t, h, "/"+lang+"/lab/design"+c.q)
			if r.Status != http.StatusOK {
				t.Fatalf("%s %q: %d", lang, c.q, r.Status)
			}
			desc, img := webtest.OG(r.Body, "description"), webtest.OG(r.Body, "image")
			head := strings.SplitN(u.Lab.CardShortest, "{0}", 2)[0]
			if named := strings.Contains(desc, head); named != (c.kind != "") || (named && !strings.Contains(desc, u.Failures[c.kind].Name)) {
				t.Errorf("%s %q: card description %q, want a counterexample named: %q", lang, c.q, desc, c.kind)
			}
			// the title names the result (a chat shows it first)
			want := i18n.Fill(u.Lab.CardTitleSafe, u.Design.Title)
			if c.kind != "" {
				// as long as the schedule it draws
				_, do, _ := strings.Cut(img, "&do=")
				want = i18n.Fill(u.Lab.CardTitleFound, u.Design.Title, u.Failures[c.kind].Name, i18n.Fill(u.Lab.StepsOf, strconv.Itoa(strings.Count(do, ",")+1)))
			}
			if webtest.OG(r.Body, "title") != want || !strings.Contains(img, c.png) || (c.png == "") != (img == "") {
				t.Errorf("%s %q: card title %q, image %q (want …%q…)", lang, c.q, webtest.OG(r.Body, "title"), img, c.png)
			}
			if img != "" {
				if p := webtest.Get(t, h, img); p.Status != http.StatusOK {
					t.Errorf("%s %q: the card's image %s answers %d", lang, c.q, img, p.Status)
				} else if cfg, err := png.DecodeConfig(strings.NewReader(p.Body)); err != nil || cfg.Width != picture.CardW || cfg.Height != picture.CardH {
					t.Errorf("%s %q: the card's image is %dx%d (%v), want %dx%d", lang, c.q, cfg.Width, cfg.Height, err, picture.CardW, picture.CardH)
				}
			}
			if strings.Contains(r.Body, "json+oembed") {
				t.Errorf("%s %q: an oEmbed link on a page that is no timeline", lang, c.q)
			}
		}
	}
}

// TestDesignWarnsOfFailuresOnly: the grade's table marks with ⚠ the
// counterexamples of harm and of a failed lock, not what any lease
// allows (readers saw ⚠ beside a ✓; the Lab marks them so too).
func TestDesignWarnsOfFailuresOnly(t *testing.T) {
	h := sitetest.Default(t)
	row := regexp.MustCompile(`(?s)<tr data-kind="([a-z-]+)" data-severity="([a-z]+)">.*?</tr>`)
	seen := map[string]bool{}
	for _, q := range []string{"", "?release=del"} {
		r := webtest.Get(t, h, "/en/lab/design"+q)
		for _, m := range row.FindAllStringSubmatch(r.Body, -1) {
			warns, links := strings.Contains(m[0], "⚠"), strings.Contains(m[0], `class="counterexample"`)
			if m[2] == "allowed" && warns {
				t.Errorf("%q: the %s row (allowed by any lease) carries ⚠", q, m[1])
			}
			if m[2] != "allowed" && links && !warns {
				t.Errorf("%q: the %s row (%s) has a counterexample without ⚠", q, m[1], m[2])
			}
			if links {
				seen[m[2]] = true
			}
		}
	}
	if !seen["allowed"] || len(seen) < 2 {
		t.Fatalf("the designs tried no longer show both kinds of row with a counterexample: %v", seen)
	}
}

package libraries_test

import (
	"context"
	"html"
	"regexp"
	"strings"
	"testing"

	"locklab/sim"
	"locklab/sim/explore"
	"locklab/sim/lockdesign"
	"locklab/web/i18n"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"locklab/web/libraries"
)

// TestTableEarned: the table holds what the explorer finds, and what it
// finds is what the lessons teach of these designs: with no fault nothing
// goes wrong; a job longer than the TTL outlives its lease wherever there
// is one, unless the library renews it by itself (python-redis-lock with
// auto_renewal, whose renewal then carries on after it fails); a pause longer than the TTL makes every library with an
// expiry accept a stale write (none fences); redis-py's default, with no
// expiry, cannot be outlasted but is locked for ever by one crash; every
// search is complete. And each library's lock with a fenced write, the
// page's way out, takes the pause with no harm.
func TestTableEarned(t *testing.T) {
	rows, err := libraries.Table()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(lockdesign.Libraries) {
		t.Fatalf("%d rows, want %d", len(rows), len(lockdesign.Libraries))
	}
	for _, row := range rows {
		id := row.Lib.Key()
		for i, c := range row.Cells {
			if !c.Complete {
				t.Errorf("%s, fault %d: the search is not complete", id, i)
			}
		}
		harm := func(f libraries.Fault) bool {
			c := row.Cells[f]
			return c.Shortest != nil && sim.ClassOf(c.Kind) == sim.ClassHarm
		}
		if c := row.Cells[libraries.NoFault]; c.Shortest != nil {
			t.Errorf("%s: with no fault, %s (%s)", id, c.Kind, sim.FormatActions(c.Shortest))
		}
		renews := row.Lib.Extend != ""
		if c := row.Cells[libraries.LongJob]; (row.Lib.Lib.NoTTL || renews) != (c.Shortest == nil) {
			t.Errorf("%s (no TTL %v, renews %v): a job longer than the TTL finds %q", id, row.Lib.Lib.NoTTL, renews, c.Kind)
		}
		switch {
		case row.Lib.Lib.NoTTL:
			if c := row.Cells[libraries.Pause]; c.Shortest != nil {
				t.Errorf("%s: a key with no expiry cannot be outlasted, yet %s", id, c.Kind)
			}
			if c := row.Cells[libraries.Crash]; c.Kind != sim.Orphan {
				t.Errorf("%s: one crash finds %q, want %s", id, c.Kind, sim.Orphan)
			}
		default:
			if !harm(libraries.Pause) {
				t.Errorf("%s: a pause longer than the TTL harms nothing (%q)", id, row.Cells[libraries.Pause].Kind)
			}
			if c := row.Cells[libraries.Crash]; c.Shortest != nil {
				t.Errorf("%s: one crash finds %s", id, c.Kind)
			}
		}
		// what the table says is what a search of its own finds
		cfg, err := libraries.Config(row.Lib.Design(), libraries.Pause)
		if err != nil {
			t.Fatal(err)
		}
		res, err := explore.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.ShortestKind != row.Cells[libraries.Pause].Kind || sim.FormatActions(res.Shortest) != sim.FormatActions(row.Cells[libraries.Pause].Shortest) {
			t.Errorf("%s: the table says %s %s, a search finds %s %s", id, row.Cells[libraries.Pause].Kind,
				sim.FormatActions(row.Cells[libraries.Pause].Shortest), res.ShortestKind, sim.FormatActions(res.Shortest))
		}
		// fenced, the pause harms nothing
		d := row.Lib.Design()
		pr, _ := lockdesign.PresetNamed(sim.PieceWrite, d.Effect, "fenced")
		d.SetScript(sim.PieceWrite, pr.Script)
		cfg, _ = libraries.Config(d, libraries.Pause)
		if res, err = explore.Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		for k := range res.Found {
			if sim.ClassOf(k) == sim.ClassHarm {
				t.Errorf("%s with a fenced write: a pause still finds %s", id, k)
			}
		}
	}
}

// TestLibrariesPage: in every language the page lists every library with
// a cell per fault; each ✗ links the design's timeline, which shows that
// failure at its last action; each library opens on the design page with
// its own scripts; the home page, the Lab and the design page link here.
func TestLibrariesPage(t *testing.T) {
	h := sitetest.Default(t)
	href := regexp.MustCompile(`<a href="(/[a-z]+/lab/design/run\?[^"]+)">✗ ([^<(]+) \(`)
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		page := webtest.MustGet(t, h, "/"+lang+"/libraries")
		if n := strings.Count(page, `<th scope="row">`); n != len(lockdesign.Libraries) {
			t.Errorf("%s: %d rows, want %d", lang, n, len(lockdesign.Libraries))
		}
		for _, ld := range lockdesign.Libraries {
			if !strings.Contains(page, `id="lib-`+ld.Lib.ID+`"`) || !strings.Contains(page, html.EscapeString(u.Libs.Notes[ld.Lib.ID])) {
				t.Errorf("%s: no section for %s", lang, ld.Lib.ID)
			}
			if !strings.Contains(page, "acquire="+ld.Acquire+"&amp;") {
				t.Errorf("%s: %s does not open on the design page with its acquire", lang, ld.Lib.ID)
			}
		}
		links := href.FindAllStringSubmatch(page, -1)
		if len(links) < len(lockdesign.Libraries) {
			t.Errorf("%s: %d failures linked, want one per library at least", lang, len(links))
		}
		for _, m := range links {
			link := html.UnescapeString(m[1])
			run := webtest.Get(t, h, link)
			if run.Status != 200 {
				t.Errorf("%s: %s answers %d", lang, link, run.Status)
				continue
			}
			body := html.UnescapeString(run.Body)
			if name := html.UnescapeString(m[2]); !strings.Contains(body, name) {
				t.Errorf("%s: %s does not show %q", lang, link, name)
			}
			// it says whose calls these are, and calls none of them the
			// reader's own script
			named := false
			for _, ld := range lockdesign.Libraries {
				named = named || strings.Contains(body, i18n.Fill(u.Design.RunIntroLibrary, ld.Name()))
			}
			if !named || strings.Contains(body, u.Design.Own) || strings.Contains(body, u.Design.RunIntro) {
				t.Errorf("%s: %s does not name the library, or calls its scripts the reader's own", lang, link)
			}
		}
		// the course's fixes of a library's lock are listed under it
		for _, id := range []string{"fe-redsync", "ttl-redis-py"} {
			if !strings.Contains(page, `href="/`+lang+`/challenges/`+id+`"`) {
				t.Errorf("%s: the challenge %s is not listed", lang, id)
			}
		}
		for _, from := range []string{"/" + lang + "/", "/" + lang + "/lab", "/" + lang + "/lab/design"} {
			if !strings.Contains(webtest.MustGet(t, h, from), `id="to-libraries" href="/`+lang+`/libraries"`) {
				t.Errorf("%s: %s does not link the libraries' page", lang, from)
			}
		}
	}
}

package gocode

import (
	"go/format"
	"go/parser"
	"go/token"
	"slices"
	"testing"

	"locklab/sim/lockdesign"

	"locklab/sim"
	"locklab/web/i18n"
)

// TestDesignCode: design.go.tmpl writes a program for every combination
// of the presets (a library's, in its library's design), under either effect and in every language, that gofmt
// leaves as it is (a template mistake would show up as a file gofmt
// rejects, which Design returns unformatted, or as no file at all), and
// the Japanese and Chinese programs are the English one with other
// comments: every comment of the Japanese one in Japanese, so a comment
// the template writes as plain text rather than through say shows.
func TestDesignCode(t *testing.T) {
	// the general presets in every combination; a library's (acquire and
	// release, lockdesign.Libraries) each once, in its library's design:
	// in every combination they made the test seven times as long
	general := func(p sim.Piece, eff string) []lockdesign.Preset {
		return slices.DeleteFunc(lockdesign.PresetsOf(p, eff), lockdesign.IsLibraryPreset)
	}
	for _, eff := range lockdesign.Effects {
		for _, l := range lockdesign.Libraries {
			d := l.Design()
			d.SetEffect(eff)
			checkDesignCode(t, eff+" "+l.Name(), d)
		}
		for _, a := range general(sim.PieceAcquire, eff) {
			for _, r := range general(sim.PieceRelease, eff) {
				for _, e := range general(sim.PieceExtend, eff) {
					for _, w := range general(sim.PieceWrite, eff) {
						d := &lockdesign.Design{TTL: 10_000, Work: 3000, Effect: eff, Renew: lockdesign.RenewStop}
						d.SetScript(sim.PieceAcquire, a.Script)
						d.SetScript(sim.PieceRelease, r.Script)
						d.SetScript(sim.PieceExtend, e.Script)
						d.SetScript(sim.PieceWrite, w.Script)
						name := eff + " " + a.Name + " " + r.Name + " " + e.Name + " " + w.Name
						checkDesignCode(t, name, d)
					}
				}
			}
		}
	}
}

func checkDesignCode(t *testing.T, name string, d *lockdesign.Design) {
	t.Helper()
	en := Design(d, "en")
	if en == "" {
		t.Fatalf("%s: no program", name)
	}
	for _, l := range i18n.Languages() {
		src := Design(d, l.Code)
		out, err := format.Source([]byte(src))
		if err != nil || string(out) != src {
			t.Fatalf("%s, %s: not a gofmt'd Go file (%v):\n%s", name, l.Code, err, src)
		}
		if !slices.Equal(goTokens(t, en), goTokens(t, src)) {
			t.Errorf("%s: the %s code is not the English code with other comments", name, l.Code)
		}
		if l.Code != "ja" {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "lock.go", src, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if !hasJapanese(c.Text) {
					t.Errorf("%s: an English comment on the Japanese page: %s", name, c.Text)
				}
			}
		}
	}
}

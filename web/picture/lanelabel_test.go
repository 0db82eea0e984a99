package picture

import (
	"strings"
	"testing"

	"golang.org/x/image/font/sfnt"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"
)

// TestLaneLabelsFit: the words in the label strip (a lane's name, a
// client's state, token and validity, a node's state, the storage's
// check) fit it at every guided step of every lesson, in every language.
// The strip stays in view while the plot scrolls under it, so what runs
// past its edge is hidden (a reader lost the Japanese storage lane's
// token, the number lesson 5 is about). Data is left out: the lock key,
// a pending command and the storage's value are the servers' words.
func TestLaneLabelsFit(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	const room = seam - 8 // the text starts at x = 8
	seen := map[string]bool{}
	for _, lang := range i18n.Codes() {
		u := i18n.For(lang)
		for _, l := range course.List(lang) {
			for i, st := range l.Steps {
				tl, err := sim.Run(l.Scenario.ID, st.Do, st.Opt)
				if err != nil {
					t.Fatal(err)
				}
				for _, ln := range Layout(tl, u, 0).Lanes {
					check := func(text string, size float64, bold bool) {
						if text == "" || seen[lang+"\x00"+text] {
							return
						}
						seen[lang+"\x00"+text] = true
						if w := measured(t, lang, text, size, bold); w > room {
							t.Errorf("%s, %s step %d: %q is %.0f wide, the label strip has %.0f", lang, l.Slug, i+1, text, w, room)
						}
					}
					check(ln.Label, 15, true)
					if ln.Sub != tl.Scenario.LockKey() {
						check(ln.Sub, 12, false)
					}
					if !ln.Sub2Data && !strings.HasPrefix(ln.Sub2, "→ ") {
						check(ln.Sub2, 12, false)
					}
				}
			}
		}
	}
}

// measured is text's width in the fonts the picture's PNG is drawn with
// (Noto Sans JP and SC), as a browser with them sets it.
func measured(t *testing.T, lang, text string, size float64, bold bool) float64 {
	fs, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	var buf sfnt.Buffer
	w := 0.0
	for _, r := range text {
		g := pick(fs.faces(lang, bold, r), &buf, r)
		w += g.advance / g.face.upem * size
	}
	return w
}

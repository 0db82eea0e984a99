package picture

import (
	"strconv"
	"strings"
	"testing"

	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/narrate"
)

// TestExportCaption: an exported picture says what it shows — the
// moment's title, its source, what went wrong (each failure, or that
// none did) — and no caption line runs past the picture's right edge:
// the address (no spaces to break at) and long failures are wrapped, and
// nothing of either is lost.
func TestExportCaption(t *testing.T) {
	long := "https://locklab.example/ja/lessons/fencing?do=" + strings.Repeat("a.acquire,b.acquire,a.pause,wait.10s,", 6) + "b.write"
	for _, c := range []struct{ do, opt string }{{"a.acquire", ""}, {"a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write", "fence.off"}} {
		tl, err := sim.Run("fencing", c.do, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range i18n.Codes() {
			u := i18n.For(lang)
			x := NewExport(tl, u, Caption{Title: "The title", Source: "Lesson 5 · step 8", Address: long})
			if x.Heading != "The title" || !strings.HasPrefix(x.Sub, u.SiteName+" — Lesson 5 · step 8") {
				t.Errorf("%s: heading %q, sub %q", lang, x.Heading, x.Sub)
			}
			width, _ := strconv.ParseFloat(x.Width, 64)
			var addr, viol strings.Builder
			clean := false
			for _, l := range x.Lines {
				size := 13.0
				switch l.Class {
				case "sub":
					size = 12
					addr.WriteString(l.Text)
				case "vline", "vline allowed":
					viol.WriteString(strings.TrimLeft(l.Text, " ") + " ")
				case "cleanline":
					clean = l.Text == u.Embed.Clean
				}
				if w := textWidth(l.Text, size, false); 8+w > width {
					t.Errorf("%s: %q is %.0f wide, the picture %.0f", lang, l.Text, 8+w, width)
				}
			}
			if addr.String() != long {
				t.Errorf("%s: the address lines say %q", lang, addr.String())
			}
			if clean != (len(tl.Violations) == 0) {
				t.Errorf("%s: %d failures, but the caption says nothing went wrong: %v", lang, len(tl.Violations), clean)
			}
			for _, v := range tl.Violations {
				// each failure's words, wrapped at spaces or between characters
				squash := func(s string) string { return strings.ReplaceAll(s, " ", "") }
				if !strings.Contains(squash(viol.String()), squash(narrate.ViolationText(u, v))) {
					t.Errorf("%s: the caption lacks %q", lang, narrate.ViolationText(u, v))
				}
			}
		}
	}
}

// TestWrapTight: Japanese and Chinese lines break between characters,
// not at the space around a Latin word, and never before closing
// punctuation; English breaks at spaces.
func TestWrapTight(t *testing.T) {
	ja := "排他が崩れた：A のリースが切れたあと、A がまだ自分を保持者だと思っているうちに、B がロックを取った。"
	for w := 60.0; w < 400; w += 7 {
		lines := wrapText(ja, w, 13)
		if strings.Join(lines, "") != strings.ReplaceAll(ja, " ", "") && strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll(ja, " ", "") {
			t.Fatalf("width %.0f: %q lost text", w, lines)
		}
		for i, l := range lines {
			if i > 0 && strings.ContainsAny(l[:len(string([]rune(l)[0]))], "。、）」") {
				t.Errorf("width %.0f: a line starts with closing punctuation: %q", w, lines)
			}
			if strings.HasSuffix(l, "A") || strings.HasSuffix(l, "B") {
				t.Errorf("width %.0f: a line ends on the Latin word of the next: %q", w, lines)
			}
		}
	}
	if got := wrapText("Exclusion lost: B took the lock after A's lease ran out", 200, 13); strings.Join(got, " ") != "Exclusion lost: B took the lock after A's lease ran out" {
		t.Errorf("English: %q", got)
	}
}

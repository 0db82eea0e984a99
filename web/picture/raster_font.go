// raster_font.go holds the fonts the PNG export draws text with, and
// picks a glyph for each character.

package picture

import (
	_ "embed"
	"fmt"
	"sync"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
)

// Noto Sans JP and SC, subset to the characters Lock Lab can draw
// (fonts/build.sh; OFL, see fonts/README.md). Embedded, so a server with
// no system fonts draws Japanese and Chinese all the same.
var (
	//go:embed fonts/NotoSansJP-Regular.ttf
	notoJPRegular []byte
	//go:embed fonts/NotoSansJP-Bold.ttf
	notoJPBold []byte
	//go:embed fonts/NotoSansSC-Regular.ttf
	notoSCRegular []byte
	//go:embed fonts/NotoSansSC-Bold.ttf
	notoSCBold []byte
)

// face is one parsed font file.
type face struct {
	f    *sfnt.Font
	upem float64 // font units an em
}

// fontSet is every face, parsed once: parsing only indexes the tables,
// and a parsed sfnt.Font is safe to share (each caller brings its own
// sfnt.Buffer).
type fontSet struct {
	jp, sc, golang [2]*face // [regular, bold]
}

var loadFonts = sync.OnceValues(func() (*fontSet, error) {
	var fs fontSet
	for _, x := range []struct {
		dst  **face
		data []byte
		name string
	}{
		{&fs.jp[0], notoJPRegular, "NotoSansJP-Regular"}, {&fs.jp[1], notoJPBold, "NotoSansJP-Bold"},
		{&fs.sc[0], notoSCRegular, "NotoSansSC-Regular"}, {&fs.sc[1], notoSCBold, "NotoSansSC-Bold"},
		{&fs.golang[0], goregular.TTF, "Go Regular"}, {&fs.golang[1], gobold.TTF, "Go Bold"},
	} {
		f, err := sfnt.Parse(x.data)
		if err != nil {
			return nil, fmt.Errorf("font %s: %w", x.name, err)
		}
		*x.dst = &face{f: f, upem: float64(f.UnitsPerEm())}
	}
	return &fs, nil
})

// faces is the faces to look r up in, in order, for a page's language
// and a weight: the page's own CJK font (Japanese and Chinese write the
// same Han character differently, so a ja page takes JP's, a zh page
// SC's), the other one, then Go's font for what neither subset holds.
// English takes JP's, whose Latin is Noto Sans like the rest. Latin
// letters and punctuation come from JP's on a zh page too: SC's quotes,
// middle dot and the like are a full em wide, for Chinese text, where a
// browser sets them from the Latin system font that heads export.css's
// font-family list.
func (fs *fontSet) faces(lang string, bold bool, r rune) [3]*face {
	w := 0
	if bold {
		w = 1
	}
	if lang == "zh" && !latin(r) {
		return [3]*face{fs.sc[w], fs.jp[w], fs.golang[w]}
	}
	return [3]*face{fs.jp[w], fs.sc[w], fs.golang[w]}
}

// latin: Latin letters and marks, and general punctuation (quotes,
// dashes, the ellipsis).
func latin(r rune) bool { return r < 0x300 || r >= 0x2000 && r < 0x2070 }

// glyph is one character placed: the face and glyph to draw, and how far
// the pen moves, in font units.
type glyph struct {
	face    *face
	idx     sfnt.GlyphIndex
	advance float64
}

// pick finds r's glyph in the first of faces that has it; a character
// none has is drawn as the first face's "missing" box (glyph 0), as a
// browser would, rather than failing the picture.
func pick(faces [3]*face, buf *sfnt.Buffer, r rune) glyph {
	for _, fc := range faces {
		if idx, err := fc.f.GlyphIndex(buf, r); err == nil && idx != 0 {
			return glyph{face: fc, idx: idx, advance: advance(fc, buf, idx)}
		}
	}
	return glyph{face: faces[0], advance: advance(faces[0], buf, 0)}
}

// advance is a glyph's advance width in font units (ppem = units per em
// makes sfnt's 26.6 pixels font units).
func advance(fc *face, buf *sfnt.Buffer, idx sfnt.GlyphIndex) float64 {
	a, err := fc.f.GlyphAdvance(buf, idx, unitsPPEM(fc), 0)
	if err != nil {
		return 0
	}
	return float64(a) / 64
}

// ignorable: a character a browser draws as nothing (a variation
// selector after ⚠, a zero-width joiner, a soft hyphen), which a font
// does not map and would otherwise come out as a missing box.
func ignorable(r rune) bool {
	switch {
	case r == 0xAD, r == 0x34F, r == 0x180E, r == 0xFEFF:
		return true
	case r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2060 && r <= 0x206F:
		return true
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0000 && r <= 0xE0FFF:
		return true
	}
	return false
}

package picture

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"

	"golang.org/x/image/font/sfnt"
)

// lessonExport is the export of a lesson's guided step (0-based) in a
// language, headed as the lesson page heads it.
func lessonExport(t testing.TB, lang, slug string, step int) *Export {
	t.Helper()
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	l, ok := course.Get(lang, slug)
	if !ok {
		t.Fatalf("no lesson %s/%s", lang, slug)
	}
	if step < 0 {
		step += len(l.Steps)
	}
	st := l.Steps[step]
	tl, err := sim.Run(l.Scenario.ID, st.Do, st.Opt)
	if err != nil {
		t.Fatal(err)
	}
	return NewExport(tl, i18n.For(lang), Caption{Title: l.Title, Source: "Lock Lab — " + l.Slug,
		Address: "https://locklab.example/" + lang + "/lessons/" + slug + "?step=" + strconv.Itoa(step+1)})
}

// decodePNG draws x and decodes the PNG again, as a wiki would.
func decodePNG(t testing.TB, x *Export) image.Image {
	t.Helper()
	b, err := PNG(x)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func num(t testing.TB, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// at is the pixel over the export's user-space point (x, y).
func at(img image.Image, x, y float64) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(int(x*PNGScale), int(y*PNGScale))).(color.NRGBA)
}

func near(c color.NRGBA, hex string, tol int) bool {
	want, err := parsePaint(hex)
	if err != nil {
		panic(err)
	}
	d := func(a, b uint8) int { return max(int(a)-int(b), int(b)-int(a)) }
	return d(c.R, want.c.R) <= tol && d(c.G, want.c.G) <= tol && d(c.B, want.c.B) <= tol
}

// findBar is the first bar whose class has every one of classes.
func findBar(t testing.TB, x *Export, classes ...string) Bar {
	t.Helper()
	for _, b := range x.P.Bars {
		have := strings.Fields(b.Class)
		ok := true
		for _, c := range classes {
			ok = ok && strings.Contains(" "+strings.Join(have, " ")+" ", " "+c+" ")
		}
		if ok {
			return b
		}
	}
	t.Fatalf("no bar %v among %d", classes, len(x.P.Bars))
	return Bar{}
}

// TestPNGDrawsTheExport: the PNG is the export's viewBox at PNGScale,
// white where nothing is drawn, and a holding bar of client A is the
// colour export.css gives it, where the export puts it.
func TestPNGDrawsTheExport(t *testing.T) {
	x := lessonExport(t, "en", "two-servers", -1)
	img := decodePNG(t, x)
	vb := strings.Fields(x.ViewBox)
	w, h := num(t, vb[2]), num(t, vb[3])
	if got, want := img.Bounds().Size(), (image.Point{int(math.Ceil(w * PNGScale)), int(math.Ceil(h * PNGScale))}); got != want {
		t.Fatalf("PNG is %v, want the viewBox %s×%s at %g: %v", got, vb[2], vb[3], PNGScale, want)
	}
	for _, p := range [][2]float64{{1, 1}, {w - 1, h - 1}, {w - 1, 1}, {1, h - 1}} {
		if c := at(img, p[0], p[1]); !near(c, "#ffffff", 0) {
			t.Errorf("background at %v is %v, want white", p, c)
		}
	}
	b := findBar(t, x, "st-holding", "c-a")
	// mid-bar, 3 units under its top edge: clear of its stroke and its label
	bx, by := num(t, b.X)+num(t, b.W)/2, exportTop+num(t, b.Y)+3
	if c := at(img, bx, by); !near(c, "#2563eb", 8) {
		t.Errorf("holding bar of A at (%.1f, %.1f) is %v, want #2563eb", bx, by, c)
	}
	// just above the bar (its stroke is 1.5 wide): the lane's white
	if c := at(img, bx, exportTop+num(t, b.Y)-2); near(c, "#2563eb", 60) {
		t.Errorf("above the bar at (%.1f, %.1f) is %v, the bar's colour", bx, exportTop+num(t, b.Y)-2, c)
	}
}

// TestPNGHatchesPausedBars: a paused bar is hatched, both the stripes'
// grey and the white between them showing.
func TestPNGHatchesPausedBars(t *testing.T) {
	x := lessonExport(t, "en", "ttl", -1)
	img := decodePNG(t, x)
	b := findBar(t, x, "st-paused")
	y := exportTop + num(t, b.Y) + 4
	light, dark := 0, 0
	for u := num(t, b.X) + 2; u < num(t, b.X)+num(t, b.W)-2; u += 0.5 {
		c := at(img, u, y)
		switch {
		case c.R > 230 && c.G > 230:
			light++
		case c.R < 170:
			dark++
		}
	}
	if light == 0 || dark == 0 {
		t.Errorf("paused bar %s: %d light and %d dark samples along it, want stripes", b.Class, light, dark)
	}
}

// TestPNGDrawsCJK: a Japanese and a Chinese heading come out as ink in
// the heading's box, every character from the language's own font (no
// missing-glyph boxes).
func TestPNGDrawsCJK(t *testing.T) {
	fonts, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	for lang, own := range map[string]*face{"ja": fonts.jp[1], "zh": fonts.sc[1]} {
		x := lessonExport(t, lang, "ttl", 0)
		var buf sfnt.Buffer
		for _, r := range x.Heading {
			if g := pick(fonts.faces(lang, true, r), &buf, r); g.idx == 0 || (r >= 0x3000 && g.face != own) {
				t.Errorf("%s: heading %q: %q has no glyph in the %s font", lang, x.Heading, r, lang)
			}
		}
		img := decodePNG(t, x)
		ink := 0
		w := textWidth(x.Heading, 17, true)
		for y := 22 - 14.0; y < 22+3; y += 0.5 {
			for u := 8.0; u < 8+w; u += 0.5 {
				if c := at(img, u, y); c.R < 128 {
					ink++
				}
			}
		}
		// the heading's box is 17 units tall; strokes of a CJK heading
		// cover a good part of it
		if total := int(w*2) * 34; ink < total/20 {
			t.Errorf("%s: heading %q: %d of %d samples inked", lang, x.Heading, ink, total)
		}
	}
}

// TestPNGDeterministic: the same export gives the same bytes.
func TestPNGDeterministic(t *testing.T) {
	x := lessonExport(t, "zh", "ttl", -1)
	a, err := PNG(x)
	if err != nil {
		t.Fatal(err)
	}
	b, err := PNG(x)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("two PNGs of one export differ")
	}
}

// TestPNGEveryStep draws every guided step of every lesson, each in one
// of the languages, at a small scale to be quick: every shape and rule
// the export uses is one the PNG can draw.
func TestPNGEveryStep(t *testing.T) {
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range course.List("en") {
		for j, st := range l.Steps {
			tl, err := sim.Run(l.Scenario.ID, st.Do, st.Opt)
			if err != nil {
				t.Fatal(err)
			}
			lang := i18n.Codes()[(i+j)%len(i18n.Codes())]
			x := NewExport(tl, i18n.For(lang), Caption{Title: l.Title, Source: "Lock Lab", Address: "https://locklab.example/"})
			if _, err := raster(x, 0.5); err != nil {
				t.Errorf("%s step %d (%s): %v", l.Slug, j+1, lang, err)
			}
		}
	}
}

// TestPNGSamples writes the PNG and the SVG of every lesson's last step
// in every language to $LOCKLAB_PNG_SAMPLES (skipped without it), to
// look at side by side.
func TestPNGSamples(t *testing.T) {
	dir := os.Getenv("LOCKLAB_PNG_SAMPLES")
	if dir == "" {
		t.Skip("LOCKLAB_PNG_SAMPLES not set")
	}
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range course.List("en") {
		for _, lang := range i18n.Codes() {
			x := lessonExport(t, lang, l.Slug, -1)
			b, err := PNG(x)
			if err != nil {
				t.Fatal(err)
			}
			var svg bytes.Buffer
			if err := ExportSVG(x).Render(t.Context(), &svg); err != nil {
				t.Fatal(err)
			}
			name := filepath.Join(dir, l.Slug+"-"+lang)
			if err := os.WriteFile(name+".png", b, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name+".svg", svg.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// BenchmarkPNG draws a lesson's crowded last step.
func BenchmarkPNG(b *testing.B) {
	x := lessonExport(b, "ja", "ttl", -1)
	for b.Loop() {
		if _, err := PNG(x); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFontsCoverText: every character of the text the app can show is in
// the font subset of its language (fonts/chars-*.txt, which build.sh
// writes with the fonts), by the same rule as build.sh's: the .go, .templ,
// .md and .yaml files under web/, sim/ and lessons/, tests and testdata
// left out, a file with "ja" or "zh" as a path part counting for that
// language only. When it fails, text has new characters: run
// web/picture/fonts/build.sh and commit what it changes.
func TestFontsCoverText(t *testing.T) {
	root := filepath.Join("..", "..")
	have := map[string]string{}
	for _, lang := range []string{"ja", "zh"} {
		b, err := os.ReadFile(filepath.Join("fonts", "chars-"+lang+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		have[lang] = string(b)
	}
	missing := map[string]map[rune][]string{"ja": {}, "zh": {}}
	for _, top := range []string{"web", "sim", "lessons"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return filepath.SkipDir
				}
				return nil
			}
			name := d.Name()
			ext := filepath.Ext(name)
			if strings.HasSuffix(name, "_test.go") || (ext != ".go" && ext != ".templ" && ext != ".md" && ext != ".yaml") {
				return nil
			}
			rel, _ := filepath.Rel(root, path)
			parts := strings.FieldsFunc(filepath.ToSlash(rel), func(r rune) bool { return r == '/' || r == '.' })
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for lang, other := range map[string]string{"ja": "zh", "zh": "ja"} {
				if slices.Contains(parts, other) {
					continue
				}
				for _, r := range string(b) {
					if r >= 0x20 && !strings.ContainsRune(have[lang], r) && len(missing[lang][r]) < 3 {
						missing[lang][r] = append(missing[lang][r], rel)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, lang := range []string{"ja", "zh"} {
		for r, files := range missing[lang] {
			t.Errorf("%q (U+%04X, in %s) is not in the %s font subset: run web/picture/fonts/build.sh", r, r, strings.Join(files, ", "), lang)
		}
	}
}

// TestStrokeDashOnCorner: a dash that ends exactly on a corner (a bar of
// the lock's remaining TTL, 10 units wide, dashed 4 3) leaves no point
// that is not a number, which once blanked the whole shape.
func TestStrokeDashOnCorner(t *testing.T) {
	b := &pathBuilder{tol: 0.025}
	rectPath(b, 1592, 390, 20, 44, 6, 6)
	polys := strokePolys(b.subs, pen{width: 3, dash: []float64{8, 6}, cap: "butt", join: "miter", miterLimit: 4})
	if len(polys) == 0 {
		t.Fatal("no stroke")
	}
	for _, p := range polys {
		for _, q := range p {
			if math.IsNaN(q.x) || math.IsNaN(q.y) || math.IsInf(q.x, 0) || math.IsInf(q.y, 0) {
				t.Fatalf("stroke polygon %v", p)
			}
		}
	}
}

// TestCSSCascade: the more specific rule wins whatever its place, then
// the later; descendant selectors skip ancestors between; a property the
// PNG cannot draw is an error, not a silent difference.
func TestCSSCascade(t *testing.T) {
	rules, err := parseCSS(`/* c */ .bar.c-a rect { fill: #111111; stroke: #222; }
		.bar rect, .x { fill: #333333; stroke-dasharray: 2 3 1; }
		svg .lbl { font-size: 9px; font-weight: bold } .lbl { font-size: 12px; }`)
	if err != nil {
		t.Fatal(err)
	}
	el := func(name, class string) *node { return &node{name: name, classes: strings.Fields(class)} }
	s := initialStyle()
	cascade(rules, []*node{el("svg", ""), el("g", "bar c-a"), el("g", "other"), el("rect", "")}, &s)
	if s.fill.c != (color.NRGBA{0x11, 0x11, 0x11, 255}) || s.stroke.c != (color.NRGBA{0x22, 0x22, 0x22, 255}) {
		t.Errorf("fill %v stroke %v: want the more specific rule's #111111 and #222222", s.fill.c, s.stroke.c)
	}
	if !slices.Equal(s.dash, []float64{2, 3, 1, 2, 3, 1}) {
		t.Errorf("dash %v: an odd list repeats", s.dash)
	}
	s = initialStyle()
	cascade(rules, []*node{el("svg", ""), el("g", ""), el("text", "lbl")}, &s)
	if s.fontSize != 9 || s.fontWeight != 700 {
		t.Errorf("font %v %v: want svg .lbl's 9px bold over .lbl's 12px", s.fontSize, s.fontWeight)
	}
	for _, bad := range []string{".a { text-decoration: underline }", ".a > b { fill: #fff }", ".a { fill: red }", ".a { fill: #fff"} {
		if _, err := parseCSS(bad); err == nil {
			t.Errorf("parseCSS(%q): no error", bad)
		}
	}
}

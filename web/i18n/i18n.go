// Package i18n holds the site's languages as data: a registry of the
// languages it offers (code, own name, separators, number grouping,
// quotation marks, the lang attribute, fonts) and one catalog of interface
// strings per language (en.go, ja.go, …). Lesson text lives in
// lessons/<code>/, not here.
//
// Adding a language is one line in Registry, one catalog file and one
// lessons folder; negotiation, the language menu, hreflang links,
// robots.txt and the tests all read the registry. The package knows
// nothing of HTTP: negotiation takes the Accept-Language header's value.
package i18n

import (
	"fmt"
	"log/slog"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"

	"locklab/sim"
)

// Language is one language the site offers.
type Language struct {
	// Code is the URL's first path segment and the lessons folder.
	Code string
	// Tag is what Accept-Language is matched against.
	Tag language.Tag
	// HTMLLang is the lang attribute (and hreflang) of its pages.
	HTMLLang string
	// Name is the language's name in itself, as the language menu lists it.
	Name string
	// ListSep joins the items of a list in running text; NameSep joins
	// names (verbs, presets) where the language writes them apart from a
	// sentence's own commas (Japanese: 、 and ・).
	ListSep, NameSep string
	// Comma joins a name and what is said of it in an aside ("A, czxid
	// 257"): ", " if empty; Chinese writes "，", Japanese "、".
	Comma string
	// Group separates thousands in a count ("23,151").
	Group string
	// Tight: the language writes no space between two words of its own
	// script (Japanese, Chinese), only around Latin letters and digits; a
	// template that puts "{0} が停止" together with a Japanese {0} is
	// tidied by UI.Tidy.
	Tight bool
	// Paren puts an aside after a phrase: " (" and ")" by default;
	// Chinese writes full-width brackets with no space before them.
	Paren [2]string
	// Quote opens and closes a quoted term. The catalogs' sentences carry
	// their own quotes today; this is for code that quotes a term.
	Quote [2]string
	// Fonts and MonoFonts are the CSS font-family orders of the
	// language's text and code, for its glyph shapes (CJK languages share
	// code points but not shapes: 门 and 直 are drawn differently in
	// Chinese and Japanese fonts); "" keeps the stylesheet's own order,
	// which is what en and ja use. FontCSS turns them into the
	// stylesheet's :lang() rules.
	Fonts, MonoFonts string
	// UI is its catalog.
	UI *UI

	missing  []string // what its catalog lacked, filled from English
	prepared bool
}

// Missing lists the strings l's catalog lacked (each shown in English).
func (l *Language) Missing() []string {
	prepare()
	return l.missing
}

// Registry lists the languages the site offers, in the order the
// language menu lists them. English is the fallback: the language chosen
// when nothing else matches, and the catalog a missing string falls back
// to.
var Registry = []*Language{
	{Code: "zh", Tag: language.SimplifiedChinese, HTMLLang: "zh-Hans", Name: "中文", ListSep: "、", NameSep: "、", Comma: "，", Group: ",", Tight: true, Quote: [2]string{"“", "”"}, Paren: [2]string{"（", "）"},
		Fonts:     `system-ui, -apple-system, "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", sans-serif`,
		MonoFonts: `ui-monospace, "SFMono-Regular", Menlo, Consolas, "Noto Sans Mono CJK SC", monospace`, UI: chinese},
	{Code: "ja", Tag: language.Japanese, HTMLLang: "ja", Name: "日本語", ListSep: "、", NameSep: "・", Comma: "、", Group: ",", Tight: true, Quote: [2]string{"「", "」"}, Paren: [2]string{"（", "）"}, UI: japanese},
	{Code: "en", Tag: language.English, HTMLLang: "en", Name: "English", ListSep: ", ", NameSep: ", ", Group: ",", Quote: [2]string{"“", "”"}, UI: english},
}

// Fallback is the language a request gets when none of its own is
// offered, and whose strings fill another catalog's gaps.
const Fallback = "en"

// CodeRepeated is the error code of a timeline parameter given twice
// (do=…&do=…): an error of the URL, not of the simulator, so it is not
// among sim's codes.
const CodeRepeated sim.Code = "repeated-param"

var (
	prepareOnce sync.Once
	byCode      map[string]*Language
	matcher     language.Matcher
)

// prepare indexes the registry, fills each catalog's gaps from English
// (logging each one) and compiles the model phrases. It runs once, the
// first time anything asks; tests that add a language call Add before.
func prepare() {
	prepareOnce.Do(func() {
		byCode = map[string]*Language{}
		tags := make([]language.Tag, 0, len(Registry))
		var fallback *Language
		for _, l := range Registry {
			byCode[l.Code] = l
			tags = append(tags, l.Tag)
			if l.Code == Fallback {
				fallback = l
			}
		}
		matcher = language.NewMatcher(tags)
		for _, l := range Registry {
			l.UI.Lang = l.Code
			l.UI.lang = l
			if l != fallback && !l.prepared {
				l.missing = fillGaps(reflect.ValueOf(l.UI).Elem(), reflect.ValueOf(fallback.UI).Elem(), "")
				for _, path := range l.missing {
					slog.Warn("i18n: string missing, English shown", "lang", l.Code, "string", path)
				}
			}
			l.UI.compilePhrases()
			l.prepared = true
		}
	})
}

// Register adds a language to the registry: how a test-only language
// (web/internal/pseudo) proves that a language is data. Call it before
// anything looks a language up (a TestMain; it is not safe beside
// lookups); the site offers it like any other.
func Register(l *Language) {
	Registry = append(Registry, l)
	prepareOnce = sync.Once{}
}

// Languages is the registry, ready to use.
func Languages() []*Language {
	prepare()
	return Registry
}

// Lookup finds a language by its code.
func Lookup(code string) (*Language, bool) {
	prepare()
	l, ok := byCode[code]
	return l, ok
}

// For returns the catalog of the language code (English if unknown).
func For(code string) *UI {
	if l, ok := Lookup(code); ok {
		return l.UI
	}
	l, _ := Lookup(Fallback)
	return l.UI
}

// Valid reports whether the site offers the language code.
func Valid(code string) bool {
	_, ok := Lookup(code)
	return ok
}

// Negotiate picks the language an Accept-Language header asks for, or
// the fallback when it asks for none the site offers.
//
// A reader of Traditional Chinese (zh-TW, zh-HK, zh-Hant) gets the
// Simplified course rather than English: the site has no Traditional one,
// and x/text's matcher, which treats the two scripts as different
// languages, would otherwise fall through to English (or to a later, less
// wanted language in the header). Such a reader asked for Chinese first.
func Negotiate(acceptLanguage string) string {
	prepare()
	tags, _, _ := language.ParseAcceptLanguage(acceptLanguage)
	_, idx, conf := matcher.Match(tags...)
	if len(tags) > 0 {
		if base, _ := tags[0].Base(); base.String() == "zh" && (conf == language.No || Registry[idx].Tag != language.SimplifiedChinese) {
			for _, l := range Registry {
				if l.Tag == language.SimplifiedChinese {
					return l.Code
				}
			}
		}
	}
	if conf == language.No {
		return Fallback
	}
	return Registry[idx].Code
}

// FontCSS is the stylesheet's rules for the languages whose glyph shapes
// need fonts of their own (Language.Fonts), one :lang() rule each: the
// site appends it to app.css, so a language's fonts are data too.
func FontCSS() string {
	var b strings.Builder
	for _, l := range Languages() {
		if l.Fonts != "" {
			fmt.Fprintf(&b, ":lang(%s) body, body:lang(%s) { font-family: %s; }\n", l.HTMLLang, l.HTMLLang, l.Fonts)
		}
		if l.MonoFonts != "" {
			fmt.Fprintf(&b, ":lang(%s) code, :lang(%s) pre, :lang(%s) kbd, :lang(%s) .cm-editor .cm-content { font-family: %s; }\n",
				l.HTMLLang, l.HTMLLang, l.HTMLLang, l.HTMLLang, l.MonoFonts)
		}
	}
	return b.String()
}

// Paren is s as an aside after a phrase, in u's brackets: " (s)", or
// "（s）" in Chinese.
func (u *UI) Paren(s string) string {
	if p := u.Language().Paren; p[0] != "" {
		return p[0] + s + p[1]
	}
	return " (" + s + ")"
}

// Comma joins a name and what is said of it in an aside (Language.Comma).
func (u *UI) Comma() string {
	if c := u.Language().Comma; c != "" {
		return c
	}
	return ", "
}

// LabelSep joins a label and its value ("Theme: auto"): a full-width
// colon in Chinese and Japanese ("主题：跟随系统").
func (u *UI) LabelSep() string {
	if u.Language().Tight {
		return "："
	}
	return ": "
}

// Fill replaces {0}, {1}… in the catalog's text s with args: one syntax
// for every language, whose word orders differ. s is read once, left to
// right, and an argument is copied in as it is, never read for
// placeholders itself: what a learner typed is quoted back as data, not
// expanded (a "{9}" typed into a link stays "{9}"). A placeholder with no
// argument stays as written.
func Fill(s string, args ...string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			break
		}
		close := strings.IndexByte(s[open:], '}')
		if close < 0 {
			break
		}
		n, err := strconv.Atoi(s[open+1 : open+close])
		if err != nil || n < 0 || n >= len(args) || s[open+1] == '+' {
			b.WriteString(s[:open+1])
			s = s[open+1:]
			continue
		}
		b.WriteString(s[:open])
		b.WriteString(args[n])
		s = s[open+close+1:]
	}
	if b.Len() == 0 {
		return s
	}
	b.WriteString(s)
	return b.String()
}

// Language is the registry entry of u's language.
func (u *UI) Language() *Language {
	prepare()
	return u.lang
}

// Count writes n with its thousands grouped as u's language groups them
// ("23,151"): the Lab's figures run to tens of thousands.
func (u *UI) Count(n int) string {
	if n < 0 {
		return "-" + u.Count(-n)
	}
	sep := u.Language().Group
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + sep + s[i:]
	}
	return s
}

// notFromEnglish are the UI's fields a language does not copy from
// English when it lacks them: the language code, and what translates
// English (the English text is the key, so English itself has none).
var notFromEnglish = map[string]bool{"Lang": true, "ModelPhrases": true, "GoComments": true, "ScriptGists": true, "ScriptsVerbatim": true, "PresetsVerbatim": true}

// fillGaps copies into dst every empty string (and missing map entry)
// that src has, and returns where: the paths of the strings a catalog
// lacks.
func fillGaps(dst, src reflect.Value, path string) []string {
	var missing []string
	switch dst.Kind() {
	case reflect.String:
		if dst.String() == "" && src.String() != "" {
			dst.SetString(src.String())
			missing = append(missing, path)
		}
	case reflect.Pointer:
		if src.IsNil() {
			return nil
		}
		if dst.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
		}
		return fillGaps(dst.Elem(), src.Elem(), path)
	case reflect.Struct:
		for i := range dst.NumField() {
			f := dst.Type().Field(i)
			if !f.IsExported() || notFromEnglish[f.Name] {
				continue
			}
			missing = append(missing, fillGaps(dst.Field(i), src.Field(i), join(path, f.Name))...)
		}
	case reflect.Map:
		if src.Len() == 0 {
			return nil
		}
		if dst.IsNil() {
			dst.Set(reflect.MakeMap(dst.Type()))
		}
		for _, k := range src.MapKeys() {
			if v := dst.MapIndex(k); !v.IsValid() || (v.Kind() == reflect.String && v.String() == "") {
				dst.SetMapIndex(k, src.MapIndex(k))
				missing = append(missing, join(path, fmt.Sprint(k.Interface())))
			}
		}
	case reflect.Slice:
		if dst.Len() == 0 && src.Len() > 0 {
			dst.Set(src)
			missing = append(missing, path)
		}
	}
	return missing
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// Codes are the registry's language codes, in its order.
func Codes() []string {
	var out []string
	for _, l := range Languages() {
		out = append(out, l.Code)
	}
	return out
}

// FullStop is the stop that ends a sentence of the language: "。" where
// it is Tight, "." otherwise.
func (l *Language) FullStop() string {
	if l.Tight {
		return "。"
	}
	return "."
}

// Sentences joins whole sentences: with a space, except after a
// full-width stop (Japanese and Chinese set none there).
func Sentences(ss ...string) string {
	var b strings.Builder
	for i, s := range ss {
		if i > 0 {
			b.WriteString(Gap(ss[i-1]))
		}
		b.WriteString(s)
	}
	return b.String()
}

// Gap is what goes between sentence s and the next: a space, or nothing
// after a full-width stop or bracket (Japanese and Chinese set no space
// between sentences, nor before "（").
func Gap(s string) string {
	for _, end := range []string{"。", "！", "？", "）", "」", "』", "："} {
		if strings.HasSuffix(s, end) {
			return ""
		}
	}
	return " "
}

// EndWith ends s with the stop a template adds after it, once: a reply
// quoted at the end of a sentence may end with its own (Redis's errors
// do: "… on @user_script:1."), which the template's would double (the
// full stop of Japanese and Chinese as well: "1.。").
func EndWith(s, template string) string {
	if strings.HasSuffix(template, ".") || strings.HasSuffix(template, "。") {
		// and not after a space: Redis's unknown-command error ends
		// with one ("… with args beginning with: 'x' ")
		return strings.TrimSuffix(strings.TrimRight(s, " "), ".")
	}
	return s
}

// Tidy takes out a space a template left between two words of a tight
// language's own script ("プライマリ が停止" → "プライマリが停止"), keeping
// the spaces around Latin letters and digits ("n3 が停止").
func (u *UI) Tidy(s string) string {
	if !u.Language().Tight || !strings.Contains(s, " ") {
		return s
	}
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if c == ' ' && i > 0 && i+1 < len(r) && cjk(r[i-1]) && cjk(r[i+1]) {
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// cjk: a letter of the Japanese or Chinese script (kana, ideographs, the
// long-vowel mark), or their full-width punctuation and brackets
// (「」（）、。：), which take no space either.
func cjk(c rune) bool {
	return unicode.In(c, unicode.Hiragana, unicode.Katakana, unicode.Han) || c == 'ー' ||
		(c >= 0x3000 && c <= 0x303f) || (c >= 0xff01 && c <= 0xff60)
}

// JoinAnd joins items with sep, the last two with and ("n1, n2 and n3").
// An and written without spaces (Japanese's, Chinese's) gets them beside
// a Latin name, as the site sets Latin words in Japanese and Chinese
// text ("n4", a space, the word, a space, "n5"); between two names in
// their own script it stays tight.
func JoinAnd(items []string, sep, and string) string {
	if len(items) < 2 {
		return strings.Join(items, sep)
	}
	a, b := items[len(items)-2], items[len(items)-1]
	if !strings.Contains(and, " ") && (a != "" && a[len(a)-1] < utf8.RuneSelf || b != "" && b[0] < utf8.RuneSelf) {
		and = " " + and + " "
	}
	return strings.Join(items[:len(items)-1], sep) + and + b
}

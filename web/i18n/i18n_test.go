package i18n

import (
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestCatalogsComplete: English has every string, and every other
// language of the registry has every string English has (a gap would be
// shown in English, with a log line, so it fails here first).
func TestCatalogsComplete(t *testing.T) {
	en := For(Fallback)
	walkStrings(reflect.ValueOf(en).Elem(), "", func(path string, v reflect.Value) {
		if isEmpty(v) {
			t.Errorf("en: %s is empty", path)
		}
	})
	for _, l := range Languages() {
		if m := l.Missing(); len(m) > 0 {
			t.Errorf("%s: %d strings missing (shown in English): %s", l.Code, len(m), strings.Join(m, ", "))
		}
		if got, want := len(l.UI.End.Rows), len(en.End.Rows); got != want {
			t.Errorf("%s: %d pitfall rows, English has %d", l.Code, got, want)
		}
		if got, want := len(l.UI.Shortcuts), len(en.Shortcuts); got != want {
			t.Errorf("%s: %d shortcuts, English has %d", l.Code, got, want)
		}
	}
}

// TestPlaceholders: a translation takes the same {0}, {1}… as English,
// so no argument is lost or shown raw.
func TestPlaceholders(t *testing.T) {
	en := map[string]string{}
	walkStrings(reflect.ValueOf(For(Fallback)).Elem(), "", func(path string, v reflect.Value) {
		if v.Kind() == reflect.String {
			en[path] = v.String()
		}
	})
	for _, l := range Languages() {
		walkStrings(reflect.ValueOf(l.UI).Elem(), "", func(path string, v reflect.Value) {
			if v.Kind() != reflect.String {
				return
			}
			if got, want := placeholders(v.String()), placeholders(en[path]); !slices.Equal(got, want) {
				t.Errorf("%s: %s takes %v, English takes %v", l.Code, path, got, want)
			}
		})
	}
}

var placeholder = regexp.MustCompile(`\{\d+\}`)

func placeholders(s string) []string {
	ps := placeholder.FindAllString(s, -1)
	slices.Sort(ps)
	return slices.Compact(ps)
}

// TestMissingFallsBack: a catalog with gaps gets English in them and
// says where, instead of showing nothing or panicking.
func TestMissingFallsBack(t *testing.T) {
	partial := &UI{Home: "Accueil", Lab: &LabUI{}, Verb: map[string]string{"acquire": "prendre"}}
	missing := fillGaps(reflect.ValueOf(partial).Elem(), reflect.ValueOf(For(Fallback)).Elem(), "")
	if partial.Home != "Accueil" || partial.Verb["acquire"] != "prendre" {
		t.Error("a string the catalog has was replaced")
	}
	if partial.NotFound != For(Fallback).NotFound || partial.Lab.Title != For(Fallback).Lab.Title || partial.Verb["release"] != For(Fallback).Verb["release"] {
		t.Error("a gap was not filled from English")
	}
	if partial.Class == nil || partial.Class.TeachLive == "" {
		t.Error("a missing feature catalog was not filled")
	}
	for _, want := range []string{"NotFound", "Lab.Title", "Verb.release", "Class.TeachLive"} {
		if !slices.Contains(missing, want) {
			t.Errorf("%s not reported missing", want)
		}
	}
	if slices.Contains(missing, "Home") {
		t.Error("Home reported missing")
	}
}

func TestNegotiate(t *testing.T) {
	for header, want := range map[string]string{
		"": "en", "ja": "ja", "ja-JP": "ja", "en-US": "en", "fr": "en", "fr-CH, fr;q=0.9": "en",
		"ja-JP,en;q=0.5": "ja", "en-GB,ja;q=0.5": "en", "de,ja;q=0.3": "ja", "garbage;;;": "en",
		// Chinese: Simplified whatever the region, and Traditional too
		// (there is no Traditional course; Chinese was asked for first).
		"zh": "zh", "zh-CN": "zh", "zh-SG": "zh", "zh-Hans": "zh", "zh-Hans-CN": "zh", "zh-CN,zh;q=0.9,en;q=0.8": "zh",
		"zh-TW": "zh", "zh-HK": "zh", "zh-Hant": "zh", "zh-Hant-TW,en;q=0.5": "zh", "zh-TW,ja;q=0.8": "zh",
		"en-US,zh-CN;q=0.5": "en", "ja,zh;q=0.5": "ja", "fr,zh-TW;q=0.5": "zh",
	} {
		if got := Negotiate(header); got != want {
			t.Errorf("Negotiate(%q) = %s, want %s", header, got, want)
		}
	}
}

// TestCount: counts are grouped by thousands as each language groups them.
func TestCount(t *testing.T) {
	for _, l := range Languages() {
		for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 23151: "23,151", 132203: "132,203", 1234567: "1,234,567", -4200: "-4,200"} {
			want = strings.ReplaceAll(want, ",", l.Group)
			if got := l.UI.Count(n); got != want {
				t.Errorf("%s: Count(%d) = %q, want %q", l.Code, n, got, want)
			}
		}
	}
}

// TestRegistry: codes are unique and each entry is whole.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range Languages() {
		if seen[l.Code] || l.Code == "" || l.Name == "" || l.HTMLLang == "" || l.ListSep == "" || l.NameSep == "" || l.Group == "" || l.Quote[0] == "" || l.UI == nil {
			t.Errorf("registry entry %q is duplicated or incomplete", l.Code)
		}
		seen[l.Code] = true
		if For(l.Code) != l.UI || l.UI.Lang != l.Code || l.UI.Language() != l {
			t.Errorf("%s: lookup does not find its own catalog", l.Code)
		}
	}
	if !seen[Fallback] {
		t.Errorf("the fallback %q is not in the registry", Fallback)
	}
	if For("xx") != For(Fallback) {
		t.Error("an unknown code does not get the fallback")
	}
}

// walkStrings calls f on every string, map and slice of a catalog.
func walkStrings(v reflect.Value, path string, f func(string, reflect.Value)) {
	switch v.Kind() {
	case reflect.String:
		f(path, v)
	case reflect.Pointer:
		if !v.IsNil() {
			walkStrings(v.Elem(), path, f)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fd := v.Type().Field(i)
			if !fd.IsExported() || notFromEnglish[fd.Name] {
				continue
			}
			walkStrings(v.Field(i), join(path, fd.Name), f)
		}
	case reflect.Map:
		f(path, v)
		for _, k := range v.MapKeys() {
			walkStrings(v.MapIndex(k), join(path, reflect.ValueOf(k.Interface()).String()), f)
		}
	case reflect.Slice:
		f(path, v)
		for i := range v.Len() {
			walkStrings(v.Index(i), path+"["+strconv.Itoa(i)+"]", f)
		}
	case reflect.Array:
		for i := range v.Len() {
			walkStrings(v.Index(i), path+"["+strconv.Itoa(i)+"]", f)
		}
	}
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return v.String() == ""
	case reflect.Map, reflect.Slice:
		return v.Len() == 0
	}
	return false
}

// TestTidy: a tight language loses a space between two words of its own
// script, and keeps the ones around Latin letters and digits.
func TestTidy(t *testing.T) {
	ja, en := For("ja"), For("en")
	for in, want := range map[string]string{
		"プライマリ が停止": "プライマリが停止", "n3 が停止": "n3 が停止", "レプリカ がプライマリになった": "レプリカがプライマリになった",
		"A が 2s 作業": "A が 2s 作業",
	} {
		if got := ja.Tidy(in); got != want {
			t.Errorf("ja.Tidy(%q) = %q, want %q", in, got, want)
		}
	}
	if got := en.Tidy("the primary is down"); got != "the primary is down" {
		t.Errorf("en.Tidy changed %q", got)
	}
}

// TestFillQuotesArgumentsAsData: an argument is what the learner typed and
// is copied in once, never read for placeholders (the security test's F6:
// "{9}" typed into a link expanded to internal lists, and repeated it made
// an 8 KB link answer a 4 MB page).
func TestFillQuotesArgumentsAsData(t *testing.T) {
	typed := "{1}{9}{0}"
	eleven := []string{typed, "x", "", "", "", "", "", "", "", "nine", "ten"}
	for _, c := range []struct {
		s    string
		args []string
		want string
	}{
		{"“{0}” is not {1}", []string{typed, "x"}, "“{1}{9}{0}” is not x"},
		{"{0}/{10}/{1}/{9}", eleven, "{1}{9}{0}/ten/x/nine"},
		{"{0} {5} {x} {} { {+1}", []string{typed, "x"}, "{1}{9}{0} {5} {x} {} { {+1}"},
		{"no placeholders", nil, "no placeholders"},
	} {
		if got := Fill(c.s, c.args...); got != c.want {
			t.Errorf("Fill(%q) = %q, want %q", c.s, got, c.want)
		}
	}
	long := strings.Repeat("{9}", 1169)
	if got := Fill("“{0}” {9}", append([]string{long}, eleven[1:]...)...); len(got) > len(long)+20 {
		t.Errorf("Fill grew a typed {9}… to %d bytes", len(got))
	}
}

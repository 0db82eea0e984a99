// Package pseudo is a language that exists only for tests: its catalog is
// English with every string wrapped in ⟦ ⟧, and its lessons are the English
// lessons with every line of prose wrapped the same way. A page rendered in
// it shows, outside the markers, only what no catalog translates (code,
// commands, replies, numbers, the learner's own data): any other text is a
// string hard-coded in Go or a template, which TestPseudoLocale finds.
//
// It is also the proof that a language is data: Register adds it to the
// site with one registry entry, one catalog and one lessons folder, and
// nothing else changes.
package pseudo

import (
	"io/fs"
	"path"
	"reflect"
	"regexp"
	"strings"
	"testing/fstest"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"

	"locklab/web/i18n"
)

// Code is the pseudo-locale's code (its URL segment and lessons folder).
const Code = "xa"

// Open and Close mark a translated string.
const Open, Close = "⟦", "⟧"

// Language is the registry entry: English's separators and grouping, a
// catalog of English wrapped.
func Language() *i18n.Language {
	en, _ := i18n.Lookup(i18n.Fallback)
	u := &i18n.UI{}
	wrapCopy(reflect.ValueOf(u).Elem(), reflect.ValueOf(en.UI).Elem(), "")
	// the simulator's model phrases, matched as another language matches
	// them, come out wrapped whole
	ja, _ := i18n.Lookup("ja")
	u.ModelPhrases = nil
	for _, p := range ja.UI.ModelPhrases {
		u.ModelPhrases = append(u.ModelPhrases, i18n.Phrase{Pattern: p.Pattern, Text: Open + "${0}" + Close})
	}
	u.GoComments = nil
	return &i18n.Language{Code: Code, Tag: language.MustParse("en-XA"), HTMLLang: "en-XA", Name: Open + "Pseudo" + Close,
		ListSep: en.ListSep, NameSep: en.NameSep, Group: en.Group, Quote: en.Quote, UI: u}
}

// Register adds the pseudo-locale to the registry (before anything looks
// a language up).
func Register() { i18n.Register(Language()) }

// wrapCopy copies src into dst with every string wrapped (map keys and
// the shortcuts' keys stay as they are: they are keys, not words).
func wrapCopy(dst, src reflect.Value, field string) {
	switch src.Kind() {
	case reflect.String:
		switch s := src.String(); {
		case field == "Lang" || field == "Slug": // codes, not words
			dst.SetString(s)
		case s != "":
			dst.SetString(Open + s + Close)
		}
	case reflect.Pointer:
		if !src.IsNil() {
			dst.Set(reflect.New(src.Type().Elem()))
			wrapCopy(dst.Elem(), src.Elem(), field)
		}
	case reflect.Struct:
		for i := range src.NumField() {
			if f := src.Type().Field(i); f.IsExported() {
				wrapCopy(dst.Field(i), src.Field(i), f.Name)
			}
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.MakeMap(src.Type()))
		for _, k := range src.MapKeys() {
			v := reflect.New(src.Type().Elem()).Elem()
			wrapCopy(v, src.MapIndex(k), field)
			dst.SetMapIndex(k, v)
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.MakeSlice(src.Type(), src.Len(), src.Len()))
		for i := range src.Len() {
			wrapCopy(dst.Index(i), src.Index(i), field)
		}
	case reflect.Array:
		for i := range src.Len() {
			if field == "Shortcuts" && i == 0 {
				dst.Index(i).Set(src.Index(i)) // the key itself
				continue
			}
			wrapCopy(dst.Index(i), src.Index(i), field)
		}
	}
}

// Lessons is lessons (a folder per language, as lessons.LoadFS reads them)
// with an xa/ folder added: en/'s lessons with every title, heading, line
// of dialog, note and checkpoint wrapped, the directives and code kept,
// and en/'s challenges with each title and why wrapped.
func Lessons(lessons fs.FS) (fs.FS, error) {
	out := fstest.MapFS{}
	err := fs.WalkDir(lessons, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") && !strings.HasSuffix(p, "challenges.yaml") {
			return err
		}
		b, err := fs.ReadFile(lessons, p)
		if err != nil {
			return err
		}
		out[p] = &fstest.MapFile{Data: b}
		dir, name := path.Split(p)
		switch {
		case dir == "en/" && name == "challenges.yaml":
			words := map[string]map[string]string{}
			if err := yaml.Unmarshal(b, &words); err != nil {
				return err
			}
			for _, w := range words {
				for k, v := range w {
					w[k] = Open + v + Close
				}
			}
			if b, err = yaml.Marshal(words); err != nil {
				return err
			}
			out[Code+"/"+name] = &fstest.MapFile{Data: b}
		case dir == "en/":
			out[Code+"/"+name] = &fstest.MapFile{Data: []byte(wrapLesson(string(b)))}
		}
		return nil
	})
	return out, err
}

var (
	frontText = regexp.MustCompile(`^(title|summary): "(.*)"$`)
	choice    = regexp.MustCompile(`^(- \[[ x]\] )(.*?)( :: )(.*)$`)
	directive = regexp.MustCompile(`^(do|opt|reset):`)
	speaker   = regexp.MustCompile(`^(chick:|penguin:|predict:|review:) (.*)$`)
)

// wrapLesson wraps a lesson file's prose, a paragraph at a time.
func wrapLesson(src string) string {
	lines := strings.Split(src, "\n")
	var out []string
	inFront, inCode, open := false, false, false
	closePara := func() {
		if open {
			out[len(out)-1] += Close
			open = false
		}
	}
	for i, l := range lines {
		switch {
		case l == "---" && (i == 0 || inFront):
			inFront = i == 0
			out = append(out, l)
			continue
		case inFront:
			if m := frontText.FindStringSubmatch(l); m != nil {
				l = m[1] + `: "` + Open + m[2] + Close + `"`
			}
			out = append(out, l)
			continue
		case strings.HasPrefix(l, "```"):
			closePara()
			inCode = !inCode
			out = append(out, l)
			continue
		case inCode:
			out = append(out, l)
			continue
		case l == "":
			closePara()
			out = append(out, l)
			continue
		case strings.HasPrefix(l, "## "):
			closePara()
			out = append(out, "## "+Open+l[3:]+Close)
			continue
		case directive.MatchString(l):
			out = append(out, l)
			continue
		}
		if m := choice.FindStringSubmatch(l); m != nil {
			closePara()
			out = append(out, m[1]+Open+m[2]+Close+m[3]+Open+m[4])
			open = true // an indented line may continue the explanation
			continue
		}
		if m := speaker.FindStringSubmatch(l); m != nil {
			closePara()
			out = append(out, m[1]+" "+Open+m[2])
			open = true
			continue
		}
		if !open {
			out = append(out, Open+l)
			open = true
			continue
		}
		out = append(out, l)
	}
	closePara()
	return strings.Join(out, "\n")
}

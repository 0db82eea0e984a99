package i18n

import "regexp"

// phrase is a compiled Phrase.
type phrase struct {
	re   *regexp.Regexp
	text string
}

func (u *UI) compilePhrases() {
	u.phrases = make([]phrase, len(u.ModelPhrases))
	for i, p := range u.ModelPhrases {
		u.phrases[i] = phrase{regexp.MustCompile(`^` + p.Pattern + `$`), p.Text}
	}
}

// Localize returns s, a phrase the simulator wrote in English, in u's
// language: translated when one of the catalog's model phrases matches it
// whole, else unchanged (sim/ stays language-neutral: its strings are
// also the JSON API, the golden transcripts and the explorer's state).
func (u *UI) Localize(s string) string {
	prepare()
	if s == "" {
		return s
	}
	for _, p := range u.phrases {
		if p.re.MatchString(s) {
			return p.re.ReplaceAllString(s, p.text)
		}
	}
	return s
}

// GoComment is a comment of a generated Go program in u's language; the
// English text is its key.
func (u *UI) GoComment(en string) string {
	if t, ok := u.GoComments[en]; ok {
		return t
	}
	return en
}

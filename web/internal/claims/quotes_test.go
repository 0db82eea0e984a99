package claims_test

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/narrate"
)

var tags = regexp.MustCompile(`<[^>]*>`)

// TestLessonQuotesChecker: where a lesson's dialog or notes name a failure
// in bold and go on after a colon ("the checker flags **Exclusion lost**:
// B took…"), what follows is the checker's own sentence on that step's
// timeline, word for word — a reader compares the two.
func TestLessonQuotesChecker(t *testing.T) {
	t.Parallel()
	cat, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range i18n.Codes() {
		u := i18n.For(code)
		for _, l := range cat.List(code) {
			for i, st := range l.Steps {
				tl, err := sim.Run(l.Scenario.ID, st.Do, st.Opt)
				if err != nil {
					t.Fatal(err)
				}
				var said []string
				for _, v := range tl.Violations {
					said = append(said, narrate.ViolationText(u, v))
				}
				texts := append([]string(nil), st.Notes...)
				for _, ln := range st.Lines {
					texts = append(texts, ln.HTML)
				}
				for _, h := range texts {
					for _, q := range quotes(u, h) {
						if !quoted(q, said) {
							t.Errorf("%s/%s step %d quotes the checker as %q; the page says %q", code, l.Slug, i+1, q, said)
						}
					}
				}
			}
		}
	}
}

// quotes are the sentences after a failure's bold name and a colon in h.
func quotes(u *i18n.UI, h string) []string {
	var out []string
	for _, k := range sim.Kinds {
		name := u.Failures[k].Name
		for _, sep := range []string{"</strong>: ", "</strong>："} {
			rest := h
			for {
				i := strings.Index(rest, "<strong>"+name+sep)
				if i < 0 {
					break
				}
				rest = rest[i+len("<strong>"+name+sep):]
				s := html.UnescapeString(tags.ReplaceAllString(rest, ""))
				if j := strings.IndexAny(s, ".。"); j >= 0 {
					s = s[:j]
				}
				out = append(out, name+"："+strings.TrimSpace(s))
			}
		}
	}
	return out
}

// quoted: q (name：sentence) is the start of what the checker said, its
// name and first sentence.
func quoted(q string, said []string) bool {
	name, sentence, _ := strings.Cut(q, "：")
	for _, s := range said {
		s = strings.Replace(s, ": ", "：", 1)
		if strings.HasPrefix(s, name+"：") && strings.Contains(s, sentence) {
			return true
		}
	}
	return false
}

var luaBlock = regexp.MustCompile(`(?s)<pre[^>]*><code class="language-lua">(.*?)</code></pre>`)

// TestLessonScriptsAreRun: a Lua script a lesson shows is the script its
// timeline runs, statement for statement (its comments may be in the
// lesson's language): the reader compares it with the log's "Lua scripts
// used".
func TestLessonScriptsAreRun(t *testing.T) {
	t.Parallel()
	cat, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	run := map[string]string{}
	for name, body := range sim.Scripts {
		run[code(body)] = name
	}
	for _, c := range i18n.Codes() {
		for _, l := range cat.List(c) {
			for i, st := range l.Steps {
				for _, ln := range st.Lines {
					for _, m := range luaBlock.FindAllStringSubmatch(ln.HTML, -1) {
						if _, ok := run[code(html.UnescapeString(m[1]))]; !ok {
							t.Errorf("%s/%s step %d shows a script no timeline runs:\n%s", c, l.Slug, i+1, html.UnescapeString(m[1]))
						}
					}
				}
			}
		}
	}
}

// code is a Lua script's statements: comments and spacing taken out.
func code(src string) string {
	var out []string
	for _, line := range strings.Split(src, "\n") {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i]
		}
		if line = strings.Join(strings.Fields(line), " "); line != "" {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}

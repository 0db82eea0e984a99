package lessons

import (
	"strings"
	"testing"
	"testing/fstest"

	"locklab/sim"
)

// TestEveryLessonEveryLanguage walks the whole course the way the Go Tour's
// content test does: each lesson loads in each language, and every guided
// step replays on the simulator without error.
func TestEveryLessonEveryLanguage(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range Langs {
		list := c.List(lang)
		if len(list) == 0 {
			t.Fatalf("no lessons in %s", lang)
		}
		for _, l := range list {
			for _, st := range l.Steps {
				if _, err := sim.Run(l.Scenario.ID, st.Do, st.Opt); err != nil {
					t.Errorf("%s/%s step %d %q does not replay: %v", lang, l.Slug, st.Index+1, st.Title, err)
				}
				for _, ln := range st.Lines {
					if strings.TrimSpace(ln.HTML) == "" {
						t.Errorf("%s/%s step %d: empty %s line", lang, l.Slug, st.Index+1, ln.Role)
					}
				}
			}
			if i, exact := l.Locate(l.Steps[len(l.Steps)-1].Do, l.Steps[len(l.Steps)-1].Opt); !exact || i != len(l.Steps)-1 {
				t.Errorf("%s/%s: the last step does not locate itself (got %d)", lang, l.Slug, i)
			}
		}
	}
}

func TestLocate(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	l, _ := c.Get("en", "fencing")
	cases := []struct {
		do, opt string
		idx     int
		exact   bool
	}{
		{"", "", 0, true},
		{"a.acquire", "", 1, true},
		{"a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write,a.release", "release.del", 9, true},
		{"a.acquire,b.acquire", "", 1, false},         // left the path after step 2
		{"b.acquire", "", 0, false},                   // left it at once
		{"a.acquire,a.pause", "fence.off", -1, false}, // no step uses fence.off this early
	}
	for _, tc := range cases {
		idx, exact := l.Locate(tc.do, tc.opt)
		if idx != tc.idx || exact != tc.exact {
			t.Errorf("Locate(%q, %q) = %d, %v; want %d, %v", tc.do, tc.opt, idx, exact, tc.idx, tc.exact)
		}
	}
}

const good = `---
slug: x
title: X
order: 1
scenario: fencing
summary: S
---

## One
do: a.acquire

chick: Q?

penguin: A.
`

// TestLoadRejects proves the loader fails on the content mistakes a lesson
// author can make, naming the file.
func TestLoadRejects(t *testing.T) {
	cases := map[string]struct{ en, ja string }{
		"missing translation": {good, ""},
		"unknown action":      {good, strings.Replace(good, "a.acquire", "a.jump", 1)},
		"unknown option":      {good, strings.Replace(good, "do: a.acquire", "do: a.acquire\nopt: fence.maybe", 1)},
		"different path":      {good, strings.Replace(good, "a.acquire", "b.acquire", 1)},
		"unknown scenario":    {good, strings.Replace(good, "fencing", "nope", 1)},
		"unknown field":       {good, strings.Replace(good, "order: 1", "order: 1\ncolour: red", 1)},
		"no dialog":           {good, strings.Replace(good, "chick: Q?\n\npenguin: A.\n", "just text\n", 1)},
		"no front matter":     {good, "## One\nchick: hi\n"},
	}
	for name, tc := range cases {
		fsys := fstest.MapFS{"en/01-x.md": {Data: []byte(tc.en)}}
		if tc.ja != "" {
			fsys["ja/01-x.md"] = &fstest.MapFile{Data: []byte(tc.ja)}
		}
		if _, err := load(fsys); err == nil {
			t.Errorf("%s: loaded without error", name)
		}
	}
	fsys := fstest.MapFS{"en/01-x.md": {Data: []byte(good)}, "ja/01-x.md": {Data: []byte(good)}}
	if _, err := load(fsys); err != nil {
		t.Fatalf("the good lesson does not load: %v", err)
	}
}

func TestDialogParsing(t *testing.T) {
	src := strings.Replace(good, "penguin: A.\n", "penguin: A `SET`.\n\n```lua\nreturn 1\n```\n\nLook at the log.\n", 1)
	l, err := parse(newMarkdown(), "en", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	st := l.Steps[0]
	if len(st.Lines) != 2 || st.Lines[0].Role != Chick || st.Lines[1].Role != Penguin {
		t.Fatalf("lines = %+v", st.Lines)
	}
	if !strings.Contains(st.Lines[1].HTML, "<code>SET</code>") || !strings.Contains(st.Lines[1].HTML, `<pre><code class="language-lua">return 1`) {
		t.Errorf("penguin line lost its code: %s", st.Lines[1].HTML)
	}
	if len(st.Notes) != 1 || !strings.Contains(st.Notes[0], "Look at the log.") {
		t.Errorf("notes = %q", st.Notes)
	}
	if st.Do != "a.acquire" {
		t.Errorf("do = %q", st.Do)
	}
}

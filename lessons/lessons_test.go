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
	for _, lang := range c.Langs() {
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
		{"a.acquire,b.acquire", "", 1, false}, // left the path after step 2
		{"b.acquire", "", 0, false},           // left it at once
		// no step uses fence.off this early: the last step under any
		// options whose actions it starts with (so "Back to the guided
		// path" after an Undo on a "What if…" step is not step 1)
		{"a.acquire,a.pause", "fence.off", 2, false},
		{"a.pause", "fence.off", 0, false},
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
		"slug with a dot":     {strings.Replace(good, "slug: x", "slug: x.y", 1), strings.Replace(good, "slug: x", "slug: x.y", 1)},
	}
	for name, tc := range cases {
		fsys := fstest.MapFS{"en/01-x.md": {Data: []byte(tc.en)}}
		if tc.ja != "" {
			fsys["ja/01-x.md"] = &fstest.MapFile{Data: []byte(tc.ja)}
		}
		if _, err := LoadFS(fsys, "en", "ja"); err == nil {
			t.Errorf("%s: loaded without error", name)
		}
	}
	fsys := fstest.MapFS{"en/01-x.md": {Data: []byte(good)}, "ja/01-x.md": {Data: []byte(good)}}
	if _, err := LoadFS(fsys); err != nil {
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
	if !strings.Contains(st.Lines[1].HTML, "<code>SET</code>") || !strings.Contains(st.Lines[1].HTML, `<pre tabindex="0"><code class="language-lua">return 1`) {
		t.Errorf("penguin line lost its code: %s", st.Lines[1].HTML)
	}
	if len(st.Notes) != 1 || !strings.Contains(st.Notes[0], "Look at the log.") {
		t.Errorf("notes = %q", st.Notes)
	}
	if st.Do != "a.acquire" {
		t.Errorf("do = %q", st.Do)
	}
}

// twoSteps is a good lesson whose second step has a checkpoint.
const twoSteps = good + `
## Two
do: a.pause

predict: What does the pause do to the lock?
  Think of the TTL.
- [x] Nothing: the key keeps counting down :: Right: Redis sees nothing.
- [ ] Redis deletes it :: No: a pause is invisible to Redis, and ` + "`a :: b`" + ` stays text.
  Only the TTL ends it.

chick: Stopped?

penguin: Stopped.
`

func TestCheckpointParsing(t *testing.T) {
	l, err := parse(newMarkdown(), "en", []byte(twoSteps))
	if err != nil {
		t.Fatal(err)
	}
	if l.Steps[0].Checkpoint != nil {
		t.Error("step 1 got a checkpoint")
	}
	cp := l.Steps[1].Checkpoint
	if cp == nil {
		t.Fatal("step 2 has no checkpoint")
	}
	if cp.QuestionHTML != "What does the pause do to the lock?\nThink of the TTL." {
		t.Errorf("question = %q", cp.QuestionHTML)
	}
	if len(cp.Choices) != 2 || !cp.Choices[0].Correct || cp.Choices[1].Correct {
		t.Fatalf("choices = %+v", cp.Choices)
	}
	if cp.Choices[0].HTML != "Nothing: the key keeps counting down" || cp.Choices[0].ExplainHTML != "Right: Redis sees nothing." {
		t.Errorf("choice 1 = %+v", cp.Choices[0])
	}
	if want := "No: a pause is invisible to Redis, and <code>a :: b</code> stays text. Only the TTL ends it."; cp.Choices[1].ExplainHTML != want {
		t.Errorf("choice 2 explanation = %q, want %q", cp.Choices[1].ExplainHTML, want)
	}
	if got := cp.Correct(); len(got) != 1 || got[0] != 1 {
		t.Errorf("Correct() = %v", got)
	}
	if len(l.Steps[1].Lines) != 2 || len(l.Steps[1].Notes) != 0 {
		t.Errorf("the predict block leaked into the dialog: lines %d, notes %q", len(l.Steps[1].Lines), l.Steps[1].Notes)
	}
}

// TestLoadRejectsCheckpoints: every checkpoint mistake fails Load, and the
// error names the file that has it.
func TestLoadRejectsCheckpoints(t *testing.T) {
	choices := "- [x] Nothing: the key keeps counting down :: Right: Redis sees nothing.\n"
	noChoices := twoSteps[:strings.Index(twoSteps, "- [x]")] + twoSteps[strings.Index(twoSteps, "\nchick: Stopped?"):]
	cases := map[string]struct{ en, ja, file string }{
		"no choices":           {twoSteps, noChoices, "ja/01-x.md"},
		"one choice":           {strings.Replace(twoSteps, choices, "", 1), twoSteps, "en/01-x.md"},
		"no correct choice":    {strings.Replace(twoSteps, "- [x]", "- [ ]", 1), twoSteps, "en/01-x.md"},
		"missing explanation":  {twoSteps, strings.Replace(twoSteps, " :: Right: Redis sees nothing.", "", 1), "ja/01-x.md"},
		"empty explanation":    {twoSteps, strings.Replace(twoSteps, ":: Right: Redis sees nothing.", "::", 1), "ja/01-x.md"},
		"too many choices":     {strings.Replace(twoSteps, choices, strings.Repeat(choices, 5), 1), twoSteps, "en/01-x.md"},
		"no question":          {strings.Replace(twoSteps, "predict: What does the pause do to the lock?\n  Think of the TTL.", "predict:", 1), twoSteps, "en/01-x.md"},
		"not inline":           {strings.Replace(twoSteps, "Nothing: the key", "# Nothing: the key", 1), twoSteps, "en/01-x.md"},
		"stray line":           {strings.Replace(twoSteps, "  Only the TTL", "Only the TTL", 1), twoSteps, "en/01-x.md"},
		"checkpoint on step 1": {strings.Replace(twoSteps, "do: a.acquire\n", "do: a.acquire\n\npredict: Q?\n- [x] a :: b\n- [ ] c :: d\n", 1), twoSteps, "en/01-x.md"},
		"two checkpoints":      {strings.Replace(twoSteps, "chick: Stopped?", "predict: Q?\n- [x] a :: b\n- [ ] c :: d\n\nchick: Stopped?", 1), twoSteps, "en/01-x.md"},
		// Translations must agree on the checkpoints' shape.
		"one language only":   {twoSteps, strings.Replace(twoSteps, "predict:", "chick: predict:", 1), "two"},
		"other choice count":  {strings.Replace(twoSteps, choices, choices+"- [ ] A third :: No.\n", 1), twoSteps, "two"},
		"other correct index": {strings.NewReplacer("- [x]", "- [ ]", "- [ ] Redis", "- [x] Redis").Replace(twoSteps), twoSteps, "two"},
	}
	for name, tc := range cases {
		fsys := fstest.MapFS{"en/01-x.md": {Data: []byte(tc.en)}, "ja/01-x.md": {Data: []byte(tc.ja)}}
		_, err := LoadFS(fsys)
		switch {
		case err == nil:
			t.Errorf("%s: loaded without error", name)
		case tc.file == "two" && !strings.Contains(err.Error(), "x step 2"):
			t.Errorf("%s: error does not name the lesson and step: %v", name, err)
		case tc.file != "two" && !strings.HasPrefix(err.Error(), tc.file+": "):
			t.Errorf("%s: error does not name %s: %v", name, tc.file, err)
		}
	}
	fsys := fstest.MapFS{"en/01-x.md": {Data: []byte(twoSteps)}, "ja/01-x.md": {Data: []byte(twoSteps)}}
	if _, err := LoadFS(fsys); err != nil {
		t.Fatalf("the good two-step lesson does not load: %v", err)
	}
}

// TestFencingCheckpoints pins the fencing lesson's predictions to the
// steps that reveal them: A's late write, A's release, B's retry under
// the strict token policy, A's write after its own "still mine?" check,
// and the older write landing last past a two-command storage check.
func TestFencingCheckpoints(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range c.Langs() {
		l, _ := c.Get(lang, "fencing")
		var got []string
		for _, st := range l.Steps {
			if st.Checkpoint == nil {
				continue
			}
			got = append(got, st.Do)
			for i, ch := range st.Checkpoint.Choices {
				if ch.HTML == "" || ch.ExplainHTML == "" {
					t.Errorf("%s step %d choice %d: empty text or explanation", lang, st.Index+1, i+1)
				}
			}
		}
		want := []string{
			"a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write",
			"a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write,a.release",
			"a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write,a.release,b.write",
			"a.acquire,a.write,a.pause,wait.9s,b.acquire,b.write,b.next,a.resume,a.next",
			"a.acquire,a.pause,wait.10s,b.acquire,a.resume,a.write,b.write,b.next,a.next",
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: checkpoints on %q, want %q", lang, got, want)
		}
	}
}

// TestStepViolations: Load replays each step once and keeps the kinds of
// violation its timeline shows.
func TestStepViolations(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	l, _ := c.Get("en", "fencing")
	byTitle := map[string]string{}
	for _, st := range l.Steps {
		if st.Violations == nil {
			t.Errorf("step %d: Violations is nil, want an empty list at least", st.Index+1)
		}
		var ks []string
		for _, k := range st.Violations {
			ks = append(ks, string(k))
		}
		byTitle[st.Title] = strings.Join(ks, ",")
	}
	for title, want := range map[string]string{
		"Two servers, one order":                    "",
		"The TTL runs out":                          "",
		"B gets the lock":                           "overlap",
		"What if release were a plain DEL?":         "overlap,foreign-delete",
		"What if the storage did not check tokens?": "overlap,stale-write",
		"A writes after its check":                  "overlap,stale-write",
		"The check that helps is at the storage":    "overlap",
		"B reads the same “no token” too":           "overlap",
		"The older write lands last":                "overlap,stale-write",
	} {
		if got, ok := byTitle[title]; !ok || got != want {
			t.Errorf("%q: violations %q, want %q", title, got, want)
		}
	}
}

// TestAhead: after an Undo, the way back to the path is the step the
// Undo left, not the step before all of it (a trial: one Undo on step
// 18, then "Back to the guided path", put a class on step 5).
func TestAhead(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	l, _ := c.Get("en", "fencing")
	for i, s := range l.Steps {
		acts := strings.Split(s.Do, ",")
		if s.Do == "" || len(acts) < 2 {
			continue
		}
		undone := strings.Join(acts[:len(acts)-1], ",")
		if j, exact := l.Locate(undone, s.Opt); exact {
			_ = j
			continue // the Undo is a step itself
		}
		if a := l.Ahead(undone, s.Opt); a < 0 || a > i {
			t.Errorf("step %d undone: Ahead = %d, want a step up to %d", i+1, a+1, i+1)
		}
	}
}

// Package lessons holds Lock Lab's lesson content — one Markdown file per
// lesson per language, embedded in the binary — and the code that loads,
// checks and renders it once at start-up. Handlers only look lessons up.
package lessons

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"locklab/sim"
)

// files holds one folder of lessons per language, named by its code.
//
//go:embed */*.md challenges.yaml */challenges.yaml
var files embed.FS

// Role says who speaks a line of the dialog.
type Role string

// The speakers.
const (
	Chick   Role = "chick"   // ひよこ asks
	Penguin Role = "penguin" // ペンギン先生 answers
)

// Line is one speech of the dialog, rendered to HTML.
type Line struct {
	Role Role
	HTML string
}

// Step is one guided step: the dialog at that point and the state of the
// timeline the learner reaches by taking it.
type Step struct {
	Index int // from 0
	Title string
	// Adds are the actions this step performs, on top of the earlier steps'
	// (or on top of nothing, with Reset).
	Adds  []sim.Action
	Reset bool
	// Do and Opt are the canonical URL state of the timeline at this step.
	Do, Opt string
	Lines   []Line
	Notes   []string // narration HTML: what to look at, what to press
	// Checkpoint, if any, is asked on the step before this one and
	// answered on this one.
	Checkpoint *Checkpoint
	// Violations are the kinds of violation the timeline at this step
	// shows, in order of first appearance (replayed once, at Load).
	Violations []sim.ViolationKind
}

// Lesson is one lesson in one language.
type Lesson struct {
	Lang     string
	Slug     string
	Title    string
	Summary  string
	Order    int
	Scenario *sim.Scenario
	Steps    []Step
}

// Checkpoints is how many of l's steps answer a checkpoint.
func (l *Lesson) Checkpoints() int {
	n := 0
	for _, st := range l.Steps {
		if st.Checkpoint != nil {
			n++
		}
	}
	return n
}

// Catalog is every lesson in every language, in course order.
type Catalog struct {
	langs      []string
	list       map[string][]*Lesson
	challenges map[string][]*Challenge // challenges.go
}

// Load reads, parses, checks and renders the embedded lessons of langs
// (main passes the languages the site offers), or of every language
// folder embedded if langs is empty. The first language is the one the
// others are checked against.
func Load(langs ...string) (*Catalog, error) { return LoadFS(files, langs...) }

// LoadFS is Load from another file system, laid out the same way
// (<lang>/NN-slug.md): a test adds a language that way.
func LoadFS(fsys fs.FS, langs ...string) (*Catalog, error) {
	if len(langs) == 0 {
		dirs, err := fs.ReadDir(fsys, ".")
		if err != nil {
			return nil, err
		}
		for _, d := range dirs {
			if d.IsDir() {
				langs = append(langs, d.Name())
			}
		}
	}
	c := &Catalog{langs: langs, list: map[string][]*Lesson{}}
	md := newMarkdown()
	for _, lang := range langs {
		names, err := fs.Glob(fsys, lang+"/*.md")
		if err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("lessons: no lessons in %s/", lang)
		}
		for _, name := range names {
			src, err := fs.ReadFile(fsys, name)
			if err != nil {
				return nil, err
			}
			l, err := parse(md, lang, src)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			if want := fmt.Sprintf("%02d-%s.md", l.Order, l.Slug); path.Base(name) != want {
				return nil, fmt.Errorf("%s: file name should be %s", name, want)
			}
			if err := l.replaySteps(); err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			c.list[lang] = append(c.list[lang], l)
		}
		sort.Slice(c.list[lang], func(i, j int) bool { return c.list[lang][i].Order < c.list[lang][j].Order })
	}
	if err := c.checkTranslations(); err != nil {
		return nil, err
	}
	if err := c.loadChallenges(fsys); err != nil {
		return nil, err
	}
	return c, nil
}

// Langs are the languages loaded, in the order Load was given them.
func (c *Catalog) Langs() []string { return c.langs }

// replaySteps replays every guided step once and records which kinds of
// violation its timeline shows; a step that does not replay is an error.
func (l *Lesson) replaySteps() error {
	for i := range l.Steps {
		st := &l.Steps[i]
		opts, err := l.Scenario.ParseOptions(st.Opt)
		if err != nil {
			return fmt.Errorf("step %d %q: %w", i+1, st.Title, err)
		}
		actions, err := sim.ParseActions(st.Do)
		if err != nil {
			return fmt.Errorf("step %d %q: %w", i+1, st.Title, err)
		}
		tl, err := sim.Replay(l.Scenario, opts, actions)
		if err != nil {
			return fmt.Errorf("step %d %q does not replay: %w", i+1, st.Title, err)
		}
		st.Violations = []sim.ViolationKind{}
		for _, v := range tl.Violations {
			if !slices.Contains(st.Violations, v.Kind) {
				st.Violations = append(st.Violations, v.Kind)
			}
		}
	}
	return nil
}

// checkTranslations insists that every lesson exists in every language with
// the same order, scenario and guided path: only the words may differ.
func (c *Catalog) checkTranslations() error {
	ref := c.list[c.langs[0]]
	for _, lang := range c.langs[1:] {
		other := c.list[lang]
		if len(other) != len(ref) {
			return fmt.Errorf("lessons: %d in %s but %d in %s", len(ref), c.langs[0], len(other), lang)
		}
		for i, a := range ref {
			b := other[i]
			if a.Slug != b.Slug || a.Order != b.Order || a.Scenario.ID != b.Scenario.ID {
				return fmt.Errorf("lessons: %s/%s and %s/%s do not match (slug, order or scenario)", a.Lang, a.Slug, b.Lang, b.Slug)
			}
			if len(a.Steps) != len(b.Steps) {
				return fmt.Errorf("lessons: %s has %d steps in %s, %d in %s", a.Slug, len(a.Steps), a.Lang, len(b.Steps), b.Lang)
			}
			for k := range a.Steps {
				if a.Steps[k].Do != b.Steps[k].Do || a.Steps[k].Opt != b.Steps[k].Opt {
					return fmt.Errorf("lessons: %s step %d: %s says do=%q opt=%q, %s says do=%q opt=%q", a.Slug, k+1,
						a.Lang, a.Steps[k].Do, a.Steps[k].Opt, b.Lang, b.Steps[k].Do, b.Steps[k].Opt)
				}
				if err := sameCheckpoint(a.Steps[k].Checkpoint, b.Steps[k].Checkpoint); err != nil {
					return fmt.Errorf("lessons: %s step %d: %s and %s: %w", a.Slug, k+1, a.Lang, b.Lang, err)
				}
			}
		}
	}
	return nil
}

// sameCheckpoint says how two translations of a step's checkpoint differ
// in shape: presence, number of choices or which choices are correct.
func sameCheckpoint(a, b *Checkpoint) error {
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil || b == nil:
		return errors.New("a checkpoint (predict:) in one language only")
	case len(a.Choices) != len(b.Choices):
		return fmt.Errorf("checkpoint has %d choices in one language, %d in the other", len(a.Choices), len(b.Choices))
	case !slices.Equal(a.Correct(), b.Correct()):
		return fmt.Errorf("checkpoint's correct choices differ: %v and %v", a.Correct(), b.Correct())
	case a.Review != b.Review:
		return errors.New("a checkpoint is review: in one language and predict: in the other")
	}
	return nil
}

// List is every lesson in lang, in course order.
func (c *Catalog) List(lang string) []*Lesson { return c.list[lang] }

// Get finds a lesson by language and slug.
func (c *Catalog) Get(lang, slug string) (*Lesson, bool) {
	for _, l := range c.list[lang] {
		if l.Slug == slug {
			return l, true
		}
	}
	return nil, false
}

// Neighbours returns the lessons before and after l in the course (nil at
// either end).
func (c *Catalog) Neighbours(l *Lesson) (prev, next *Lesson) {
	list := c.list[l.Lang]
	for i, x := range list {
		if x == l {
			if i > 0 {
				prev = list[i-1]
			}
			if i+1 < len(list) {
				next = list[i+1]
			}
		}
	}
	return prev, next
}

// Locate finds where a timeline state sits on the guided path. exact is
// true when (do, opt) is one of the steps; otherwise idx is the last step
// whose actions the state starts with, under the same options if one
// does (else under any: an Undo on a "What if…" step leaves the options
// of no step before it, and "Back to the guided path" should not mean
// step 1), or -1.
func (l *Lesson) Locate(do, opt string) (idx int, exact bool) {
	for i := len(l.Steps) - 1; i >= 0; i-- {
		if l.Steps[i].Do == do && l.Steps[i].Opt == opt {
			return i, true
		}
	}
	for _, sameOpt := range []bool{true, false} {
		idx = -1
		for i, s := range l.Steps {
			if (s.Opt == opt || !sameOpt) && isPrefix(s.Do, do) && (idx < 0 || len(s.Do) >= len(l.Steps[idx].Do)) {
				idx = i
			}
		}
		if idx >= 0 {
			break
		}
	}
	return idx, false
}

// Ahead is the first step a state not on the path leads to by more
// actions under its options: after an Undo, the step it was taken back
// from (-1: none). "Back to the guided path" goes there first, rather
// than to the step the state passed, which may be many steps back.
func (l *Lesson) Ahead(do, opt string) int {
	for i, s := range l.Steps {
		if s.Opt == opt && s.Do != do && isPrefix(do, s.Do) {
			return i
		}
	}
	return -1
}

// isPrefix reports whether action list p is a prefix of action list s.
func isPrefix(p, s string) bool {
	return p == "" || p == s || strings.HasPrefix(s, p+",")
}

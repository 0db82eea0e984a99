// parse.go turns one lesson file (YAML front matter + Markdown dialog) into
// a Lesson, rendering the Markdown once.
//
// # Lesson format
//
// A lesson file starts with YAML front matter (slug, title, order,
// scenario, summary) between "---" lines. Each "## " heading opens a guided
// step; its blocks are separated by blank lines:
//
//   - right under the heading, "do: <actions>" adds actions to the
//     timeline and "opt: <options>" sets the step's options (options do
//     not carry over to the next step);
//   - a block starting "chick:" or "penguin:" is a line of the dialog, and
//     a fenced code block right after a line belongs to that line;
//   - a block starting "predict:" is the step's checkpoint (at most one,
//     never on step 1), described below; "review:" is the same for a
//     question that recalls earlier lessons instead of predicting the
//     replay (the page labels it as review, not as a prediction);
//   - any other block is a narration note.
//
// A checkpoint makes the learner predict the step's outcome before seeing
// it: the checkpoint of step k is asked on step k-1's page and answered on
// step k's. Its block holds the question (inline Markdown, may wrap onto
// more lines) and then 2 to 5 choices, one per line, "[x]" marking the
// correct ones (at least one). After " :: " each choice says why it is
// right or wrong (inline Markdown, required); an indented line continues
// the choice above it:
//
//	predict: What will the storage reply to A's write with token 1?
//	- [ ] `(integer) 1`: accepted :: Not this time: 1 is lower than 2.
//	- [x] `(integer) 0`: rejected :: Right: 1 < 2, so the script refuses it.
//
// The block may follow the do:/opt: lines directly; leave a blank line
// after the last choice. Every language must put checkpoints on the same
// steps, with the same number of choices and the same correct ones.

package lessons

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"go.yaml.in/yaml/v3"

	"locklab/sim"
)

type frontMatter struct {
	Slug     string `yaml:"slug"`
	Title    string `yaml:"title"`
	Order    int    `yaml:"order"`
	Scenario string `yaml:"scenario"`
	Summary  string `yaml:"summary"`
}

// newMarkdown is the renderer for lesson text: GitHub-flavoured Markdown,
// raw HTML left escaped (lesson files are content, not templates).
func newMarkdown() goldmark.Markdown {
	return goldmark.New(goldmark.WithExtensions(extension.GFM))
}

var slugRe = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func parse(md goldmark.Markdown, lang string, src []byte) (*Lesson, error) {
	meta, body, err := splitFrontMatter(src)
	if err != nil {
		return nil, err
	}
	var fm frontMatter
	dec := yaml.NewDecoder(bytes.NewReader(meta))
	dec.KnownFields(true)
	if err := dec.Decode(&fm); err != nil {
		return nil, fmt.Errorf("front matter: %w", err)
	}
	if fm.Slug == "" || fm.Title == "" || fm.Order <= 0 || fm.Summary == "" {
		return nil, errors.New("front matter needs slug, title, order (> 0) and summary")
	}
	if !slugRe.MatchString(fm.Slug) {
		return nil, fmt.Errorf("slug %q: use lower-case letters, digits and single hyphens (it is a URL segment, and {slug}.json must parse)", fm.Slug)
	}
	sc, ok := sim.Lookup(fm.Scenario)
	if !ok {
		return nil, fmt.Errorf("unknown scenario %q (have %v)", fm.Scenario, sim.ScenarioIDs())
	}
	l := &Lesson{Lang: lang, Slug: fm.Slug, Title: fm.Title, Summary: fm.Summary, Order: fm.Order, Scenario: sc}
	if err := l.parseSteps(md, body); err != nil {
		return nil, err
	}
	return l, nil
}

func splitFrontMatter(src []byte) (meta, body []byte, err error) {
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	if !strings.HasPrefix(s, "---\n") {
		return nil, nil, errors.New("no front matter (the file must start with ---)")
	}
	end := strings.Index(s[4:], "\n---\n")
	if end < 0 {
		return nil, nil, errors.New("front matter is not closed with ---")
	}
	return []byte(s[4 : 4+end]), []byte(s[4+end+5:]), nil
}

// parseSteps splits the body at "## " headings; each section is a step.
func (l *Lesson) parseSteps(md goldmark.Markdown, body []byte) error {
	var actions []sim.Action
	for i, sec := range sections(string(body)) {
		st := Step{Index: i, Title: sec.title}
		blocks := splitBlocks(sec.text)
		if len(blocks) > 0 && !blocks[0].fenced {
			rest, err := st.directives(blocks[0].text)
			if err != nil {
				return fmt.Errorf("step %d %q: %w", i+1, sec.title, err)
			}
			blocks[0].text = rest
		}
		var err error
		if st.Opt, err = l.canonicalOpt(st.Opt); err != nil {
			return fmt.Errorf("step %d %q: %w", i+1, sec.title, err)
		}
		if st.Reset {
			actions = nil
		}
		actions = append(actions, st.Adds...)
		st.Do = sim.FormatActions(actions)
		if err := st.addBlocks(md, blocks); err != nil {
			return fmt.Errorf("step %d %q: %w", i+1, sec.title, err)
		}
		if len(st.Lines) == 0 {
			return fmt.Errorf("step %d %q has no chick: or penguin: line", i+1, sec.title)
		}
		if i == 0 && st.Checkpoint != nil {
			return fmt.Errorf("step 1 %q has a predict: block, but a checkpoint is asked on the step before its own and step 1 has none", sec.title)
		}
		l.Steps = append(l.Steps, st)
	}
	if len(l.Steps) == 0 {
		return errors.New("no steps (## headings)")
	}
	return nil
}

// directives reads the do:/opt: lines at the top of a step and returns
// what is left of the block.
func (st *Step) directives(block string) (string, error) {
	lines := strings.Split(block, "\n")
	n := 0
	for ; n < len(lines); n++ {
		key, val, ok := strings.Cut(lines[n], ":")
		if !ok || (key != "do" && key != "opt" && key != "reset") {
			break
		}
		val = strings.TrimSpace(val)
		if key == "opt" {
			st.Opt = val
			continue
		}
		if key == "reset" {
			// reset: true starts this step's timeline from no actions (a
			// lesson switching from the failure to the fix).
			if val != "true" {
				return "", fmt.Errorf("reset: only 'reset: true' is allowed, got %q", val)
			}
			st.Reset = true
			continue
		}
		as, err := sim.ParseActions(val)
		if err != nil {
			return "", fmt.Errorf("do: %w", err)
		}
		st.Adds = as
	}
	return strings.Join(lines[n:], "\n"), nil
}

func (l *Lesson) canonicalOpt(opt string) (string, error) {
	o, err := l.Scenario.ParseOptions(opt)
	if err != nil {
		return "", fmt.Errorf("opt: %w", err)
	}
	return l.Scenario.FormatOptions(o), nil
}

// addBlocks turns a step's blocks into dialog lines, the checkpoint and
// narration. A block starting "chick:" or "penguin:" opens a line; a
// fenced code block right after a line belongs to it; "predict:" opens the
// checkpoint; any other block is narration.
func (st *Step) addBlocks(md goldmark.Markdown, blocks []block) error {
	lastWasLine := false
	for _, b := range blocks {
		if strings.TrimSpace(b.text) == "" {
			continue
		}
		if !b.fenced && isCheckpoint(b.text) {
			if st.Checkpoint != nil {
				return errors.New("a step has at most one predict: block")
			}
			cp, err := parseCheckpoint(md, b.text)
			if err != nil {
				return err
			}
			st.Checkpoint, lastWasLine = cp, false
			continue
		}
		if b.fenced && lastWasLine {
			html, err := render(md, b.text)
			if err != nil {
				return err
			}
			st.Lines[len(st.Lines)-1].HTML += html
			continue
		}
		role, text, isLine := speaker(b.text)
		html, err := render(md, text)
		if err != nil {
			return err
		}
		if isLine {
			st.Lines = append(st.Lines, Line{Role: role, HTML: html})
		} else {
			st.Notes = append(st.Notes, html)
		}
		lastWasLine = isLine
	}
	return nil
}

func speaker(text string) (Role, string, bool) {
	for _, r := range []Role{Chick, Penguin} {
		if rest, ok := strings.CutPrefix(text, string(r)+":"); ok {
			return r, strings.TrimSpace(rest), true
		}
	}
	return "", text, false
}

func render(md goldmark.Markdown, text string) (string, error) {
	var buf bytes.Buffer
	if err := md.Convert([]byte(text), &buf); err != nil {
		return "", err
	}
	// A code block may scroll sideways: keyboard users must be able to
	// focus it to scroll it.
	return strings.ReplaceAll(buf.String(), "<pre>", `<pre tabindex="0">`), nil
}

type section struct{ title, text string }

// sections splits at level-2 headings outside code fences.
func sections(body string) []section {
	var out []section
	inFence := false
	for _, line := range strings.Split(body, "\n") {
		if isFence(line) {
			inFence = !inFence
		}
		if !inFence && strings.HasPrefix(line, "## ") {
			out = append(out, section{title: strings.TrimSpace(line[3:])})
			continue
		}
		if len(out) > 0 {
			out[len(out)-1].text += line + "\n"
		}
	}
	return out
}

type block struct {
	text   string
	fenced bool
}

// splitBlocks cuts a section at blank lines, keeping fenced code whole.
func splitBlocks(text string) []block {
	var out []block
	var cur []string
	inFence := false
	flush := func(fenced bool) {
		if len(cur) > 0 {
			out = append(out, block{text: strings.Join(cur, "\n"), fenced: fenced})
			cur = nil
		}
	}
	for _, line := range strings.Split(strings.TrimLeft(text, "\n"), "\n") {
		switch {
		case isFence(line) && !inFence:
			flush(false)
			inFence = true
			cur = append(cur, line)
		case isFence(line) && inFence:
			cur = append(cur, line)
			inFence = false
			flush(true)
		case inFence:
			cur = append(cur, line)
		case strings.TrimSpace(line) == "":
			flush(false)
		default:
			cur = append(cur, line)
		}
	}
	flush(inFence)
	return out
}

func isFence(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")
}

// checkpoint.go parses a step's "predict:" block: a question the learner
// answers on the step before, and sees explained on the step itself.

package lessons

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
)

// Checkpoint is a prediction asked before a step reveals its outcome. The
// checkpoint of step k is asked on step k-1's page and answered on step
// k's, so the learner commits to a guess before the timeline shows it.
type Checkpoint struct {
	QuestionHTML string // inline HTML, no <p>
	Choices      []Choice
	// Review: a question that recalls an earlier lesson rather than
	// predicting what the step's replay will show (written "review:").
	Review bool
}

// Choice is one answer of a checkpoint, with why it is right or wrong.
type Choice struct {
	HTML, ExplainHTML string // inline HTML, no <p>
	Correct           bool
}

// Correct lists the 1-based numbers of the correct choices.
func (c *Checkpoint) Correct() []int {
	var out []int
	for i, ch := range c.Choices {
		if ch.Correct {
			out = append(out, i+1)
		}
	}
	return out
}

// The limits on choices: a question needs an alternative, and more than a
// handful is a quiz, not a prediction.
const (
	minChoices = 2
	maxChoices = 5
)

const (
	predictKey = "predict:"
	reviewKey  = "review:"
)

// isCheckpoint reports whether a block opens a checkpoint.
func isCheckpoint(text string) bool {
	return strings.HasPrefix(text, predictKey) || strings.HasPrefix(text, reviewKey)
}

var choiceLine = regexp.MustCompile(`^- \[([ xX])\] (.*)$`)

// parseCheckpoint reads a block that starts with "predict:". Lines up to
// the first choice are the question; each "- [ ] " or "- [x] " line is a
// choice, "text :: explanation"; an indented line continues the choice
// above it.
func parseCheckpoint(md goldmark.Markdown, text string) (*Checkpoint, error) {
	body, review := strings.CutPrefix(text, reviewKey)
	lines := strings.Split(strings.TrimPrefix(body, predictKey), "\n")
	var question []string
	type raw struct {
		text    string
		correct bool
	}
	var raws []raw
	for _, ln := range lines {
		if m := choiceLine.FindStringSubmatch(ln); m != nil {
			raws = append(raws, raw{text: m[2], correct: m[1] != " "})
			continue
		}
		switch {
		case len(raws) == 0:
			question = append(question, ln)
		case strings.TrimSpace(ln) != "" && (ln[0] == ' ' || ln[0] == '\t'):
			raws[len(raws)-1].text += " " + strings.TrimSpace(ln)
		default:
			return nil, fmt.Errorf("predict: %q is neither a choice (- [ ] or - [x]) nor an indented continuation; leave a blank line after the choices", ln)
		}
	}
	q := strings.TrimSpace(strings.Join(question, "\n"))
	if q == "" {
		return nil, errors.New("predict: no question after the predict: marker")
	}
	if len(raws) < minChoices || len(raws) > maxChoices {
		return nil, fmt.Errorf("predict: needs %d to %d choices (- [ ] text :: explanation), has %d", minChoices, maxChoices, len(raws))
	}
	cp := &Checkpoint{Review: review}
	var err error
	if cp.QuestionHTML, err = renderInline(md, q); err != nil {
		return nil, fmt.Errorf("predict: question: %w", err)
	}
	for i, r := range raws {
		choice, explain, ok := cutExplanation(r.text)
		if !ok || explain == "" {
			return nil, fmt.Errorf("predict: choice %d has no explanation (write: text :: explanation)", i+1)
		}
		if choice == "" {
			return nil, fmt.Errorf("predict: choice %d has no text before its :: marker", i+1)
		}
		ch := Choice{Correct: r.correct}
		if ch.HTML, err = renderInline(md, choice); err != nil {
			return nil, fmt.Errorf("predict: choice %d: %w", i+1, err)
		}
		if ch.ExplainHTML, err = renderInline(md, explain); err != nil {
			return nil, fmt.Errorf("predict: choice %d explanation: %w", i+1, err)
		}
		cp.Choices = append(cp.Choices, ch)
	}
	if len(cp.Correct()) == 0 {
		return nil, errors.New("predict: no choice is marked correct with - [x]")
	}
	return cp, nil
}

// cutExplanation splits "text :: explanation" at the first " :: " outside
// a code span, so `a :: b` inside backticks stays part of the text.
func cutExplanation(s string) (text, explain string, ok bool) {
	inCode := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '`':
			inCode = !inCode
		case !inCode && strings.HasPrefix(s[i:], " :: "):
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+4:]), true
		}
	}
	return strings.TrimSpace(s), "", false
}

// renderInline renders text that must stay one paragraph, and returns it
// without the <p> wrapper so it can sit in a label or a legend.
func renderInline(md goldmark.Markdown, text string) (string, error) {
	html, err := render(md, text)
	if err != nil {
		return "", err
	}
	inner, ok := strings.CutPrefix(strings.TrimSpace(html), "<p>")
	inner, ok2 := strings.CutSuffix(inner, "</p>")
	if !ok || !ok2 || strings.Contains(inner, "<p>") {
		return "", fmt.Errorf("%q must be inline Markdown (one paragraph, no lists or headings)", text)
	}
	return inner, nil
}

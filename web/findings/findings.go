// Package findings puts what an exploration found into the words of the
// one vocabulary of failures (sim/kinds.go): a row per kind, and the
// verdict line above the rows. The Lab and the design grade both build
// their tables and verdicts here, so the two pages cannot disagree on
// what a kind means, and a verdict always sums up the rows beside it: a ✓
// only when no row is harm or a failure of the lock, and then the text
// says what the remaining rows are.
package findings

import (
	"strconv"
	"strings"

	"locklab/sim"
	"locklab/web/i18n"
)

// Row is one kind of failure in the page's language.
type Row struct {
	Kind          sim.ViolationKind
	Name, Meaning string
	// Class is the kind's class as the page names it; Severity the same
	// as a word for style sheets and tests: harm, broken, allowed.
	Class, Severity string
}

// Severity is the word for class c.
func Severity(c sim.Class) string {
	switch c {
	case sim.ClassHarm:
		return "harm"
	case sim.ClassBroken:
		return "broken"
	}
	return "allowed"
}

// RowOf is kind k's row.
func RowOf(u *i18n.UI, k sim.ViolationKind) Row {
	f, c := u.Failures[k], sim.ClassOf(k)
	return Row{Kind: k, Name: f.Name, Meaning: f.Meaning, Class: u.Verdict.Class[c], Severity: Severity(c)}
}

// Verdict is the line above the rows.
type Verdict struct {
	// Severity is the worst class found ("" when nothing was).
	Severity string
	// OK: a ✓ may stand beside the text — the search was complete and
	// found no harm and no failure of the lock.
	OK     bool
	Text   string
	Within string // with OK: that it holds within the bounds only
}

// Bad reports whether the verdict warns (harm or a failed lock).
func (v Verdict) Bad() bool { return v.Severity == "harm" || v.Severity == "broken" }

// Of is the verdict on the kinds found. complete says the search saw
// every schedule within its bounds; when it did not, depth is how far it
// was complete, and no ✓ is given.
func Of(u *i18n.UI, found []sim.ViolationKind, complete bool, depth int) Verdict {
	vu := u.Verdict
	names := func(c sim.Class) string {
		var out []string
		for _, k := range sim.Kinds {
			for _, f := range found {
				if f == k && sim.ClassOf(k) == c {
					out = append(out, u.Failures[k].Name)
				}
			}
		}
		return strings.Join(out, u.Language().ListSep)
	}
	worst := sim.Class(-1)
	for _, k := range found {
		if c := sim.ClassOf(k); worst < 0 || c < worst {
			worst = c
		}
	}
	v := Verdict{}
	if worst >= 0 {
		v.Severity = Severity(worst)
	}
	switch {
	case worst == sim.ClassHarm:
		v.Text = i18n.Fill(vu.Harm, names(sim.ClassHarm))
	case worst == sim.ClassBroken:
		v.Text = i18n.Fill(vu.Broken, names(sim.ClassBroken))
	case !complete:
		v.Text = i18n.Fill(vu.Unknown, strconv.Itoa(depth))
	case worst == sim.ClassAllowed:
		v.Text, v.OK, v.Within = vu.Allowed, true, vu.Within
	default:
		v.Text, v.OK, v.Within = vu.None, true, vu.Within
	}
	return v
}

// headline is a link card's line on its counterexample of kind k.
func headline(u *i18n.UI, k sim.ViolationKind, steps int) string {
	return i18n.Fill(u.Lab.CardShortest, u.Failures[k].Name, Steps(u, steps))
}

// Steps is "n steps" in u's words, or the one-step form: how every
// surface gives a schedule's length.
func Steps(u *i18n.UI, steps int) string {
	if steps == 1 {
		return u.Lab.StepOf
	}
	return i18n.Fill(u.Lab.StepsOf, strconv.Itoa(steps))
}

// CardText is what a link card of the Lab or the design page says, and
// its picture's alt text: lead (the verdict as the page sums it up for a
// card), then the finding it leads with (CardKind) by kind and length.
// Its title is the page's title with that finding, or, where the verdict
// is a ✓ (v.OK: a complete search found nothing), that none was found;
// else the page's title alone. k is the finding's kind ("" where there
// is none to draw): the caller draws its shortest schedule.
func CardText(u *i18n.UI, v Verdict, lead, title string, steps map[sim.ViolationKind]int) (name, desc, alt string, k sim.ViolationKind) {
	name, desc, alt = title, lead, title
	if k = CardKind(steps); k != "" {
		h := headline(u, k, steps[k])
		// the page leads with the shortest of all: where the lock itself
		// failed sooner than the harm the card leads with, the card says
		// so too (readers saw "Charged twice, 4 steps" on a card whose
		// page began "2 steps (Two holders at once)")
		if b := shortestIn(steps, sim.ClassBroken); b != "" && steps[b] < steps[k] {
			h = i18n.Sentences(h, i18n.Fill(u.Lab.CardSooner, u.Failures[b].Name, Steps(u, steps[b])))
		}
		desc, alt = i18n.Sentences(desc, h), i18n.Sentences(title+" —", h)
		name = i18n.Fill(u.Lab.CardTitleFound, title, u.Failures[k].Name, Steps(u, steps[k]))
	} else if v.OK {
		name = i18n.Fill(u.Lab.CardTitleSafe, title)
	}
	return name, desc, alt, k
}

// Card is the verdict as a link card says it: its first sentence (the
// rest points at the rows of a table the card does not have), and with a
// ✓ that it holds within the bounds only.
func (v Verdict) Card() string {
	lead := v.Text
	if i := strings.Index(lead, "。"); i >= 0 {
		lead = lead[:i+len("。")]
	} else if i := strings.Index(lead, ". "); i >= 0 {
		lead = lead[:i+1]
	}
	if v.OK && v.Within != "" {
		return i18n.Sentences(lead, v.Within)
	}
	return lead
}

// shortestIn is the kind of class c with the shortest schedule (the
// first in sim.Kinds at equal length), "" if none was found.
func shortestIn(steps map[sim.ViolationKind]int, c sim.Class) sim.ViolationKind {
	var best sim.ViolationKind
	for _, k := range sim.Kinds {
		if n, ok := steps[k]; ok && sim.ClassOf(k) == c && (best == "" || n < steps[best]) {
			best = k
		}
	}
	return best
}

// CardKind is the finding a link card names, from each kind's shortest
// schedule (its steps): of the worst class found, the shortest (the
// first in sim.Kinds at equal length), so the card's verdict ("Harm
// found: Charged twice") and the schedule it names and draws are one
// finding; "" where nothing but what a lease allows was found.
func CardKind(steps map[sim.ViolationKind]int) sim.ViolationKind {
	if k := shortestIn(steps, sim.ClassHarm); k != "" {
		return k
	}
	return shortestIn(steps, sim.ClassBroken)
}

// Package links writes every address one part of the site gives another:
// a lesson's path and start, a timeline's query, the Lab's and the design
// page's canonical queries, the ending page, a class's page. Features link
// to each other through it instead of importing each other or parsing
// URLs the server wrote; each feature still parses its own. It knows
// nothing of HTTP.
package links

import (
	"net/url"
	"strconv"
	"strings"

	"locklab/lessons"
)

func Lesson(l *lessons.Lesson) string { return "/" + l.Lang + "/lessons/" + l.Slug }

// Start is where a lesson begins: its first guided step, whose
// options may not be the defaults (a lesson that opens on the failure).
// Every link that starts a lesson goes here.
func Start(l *lessons.Lesson) string {
	first := l.Steps[0]
	return Lesson(l) + Query(first.Do, first.Opt)
}

func Query(do, opt string) string {
	var parts []string
	if do != "" {
		parts = append(parts, "do="+doValue(do))
	}
	if opt != "" {
		parts = append(parts, "opt="+opt)
	}
	if len(parts) == 0 {
		return ""
	}
	return "?" + strings.Join(parts, "&")
}

// Challenges is the list of every challenge in lang.
func Challenges(lang string) string { return "/" + lang + "/challenges" }

// Challenge is a challenge's page, at its start.
func Challenge(lang, id string) string { return "/" + lang + "/challenges/" + id }

// MadeChallenge is a challenge made from a timeline (its id is
// lesson/goal/bounds: the address is the whole challenge).
func MadeChallenge(lang, id string) string { return "/" + lang + "/challenges/c/" + id }

// LessonChallenges is the list of lesson l's challenges.
func LessonChallenges(l *lessons.Lesson) string { return Lesson(l) + "/challenges" }

// End is the ending page of lang.
func End(lang string) string { return "/" + lang + "/end" }

func Join(lang, code string) string { return "/" + lang + "/class/" + code }

// WithLab appends the lab= parameter to a lesson query.
func WithLab(q, lab string) string {
	if lab == "" {
		return q
	}
	sep := "&"
	if q == "" {
		sep = "?"
	}
	return q + sep + "lab=" + url.QueryEscape(lab)
}

// WithGuess appends guess=n (when n > 0) to a query made by query, so the
// canonical order is do, opt, guess.
func WithGuess(q string, n int) string {
	switch {
	case n <= 0:
		return q
	case q == "":
		return "?guess=" + strconv.Itoa(n)
	}
	return q + "&guess=" + strconv.Itoa(n)
}

// doValue is an action list as a do= value: readable ([a-z0-9.,:] as
// they are), a typed command's quotes escaped, and a space as %20, not +:
// htmx re-encodes a query it forwards (HX-Location, hx-get) and would
// keep a + as a plus.
func doValue(do string) string { return strings.ReplaceAll(QueryValue(do), "+", "%20") }

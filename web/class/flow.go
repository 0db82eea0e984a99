// flow.go is how a class runs from the teacher's side beyond a move: the
// reveal (its own action, so the class can discuss an answer before the
// next step), locking the class to newcomers, moving on to the next
// lesson with the same code, the summary the class leaves (a page and a
// CSV), the join address phones cannot reach, and what a student's page
// leaves out of a lesson written for someone alone (lines the room has
// not seen yet, sentences about buttons a student does not have).

package class

import (
	"encoding/csv"
	"html"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"locklab/lessons"
	"locklab/web/i18n"
	"locklab/web/lesson"
	"locklab/web/links"
	"locklab/web/site"

	"github.com/go-chi/chi/v5"
)

// Reveal closes the open question and shows its answer, the class
// staying on its step. With answers missing (fewer than the students
// here) it asks first: the bar, or the teacher's page without
// JavaScript, says how many have answered, with "Reveal anyway".
func (s *Handler) Reveal(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, true)
	if !ok {
		return
	}
	sv, ok1 := oneValue(r, "step")
	step, err := strconv.Atoi(sv)
	if !ok1 || err != nil || step < 1 {
		s.badForm(w, r, u, room.Code)
		return
	}
	if step == room.Ask && !room.Revealed(step) && r.PostForm.Get("confirm") != "1" {
		answered := len(s.class.store.votes(r.Context(), room.Code, step)[0])
		if here := s.class.store.connected(r.Context(), room.Code); answered < here {
			s.teachPage(w, r, u, room, room.Do, room.Opt, step)
			return
		}
	}
	if step == room.Ask && !room.Revealed(step) {
		seq, err := s.class.store.reveal(r.Context(), room, step)
		if err != nil {
			s.Fail(w, r, u, s.storeErr(u, room.Code, err))
			return
		}
		room.Seq, room.revealed[step] = seq, true
	}
	s.teachPage(w, r, u, room, room.Do, room.Opt, 0)
}

// Lock lets no one new join the class (lock=1), or lets them again
// (lock=0); students who joined keep following either way. It answers as
// the bar's other forms do.
func (s *Handler) Lock(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, true)
	if !ok {
		return
	}
	v, ok1 := oneValue(r, "lock")
	do, ok2 := oneValue(r, "do")
	opt, ok3 := oneValue(r, "opt")
	if !ok1 || (v != "0" && v != "1") || (r.PostForm.Has("do") && !ok2) || (r.PostForm.Has("opt") && !ok3) {
		s.badForm(w, r, u, room.Code)
		return
	}
	if err := s.class.store.lock(r.Context(), room, v == "1"); err != nil {
		s.Fail(w, r, u, s.storeErr(u, room.Code, err))
		return
	}
	room.Locked = v == "1"
	s.teachPage(w, r, u, room, do, opt, 0)
}

// teachPage answers a teacher's form: the bar (the page's script asked)
// or, without JavaScript, the teacher's page — at once when it carries a
// warning (warn: the step whose reveal waits for "Reveal anyway"),
// else by a redirect, so a reload does not send the form again.
func (s *Handler) teachPage(w http.ResponseWriter, r *http.Request, u *i18n.UI, room *Room, do, opt string, warn int) {
	p, _ := s.stepOf(u.Lang, room.Slug, room.Do, room.Opt)
	if r.Header.Get("HX-Request") == "true" || r.Header.Get("X-Class") == "1" {
		b := s.teacherBar(r, u, room, p, do, opt)
		b.Warn = warn
		w.Header().Set("Cache-Control", "no-store")
		s.Render(w, r, classBarAndQuestion(b))
		return
	}
	to := links.Join(u.Lang, room.Code) + "/teach" + links.Query(do, opt)
	if warn > 0 {
		// the warning is the teacher's page at an address of its own,
		// so a reload asks again instead of posting the reveal again
		to += sep(to) + warnParam + "=" + strconv.Itoa(warn)
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
}

// warnParam marks the teacher's page that asks before revealing the
// question of the step it names (see teachPage); the page checks again
// that the question is open and answers are missing.
const warnParam = "reveal"

func sep(u string) string {
	if strings.Contains(u, "?") {
		return "&"
	}
	return "?"
}

// stillWarn reads the warn mark of the teacher's page: the step whose
// reveal waits for "Reveal anyway", or 0 when that question is no longer
// open or every student here has answered it since.
func (s *Handler) stillWarn(r *http.Request, room *Room, v string) int {
	step, err := strconv.Atoi(v)
	if err != nil || step != room.Ask || room.Revealed(step) {
		return 0
	}
	answered := len(s.class.store.votes(r.Context(), room.Code, step)[0])
	if answered >= s.class.store.connected(r.Context(), room.Code) {
		return 0
	}
	return step
}

// NextLesson takes the class on to the next lesson of the course: the
// same code and students, the tallies of the lesson it leaves kept for
// the summary.
func (s *Handler) NextLesson(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, true)
	if !ok {
		return
	}
	l, found := s.Course.Get(u.Lang, room.Slug)
	if !found {
		s.Fail(w, r, u, s.noRoom(u))
		return
	}
	_, next := s.Course.Neighbours(l)
	if next == nil || r.PostForm.Get("lesson") != next.Slug {
		s.badForm(w, r, u, room.Code)
		return
	}
	rows, err := s.rows(r, room, l)
	if err != nil {
		s.Fail(w, r, u, s.storeErr(u, room.Code, err))
		return
	}
	first := next.Steps[0]
	p, _ := s.stepOf(u.Lang, next.Slug, first.Do, first.Opt)
	if _, err := s.class.store.nextLesson(r.Context(), room, next.Slug, first.Do, first.Opt, p.Ask, len(next.Steps), rows); err != nil {
		s.Fail(w, r, u, s.storeErr(u, room.Code, err))
		return
	}
	http.Redirect(w, r, links.Join(u.Lang, room.Code)+"/teach"+links.Query(first.Do, first.Opt), http.StatusSeeOther)
}

// rows are the tallies of the room's current lesson l, one per
// checkpoint, as the summary keeps them: "slug\tstep\tn1,n2,…". A
// question nobody answered and nobody was shown is left out.
func (s *Handler) rows(r *http.Request, room *Room, l *lessons.Lesson) ([]string, error) {
	var steps, n []int
	for i, st := range l.Steps {
		if st.Checkpoint != nil {
			steps, n = append(steps, i+1), append(n, len(st.Checkpoint.Choices))
		}
	}
	counts, err := s.class.store.tallies(r.Context(), room.Code, steps, n)
	if err != nil {
		return nil, err
	}
	var out []string
	for i, step := range steps {
		total := 0
		parts := make([]string, len(counts[i]))
		for k, c := range counts[i] {
			parts[k], total = strconv.Itoa(c), total+c
		}
		if total == 0 && !room.Revealed(step) {
			continue
		}
		out = append(out, l.Slug+"\t"+strconv.Itoa(step)+"\t"+strings.Join(parts, ","))
	}
	return out, nil
}

// SummaryRow is one answer of one question in a class's summary.
type SummaryRow struct {
	LessonNum int
	Lesson    string
	// Step is where the room saw the question asked and revealed: the
	// step before the one whose checkpoint it is (the summary names what
	// was on the projector, not the step the answer leads to)
	Step         int
	QuestionHTML string
	Question     string // as text, for the CSV
	Choice       string // as text
	ChoiceHTML   string
	Count, Total int
	Correct      bool
	First        bool // the first row of its question (the table spans it)
	RightCount   int
	Rows         int // how many choices the question has
}

// summaryRows reads the stored rows in language u: each question's
// answers with their counts, the right ones marked. Rows of a lesson or
// step the course no longer has are skipped.
func (s *Handler) summaryRows(u *i18n.UI, stored []string) []SummaryRow {
	var out []SummaryRow
	for _, row := range stored {
		f := strings.Split(row, "\t")
		if len(f) != 3 {
			continue
		}
		l, ok := s.Course.Get(u.Lang, f[0])
		step, err := strconv.Atoi(f[1])
		if !ok || err != nil || step < 1 || step > len(l.Steps) || l.Steps[step-1].Checkpoint == nil {
			continue
		}
		cp := l.Steps[step-1].Checkpoint
		counts := strings.Split(f[2], ",")
		total, right := 0, 0
		nums := make([]int, len(cp.Choices))
		for i := range cp.Choices {
			if i < len(counts) {
				nums[i], _ = strconv.Atoi(counts[i])
			}
			total += nums[i]
			if cp.Choices[i].Correct {
				right += nums[i]
			}
		}
		for i, c := range cp.Choices {
			out = append(out, SummaryRow{LessonNum: l.Order, Lesson: l.Title, Step: max(step-1, 1), QuestionHTML: cp.QuestionHTML,
				Question: plain(cp.QuestionHTML), Choice: plain(c.HTML), ChoiceHTML: c.HTML, Count: nums[i], Total: total,
				Correct: c.Correct, First: i == 0, RightCount: right, Rows: len(cp.Choices)})
		}
	}
	return out
}

// plain is inline HTML as text: tags dropped, entities read.
func plain(h string) string {
	var b strings.Builder
	in := false
	for _, r := range h {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return html.UnescapeString(b.String())
}

// summaryFor reads the summary of room code for its teacher: the rows
// kept, plus (while the class runs) its current lesson's. ok false: the
// handler has answered.
func (s *Handler) summaryFor(w http.ResponseWriter, r *http.Request) (*i18n.UI, string, []SummaryRow, bool) {
	u, code, ok := s.classOn(w, r)
	if !ok || code == "" {
		if ok {
			s.Fail(w, r, u, s.noRoom(u))
		}
		return u, "", nil, false
	}
	stored, ended, secret, err := s.class.store.summary(r.Context(), code)
	if err != nil {
		s.Fail(w, r, u, s.storeErr(u, code, err))
		return u, "", nil, false
	}
	if ended {
		if !(&Room{secret: secret}).isTeacher(teacherSecret(r, code)) {
			s.notTeacher(w, r, u, code)
			return u, "", nil, false
		}
	} else {
		room, ok := s.room(w, r, u, code)
		if !ok {
			return u, "", nil, false
		}
		if !room.isTeacher(teacherSecret(r, code)) {
			s.notTeacher(w, r, u, code)
			return u, "", nil, false
		}
		if l, found := s.Course.Get(u.Lang, room.Slug); found {
			now, err := s.rows(r, room, l)
			if err != nil {
				s.Fail(w, r, u, s.storeErr(u, code, err))
				return u, "", nil, false
			}
			stored = append(stored, now...)
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	return u, code, s.summaryRows(u, stored), true
}

// Summary is the class's summary page: each question's tally, the right
// answers marked, with its CSV.
func (s *Handler) Summary(w http.ResponseWriter, r *http.Request) {
	u, code, rows, ok := s.summaryFor(w, r)
	if !ok {
		return
	}
	p := s.Frame(u, u.Class.SummaryTitle+" "+spaced(code)+" — "+u.SiteName, r)
	s.Render(w, r, SummaryPage(p, code, links.Join(u.Lang, code)+"/summary.csv", rows))
}

// SummaryCSV is the summary as a spreadsheet: one row per answer.
func (s *Handler) SummaryCSV(w http.ResponseWriter, r *http.Request) {
	u, code, rows, ok := s.summaryFor(w, r)
	if !ok {
		return
	}
	cu := u.Class
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="locklab-class-`+code+`.csv"`)
	// a byte-order mark first: spreadsheet programs (Excel) read the
	// file as UTF-8 only with it, and the questions are in three scripts
	_, _ = io.WriteString(w, "\ufeff")
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{cu.SummaryLesson, cu.SummaryStep, cu.SummaryQuestion, cu.SummaryAnswer, cu.CSVVotes, cu.CSVRight, cu.CSVAnswered})
	for _, row := range rows {
		right := "0"
		if row.Correct {
			right = "1"
		}
		_ = cw.Write([]string{strconv.Itoa(row.LessonNum) + ". " + row.Lesson, strconv.Itoa(row.Step), row.Question, row.Choice,
			strconv.Itoa(row.Count), right, strconv.Itoa(row.Total)})
	}
	cw.Flush()
}

// Teaching is the page about running a class: the keys, how a class
// goes, how long each lesson takes in class.
func (s *Handler) Teaching(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	var ls []TeachingLesson
	for _, l := range s.Course.List(u.Lang) {
		t := TeachingLesson{Num: l.Order, Title: l.Title, Start: links.Start(l), Steps: len(l.Steps),
			Slug: l.Slug, Do: l.Steps[0].Do, Opt: l.Steps[0].Opt}
		for _, st := range l.Steps {
			if st.Checkpoint != nil {
				t.Questions++
			}
		}
		// about a minute a step to read and talk it through, three a
		// question (answers, the reveal, the discussion)
		t.Minutes = (t.Steps + 3*t.Questions + 4) / 5 * 5
		ls = append(ls, t)
	}
	s.Render(w, r, TeachingPage(s.Frame(u, u.Class.TeachingTitle+" — "+u.SiteName, r), ls, s.class != nil))
}

// TeachingLesson is one lesson's line on the teaching page.
type TeachingLesson struct {
	Num, Steps, Questions, Minutes int
	Title, Start                   string
	Slug, Do, Opt                  string // its first step, for the form that starts a class there
}

// joinWarning is what the teacher's bar says when the join address is
// one a phone cannot open (this machine's loopback): the LAN address to
// use instead, or how to start the server so phones reach it.
func (s *Handler) joinWarning(u *i18n.UI, joinURL, code string) string {
	host := site.LoopbackHost(joinURL)
	if host == "" {
		return ""
	}
	if s.LANURL != "" {
		return i18n.Fill(u.Class.Loopback, host, strings.TrimSuffix(s.LANURL, "/")+"/class/"+code)
	}
	return i18n.Fill(u.Class.LoopbackNoLAN, host) // the host is the problem; the bar shows the whole link
}

// forStudent is a lesson view as a student following the class reads it:
// the lines the room has seen (lines < 0: all), and the step's notes
// without their sentences about buttons only the teacher has (Next step,
// Undo, Reset) and without the notes that ask for the command line.
func forStudent(u *i18n.UI, v *lesson.LessonView, lines int) {
	if v.Dialog.Step == nil {
		return
	}
	st := *v.Dialog.Step
	if lines >= 0 && lines < len(st.Lines) {
		st.Lines = st.Lines[:max(lines, 1)]
		st.Notes = nil // the notes read after the lines: not yet
	}
	marks := []string{"<strong>" + u.NextStep + "</strong>", "<strong>" + u.Undo + "</strong>", "<strong>" + u.Reset + "</strong>"}
	var notes []string
	for _, n := range st.Notes {
		if strings.Contains(n, "<strong>"+u.CLI.Title+"</strong>") {
			continue
		}
		if n = dropSentences(n, marks); n != "" {
			notes = append(notes, n)
		}
	}
	st.Notes = notes
	v.Dialog.Step = &st
}

// dropSentences removes from a note's paragraph ("<p>…</p>\n") each
// sentence that holds one of marks; "" if nothing is left. A sentence
// ends at ". " or at a full stop of Japanese or Chinese (。).
func dropSentences(note string, marks []string) string {
	body := strings.TrimSpace(note)
	if !strings.HasPrefix(body, "<p>") || !strings.HasSuffix(body, "</p>") {
		return note
	}
	body = strings.TrimSuffix(strings.TrimPrefix(body, "<p>"), "</p>")
	var kept []string
	for _, sn := range sentences(body) {
		drop := false
		for _, m := range marks {
			if strings.Contains(sn, m) {
				drop = true
			}
		}
		if !drop {
			kept = append(kept, sn)
		}
	}
	out := strings.TrimSpace(strings.Join(kept, ""))
	if out == "" {
		return ""
	}
	return "<p>" + out + "</p>\n"
}

// sentences splits text after each ". " and each "。", keeping every
// character (joined again they are the text).
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); {
		switch {
		case strings.HasPrefix(text[i:], ". "):
			out, start, i = append(out, text[start:i+2]), i+2, i+2
		case strings.HasPrefix(text[i:], "。"):
			out, start, i = append(out, text[start:i+len("。")]), i+len("。"), i+len("。")
		default:
			i++
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// openAnswer is a's right answer and why, shown (a student who did not
// answer reads it as the room does).
func openAnswer(a *lesson.Answer) *lesson.Answer {
	cp := *a
	cp.Open = true
	return &cp
}

// keptHours is how many hours a summary is kept after its class ends,
// as the summary page says it.
func keptHours() string { return strconv.Itoa(int(EndedFor / time.Hour)) }

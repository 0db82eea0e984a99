// Package class serves the live class: a teacher starts a room from a
// lesson page, students join by code or QR, the teacher's moves reach every
// phone over Server-Sent Events, and the class predicts each checkpoint
// before the teacher reveals it. It is the one feature with server state,
// and that state lives in Redis, never in process memory: rooms in the
// store (store.go), students' identities, signed with a key kept there
// too (identity.go), this instance's open streams in the hub (hub.go),
// the frames a move sends (frame.go). A class belongs to its teacher and
// its students: only the teacher's secret moves it, only identities the
// server issued join and answer, seats go to the students here, the
// teacher sees who joined and can lock the room, and each client's share
// of classes, streams, joins and answers comes before the server's. It
// is the only package of the site that talks to Redis itself (go-redis);
// it shows a room's state through the lesson package's view API, and a
// challenge the teacher poses through the Challenges interface main
// wiring fills (challenge.go).
package class

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"locklab/lessons"
	"locklab/web/lesson"
	"locklab/web/limits"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/redis/go-redis/v9"

	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/site"
)

// Classroom is the live-class service one instance runs: main.go builds
// it on the class Redis (embedded miniredis by default) and passes it in
// Config.Class.
type Classroom struct {
	store  *classStore
	hub    *classHub
	lim    Limits
	views  viewCache
	frames moveFrames
	// bareMoves: students' streams send only "move N" and each phone
	// fetches its page (how it was before the frames; the load test
	// compares the two)
	bareMoves bool
}

// NewClassroom subscribes to every room's channel on rdb (waiting for
// Redis to confirm), makes sure the key that signs students' ids is
// there (identity.go), and returns the service; Close ends it.
func NewClassroom(ctx context.Context, rdb redis.UniversalClient, lim Limits) (*Classroom, error) {
	lim = lim.withDefaults()
	c := &Classroom{store: &classStore{rdb: rdb, lim: lim, now: time.Now}, hub: newClassHub(lim.Streams, lim.StreamsPerClient, lim.Buffer), lim: lim}
	if _, err := c.store.signingKey(ctx); err != nil {
		return nil, fmt.Errorf("class redis: %w", err)
	}
	if err := c.hub.start(ctx, rdb); err != nil {
		return nil, fmt.Errorf("class redis: %w", err)
	}
	return c, nil
}

// Close ends every open stream (each browser sees its stream close) and
// the subscription. main.go calls it when the server shuts down, so
// Shutdown does not wait on streams that never end by themselves.
func (c *Classroom) Close() { c.hub.close() }

// Streams is how many SSE streams this instance holds.
func (c *Classroom) Streams() int { return c.hub.streams() }

// viewCache keeps the lesson views rooms show, by language and state: a
// move sends every student's page to the same few states, which are then
// replayed once, not once per student. It is a cache of what the URL
// determines, not state; it forgets everything when full.
type viewCache struct {
	mu sync.Mutex
	m  map[string]*lesson.LessonView
}

func (vc *viewCache) get(key string) *lesson.LessonView {
	vc.mu.Lock()
	defer vc.mu.Unlock()
	return vc.m[key]
}

func (vc *viewCache) put(key string, v *lesson.LessonView) {
	vc.mu.Lock()
	defer vc.mu.Unlock()
	if vc.m == nil || len(vc.m) >= 256 {
		vc.m = map[string]*lesson.LessonView{}
	}
	vc.m[key] = v
}

const (
	sidCookie      = "locklab_sid"
	teacherPrefix  = "locklab_teach_"
	classWriteWait = 10 * time.Second
)

// Short answers /class/CODE, the address on the projector and in the
// QR code: each phone goes on to the class in its own language.
func (s *Handler) Short(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Vary", "Accept-Language")
	code := normCode(chi.URLParam(r, "code"))
	if code == "" {
		u := i18n.For(site.Negotiate(r))
		s.Fail(w, r, u, s.noRoom(u))
		return
	}
	http.Redirect(w, r, "/"+site.Negotiate(r)+"/class/"+code, http.StatusFound)
}

// JoinShort answers /class: the join page in the phone's language.
func (s *Handler) JoinShort(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Vary", "Accept-Language")
	target := "/" + site.Negotiate(r) + "/class"
	if r.URL.RawQuery != "" && len(r.URL.RawQuery) <= site.MaxQuery {
		target += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, target, http.StatusFound)
}

// ----- errors, each a page in the learner's language -----

func classErr(u *i18n.UI, status int, code, title, text string) *site.Error {
	return &site.Error{Status: status, Title: title, Text: text, Code: code}
}

func (s *Handler) noRoom(u *i18n.UI) *site.Error {
	cu := u.Class
	e := classErr(u, http.StatusNotFound, "class-not-found", cu.NoRoomTitle, cu.NoRoomText)
	e.Recover, e.RecoverText = "/"+u.Lang+"/class", cu.JoinTitle
	return e
}

func backTo(e *site.Error, u *i18n.UI, code string) *site.Error {
	e.Recover, e.RecoverText = links.Join(u.Lang, code), u.Class.BackToClass
	return e
}

// storeErr turns a store failure into a page: a known condition is the
// learner's 4xx, anything else (Redis unreachable) a 503 that says so.
func (s *Handler) storeErr(u *i18n.UI, code string, err error) *site.Error {
	cu := u.Class
	var ended *endedError
	switch {
	case errors.As(err, &ended):
		e := classErr(u, http.StatusGone, "class-ended", cu.EndedTitle, cu.EndedText)
		e.Recover, e.RecoverText = "/"+u.Lang+"/lessons/"+ended.Slug+links.Query(ended.Do, ended.Opt), cu.EndedGoOn
		return e
	case errors.Is(err, errNoRoom):
		return s.noRoom(u)
	case errors.Is(err, errClassFull):
		return classErr(u, http.StatusForbidden, "class-full", cu.FullTitle, i18n.Fill(cu.FullText, strconv.Itoa(s.class.lim.StudentsPerRoom)))
	case errors.Is(err, errLocked):
		return lockedErr(u, code)
	case errors.Is(err, errClientRooms):
		return classErr(u, http.StatusTooManyRequests, "class-rooms-client", cu.RoomsClientTitle,
			i18n.Fill(cu.RoomsClientText, strconv.Itoa(s.class.lim.RoomsPerClient), strconv.Itoa(int(s.class.lim.Unattended/time.Minute))))
	case errors.Is(err, errRoomsFull):
		return classErr(u, http.StatusServiceUnavailable, "class-rooms-full", cu.RoomsTitle, cu.RoomsText)
	case errors.Is(err, errClientStreams):
		return backTo(classErr(u, http.StatusTooManyRequests, "class-streams-client", cu.StreamsClientTitle,
			i18n.Fill(cu.StreamsClientText, strconv.Itoa(s.class.lim.StreamsPerClient))), u, code)
	case errors.Is(err, errTooManyStreams), errors.Is(err, errHubClosed):
		return backTo(classErr(u, http.StatusServiceUnavailable, "class-streams-full", cu.StreamsTitle, cu.StreamsText), u, code)
	case errors.Is(err, errNotPosed):
		return backTo(classErr(u, http.StatusConflict, "no-challenge", cu.ChalNoneTitle, cu.ChalNoneText), u, code)
	case errors.Is(err, errNotAsked):
		return backTo(classErr(u, http.StatusConflict, "class-closed", cu.NotOpenTitle, cu.NotOpenText), u, code)
	case errors.Is(err, errBadSession):
		return backTo(classErr(u, http.StatusBadRequest, "class-cookie", cu.CookieTitle, cu.CookieText), u, code)
	}
	e := site.Unreachable(u, err)
	e.Code = "class-redis-unreachable"
	return e
}

// lockedErr is a locked class's answer to a phone that has not joined
// it: the class's address again, to try once the teacher reopens it.
func lockedErr(u *i18n.UI, code string) *site.Error {
	cu := u.Class
	e := classErr(u, http.StatusForbidden, "class-locked", cu.LockedTitle, cu.LockedText)
	e.Recover, e.RecoverText = links.Join(u.Lang, code), cu.TryAgain
	return e
}

// failIn answers a store failure in room: a locked class with its own
// page (lockedOut), anything else as storeErr says.
func (s *Handler) failIn(w http.ResponseWriter, r *http.Request, u *i18n.UI, room *Room, err error) {
	if errors.Is(err, errLocked) {
		s.lockedOut(w, r, u, room)
		return
	}
	s.Fail(w, r, u, s.storeErr(u, room.Code, err))
}

// lockedOut is the page (a 403) a phone that has not joined gets in a
// locked class: lockedErr's, with the room's lesson to study alone
// meanwhile, and the site's name in its title as every page has.
func (s *Handler) lockedOut(w http.ResponseWriter, r *http.Request, u *i18n.UI, room *Room) {
	e := lockedErr(u, room.Code)
	alone := ""
	if l, ok := s.Course.Get(u.Lang, room.Slug); ok {
		alone = links.Lesson(l)
	}
	body, typ, fe := s.RenderBytes(r, u, lockedPage(s.Frame(u, e.Title+" — "+u.SiteName, r), e, alone))
	if fe != nil {
		s.Fail(w, r, u, fe)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", typ)
	w.WriteHeader(e.Status)
	_, _ = w.Write(body)
}

// classOn resolves the request's language and room code, or answers the
// request itself (no class service, a malformed code: 404).
func (s *Handler) classOn(w http.ResponseWriter, r *http.Request) (*i18n.UI, string, bool) {
	u := i18n.For(chi.URLParam(r, "lang"))
	if s.class == nil {
		e := classErr(u, http.StatusNotFound, "class-off", u.NotFound, u.Class.Unavailable)
		s.Fail(w, r, u, e)
		return u, "", false
	}
	raw := chi.URLParam(r, "code")
	if raw == "" {
		return u, "", true
	}
	code := normCode(raw)
	if code == "" {
		s.Fail(w, r, u, s.noRoom(u))
		return u, "", false
	}
	if code != raw { // acdefghj → ACDEFGHJ, one URL per room
		target := links.Join(u.Lang, code) + strings.TrimPrefix(r.URL.Path, links.Join(u.Lang, raw))
		http.Redirect(w, r, target, http.StatusMovedPermanently)
		return u, "", false
	}
	return u, code, true
}

// room loads the room of the request, or answers with the error page.
// The teacher of a class that has ended (their cookie is still sent) is
// taken to its summary, not told that their teacher ended it.
func (s *Handler) room(w http.ResponseWriter, r *http.Request, u *i18n.UI, code string) (*Room, bool) {
	room, err := s.class.store.get(r.Context(), code)
	if errors.Is(err, errNoRoom) {
		// a code that names no class costs a join of the client's share,
		// so guessing codes goes no faster than joining (security
		// retest F20: 850 guesses a second from one address)
		if e := s.Limit(r, u, limits.Join); e != nil {
			s.Fail(w, r, u, e)
			return nil, false
		}
	}
	if err != nil {
		var ended *endedError
		if errors.As(err, &ended) && teacherSecret(r, code) != "" {
			http.Redirect(w, r, links.Join(u.Lang, code)+"/summary", http.StatusSeeOther)
			return nil, false
		}
		s.Fail(w, r, u, s.storeErr(u, code, err))
		return nil, false
	}
	return room, true
}

// openRoom is every room handler's preamble: the language and the room
// of the request, for a POST its origin checked and its form read, for
// teacher-only handlers the teacher's cookie checked. On any failure it
// has answered the request (with the page in the learner's language) and
// returns false.
func (s *Handler) openRoom(w http.ResponseWriter, r *http.Request, teacherOnly bool) (*i18n.UI, *Room, bool) {
	u, code, ok := s.classOn(w, r)
	if !ok || (r.Method == http.MethodPost && !s.parseForm(w, r, u)) {
		return u, nil, false
	}
	room, ok := s.room(w, r, u, code)
	if !ok {
		return u, nil, false
	}
	if teacherOnly && !room.isTeacher(teacherSecret(r, code)) {
		s.notTeacher(w, r, u, code)
		return u, nil, false
	}
	return u, room, true
}

// ----- cookies and the POST checks -----

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// teacherSecret is the secret in the teacher's cookie for room code.
func teacherSecret(r *http.Request, code string) string {
	c, err := r.Cookie(teacherPrefix + code)
	if err != nil || len(c.Value) > 64 {
		return ""
	}
	return c.Value
}

// sameOrigin is the POST check against cross-site requests: the Origin
// header (every current browser sends it with a POST) must be this site
// (site.TrustedOrigin: as -public-url names it, or as the browser reached
// it where nothing pins the address); a browser that says the request is
// cross-site is refused whatever it claims.
func (s *Handler) sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return r.Header.Get("Sec-Fetch-Site") == "same-origin"
	}
	return s.TrustedOrigin(r, origin)
}

// parseForm checks a POST's origin and reads its (small) body, or answers with
// the error page.
func (s *Handler) parseForm(w http.ResponseWriter, r *http.Request, u *i18n.UI) bool {
	cu := u.Class
	if !s.sameOrigin(r) {
		s.Fail(w, r, u, classErr(u, http.StatusForbidden, "class-origin", cu.OriginTitle, cu.OriginText))
		return false
	}
	if err := r.ParseForm(); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			s.Fail(w, r, u, classErr(u, http.StatusRequestEntityTooLarge, "class-too-large", cu.TooBigTitle, cu.TooBigText))
		} else {
			s.Fail(w, r, u, classErr(u, http.StatusBadRequest, "class-bad-form", cu.BadFormTitle, cu.BadFormText))
		}
		return false
	}
	return true
}

func (s *Handler) badForm(w http.ResponseWriter, r *http.Request, u *i18n.UI, code string) {
	cu := u.Class
	e := classErr(u, http.StatusBadRequest, "class-bad-form", cu.BadFormTitle, cu.BadFormText)
	if code != "" {
		backTo(e, u, code)
	}
	s.Fail(w, r, u, e)
}

// oneValue is the form field's single value, or false.
func oneValue(r *http.Request, name string) (string, bool) {
	v := r.PostForm[name]
	if len(v) != 1 || len(v[0]) > site.MaxQuery {
		return "", false
	}
	return v[0], true
}

// ----- where a state sits in its lesson -----

// roomStep is what a room's state means in its lesson: the guided step
// shown, the checkpoint asked (the next step's), the checkpoint answered
// (this step's).
type roomStep struct {
	Step, Ask, Answered int // 1-based; 0 none
	Exact               bool
}

func (s *Handler) stepOf(lang, slug, do, opt string) (roomStep, bool) {
	l, ok := s.Course.Get(lang, slug)
	if !ok {
		return roomStep{}, false
	}
	idx, exact := l.Locate(do, opt)
	p := roomStep{Step: max(idx, 0) + 1, Exact: exact}
	if exact {
		if l.Steps[idx].Checkpoint != nil {
			p.Answered = idx + 1
		}
		if idx+1 < len(l.Steps) && l.Steps[idx+1].Checkpoint != nil {
			p.Ask = idx + 2
		}
	}
	return p, true
}

// ----- pages -----

// Join is the page where a student types a code; ?code= sends them
// to it (a form without JavaScript).
func (s *Handler) Join(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.classOn(w, r)
	if !ok {
		return
	}
	if r.URL.Query().Has("code") {
		code := normCode(r.URL.Query().Get("code"))
		if code == "" {
			s.Fail(w, r, u, s.noRoom(u))
			return
		}
		http.Redirect(w, r, links.Join(u.Lang, code), http.StatusSeeOther)
		return
	}
	s.Render(w, r, ClassJoinPage(s.Frame(u, u.Class.JoinTitle+" — "+u.SiteName, r)))
}

// Create starts a room at the lesson state the form names and sends
// the teacher to its page with the secret in a cookie.
func (s *Handler) Create(w http.ResponseWriter, r *http.Request) {
	u, _, ok := s.classOn(w, r)
	if !ok || !s.parseForm(w, r, u) {
		return
	}
	if e := s.Limit(r, u, limits.Create); e != nil {
		s.Fail(w, r, u, e)
		return
	}
	slug, ok1 := oneValue(r, "lesson")
	do, ok2 := oneValue(r, "do")
	opt, ok3 := oneValue(r, "opt")
	l, found := s.Course.Get(u.Lang, slug)
	if !ok1 || !found || (r.PostForm.Has("do") && !ok2) || (r.PostForm.Has("opt") && !ok3) {
		s.badForm(w, r, u, "")
		return
	}
	st, err := lesson.ParseState(url.Values{"do": {do}, "opt": {opt}}, l.Scenario)
	if err != nil {
		s.Fail(w, r, u, lesson.BadState(u, err, links.Lesson(l), nil))
		return
	}
	do, opt = st.Do(), st.Opt()
	p, _ := s.stepOf(u.Lang, slug, do, opt)
	s.forgetGoneClasses(w, r)
	code, secret, err := s.class.store.create(r.Context(), s.Limits.Client(r), slug, do, opt, p.Ask, len(l.Steps))
	if err != nil {
		s.Fail(w, r, u, s.storeErr(u, "", err))
		return
	}
	http.SetCookie(w, &http.Cookie{Name: teacherPrefix + code, Value: secret, Path: "/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: s.HTTPS(r), MaxAge: int(s.class.lim.Idle / time.Second)})
	http.Redirect(w, r, links.Join(u.Lang, code)+"/teach"+links.Query(do, opt), http.StatusSeeOther)
}

// forgetGoneClasses clears this browser's teacher cookies of classes
// that are gone (ended and past their summary, or expired), so a browser
// that starts class after class keeps only the keys it can still use:
// each class is one cookie of about 57 bytes, and some 280 make every
// request's headers too large (431). Classes nobody joined end after
// Limits.Unattended, so a browser that starts one a minute (limits.Create)
// and leaves them keeps about 40; one that ends each keeps those of the
// last 2 hours (EndedFor, for their summaries), about 130.
func (s *Handler) forgetGoneClasses(w http.ResponseWriter, r *http.Request) {
	var codes []string
	for _, c := range r.Cookies() {
		if code, ok := strings.CutPrefix(c.Name, teacherPrefix); ok && normCode(code) == code && len(codes) < 512 {
			codes = append(codes, code)
		}
	}
	gone, err := s.class.store.goneRooms(r.Context(), codes)
	if err != nil {
		return // nothing is lost: the next class tries again
	}
	for i, code := range codes {
		if gone[i] {
			http.SetCookie(w, &http.Cookie{Name: teacherPrefix + code, Value: "", Path: "/", HttpOnly: true,
				SameSite: http.SameSiteStrictMode, Secure: s.HTTPS(r), MaxAge: -1})
		}
	}
}

// viewOf is the lesson view of a room's state in language u, built by the
// lesson page's own code (and cached: every student of a room asks for
// the same few states). nav, if not "", is where the view's own links go
// (the teacher's page: not cached).
func (s *Handler) viewOf(r *http.Request, u *i18n.UI, slug, do, opt, nav string) (*lesson.LessonView, *site.Error) {
	// The host is part of the key: the view holds the share link, made
	// absolute with the host the browser used. With a live lesson backend
	// (-redis) every page replays, so nothing is kept.
	key := r.Host + "|" + u.Lang + "|" + slug + "|" + links.Query(do, opt)
	if v := s.class.views.get(key); v != nil && !s.NoCache && nav == "" {
		cp := *v
		return &cp, nil
	}
	l, ok := s.Course.Get(u.Lang, slug)
	if !ok {
		return nil, site.NotFound(u)
	}
	v, e := s.lessons.View(r, s.lessons.Place(u, l, do, opt, nav))
	if e != nil {
		return nil, e
	}
	if nav != "" {
		return v, nil
	}
	s.class.views.put(key, v)
	cp := *v
	return &cp, nil
}

// ClassBar is what the teacher's class bar shows.
type ClassBar struct {
	UI          *i18n.UI
	CU          *i18n.ClassUI
	Code        string
	JoinURL     string
	QRURL       string
	Connected   int
	Joined      int  // identities that joined the class, here or not
	Locked      bool // no one new may join
	HereMinutes int  // how long a page load counts a student (see pagePresence)
	Place       roomStep
	StepTitle   string
	Result      *ClassQuestion // this step's checkpoint, revealed, if any
	Question    *ClassQuestion // the next step's, asked here, if any
	Base        string         // /{lang}/class/{code}
	Seq         int64
	Here        string // the state the teacher's page shows (do/opt query)
	ClassHere   string // the state the class sees
	Do, Opt     string // the teacher page's state, for "show this step"
	RevealDo    string
	RevealOpt   string
	EventsURL   string
	LessonTitle string
	// Steps, FirstDo, FirstOpt: the lesson's length and its first step,
	// for the lobby's "starts at step N" and its way to start at step 1
	Steps             int
	FirstDo, FirstOpt string
	// Started: the class began (before, the bar is the lobby); Expected:
	// the students here, whom an open question waits for; Warn: the step
	// whose reveal asked with answers missing (0: none)
	Started  bool
	Expected int
	Warn     int
	// Explain is the revealed question's answer and why, shown with its
	// tally while the class discusses it
	Explain *lesson.Answer
	// NextLesson is offered at the lesson's last step: the class goes on
	// with the same code
	NextLesson *lessons.Lesson
	JoinWarn   string // the join address is one phones cannot open
	SummaryURL string
	// Lines and ClassState: the lines of its step the room has seen, and
	// its state as the page's script writes it (do=…&opt=…), so a
	// reloaded teacher's page shows those lines again
	Lines      int
	ClassState string
	// Chal is the challenge posed to the room, with its tally (nil:
	// none, and PoseChoices are what the teacher may pose)
	Chal        *ChalBox
	PoseChoices []ChalGroup
}

// ShortURL is the join address as the one-line bar shows it: without its
// scheme, which a phone's browser adds and which would wrap the line at
// 150 % zoom (the link itself keeps it).
func (b *ClassBar) ShortURL() string {
	return strings.TrimPrefix(strings.TrimPrefix(b.JoinURL, "https://"), "http://")
}

// ClassQuestion is a checkpoint with the class's answers.
type ClassQuestion struct {
	QuestionHTML string
	Step         int
	Choices      []ClassChoice
	Total        int
	Revealed     bool
	Mine         int // the student's answer (student pages)
	Open         bool
}

// ClassChoice is one answer and how many chose it.
type ClassChoice struct {
	Num     int
	HTML    string
	Count   int
	Correct bool
	Mine    bool
}

// question is checkpoint step (1-based) of the room's lesson with the
// class's answers (votes: student id → choice, as stored) and sid's own,
// or nil if that step has none. It asks Redis nothing: a move's votes are
// read once and every student's page is drawn from them.
func (s *Handler) question(u *i18n.UI, room *Room, p roomStep, step int, votes map[string]string, sid string) *ClassQuestion {
	if step == 0 {
		return nil
	}
	l, ok := s.Course.Get(u.Lang, room.Slug)
	if !ok || step > len(l.Steps) || l.Steps[step-1].Checkpoint == nil {
		return nil
	}
	cp := l.Steps[step-1].Checkpoint
	q := &ClassQuestion{QuestionHTML: cp.QuestionHTML, Step: step, Revealed: room.Revealed(step)}
	q.Open = p.Ask == step && !q.Revealed
	counts := make([]int, len(cp.Choices))
	for _, v := range votes {
		if i, err := strconv.Atoi(v); err == nil && i >= 1 && i <= len(counts) {
			counts[i-1]++
		}
	}
	if sid != "" {
		q.Mine, _ = strconv.Atoi(votes[sid])
	}
	for i, c := range cp.Choices {
		q.Choices = append(q.Choices, ClassChoice{Num: i + 1, HTML: c.HTML, Count: counts[i], Correct: c.Correct && q.Revealed, Mine: q.Mine == i+1})
		q.Total += counts[i]
	}
	return q
}

// passed is the question a step answers as its tally shows it: nil for
// one the room jumped past, not revealed and answered by no one (it was
// never asked, so there is nothing to show of it).
func passed(q *ClassQuestion) *ClassQuestion {
	if q != nil && !q.Revealed && q.Total == 0 {
		return nil
	}
	return q
}

// teacherBar builds the teacher's class bar for the page state (do, opt);
// p is the room's own state placed in its lesson (a move places it once
// and hands it on).
func (s *Handler) teacherBar(r *http.Request, u *i18n.UI, room *Room, p roomStep, do, opt string) *ClassBar {
	cu := u.Class
	base := links.Join(u.Lang, room.Code)
	b := &ClassBar{UI: u, CU: cu, Code: room.Code, Base: base, Seq: room.Seq, Do: do, Opt: opt,
		JoinURL: s.Absolute(r, "/class/"+room.Code), QRURL: base + "/qr.svg", EventsURL: base + "/events",
		Here: links.Query(do, opt), ClassHere: links.Query(room.Do, room.Opt)}
	b.Connected = s.class.store.connected(r.Context(), room.Code)
	b.Joined, b.Locked = s.class.store.joined(r.Context(), room.Code), room.Locked
	b.HereMinutes = max(1, int(s.class.lim.pagePresence().Round(time.Minute)/time.Minute))
	b.Place = p
	if l, ok := s.Course.Get(u.Lang, room.Slug); ok {
		b.LessonTitle = l.Title
		b.Steps, b.FirstDo, b.FirstOpt = len(l.Steps), l.Steps[0].Do, l.Steps[0].Opt
		if p.Exact {
			b.StepTitle = l.Steps[p.Step-1].Title
		}
		if p.Ask > 0 {
			next := l.Steps[p.Ask-1]
			b.RevealDo, b.RevealOpt = next.Do, next.Opt
		}
	}
	votes := s.class.store.votes(r.Context(), room.Code, p.Answered, p.Ask)
	b.Result = passed(s.question(u, room, p, p.Answered, votes[0], ""))
	b.Question = s.question(u, room, p, p.Ask, votes[1], "")
	b.Started, b.Expected = room.Started, b.Connected
	b.Lines, b.ClassState = room.Lines, url.Values{"do": {room.Do}, "opt": {room.Opt}}.Encode()
	b.JoinWarn = s.joinWarning(u, b.JoinURL, room.Code)
	b.SummaryURL = base + "/summary"
	if b.Chal = s.chalBox(r, u, room, true); b.Chal == nil {
		b.PoseChoices = s.poseChoices(u, room.Slug)
	}
	if l, ok := s.Course.Get(u.Lang, room.Slug); ok {
		if b.Question != nil && b.Question.Revealed {
			b.Explain = lesson.AnswerOf(l.Steps[b.Question.Step-1].Checkpoint, 0)
			b.Explain.Open = true // shown with the tally, for the room to read together
		}
		if p.Exact && p.Step == len(l.Steps) {
			_, b.NextLesson = s.Course.Neighbours(l)
		}
	}
	return b
}

// Teach is the teacher's page: the lesson page at the state in the
// URL, with the class bar. Only the room's teacher may open it.
func (s *Handler) Teach(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, true)
	if !ok {
		return
	}
	code := room.Code
	l, found := s.Course.Get(u.Lang, room.Slug)
	if !found {
		s.Fail(w, r, u, s.noRoom(u))
		return
	}
	do, opt := room.Do, room.Opt
	q := r.URL.Query()
	warn := 0
	if w, ok := q[warnParam]; ok {
		warn = s.stillWarn(r, room, w[0])
		q.Del(warnParam)
	}
	// /teach is the room's own state (a reload, a redirect, a browser
	// come back); /teach/at, where the page's own links and forms lead,
	// is always the state its query names, the empty one (a lesson's
	// first step) too: Reset, step 1 and "Back to the guided path" reach
	// it however far the room went.
	if len(q) > 0 || strings.HasSuffix(r.URL.Path, "/teach/at") {
		if len(r.URL.RawQuery) > site.MaxQuery {
			s.Fail(w, r, u, lesson.BadState(u, &sim.ActionError{Index: -1, Action: "?…", Code: sim.CodeTooLong}, links.Lesson(l), nil))
			return
		}
		// the page's own links and forms come here (the options form
		// as opt-<name> fields and the command line as cli=, folded as
		// the lesson page folds them);
		// the guess of the lesson's checkpoint form is the lesson's, not
		// the class's: the class's answer is the reveal
		if err := lesson.FoldOptionFields(q, l.Scenario); err != nil {
			s.Fail(w, r, u, lesson.BadState(u, err, links.Lesson(l), nil))
			return
		}
		if err := lesson.FoldCommandField(q, l.Scenario); err != nil {
			s.Fail(w, r, u, lesson.BadState(u, err, links.Lesson(l), nil))
			return
		}
		st, err := lesson.ParseState(q, l.Scenario)
		if err != nil {
			s.Fail(w, r, u, lesson.BadState(u, err, links.Lesson(l), nil))
			return
		}
		do, opt = st.Do(), st.Opt()
	}
	// Without JavaScript every link and form of the page stays in the
	// class (a GET only shows the step; "Show this step to the class"
	// moves the class); with it, htmx fetches them and class.js posts
	// each state as the move.
	v, e := s.viewOf(r, u, room.Slug, do, opt, links.Join(u.Lang, code)+"/teach/at")
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	_ = s.class.store.touch(r.Context(), room)
	p, _ := s.stepOf(u.Lang, room.Slug, room.Do, room.Opt)
	b := s.teacherBar(r, u, room, p, do, opt)
	b.Warn = warn
	s.renderTeach(w, r, u, room, v, b)
}

// renderTeach draws the teacher's page: view v of the lesson under the
// class bar b.
func (s *Handler) renderTeach(w http.ResponseWriter, r *http.Request, u *i18n.UI, room *Room, v *lesson.LessonView, b *ClassBar) {
	v.Stage.Share.Teach = lesson.TeachForm{} // no second class from inside this one
	v.TeachForm = ""
	// the class moves to another lesson from the bar (same code), not
	// by the lesson's own links
	v.Pager, v.Dialog.Final, v.Dialog.NextLesson = lesson.Pager{UI: v.Pager.UI}, false, nil
	// the class's question takes the place of the lesson's own: one way
	// to reveal (the class's), no Next past a question the room has not
	// seen answered; a state whose step asks one keeps that place for it
	// until the class is there (the page's script moves it at once)
	v.Dialog.Extra = ClassAsk(b)
	if pg, ok := s.stepOf(u.Lang, room.Slug, b.Do, b.Opt); ok && pg.Ask > 0 && b.Started {
		v.Dialog.Ask, v.Dialog.Nav.NextURL = nil, ""
	}
	w.Header().Set("Cache-Control", "no-store")
	v.Page = s.Frame(u, u.Class.BarLabel+" "+room.Code+" — "+v.Title, r)
	s.Render(w, r, ClassTeachPage(v, b, s.Assets.URL("js/class.js")))
}

// Bar is the teacher's bar alone, which the teacher's page
// fetches when its stream says the votes or the connected count changed.
func (s *Handler) Bar(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, true)
	if !ok {
		return
	}
	q := r.URL.Query()
	w.Header().Set("Cache-Control", "no-store")
	p, _ := s.stepOf(u.Lang, room.Slug, room.Do, room.Opt)
	s.Render(w, r, classBarAndQuestion(s.teacherBar(r, u, room, p, q.Get("do"), q.Get("opt"))))
}

func (s *Handler) notTeacher(w http.ResponseWriter, r *http.Request, u *i18n.UI, code string) {
	cu := u.Class
	s.Fail(w, r, u, backTo(classErr(u, http.StatusForbidden, "class-not-teacher", cu.NotTeacherTitle, cu.NotTeacherText), u, code))
}

// Move moves the room to the state the teacher's page shows. With
// JavaScript the page posts each state it reaches (and gets the new bar
// back); without, "Show this step" and "Reveal" are this form.
func (s *Handler) Move(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, true)
	if !ok {
		return
	}
	code := room.Code
	l, found := s.Course.Get(u.Lang, room.Slug)
	do, ok1 := oneValue(r, "do")
	opt, ok2 := oneValue(r, "opt")
	if !found || (r.PostForm.Has("do") && !ok1) || (r.PostForm.Has("opt") && !ok2) {
		s.badForm(w, r, u, code)
		return
	}
	st, err := lesson.ParseState(url.Values{"do": {do}, "opt": {opt}}, l.Scenario)
	if err != nil {
		s.Fail(w, r, u, lesson.BadState(u, err, links.Lesson(l), nil))
		return
	}
	do, opt = st.Do(), st.Opt()
	// How many of the step's lines the room sees: what the teacher's page
	// says (-1: every line, not in presenter mode). A form that does not
	// say (the bar's Next step after a reveal loads a page) keeps the
	// room's way: a line at a time starts a new step at its first line,
	// so no phone runs ahead of the projector while the page loads.
	lines := -1
	switch lv, has := oneValue(r, "lines"); {
	case has:
		n, err := strconv.Atoi(lv)
		if err != nil || n < -1 || n > 1000 {
			s.badForm(w, r, u, code)
			return
		}
		lines = n
	case room.Lines >= 0 && (do != room.Do || opt != room.Opt):
		lines = 1
	case room.Lines >= 0:
		lines = room.Lines
	}
	p, _ := s.stepOf(u.Lang, room.Slug, do, opt)
	// a new state, more or fewer of its lines shown, or the lobby's
	// Start; a new state starts the class too (the teacher went on
	// without the lobby's button)
	start := !room.Started && (do != room.Do || opt != room.Opt || r.PostForm.Get("start") == "1")
	if do != room.Do || opt != room.Opt || lines != room.Lines || start {
		// Moving on never reveals: a question the room passed over (a
		// jump past it) is asked again when the room comes back to it,
		// and the summary leaves out one nobody answered.
		seq, err := s.class.store.move(r.Context(), room, do, opt, p.Ask, lines, start)
		if err != nil {
			s.Fail(w, r, u, s.storeErr(u, code, err))
			return
		}
		room.Do, room.Opt, room.Seq, room.Ask, room.Lines, room.Started = do, opt, seq, p.Ask, lines, room.Started || start
	}
	if r.Header.Get("HX-Request") == "true" || r.Header.Get("X-Class") == "1" {
		w.Header().Set("Cache-Control", "no-store")
		s.Render(w, r, classBarAndQuestion(s.teacherBar(r, u, room, p, do, opt))) // the room is at (do, opt) now
		return
	}
	http.Redirect(w, r, links.Join(u.Lang, code)+"/teach"+links.Query(do, opt), http.StatusSeeOther)
}

// End ends the room: its keys go, every stream closes, and the teacher
// sees the class's summary (kept for EndedFor; the teacher's cookie,
// which opens it, expires by itself).
func (s *Handler) End(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, true)
	if !ok {
		return
	}
	code := room.Code
	var rows []string
	if l, found := s.Course.Get(u.Lang, room.Slug); found {
		var err error
		if rows, err = s.rows(r, room, l); err != nil {
			s.Fail(w, r, u, s.storeErr(u, code, err))
			return
		}
	}
	if err := s.class.store.end(r.Context(), room, rows); err != nil {
		s.Fail(w, r, u, s.storeErr(u, code, err))
		return
	}
	http.Redirect(w, r, links.Join(u.Lang, code)+"/summary", http.StatusSeeOther)
}

// ClassStudent is what a student's page shows.
type ClassStudent struct {
	V          *lesson.LessonView
	CU         *i18n.ClassUI
	Code       string
	Base       string
	Seq        int64
	Result     *ClassQuestion // this step's checkpoint, revealed
	Question   *ClassQuestion // the next step's, asked here (or revealed here)
	Mine       *lesson.Answer // the revealed question: the student's own answer, right or wrong, and why
	ExploreURL string
	EventsURL  string
	JS         string
	// Waiting: the teacher has not started the class; the phone shows
	// the lesson's first screen until they do.
	Waiting bool
	// Chal: the challenge the teacher posed, to play (nil: none)
	Chal *ChalBox
}

// Student is a student's page: the teacher's current state in the
// student's language, drawn by the lesson page's own code, with the
// question to answer or the class's answers.
func (s *Handler) Student(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, false)
	if !ok {
		return
	}
	code := room.Code
	// A first visit (no cookie yet) gets its cookie and the page, and
	// counts only once the cookie comes back: with its stream (at once,
	// with JavaScript), a Refresh or an answer. So a reload in a private
	// tab, a link preview or a check with curl never counts as a student.
	// A cookie the server did not sign is no cookie: a fresh identity
	// takes its place (identity.go).
	sid := studentID(r, room)
	if sid == "" {
		// a new student id: each client's share of joins (limits.Join)
		if e := s.Limit(r, u, limits.Join); e != nil {
			s.Fail(w, r, u, e)
			return
		}
		if err := s.class.store.roomForOneMore(r.Context(), code); err != nil {
			s.failIn(w, r, u, room, err)
			return
		}
		var err error
		if sid, err = s.issueStudent(w, r, room); err != nil {
			s.Fail(w, r, u, s.storeErr(u, code, err))
			return
		}
		if err := s.class.store.invite(r.Context(), code, sid); err != nil {
			s.Fail(w, r, u, s.storeErr(u, code, err))
			return
		}
	} else if err := s.class.store.present(r.Context(), room, sid, s.class.lim.pagePresence()); err != nil {
		s.failIn(w, r, u, room, err)
		return
	}
	p, _ := s.stepOf(u.Lang, room.Slug, room.Do, room.Opt)
	c, e := s.studentPage(r, u, room, s.class.store.votes(r.Context(), code, p.Answered, p.Ask), sid)
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if r.Header.Get("HX-Request") == "true" {
		s.Render(w, r, ClassStudentFragment(c))
		return
	}
	s.Render(w, r, ClassStudentPage(c))
}

// studentPage is what student sid sees of room: the view of its state
// (cached per language and state) and the checkpoints with the class's
// answers (votes of the answered and the asked step) and sid's own.
func (s *Handler) studentPage(r *http.Request, u *i18n.UI, room *Room, votes [2]map[string]string, sid string) (*ClassStudent, *site.Error) {
	v, e := s.viewOf(r, u, room.Slug, room.Do, room.Opt, "")
	if e != nil {
		return nil, e
	}
	p, _ := s.stepOf(u.Lang, room.Slug, room.Do, room.Opt)
	c := &ClassStudent{V: v, CU: u.Class, Code: room.Code, Base: links.Join(u.Lang, room.Code), Seq: room.Seq,
		ExploreURL: v.Head.Base + links.Query(room.Do, room.Opt), JS: s.Assets.URL("js/class.js")}
	c.EventsURL = c.Base + "/events"
	c.Waiting = !room.Started
	c.Chal = s.chalBox(r, u, room, false)
	c.Result = passed(s.question(u, room, p, p.Answered, votes[0], sid))
	c.Question = s.question(u, room, p, p.Ask, votes[1], sid)
	if q := c.Question; q != nil && q.Revealed {
		if l, ok := s.Course.Get(u.Lang, room.Slug); ok {
			c.Mine = lesson.AnswerOf(l.Steps[q.Step-1].Checkpoint, q.Mine)
		}
	}
	s.studentView(r, u, v, c)
	forStudent(u, v, room.Lines)
	return c, nil
}

// studentView trims the lesson view to what a student following the
// teacher needs: the dialog, the timeline and the event log, with their
// own answer as the checkpoint's guess. The lesson's controls belong to
// the teacher (and to "Explore from here").
func (s *Handler) studentView(r *http.Request, u *i18n.UI, v *lesson.LessonView, c *ClassStudent) {
	cu := c.CU
	v.Page = s.Frame(u, cu.BarLabel+" "+c.Code+" — "+v.Title, r)
	v.Stage.Follow, v.Dialog.Follow = true, true
	if v.Dialog.OffNote != "" {
		// the teacher is off the path, not the student (a tester's
		// phones said "You are exploring on your own")
		v.Dialog.OffNote = cu.TeacherOffPath
	}
	v.Stage.Share.Teach = lesson.TeachForm{}
	v.TeachForm = ""
	v.Stage.Controls.Clients, v.Stage.Controls.Nodes, v.Stage.Controls.Waits = nil, nil, nil
	v.Stage.Options.Groups, v.Dialog.Ask = nil, nil
	v.Dialog.Nav.UndoURL, v.Dialog.Nav.NextURL, v.Dialog.Final, v.Dialog.NextLesson = "", "", false, nil
	v.Dialog.Steps = nil
	v.Pager = lesson.Pager{UI: v.Pager.UI}
	if v.Dialog.Answer != nil {
		mine := 0
		if c.Result != nil {
			mine = c.Result.Mine
		}
		v.Dialog.Answer = lesson.AnswerOf(v.Dialog.Answer.Checkpoint, mine)
	}
}

// Answer records a student's answer (once) and returns them to the
// class page. Each answer takes one of its client's share
// (limits.Answer), whoever sends it.
func (s *Handler) Answer(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, false)
	if !ok {
		return
	}
	if e := s.Limit(r, u, limits.Answer); e != nil {
		s.Fail(w, r, u, e)
		return
	}
	code := room.Code
	sid := studentID(r, room)
	if sid == "" {
		s.Fail(w, r, u, s.storeErr(u, code, errBadSession))
		return
	}
	sv, ok1 := oneValue(r, "step")
	cv, ok2 := oneValue(r, "choice")
	step, err1 := strconv.Atoi(sv)
	choice, err2 := strconv.Atoi(cv)
	l, found := s.Course.Get(u.Lang, room.Slug)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || !found || step < 1 || step > len(l.Steps) ||
		l.Steps[step-1].Checkpoint == nil || choice < 1 || choice > len(l.Steps[step-1].Checkpoint.Choices) {
		s.badForm(w, r, u, code)
		return
	}
	if err := s.class.store.answer(r.Context(), code, step, sid, choice); err != nil {
		s.failIn(w, r, u, room, err)
		return
	}
	http.Redirect(w, r, links.Join(u.Lang, code), http.StatusSeeOther)
}

// QR is the QR code of the room's join address.
func (s *Handler) QR(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, false)
	if !ok {
		return
	}
	code := room.Code
	body, typ, e := site.QRImage(u, s.Absolute(r, "/class/"+code))
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Cache-Control", "private, max-age=3600")
	_, _ = w.Write(body)
}

// ----- the stream -----

// Events is a room's Server-Sent Events stream. Students get "move"
// (id: the room's move count) and "end"; the teacher also "votes" and
// "here" (without id). A reconnecting browser sends Last-Event-ID (a first
// connection ?since=, the count its page was drawn at); if the room moved
// since, the stream starts with that move, so a phone that slept catches
// up. A comment every heartbeat keeps proxies from closing the stream and
// marks the student present.
func (s *Handler) Events(w http.ResponseWriter, r *http.Request) {
	st, ok := s.openStream(w, r)
	if !ok {
		return
	}
	defer st.close()
	st.run()
}

// stream is one open event stream, a teacher's or a student's.
type stream struct {
	s       *Handler
	w       http.ResponseWriter
	r       *http.Request
	rc      *http.ResponseController
	u       *i18n.UI
	room    *Room
	code    string
	sid     string // the student's id ("" for the teacher or without a cookie)
	teacher bool
	sub     *subscriber
	last    int64 // the last move this stream sent
	// left: the phone went away (its connection closed or stopped taking
	// events), so it is no longer here. Not when the class ended (its
	// keys are gone), the instance shuts down or the stream fell behind
	// (the phone reconnects, to this instance or another, and its
	// presence runs on until then).
	left bool
}

// openStream subscribes to the room's notices, reads the room again (it
// may have moved between the page and the subscription), marks a student
// with a cookie present, and starts the response. On failure it has
// answered with the error page and reports false.
func (s *Handler) openStream(w http.ResponseWriter, r *http.Request) (*stream, bool) {
	u, room, ok := s.openRoom(w, r, false)
	if !ok {
		return nil, false
	}
	if e := s.Limit(r, u, limits.Stream); e != nil {
		s.Fail(w, r, u, e)
		return nil, false
	}
	code, c := room.Code, s.class
	st := &stream{s: s, w: w, r: r, u: u, code: code, teacher: room.isTeacher(teacherSecret(r, code))}
	if !st.teacher {
		st.sid = studentID(r, room)
	}
	sub, err := c.hub.subscribe(code, st.teacher, st.sid, s.Limits.Client(r))
	if err != nil {
		s.Fail(w, r, u, s.storeErr(u, code, err))
		return nil, false
	}
	st.sub = sub
	fail := func(err error) (*stream, bool) {
		st.close()
		s.Fail(w, r, u, s.storeErr(u, code, err))
		return nil, false
	}
	// read the room again now that no notice can be missed
	if st.room, err = c.store.get(r.Context(), code); err != nil {
		return fail(err)
	}
	// A stream with the student's cookie: they are here (and join, if
	// this is the first time their cookie came back) while it is open.
	if st.sid != "" {
		if err := c.store.present(r.Context(), st.room, st.sid, c.lim.streamPresence()); err != nil {
			return fail(err)
		}
	}
	since, err := strconv.ParseInt(r.Header.Get("Last-Event-ID"), 10, 64)
	if err != nil {
		if since, err = strconv.ParseInt(r.URL.Query().Get("since"), 10, 64); err != nil {
			since = st.room.Seq
		}
	}
	st.last = since
	st.rc = http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	return st, true
}

// close leaves the hub; a student who went away (and has no other stream
// open here, such as a second tab) is no longer counted.
func (st *stream) close() {
	c := st.s.class
	c.hub.unsubscribe(st.sub)
	if st.sid == "" || !st.left || c.hub.streamsOf(st.code, st.sid) > 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c.store.gone(ctx, st.code, st.sid)
	_ = c.store.publish(ctx, st.code, "here", 0)
}

// run sends the catch-up move, then every notice and a heartbeat, until
// the phone goes, the class ends or the hub drops the stream.
func (st *stream) run() {
	c := st.s.class
	if !st.write("retry: 3000\n\n") {
		return
	}
	if st.room.Seq > st.last && !st.event("move", st.room.Seq) {
		return
	}
	tick := time.NewTicker(c.lim.Heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-st.r.Context().Done():
			st.left = true
			return
		case <-st.sub.gone:
			return
		case n := <-st.sub.ch:
			if !st.event(n.Kind, n.Seq) || n.Kind == "end" {
				return
			}
		case <-tick.C:
			if !st.heartbeat() {
				return
			}
		}
	}
}

// heartbeat re-reads the room (a notice lost while Redis reconnected is
// caught up here, and an expired room ends its streams), keeps the
// teacher's room and the student's presence alive, and sends a comment
// that keeps proxies from closing the stream. false: the stream is over.
func (st *stream) heartbeat() bool {
	c, ctx := st.s.class, st.r.Context()
	seq, err := c.store.seq(ctx, st.code)
	switch {
	case errors.Is(err, errNoRoom):
		_ = st.event("end", st.last+1)
		return false
	case err == nil && seq > st.last:
		if !st.event("move", seq) {
			return false
		}
	}
	if st.teacher {
		_ = c.store.touch(ctx, st.room)
	} else if st.sid != "" {
		_ = c.store.present(ctx, st.room, st.sid, c.lim.streamPresence())
	}
	return st.write(": hb\n\n")
}

// writeRaw sends b now; false: the phone went away.
func (st *stream) writeRaw(b []byte) bool {
	_ = st.rc.SetWriteDeadline(time.Now().Add(classWriteWait))
	if _, err := st.w.Write(b); err != nil || st.rc.Flush() != nil {
		st.left = true
		return false
	}
	return true
}

func (st *stream) write(format string, args ...any) bool {
	return st.writeRaw(fmt.Appendf(nil, format, args...))
}

// event sends one notice. A student's "move" carries the fragment of the
// new step itself (drawn once for every stream alike, see frame.go), so
// the phone needs no request of its own; false: the stream is over.
func (st *stream) event(kind string, seq int64) bool {
	c := st.s.class
	if kind == "move" && seq <= st.last {
		return true // already seen (a catch-up raced a notice)
	}
	if kind == "move" && !st.teacher && !c.bareMoves {
		ev, at, ended := st.s.studentMove(st.r, st.u, st.code, st.sid, seq)
		if ended {
			c.frames.forget(st.code)
			_ = st.write("id: %d\nevent: end\ndata: {\"seq\":%d}\n\n", st.last+1, st.last+1)
			return false
		}
		if ev != nil {
			st.last = max(st.last, at)
			return st.writeRaw(ev)
		}
	}
	if kind == "move" || kind == "end" {
		st.last = max(st.last, seq)
		return st.write("id: %d\nevent: %s\ndata: {\"seq\":%d}\n\n", seq, kind, seq)
	}
	return st.write("event: %s\ndata: {\"seq\":%d}\n\n", kind, seq)
}

// Handler serves the live class's pages and streams.
type Handler struct {
	*site.Site
	class   *Classroom
	lessons *lesson.Handler
	chal    Challenges
}

// New builds the live class's handler on the service c (nil: classes are
// off, and every class page says so); it shows rooms through lessons and
// the challenges a teacher poses through chal.
func New(s *site.Site, c *Classroom, lessons *lesson.Handler, chal Challenges) *Handler {
	return &Handler{Site: s, class: c, lessons: lessons, chal: chal}
}

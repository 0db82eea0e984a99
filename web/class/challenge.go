// challenge.go lets the teacher pose a challenge (web/challenge) to the
// room: students play it on their phones at the room's own address for
// it, each solved or answered page offers "Tell the class", and the
// teacher's bar counts who solved it and the best move count. A result is
// judged again by the explorer when it is told (the form carries the
// state, never a count), and no name is kept unless the student typed one.
//
// Keys of room CODE (with the room's expiry), beside store.go's:
//
//	lockclass:CODE            field chal: the challenge posed ("" none)
//	lockclass:CODE:chal       hash: student id → best result ("mN": broken
//	                          in N moves, "ok": fixed or predicted right,
//	                          "no": predicted wrong)
//	lockclass:CODE:chalnames  hash: student id → the name they typed

package class

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"
	"github.com/redis/go-redis/v9"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/explore"
	"locklab/web/i18n"
	"locklab/web/lesson"
	"locklab/web/limits"
	"locklab/web/links"
	"locklab/web/site"
)

// Challenges is what a class needs of the challenges feature (main.go
// passes web/challenge's handler): to serve one at the room's address, to
// judge a result told to the class, and the explorer's search for par.
type Challenges interface {
	PlayIn(w http.ResponseWriter, r *http.Request, u *i18n.UI, ch *lessons.Challenge, room *lesson.ChallengeRoom)
	Judge(r *http.Request, u *i18n.UI, ch *lessons.Challenge, q url.Values) (lesson.Verdict, *site.Error)
	Search(r *http.Request, u *i18n.UI, ch *lessons.Challenge, opts sim.Opts) (*explore.Result, *site.Error)
}

func chalKey(code string) string      { return "lockclass:" + code + ":chal" }
func chalNamesKey(code string) string { return "lockclass:" + code + ":chalnames" }

// NameMax is the most runes of a name a student may give with a result.
const NameMax = 40

// poseScript sets the room's challenge (ARGV[1], "" for none) and counts
// a move, so every phone shows it; a different challenge starts a new
// count (the results of the one before are dropped).
var poseScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HGET', KEYS[1], 'chal') ~= ARGV[1] then
  redis.call('DEL', KEYS[2], KEYS[3])
  if ARGV[1] == '' then redis.call('HDEL', KEYS[1], 'chal') else redis.call('HSET', KEYS[1], 'chal', ARGV[1]) end
end
return redis.call('HINCRBY', KEYS[1], 'seq', 1)`)

// pose sets room r's challenge (id "" ends it) and tells every instance.
func (s *classStore) pose(ctx context.Context, r *Room, id string) (int64, error) {
	seq, err := poseScript.Run(ctx, s.rdb, []string{roomKey(r.Code), chalKey(r.Code), chalNamesKey(r.Code)}, id).Int64()
	if err != nil {
		return 0, err
	}
	if seq < 0 {
		return 0, errNoRoom
	}
	_ = s.touch(ctx, r)
	return seq, s.publish(ctx, r.Code, "move", seq)
}

// reportScript keeps a student's result for the challenge ARGV[2] if it
// is still the one posed (-2 if not) and better than the one they had:
// any solve beats a wrong prediction, fewer moves beat more. The
// student is admitted and counted here, as their answer to a question
// would. The name sent replaces the one before; none sent takes it back.
// With ARGV[8] = 1 (a prediction) the first result told stands: the
// page shows the answer once it is given.
var reportScript = redis.NewScript(presentLua + `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HGET', KEYS[1], 'chal') ~= ARGV[2] then return -2 end
local p = present(KEYS[1], KEYS[4], KEYS[5], ARGV[1], ARGV[5], ARGV[9], ARGV[6], ARGV[7], ARGV[10])
if p == 0 then return -3 end
if p == -2 then return -4 end
local function rank(v)
  if not v then return 1e12 end
  if v == 'no' then return 1e11 end
  if v == 'ok' then return 0 end
  return tonumber(string.sub(v, 2))
end
local ttl = redis.call('TTL', KEYS[1])
local old = redis.call('HGET', KEYS[2], ARGV[1])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[3], ARGV[1], ARGV[4]) else redis.call('HDEL', KEYS[3], ARGV[1]) end
if not (ARGV[8] == '1' and old) and rank(ARGV[3]) < rank(old or nil) then redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) end
if ttl > 0 then redis.call('EXPIRE', KEYS[2], ttl) redis.call('EXPIRE', KEYS[3], ttl) end
return redis.call('HINCRBY', KEYS[1], 'vseq', 1)`)

// report keeps student sid's result (see reportScript) for challenge id
// and tells the teachers' streams.
func (s *classStore) report(ctx context.Context, code, id, sid, result, name string, once bool) error {
	now := s.nowMS()
	n, err := reportScript.Run(ctx, s.rdb,
		[]string{roomKey(code), chalKey(code), chalNamesKey(code), membersKey(code), hereKey(code)},
		sid, id, result, name, s.lim.StudentsPerRoom, now, now+s.lim.pagePresence().Milliseconds(), boolInt(once),
		s.lim.Joined, s.ttlSeconds()).Int64()
	switch {
	case err != nil:
		return err
	case n == -1:
		return errNoRoom
	case n == -2:
		return errNotPosed
	case n == -3:
		return errClassFull
	case n == -4:
		return errLocked
	}
	return s.publish(ctx, code, "votes", n)
}

// results are the room's results for its challenge and the names typed,
// by student id.
func (s *classStore) results(ctx context.Context, code string) (res, names map[string]string) {
	pipe := s.rdb.Pipeline()
	a := pipe.HGetAll(ctx, chalKey(code))
	b := pipe.HGetAll(ctx, chalNamesKey(code))
	_, _ = pipe.Exec(ctx)
	return a.Val(), b.Val()
}

// resultOf is a verdict as the room keeps it.
func resultOf(v lesson.Verdict) string {
	switch {
	case v.Solved && v.Moves > 0:
		return "m" + strconv.Itoa(v.Moves)
	case v.Solved:
		return "ok"
	default:
		return "no"
	}
}

// ChalBox is the posed challenge as the teacher's bar and the students'
// pages show it.
type ChalBox struct {
	Ch      *lessons.Challenge
	Kind    string
	URL     string // where the room plays it
	Solved  int    // students who solved it (broke it, fixed it, predicted right)
	Wrong   int    // predictions answered wrong
	Best    int    // break: the fewest moves told (0: none yet)
	Par     int    // break: the explorer's (0: not known yet)
	Results []ChalResult
}

// ChalResult is one named student's result (students who typed no name
// are counted, never listed).
type ChalResult struct{ Name, Result string }

// ChalGroup is one lesson's challenges in the pose form.
type ChalGroup struct {
	Label string
	List  []*lessons.Challenge
}

// chalBox is room's challenge in u's words (nil if none is posed or it
// is unknown); with counts, the tally the teacher sees.
func (s *Handler) chalBox(r *http.Request, u *i18n.UI, room *Room, counts bool) *ChalBox {
	if room.Chal == "" {
		return nil
	}
	ch, ok := s.Course.Challenge(u.Lang, room.Chal)
	if !ok {
		return nil
	}
	b := &ChalBox{Ch: ch, Kind: lesson.ChallengeKind(u, ch.Type), URL: links.Join(u.Lang, room.Code) + "/challenge/" + ch.ID}
	if !counts {
		return b
	}
	res, names := s.class.store.results(r.Context(), room.Code)
	for sid, v := range res {
		if name := names[sid]; name != "" {
			b.Results = append(b.Results, ChalResult{Name: name, Result: resultWords(u, ch, v)})
		}
		if v == "no" {
			b.Wrong++
			continue
		}
		if m, broke := strings.CutPrefix(v, "m"); broke {
			if n, err := strconv.Atoi(m); err == nil && (b.Best == 0 || n < b.Best) {
				b.Best = n
			}
		}
		b.Solved++
	}
	sort.Slice(b.Results, func(i, j int) bool { return b.Results[i].Name < b.Results[j].Name })
	if ch.Type == lessons.Break {
		if res, e := s.chal.Search(r, u, ch, ch.Opts); e == nil && res.Found[ch.Goal] != nil {
			b.Par = len(res.Found[ch.Goal].Shortest)
		}
	}
	return b
}

// poseChoices are the challenges a teacher may pose: the room's lesson's
// first, then every other lesson's.
func (s *Handler) poseChoices(u *i18n.UI, slug string) []ChalGroup {
	var first []ChalGroup
	var rest []ChalGroup
	for _, l := range s.Course.List(u.Lang) {
		g := ChalGroup{Label: strconv.Itoa(l.Order) + ". " + l.Title, List: s.Course.ChallengesOf(l)}
		if l.Slug == slug {
			first = append(first, g)
		} else {
			rest = append(rest, g)
		}
	}
	return append(first, rest...)
}

// resultWords is a kept result of challenge ch in u's words.
func resultWords(u *i18n.UI, ch *lessons.Challenge, v string) string {
	cu := u.Class
	switch {
	case v == "ok" && ch.Type == lessons.Predict:
		return cu.ChalRight
	case v == "ok":
		return cu.ChalOK
	case v == "no":
		return cu.ChalWrong
	case strings.HasPrefix(v, "m"):
		return i18n.Fill(cu.ChalMoves, v[1:])
	}
	return ""
}

// Pose sets the room's challenge (id=, from the bar's form; stop=1 ends
// it) and answers as the bar's other forms do.
func (s *Handler) Pose(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, true)
	if !ok {
		return
	}
	id, ok1 := oneValue(r, "id")
	do, ok2 := oneValue(r, "do")
	opt, ok3 := oneValue(r, "opt")
	if r.PostForm.Get("stop") == "1" {
		id, ok1 = "", true
	}
	if _, known := s.Course.Challenge(u.Lang, id); !ok1 || (id != "" && !known) ||
		(r.PostForm.Has("do") && !ok2) || (r.PostForm.Has("opt") && !ok3) {
		s.badForm(w, r, u, room.Code)
		return
	}
	seq, err := s.class.store.pose(r.Context(), room, id)
	if err != nil {
		s.Fail(w, r, u, s.storeErr(u, room.Code, err))
		return
	}
	room.Seq, room.Chal = seq, id
	s.teachPage(w, r, u, room, do, opt, 0)
}

// Challenge serves the room's challenge, played at the room's address:
// the challenge's own page, whose solved or answered state offers "Tell
// the class". A prediction is the exception: its answer is the class's
// the moment it is sent (the question is a form that posts to Tell),
// and a phone that has sent none is not shown a verdict (?answer= takes
// it back to the question), so no answer can be seen before it counts.
func (s *Handler) Challenge(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, false)
	if !ok {
		return
	}
	id := chi.URLParam(r, "id")
	ch, found := s.Course.Challenge(u.Lang, room.Chal)
	if room.Chal == "" || !found {
		e := classErr(u, http.StatusNotFound, "no-challenge", u.Class.ChalNoneTitle, u.Class.ChalNoneText)
		if _, known := s.Course.Challenge(u.Lang, id); known {
			// the class moved on: the learner's moves go on outside it
			e.Text, e.Recover, e.RecoverText = u.Class.ChalMovedOn, links.Challenge(u.Lang, id)+query(r), u.Class.ChalAlone
			s.Fail(w, r, u, e)
			return
		}
		s.Fail(w, r, u, backTo(e, u, room.Code))
		return
	}
	base := links.Join(u.Lang, room.Code)
	if id != ch.ID {
		e := classErr(u, http.StatusNotFound, "other-challenge", u.Class.ChalNoneTitle, u.Class.ChalMovedOn)
		if _, known := s.Course.Challenge(u.Lang, id); !known {
			s.Fail(w, r, u, backTo(site.NotFound(u), u, room.Code))
			return
		}
		e.Recover, e.RecoverText = links.Challenge(u.Lang, id)+query(r), u.Class.ChalAlone
		s.Fail(w, r, u, e)
		return
	}
	sid := studentID(r, room)
	var mine string
	if sid != "" {
		res, _ := s.class.store.results(r.Context(), room.Code)
		mine = res[sid]
	}
	at := base + "/challenge/" + ch.ID
	predict := ch.Type == lessons.Predict
	if predict && mine == "" && r.URL.Query().Has("answer") {
		http.Redirect(w, r, at, http.StatusSeeOther) // a verdict only for an answer the class has
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	cr := &lesson.ChallengeRoom{URL: at, Back: base, BackText: u.Class.BackToClass,
		Report: func(v lesson.Verdict) templ.Component {
			// a prediction counts once: the first sent, before the answer was seen
			form := sid != "" && !(predict && mine != "")
			return tellClass(u, base, ch.ID, v, resultWords(u, ch, mine), form, sid != "")
		}}
	if predict && mine == "" {
		cr.Ask = predictClass(u, base, ch.ID, sid != "")
	}
	s.chal.PlayIn(w, r, u, ch, cr)
}

// Tell keeps a student's result for the room's challenge: the state the
// form carries (do=, opt=, a design fix's scripts, or answer=) is judged
// again here, and only a
// solve or an answer is kept, with the name if one was typed.
func (s *Handler) Tell(w http.ResponseWriter, r *http.Request) {
	u, room, ok := s.openRoom(w, r, false)
	if !ok {
		return
	}
	if e := s.Limit(r, u, limits.Answer); e != nil { // a result told is an answer (limits.Answer)
		s.Fail(w, r, u, e)
		return
	}
	sid := studentID(r, room)
	if sid == "" {
		s.Fail(w, r, u, s.storeErr(u, room.Code, errBadSession))
		return
	}
	ch, found := s.Course.Challenge(u.Lang, room.Chal)
	id, ok1 := oneValue(r, "challenge")
	if room.Chal == "" || !found || !ok1 || id != room.Chal {
		e := classErr(u, http.StatusConflict, "no-challenge", u.Class.ChalNoneTitle, u.Class.ChalNoneText)
		if room.Chal != "" && found {
			e.Text = u.Class.ChalMovedOn // another one is posed now
		}
		s.Fail(w, r, u, backTo(e, u, room.Code))
		return
	}
	q := url.Values{}
	// the state as the page's address holds it: a break's do=, a fix's
	// opt= (or a design fix's scripts), a prediction's answer=
	for _, k := range append([]string{"do", "opt", "answer"}, links.DesignKeys...) {
		if r.PostForm.Has(k) {
			v, ok := oneValue(r, k)
			if !ok {
				s.badForm(w, r, u, room.Code)
				return
			}
			q.Set(k, v)
		}
	}
	for k := range r.PostForm {
		if strings.HasPrefix(k, "opt-") {
			q[k] = r.PostForm[k]
		}
	}
	name, okName := cleanName(r.PostForm.Get("name"))
	if !okName {
		e := classErr(u, http.StatusBadRequest, "bad-name", u.Class.BadFormTitle, i18n.Fill(u.Class.ChalNameLong, strconv.Itoa(NameMax)))
		s.Fail(w, r, u, backTo(e, u, room.Code))
		return
	}
	v, e := s.chal.Judge(r, u, ch, q)
	if e != nil {
		s.Fail(w, r, u, e)
		return
	}
	back := links.Join(u.Lang, room.Code) + "/challenge/" + ch.ID + canonical(q)
	if !v.Solved && !v.Answered {
		e := classErr(u, http.StatusBadRequest, "not-solved", u.Class.ChalNotYetTitle, u.Class.ChalNotYetText)
		e.Recover, e.RecoverText = back, u.Class.ChalBack
		s.Fail(w, r, u, e)
		return
	}
	if err := s.class.store.report(r.Context(), room.Code, ch.ID, sid, resultOf(v), name, ch.Type == lessons.Predict); err != nil {
		s.failIn(w, r, u, room, err)
		return
	}
	http.Redirect(w, r, back+"#told", http.StatusSeeOther)
}

// fields are a judged state's query as the hidden fields of the form
// that tells the class, in order.
func fields(query string) [][2]string {
	q, _ := url.ParseQuery(strings.TrimPrefix(query, "?"))
	var out [][2]string
	for _, k := range slices.Sorted(maps.Keys(q)) {
		for _, v := range q[k] {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

// cleanName is a typed name made safe to show on the projector: white
// space of any kind made one space, and dropped: control characters,
// format characters (Unicode's Cf: the bidirectional controls U+202A–
// U+202E and U+2066–U+2069, the marks U+200E, U+200F and U+061C, the
// zero-width space, joiners and no-break, the byte-order mark, tags) and
// the fillers that draw nothing, and combining marks past three in a
// row. So a name can neither reorder, hide nor cover the text around it
// on the teacher's bar (an emoji joined by U+200D shows as its parts). At most NameMax runes are kept (false: longer).
func cleanName(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(drawsNothing, r), r == utf8.RuneError:
			return -1
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	s = fewMarks(s)
	return s, utf8.RuneCountInString(s) <= NameMax
}

// marksKept is how many combining marks may follow one character: enough
// for any script's accents and vowel signs, too few to pile them into a
// column over the names around it on the projector (security retest N7).
const marksKept = 3

// fewMarks drops the combining marks past marksKept in a row.
func fewMarks(s string) string {
	var b strings.Builder
	n := 0
	for _, r := range s {
		if unicode.In(r, unicode.Mn, unicode.Me) {
			if n++; n > marksKept {
				continue
			}
		} else {
			n = 0
		}
		b.WriteRune(r)
	}
	return b.String()
}

// drawsNothing are the letters and marks, outside Cf, that Unicode
// makes invisible (Default_Ignorable_Code_Point): the combining grapheme
// joiner, the Hangul fillers, Khmer's inherent vowels and Mongolian's
// variation selectors. (The variation selectors U+FE00–U+FE0F stay: an
// emoji's presentation needs them.)
var drawsNothing = &unicode.RangeTable{R16: []unicode.Range16{
	{Lo: 0x034f, Hi: 0x034f, Stride: 1},
	{Lo: 0x115f, Hi: 0x1160, Stride: 1},
	{Lo: 0x17b4, Hi: 0x17b5, Stride: 1},
	{Lo: 0x180b, Hi: 0x180f, Stride: 1},
	{Lo: 0x3164, Hi: 0x3164, Stride: 1},
	{Lo: 0xffa0, Hi: 0xffa0, Stride: 1},
}}

// query is r's query as it came ("" or "?…").
func query(r *http.Request) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	return "?" + r.URL.RawQuery
}

// canonical is the query of a judged state, as the challenge's page
// writes it (opt-<name> fields are folded by the page itself).
func canonical(q url.Values) string {
	if len(q) == 0 {
		return ""
	}
	return "?" + q.Encode()
}

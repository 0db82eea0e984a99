// design.go serves "bring your own lock": the design page, where the
// learner edits a single-node lock's four scripts, its TTL and work time,
// and the explorer grades the design with two and three clients; and the
// counterexample page, a design's timeline opened like a lesson step.
// Like every page, each is fully described by its URL:
//
//	/{lang}/lab/design?acquire=…&release=…&extend=…&write=…&effect=add&ttl=10s&work=1s
//	/{lang}/lab/design/run?<the design>&clients=N&do=<actions>
//
// A piece is a preset by name (release=del) or a script as text; a design
// at its default leaves the parameter out. effect says what the write
// does (set, the default, or add), and so which form the write presets
// take. A link that would grow past
// designMaxLink carries its longest scripts compressed ("z." + base64url
// of DEFLATE), so every design has one bounded canonical link.
package web

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"locklab/sim"
	"locklab/sim/luacheck"
	"locklab/web/gocode"
	"locklab/web/i18n"
)

// Limits of a design URL.
const (
	// designMaxRaw bounds a request's raw query before it is parsed: the
	// form sends four scripts of up to 2 KB each, percent-encoded.
	designMaxRaw = 32 << 10
	// designMaxLink bounds a canonical design link.
	designMaxLink = 6000
	// designStateCap bounds each of a grade's two searches.
	designStateCap = 20_000
	// compactPrefix marks a script sent compressed.
	compactPrefix = "z."
)

// designTTLs and designWorks are the times the form offers; a URL may say
// any other within the design's bounds.
var (
	designTTLs  = []int64{1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000}
	designWorks = []int64{100, 500, 1000, 2000, 5000, 8000, 15_000, 30_000}
)

// designKeys are a design's parameters, in canonical order.
var designKeys = []string{"acquire", "release", "extend", "write", "effect", "ttl", "work"}

// designIn is a design URL as read: the design, and what the learner
// typed for each piece (kept for the page that says what is wrong).
type designIn struct {
	D     *sim.Design
	Typed map[sim.Piece]string
	TTL   string
	Work  string
}

// parseDesign reads a design from a query. extra names the other
// parameters the page accepts. A bad design is a 400 that shows the
// form as the learner sent it.
func parseDesign(u *i18n.UI, q url.Values, extra ...string) (designIn, *Error) {
	du := u.Design
	in := designIn{D: sim.DefaultDesign(), Typed: map[sim.Piece]string{}}
	for _, p := range sim.Pieces {
		in.Typed[p] = in.D.Script(p)
	}
	bad := func(text string) (designIn, *Error) {
		return in, designError(u, text, in)
	}
	for k, vs := range q {
		if !slices.Contains(designKeys, k) && !slices.Contains(extra, k) {
			return bad(i18n.Fill(du.BadParam, clip(k)))
		}
		if len(vs) != 1 {
			return bad(i18n.Fill(du.BadParam, clip(k)))
		}
	}
	if v, ok := q["effect"]; ok {
		if !slices.Contains(sim.Effects, v[0]) {
			return bad(i18n.Fill(du.BadEffect, clip(v[0])))
		}
		in.D.SetEffect(v[0])
		in.Typed[sim.PieceWrite] = in.D.Write
	}
	var firstBad *Error
	for _, p := range sim.Pieces {
		v, ok := q[p.Name()]
		if !ok {
			continue
		}
		src, e := pieceValue(u, p, in.D.Effect, v[0])
		in.Typed[p] = keepTyped(v[0], src)
		if e != "" && firstBad == nil {
			firstBad = designError(u, e, in)
		}
		in.D.SetScript(p, src)
		if p == sim.PieceWrite {
			in.D.SetEffect(in.D.Effect) // a preset's text in the other form becomes this one's
		}
		in.Typed[p] = keepTyped(v[0], in.D.Script(p))
	}
	if v, ok := q["ttl"]; ok {
		in.TTL = clip(v[0])
		ms, okd := sim.ParseDuration(v[0])
		if !okd || ms < sim.DesignMinTTL || ms > sim.DesignMaxTTL {
			return bad(du.BadTTL)
		}
		in.D.TTL = ms
	}
	if v, ok := q["work"]; ok {
		in.Work = clip(v[0])
		ms, okd := sim.ParseDuration(v[0])
		if !okd || ms < sim.DesignMinWork || ms > sim.DesignMaxWork {
			return bad(du.BadWork)
		}
		in.D.Work = ms
	}
	if firstBad != nil {
		firstBad.Keep = designKept(u, in)
		return in, firstBad
	}
	if err := in.D.Validate(); err != nil {
		return bad(designErrorText(u, err))
	}
	if len(designQuery(in.D)) > designMaxLink {
		return bad(du.BadLink)
	}
	return in, nil
}

// keepTyped is what the page shows back for a piece: the script if the
// value named one, else what was sent, made valid UTF-8.
func keepTyped(sent, src string) string {
	if src != "" {
		return src
	}
	return strings.ToValidUTF8(sent, "\uFFFD")
}

// clip shortens a value quoted back in an error.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}

// presetName is a value that looks like a preset's name, not a script.
func presetName(v string) bool {
	if v == "" || len(v) > 40 {
		return false
	}
	for _, r := range v {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// pieceValue turns a URL value into piece p's script: a preset's name,
// a compressed script, or the script itself. The text says what is wrong
// ("" if nothing).
func pieceValue(u *i18n.UI, p sim.Piece, effect, v string) (string, string) {
	du := u.Design
	if pr, ok := sim.PresetNamed(p, effect, v); ok {
		return pr.Script, ""
	}
	if rest, ok := strings.CutPrefix(v, compactPrefix); ok && presetLike(rest) {
		src, err := inflate(rest)
		if err != nil {
			return "", i18n.Fill(du.BadParam, clip(v))
		}
		return src, ""
	}
	if presetName(v) {
		var names []string
		for _, pr := range sim.PresetsOf(p, effect) {
			names = append(names, pr.Name)
		}
		sep := u.Language().NameSep
		return "", i18n.Fill(du.BadPreset, clip(v), du.PieceName[p.Name()], strings.Join(names, sep))
	}
	return v, ""
}

// presetLike: base64url text, as a compressed script is sent.
func presetLike(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return s != ""
}

// deflate and inflate are the compact form of a long script. inflate
// reads at most one byte more than a script may have, so no input can
// make it grow without bound.
func deflate(src string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	_, _ = w.Write([]byte(src))
	_ = w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func inflate(s string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return "", err
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, sim.DesignScriptMax+1))
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// designQuery is a design's canonical query ("" for the default design):
// each piece that differs from the default as a preset's name or its
// text, then the times; if that is longer than designMaxLink, the longest
// scripts go compressed, one by one, until it fits (or none is left).
func designQuery(d *sim.Design) string {
	def := sim.DefaultDesign()
	def.SetEffect(d.Effect)
	vals := map[string]string{}
	var own []sim.Piece
	for _, p := range sim.Pieces {
		src := d.Script(p)
		if src == def.Script(p) {
			continue
		}
		if name := sim.PresetOf(p, d.Effect, src); name != "" {
			vals[p.Name()] = name
			continue
		}
		if presetName(src) || strings.HasPrefix(src, compactPrefix) {
			// It would read back as a preset's name or a compressed
			// script: only the compressed form says what it is.
			vals[p.Name()] = compactPrefix + deflate(src)
			continue
		}
		vals[p.Name()] = src
		own = append(own, p)
	}
	if d.Effect != sim.EffectSet {
		vals["effect"] = d.Effect
	}
	if d.TTL != def.TTL {
		vals["ttl"] = sim.FormatDuration(d.TTL)
	}
	if d.Work != def.Work {
		vals["work"] = sim.FormatDuration(d.Work)
	}
	enc := func() string {
		var parts []string
		for _, k := range designKeys {
			if v, ok := vals[k]; ok {
				parts = append(parts, k+"="+queryValue(v))
			}
		}
		return strings.Join(parts, "&")
	}
	// Longest first; equal lengths in piece order, so the choice is fixed.
	slices.SortStableFunc(own, func(a, b sim.Piece) int { return len(d.Script(b)) - len(d.Script(a)) })
	q := enc()
	for _, p := range own {
		if len(q) <= designMaxLink {
			break
		}
		vals[p.Name()] = compactPrefix + deflate(d.Script(p))
		q = enc()
	}
	return q
}

// queryValue escapes a value for a link, leaving the punctuation Lua is
// made of readable: ( ) , [ ] : / * ! ~ stay as they are, a space is +.
// (Not ': browsers percent-encode it in a query, so a link with a bare '
// would come back in another form than the canonical one.)
func queryValue(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("-_.~(),[]:/*!", c) >= 0:
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(c)>>4, 16)+strconv.FormatInt(int64(c)&15, 16)))
		}
	}
	return b.String()
}

// withQuery joins a path and a query that may be empty.
func withQuery(path string, qs ...string) string {
	var parts []string
	for _, q := range qs {
		if q != "" {
			parts = append(parts, q)
		}
	}
	if len(parts) == 0 {
		return path
	}
	return path + "?" + strings.Join(parts, "&")
}

// designPath is the design page of d.
func designPath(lang string, d *sim.Design) string {
	return withQuery("/"+lang+"/lab/design", designQuery(d))
}

// designError is a 400 in the page's language that keeps the design as
// the learner sent it, in the form, under the reason.
func designError(u *i18n.UI, text string, in designIn) *Error {
	du := u.Design
	return &Error{Status: http.StatusBadRequest, Title: du.BadTitle, Text: text, Code: "design",
		Keep: designKept(u, in), Recover: "/" + u.Lang + "/lab/design", RecoverText: du.StartOver}
}

// designErrorText says why a design cannot run, naming the piece, and for
// a script the checker refused, the line and column and why.
func designErrorText(u *i18n.UI, err error) string {
	du := u.Design
	var de *sim.DesignError
	if !errors.As(err, &de) {
		return i18n.Fill(du.BadParam, "?")
	}
	piece := du.PieceName[de.Piece.Name()]
	var le *luacheck.Error
	if errors.As(de.Err, &le) {
		return i18n.Fill(du.BadScript, piece, scriptErrorText(u, le))
	}
	switch de.Code {
	case "ttl":
		return du.BadTTL
	case "work":
		return du.BadWork
	case "empty":
		return i18n.Fill(du.BadEmpty, piece)
	case "too-long":
		return i18n.Fill(du.BadTooLong, piece)
	case "too-many-parts":
		return i18n.Fill(du.BadParts, piece)
	case "clients":
		return du.BadClients
	case "effect":
		return i18n.Fill(du.BadEffect, "?")
	}
	return i18n.Fill(du.BadParam, de.Code)
}

// designPage serves /{lang}/lab/design.
func (s *Server) designPage(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	if len(r.URL.RawQuery) > designMaxRaw {
		s.fail(w, r, u, designError(u, u.Design.BadLink, designIn{D: sim.DefaultDesign()}))
		return
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		s.fail(w, r, u, designError(u, i18n.Fill(u.Design.BadParam, clip(r.URL.RawQuery)), designIn{D: sim.DefaultDesign()}))
		return
	}
	in, e := parseDesign(u, q)
	if e != nil {
		s.fail(w, r, u, e)
		return
	}
	if want := designQuery(in.D); r.URL.RawQuery != want {
		http.Redirect(w, r, designPath(u.Lang, in.D), http.StatusSeeOther)
		return
	}
	s.serveCached(w, r, u, true, func() ([]byte, string, bool, *Error) {
		g, e := s.grade(r, u, in.D)
		if e != nil {
			return nil, "", false, e
		}
		v := s.designView(r, u, in)
		v.Grade = g
		body, typ, e := s.renderBytes(r, u, DesignPage(v))
		return body, typ, true, e
	})
}

// DesignView is what the design page shows.
type DesignView struct {
	Page
	D         *i18n.DesignUI
	Action    string
	Pieces    []DesignPiece
	TTLs      []Choice
	Works     []Choice
	Grade     *DesignGrade
	Effects   []Choice // what the write does (the write's fieldset shows them)
	Code      string
	Canonical string
}

// DesignPiece is one script's part of the form.
type DesignPiece struct {
	Name, Label, Help, Text string
	Rows                    int      // the textarea's height: the script's lines, within 3 to 16
	Presets                 []Choice // Value: the link that loads it; Checked: the one shown
}

// DesignGrade is the explorer's grade, in words and links.
type DesignGrade struct {
	Summary, Within, Bounds string
	TableLabel              string // the findings table's region
	Incomplete              []string
	Clients                 []string // the columns: "2 clients", "3 clients"
	Rows                    []DesignRow
	Broken                  bool
}

// DesignRow is one kind of failure, with what each search found.
type DesignRow struct {
	Kind, Name, Meaning string
	Cells               []DesignCell
}

// DesignCell is one search's shortest counterexample of a kind ("" URL:
// none found).
type DesignCell struct{ Text, URL string }

// designView builds the form for a design (the grade is added by the
// caller, when there is one).
func (s *Server) designView(r *http.Request, u *i18n.UI, in designIn) *DesignView {
	du := u.Design
	v := &DesignView{Page: s.page(u, du.Title+" — "+u.SiteName, r), D: du, Action: "/" + u.Lang + "/lab/design",
		Canonical: designPath(u.Lang, in.D)}
	for _, p := range sim.Pieces {
		dp := DesignPiece{Name: p.Name(), Label: du.PieceLabel[p.Name()], Help: du.PieceHelp[p.Name()], Text: in.Typed[p], Rows: rowsFor(in.Typed[p])}
		for _, pr := range sim.PresetsOf(p, in.D.Effect) {
			d := *in.D
			d.SetScript(p, pr.Script)
			dp.Presets = append(dp.Presets, Choice{Value: designPath(u.Lang, &d), Label: du.PresetLabel[p.Name()+"."+pr.Name],
				Checked: sim.NormalizeScript(in.Typed[p]) == sim.NormalizeScript(pr.Script)})
		}
		v.Pieces = append(v.Pieces, dp)
	}
	times := func(list []int64, cur int64) []Choice {
		if !slices.Contains(list, cur) {
			list = append(slices.Clone(list), cur)
			slices.Sort(list)
		}
		var out []Choice
		for _, ms := range list {
			out = append(out, Choice{Value: sim.FormatDuration(ms), Label: sim.FormatDuration(ms), Checked: ms == cur})
		}
		return out
	}
	v.Effects = effectChoices(du, in.D.Effect)
	v.TTLs = times(designTTLs, in.D.TTL)
	v.Works = times(designWorks, in.D.Work)
	if in.D.Validate() == nil {
		v.Code = gocode.Design(in.D, u.Lang)
	}
	return v
}

// designKept is the form as the learner sent it, for the 400 page.
func designKept(u *i18n.UI, in designIn) templ.Component {
	du := u.Design
	v := &DesignView{D: du, Action: "/" + u.Lang + "/lab/design"}
	v.Page.UI = u
	for _, p := range sim.Pieces {
		v.Pieces = append(v.Pieces, DesignPiece{Name: p.Name(), Label: du.PieceLabel[p.Name()], Help: du.PieceHelp[p.Name()], Text: in.Typed[p], Rows: rowsFor(in.Typed[p])})
	}
	d := in.D
	if d == nil {
		d = sim.DefaultDesign()
	}
	keep := func(list []int64, cur int64, typed string) []Choice {
		var out []Choice
		found := false
		for _, ms := range list {
			c := Choice{Value: sim.FormatDuration(ms), Label: sim.FormatDuration(ms), Checked: ms == cur && typed == ""}
			found = found || c.Checked
			out = append(out, c)
		}
		if typed != "" {
			out = append(out, Choice{Value: typed, Label: typed, Checked: true})
		} else if !found {
			out = append(out, Choice{Value: sim.FormatDuration(cur), Label: sim.FormatDuration(cur), Checked: true})
		}
		return out
	}
	v.Effects = effectChoices(du, d.Effect)
	v.TTLs = keep(designTTLs, d.TTL, in.TTL)
	v.Works = keep(designWorks, d.Work, in.Work)
	return designKeptForm(v)
}

// grade runs the two searches of a grade within the request's bounds,
// like the Lab's exploration: one Lab slot and one replay slot, waited
// for only until the deadline; a search the deadline cut short gives no
// grade at all.
func (s *Server) grade(r *http.Request, u *i18n.UI, d *sim.Design) (*DesignGrade, *Error) {
	ctx, cancel := context.WithTimeout(r.Context(), s.labDeadline)
	defer cancel()
	release, e := s.labSlots(ctx, u)
	if e != nil {
		return nil, e
	}
	defer release()
	du := u.Design
	g := &DesignGrade{TableLabel: u.A11y.FindingsTable, Bounds: i18n.Fill(du.Bounds, sim.FormatDuration(d.TTL), strconv.Itoa(sim.GradeDepth),
		u.Count(designStateCap), du.EffectBound[d.Effect])}
	found := map[sim.ViolationKind][]DesignCell{}
	complete := true
	for _, n := range []int{2, 3} {
		res, err := sim.Grade(ctx, d, n, designStateCap)
		if err != nil {
			return nil, internal(u, err)
		}
		if res.Stopped == sim.StopTime {
			e := busy(u)
			e.Text = u.Lab.Busy
			return nil, e
		}
		if !res.Complete() {
			complete = false
			g.Incomplete = append(g.Incomplete, i18n.Fill(du.Incomplete, strconv.Itoa(n), u.Count(designStateCap), strconv.Itoa(res.Depth)))
		}
		g.Clients = append(g.Clients, i18n.Fill(du.ClientsCol, strconv.Itoa(n)))
		for _, k := range sim.GradeKinds {
			cell := DesignCell{Text: du.NoneFound}
			if f := res.Found[k]; f != nil {
				cell = DesignCell{Text: i18n.Fill(du.StepsOpen, strconv.Itoa(len(f.Shortest))), URL: runPath(u.Lang, d, n, f.Shortest)}
			}
			found[k] = append(found[k], cell)
		}
	}
	kinds := 0
	for _, k := range sim.GradeKinds {
		cells := found[k]
		hit := slices.ContainsFunc(cells, func(c DesignCell) bool { return c.URL != "" })
		if hit {
			kinds++
		}
		g.Rows = append(g.Rows, DesignRow{Kind: string(k), Name: du.KindName[k], Meaning: du.KindMeaning[k], Cells: cells})
	}
	if kinds > 0 {
		g.Broken = true
		g.Summary = i18n.Fill(du.Broken, strconv.Itoa(kinds), strconv.Itoa(len(sim.GradeKinds)))
	} else {
		g.Summary = du.Safe
		if complete {
			g.Within = du.Within
		}
	}
	return g, nil
}

// runPath is the counterexample page of design d with n clients.
func runPath(lang string, d *sim.Design, n int, as []sim.Action) string {
	do := ""
	if len(as) > 0 {
		do = "do=" + sim.FormatActions(as)
	}
	return withQuery("/"+lang+"/lab/design/run", designQuery(d), "clients="+strconv.Itoa(n), do)
}

// designFromLesson is the design page's starting point for a lesson's
// design: the presets its options name (release.del is release=del,
// fence.off is write=none, work.long a 15s job), the default design for
// a lock that does not live in one Redis key.
func designFromLesson(sc *sim.Scenario, o sim.Opts) *sim.Design {
	d := sim.DefaultDesign()
	if sc.Design != nil {
		c := *sc.Design
		return &c
	}
	if sc.Coord || sc.Redlock || sc.Replicated || sc.Storage != sim.StoreFenced {
		return d
	}
	set := func(p sim.Piece, name string) {
		if pr, ok := sim.PresetNamed(p, sim.EffectSet, name); ok {
			d.SetScript(p, pr.Script)
		}
	}
	set(sim.PieceAcquire, map[string]string{sim.AcquireSetNX: "setnx-pexpire", sim.AcquireGetSet: "get-set"}[o[sim.OptAcquire]])
	set(sim.PieceRelease, map[string]string{sim.ReleaseDel: "del", sim.ReleaseGetDel: "get-del", sim.ReleaseDelex: "delex"}[o[sim.OptRelease]])
	set(sim.PieceWrite, map[string]string{sim.FenceOff: "none", sim.FenceStrict: "strict", sim.FenceTwoStep: "split"}[o[sim.OptFence]])
	if !sc.Tokens {
		set(sim.PieceWrite, "none")
	}
	d.TTL, d.Work = sc.TTL, sc.WorkMs(o)
	return d
}

// effectChoices are the options of "what the write does", cur chosen.
func effectChoices(du *i18n.DesignUI, cur string) []Choice {
	var out []Choice
	for _, e := range sim.Effects {
		out = append(out, Choice{Value: e, Label: du.EffectLabel[e], Checked: e == cur})
	}
	return out
}

// rowsFor is a textarea's height for a script: its lines and one to type
// in, within 3 to 16.
func rowsFor(src string) int {
	return min(max(strings.Count(src, "\n")+2, 3), 16)
}

// Package design serves "bring your own lock": the design page, where the
// learner edits a single-node lock's four scripts, its TTL and work time,
// and the explorer grades the design with two and three clients; and the
// counterexample page, a design's timeline opened like a lesson step.
// Like every page, each is fully described by its URL:
//
//	/{lang}/lab/design?acquire=…&release=…&extend=…&write=…&effect=add&ttl=10s&work=1s
//	/{lang}/lab/design/run?<the design>&clients=N&do=<actions>
//	/{lang}/lab/design/qr.svg?<the design>     (its share box's QR code)
//
// A piece is a preset by name (release=del) or a script as text; a design
// at its default leaves the parameter out. effect says what the write
// does (set, the default, or add), and so which form the write presets
// take. A link that would grow past
// designMaxLink carries its longest scripts compressed ("z." + base64url
// of DEFLATE), so every design has one bounded canonical link.
package design

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"locklab/sim"
	"locklab/sim/explore"
	"locklab/sim/lockdesign"
	"locklab/sim/luacheck"
	"locklab/web/findings"
	"locklab/web/gocode"
	"locklab/web/i18n"
	"locklab/web/lesson"
	"locklab/web/limits"
	"locklab/web/links"
	"locklab/web/site"
)

// Limits of a design URL.
const (
	// MaxRaw bounds a request's raw query before it is parsed: the
	// form sends four scripts of up to 2 KB each, percent-encoded.
	MaxRaw = 32 << 10
	// designStateCap bounds each of a grade's two searches.
	designStateCap = 20_000
)

// designTTLs and designWorks are the times the form offers; a URL may say
// any other within the design's bounds.
var (
	designTTLs  = []int64{1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000}
	designWorks = []int64{100, 500, 1000, 2000, 5000, 8000, 15_000, 30_000}
)

// designIn is a design URL as read: the design, and what the learner
// typed for each piece (kept for the page that says what is wrong).
type designIn struct {
	D     *lockdesign.Design
	Typed map[sim.Piece]string
	TTL   string
	Work  string
	// Bad is the piece a refused design is refused for ("" when the
	// reason is no one piece's), BadLine the line of it the checker
	// named (0: none) and BadText why: the kept form marks them there.
	Bad     string
	BadLine int
	BadText string
}

// parseDesign reads a design from a query. extra names the other
// parameters the page accepts. A bad design is a 400 that shows the
// form as the learner sent it.
func parseDesign(u *i18n.UI, q url.Values, extra ...string) (designIn, *site.Error) {
	du := u.Design
	in := designIn{D: lockdesign.DefaultDesign(), Typed: map[sim.Piece]string{}}
	for _, p := range sim.Pieces {
		in.Typed[p] = in.D.Script(p)
	}
	bad := func(text string) (designIn, *site.Error) {
		return in, designError(u, text, in)
	}
	for k, vs := range q {
		if !slices.Contains(links.DesignKeys, k) && !slices.Contains(extra, k) {
			return bad(i18n.Fill(du.BadParam, site.Clip(k)))
		}
		if len(vs) != 1 {
			return bad(i18n.Fill(du.Repeated, site.Clip(k)))
		}
	}
	if v, ok := q["effect"]; ok {
		if !slices.Contains(lockdesign.Effects, v[0]) {
			return bad(i18n.Fill(du.BadEffect, site.Clip(v[0])))
		}
		in.D.SetEffect(v[0])
		in.Typed[sim.PieceWrite] = in.D.Write
	}
	var firstBad *site.Error
	for _, p := range sim.Pieces {
		v, ok := q[p.Name()]
		if !ok {
			continue
		}
		src, e := pieceValue(u, p, in.D.Effect, v[0])
		in.Typed[p] = keepTyped(v[0], src)
		if e != "" && firstBad == nil {
			in.Bad, in.BadText = p.Name(), e
			firstBad = designError(u, e, in)
		}
		in.D.SetScript(p, src)
		if p == sim.PieceWrite {
			in.D.SetEffect(in.D.Effect) // a preset's text in the other form becomes this one's
		}
		in.Typed[p] = keepTyped(v[0], in.D.Script(p))
	}
	if v, ok := q["renew"]; ok {
		if !slices.Contains(lockdesign.Renewals, v[0]) {
			return bad(i18n.Fill(du.BadRenew, site.Clip(v[0])))
		}
		if in.D.Extend != "" { // no extend, nothing to fail: the same design
			in.D.Renew = v[0]
		}
	}
	if v, ok := q["ttl"]; ok {
		in.TTL = site.Clip(v[0])
		ms, okd := sim.ParseDuration(v[0])
		if !okd || ms < lockdesign.DesignMinTTL || ms > lockdesign.DesignMaxTTL {
			return bad(du.BadTTL)
		}
		in.D.TTL = ms
	}
	if v, ok := q["work"]; ok {
		in.Work = site.Clip(v[0])
		ms, okd := sim.ParseDuration(v[0])
		if !okd || ms < lockdesign.DesignMinWork || ms > lockdesign.DesignMaxWork {
			return bad(du.BadWork)
		}
		in.D.Work = ms
	}
	if firstBad != nil {
		firstBad.Keep = designKept(u, in)
		return in, firstBad
	}
	if err := in.D.Validate(); err != nil {
		text := designErrorText(u, err)
		in.Bad, in.BadLine = badPlace(err)
		if name := earlierLocal(in.D, err); name != "" {
			if !strings.HasSuffix(text, "。") && !strings.HasSuffix(text, ".") {
				text += u.Language().FullStop() // the checker's words end with none
			}
			text = i18n.Sentences(text, i18n.Fill(du.ThenLocal, name))
		}
		in.BadText = text
		return bad(text)
	}
	if len(links.DesignQuery(in.D)) > links.DesignMaxLink {
		return bad(du.BadLink)
	}
	return in, nil
}

// earlierLocal is the name a script error is about when it is a local
// of an earlier part of the same piece ("" otherwise): the checker reads
// each part alone, as EVAL runs it, so a local does not carry over a
// "-- then", and its words ("not available: … its own locals") do not
// say why.
func earlierLocal(d *lockdesign.Design, err error) string {
	var de *lockdesign.DesignError
	var le *luacheck.Error
	if !errors.As(err, &de) || !errors.As(de.Err, &le) || le.Code != luacheck.CodeGlobal || de.Part == 0 {
		return ""
	}
	parts := sim.Parts(d.Script(de.Piece))
	for _, part := range parts[:min(de.Part, len(parts))] {
		for _, m := range localDecl.FindAllStringSubmatch(part, -1) {
			for _, n := range strings.Split(m[1], ",") {
				if strings.TrimSpace(n) == le.Arg {
					return le.Arg
				}
			}
		}
	}
	return ""
}

// localDecl is a local statement's names ("local a, b").
var localDecl = regexp.MustCompile(`\blocal\s+([A-Za-z_][A-Za-z0-9_]*(\s*,\s*[A-Za-z_][A-Za-z0-9_]*)*)`)

// keepTyped is what the page shows back for a piece: the script if the
// value named one, else what was sent, made valid UTF-8.
func keepTyped(sent, src string) string {
	if src != "" {
		return src
	}
	return strings.ToValidUTF8(sent, "\uFFFD")
}

// pieceValue turns a URL value into piece p's script: a preset's name,
// a compressed script, or the script itself. The text says what is wrong
// ("" if nothing).
func pieceValue(u *i18n.UI, p sim.Piece, effect, v string) (string, string) {
	du := u.Design
	if pr, ok := lockdesign.PresetNamed(p, effect, v); ok {
		return pr.Script, ""
	}
	if rest, ok := strings.CutPrefix(v, links.CompactPrefix); ok && links.PresetLike(rest) {
		src, err := links.Inflate(rest)
		if err != nil {
			return "", i18n.Fill(du.BadParam, site.Clip(v))
		}
		return src, ""
	}
	if links.PresetName(v) {
		var names []string
		for _, pr := range lockdesign.PresetsOf(p, effect) {
			names = append(names, pr.Name)
		}
		sep := u.Language().NameSep
		return "", i18n.Fill(du.BadPreset, site.Clip(v), du.PieceName[p.Name()], strings.Join(names, sep))
	}
	return v, ""
}

// designError is a 400 in the page's language that keeps the design as
// the learner sent it, in the form, under the reason.
func designError(u *i18n.UI, text string, in designIn) *site.Error {
	du := u.Design
	return &site.Error{Status: http.StatusBadRequest, Title: du.BadTitle, Text: text, Code: "design",
		Keep: designKept(u, in), Editor: true, Recover: "/" + u.Lang + "/lab/design", RecoverText: du.StartOver}
}

// badPlace is the piece a design is refused for and the line the
// checker named ("", 0 for a reason that is no one piece's: the TTL, the
// work).
func badPlace(err error) (string, int) {
	var de *lockdesign.DesignError
	if !errors.As(err, &de) || (de.Err == nil && de.Code != "empty" && de.Code != "too-long" && de.Code != "too-many-parts") {
		return "", 0
	}
	var le *luacheck.Error
	if errors.As(de.Err, &le) {
		return de.Piece.Name(), le.Line
	}
	return de.Piece.Name(), 0
}

// designErrorText says why a design cannot run, naming the piece, and for
// a script the checker refused, the line and column and why.
func designErrorText(u *i18n.UI, err error) string {
	du := u.Design
	var de *lockdesign.DesignError
	if !errors.As(err, &de) {
		return i18n.Fill(du.BadParam, "?")
	}
	piece := du.PieceName[de.Piece.Name()]
	var le *luacheck.Error
	if errors.As(de.Err, &le) {
		return i18n.Fill(du.BadScript, piece, u.ScriptError(le))
	}
	switch de.Code {
	case "ttl":
		return du.BadTTL
	case "work":
		return du.BadWork
	case "renew":
		return i18n.Fill(du.BadRenew, "")
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

// readDesign reads the design in a request's address (the page's, its QR
// code's, a run's with the extra parameters it names), or answers with the
// reason it cannot and returns false.
func (s *Handler) readDesign(w http.ResponseWriter, r *http.Request, extra ...string) (*i18n.UI, url.Values, designIn, bool) {
	u := i18n.For(chi.URLParam(r, "lang"))
	if len(r.URL.RawQuery) > MaxRaw {
		s.Fail(w, r, u, designError(u, u.Design.BadLink, designIn{D: lockdesign.DefaultDesign()}))
		return u, nil, designIn{}, false
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		s.Fail(w, r, u, designError(u, i18n.Fill(u.Design.BadParam, site.Clip(r.URL.RawQuery)), designIn{D: lockdesign.DefaultDesign()}))
		return u, nil, designIn{}, false
	}
	in, e := parseDesign(u, q, extra...)
	if e != nil {
		s.Fail(w, r, u, e)
		return u, nil, designIn{}, false
	}
	return u, q, in, true
}

// Page serves /{lang}/lab/design.
func (s *Handler) Page(w http.ResponseWriter, r *http.Request) {
	u, _, in, ok := s.readDesign(w, r)
	if !ok {
		return
	}
	if want := links.DesignQuery(in.D); !site.SameQuery(r.URL.RawQuery, want) {
		http.Redirect(w, r, links.Design(u.Lang, in.D), http.StatusSeeOther)
		return
	}
	s.ServeCached(w, r, u, true, func() ([]byte, string, bool, *site.Error) {
		g, e := s.grade(r, u, in.D)
		if e != nil {
			if e.Keep == nil {
				e.Keep, e.Editor = designKept(u, in), true // busy or over the client's share: the design stays
			}
			return nil, "", false, e
		}
		v := s.designView(r, u, in)
		v.Grade = g
		v.Card = gradeCard(s.Site, r, u, in.D, g)
		v.Title = v.Card.Title + " — " + u.SiteName // a tab and a bookmark name the result too
		v.Share = lesson.ShareBox{UI: u, URL: s.Absolute(r, v.Canonical), QRURL: "/" + u.Lang + "/lab/design/qr.svg?" + links.DesignQuery(in.D),
			Title: u.ShareDesign, Hint: u.ShareDesignHint}
		body, typ, e := s.RenderBytes(r, u, DesignPage(v))
		return body, typ, true, e
	})
}

// QR serves /{lang}/lab/design/qr.svg: the QR code of a design's page,
// for its share box.
func (s *Handler) QR(w http.ResponseWriter, r *http.Request) {
	u, _, in, ok := s.readDesign(w, r)
	if !ok {
		return
	}
	w = lesson.PictureFile(w, "locklab-qr.svg")
	s.Cached(w, r, u, func() ([]byte, string, *site.Error) {
		return site.QRImage(u, s.Absolute(r, links.Design(u.Lang, in.D)))
	})
}

// DesignView is what the design page shows.
type DesignView struct {
	site.Page
	D         *i18n.DesignUI
	Action    string
	Pieces    []DesignPiece
	TTLs      []site.Choice
	Works     []site.Choice
	Grade     *DesignGrade
	Effects   []site.Choice // what the write does (the write's fieldset shows them)
	Renewals  []site.Choice // what a failed extend does (the extend's fieldset shows them)
	Code      string
	Canonical string
	// Share is the graded design's address and QR code: "this design
	// gets this grade", for a design document or a slide
	Share lesson.ShareBox
	// Check, on a fix challenge's kept form, is the challenge's button:
	// the form keeps the design's times and effect as they are (the
	// challenge's form offers none of them) and goes back to the verdict.
	Check string
}

// DesignPiece is one script's part of the form.
type DesignPiece struct {
	Name, Label, Help, Text string
	Rows                    int           // the textarea's height: the script's lines, within 3 to 16
	Presets                 []site.Choice // Value: the link that loads it; Checked: the one shown
	// Error is why the design was refused, when it is this piece's (the
	// kept form puts it beside the script and the focus in it), and
	// ErrorLine the line the checker named (0: none), which the editor
	// marks.
	Error     string
	ErrorLine int
}

// shortestRun is a shortest schedule of a grade's and how many clients
// it ran with.
type shortestRun struct {
	Shortest []sim.Action
	Clients  int
}

// DesignGrade is the explorer's grade, in words and links.
type DesignGrade struct {
	Summary, Within, Bounds string
	TableLabel              string // the findings table's region
	ClassCol                string // the findings table's class column
	Incomplete              []string
	Clients                 []string // the columns: "2 clients", "3 clients"
	Rows                    []DesignRow
	// Verdict sums up Rows, in the words the Lab uses too.
	Verdict findings.Verdict
	// shortest is, per kind found, the shorter of the two searches'
	// shortest schedules, with its number of clients (for the link card)
	shortest map[sim.ViolationKind]shortestRun
	// WorkPastTTL: the design's work is not shorter than its TTL and
	// nothing extends it, so every write comes after the writer's own
	// lease: a client bug, which the grade finds as a job outliving its
	// lease only where the work is longer ("" otherwise).
	WorkPastTTL string
}

// DesignRow is one kind of failure, with what each search found.
type DesignRow struct {
	findings.Row
	Cells []DesignCell
}

// Found reports whether some search found this kind.
func (r DesignRow) Found() bool {
	return slices.ContainsFunc(r.Cells, func(c DesignCell) bool { return c.URL != "" })
}

// DesignCell is one search's shortest counterexample of a kind ("" URL:
// none found).
type DesignCell struct{ Text, URL string }

// designView builds the form for a design (the grade is added by the
// caller, when there is one).
func (s *Handler) designView(r *http.Request, u *i18n.UI, in designIn) *DesignView {
	du := u.Design
	page := s.Frame(u, du.Title+" — "+u.SiteName, r)
	page.Editor = true // the script boxes
	v := &DesignView{Page: page, D: du, Action: "/" + u.Lang + "/lab/design",
		Canonical: links.Design(u.Lang, in.D)}
	for _, p := range sim.Pieces {
		dp := DesignPiece{Name: p.Name(), Label: du.PieceLabel[p.Name()], Help: du.PieceHelp[p.Name()], Text: in.Typed[p], Rows: rowsFor(in.Typed[p])}
		for _, pr := range lockdesign.PresetsOf(p, in.D.Effect) {
			d := *in.D
			d.SetScript(p, pr.Script)
			shown := lockdesign.NormalizeScript(in.Typed[p]) == lockdesign.NormalizeScript(pr.Script)
			label := du.PresetLabel[p.Name()+"."+pr.Name]
			if lockdesign.IsLibraryPreset(pr) {
				// a library's script is listed where the design holds it
				// (the libraries' page starts from them): its name is the
				// library's, in no language
				if !shown {
					continue
				}
				label = pr.Name
			}
			dp.Presets = append(dp.Presets, site.Choice{Value: links.Design(u.Lang, &d), Label: label, Checked: shown})
		}
		v.Pieces = append(v.Pieces, dp)
	}
	times := func(list []int64, cur int64) []site.Choice {
		if !slices.Contains(list, cur) {
			list = append(slices.Clone(list), cur)
			slices.Sort(list)
		}
		var out []site.Choice
		for _, ms := range list {
			out = append(out, site.Choice{Value: sim.FormatDuration(ms), Label: sim.FormatDuration(ms), Checked: ms == cur})
		}
		return out
	}
	v.Effects = effectChoices(du, in.D.Effect)
	v.Renewals = renewChoices(du, in.D.Renew)
	v.TTLs = times(designTTLs, in.D.TTL)
	v.Works = times(designWorks, in.D.Work)
	if in.D.Validate() == nil {
		v.Code = gocode.Design(in.D, u.Lang)
	}
	return v
}

// designKept is the form as the learner sent it, for the 400 page.
func designKept(u *i18n.UI, in designIn) templ.Component {
	return designKeptAt(u, in, "/"+u.Lang+"/lab/design", "")
}

// designKeptAt is designKept with its form sent to action; check, for a
// fix challenge, its button (DesignView.Check).
func designKeptAt(u *i18n.UI, in designIn, action, check string) templ.Component {
	du := u.Design
	v := &DesignView{D: du, Action: action, Check: check}
	v.Page.UI = u
	for _, p := range sim.Pieces {
		dp := DesignPiece{Name: p.Name(), Label: du.PieceLabel[p.Name()], Help: du.PieceHelp[p.Name()], Text: in.Typed[p], Rows: rowsFor(in.Typed[p])}
		if p.Name() == in.Bad {
			dp.Error, dp.ErrorLine = in.BadText, in.BadLine
		}
		v.Pieces = append(v.Pieces, dp)
	}
	d := in.D
	if d == nil {
		d = lockdesign.DefaultDesign()
	}
	keep := func(list []int64, cur int64, typed string) []site.Choice {
		var out []site.Choice
		found := false
		for _, ms := range list {
			c := site.Choice{Value: sim.FormatDuration(ms), Label: sim.FormatDuration(ms), Checked: ms == cur && typed == ""}
			found = found || c.Checked
			out = append(out, c)
		}
		if typed != "" {
			out = append(out, site.Choice{Value: typed, Label: typed, Checked: true})
		} else if !found {
			out = append(out, site.Choice{Value: sim.FormatDuration(cur), Label: sim.FormatDuration(cur), Checked: true})
		}
		return out
	}
	v.Effects = effectChoices(du, d.Effect)
	v.Renewals = renewChoices(du, d.Renew)
	v.TTLs = keep(designTTLs, d.TTL, in.TTL)
	v.Works = keep(designWorks, d.Work, in.Work)
	return designKeptForm(v)
}

// gradeCard is what a pasted design link unfurls into: the verdict, and
// the finding it leads with (findings.CardKind) by kind and length, with
// its timeline as the picture (none where no counterexample was found).
// A grade is no timeline: it has no oEmbed answer.
func gradeCard(s *site.Site, r *http.Request, u *i18n.UI, d *lockdesign.Design, g *DesignGrade) *site.Card {
	lead := i18n.Sentences(append([]string{g.Verdict.Card()}, g.Incomplete...)...)
	steps := map[sim.ViolationKind]int{}
	for k, f := range g.shortest {
		steps[k] = len(f.Shortest)
	}
	name, desc, alt, k := findings.CardText(u, g.Verdict, lead, u.Design.Title, steps)
	png := ""
	if k != "" {
		png = runFile(links.DesignRun(u.Lang, d, g.shortest[k].Clients, g.shortest[k].Shortest), "-card.png")
	}
	card := s.CardFor(r, name, desc, png, alt)
	card.OEmbed = ""
	return card
}

// search runs the two searches of a grade within the request's bounds,
// like the Lab's exploration: one Lab slot and one replay slot, waited
// for only until the deadline; a search the deadline cut short gives no
// grade at all. A design graded before comes from the memo, exploring
// nothing and taking nothing from the client's share.
func (s *Handler) search(r *http.Request, u *i18n.UI, d *lockdesign.Design) (grades, *site.Error) {
	key := links.DesignQuery(d)
	if g, ok := s.memo.Get(key); ok {
		return g, nil
	}
	if e := s.Limit(r, u, limits.Explore); e != nil {
		return grades{}, e
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.LabDeadline)
	defer cancel()
	release, e := s.LabSlots(ctx, u)
	if e != nil {
		return grades{}, e
	}
	defer release()
	var g grades
	for i, n := range []int{2, 3} {
		res, err := lockdesign.Grade(ctx, d, n, designStateCap)
		if err != nil {
			return grades{}, site.Internal(u, err)
		}
		if res.Stopped == explore.StopTime {
			// the server's busy answer: the Lab's own sentence has numbers
			// to fill and advice about bounds this page has no control for
			return grades{}, site.Busy(u)
		}
		g[i] = res
	}
	s.memo.Add(key, g)
	return g, nil
}

// grade is the grade of d in u's words: the searches, a row per kind.
func (s *Handler) grade(r *http.Request, u *i18n.UI, d *lockdesign.Design) (*DesignGrade, *site.Error) {
	results, e := s.search(r, u, d)
	if e != nil {
		return nil, e
	}
	du := u.Design
	g := &DesignGrade{TableLabel: u.A11y.FindingsTable, ClassCol: u.Verdict.ClassCol, Bounds: i18n.Fill(du.Bounds, sim.FormatDuration(d.TTL), strconv.Itoa(lockdesign.GradeDepth),
		u.Count(designStateCap), du.EffectBound[d.Effect])}
	sc, err := d.ScenarioFor(2)
	if err != nil {
		return nil, site.Internal(u, err)
	}
	kinds := sim.KindsFor(sc)
	cells := map[sim.ViolationKind][]DesignCell{}
	complete, depth := true, lockdesign.GradeDepth
	for i, n := range []int{2, 3} {
		res := results[i]
		if !res.Complete() {
			complete = false
			depth = min(depth, res.Depth)
			g.Incomplete = append(g.Incomplete, i18n.Fill(du.Incomplete, strconv.Itoa(n), u.Count(designStateCap), strconv.Itoa(res.Depth)))
		}
		g.Clients = append(g.Clients, i18n.Fill(du.ClientsCol, strconv.Itoa(n)))
		for _, k := range kinds {
			cell := DesignCell{Text: du.NoneFound}
			if f := res.Found[k]; f != nil {
				steps := i18n.Fill(du.StepsOpen, strconv.Itoa(len(f.Shortest)))
				if len(f.Shortest) == 1 {
					steps = du.StepOpen
				}
				cell = DesignCell{Text: steps, URL: links.DesignRun(u.Lang, d, n, f.Shortest)}
			}
			cells[k] = append(cells[k], cell)
		}
	}
	var found []sim.ViolationKind
	for _, k := range kinds {
		row := DesignRow{Row: findings.RowOf(u, k), Cells: cells[k]}
		if row.Found() {
			found = append(found, k)
		}
		g.Rows = append(g.Rows, row)
	}
	g.Verdict = findings.Of(u, found, complete, depth)
	g.shortest = map[sim.ViolationKind]shortestRun{}
	for i, n := range []int{2, 3} {
		for k, f := range results[i].Found {
			if b, ok := g.shortest[k]; !ok || len(f.Shortest) < len(b.Shortest) {
				g.shortest[k] = shortestRun{Shortest: f.Shortest, Clients: n}
			}
		}
	}
	if d.Work >= d.TTL && strings.TrimSpace(d.Extend) == "" {
		g.WorkPastTTL = i18n.Fill(du.WorkPastTTL, sim.FormatDuration(d.Work), sim.FormatDuration(d.TTL))
	}
	return g, nil
}

// effectChoices are the options of "what the write does", cur chosen.
func effectChoices(du *i18n.DesignUI, cur string) []site.Choice {
	var out []site.Choice
	for _, e := range lockdesign.Effects {
		out = append(out, site.Choice{Value: e, Label: du.EffectLabel[e], Checked: e == cur})
	}
	return out
}

// renewChoices are the renewal's choices, cur chosen.
func renewChoices(du *i18n.DesignUI, cur string) []site.Choice {
	var out []site.Choice
	for _, r := range lockdesign.Renewals {
		out = append(out, site.Choice{Value: r, Label: du.RenewLabel[r], Checked: r == cur})
	}
	return out
}

// rowsFor is a textarea's height for a script: its lines and one to type
// in, within 3 to 16.
func rowsFor(src string) int {
	return min(max(strings.Count(src, "\n")+2, 3), 16)
}

// Handler serves the design page and its counterexamples.
type Handler struct {
	*site.Site
	memo *gradeMemo
}

// New builds the design page's handler.
func New(s *site.Site) *Handler { return &Handler{Site: s, memo: newGradeMemo()} }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Parse reads a design from a design page's query (extra names the other
// parameters the page takes): the design, or the 400 its page would show.
// The Lab's fuzz and round-trip tests read links back with it.
func Parse(u *i18n.UI, q url.Values, extra ...string) (*lockdesign.Design, *site.Error) {
	in, e := parseDesign(u, q, extra...)
	return in.D, e
}

// formAnchor is where the design form's answer opens: the grade, or a fix
// challenge's verdict.
func formAnchor(v *DesignView) string {
	if v.Check != "" {
		return "#verdict"
	}
	return "#result-title"
}

// designfix.go plays a fix of a design page's lock (lessons.Challenge's
// Design): the learner edits the challenge's Lua in the page's form, and
// the explorer searches the challenge's bounds on that design's own
// scenario, read through the design page (Designs) as a made design
// challenge's is. The address is the design page's query for the design
// (the design page's own canonical form), so a fix is a link.

package challenge

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/web/i18n"
	"locklab/web/lesson"
	"locklab/web/links"
	"locklab/web/site"
)

// ScriptField is one piece of a design to fix, as the form shows it.
type ScriptField struct {
	Name, Label, Help, Text string
	Rows                    int
}

// designQueryOf is the design's query as the challenge's address holds
// it: the design page's canonical query, or for the design page's default
// design (whose query is empty, and an empty query is the challenge's
// start) its TTL alone.
func designQueryOf(d *lockdesign.Design) string {
	if q := links.DesignQuery(d); q != "" {
		return q
	}
	return "ttl=" + sim.FormatDuration(d.TTL)
}

// designFixView is fixView for a design page's lock: q holds the design
// (the design page's parameters), or nothing for the challenge's start.
func (s *Handler) designFixView(r *http.Request, u *i18n.UI, ch *lessons.Challenge, q url.Values, room *lesson.ChallengeRoom) (*FixView, string, *site.Error) {
	in := s.infoIn(u, ch, room)
	here := in.Play
	if s.designs == nil {
		return nil, "", site.NotFound(u)
	}
	dq := url.Values{}
	for k, vs := range q {
		switch {
		case !slices.Contains(links.DesignKeys, k):
			return nil, "", badRequest(u, i18n.Fill(u.Chal.BadParam, site.Clip(k)), here)
		case len(vs) != 1:
			return nil, "", badRequest(u, i18n.Fill(u.Design.Repeated, site.Clip(k)), here)
		}
		dq[k] = vs
	}
	start, _ := url.ParseQuery(ch.Design)
	if len(dq) == 0 {
		dq = start
	}
	lessonOf := func(q url.Values) (*lessons.Lesson, *lockdesign.Design, string, *site.Error) {
		l, page, e := s.designs.DesignLesson(u, q, ch.Bounds.Clients, here, u.Chal.FixCheck)
		if e != nil {
			e.Recover, e.RecoverText = here, u.Chal.Start
			return nil, nil, "", e
		}
		return l, lockdesign.Of(l.Scenario), page, nil
	}
	l, d, page, e := lessonOf(dq)
	if e != nil {
		return nil, "", e
	}
	startQuery, ok := s.starts.Load(ch.ID)
	if !ok { // the course's start, read once (only course challenges have a Design)
		_, d0, _, e := lessonOf(start)
		if e != nil {
			return nil, "", site.Internal(u, e)
		}
		startQuery = designQueryOf(d0)
		s.starts.Store(ch.ID, startQuery)
	}
	query := designQueryOf(d)
	canon := "?" + query
	if query == startQuery {
		canon = ""
	}
	if r.Method == http.MethodGet && !site.SameQuery("?"+r.URL.RawQuery, canon) && (r.URL.RawQuery != "" || canon != "") {
		return nil, here + canon, nil
	}
	cfg := ch.Config(l.Scenario.DefaultOpts())
	cfg.Scenario = l.Scenario
	res, e := s.searchKept(r, u, ch.ID+"|"+query, cfg)
	if e != nil {
		return nil, "", e
	}
	v := &FixView{Page: s.Frame(u, ch.Title+" — "+u.Chal.Title+" — "+u.SiteName, r), Info: in,
		Checked: canon != "", States: res.States, Depth: res.Depth, DesignPage: page}
	words, _ := url.ParseQuery(query)
	v.Info.Design = lesson.DesignWords(u, words)
	du := u.Design
	for _, p := range sim.Pieces {
		text, help := d.Script(p), du.PieceHelp[p.Name()]
		if r := words.Get("renew"); p == sim.PieceExtend && r != "" {
			// the design's renewal is kept (Keep), not chosen here: say it
			help = i18n.Sentences(help, du.RenewField+u.LabelSep()+du.RenewLabel[r]+u.Language().FullStop())
		}
		v.Scripts = append(v.Scripts, ScriptField{Name: p.Name(), Label: du.PieceLabel[p.Name()], Help: help,
			Text: text, Rows: min(max(strings.Count(text, "\n")+2, 3), 16)})
	}
	for _, k := range []string{"ttl", "work", "effect", "renew"} {
		if val := words.Get(k); val != "" {
			v.Keep = append(v.Keep, [2]string{k, val})
		}
	}
	v.judge(u, res, room, canon, func(as []sim.Action) string { return links.DesignRun(u.Lang, d, ch.Bounds.Clients, as) })
	return v, "", nil
}

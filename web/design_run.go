// design_run.go serves a design's counterexample: the schedule the
// explorer found, replayed as a timeline with the lesson page's picture,
// controls and event log, the learner's scripts in the log and under
// "scripts used". Its controls continue the same design's timeline.
package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/narrate"
	"locklab/web/picture"
)

// DesignRunView is the counterexample page.
type DesignRunView struct {
	Page
	D          *i18n.DesignUI
	Schedule   []string
	Broke      []string
	BackURL    string
	Picture    *picture.Picture
	Violations []string
	Controls   Controls
	Log        EventLog
	Canonical  string
}

// designRunPage serves /{lang}/lab/design/run.
func (s *Server) designRunPage(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	du := u.Design
	if len(r.URL.RawQuery) > designMaxRaw {
		s.fail(w, r, u, designError(u, du.BadLink, designIn{D: sim.DefaultDesign()}))
		return
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		s.fail(w, r, u, designError(u, i18n.Fill(du.BadParam, clip(r.URL.RawQuery)), designIn{D: sim.DefaultDesign()}))
		return
	}
	in, e := parseDesign(u, q, "clients", "do")
	if e != nil {
		s.fail(w, r, u, e)
		return
	}
	back := designPath(u.Lang, in.D)
	n, err := strconv.Atoi(q.Get("clients"))
	if err != nil || n < 2 || n > 3 {
		s.fail(w, r, u, designError(u, du.BadClients, in))
		return
	}
	actions, err := sim.ParseActions(q.Get("do"))
	if err != nil {
		s.fail(w, r, u, badState(u, err, back, nil))
		return
	}
	if want := runPath(u.Lang, in.D, n, actions); r.URL.Path+"?"+r.URL.RawQuery != want {
		http.Redirect(w, r, want, http.StatusSeeOther)
		return
	}
	s.serveCached(w, r, u, true, func() ([]byte, string, bool, *Error) {
		sc, err := in.D.ScenarioFor(n)
		if err != nil {
			return nil, "", false, designError(u, designErrorText(u, err), in)
		}
		ctx, cancel := context.WithTimeout(r.Context(), ReplayDeadline)
		defer cancel()
		select {
		case s.replays <- struct{}{}:
			defer func() { <-s.replays }()
		case <-ctx.Done():
			return nil, "", false, busy(u)
		}
		st := State{Actions: actions, Opts: sc.DefaultOpts(), sc: sc}
		tl, err := s.replay(ctx, sc, st.Opts, actions)
		if err != nil {
			e := badState(u, err, back, nil)
			if e.Recover == back {
				e.RecoverText = du.BackToGrade
			}
			return nil, "", false, e
		}
		v := s.designRunView(r, u, in.D, n, st, tl)
		body, typ, e := s.renderBytes(r, u, DesignRunPage(v))
		return body, typ, true, e
	})
}

// designRunView builds the counterexample page.
func (s *Server) designRunView(r *http.Request, u *i18n.UI, d *sim.Design, n int, st State, tl *sim.Timeline) *DesignRunView {
	du := u.Design
	v := &DesignRunView{Page: s.page(u, du.RunTitle+" — "+du.Title+" — "+u.SiteName, r), D: du,
		BackURL: designPath(u.Lang, d), Canonical: runPath(u.Lang, d, n, st.Actions)}
	for _, a := range tl.Actions {
		v.Schedule = append(v.Schedule, narrate.Action(u, a))
	}
	for _, x := range tl.Violations {
		text := i18n.Fill(u.CounterWhen, sim.FormatMS(x.At), itoa(int64(x.Step+1)), narrate.ViolationText(u, x))
		v.Broke = append(v.Broke, text)
		v.Violations = append(v.Violations, sim.FormatMS(x.At)+" — "+narrate.ViolationText(u, x))
	}
	from := picture.FirstNew(tl)
	v.Picture = picture.Layout(tl, u, from)
	v.Picture.Describe(tl, u, from)
	base := "/" + u.Lang + "/lab/design/run"
	c := controls(u, base, st, tl)
	// The controls' links are base + "?do=…": put the design and the
	// clients in front of the timeline's own query.
	fix := func(link string) string {
		rest := strings.TrimPrefix(strings.TrimPrefix(link, base), "?")
		return withQuery(base, designQuery(d), "clients="+strconv.Itoa(n), rest)
	}
	for i := range c.Clients {
		for j := range c.Clients[i].Actions {
			c.Clients[i].Actions[j].URL = fix(c.Clients[i].Actions[j].URL)
		}
	}
	for i := range c.Waits {
		c.Waits[i].URL = fix(c.Waits[i].URL)
	}
	v.Controls = c
	v.Log = eventLog(u, tl)
	return v
}

// embed.go draws a timeline for another site's iframe: a lesson step, a
// free timeline or a Lab counterexample at /{lang}/embed/lessons/{slug}
// (the page's state grammar; web/middleware's Frameable lets it be
// framed and reads theme=), and the embed view other features (a design
// run, a challenge) fill with their own moment.

package lesson

import (
	"net/http"
	"strings"

	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/narrate"
	"locklab/web/picture"
	"locklab/web/site"
)

// EmbedView is a moment drawn for an iframe (site.EmbedLayout): what it
// is and where it comes from, its picture, what went wrong, the controls
// (their links stay in the frame), the event log folded, and the same
// moment on the site.
type EmbedView struct {
	site.Page
	Live             string // announced after a swap
	Heading, Context string
	// Note is a line under the heading (a challenge's progress), if any.
	Note string
	// Open is the page this embed shows, absolute: it opens in a new tab.
	Open  string
	Stage StageProps // its Picture, Violations, Controls and Log are drawn
	// Clean: the timeline shows no failure (the embed says so in words).
	Clean bool
}

// Embed serves /{lang}/embed/lessons/{slug}: the lesson page's moment
// inside another site's page.
func (s *Handler) Embed(w http.ResponseWriter, r *http.Request) {
	rq := RequestOf(r)
	theme := site.ThemeOf(r)
	if rq.Err == nil {
		rq.Nav = site.EmbedPath(rq.Base())
	}
	if s.canonicalize(w, r, rq) {
		return
	}
	s.Cached(w, r, rq.UI, func() ([]byte, string, *site.Error) {
		v, e := s.View(r, rq)
		if e != nil {
			return nil, "", e
		}
		c := rq.Caption(v.Timeline, "")
		ev := NewEmbedView(v.Page, v.Timeline, c, v.Stage, s.Absolute(r, rq.Base()+rq.Canon), theme)
		ev.Title = c.Title + " — " + c.Source + " — " + rq.UI.SiteName
		ev.Live = v.Live
		if r.Header.Get("HX-Request") == "true" {
			return s.RenderBytes(r, rq.UI, EmbedFragment(ev))
		}
		return s.RenderBytes(r, rq.UI, EmbedPage(ev))
	})
}

// NewEmbedView frames stage's moment for an iframe: c's title and
// source head it, open is the site's page of the same moment, and every
// control keeps the embed's theme.
func NewEmbedView(p site.Page, tl *sim.Timeline, c picture.Caption, stage StageProps, open, theme string) *EmbedView {
	v := &EmbedView{Page: p, Heading: c.Title, Context: c.Source, Open: open, Stage: stage, Clean: len(tl.Violations) == 0}
	v.Stage.Controls.Map(func(link string) string { return site.WithThemeParam(link, theme) })
	v.Stage.Controls.Embed = true
	v.Stage.Controls.CLI.Base = "" // the command line's editor and keys are the site's
	return v
}

// Map rewrites the address of every control (a feature that serves the
// same timeline under another path, or keeps a parameter on its links).
func (c *Controls) Map(f func(string) string) {
	for _, group := range [][]ClientControls{c.Clients, c.Nodes} {
		for i := range group {
			for j := range group[i].Actions {
				group[i].Actions[j].URL = f(group[i].Actions[j].URL)
			}
		}
	}
	for i := range c.Waits {
		c.Waits[i].URL = f(c.Waits[i].URL)
	}
}

// CardText is how a link to a moment unfurls: what went wrong on it, in
// words, or that nothing did.
func CardText(u *i18n.UI, tl *sim.Timeline, source string) string {
	if len(tl.Violations) == 0 {
		return source + " — " + u.Embed.Clean
	}
	var lines []string
	for _, x := range tl.Violations {
		lines = append(lines, "⚠ "+sim.FormatMS(x.At)+" — "+narrate.ViolationText(u, x))
	}
	return source + " — " + strings.Join(lines, " ")
}

// embed.go draws a timeline for another site's iframe: a lesson step, a
// free timeline or a Lab counterexample at /{lang}/embed/lessons/{slug}
// (the page's state grammar; web/middleware's Frameable lets it be
// framed and reads theme=), and the embed view other features (a design
// run, a challenge) fill with their own moment.

package lesson

import (
	"net/http"
	"net/url"

	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/web/i18n"
	"locklab/web/links"
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
	// Did is what the last action did, in words.
	Did string
	// Open is the page this embed shows, absolute: it opens in a new tab.
	Open  string
	Stage StageProps // its Picture, Violations, Controls and Log are drawn
	// Clean: the timeline shows no failure (the embed says so in words).
	Clean bool
	// Undo is the state one action back, in the frame ("": none): a
	// reader who clicked on can step back to the moment that was shared.
	Undo string
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
		ev := NewEmbedView(v.Page, v.Timeline, rq.Caption(v.Timeline, ""), v.Stage, s.Absolute(r, rq.Base()+rq.Canon), v.Dialog.Nav.UndoURL, theme)
		ev.Live = v.Live
		if r.Header.Get("HX-Request") == "true" {
			return s.RenderBytes(r, rq.UI, EmbedFragment(ev))
		}
		return s.RenderBytes(r, rq.UI, EmbedPage(ev))
	})
}

// NewEmbedView frames stage's moment for an iframe: c's title and
// source head it and name the page, open is the site's page of the same
// moment, and undo the state one action back ("": none). Every control
// and the undo become the same feature's embed links (site.InEmbed),
// keeping the embed's theme.
func NewEmbedView(p site.Page, tl *sim.Timeline, c picture.Caption, stage StageProps, open, undo, theme string) *EmbedView {
	v := &EmbedView{Page: p, Heading: c.Title, Context: c.Source, Open: open, Stage: stage, Clean: len(tl.Violations) == 0,
		Did: stage.Picture.Step}
	v.Title = c.Name() + " — " + p.UI.SiteName
	inEmbed := func(link string) string { return site.InEmbed(link, theme) }
	if undo != "" {
		v.Undo = inEmbed(undo)
	}
	v.Stage.Controls.Map(inEmbed)
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

// CardText is how a link to a moment unfurls: where it comes from, what
// went wrong, in the order it happened as the page numbers it (readers in
// all three languages took a card that put the worst first for time
// running backwards), then what its last action did; or what it did and
// that nothing went wrong. What went wrong comes first because a chat
// shows a card's first 200 or 300 characters (a reader found the first
// ⚠ at character 301 to 407 behind the last action's events).
func CardText(u *i18n.UI, tl *sim.Timeline, source, did string) string {
	text := source + " —"
	if len(tl.Violations) == 0 {
		text += " " + did
		return text + i18n.Gap(text) + u.Embed.Clean
	}
	for _, x := range tl.Violations {
		text += " ⚠ " + sim.FormatMS(x.At) + " — " + narrate.ViolationText(u, x)
	}
	return text + i18n.Gap(text) + did
}

// OptionWords are a lesson design's choices in u's words ("Release:
// plain DEL"): each option the lesson offers with the value chosen, or,
// with from, only those that differ from it (what makes a variant one).
func OptionWords(u *i18n.UI, sc *sim.Scenario, opts, from sim.Opts) []string {
	var out []string
	for _, g := range OptionGroups(u, sc, opts) {
		for _, c := range g.Choices {
			if c.Checked && (from == nil || from[g.Name] != c.Value) {
				out = append(out, g.Label+u.LabelSep()+c.Label)
			}
		}
	}
	return out
}

// isLibrary reports whether v names a library's preset of the piece
// named k.
func isLibrary(k, v string) bool {
	p, ok := sim.PieceNamed(k)
	return ok && lockdesign.IsLibraryPresetName(p, v)
}

// DesignWords are a design page's design (its query, q) in u's words:
// each piece not at the page's default, a preset by its name or "your own
// script", what a failed extend does, and the times.
func DesignWords(u *i18n.UI, q url.Values) []string {
	du := u.Design
	var out []string
	for _, k := range links.DesignKeys {
		v := q.Get(k)
		switch {
		case v == "" || k == "effect":
		case k == "ttl":
			out = append(out, du.TTLLabel+u.LabelSep()+v)
		case k == "work":
			out = append(out, du.WorkLabel+u.LabelSep()+v)
		case k == "renew":
			if l := du.RenewLabel[v]; l != "" {
				out = append(out, du.RenewField+u.LabelSep()+l)
			}
		case links.PresetName(v) && isLibrary(k, v):
			out = append(out, du.PieceLabel[k]+u.LabelSep()+v) // named after its library, in no language
		case links.PresetName(v) && du.PresetLabel[k+"."+v] != "":
			out = append(out, du.PieceLabel[k]+u.LabelSep()+du.PresetLabel[k+"."+v])
		default:
			out = append(out, du.PieceLabel[k]+u.LabelSep()+du.Own)
		}
	}
	return out
}

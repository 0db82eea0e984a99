// Package libraries holds the page that grades the lock libraries
// engineers use (sim/lockdesign.Libraries: each library's acquire and
// release as a design, held to the library's model): one table, library
// by kind of fault, every cell a complete search by the explorer with its
// shortest schedule a link, and under it what each library does, what
// the designs leave out and what is not graded yet. The table is
// computed once per process, the first time it is asked for: it depends
// on nothing but the code.
package libraries

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"sync"

	"github.com/go-chi/chi/v5"

	"locklab/sim"
	"locklab/sim/explore"
	"locklab/sim/lockdesign"
	"locklab/web/findings"
	"locklab/web/i18n"
	"locklab/web/links"
	"locklab/web/site"
)

// Clients is how many clients each search runs.
const Clients = 2

// Fault is a column: the one kind of fault its searches may use.
type Fault int

// The columns, in order. LongJob is no fault: the job takes one and a
// half times the lock's TTL (the study's "critical section runs past the
// TTL with no pause").
const (
	NoFault Fault = iota
	LongJob
	Pause
	Crash
	Drop
)

// Faults lists the columns.
var Faults = []Fault{NoFault, LongJob, Pause, Crash, Drop}

// Design is library l's design as column f runs it: a long job works for
// one and a half TTLs, every other column for the design's default work.
func (f Fault) Design(l lockdesign.LibraryDesign) *lockdesign.Design {
	d := l.Design()
	if f == LongJob {
		d.Work = d.TTL * 3 / 2
	}
	return d
}

// Config is the search of library design d under fault f: the design's
// grade (lockdesign.GradeConfig) with only that fault's budget.
func Config(d *lockdesign.Design, f Fault) (explore.Config, error) {
	cfg, err := lockdesign.GradeConfig(d, Clients, explore.MaxStates)
	if err != nil {
		return cfg, err
	}
	cfg.Pauses, cfg.Crashes, cfg.Drops = 0, 0, 0
	switch f {
	case Pause:
		cfg.Pauses = 1
	case Crash:
		cfg.Crashes = 1
	case Drop:
		cfg.Drops = 1
	}
	return cfg, nil
}

// Cell is what one search found: the headline kind and its shortest
// schedule (explore.ShortestOf), whether it harms or breaks, and how far
// the search is complete.
type Cell struct {
	Kind     sim.ViolationKind
	Shortest []sim.Action
	Complete bool
	Depth    int
}

// Row is one library's searches, a cell per fault.
type Row struct {
	Lib   lockdesign.LibraryDesign
	Cells []Cell
}

// Table runs every search (once per process; about a second of CPU).
var Table = sync.OnceValues(func() ([]Row, error) {
	var rows []Row
	for _, ld := range lockdesign.Libraries {
		row := Row{Lib: ld}
		for _, f := range Faults {
			cfg, err := Config(f.Design(ld), f)
			if err != nil {
				return nil, err
			}
			res, err := explore.Run(context.Background(), cfg)
			if err != nil {
				return nil, err
			}
			c := Cell{Complete: res.Complete(), Depth: res.Depth}
			c.Kind, c.Shortest = res.ShortestKind, res.Shortest
			row.Cells = append(row.Cells, c)
		}
		rows = append(rows, row)
	}
	return rows, nil
})

// View is what the page's template needs.
type View struct {
	site.Page
	L       *i18n.LibsUI
	Columns []string
	Rows    []RowView
}

// RowView is a row as the page shows it.
type RowView struct {
	ID, Name, Expiry, Note, Model string
	Design, Fenced                string // the design page, as it is and with a fenced write
	Cells                         []CellView
	// Challenges are the course's fixes of this library's lock: "Challenge
	// 5.8: title" and the address.
	Challenges []site.Choice
}

// CellView is a cell as the page shows it: a ✓, or the headline kind with
// its length, a link to its timeline; Harm marks a failing kind.
type CellView struct {
	Column, Text, URL string
	Harm              bool
}

// Page serves /{lang}/libraries.
func (s *Handler) Page(w http.ResponseWriter, r *http.Request) {
	u := i18n.For(chi.URLParam(r, "lang"))
	rows, err := Table()
	if err != nil {
		s.Fail(w, r, u, site.Internal(u, err))
		return
	}
	v := view(s.Frame(u, u.Libs.Title+" — "+u.SiteName, r), u, rows)
	for i, row := range rows {
		for _, ch := range s.Course.Challenges(u.Lang) {
			if q, err := url.ParseQuery(ch.Design); err == nil && ch.Design != "" && q.Get("acquire") == row.Lib.Acquire && q.Get("extend") == row.Lib.Extend {
				num := i18n.Fill(u.Chal.Num, strconv.Itoa(ch.Lesson.Order), strconv.Itoa(ch.Num))
				v.Rows[i].Challenges = append(v.Rows[i].Challenges, site.Choice{Label: num + u.LabelSep() + ch.Title, Value: links.Challenge(u.Lang, ch.ID)})
			}
		}
	}
	s.Render(w, r, LibrariesPage(v))
}

// view lays the table out in u's words.
func view(page site.Page, u *i18n.UI, rows []Row) *View {
	l := u.Libs
	v := &View{Page: page, L: l, Columns: []string{l.ColNone, l.ColLong, l.ColPause, l.ColCrash, l.ColDrop}}
	for _, row := range rows {
		ld := row.Lib
		d := ld.Design()
		fenced := *d
		if pr, ok := lockdesign.PresetNamed(sim.PieceWrite, d.Effect, "fenced"); ok {
			fenced.SetScript(sim.PieceWrite, pr.Script)
		}
		rv := RowView{ID: ld.Key(), Name: ld.Name(), Note: l.Notes[ld.Key()],
			Model:  i18n.Fill(l.Model, ld.Lib.Module, ld.Lib.Version),
			Design: links.Design(u.Lang, d), Fenced: links.Design(u.Lang, &fenced)}
		rv.Expiry = i18n.Fill(l.Expiry, sim.FormatDuration(ld.TTL))
		if ld.Lib.NoTTL {
			rv.Expiry = l.NoExpiry
		}
		for i, c := range row.Cells {
			cv := CellView{Column: v.Columns[i]}
			switch {
			case !c.Complete:
				cv.Text = i18n.Fill(u.Verdict.Unknown, strconv.Itoa(c.Depth))
			case c.Shortest == nil && ld.Lib.NoTTL && Faults[i] == Pause:
				cv.Text = l.NoPause // no pause was tried: nothing to outlast
			case c.Shortest == nil:
				cv.Text = l.Nothing
			default:
				name := u.Failures[c.Kind].Name + " (" + findings.Steps(u, len(c.Shortest)) + ")"
				cv.Harm = sim.ClassOf(c.Kind) != sim.ClassAllowed
				cv.Text = "✗ " + name
				if !cv.Harm {
					cv.Text = i18n.Fill(l.AllowedOnly, name)
				}
				cv.URL = links.DesignRun(u.Lang, Faults[i].Design(ld), Clients, c.Shortest)
			}
			rv.Cells = append(rv.Cells, cv)
		}
		v.Rows = append(v.Rows, rv)
	}
	return v
}

// Handler serves the page.
type Handler struct{ *site.Site }

// New builds the page's handler.
func New(s *site.Site) *Handler { return &Handler{Site: s} }

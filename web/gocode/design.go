// design.go writes a learner's design out as a Go program with
// go-redis, like the Lab's code (lab.go): the learner's scripts, each
// part one EVAL in the order the simulated clients send them, the same
// keys, TTL, work time and retry, comments in the page's language.
//
// Unlike the Lab's program, which is put together from a piece per
// choice the learner made, this one is always the same program around
// the learner's scripts, so it is written as a template
// (design.go.tmpl) that reads like the file it writes.

package gocode

import (
	_ "embed"
	"go/format"
	"strconv"
	"strings"
	"text/template"

	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/web/i18n"
)

//go:embed design.go.tmpl
var designText string

// designTemplate is design.go.tmpl, parsed once at start-up so that a
// mistake in it stops the program at once rather than blank a page. Its
// say is a placeholder: each Design binds the page's language to a clone.
var designTemplate = template.Must(template.New("design.go.tmpl").Funcs(template.FuncMap{
	"say":        func(en string, args ...string) string { return en },
	"quote":      strconv.Quote,
	"goDuration": goDuration,
	"goString":   goString,
}).Parse(designText))

// goString is a Go literal of a script: a raw string unless the script
// holds a backquote (or a character a raw string cannot carry).
func goString(s string) string {
	if !strings.ContainsAny(s, "`\r\x00") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// designProgram is what design.go.tmpl fills in: the scenario's keys and
// times (ms), and the learner's scripts cut into their parts.
type designProgram struct {
	LockKey, FenceKey, DataKey, TokenKey string
	TTL, Work, Retry                     int64
	// Adds: the write adds Amount to a total rather than store a value,
	// so the program declares the amount and the write sends it.
	Adds     bool
	Amount   int
	WriteArg string // the write's ARGV[2], as Go
	CarryOn  bool   // a failed extend ends the renewal, not the work
	Scripts  []designScript
}

// designScript is one piece's variable: its parts, one EVAL each, or
// none for a piece the design leaves out (only extend may be).
type designScript struct {
	Name  string
	Parts []string
}

// Design is the design as one Go file of package lock.
func Design(d *lockdesign.Design, lang string) string {
	sc, err := d.Scenario()
	if err != nil {
		return ""
	}
	p := designProgram{
		LockKey: sc.LockKey(), FenceKey: sc.FenceKey(), DataKey: sc.DataKey(), TokenKey: sc.TokenKey(),
		TTL: d.TTL, Work: d.Work, Retry: sc.Retry,
		Adds: d.Effect == lockdesign.EffectAdd, Amount: sim.AddAmount, WriteArg: `"written by " + who`,
		CarryOn: d.Renew == lockdesign.RenewCarry && d.Extend != "",
	}
	if p.Adds {
		p.WriteArg = "amount"
	}
	for _, s := range []struct {
		name  string
		piece sim.Piece
	}{{"acquireParts", sim.PieceAcquire}, {"releaseParts", sim.PieceRelease}, {"extendParts", sim.PieceExtend}, {"writeParts", sim.PieceWrite}} {
		ds := designScript{Name: s.name}
		if src := d.Script(s.piece); src != "" {
			ds.Parts = sim.Parts(src)
		}
		p.Scripts = append(p.Scripts, ds)
	}
	c := &codeWriter{u: i18n.For(lang)}
	t := template.Must(designTemplate.Clone()).Funcs(template.FuncMap{"say": c.say})
	var b strings.Builder
	if err := t.Execute(&b, p); err != nil {
		return "" // the template is fixed: TestDesignCode fails on this
	}
	// gofmt it, as a Go programmer would see it, like the Lab's code.
	if out, err := format.Source([]byte(b.String())); err == nil {
		return string(out)
	}
	return b.String()
}

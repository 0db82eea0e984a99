// commands.go holds the allow-list of Redis commands a script may call and
// the form of each one's arguments: the table the checker reads, so a new
// command is one entry here.

package luacheck

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yuin/gopher-lua/ast"
)

// Form is a command's argument shape: the fixed slots ("k" a key, "v" a
// value), whether the last slot repeats, and the options that may follow
// (each a string literal, with how many values it takes).
type Form struct {
	slots   string
	repeat  bool
	options map[string]int
	integer bool // the reply is an integer (bounded when concatenated)
}

// Commands is the allow-list. Everything touching the server, other keys
// or other databases (FLUSHALL, KEYS, SCAN, EVAL, SCRIPT, DEBUG, CONFIG,
// RENAME, COPY, MOVE, SELECT…) is out; so is everything that grows a value
// in place (APPEND, SETRANGE) and absolute expiry times (PEXPIREAT: the
// simulator's clock is virtual).
var Commands = map[string]Form{
	"GET":     {slots: "k"},
	"SET":     {slots: "kv", options: map[string]int{"NX": 0, "XX": 0, "GET": 0, "KEEPTTL": 0, "EX": 1, "PX": 1}},
	"SETNX":   {slots: "kv", integer: true},
	"GETDEL":  {slots: "k"},
	"DEL":     {slots: "k", repeat: true, integer: true},
	"EXISTS":  {slots: "k", repeat: true, integer: true},
	"EXPIRE":  {slots: "kv", integer: true},
	"PEXPIRE": {slots: "kv", integer: true},
	"TTL":     {slots: "k", integer: true},
	"PTTL":    {slots: "k", integer: true},
	"PERSIST": {slots: "k", integer: true},
	"INCR":    {slots: "k", integer: true},
	"DECR":    {slots: "k", integer: true},
	"INCRBY":  {slots: "kv", integer: true},
	"DELEX":   {slots: "k", options: map[string]int{"IFEQ": 1, "IFNE": 1}, integer: true},
	"RPUSH":   {slots: "kv", repeat: true, integer: true},
}

// redisCall checks redis.call(name, …) / redis.pcall(name, …).
func (c *checker) redisCall(x *ast.FuncCallExpr, depth int) (val, *Error) {
	line := x.Line()
	if len(x.Args) == 0 {
		return val{}, c.fail(line, CodeCommandName, "", "redis")
	}
	nameExpr, ok := x.Args[0].(*ast.StringExpr)
	if !ok {
		if _, err := c.expr(x.Args[0], depth+1); err != nil {
			return val{}, err
		}
		return val{}, c.fail(x.Args[0].Line(), CodeCommandName, "", "redis")
	}
	name := strings.ToUpper(nameExpr.Value)
	f, ok := Commands[name]
	if !ok {
		return val{}, c.fail(nameExpr.Line(), CodeCommand, commandText(nameExpr.Value), nameExpr.Value)
	}
	args := x.Args[1:]
	pcall := x.Func.(*ast.AttrGetExpr).Key.(*ast.StringExpr).Value == "pcall"
	bad := func(at ast.Expr) *Error {
		if at == nil {
			return c.fail(line, CodeArgs, name, "redis")
		}
		return c.fail(at.Line(), CodeArgs, name, firstToken(at))
	}
	i := 0
	slot := func(kind byte) *Error {
		if i >= len(args) {
			return bad(nil)
		}
		a := args[i]
		i++
		if kind == 'k' {
			return c.key(a, name, depth)
		}
		v, err := c.expr(a, depth+1)
		if err == nil && pcall && v.ty()&^tScalar != 0 {
			err = c.fail(a.Line(), CodePcallArg, name, firstToken(a))
		}
		return err
	}
	for j := 0; j < len(f.slots); j++ {
		if err := slot(f.slots[j]); err != nil {
			return val{}, err
		}
	}
	if f.repeat {
		for i < len(args) {
			if err := slot(f.slots[len(f.slots)-1]); err != nil {
				return val{}, err
			}
		}
	}
	seen := map[string]bool{}
	for i < len(args) {
		a := args[i]
		opt, ok := a.(*ast.StringExpr)
		if !ok {
			if _, err := c.expr(a, depth+1); err != nil {
				return val{}, err
			}
			return val{}, bad(a)
		}
		o := strings.ToUpper(opt.Value)
		n, ok := f.options[o]
		if !ok || seen[o] {
			return val{}, c.fail(opt.Line(), CodeArgs, name, opt.Value)
		}
		seen[o] = true
		i++
		for ; n > 0; n-- {
			if err := slot('v'); err != nil {
				return val{}, err
			}
		}
	}
	if f.integer && !pcall { // pcall answers an error as a table
		return numberVal, nil
	}
	return val{size: unbounded}, nil
}

// key checks a key position: KEYS[n] of the kind, or a local that holds
// one and is never assigned.
func (c *checker) key(a ast.Expr, cmd string, depth int) *Error {
	if id, ok := a.(*ast.IdentExpr); ok {
		if l := c.lookup(id.Value); l != nil && l.key > 0 {
			return nil
		}
	}
	if at, ok := a.(*ast.AttrGetExpr); ok {
		if id, ok := at.Object.(*ast.IdentExpr); ok && id.Value == "KEYS" && c.lookup("KEYS") == nil {
			_, err := c.attr(at) // KEYS[n] of the kind, or an index error
			return err
		}
	}
	// Anything else: refuse it as a key, after refusing what is wrong
	// inside it (a global, a loop…), which says more.
	if _, err := c.expr(a, depth+1); err != nil {
		return err
	}
	want := firstToken(a)
	if s, ok := a.(*ast.StringExpr); ok {
		want = s.Value
	}
	return c.fail(a.Line(), CodeKey, cmd, want)
}

// commandText keeps a refused command name short and printable.
func commandText(s string) string {
	return strings.ToUpper(shorten(s, 24))
}

// shorten cuts s to at most n bytes on a character boundary, marking the cut.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// Slots is the form's fixed argument slots: "k" a key, "v" a value.
func (f Form) Slots() string { return f.slots }

// Repeats says the last slot may repeat.
func (f Form) Repeats() bool { return f.repeat }

// Options lists the form's options, sorted.
func (f Form) Options() []string {
	var out []string
	for o := range f.options {
		out = append(out, o)
	}
	slices.Sort(out)
	return out
}

// OptionArgs is how many values option o takes.
func (f Form) OptionArgs(o string) int { return f.options[o] }

package luacheck_test

import (
	"sort"
	"strconv"
	"strings"

	"locklab/sim/luacheck"
)

// gen writes a script of the accepted subset, steered by a fuzzer's bytes:
// FuzzCheck checks that each one is accepted (unless it breaks one of the
// size rules, which the generator does not track) and then runs it.
type gen struct {
	b      []byte
	k      luacheck.Kind
	locals []string // declared, in scope
	keys   map[string]bool
	out    strings.Builder
	n      int
	// intOnly leaves out / % ^ and fractions: gopher-lua and Lua 5.1 print
	// non-integers (and NaN, inf) differently, a known difference.
	intOnly bool
}

func (g *gen) next(n int) int {
	if n <= 1 {
		return 0
	}
	if len(g.b) == 0 {
		return 0
	}
	v := int(g.b[0])
	g.b = g.b[1:]
	return v % n
}

var genCommands = func() []string {
	var names []string
	for name := range luacheck.Commands {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}()

func (g *gen) key() string {
	if len(g.keys) > 0 && g.next(3) == 0 {
		for _, l := range g.locals {
			if g.keys[l] {
				return l
			}
		}
	}
	return "KEYS[" + strconv.Itoa(1+g.next(g.k.Keys())) + "]"
}

func (g *gen) call(depth int) string {
	name := genCommands[g.next(len(genCommands))]
	f := luacheck.Commands[name]
	fn := "redis.call"
	if g.next(4) == 0 {
		fn = "redis.pcall"
	}
	if g.next(2) == 0 {
		name = strings.ToLower(name)
	}
	args := []string{"'" + name + "'"}
	slots := f.Slots()
	if f.Repeats() {
		for range g.next(3) {
			slots += slots[len(slots)-1:]
		}
	}
	value := g.expr
	if fn == "redis.pcall" {
		value = g.scalar // see CodePcallArg
	}
	for _, s := range slots {
		if s == 'k' {
			args = append(args, g.key())
		} else {
			args = append(args, value(depth+1))
		}
	}
	opts := f.Options()
	if len(opts) > 0 && g.next(2) == 0 {
		o := opts[g.next(len(opts))]
		args = append(args, "'"+o+"'")
		for range f.OptionArgs(o) {
			args = append(args, value(depth+1))
		}
	}
	return fn + "(" + strings.Join(args, ", ") + ")"
}

func (g *gen) expr(depth int) string {
	if depth > 4 {
		return g.leaf()
	}
	switch g.next(12) {
	case 0, 1:
		return g.leaf()
	case 2:
		return g.call(depth)
	case 3:
		return "tonumber(" + g.expr(depth+1) + ")"
	case 4:
		return "tostring(" + g.expr(depth+1) + ")"
	case 5:
		ops := []string{"==", "~=", "<", "<=", ">", ">="}
		return "(" + g.expr(depth+1) + " " + ops[g.next(len(ops))] + " " + g.expr(depth+1) + ")"
	case 6:
		ops := []string{"+", "-", "*", "/", "%", "^"}
		if g.intOnly {
			ops = ops[:3]
		}
		return "(" + g.expr(depth+1) + " " + ops[g.next(len(ops))] + " " + g.expr(depth+1) + ")"
	case 7:
		return "(" + g.expr(depth+1) + " .. " + g.expr(depth+1) + ")"
	case 8:
		ops := []string{"and", "or"}
		return "(" + g.expr(depth+1) + " " + ops[g.next(2)] + " " + g.expr(depth+1) + ")"
	case 9:
		ops := []string{"not ", "- ", "#"} // "- ": two minuses would start a comment
		return ops[g.next(3)] + g.expr(depth+1)
	}
	return g.leaf()
}

// scalar is an expression that is a string or a number for sure.
func (g *gen) scalar(depth int) string {
	switch g.next(4) {
	case 0:
		return "ARGV[" + strconv.Itoa(1+g.next(g.k.Args())) + "]"
	case 1:
		return strconv.Itoa(g.next(1000))
	case 2:
		return "'" + strings.Repeat("y", g.next(10)) + "'"
	}
	return "tostring(" + g.expr(depth+1) + ")"
}

func (g *gen) leaf() string {
	switch g.next(8) {
	case 0:
		return strconv.Itoa(g.next(256) - 5)
	case 1:
		return "'" + strings.Repeat("x", g.next(40)) + "'"
	case 2:
		return "ARGV[" + strconv.Itoa(1+g.next(g.k.Args())) + "]"
	case 3:
		return "KEYS[" + strconv.Itoa(1+g.next(g.k.Keys())) + "]"
	case 4:
		if g.intOnly {
			return []string{"nil", "true", "false", "1500"}[g.next(4)]
		}
		return []string{"nil", "true", "false", "1.5e3"}[g.next(4)]
	}
	if len(g.locals) > 0 {
		return g.locals[g.next(len(g.locals))]
	}
	return "0"
}

func (g *gen) stmts(depth int, indent string) {
	scope := len(g.locals)
	for range 1 + g.next(5) {
		g.out.WriteString(indent)
		switch g.next(6) {
		case 0, 1:
			g.n++
			name := "v" + strconv.Itoa(g.n)
			if g.next(4) == 0 {
				g.out.WriteString("local " + name + " = KEYS[" + strconv.Itoa(1+g.next(g.k.Keys())) + "]\n")
				g.keys[name] = true
			} else {
				e := g.expr(0)
				g.out.WriteString("local " + name + " = " + e + "\n")
				// A local that starts as KEYS[n] or as another key local
				// holds a key: the checker refuses assigning it.
				if g.keys[e] || strings.HasPrefix(e, "KEYS[") && strings.Count(e, "[") == 1 && strings.HasSuffix(e, "]") {
					g.keys[name] = true
				}
			}
			g.locals = append(g.locals, name)
		case 2:
			var plain []string
			for _, l := range g.locals {
				if !g.keys[l] {
					plain = append(plain, l)
				}
			}
			if len(plain) == 0 {
				g.out.WriteString(g.call(0) + "\n")
				continue
			}
			g.out.WriteString(plain[g.next(len(plain))] + " = " + g.expr(0) + "\n")
		case 3:
			if depth > 2 {
				g.out.WriteString(g.call(0) + "\n")
				continue
			}
			g.out.WriteString("if " + g.expr(0) + " then\n")
			g.stmts(depth+1, indent+"  ")
			if g.next(2) == 0 {
				g.out.WriteString(indent + "elseif " + g.expr(0) + " then\n")
				g.stmts(depth+1, indent+"  ")
			}
			if g.next(2) == 0 {
				g.out.WriteString(indent + "else\n")
				g.stmts(depth+1, indent+"  ")
			}
			g.out.WriteString(indent + "end\n")
		default:
			g.out.WriteString(g.call(0) + "\n")
		}
	}
	for _, l := range g.locals[scope:] {
		delete(g.keys, l)
	}
	g.locals = g.locals[:scope]
	if depth == 0 {
		g.out.WriteString("return " + g.expr(0) + "\n")
	}
}

// generate turns fuzz bytes into a script of the subset.
func generate(b []byte, k luacheck.Kind) string { return generateOpt(b, k, false) }

func generateOpt(b []byte, k luacheck.Kind, intOnly bool) string {
	g := &gen{b: b, k: k, keys: map[string]bool{}, intOnly: intOnly}
	g.stmts(0, "")
	return g.out.String()
}

// sizeRules are the refusals a generated script may meet: the generator
// writes the subset but does not track lengths.
var sizeRules = map[string]bool{luacheck.CodeTooLong: true, luacheck.CodeConcatBomb: true,
	luacheck.CodeConcatRedis: true, luacheck.CodeDepth: true}

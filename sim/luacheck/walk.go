// walk.go holds the walk over the syntax tree: scopes of locals, the rules
// for every statement and expression, and the size bound of values.

package luacheck

import (
	"strconv"
	"strings"

	"github.com/yuin/gopher-lua/ast"
)

// unbounded marks a value whose length the checker cannot bound: a string
// read from Redis.
const unbounded = -1

// val is what the checker knows about an expression's value.
type val struct {
	size  int   // an upper bound of its length as a string, or unbounded
	key   int   // > 0: it is KEYS[key] (a key position accepts it)
	types uint8 // the Lua types it may have (t* bits); 0 means any
}

// Lua types a value may have. redis.pcall's arguments must be strings or
// numbers for sure: given anything else miniredis raises an error where
// Redis returns an error table and goes on, so the two would disagree.
const (
	tNil uint8 = 1 << iota
	tFalse
	tTrue
	tString
	tNumber
	tTable
	tAny    = tNil | tFalse | tTrue | tString | tNumber | tTable
	falsy   = tNil | tFalse
	truthy  = tAny &^ falsy
	tScalar = tString | tNumber
)

// ty is the set of types v may have.
func (v val) ty() uint8 {
	if v.types == 0 {
		return tAny
	}
	return v.types
}

var (
	nilVal    = val{size: 3, types: tNil}
	boolVal   = val{size: 5, types: tTrue | tFalse}
	numberVal = val{size: numberBytes, types: tNumber}
)

// local is one declared local variable.
type local struct {
	val
	assigned bool
}

type checker struct {
	src    *source
	kind   Kind
	scopes []map[string]*local
}

func (c *checker) push() { c.scopes = append(c.scopes, map[string]*local{}) }
func (c *checker) pop()  { c.scopes = c.scopes[:len(c.scopes)-1] }

func (c *checker) lookup(name string) *local {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if l, ok := c.scopes[i][name]; ok {
			return l
		}
	}
	return nil
}

// fail builds an *Error at the first run of tokens want on line.
func (c *checker) fail(line int, code, arg string, want ...string) *Error {
	l, col := c.src.at(line, want...)
	return &Error{Line: l, Col: col, Code: code, Arg: shorten(arg, 40)}
}

// builtins are the only globals a script may name.
var builtins = map[string]bool{"KEYS": true, "ARGV": true, "redis": true, "tonumber": true, "tostring": true}

func (c *checker) block(stmts []ast.Stmt, depth int) *Error {
	if depth > MaxDepth {
		line := 1
		if len(stmts) > 0 {
			line = stmts[0].Line()
		}
		return c.fail(line, CodeDepth, "")
	}
	for _, st := range stmts {
		if err := c.stmt(st, depth); err != nil {
			return err
		}
	}
	return nil
}

// stmt checks one statement. It is a parser switch, a case per kind of
// statement in gopher-lua's syntax tree, kept whole on purpose though
// longer than the 100 lines a function is held to: each case is the rule
// for one kind, and side by side they are the complete list a reader
// checks against Lua's grammar (a kind with no case is refused).
func (c *checker) stmt(st ast.Stmt, depth int) *Error {
	line := st.Line()
	switch s := st.(type) {
	case *ast.LocalAssignStmt:
		for _, name := range s.Names {
			if builtins[name] {
				return c.fail(line, CodeShadow, name, name)
			}
		}
		vals := make([]val, len(s.Exprs))
		for i, e := range s.Exprs {
			v, err := c.expr(e, depth+1)
			if err != nil {
				return err
			}
			vals[i] = v
		}
		// Declared after the right-hand side: `local x = x` reads the
		// outer x, as Lua does.
		for i, name := range s.Names {
			l := &local{val: nilVal}
			if i < len(vals) {
				l.val = vals[i]
			}
			c.scopes[len(c.scopes)-1][name] = l
		}
	case *ast.AssignStmt:
		vals := make([]val, len(s.Rhs))
		for i, e := range s.Rhs {
			v, err := c.expr(e, depth+1)
			if err != nil {
				return err
			}
			vals[i] = v
		}
		for i, lhs := range s.Lhs {
			id, ok := lhs.(*ast.IdentExpr)
			if !ok {
				if root := rootName(lhs); root != "" && !builtins[root] && c.lookup(root) == nil {
					return c.fail(lhs.Line(), CodeGlobal, root, root)
				}
				return c.fail(lhs.Line(), CodeAssign, exprText(lhs), firstToken(lhs))
			}
			l := c.lookup(id.Value)
			if l == nil {
				return c.fail(id.Line(), CodeAssign, id.Value, id.Value)
			}
			if l.key > 0 {
				return c.fail(id.Line(), CodeKeyAssign, id.Value, id.Value)
			}
			l.assigned = true
			v := nilVal
			if i < len(vals) {
				v = vals[i]
			}
			// The bound of a local is the largest value it has held so far:
			// with no loops, source order is execution order.
			if v.size == unbounded || l.size == unbounded {
				l.size = unbounded
			} else if v.size > l.size {
				l.size = v.size
			}
			l.types = l.ty() | v.ty()
		}
	case *ast.FuncCallStmt:
		if _, err := c.expr(s.Expr, depth+1); err != nil {
			return err
		}
	case *ast.DoBlockStmt:
		c.push()
		defer c.pop()
		return c.block(s.Stmts, depth+1)
	case *ast.IfStmt:
		if _, err := c.expr(s.Condition, depth+1); err != nil {
			return err
		}
		c.push()
		err := c.block(s.Then, depth+1)
		c.pop()
		if err != nil {
			return err
		}
		c.push()
		defer c.pop()
		return c.block(s.Else, depth+1)
	case *ast.ReturnStmt:
		for _, e := range s.Exprs {
			if _, err := c.expr(e, depth+1); err != nil {
				return err
			}
		}
	case *ast.WhileStmt:
		return c.fail(line, CodeLoop, "while", "while")
	case *ast.RepeatStmt:
		return c.fail(line, CodeLoop, "repeat", "repeat")
	case *ast.NumberForStmt, *ast.GenericForStmt:
		return c.fail(line, CodeLoop, "for", "for")
	case *ast.BreakStmt:
		return c.fail(line, CodeLoop, "break", "break")
	case *ast.GotoStmt:
		return c.fail(line, CodeGoto, "goto", "goto")
	case *ast.LabelStmt:
		return c.fail(line, CodeGoto, "::", "::")
	case *ast.FuncDefStmt:
		return c.fail(line, CodeFunction, "", "function")
	default:
		return c.fail(line, CodeSyntax, "")
	}
	return nil
}

// expr checks one expression and returns what is known of its value. Like
// stmt it is a parser switch, a case per kind of expression, kept whole
// on purpose though longer than the 100 lines a function is held to: the
// cases together are the complete list of what a script may compute, and
// a kind with no case is refused.
func (c *checker) expr(e ast.Expr, depth int) (val, *Error) {
	if depth > MaxDepth {
		return val{}, c.fail(e.Line(), CodeDepth, "")
	}
	line := e.Line()
	switch x := e.(type) {
	case *ast.NilExpr:
		return nilVal, nil
	case *ast.TrueExpr:
		return val{size: 5, types: tTrue}, nil
	case *ast.FalseExpr:
		return val{size: 5, types: tFalse}, nil
	case *ast.NumberExpr:
		return numberVal, nil
	case *ast.StringExpr:
		return val{size: len(x.Value), types: tString}, nil
	case *ast.IdentExpr:
		if l := c.lookup(x.Value); l != nil {
			return l.val, nil
		}
		switch x.Value {
		case "KEYS", "ARGV":
			return val{}, c.indexError(line, x.Value, "", "")
		case "redis", "tonumber", "tostring":
			return val{}, c.fail(line, CodeCall, x.Value, x.Value)
		}
		return val{}, c.fail(line, CodeGlobal, x.Value, x.Value)
	case *ast.AttrGetExpr:
		return c.attr(x)
	case *ast.FuncCallExpr:
		return c.call(x, depth)
	case *ast.LogicalOpExpr:
		l, err := c.expr(x.Lhs, depth+1)
		if err != nil {
			return val{}, err
		}
		r, err := c.expr(x.Rhs, depth+1)
		if err != nil {
			return val{}, err
		}
		types := l.ty() & falsy // and: the left side if it is falsy, else the right
		if l.ty()&truthy != 0 {
			types |= r.ty()
		}
		if x.Operator == "or" { // or: the left side if it is truthy, else the right
			types = l.ty() & truthy
			if l.ty()&falsy != 0 {
				types |= r.ty()
			}
		}
		return val{size: maxSize(l.size, r.size), types: types}, nil
	case *ast.RelationalOpExpr:
		if err := c.operands(depth, x.Lhs, x.Rhs); err != nil {
			return val{}, err
		}
		return boolVal, nil
	case *ast.ArithmeticOpExpr:
		if err := c.operands(depth, x.Lhs, x.Rhs); err != nil {
			return val{}, err
		}
		return numberVal, nil
	case *ast.UnaryMinusOpExpr:
		if err := c.operands(depth, x.Expr); err != nil {
			return val{}, err
		}
		return numberVal, nil
	case *ast.UnaryLenOpExpr:
		if err := c.operands(depth, x.Expr); err != nil {
			return val{}, err
		}
		return numberVal, nil
	case *ast.UnaryNotOpExpr:
		if err := c.operands(depth, x.Expr); err != nil {
			return val{}, err
		}
		return boolVal, nil
	case *ast.StringConcatOpExpr:
		l, err := c.expr(x.Lhs, depth+1)
		if err != nil {
			return val{}, err
		}
		r, err := c.expr(x.Rhs, depth+1)
		if err != nil {
			return val{}, err
		}
		for _, side := range []struct {
			v val
			e ast.Expr
		}{{l, x.Lhs}, {r, x.Rhs}} {
			if side.v.size == unbounded {
				return val{}, c.fail(side.e.Line(), CodeConcatRedis, "", firstToken(side.e))
			}
		}
		n := l.size + r.size
		if n > MaxValueBytes {
			return val{}, c.fail(line, CodeConcatBomb, strconv.Itoa(n), "..")
		}
		return val{size: n, types: tString}, nil
	case *ast.FunctionExpr:
		return val{}, c.fail(line, CodeFunction, "", "function")
	case *ast.TableExpr:
		return val{}, c.fail(line, CodeTable, "", "{")
	case *ast.Comma3Expr:
		return val{}, c.fail(line, CodeVararg, "", "...")
	}
	return val{}, c.fail(line, CodeSyntax, "")
}

func (c *checker) operands(depth int, es ...ast.Expr) *Error {
	for _, e := range es {
		if _, err := c.expr(e, depth+1); err != nil {
			return err
		}
	}
	return nil
}

func maxSize(a, b int) int {
	if a == unbounded || b == unbounded {
		return unbounded
	}
	return max(a, b)
}

// attr checks a field read: only KEYS[n] and ARGV[n] are values; redis.call
// and redis.pcall may only be called (call handles those).
func (c *checker) attr(x *ast.AttrGetExpr) (val, *Error) {
	line := x.Line()
	id, ok := x.Object.(*ast.IdentExpr)
	if !ok || c.lookup(id.Value) != nil {
		return val{}, c.fail(line, CodeField, exprText(x), firstToken(x))
	}
	switch id.Value {
	case "KEYS", "ARGV":
		n, text := literalIndex(x.Key)
		tok := ""
		switch k := x.Key.(type) {
		case *ast.NumberExpr:
			tok = k.Value
		case *ast.StringExpr:
			tok = k.Value
		case *ast.IdentExpr:
			tok = k.Value
		}
		max := c.kind.Keys()
		if id.Value == "ARGV" {
			max = c.kind.Args()
		}
		if n < 1 || n > max {
			return val{}, c.indexError(line, id.Value, text, tok)
		}
		if id.Value == "KEYS" {
			return val{size: MaxArgBytes, key: n, types: tString}, nil
		}
		return val{size: MaxArgBytes, types: tString}, nil
	case "redis":
		if s, ok := x.Key.(*ast.StringExpr); ok && (s.Value == "call" || s.Value == "pcall") {
			return val{}, c.fail(line, CodeCall, "redis."+s.Value, "redis")
		}
		return val{}, c.fail(line, CodeField, exprText(x), "redis")
	case "tonumber", "tostring":
		return val{}, c.fail(line, CodeField, exprText(x), id.Value)
	}
	return val{}, c.fail(line, CodeGlobal, id.Value, id.Value)
}

// indexError refuses KEYS/ARGV without a literal index the kind has.
func (c *checker) indexError(line int, table, index, tok string) *Error {
	want := []string{table}
	arg := table
	if index != "" {
		arg = table + "[" + index + "]"
		want = append(want, "[")
		if tok != "" {
			want = append(want, tok)
		}
	}
	e := c.fail(line, CodeIndex, arg, want...)
	n := c.kind.Keys()
	if table == "ARGV" {
		n = c.kind.Args()
	}
	var have []string
	for i := 1; i <= n; i++ {
		have = append(have, table+"["+strconv.Itoa(i)+"]")
	}
	e.Allowed = strings.Join(have, ", ")
	return e
}

// literalIndex returns n for a decimal integer literal n, else 0, and the
// index's text for messages.
func literalIndex(e ast.Expr) (int, string) {
	switch k := e.(type) {
	case *ast.NumberExpr:
		n, err := strconv.Atoi(k.Value)
		if err != nil {
			return 0, k.Value
		}
		return n, k.Value
	case *ast.StringExpr:
		return 0, strconv.Quote(k.Value)
	case *ast.IdentExpr:
		return 0, k.Value
	}
	return 0, "…"
}

// call checks a function call: tonumber, tostring, redis.call, redis.pcall.
func (c *checker) call(x *ast.FuncCallExpr, depth int) (val, *Error) {
	line := x.Line()
	if x.Receiver != nil {
		return val{}, c.fail(line, CodeMethod, x.Method, ":", x.Method)
	}
	switch f := x.Func.(type) {
	case *ast.IdentExpr:
		if c.lookup(f.Value) == nil && (f.Value == "tonumber" || f.Value == "tostring") {
			if len(x.Args) < 1 || len(x.Args) > 2 || (f.Value == "tostring" && len(x.Args) != 1) {
				return val{}, c.fail(line, CodeArgs, f.Value, f.Value)
			}
			var first val
			for i, a := range x.Args {
				v, err := c.expr(a, depth+1)
				if err != nil {
					return val{}, err
				}
				if i == 0 {
					first = v
				}
			}
			if f.Value == "tonumber" {
				return val{size: numberBytes, types: tNumber | tNil}, nil
			}
			if first.size == unbounded {
				return val{size: unbounded, types: tString}, nil
			}
			return val{size: max(first.size, numberBytes), types: tString}, nil
		}
		if c.lookup(f.Value) != nil || builtins[f.Value] {
			return val{}, c.fail(line, CodeCall, f.Value, f.Value)
		}
		return val{}, c.fail(line, CodeGlobal, f.Value, f.Value)
	case *ast.AttrGetExpr:
		id, ok := f.Object.(*ast.IdentExpr)
		s, isStr := f.Key.(*ast.StringExpr)
		if ok && isStr && id.Value == "redis" && c.lookup("redis") == nil && (s.Value == "call" || s.Value == "pcall") {
			return c.redisCall(x, depth)
		}
		_, err := c.attr(f)
		if err == nil {
			err = c.fail(line, CodeCall, exprText(f), firstToken(f))
		}
		return val{}, err
	}
	if _, err := c.expr(x.Func, depth+1); err != nil {
		return val{}, err
	}
	return val{}, c.fail(line, CodeCall, exprText(x.Func), firstToken(x.Func))
}

// rootName is the name a chain of fields and calls starts from, or "".
func rootName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.IdentExpr:
		return x.Value
	case *ast.AttrGetExpr:
		return rootName(x.Object)
	case *ast.FuncCallExpr:
		return rootName(x.Func)
	}
	return ""
}

func exprText(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.IdentExpr:
		return x.Value
	case *ast.AttrGetExpr:
		if s, ok := x.Key.(*ast.StringExpr); ok && isName(s.Value) {
			return exprText(x.Object) + "." + s.Value
		}
		_, text := literalIndex(x.Key)
		return exprText(x.Object) + "[" + text + "]"
	case *ast.FuncCallExpr:
		return exprText(x.Func) + "(…)"
	}
	return "…"
}

func firstToken(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.NilExpr:
		return "nil"
	case *ast.TrueExpr:
		return "true"
	case *ast.FalseExpr:
		return "false"
	case *ast.UnaryNotOpExpr:
		return "not"
	case *ast.UnaryMinusOpExpr:
		return "-"
	case *ast.UnaryLenOpExpr:
		return "#"
	case *ast.FunctionExpr:
		return "function"
	case *ast.TableExpr:
		return "{"
	case *ast.Comma3Expr:
		return "..."
	case *ast.LogicalOpExpr:
		return firstToken(x.Lhs)
	case *ast.RelationalOpExpr:
		return firstToken(x.Lhs)
	case *ast.ArithmeticOpExpr:
		return firstToken(x.Lhs)
	case *ast.StringConcatOpExpr:
		return firstToken(x.Lhs)
	case *ast.StringExpr:
		return x.Value
	case *ast.NumberExpr:
		return x.Value
	case *ast.IdentExpr:
		return x.Value
	case *ast.AttrGetExpr:
		return firstToken(x.Object)
	case *ast.FuncCallExpr:
		return firstToken(x.Func)
	}
	return "("
}

func isName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

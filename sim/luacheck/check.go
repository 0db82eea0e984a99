// check.go holds Check: the byte-level scan, the parse and the walk over
// gopher-lua's syntax tree that accepts only the documented subset.

package luacheck

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// Kind is the role a script plays; it decides which KEYS and ARGV it has.
type Kind int

// The four pieces of a lock design a learner can script, and a script
// typed on a timeline's command line (EVAL as the operator: up to
// OperatorKeys of each).
const (
	Acquire Kind = iota
	Release
	Extend
	Storage
	Operator
)

// OperatorKeys is how many KEYS and ARGV an operator's script may name.
const OperatorKeys = 8

// Keys and Args are how many KEYS and ARGV a script of kind k is given.
func (k Kind) Keys() int {
	switch k {
	case Storage:
		return 2
	case Operator:
		return OperatorKeys
	}
	return 1
}

// Args: see Keys.
func (k Kind) Args() int {
	switch k {
	case Release:
		return 1
	case Operator:
		return OperatorKeys
	}
	return 2
}

// String is the kind's name as URLs and tests write it.
func (k Kind) String() string {
	switch k {
	case Acquire:
		return "acquire"
	case Release:
		return "release"
	case Extend:
		return "extend"
	case Storage:
		return "storage"
	case Operator:
		return "operator"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Limits. MaxArgBytes is a promise the caller makes: every ARGV it passes
// is at most that long (the size bound of concatenations relies on it).
const (
	MaxBytes      = 2048 // a script's length in bytes
	MaxArgBytes   = 256  // the longest ARGV value the caller passes
	MaxValueBytes = 4096 // the largest string a concatenation may build
	MaxDepth      = 40   // nesting of blocks and expressions
	numberBytes   = 24   // the longest number Lua prints (%.14g)
)

// Codes: stable keys for the reasons a script is refused. The web side
// maps each to a sentence in the learner's language.
const (
	CodeTooLong     = "too-long"     // Arg: the script's length in bytes
	CodeUTF8        = "utf8"         // not valid UTF-8
	CodeNUL         = "nul"          // a NUL byte
	CodeControl     = "control"      // another control character; Arg: U+XXXX
	CodeBidi        = "bidi"         // a bidi control; Arg: U+XXXX
	CodeInvisible   = "invisible"    // a zero-width or line-separator character; Arg: U+XXXX
	CodeSyntax      = "syntax"       // not Lua; Arg: the token near the error
	CodeSyntaxEnd   = "syntax-end"   // the script ends inside an if, do, string or bracket
	CodeLoop        = "loop"         // while, repeat, for, break; Arg: the keyword
	CodeGoto        = "goto"         // goto or a label
	CodeFunction    = "function"     // a function definition
	CodeGlobal      = "global"       // a global other than KEYS, ARGV, redis, tonumber, tostring; Arg: its name
	CodeField       = "field"        // a field other than redis.call/redis.pcall; Arg: e.g. redis.log
	CodeCall        = "call"         // calling something that is not allowed, or redis.call not called; Arg: what
	CodeMethod      = "method"       // a method call a:b(); Arg: b
	CodeTable       = "table"        // a table constructor {…}
	CodeVararg      = "vararg"       // ...
	CodeAssign      = "assign"       // assignment to a global or a field; Arg: the target
	CodeShadow      = "shadow"       // a local named KEYS, ARGV, redis, tonumber or tostring; Arg: the name
	CodeCommand     = "command"      // a command outside the allow-list; Arg: the command
	CodeCommandName = "command-name" // the command name is not a string literal
	CodeArgs        = "args"         // a command's arguments do not fit its form; Arg: the command
	CodeKey         = "key"          // a key position that is not KEYS[i]; Arg: the command
	CodeKeyAssign   = "key-assign"   // assignment to a local that holds a key; Arg: its name
	CodeIndex       = "index"        // KEYS/ARGV without a literal index the kind has; Arg: e.g. KEYS[3]
	CodeConcatBomb  = "concat-bomb"  // a concatenation that could exceed MaxValueBytes; Arg: its bound
	CodeConcatRedis = "concat-redis" // a concatenation of a string read from Redis
	CodePcallArg    = "pcall-arg"    // an argument of redis.pcall that may be nil, a boolean or a table; Arg: the command
	CodeDepth       = "depth"        // nesting deeper than MaxDepth
)

// Error is a refusal: where, why (Code) and what (Arg).
type Error struct {
	Line, Col int    // 1-based; Col counts characters
	Code      string // one of the Code* constants
	Arg       string // the offending name, command, index or size; may be empty
	Allowed   string // CodeIndex: what the kind has, e.g. "KEYS[1], KEYS[2]"
}

// Codes lists every code, for tests and message tables.
var Codes = []string{CodeTooLong, CodeUTF8, CodeNUL, CodeControl, CodeBidi, CodeInvisible, CodeSyntax, CodeSyntaxEnd,
	CodeLoop, CodeGoto, CodeFunction, CodeGlobal, CodeField, CodeCall, CodeMethod, CodeTable, CodeVararg,
	CodeAssign, CodeShadow, CodeCommand, CodeCommandName, CodeArgs, CodeKey, CodeKeyAssign, CodeIndex,
	CodeConcatBomb, CodeConcatRedis, CodePcallArg, CodeDepth}

var english = map[string]string{
	CodeTooLong:     "script too long ({0} bytes; at most 2048)",
	CodeUTF8:        "not valid UTF-8",
	CodeNUL:         "NUL byte",
	CodeControl:     "control character {0}",
	CodeBidi:        "bidirectional control {0}",
	CodeInvisible:   "invisible character {0}",
	CodeSyntax:      "syntax error near {0}",
	CodeSyntaxEnd:   "the script ends too early",
	CodeLoop:        "loops are not allowed ({0})",
	CodeGoto:        "goto and labels are not allowed",
	CodeFunction:    "function definitions are not allowed",
	CodeGlobal:      "global {0} is not allowed",
	CodeField:       "field {0} is not allowed",
	CodeCall:        "{0} cannot be called or used this way",
	CodeMethod:      "method call :{0} is not allowed",
	CodeTable:       "table constructors are not allowed",
	CodeVararg:      "... is not allowed",
	CodeAssign:      "cannot assign to {0}",
	CodeShadow:      "a local cannot be named {0}",
	CodeCommand:     "command {0} is not allowed",
	CodeCommandName: "the command name must be a string literal",
	CodeArgs:        "wrong arguments for {0}",
	CodeKey:         "a key of {0} must be written KEYS[i]",
	CodeKeyAssign:   "{0} holds a key and cannot be assigned",
	CodeIndex:       "{0} is not given to this script (it has {1})",
	CodeConcatBomb:  "this concatenation could build {0} bytes (at most 4096)",
	CodeConcatRedis: "cannot concatenate a value read from Redis",
	CodePcallArg:    "an argument of redis.pcall {0} may be nil, a boolean or a table",
	CodeDepth:       "nested too deeply",
}

// Error is the refusal in English, for logs and tests; the web side has
// its own sentences in both languages.
func (e *Error) Error() string {
	msg, ok := english[e.Code]
	if !ok {
		msg = e.Code
	}
	msg = strings.ReplaceAll(msg, "{0}", e.Arg)
	msg = strings.ReplaceAll(msg, "{1}", e.Allowed)
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, msg)
}

// Check returns nil if src is in the accepted subset for kind k, or an
// *Error naming the first reason it is not.
func Check(src string, k Kind) error {
	if k < Acquire || k > Operator {
		return &Error{Line: 1, Col: 1, Code: CodeArgs, Arg: k.String()}
	}
	s := newSource(src)
	if len(src) > MaxBytes {
		l, c := s.pos(MaxBytes)
		return &Error{Line: l, Col: c, Code: CodeTooLong, Arg: strconv.Itoa(len(src))}
	}
	if err := s.scanChars(); err != nil {
		return err
	}
	chunk, err := parse.Parse(strings.NewReader(src), "script")
	if err != nil {
		return s.syntaxError(err)
	}
	c := &checker{src: s, kind: k}
	c.push()
	if err := c.block(chunk, 0); err != nil {
		return err
	}
	return nil
}

// source is the script with its line starts, to turn the lexer's byte
// positions into line and character columns.
type source struct {
	text   string
	starts []int // byte offset where each line begins
	toks   []ast.Token
}

// newSource splits lines the way gopher-lua's lexer does: \n, \r, \r\n and
// \n\r each end one line.
func newSource(text string) *source {
	s := &source{text: text, starts: []int{0}}
	for i := 0; i < len(text); i++ {
		ch := text[i]
		if ch != '\n' && ch != '\r' {
			continue
		}
		if i+1 < len(text) && (text[i+1] == '\n' || text[i+1] == '\r') && text[i+1] != ch {
			i++
		}
		s.starts = append(s.starts, i+1)
	}
	return s
}

// pos is the line and character column of byte offset off.
func (s *source) pos(off int) (int, int) {
	line := 0
	for line+1 < len(s.starts) && s.starts[line+1] <= off {
		line++
	}
	return line + 1, utf8.RuneCountInString(s.text[s.starts[line]:off]) + 1
}

// col turns the lexer's 1-based byte column on line (1-based) into a
// character column.
func (s *source) col(line, byteCol int) int {
	if line < 1 || line > len(s.starts) {
		return 1
	}
	start := s.starts[line-1]
	end := start + byteCol - 1
	if end > len(s.text) {
		end = len(s.text)
	}
	if end < start {
		return 1
	}
	return utf8.RuneCountInString(s.text[start:end]) + 1
}

// scanChars refuses bytes and characters that have no business in a
// script: they hide what the code does (bidi, invisible) or break it.
func (s *source) scanChars() error {
	for i := 0; i < len(s.text); {
		r, size := utf8.DecodeRuneInString(s.text[i:])
		code := ""
		switch {
		case r == utf8.RuneError && size == 1:
			code = CodeUTF8
		case r == 0:
			code = CodeNUL
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			code = CodeControl
		case r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
			code = CodeBidi
		case (r >= 0x200b && r <= 0x200d) || r == 0x2060 || r == 0xfeff || r == 0x2028 || r == 0x2029 || r == 0x00ad:
			code = CodeInvisible
		}
		if code != "" {
			l, c := s.pos(i)
			e := &Error{Line: l, Col: c, Code: code}
			if code != CodeUTF8 && code != CodeNUL {
				e.Arg = fmt.Sprintf("U+%04X", r)
			}
			return e
		}
		i += size
	}
	return nil
}

// syntaxError turns a parse error into an *Error at the parser's position.
func (s *source) syntaxError(err error) *Error {
	var pe *parse.Error
	if !errors.As(err, &pe) {
		return &Error{Line: 1, Col: 1, Code: CodeSyntax}
	}
	line, col := pe.Pos.Line, pe.Pos.Column
	if line == parse.EOF || line < 1 || line > len(s.starts) {
		// The parser wanted more: an if, do or bracket left open.
		line = len(s.starts)
		col = len(s.text) - s.starts[line-1] + 1
		return &Error{Line: line, Col: s.col(line, col), Code: CodeSyntaxEnd}
	}
	if col < 1 {
		col = 1
	}
	near := strings.TrimSpace(pe.Token)
	if !utf8.ValidString(near) {
		// The lexer stopped inside a character: name the whole character.
		near = ""
		if off := s.starts[line-1] + col - 1; off < len(s.text) {
			r, _ := utf8.DecodeRuneInString(s.text[off:])
			near = string(r)
		}
	}
	return &Error{Line: line, Col: s.col(line, col), Code: CodeSyntax, Arg: shorten(near, 20)}
}

// tokens lexes the script once (it parsed, so it lexes) for columns.
func (s *source) tokens() []ast.Token {
	if s.toks != nil {
		return s.toks
	}
	sc := parse.NewScanner(strings.NewReader(s.text), "script")
	lx := &parse.Lexer{}
	for {
		tok, err := sc.Scan(lx)
		if err != nil || tok.Type < 0 || tok.Type == parse.EOF {
			break
		}
		lx.PrevTokenType = tok.Type
		s.toks = append(s.toks, tok)
	}
	return s.toks
}

// at is the position of the first run of tokens on line (or the next few
// lines) whose texts are want; the line's start if there is none.
func (s *source) at(line int, want ...string) (int, int) {
	toks := s.tokens()
	for i, t := range toks {
		if t.Pos.Line < line || t.Pos.Line > line+2 {
			continue
		}
		ok := i+len(want) <= len(toks)
		for j := 0; ok && j < len(want); j++ {
			ok = toks[i+j].Str == want[j]
		}
		if ok {
			return t.Pos.Line, s.col(t.Pos.Line, t.Pos.Column)
		}
	}
	if line < 1 || line > len(s.starts) {
		line = 1
	}
	return line, 1
}

// Reads reports whether src names table[i] (KEYS or ARGV, with the
// literal index Check insists on) outside comments: whether a design's
// write script looks at the token it is given, say.
func Reads(src, table string, i int) bool {
	toks := newSource(src).tokens()
	idx := strconv.Itoa(i)
	for j := 0; j+3 < len(toks); j++ {
		if toks[j].Str == table && toks[j+1].Str == "[" && toks[j+2].Str == idx && toks[j+3].Str == "]" {
			return true
		}
	}
	return false
}

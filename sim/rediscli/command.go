// command.go reads a command line as redis-cli does (ParseCommand) and
// prints commands back: in one canonical form for a URL (FormatCommand)
// and as redis-cli would read them back (ShowCommand).

package rediscli

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The ways a typed line can be refused before any server sees it.
var (
	ErrSyntax  = errors.New("rediscli: unbalanced quotes or an empty line")
	ErrTooLong = errors.New("rediscli: past the limits of one command")
)

// Limits on one typed command: its arguments' bytes and their number.
// Its printed form may be longer (an escaped byte takes four), up to
// maxCommandLine.
const (
	MaxCommandLen  = 512 // bytes of all the arguments together
	MaxCommandArgs = 16  // the command name included
	maxCommandLine = 4*MaxCommandLen + 3*MaxCommandArgs
)

// ParseCommand splits a command line as redis-cli does: arguments
// separated by spaces; "double quotes" with the escapes \n \r \t \b \a
// \\ \" and \xHH; 'single quotes' with only \' (and \\); a closing quote
// must be followed by a space or the end. It returns ErrSyntax for an
// unbalanced quote or an empty line, ErrTooLong past the limits.
func ParseCommand(line string) ([]string, error) {
	if len(line) > maxCommandLine {
		return nil, ErrTooLong
	}
	var args []string
	size := 0
	i := 0
	for {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		var b strings.Builder
		inDouble, inSingle, done := false, false, false
		for !done {
			if i == len(line) {
				if inDouble || inSingle {
					return nil, ErrSyntax // unbalanced quotes
				}
				break
			}
			c := line[i]
			switch {
			case inDouble:
				switch {
				case c == '\\' && i+3 < len(line) && line[i+1] == 'x' && isHex(line[i+2]) && isHex(line[i+3]):
					v, _ := strconv.ParseUint(line[i+2:i+4], 16, 8)
					b.WriteByte(byte(v))
					i += 3
				case c == '\\' && i+1 < len(line):
					i++
					b.WriteByte(unescape(line[i]))
				case c == '"':
					if i+1 < len(line) && !isSpace(line[i+1]) {
						return nil, ErrSyntax // a closing quote must be followed by a space
					}
					done = true
				default:
					b.WriteByte(c)
				}
			case inSingle:
				switch {
				case c == '\\' && i+1 < len(line) && (line[i+1] == '\'' || line[i+1] == '\\'):
					i++
					b.WriteByte(line[i])
				case c == '\'':
					if i+1 < len(line) && !isSpace(line[i+1]) {
						return nil, ErrSyntax
					}
					done = true
				default:
					b.WriteByte(c)
				}
			default:
				switch c {
				case ' ', '\n', '\r', '\t', '\v', '\f':
					done = true
				case '"':
					inDouble = true
				case '\'':
					inSingle = true
				default:
					b.WriteByte(c)
				}
			}
			i++
		}
		args = append(args, b.String())
		size += b.Len()
		if len(args) > MaxCommandArgs || size > MaxCommandLen {
			return nil, ErrTooLong
		}
	}
	if len(args) == 0 {
		return nil, ErrSyntax
	}
	return args, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f'
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'b':
		return '\b'
	case 'a':
		return '\a'
	}
	return c
}

// FormatCommand prints args as one command line ParseCommand reads back
// to the same args. An argument that is plain (letters, digits and
// -_:.*?/@{}[]=+) is printed as it is; any other is double-quoted as
// redis-cli prints a string (Quote), with the comma that
// separates actions in a URL written \x2c too. The same args always print the same
// way, so a typed command has one URL.
func FormatCommand(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = quoteArg(a)
	}
	return strings.Join(parts, " ")
}

// ShowCommand is a command as a page shows it: every argument as
// redis-cli reads it back, so the line pasted into a command line sends
// the same arguments ("written by A" in quotes, a comma bare). Text the
// learner typed in any script stays as typed (注文, 值); only bytes that
// are no printable UTF-8 are written as escapes.
func ShowCommand(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = showArg(a)
	}
	return strings.Join(parts, " ")
}

func showArg(a string) string {
	plain := a != ""
	for _, r := range a {
		plain = plain && (r > ' ' && r < 0x7f && r != '"' && r != '\'' && r != '\\' || r >= 0xa0 && r != utf8.RuneError && unicode.IsPrint(r))
	}
	if plain {
		return a
	}
	var b strings.Builder
	b.WriteByte('"')
	for len(a) > 0 {
		r, n := utf8.DecodeRuneInString(a)
		if r >= 0xa0 && r != utf8.RuneError && unicode.IsPrint(r) {
			b.WriteString(a[:n]) // printable text, as typed (a space other than ASCII's is escaped: it would not show)
		} else {
			q := Quote(a[:n])
			b.WriteString(q[1 : len(q)-1])
		}
		a = a[n:]
	}
	b.WriteByte('"')
	return b.String()
}

func quoteArg(a string) string {
	plain := a != ""
	for i := 0; i < len(a) && plain; i++ {
		c := a[i]
		plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_:.*?/@{}[]=+", c) >= 0
	}
	if plain {
		return a
	}
	// Quote never writes a comma but the argument's own
	return strings.ReplaceAll(Quote(a), ",", `\x2c`)
}

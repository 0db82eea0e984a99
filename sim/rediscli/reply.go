// reply.go holds what a server answered, as a value (nil, integer, string,
// error, array), and renders it the way redis-cli prints it — for display
// only: the simulator and the web layer read the value, never the text.

package rediscli

import (
	"errors"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// ReplyKind is the type of a reply.
type ReplyKind uint8

// Reply kinds. The zero value is no reply at all (an event that is not a
// command, or a command that never arrived).
const (
	ReplyNone    ReplyKind = iota
	ReplyNil               // (nil): no such key
	ReplyInt               // (integer) 1
	ReplyStatus            // a simple string (+OK), printed bare
	ReplyBulk              // a bulk string, printed quoted
	ReplyError             // (error) ERR …
	ReplyArray             // 1) … 2) …
	ReplyText              // a modelled service's answer, in its own words
	ReplyUnknown           // a type redis-cli would not show; never seen from RESP2
)

// Reply is one answer. Int holds an integer; Str a string, an error's
// message or a model's text; Elems an array's elements.
type Reply struct {
	Kind  ReplyKind
	Int   int64
	Str   string
	Elems []Reply
	// Cut, when not 0, says that Str holds only the first bytes of a
	// string this long, or Elems the first elements of an array this
	// long (Clip).
	Cut int
}

// Clip is r with at most n bytes of text in all (strings, errors, and 8
// for each array element): what a timeline keeps and shows of a reply. A
// longer string keeps its first bytes (never half a UTF-8 character), a
// longer array its first elements, and Cut says how long the whole was.
// A reply within n is r itself.
func (r Reply) Clip(n int) Reply {
	c, _ := r.clip(n)
	return c
}

// elemCost is what an array element counts towards Clip's n besides its
// own text: an array of a million empty strings is not small.
const elemCost = 8

func (r Reply) clip(n int) (Reply, int) {
	switch r.Kind {
	case ReplyStatus, ReplyBulk, ReplyError, ReplyText:
		if len(r.Str) <= n {
			return r, n - len(r.Str)
		}
		cut := max(n, 0)
		for cut > 0 && cut < len(r.Str) && r.Str[cut]&0xC0 == 0x80 {
			cut-- // not inside a UTF-8 character
		}
		r.Cut, r.Str = len(r.Str), r.Str[:cut]
		return r, 0
	case ReplyArray:
		elems := make([]Reply, 0, len(r.Elems))
		cut := false
		for i, e := range r.Elems {
			if n < elemCost {
				r.Cut, cut = len(r.Elems), true
				break
			}
			ce, left := e.clip(n - elemCost)
			elems, n = append(elems, ce), left
			if ce.Clipped() {
				if cut = true; i+1 < len(r.Elems) {
					r.Cut = len(r.Elems)
				}
				break
			}
		}
		if !cut {
			return r, n
		}
		r.Elems = elems
		return r, 0
	}
	return r, n
}

// IntReply and TextReply build the replies models give.
func IntReply(n int64) Reply       { return Reply{Kind: ReplyInt, Int: n} }
func TextReply(s string) Reply     { return Reply{Kind: ReplyText, Str: s} }
func (r Reply) IsInt(n int64) bool { return r.Kind == ReplyInt && r.Int == n }

// IsOK: the simple string OK, what SET answers when it did set.
func (r Reply) IsOK() bool { return r.Kind == ReplyStatus && r.Str == "OK" }

// statusCommands reply with a simple string (+OK), which redis-cli prints
// bare; every other string reply is a bulk string, which it quotes. go-redis
// hands both back as a Go string, so the command decides.
var statusCommands = map[string]bool{
	"SET": true, "SETEX": true, "PSETEX": true, "MSET": true,
	"FLUSHALL": true, "FLUSHDB": true, "SELECT": true, "PING": true,
	"MULTI": true, "WATCH": true, "UNWATCH": true, "DISCARD": true,
}

// Of turns a go-redis result of command cmd into a Reply.
func Of(cmd string, val any, err error) Reply {
	if errors.Is(err, redis.Nil) {
		return Reply{Kind: ReplyNil}
	}
	if err != nil {
		return Reply{Kind: ReplyError, Str: err.Error()}
	}
	return Value(statusCommands[strings.ToUpper(cmd)], val)
}

// Value turns a go-redis value into a Reply: a string is a simple
// string (status) or a bulk one, as the command or the wire decides.
func Value(status bool, val any) Reply {
	switch v := val.(type) {
	case nil:
		return Reply{Kind: ReplyNil}
	case int64:
		return IntReply(v)
	case string:
		if status {
			return Reply{Kind: ReplyStatus, Str: v}
		}
		return Reply{Kind: ReplyBulk, Str: v}
	case []any:
		r := Reply{Kind: ReplyArray, Elems: make([]Reply, len(v))}
		for i, e := range v {
			r.Elems[i] = Value(false, e)
		}
		return r
	default:
		return Reply{Kind: ReplyUnknown}
	}
}

// String renders the reply as redis-cli would show it: OK, (nil),
// (integer) 1, "value", (error) ERR …; a model's text as it is; "" for
// no reply.
func (r Reply) String() string { return r.render("") }

func (r Reply) render(indent string) string {
	switch r.Kind {
	case ReplyNone:
		return ""
	case ReplyNil:
		return "(nil)"
	case ReplyInt:
		return "(integer) " + itoa(r.Int)
	case ReplyStatus, ReplyText:
		return r.Str + r.more()
	case ReplyBulk:
		return Quote(r.Str) + r.more()
	case ReplyError:
		return "(error) " + r.Str + r.more()
	case ReplyArray:
		if len(r.Elems) == 0 && r.Cut == 0 {
			return "(empty array)"
		}
		var b strings.Builder
		for i, e := range r.Elems {
			if i > 0 {
				b.WriteString("\n" + indent)
			}
			b.WriteString(strconv.Itoa(i+1) + ") " + e.render(indent+"   "))
		}
		if r.Cut > len(r.Elems) {
			b.WriteString("\n" + indent + "…")
		}
		return b.String()
	default:
		return "(unknown reply)"
	}
}

// more marks a string Clip cut short: an ellipsis after its first bytes.
func (r Reply) more() string {
	if r.Cut > len(r.Str) {
		return "…"
	}
	return ""
}

// Clipped reports whether Clip cut r or any part of it short.
func (r Reply) Clipped() bool {
	if r.Cut != 0 {
		return true
	}
	for _, e := range r.Elems {
		if e.Clipped() {
			return true
		}
	}
	return false
}

// Quote escapes a bulk string like redis-cli's sdscatrepr: printable ASCII
// as is, a few C escapes, every other byte as \xHH.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' || c == '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		default:
			const hex = "0123456789abcdef"
			b.WriteString(`\x`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	b.WriteByte('"')
	return b.String()
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// reply.go formats what a Redis server answered the way redis-cli prints it.
package sim

import (
	"errors"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// statusCommands reply with a simple string (+OK), which redis-cli prints
// bare; every other string reply is a bulk string, which it quotes. go-redis
// hands both back as a Go string, so the command decides.
var statusCommands = map[string]bool{
	"SET": true, "SETEX": true, "PSETEX": true, "MSET": true,
	"FLUSHALL": true, "FLUSHDB": true, "SELECT": true, "PING": true,
	"MULTI": true, "WATCH": true, "UNWATCH": true, "DISCARD": true,
}

// formatReply renders a go-redis result as redis-cli would show it:
// OK, (nil), (integer) 1, "value", (error) ERR ….
func formatReply(cmd string, val any, err error) string {
	if errors.Is(err, redis.Nil) {
		return "(nil)"
	}
	if err != nil {
		return "(error) " + err.Error()
	}
	return formatValue(strings.ToUpper(cmd), val, "")
}

func formatValue(cmd string, val any, indent string) string {
	switch v := val.(type) {
	case nil:
		return "(nil)"
	case int64:
		return "(integer) " + strconv.FormatInt(v, 10)
	case string:
		if statusCommands[cmd] {
			return v
		}
		return quote(v)
	case []any:
		if len(v) == 0 {
			return "(empty array)"
		}
		var b strings.Builder
		for i, e := range v {
			if i > 0 {
				b.WriteString("\n" + indent)
			}
			b.WriteString(strconv.Itoa(i+1) + ") " + formatValue("", e, indent+"   "))
		}
		return b.String()
	default:
		return "(unknown reply)"
	}
}

// quote escapes a bulk string like redis-cli's sdscatrepr: printable ASCII
// as is, a few C escapes, every other byte as \xHH.
func quote(s string) string {
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

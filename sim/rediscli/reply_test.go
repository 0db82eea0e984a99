package rediscli

import (
	"errors"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestReplyValues: what go-redis hands back becomes a value of the right
// kind, and renders as redis-cli prints it.
func TestReplyValues(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		val  any
		err  error
		kind ReplyKind
		text string
	}{
		{"SET", "OK", nil, ReplyStatus, "OK"},
		{"GET", "OK", nil, ReplyBulk, `"OK"`},
		{"GET", nil, redis.Nil, ReplyNil, "(nil)"},
		{"DEL", int64(1), nil, ReplyInt, "(integer) 1"},
		{"DELEX", nil, errors.New("ERR unknown command 'DELEX'"), ReplyError, "(error) ERR unknown command 'DELEX'"},
		{"LRANGE", []any{"A", "B"}, nil, ReplyArray, "1) \"A\"\n2) \"B\""},
		{"LRANGE", []any{}, nil, ReplyArray, "(empty array)"},
		{"GET", "a\"b\x01", nil, ReplyBulk, `"a\"b\x01"`},
		{"X", 1.5, nil, ReplyUnknown, "(unknown reply)"},
	} {
		r := Of(tc.cmd, tc.val, tc.err)
		if r.Kind != tc.kind || r.String() != tc.text {
			t.Errorf("%s %v %v: kind %d %q, want kind %d %q", tc.cmd, tc.val, tc.err, r.Kind, r.String(), tc.kind, tc.text)
		}
	}
	if !Of("SET", "OK", nil).IsOK() || Of("GET", "OK", nil).IsOK() || !IntReply(0).IsInt(0) || (Reply{}).String() != "" {
		t.Error("IsOK, IsInt or the empty reply are wrong")
	}
}

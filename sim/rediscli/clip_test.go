package rediscli

import (
	"strings"
	"testing"
)

// TestClip: a reply keeps at most n bytes of text, never half a UTF-8
// character, and says how long the whole was; a short reply is itself.
func TestClip(t *testing.T) {
	bulk := func(s string) Reply { return Reply{Kind: ReplyBulk, Str: s} }
	arr := func(es ...Reply) Reply { return Reply{Kind: ReplyArray, Elems: es} }
	long := strings.Repeat("x", 100)
	for _, c := range []struct {
		r    Reply
		n    int
		want string
	}{
		{bulk("short"), 10, `"short"`},
		{bulk(long), 10, `"xxxxxxxxxx"…`},
		{bulk("ペンギン先生"), 7, `"\xe3\x83\x9a\xe3\x83\xb3"…`}, // 6 bytes: two whole characters
		{Reply{Kind: ReplyError, Str: "ERR " + long}, 8, "(error) ERR xxxx…"},
		{arr(bulk("a"), bulk("b")), 100, "1) \"a\"\n2) \"b\""},
		{arr(bulk(long), bulk("b")), 20, "1) \"xxxxxxxxxxxx\"…\n…"},
		{arr(bulk("a"), bulk("b"), bulk("c")), 18, "1) \"a\"\n2) \"b\"\n…"},
		{arr(arr(bulk(long))), 20, "1) 1) \"xxxx\"…"},
		{arr(), 0, "(empty array)"},
	} {
		got := c.r.Clip(c.n)
		if got.String() != c.want {
			t.Errorf("Clip(%d) of %q = %q, want %q", c.n, c.r.String(), got.String(), c.want)
		}
		if got.Clipped() != (got.String() != c.r.String()) {
			t.Errorf("Clip(%d) of %q: Clipped() = %v", c.n, c.r.String(), got.Clipped())
		}
	}
	many := Reply{Kind: ReplyArray, Elems: make([]Reply, 1_000_000)}
	for i := range many.Elems {
		many.Elems[i] = bulk("")
	}
	if got := many.Clip(512); len(got.Elems) > 512/elemCost || got.Cut != 1_000_000 {
		t.Errorf("a million empty strings clipped to 512: %d elements kept, Cut %d", len(got.Elems), got.Cut)
	}
}

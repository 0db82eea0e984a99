package rediscli_test

import (
	"slices"
	"testing"

	"locklab/sim/rediscli"
)

// TestShowCommandReadsBack: a command as a page shows it (its row, the
// history the Up key brings back) reads back as the same arguments, and
// text typed in any script stays as typed; bytes that are no printable
// text (a NUL, invalid UTF-8, an RTL mark, an ideographic space) are
// escapes, so nothing hidden reaches the screen.
func TestShowCommandReadsBack(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"SET", "cjk", "注文四十二"}, "SET cjk 注文四十二"},
		{[]string{"SET", "k", "a 值 b"}, `SET k "a 值 b"`},
		{[]string{"ECHO", "\u200fשלום"}, `ECHO "\xe2\x80\x8fשלום"`},
		{[]string{"ECHO", "a\u3000b"}, `ECHO "a\xe3\x80\x80b"`},
		{[]string{"SET", "k", "\x00\xff"}, `SET k "\x00\xff"`},
		{[]string{"SET", "k", `quo"te`}, `SET k "quo\"te"`},
		{[]string{"GET", "{1}"}, "GET {1}"},
	} {
		got := rediscli.ShowCommand(c.args)
		if got != c.want {
			t.Errorf("%q shown as %s, want %s", c.args, got, c.want)
		}
		back, err := rediscli.ParseCommand(got)
		if err != nil || !slices.Equal(back, c.args) {
			t.Errorf("%s reads back as %q (%v), want %q", got, back, err, c.args)
		}
	}
}

package i18n_test

import (
	"strings"
	"testing"

	"locklab/sim/luacheck"
	"locklab/web/i18n"
)

// TestScriptErrorText: every refusal code of the script checker reads as a
// sentence in both languages, with its position and nothing left unfilled.
func TestScriptErrorText(t *testing.T) {
	for _, code := range luacheck.Codes {
		for _, l := range i18n.Languages() {
			if l.UI.ScriptErrors[code] == "" {
				t.Errorf("%s: code %q: no sentence", l.Code, code)
			}
		}
		e := &luacheck.Error{Line: 3, Col: 7, Code: code, Arg: "X", Allowed: "KEYS[1], KEYS[2]"}
		en, ja := i18n.For("en").ScriptError(e), i18n.For("ja").ScriptError(e)
		if !strings.HasPrefix(en, "line 3, column 7: ") || !strings.HasPrefix(ja, "3 行 7 列目：") {
			t.Errorf("code %q: no position: %q / %q", code, en, ja)
		}
		if strings.ContainsAny(en+ja, "{}") && code != luacheck.CodeTable {
			t.Errorf("code %q: unfilled: %q / %q", code, en, ja)
		}
	}
	// every code's sentence, and the whole-table variant of an index
	if n := len(i18n.For("en").ScriptErrors); n != len(luacheck.Codes)+1 {
		t.Errorf("%d sentences for %d codes and the whole table", n, len(luacheck.Codes))
	}
	err := luacheck.Check("local x = 1\nwhile true do end", luacheck.Acquire).(*luacheck.Error)
	if got, want := i18n.For("en").ScriptError(err), "line 2, column 1: loops (while) are not allowed: the checker admits only scripts that plainly end, without having to run them"; got != want {
		t.Errorf("en: %q, want %q", got, want)
	}
	if got, want := i18n.For("ja").ScriptError(err), "2 行 1 列目：ループ（while）は使えません（チェッカーが受け付けるのは、実行しなくても必ず終わると分かるスクリプトだけです）"; got != want {
		t.Errorf("ja: %q, want %q", got, want)
	}
	err = luacheck.Check("return #KEYS", luacheck.Release).(*luacheck.Error)
	if got := i18n.For("en").ScriptError(err); !strings.Contains(got, "KEYS can be used only one element at a time") {
		t.Errorf("en, the table as a whole: %q", got)
	}
	err = luacheck.Check("return redis.call('DEL', KEYS[2])", luacheck.Release).(*luacheck.Error)
	if got := i18n.For("ja").ScriptError(err); !strings.Contains(got, "ここでは KEYS[2] は使えません（使えるのは KEYS[1] です）") {
		t.Errorf("ja index: %q", got)
	}
}

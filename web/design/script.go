// script.go says why the script checker (sim/luacheck) refused a
// learner's Lua script, with the catalog's line for each refusal code.

package design

import (
	"slices"
	"strconv"
	"strings"

	"locklab/sim/luacheck"
	"locklab/web/i18n"
)

// scriptCommands is the allow-list as the messages show it.
var scriptCommands = func() string {
	var names []string
	for name := range luacheck.Commands {
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}()

// scriptErrorText is the refusal as the design page shows it, in u's
// language: the catalog's ScriptErrors by code, placed by ScriptWhere.
func scriptErrorText(u *i18n.UI, err *luacheck.Error) string {
	msg, ok := u.ScriptErrors[err.Code]
	if !ok {
		msg = u.ScriptErrors[luacheck.CodeSyntax]
	}
	second := err.Allowed
	if err.Code == luacheck.CodeCommand {
		second = scriptCommands
	}
	second = strings.ReplaceAll(second, ", ", u.Language().ListSep)
	reason := i18n.Fill(msg, err.Arg, second)
	return i18n.Fill(u.ScriptWhere, strconv.Itoa(err.Line), strconv.Itoa(err.Col), reason)
}

package i18n

import (
	"slices"
	"strconv"
	"strings"

	"locklab/sim/luacheck"
)

// scriptCommands is the checker's allow-list as the messages show it.
var scriptCommands = func() string {
	names := make([]string, 0, len(luacheck.Commands))
	for name := range luacheck.Commands {
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}()

// ScriptError is the script checker's refusal in u's language: the
// catalog's ScriptErrors by code, placed by ScriptWhere. The design page
// and the command line say the same.
func (u *UI) ScriptError(err *luacheck.Error) string {
	msg, ok := u.ScriptErrors[err.Code]
	if w, whole := u.ScriptErrors[err.Code+"-whole"]; whole && (err.Arg == "KEYS" || err.Arg == "ARGV") {
		msg = w // the table itself (#KEYS, KEYS passed on), not one of its elements
	}
	if !ok {
		msg = u.ScriptErrors[luacheck.CodeSyntax]
	}
	second := err.Allowed
	if err.Code == luacheck.CodeCommand {
		second = scriptCommands
	}
	second = strings.ReplaceAll(second, ", ", u.Language().ListSep)
	reason := Fill(msg, err.Arg, second)
	return Fill(u.ScriptWhere, strconv.Itoa(err.Line), strconv.Itoa(err.Col), reason)
}

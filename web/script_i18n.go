// script_i18n.go holds, in both languages, why the script checker
// (sim/luacheck) refused a learner's Lua script: one line per refusal code.
package web

import (
	"slices"
	"strconv"
	"strings"

	"locklab/sim/luacheck"
)

// scriptErrors explain each refusal ({0}: the error's Arg, {1}: its
// Allowed, or for a command the allow-list). A new code needs its line
// here; TestScriptErrorText checks every code has both.
var scriptErrors = map[string][2]string{
	luacheck.CodeTooLong: {"the script passes the limit of 2048 bytes here (it is {0} bytes long)",
		"ここで上限の 2048 バイトを超えています（スクリプト全体で {0} バイト）"},
	luacheck.CodeUTF8: {"this is not valid UTF-8 text", "UTF-8 として正しくない文字があります"},
	luacheck.CodeNUL:  {"a NUL byte is not allowed anywhere in a script", "NUL 文字はスクリプトのどこにも使えません"},
	luacheck.CodeControl: {"the control character {0} is not allowed (tabs and line breaks are)",
		"制御文字 {0} は使えません（使えるのはタブと改行だけです）"},
	luacheck.CodeBidi: {"the bidirectional control {0} is not allowed, even in a comment: it makes code read differently from how it runs",
		"双方向制御文字 {0} は、コメントの中でも使えません（見た目と実際の動きが食い違うコードを書けてしまうためです）"},
	luacheck.CodeInvisible: {"the invisible character {0} is not allowed", "目に見えない文字 {0} は使えません"},
	luacheck.CodeSyntax:    {"this is not valid Lua (near “{0}”)", "Lua として読めません（「{0}」のあたり）"},
	luacheck.CodeSyntaxEnd: {"the script ends too early: an if, a do, a bracket or a string is not closed",
		"スクリプトが途中で終わっています（if・do・括弧・文字列のどれかが閉じていません）"},
	luacheck.CodeLoop: {"loops ({0}) are not allowed — a script must always end",
		"ループ（{0}）は使えません（スクリプトは必ず終わる必要があります）"},
	luacheck.CodeGoto: {"goto and labels are not allowed — a script must always end",
		"goto とラベルは使えません（スクリプトは必ず終わる必要があります）"},
	luacheck.CodeFunction: {"defining a function is not allowed — a script must always end",
		"関数は定義できません（スクリプトは必ず終わる必要があります）"},
	luacheck.CodeGlobal: {"{0} is not available: a script may use only KEYS, ARGV, redis.call, redis.pcall, tonumber, tostring and its own locals",
		"{0} は使えません。使えるのは KEYS、ARGV、redis.call、redis.pcall、tonumber、tostring と、自分で宣言した local 変数だけです"},
	luacheck.CodeField: {"{0} is not available: of redis, only redis.call and redis.pcall are",
		"{0} は使えません（redis のうち使えるのは redis.call と redis.pcall だけです）"},
	luacheck.CodeCall: {"{0} can only be called directly, as in redis.call('GET', KEYS[1]) or tonumber(ARGV[1])",
		"{0} は、redis.call('GET', KEYS[1]) や tonumber(ARGV[1]) のように、その場で呼び出す形でしか使えません"},
	luacheck.CodeMethod: {"method calls (:{0}) are not allowed", "メソッド呼び出し（:{0}）は使えません"},
	luacheck.CodeTable:  {"tables ({ … }) are not allowed", "テーブル（{ … }）は使えません"},
	luacheck.CodeVararg: {"... is not allowed: use KEYS[i] and ARGV[i]", "... は使えません。KEYS[i] と ARGV[i] を使ってください"},
	luacheck.CodeAssign: {"{0} cannot be assigned: only locals declared earlier (local x = …) can",
		"{0} には代入できません。代入できるのは、先に local で宣言した変数だけです"},
	luacheck.CodeShadow: {"a local cannot be named {0}: the script needs the real one",
		"local 変数に {0} という名前は付けられません（本来の {0} が使えなくなるためです）"},
	luacheck.CodeCommand: {"the command {0} is not allowed; a script may call {1}",
		"コマンド {0} は使えません。使えるのは {1} です"},
	luacheck.CodeCommandName: {"the command's name must be written out as a string, as in redis.call('GET', KEYS[1])",
		"コマンド名は redis.call('GET', KEYS[1]) のように、文字列でそのまま書いてください"},
	luacheck.CodeArgs: {"{0} is missing an argument or has one it does not take (options are written as strings, such as 'NX' or 'PX')",
		"{0} の引数が足りないか、使えない引数があります（オプションは 'NX' や 'PX' のように文字列で書きます）"},
	luacheck.CodeKey: {"the key of {0} must be written as KEYS[i] (or a local set to KEYS[i]): a script touches only the keys it is given",
		"{0} のキーは KEYS[i]（または KEYS[i] を入れた local 変数）で書いてください（スクリプトが触れてよいのは渡されたキーだけです）"},
	luacheck.CodeKeyAssign: {"{0} holds a key, so it cannot be assigned again",
		"{0} はキーを指しているので、あとから代入できません"},
	luacheck.CodeIndex: {"{0} is not given to this script: it has {1}",
		"{0} はこのスクリプトには渡されません（使えるのは {1} です）"},
	luacheck.CodeConcatBomb: {"this .. could build a string of {0} bytes (at most 4096): joining joined strings doubles them line by line",
		"この .. は最大 {0} バイトの文字列を作れてしまいます（上限は 4096 バイト）。連結した文字列をさらに連結すると、1 行ごとに倍になるためです"},
	luacheck.CodeConcatRedis: {"a value read from Redis cannot be joined with ..: stored back, it would grow on every run, without end",
		"Redis から読んだ値は .. で連結できません（書き戻すと実行のたびに大きくなり、際限がなくなるためです）"},
	luacheck.CodePcallArg: {"every argument of redis.pcall must be a string or a number for sure — KEYS[i], ARGV[i], a literal, arithmetic, tostring(…) — and this one may be nil, a boolean or a table (on those, miniredis and Redis disagree)",
		"redis.pcall の引数は、KEYS[i]・ARGV[i]・リテラル・計算結果・tostring(…) のように必ず文字列か数値になるものにしてください。この引数は nil・真偽値・テーブルになり得ます（その場合の動きが miniredis と Redis で違うためです）"},
	luacheck.CodeDepth: {"nested too deeply (at most 40 levels)", "入れ子が深すぎます（40 段まで）"},
}

// scriptWhere places a refusal: {0} line, {1} column, {2} the reason.
var scriptWhere = [2]string{"line {0}, column {1}: {2}", "{0} 行 {1} 列目：{2}"}

// scriptCommands is the allow-list as the messages show it.
var scriptCommands = func() string {
	var names []string
	for name := range luacheck.Commands {
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}()

// scriptErrorText is the refusal as the design page shows it, in lang.
func scriptErrorText(lang string, err *luacheck.Error) string {
	col := langEN
	if lang == "ja" {
		col = langJA
	}
	msg, ok := scriptErrors[err.Code]
	if !ok {
		msg = scriptErrors[luacheck.CodeSyntax]
	}
	second := err.Allowed
	if err.Code == luacheck.CodeCommand {
		second = scriptCommands
	}
	if col == langJA {
		second = strings.ReplaceAll(second, ", ", "、")
	}
	reason := fill(msg[col], err.Arg, second)
	return fill(scriptWhere[col], strconv.Itoa(err.Line), strconv.Itoa(err.Col), reason)
}

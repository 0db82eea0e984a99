package gocode

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"locklab/web/i18n"
)

// TestGoCommentsTranslated: every comment the Go programs say (their
// English is the key) has its line in every other language's catalog, so
// no Japanese page shows an English comment by accident.
func TestGoCommentsTranslated(t *testing.T) {
	keys := map[string]bool{}
	for _, file := range []string{"lab.go", "design.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "say" && len(call.Args) > 0 {
				lit, ok := call.Args[0].(*ast.BasicLit)
				if !ok {
					t.Errorf("%s: say's first argument is not a literal, so no catalog can hold it", file)
					return true
				}
				s, _ := strconv.Unquote(lit.Value)
				keys[s] = true
			}
			return true
		})
	}
	if len(keys) < 50 {
		t.Fatalf("only %d comments found", len(keys))
	}
	for _, l := range i18n.Languages() {
		if l.Code == i18n.Fallback {
			continue
		}
		for k := range keys {
			if _, ok := l.UI.GoComments[k]; !ok {
				t.Errorf("%s: no translation of the Go comment %q", l.Code, k)
			}
		}
	}
}

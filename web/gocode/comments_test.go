package gocode

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
	"text/template/parse"

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
	for _, tm := range designTemplate.Templates() {
		templateSays(t, tm.Name(), tm.Root, keys)
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

// templateSays adds to keys the comment of every say in a template
// (design.go.tmpl), which the Go parser above cannot see.
func templateSays(t *testing.T, name string, n parse.Node, keys map[string]bool) {
	t.Helper()
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		for _, x := range n.Nodes {
			templateSays(t, name, x, keys)
		}
	case *parse.ActionNode:
		templateSays(t, name, n.Pipe, keys)
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for _, x := range n.Cmds {
			templateSays(t, name, x, keys)
		}
	case *parse.CommandNode:
		if id, ok := n.Args[0].(*parse.IdentifierNode); ok && id.Ident == "say" {
			var lit *parse.StringNode
			if len(n.Args) > 1 {
				lit, _ = n.Args[1].(*parse.StringNode)
			}
			if lit == nil {
				t.Errorf("%s: say's first argument is not a literal, so no catalog can hold it", name)
			} else {
				keys[lit.Text] = true
			}
		}
		for _, x := range n.Args {
			templateSays(t, name, x, keys)
		}
	case *parse.IfNode:
		templateSays(t, name, n.Pipe, keys)
		templateSays(t, name, n.List, keys)
		templateSays(t, name, n.ElseList, keys)
	case *parse.RangeNode:
		templateSays(t, name, n.Pipe, keys)
		templateSays(t, name, n.List, keys)
		templateSays(t, name, n.ElseList, keys)
	case *parse.WithNode:
		templateSays(t, name, n.Pipe, keys)
		templateSays(t, name, n.List, keys)
		templateSays(t, name, n.ElseList, keys)
	case *parse.TemplateNode:
		templateSays(t, name, n.Pipe, keys)
	}
}

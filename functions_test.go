package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// longAllowed are the functions kept longer than maxFuncLines on purpose,
// each a data table or a parser switch whose doc comment says why: read
// top to bottom it is the list or the grammar, and cut into pieces it
// would be one the reader puts back together.
var longAllowed = map[string]bool{
	"sim/table.go init":         true, // the action table, an entry per verb and fault
	"sim/luacheck/walk.go stmt": true, // the Lua checker's statement walker
	"sim/luacheck/walk.go expr": true, // and its expression walker
}

// maxFuncLines is the most lines, from func to its closing brace, a
// hand-written function may have: what a reader can hold at once.
const maxFuncLines = 100

// TestFunctionLength: no hand-written function (generated templ code and
// tests aside) is longer than maxFuncLines but longAllowed's.
func TestFunctionLength(t *testing.T) {
	fset := token.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_templ.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n := fset.Position(fn.Body.Rbrace).Line - fset.Position(fn.Pos()).Line + 1
			key := filepath.ToSlash(path) + " " + fn.Name.Name
			if n > maxFuncLines {
				seen[key] = true
				if !longAllowed[key] {
					t.Errorf("%s:%d: %s has %d lines (at most %d): split it where a reader would", path, fset.Position(fn.Pos()).Line, fn.Name.Name, n, maxFuncLines)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key := range longAllowed {
		if !seen[key] {
			t.Errorf("%s is allowed to be long but is not (or is gone): take it off longAllowed", key)
		}
	}
}

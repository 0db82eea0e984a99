package web_test

import (
	"go/build"
	"locklab/web"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// The shape of the web layer, as the README's architecture section draws
// it: features talk through the lesson view API and web/links, never by
// importing each other; the leaf packages know nothing of HTTP; only the
// live class talks to Redis itself.
var (
	features = []string{"lesson", "lab", "design", "class", "end", "challenge"}
	// noHTTP import no net/http themselves (templ's runtime, which
	// picture uses to draw, does: that is templ's, not ours).
	noHTTP = []string{"i18n", "narrate", "picture", "gocode", "links"}
)

// TestPackageShape reads every package under web/ (not its tests) and
// checks the rules above, and that the route table stays small.
func TestPackageShape(t *testing.T) {
	imports := map[string][]string{} // "lesson" → its imports
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if strings.Contains(path, "testdata") || strings.HasPrefix(path, "internal") {
			return filepath.SkipDir // test data and test helpers
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			if _, ok := err.(*build.NoGoError); ok {
				return nil
			}
			return err
		}
		imports[filepath.ToSlash(path)] = p.Imports
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(append([]string{}, features...), noHTTP...) {
		if _, ok := imports[f]; !ok {
			t.Fatalf("no package web/%s", f)
		}
	}
	for pkg, imps := range imports {
		for _, imp := range imps {
			if strings.HasPrefix(imp, "github.com/redis/go-redis") && pkg != "class" {
				t.Errorf("web/%s imports %s: only web/class talks to Redis itself", pkg, imp)
			}
			if imp == "net/http" && slices.Contains(noHTTP, pkg) {
				t.Errorf("web/%s imports net/http", pkg)
			}
			other, ok := strings.CutPrefix(imp, "locklab/web/")
			if ok && slices.Contains(features, pkg) && slices.Contains(features, other) && other != "lesson" {
				t.Errorf("web/%s imports web/%s: features talk through the lesson view API and web/links", pkg, other)
			}
			if ok && slices.Contains(noHTTP, pkg) && slices.Contains(features, other) {
				t.Errorf("web/%s (a leaf) imports the feature web/%s", pkg, other)
			}
		}
	}
	if n := reflect.TypeFor[*web.Server]().NumMethod(); n > 15 {
		t.Errorf("*Server has %d methods; the route table should stay a table", n)
	}
}

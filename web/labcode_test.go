package web

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"locklab/lessons"
)

// TestLabCodeCompiles writes the Go code of every design a lesson's Lab
// can show into packages inside this module and runs go vet on them (vet
// type-checks, so it fails on anything that would not compile).
func TestLabCodeCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{} // code → a design that produced it
	for _, l := range course.List("en") {
		for _, o := range l.Scenario.AllOptions() {
			d, ok := designOf(l.Scenario, o)
			if !ok {
				continue
			}
			code := labCode(l.Scenario, d)
			if _, dup := seen[code]; !dup {
				seen[code] = l.Slug + "?opt=" + l.Scenario.FormatOptions(o)
			}
		}
	}
	if len(seen) < 15 {
		t.Fatalf("only %d distinct code samples: the generator ignores the design", len(seen))
	}
	dir, err := os.MkdirTemp("testdata", "labcode-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var pkgs []string
	i := 0
	for code, design := range seen {
		if _, err := parser.ParseFile(token.NewFileSet(), design, code, parser.ParseComments); err != nil {
			t.Errorf("%s: %v", design, err)
		}
		i++
		pkg := filepath.Join(dir, "v"+strconv.Itoa(i))
		if err := os.Mkdir(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "lock.go"), []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, "./"+filepath.ToSlash(pkg))
	}
	cmd := exec.Command("go", append([]string{"vet"}, pkgs...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the Lab's code failed: %v\n%s", err, out)
	}
	t.Logf("%d distinct designs compiled and vetted", len(seen))
}

package sim_test

import (
	"go/build"
	"slices"
	"strings"
	"testing"
)

// simRules are the directions imports run in under sim/: the core never
// imports the packages built on it, and the leaves know nothing of the
// simulator. Each package's doc comment says the same.
var simRules = map[string]struct{ mustNot []string }{
	".":          {mustNot: []string{"locklab/sim/explore", "locklab/sim/lockdesign", "locklab/sim/realredis", "locklab/sim/oracle", "locklab/sim/redistest", "locklab/web"}},
	"explore":    {mustNot: []string{"locklab/sim/lockdesign", "locklab/sim/realredis", "locklab/sim/oracle", "locklab/sim/redistest", "locklab/web"}},
	"rediscli":   {mustNot: []string{"locklab/"}},
	"luacheck":   {mustNot: []string{"locklab/"}},
	"luarun":     {mustNot: []string{"locklab/"}}, // but sim/luacheck
	"redisfront": {mustNot: []string{"locklab/"}}, // but sim/luarun (and through it sim/luacheck) and sim/rediscli
	"lockdesign": {mustNot: []string{"locklab/sim/realredis", "locklab/sim/oracle", "locklab/web"}},
	"realredis":  {mustNot: []string{"locklab/sim/lockdesign", "locklab/sim/oracle", "locklab/web"}},
	"oracle":     {mustNot: []string{"locklab/web"}},
	"redistest":  {mustNot: []string{"locklab/"}},
	"library":    {mustNot: []string{"locklab/"}},
}

// TestImportDirection reads each package under sim/ (not its tests) and
// holds it to simRules; no package under sim/ imports net/http.
func TestImportDirection(t *testing.T) {
	for dir, rule := range simRules {
		p, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, imp := range p.Imports {
			if imp == "net/http" || imp == "github.com/go-chi/chi/v5" || strings.HasPrefix(imp, "github.com/a-h/templ") {
				t.Errorf("sim/%s imports %s: the simulator knows nothing of HTTP or HTML", dir, imp)
			}
			for _, no := range rule.mustNot {
				if (imp == no || strings.HasPrefix(imp, no)) && !(dir == "luarun" && imp == "locklab/sim/luacheck") && !(dir == "redisfront" && (imp == "locklab/sim/luarun" || imp == "locklab/sim/rediscli")) {
					t.Errorf("sim/%s imports %s", dir, imp)
				}
			}
		}
		if dir == "." && !slices.Contains(p.Imports, "locklab/sim/rediscli") {
			t.Error("sim does not read replies through sim/rediscli: the rule above is stale")
		}
	}
}

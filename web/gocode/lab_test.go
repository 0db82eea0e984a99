package gocode

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/scanner"
	"go/token"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/mod/modfile"

	"locklab/lessons"
	"locklab/sim"
)

var labcodeDir = flag.String("labcode-dir", "", "build the Lab code harness in this directory and keep it, with the jobs it ran (jobs.json)")

// labDesign is one design a lesson's Lab can show: the lesson's scenario
// under one combination of its options, and the package its code is built
// into in the harness (one per client for a design whose state lives in
// the process: each server has its own mutex).
type labDesign struct {
	name string // slug?opt=…, for messages
	sc   *sim.Scenario
	opts sim.Opts
	d    LabDesign
	code string
	pkgs []string
}

// labDesigns is every design of every lesson that has go-redis code.
func labDesigns(t *testing.T) []*labDesign {
	t.Helper()
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out []*labDesign
	for _, l := range course.List("en") {
		for _, o := range l.Scenario.AllOptions() {
			d, ok := FromLab(l.Scenario, o)
			if !ok {
				continue
			}
			out = append(out, &labDesign{name: l.Slug + "?opt=" + l.Scenario.FormatOptions(o),
				sc: l.Scenario, opts: o, d: d, code: Lab(l.Scenario, d, "en")})
		}
	}
	return out
}

// TestLabCodeRuns builds the Go code of every design the Lab can show into
// one harness (web/gocode/testdata/labharness), runs it against miniredis on the
// virtual clock — alone through its Run, on every guided step's schedule
// of its lesson, and on random schedules of the simulator's allowed
// actions — and compares every command it sends (client, node, instant,
// arguments) with the simulator's events for the same schedule. A
// deliberately changed copy of one design must fail the same comparison.
func TestLabCodeRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a harness with the go command")
	}
	designs := labDesigns(t)
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := *labcodeDir
	if dir == "" {
		dir = t.TempDir()
	}
	h := &harness{dir: dir}
	byCode := map[string][]string{}
	distinct := 0
	for _, ld := range designs {
		n := 1
		if ld.d.Local {
			n = len(ld.sc.Clients)
		}
		if pkgs, ok := byCode[ld.code]; ok && len(pkgs) >= n {
			ld.pkgs = pkgs[:n]
			continue
		}
		distinct++
		for range n {
			byCode[ld.code] = append(byCode[ld.code], h.addPackage(t, ld.code, ld.d))
		}
		ld.pkgs = byCode[ld.code][:n]
	}
	if distinct < 15 {
		t.Fatalf("only %d distinct code samples: the generator ignores the design", distinct)
	}
	// The mutant: the flagship design with one command changed (SET … XX
	// instead of SET … NX). The comparison must notice.
	flagship := designs[slices.IndexFunc(designs, func(ld *labDesign) bool { return ld.name == "fencing?opt=" })]
	mutantCode := strings.Replace(flagship.code, `Mode: "NX"`, `Mode: "XX"`, 1)
	if mutantCode == flagship.code {
		t.Fatal("the mutation changed nothing: the flagship code no longer uses SetArgs with NX")
	}
	mutant := &labDesign{name: "mutant of " + flagship.name, sc: flagship.sc, opts: flagship.opts, d: flagship.d,
		code: mutantCode, pkgs: []string{h.addPackage(t, mutantCode, flagship.d)}}
	start := time.Now()
	bin := h.build(t)
	t.Logf("harness built in %v", time.Since(start).Round(time.Millisecond))
	start = time.Now()

	var jobs []harnessJob
	var expect [][]string
	owner := map[string]*labDesign{}
	for i, ld := range append(designs, mutant) {
		for j, as := range labSchedules(t, course, ld, uint64(i)) {
			id := fmt.Sprintf("%d/%d", i, j)
			tl, err := sim.Replay(ld.sc, ld.opts, as.actions)
			if err != nil {
				t.Fatalf("%s do=%s: %v", ld.name, sim.FormatActions(as.actions), err)
			}
			jobs = append(jobs, newJob(id, ld, as))
			expect = append(expect, normalize(simCommands(tl)))
			owner[id] = ld
		}
	}
	t.Logf("%d schedules replayed by the simulator in %v", len(jobs), time.Since(start).Round(time.Millisecond))
	start = time.Now()
	if *labcodeDir != "" {
		in, _ := json.MarshalIndent(jobs, "", " ")
		writeFile(t, filepath.Join(dir, "jobs.json"), string(in))
	}
	results := h.run(t, bin, jobs)
	t.Logf("… and run by the harness in %v", time.Since(start).Round(time.Millisecond))
	failed := map[*labDesign]int{}
	ran := 0
	for i, res := range results {
		ld, job := owner[res.ID], jobs[i]
		got := normalize(harnessCommands(res.Records))
		ok := res.Err == "" && slices.Equal(got, expect[i])
		ran += len(got)
		if ok {
			continue
		}
		failed[ld]++
		if ld == mutant || failed[ld] > 1 {
			continue // one report per design is enough to read
		}
		sched := "Run alone"
		if !job.Solo {
			sched = "do=" + job.Do
		}
		t.Errorf("%s, %s: the generated code does not send what the simulator sends%s\n%s",
			ld.name, sched, errText(res.Err), sideBySide(expect[i], got))
	}
	if failed[mutant] == 0 {
		t.Errorf("the mutant (SET … XX instead of NX) passed every schedule: the comparison cannot fail")
	}
	for ld, n := range failed {
		if ld != mutant {
			t.Logf("%s: %d schedules differ", ld.name, n)
		}
	}
	t.Logf("%d designs (%d distinct programs), %d schedules, %d commands compared; the mutant failed %d schedules",
		len(designs), distinct, len(jobs), ran, failed[mutant])
}

func errText(err string) string {
	if err == "" {
		return ""
	}
	return " (the harness: " + err + ")"
}

// TestLabCodeJapanese: the Japanese page shows the same program, every
// comment in Japanese.
func TestLabCodeJapanese(t *testing.T) {
	for _, ld := range labDesigns(t) {
		ja := Lab(ld.sc, ld.d, "ja")
		if !slices.Equal(goTokens(t, ld.code), goTokens(t, ja)) {
			t.Errorf("%s: the Japanese code is not the English code with other comments", ld.name)
		}
		f, err := parser.ParseFile(token.NewFileSet(), "lock.go", ja, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: %v", ld.name, err)
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if !hasJapanese(c.Text) {
					t.Errorf("%s: an English comment on the Japanese page: %s", ld.name, c.Text)
				}
			}
		}
	}
}

func hasJapanese(s string) bool {
	for _, r := range s {
		if r >= 0x3000 {
			return true
		}
	}
	return false
}

// goTokens is the source's tokens without its comments.
func goTokens(t *testing.T, src string) []string {
	t.Helper()
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("lock.go", -1, len(src)), []byte(src), func(pos token.Position, msg string) {
		t.Errorf("%s: %s", pos, msg)
	}, 0)
	var out []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // a comment at a line's end moves nothing else
		}
		out = append(out, tok.String()+" "+lit)
	}
}

// harness is the throwaway module the generated code is built in.
type harness struct {
	dir      string
	pkgs     []string // the designs' names
	adapters []string // their entries in the registry
}

// addPackage adds code to the harness's one package of designs, its
// top-level names prefixed (d07acquire…) so that every design fits in one
// package and one compile, its time calls turned to the virtual clock's,
// with an adapter to the driver's Program. It returns the design's name.
func (h *harness) addPackage(t *testing.T, code string, d LabDesign) string {
	t.Helper()
	name := fmt.Sprintf("d%02d", len(h.pkgs))
	h.pkgs = append(h.pkgs, name)
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "lock.go", code, parser.ParseComments)
	if err != nil {
		t.Fatalf("the generated code does not parse: %v\n%s", err, code)
	}
	top := map[string]bool{}
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			top[decl.Name.Name] = true
		case *ast.GenDecl:
			for _, spec := range decl.Specs {
				switch spec := spec.(type) {
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						top[n.Name] = true
					}
				case *ast.TypeSpec:
					top[spec.Name.Name] = true
				}
			}
		}
	}
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && x.Name == "time" &&
				slices.Contains([]string{"Sleep", "After", "Now", "Since"}, n.Sel.Name) {
				x.Name = "vtime"
			}
			if x, ok := n.X.(*ast.Ident); ok && x.Name == "os" && n.Sel.Name == "Hostname" {
				x.Name = "vtime" // each client's own host, as the simulator names it
				dropImport(f, "os")
			}
			ast.Inspect(n.X, visit) // a field or method name is not a top-level name
			return false
		case *ast.Ident:
			if top[n.Name] {
				n.Name = name + n.Name
			}
		}
		return true
	}
	ast.Inspect(f, visit)
	f.Name.Name = "designs"
	var src bytes.Buffer
	if err := format.Node(&src, fset, f); err != nil {
		t.Fatal(err)
	}
	write := `
	Write: func(ctx context.Context, _ []*redis.Client, store *redis.Client, _ string, token int64, who string) (bool, error) {
		return NNwrite(ctx, store, token, who)
	},`
	if d.Check {
		// Run's check, then the write, as one learner's write.
		write = `
	Write: func(ctx context.Context, lock []*redis.Client, store *redis.Client, value string, token int64, who string) (bool, error) {
		if mine, err := NNstillMine(ctx, lock[0], value); err != nil || !mine {
			return false, err
		}
		return NNwrite(ctx, store, token, who)
	},`
	}
	adapter := `
	Acquire: func(ctx context.Context, lock []*redis.Client) (string, int64, error) { return NNacquire(ctx, lock[0]) },` + write + `
	Release: func(ctx context.Context, lock []*redis.Client, value string) error { return NNrelease(ctx, lock[0], value) },
	Run: func(ctx context.Context, lock []*redis.Client, store *redis.Client, who string) error {
		return NNRun(ctx, lock[0], store, who)
	},`
	switch {
	case d.Local:
		adapter = `
	Reset:   func() { NNmu = sync.Mutex{} }, // each job starts with fresh processes
	Acquire: func(ctx context.Context, _ []*redis.Client) (string, int64, error) { return "", 0, NNacquire(ctx) },` + write + `
	Release: func(ctx context.Context, _ []*redis.Client, _ string) error { return NNrelease(ctx) },
	Run: func(ctx context.Context, _ []*redis.Client, store *redis.Client, who string) error {
		return NNRun(ctx, store, who)
	},`
	case d.Redlock:
		adapter = `
	Acquire: func(ctx context.Context, lock []*redis.Client) (string, int64, error) {
		v, _, err := NNacquire(ctx, lock)
		return v, 0, err
	},` + write + `
	Release: NNrelease,
	Run:     NNRun,`
	}
	writeFile(t, filepath.Join(h.dir, "designs", name+".go"), src.String())
	h.adapters = append(h.adapters, "\t"+strconv.Quote(name)+": {"+strings.ReplaceAll(adapter, "NN", name)+"\n\t},\n")
	return name
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// build writes the module around the packages (the same requirements as
// Lock Lab's, locklab itself replaced by this checkout, no network) and
// builds the harness once.
func (h *harness) build(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// golang.org/x/mod reads go.mod as the go command does (tool blocks
	// included); the harness keeps the requirements and drops the tools.
	mf, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range append([]*modfile.Tool(nil), mf.Tool...) {
		if err := mf.DropTool(tl.Path); err != nil {
			t.Fatal(err)
		}
	}
	if err := mf.AddModuleStmt("labharness"); err != nil {
		t.Fatal(err)
	}
	if err := mf.AddRequire("locklab", "v0.0.0-00010101000000-000000000000"); err != nil {
		t.Fatal(err)
	}
	if err := mf.AddReplace("locklab", "", root, ""); err != nil {
		t.Fatal(err)
	}
	out, err := mf.Format()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(h.dir, "go.mod"), string(out))
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(h.dir, "go.sum"), string(gosum))
	driver, err := os.ReadFile(filepath.Join("testdata", "labharness", "driver.go"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(h.dir, "driver", "driver.go"), string(driver))
	writeFile(t, filepath.Join(h.dir, "designs", "registry.go"), `package designs

import (
	"context"
	"sync"

	"github.com/redis/go-redis/v9"

	"labharness/driver"
)

var vtime driver.Clock

var _ sync.Mutex

// Programs are the designs, as the driver runs them.
var Programs = map[string]driver.Program{
`+strings.Join(h.adapters, "")+"}\n")
	writeFile(t, filepath.Join(h.dir, "main.go"), `package main

import (
	"labharness/designs"
	"labharness/driver"
)

func main() { driver.Main(designs.Programs) }
`)
	bin := filepath.Join(h.dir, "harness")
	// -trimpath: the harness is written to a new temporary directory each
	// time, and without it that directory is part of its packages'
	// build-cache keys: they were compiled and linked afresh on every run
	// (about 5 s of two cores; with it, a second run takes 2 s)
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".")
	cmd.Dir = h.dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the Lab's code does not build: %v\n%s", err, out)
	}
	vet := exec.Command("go", "vet", "-trimpath", "./...")
	vet.Dir, vet.Env = h.dir, cmd.Env
	if out, err := vet.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the Lab's code: %v\n%s", err, out)
	}
	return bin
}

// harnessJob mirrors the driver's Job.
type harnessJob struct {
	ID           string            `json:"id"`
	Programs     []string          `json:"programs"`
	Clients      []string          `json:"clients"`
	Nodes        []string          `json:"nodes"`
	Redlock      bool              `json:"redlock"`
	Replicated   bool              `json:"replicated"`
	PersistNone  bool              `json:"persistNone"`
	LockKey      string            `json:"lockKey"`
	FenceKey     string            `json:"fenceKey"`
	EpochMs      int64             `json:"epochMs"`
	Work         int64             `json:"work"`
	YieldAcquire bool              `json:"yieldAcquire"`
	YieldRelease bool              `json:"yieldRelease"`
	YieldWrite   int               `json:"yieldWrite"`
	Hosts        map[string]string `json:"hosts"`
	Solo         bool              `json:"solo"`
	Actions      []harnessAction   `json:"actions"`
	Do           string            `json:"-"`
}

type harnessAction struct {
	Who  string `json:"who"`
	Verb string `json:"verb"`
	Ms   int64  `json:"ms,omitempty"`
	Node bool   `json:"node,omitempty"`
}

type harnessRecord struct {
	Client   string   `json:"client"`
	Node     string   `json:"node"`
	Args     []string `json:"args"`
	At       int64    `json:"at"`
	Refused  bool     `json:"refused"`
	NoScript bool     `json:"noscript"`
}

type harnessResult struct {
	ID      string          `json:"id"`
	Records []harnessRecord `json:"records"`
	Err     string          `json:"err"`
}

// schedule is one schedule to run a design on: the learner's actions, or
// (solo) the first client's Run alone, compared with acquire, write,
// release.
type schedule struct {
	actions []sim.Action
	solo    bool
}

func newJob(id string, ld *labDesign, s schedule) harnessJob {
	sc := ld.sc
	j := harnessJob{ID: id, Clients: sc.Clients, Nodes: sc.Nodes, Redlock: sc.Redlock, Replicated: sc.Replicated,
		PersistNone: ld.opts[sim.OptPersist] == sim.PersistNone, LockKey: sc.LockKey(), FenceKey: sc.FenceKey(),
		EpochMs: sim.EpochMs, Work: sc.WorkMs(ld.opts), Solo: s.solo, Do: sim.FormatActions(s.actions),
		// Where the lesson's program stops between two commands (`next`).
		YieldAcquire: !ld.d.Redlock && (ld.d.Acquire == sim.AcquireGetSet || (ld.d.Acquire == sim.AcquireSetNX && ld.d.TTL)),
		YieldRelease: !ld.d.Redlock && ld.d.Release == sim.ReleaseGetDel,
		// … and between a "still mine?" check and the write, and between a
		// two-command storage check's GET and MSET.
		YieldWrite: btoi(ld.d.Check) + btoi(ld.d.TwoStep),
		Hosts:      map[string]string{},
	}
	for _, id := range sc.Clients {
		j.Hosts[id] = sc.Host(id)
	}
	if len(j.Nodes) == 0 {
		j.Nodes = []string{"redis"}
	}
	for i := range sc.Clients {
		if len(ld.pkgs) > 0 {
			j.Programs = append(j.Programs, ld.pkgs[i%len(ld.pkgs)])
		}
	}
	for _, a := range s.actions {
		j.Actions = append(j.Actions, harnessAction{Who: a.Who, Verb: a.Verb, Ms: a.Ms, Node: a.Doer() == sim.ToNode})
	}
	return j
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// dropImport takes an import out of f once the rewriting above left it
// unused (os, once os.Hostname is the driver's).
func dropImport(f *ast.File, path string) {
	for _, decl := range f.Decls {
		if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			g.Specs = slices.DeleteFunc(g.Specs, func(s ast.Spec) bool {
				return s.(*ast.ImportSpec).Path.Value == strconv.Quote(path)
			})
		}
	}
	f.Imports = slices.DeleteFunc(f.Imports, func(s *ast.ImportSpec) bool { return s.Path.Value == strconv.Quote(path) })
}

// unrunnable verbs have no function in the Lab's program (extend, ttl: a
// question the learner asks, not a step of the program) or no
// go-redis code at all (the coordination service's).
var unrunnable = []string{sim.VerbExtend, sim.VerbDisconnect, sim.VerbReconnect, sim.VerbTTL}

// labSchedules: Run alone; every guided step's schedule of the design's
// lesson that the simulator accepts under this design; and random walks
// over the actions the simulator allows, seeded per design.
func labSchedules(t *testing.T, course *lessons.Catalog, ld *labDesign, seed uint64) []schedule {
	t.Helper()
	// Run goes straight on where the learner's program stops for `next`.
	a := ld.sc.Clients[0]
	j := newJob("", ld, schedule{})
	act := func(v string) sim.Action { return sim.Action{Who: a, Verb: v} }
	solo := []sim.Action{act(sim.VerbAcquire)}
	if j.YieldAcquire {
		solo = append(solo, act(sim.VerbNext))
	}
	solo = append(solo, act(sim.VerbWrite))
	for range j.YieldWrite {
		solo = append(solo, act(sim.VerbNext))
	}
	solo = append(solo, act(sim.VerbRelease))
	if j.YieldRelease {
		solo = append(solo, act(sim.VerbNext))
	}
	out := []schedule{{solo: true, actions: solo}}
	seen := map[string]bool{}
	add := func(as []sim.Action) {
		key := sim.FormatActions(as)
		if seen[key] || len(as) == 0 {
			return
		}
		for _, a := range as {
			if slices.Contains(unrunnable, a.Verb) {
				return
			}
		}
		if _, err := sim.Replay(ld.sc, ld.opts, as); err != nil {
			return // a step of another variant (a `next` this design never stops for)
		}
		seen[key] = true
		out = append(out, schedule{actions: as})
	}
	for _, l := range course.List("en") {
		if l.Scenario.ID != ld.sc.ID {
			continue
		}
		for _, st := range l.Steps {
			as, err := sim.ParseActions(st.Do)
			if err != nil {
				t.Fatal(err)
			}
			add(as)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x1abc0de))
	for range 5 {
		add(randomWalk(t, ld, rng, 12))
	}
	return out
}

// randomWalk picks up to n actions, each one the simulator allows at that
// point.
func randomWalk(t *testing.T, ld *labDesign, rng *rand.Rand, n int) []sim.Action {
	t.Helper()
	var as []sim.Action
	for len(as) < n {
		tl, err := sim.Replay(ld.sc, ld.opts, as)
		if err != nil {
			t.Fatalf("%s do=%s: %v", ld.name, sim.FormatActions(as), err)
		}
		choices := []sim.Action{{Verb: sim.VerbWait, Ms: 500}, {Verb: sim.VerbWait, Ms: 1000},
			{Verb: sim.VerbWait, Ms: 3000}, {Verb: sim.VerbWait, Ms: 10_000}}
		for _, c := range tl.Clients {
			for _, v := range tl.Allowed[c.ID] {
				if !slices.Contains(unrunnable, v) {
					choices = append(choices, sim.Action{Who: c.ID, Verb: v})
				}
			}
		}
		for _, nv := range tl.Nodes {
			for _, v := range tl.NodeAllowed[nv.Name] {
				a := sim.Action{Who: nv.Name, Verb: v}
				if s, _ := sim.Spec(v); s.Arg == sim.ArgDuration {
					a.Ms = []int64{1000, 4000, 10_000}[rng.IntN(3)]
				}
				choices = append(choices, a)
			}
		}
		a := choices[rng.IntN(len(choices))]
		if _, err := sim.Replay(ld.sc, ld.opts, append(as, a)); err != nil {
			continue // allowed but beyond a limit
		}
		as = append(as, a)
	}
	return as
}

func (h *harness) run(t *testing.T, bin string, jobs []harnessJob) []harnessResult {
	t.Helper()
	in, err := json.Marshal(jobs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the harness failed: %v\n%s", err, stderr.Bytes())
	}
	var res []harnessResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatal(err)
	}
	if len(res) != len(jobs) {
		t.Fatalf("the harness answered %d jobs of %d", len(res), len(jobs))
	}
	return res
}

// command is one command sent, as both sides describe it.
type command struct {
	client, node string
	at           int64
	args         []string
	refused      bool
}

// simCommands are the commands the simulated clients sent (the
// replication link's are the model's, not a program's).
func simCommands(tl *sim.Timeline) []command {
	var out []command
	for _, ev := range tl.Events {
		if ev.Kind != sim.KindCommand || !slices.Contains(tl.Scenario.Clients, ev.Actor) {
			continue
		}
		out = append(out, command{client: ev.Actor, node: ev.Node, at: ev.At, args: ev.Command, refused: ev.Refused})
	}
	return out
}

// scriptBySHA lets EVALSHA name the script it runs.
var scriptBySHA = func() map[string]string {
	m := map[string]string{}
	for _, s := range sim.Scripts {
		sum := sha1.Sum([]byte(s))
		m[hex.EncodeToString(sum[:])] = s
	}
	return m
}()

// harnessCommands: go-redis runs a script as EVALSHA first and, on
// NOSCRIPT, sends EVAL; the server runs the same script either way, so
// the NOSCRIPT round trip is left out and EVALSHA counts as EVAL.
func harnessCommands(recs []harnessRecord) []command {
	var out []command
	for _, r := range recs {
		if r.NoScript {
			continue
		}
		args := slices.Clone(r.Args)
		if strings.EqualFold(args[0], "evalsha") && len(args) > 1 {
			if s, ok := scriptBySHA[args[1]]; ok {
				args[0], args[1] = "EVAL", s
			}
		}
		out = append(out, command{client: r.Client, node: r.Node, at: r.At, args: args, refused: r.Refused})
	}
	return out
}

// lockValue is a lock value: 10 random bytes in the simulator, 20 in the
// generated code, hex encoded.
var lockValue = regexp.MustCompile(`^(?:[0-9a-f]{20}|[0-9a-f]{40})$`)

// normalize renders commands for comparison: command names and SET's
// options in one case and order, a TTL of EX s as PX ms (go-redis writes
// whole seconds as EX), scripts by name, and each lock value as $1, $2…
// in order of first appearance.
func normalize(cmds []command) []string {
	values := map[string]string{}
	scriptName := map[string]string{}
	for name, s := range sim.Scripts {
		scriptName[s] = "‹" + name + "›"
	}
	var out []string
	for _, c := range cmds {
		args := slices.Clone(c.args)
		args[0] = strings.ToUpper(args[0])
		if args[0] == "SET" && len(args) > 3 {
			args = append(args[:3], setOptions(args[3:])...)
		}
		if args[0] == "DELEX" && len(args) > 2 {
			args[2] = strings.ToUpper(args[2])
		}
		for i, a := range args {
			if n, ok := scriptName[a]; ok {
				args[i] = n
				continue
			}
			if lockValue.MatchString(a) {
				if _, ok := values[a]; !ok {
					values[a] = "$" + strconv.Itoa(len(values)+1)
				}
				args[i] = values[a]
			}
			if strings.ContainsAny(args[i], " \n") || args[i] == "" {
				args[i] = strconv.Quote(args[i])
			}
		}
		line := fmt.Sprintf("%8s %s→%s %s", sim.FormatMS(c.at), c.client, c.node, strings.Join(args, " "))
		if c.refused {
			line += " (refused)"
		}
		out = append(out, line)
	}
	return out
}

// setOptions puts SET's options in one order: NX/XX, then the expiry.
func setOptions(opts []string) []string {
	var cond, exp []string
	for i := 0; i < len(opts); i++ {
		switch o := strings.ToUpper(opts[i]); o {
		case "NX", "XX", "GET", "KEEPTTL":
			cond = append(cond, o)
		case "EX", "PX", "EXAT", "PXAT":
			if i+1 >= len(opts) {
				return append(cond, opts[i:]...)
			}
			v := opts[i+1]
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && (o == "EX" || o == "EXAT") {
				v, o = strconv.FormatInt(n*1000, 10), "P"+o[1:]
			}
			exp = append(exp, o, v)
			i++
		default:
			cond = append(cond, opts[i])
		}
	}
	return append(cond, exp...)
}

// sideBySide shows the two command lists, the first difference marked.
func sideBySide(want, got []string) string {
	var b strings.Builder
	first := -1
	for i := 0; i < max(len(want), len(got)); i++ {
		if i >= len(want) || i >= len(got) || want[i] != got[i] {
			first = i
			break
		}
	}
	line := func(xs []string, i int) string {
		if i < len(xs) {
			return xs[i]
		}
		return "—"
	}
	b.WriteString("  simulator | generated code\n")
	for i := 0; i < max(len(want), len(got)); i++ {
		mark := "  "
		if i == first {
			mark = "▶ "
		}
		w, g := line(want, i), line(got, i)
		if w == g {
			fmt.Fprintf(&b, "%s%s\n", mark, truncate(w))
		} else {
			fmt.Fprintf(&b, "%s%s\n%s  | %s\n", mark, truncate(w), strings.Repeat(" ", len(mark)), truncate(g))
		}
	}
	return b.String()
}

func truncate(s string) string {
	if utf8.RuneCountInString(s) > 140 {
		return string([]rune(s)[:140]) + "…"
	}
	return s
}

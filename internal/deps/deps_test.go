package deps

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A rule says which packages (from, but not except) must not import
// which (not, but not allow). Patterns are module-relative ("study",
// "tui/..." for tui and every package below it, "..." for every package
// of the module, "." for the root) or import paths outside the module
// ("github.com/charmbracelet/lipgloss", "github.com/charmbracelet/bubbles/...").
// A deep rule follows imports through every package in between; a direct
// one reads only a package's own imports, its tests' included.
type rule struct {
	name         string
	from, except []string
	not, allow   []string
	deep         bool
	// code: the rule is about the package's own code; its tests may
	// import what it may not (a test opens a recording itself)
	code bool
}

// rules are the house's (docs/dev/codebase.md draws them).
var rules = []rule{
	{
		name:   "only the front ends draw: nothing but tui/, cli/ and main depends on bubbletea, bubbles or lipgloss",
		from:   []string{"..."},
		except: []string{".", "cli/...", "tui/..."},
		not:    []string{"github.com/charmbracelet/bubbletea/...", "github.com/charmbracelet/bubbles/...", "github.com/charmbracelet/lipgloss/..."},
		deep:   true,
	},
	{
		name:   "advise/ is imported only by cli/ and tui/",
		from:   []string{"..."},
		except: []string{"advise/...", "cli/...", "tui/..."},
		not:    []string{"advise/..."},
	},
	{
		name:   "compare/ (two recordings lined up) is imported only by cli/ and tui/",
		from:   []string{"..."},
		except: []string{"compare/...", "cli/...", "tui/..."},
		not:    []string{"compare/..."},
	},
	{
		name: "study/ never depends on advise/, compare/, cli/ or tui/",
		from: []string{"study/..."},
		not:  []string{"advise/...", "compare/...", "cli/...", "tui/..."},
		deep: true,
	},
	{
		name: "compare/ stands on study/ and never depends on advise/, cli/ or tui/",
		from: []string{"compare/..."},
		not:  []string{"advise/...", "cli/...", "tui/..."},
		deep: true,
	},
	{
		name: "the rules and the inputs (window, lineage, provenance, evidence, loader, export) never depend on study/ or what is above it",
		from: []string{"window/...", "lineage/...", "provenance/...", "evidence/...", "loader/...", "export/..."},
		not:  []string{"study/...", "advise/...", "compare/...", "cli/...", "tui/..."},
		deep: true,
	},
	{
		name: "model/, toolbytes/ and termtext/ import no package of the module",
		from: []string{"model/...", "toolbytes/...", "termtext/..."},
		not:  []string{"..."},
	},
	{
		name:  "pinning/ imports no package of the module but model/",
		from:  []string{"pinning/..."},
		not:   []string{"..."},
		allow: []string{"model/..."},
	},
	{
		name:   "the UI's rooms below tui/ never import the root (it is the one that puts them together)",
		from:   []string{"tui/..."},
		except: []string{"tui"},
		not:    []string{"tui"},
	},
	{
		name: "tui/theme/ and tui/keys/ are the UI's leaves: they import no other package of tui/",
		from: []string{"tui/theme/...", "tui/keys/..."},
		not:  []string{"tui/..."},
	},
	{
		name: "tui/present/ is words and lines: it imports no bubbletea or bubbles, no session, common or component, and asks neither study/ nor advise/ nor compare/",
		from: []string{"tui/present/..."},
		not: []string{"github.com/charmbracelet/bubbletea/...", "github.com/charmbracelet/bubbles/...",
			"tui/session/...", "tui/common/...", "tui/components/...", "study/...", "advise/...", "compare/..."},
	},
	{
		name:  "a component (tui/components/X) imports only common, session, present, theme and keys of tui/: never another component",
		from:  []string{"tui/components/..."},
		not:   []string{"tui/..."},
		allow: []string{"tui/common/...", "tui/session/...", "tui/present/...", "tui/theme/...", "tui/keys/..."},
	},
	{
		name:   "only the root of tui/ imports the components",
		from:   []string{"..."},
		except: []string{"tui", "tui/components/..."},
		not:    []string{"tui/components/..."},
	},
	{
		name: "tui/common/ imports no component",
		from: []string{"tui/common/..."},
		not:  []string{"tui/components/..."},
	},
	{
		name:   "inside tui/, only tui/session/ asks study/, advise/ and compare/: the rooms above read its answers",
		from:   []string{"tui/..."},
		except: []string{"tui/session/..."},
		not:    []string{"study/...", "advise/...", "compare/..."},
		code:   true,
	},
	{
		name:  "tui/external/ is what leaves the program (pager, editor, clipboard): of tui/ it imports only present and theme",
		from:  []string{"tui/external/..."},
		not:   []string{"tui/..."},
		allow: []string{"tui/present/...", "tui/theme/..."},
	},
	{
		name: "tui/session/ draws nothing: no lipgloss, theme, present or keys, no common or component",
		from: []string{"tui/session/..."},
		not: []string{"github.com/charmbracelet/lipgloss/...", "tui/theme/...", "tui/present/...", "tui/keys/...",
			"tui/common/...", "tui/components/..."},
	},
}

// pkg is what the rules read of one package from go list.
type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Module       *struct {
		Path string
		Main bool
	}
}

// graph is the packages go list lists, by import path, and the module's
// own path.
type graph struct {
	module string
	pkgs   map[string]*pkg
}

// The house's import rules hold on the module as it is.
func TestImportRules(t *testing.T) {
	g := load(t)
	if len(g.own()) < 15 {
		t.Fatalf("go list gave %d packages of %s: the rules would prove little", len(g.own()), g.module)
	}
	for _, v := range check(g, rules) {
		t.Error(v)
	}
}

// Each rule, broken once in a small made-up module, is reported, and the
// same module unbroken reports nothing: the check can fail.
func TestEachBrokenRuleIsReported(t *testing.T) {
	const m = "example.com/m"
	clean := map[string][]string{
		"":                 {"cli"},
		"cli":              {"advise", "compare", "tui", "study", "github.com/charmbracelet/lipgloss"},
		"tui":              {"github.com/charmbracelet/bubbletea", "tui/components/a", "tui/components/b", "tui/common", "tui/session", "tui/present", "tui/theme", "tui/keys", "tui/external"},
		"tui/external":     {"tui/present", "tui/theme", "termtext"},
		"tui/components/a": {"tui/common", "tui/session", "tui/present", "tui/theme", "tui/keys", "github.com/charmbracelet/bubbletea"},
		"tui/components/b": {"tui/common", "github.com/charmbracelet/lipgloss"},
		"tui/common":       {"tui/session", "tui/present", "tui/theme", "tui/keys"},
		"tui/session":      {"study", "advise", "compare", "github.com/charmbracelet/bubbletea"},
		"tui/present":      {"tui/theme", "model"},
		"tui/theme":        {"github.com/charmbracelet/lipgloss"},
		"tui/keys":         {"github.com/charmbracelet/bubbles/key"},
		"advise":           {"study"},
		"compare":          {"study"},
		"study":            {"window", "model"},
		"window":           {"pinning", "model"},
		"export":           {"provenance", "model", "termtext"},
		"provenance":       {"window", "model"},
		"pinning":          {"model"},
		"model":            nil,
		"termtext":         {"github.com/charmbracelet/x/ansi"},
	}
	breaks := map[string][2]string{ // rule name's start → an import that breaks it (from, to)
		"only the front ends draw":       {"window", "github.com/charmbracelet/bubbles/key"},
		"advise/ is imported only":       {"export", "advise"},
		"study/ never depends":           {"study", "compare"},
		"compare/ (two recordings":       {"advise", "compare"},
		"compare/ stands on study/":      {"compare", "cli"},
		"the rules and the inputs":       {"provenance", "compare"},
		"model/, toolbytes/":             {"model", "pinning"},
		"pinning/ imports no package ":   {"pinning", "window"},
		"the UI's rooms below tui/":      {"tui/present", "tui"},
		"tui/theme/ and tui/keys/":       {"tui/keys", "tui/theme"},
		"tui/present/ is words":          {"tui/present", "github.com/charmbracelet/bubbletea"},
		"a component (tui/components/X)": {"tui/components/a", "tui/components/b"},
		"only the root of tui/ imports":  {"tui/session", "tui/components/a"},
		"tui/common/ imports no":         {"tui/common", "tui/components/b"},
		"tui/session/ draws nothing":     {"tui/session", "tui/theme"},
		"inside tui/, only tui/session/": {"tui/components/a", "advise"},
		"tui/external/ is what leaves":   {"tui/external", "tui/common"},
	}
	if vs := check(made(m, clean, nil), rules); len(vs) != 0 {
		t.Fatalf("the clean module breaks a rule:\n%s", strings.Join(vs, "\n"))
	}
	for _, r := range rules {
		var br [2]string
		for start, b := range breaks {
			if strings.HasPrefix(r.name, start) {
				br = b
			}
		}
		if br[0] == "" {
			t.Errorf("no broken module for rule %q", r.name)
			continue
		}
		vs := check(made(m, clean, map[string]string{br[0]: br[1]}), []rule{r})
		if len(vs) == 0 {
			t.Errorf("rule %q: %s importing %s is not reported", r.name, br[0], br[1])
		}
	}
	// a deep rule follows an import through a package outside the module
	deep := made(m, clean, map[string]string{"window": "github.com/x/chart"})
	deep.pkgs["github.com/x/chart"] = &pkg{ImportPath: "github.com/x/chart", Imports: []string{"github.com/charmbracelet/lipgloss"}}
	vs := check(deep, rules[:1])
	want := []string{ // every package that depends on window, each by its shortest chain
		"advise → study → window → github.com/x/chart → github.com/charmbracelet/lipgloss",
		"compare → study → window → github.com/x/chart → github.com/charmbracelet/lipgloss",
		"export → provenance → window → github.com/x/chart → github.com/charmbracelet/lipgloss",
		"provenance → window → github.com/x/chart → github.com/charmbracelet/lipgloss",
		"study → window → github.com/x/chart → github.com/charmbracelet/lipgloss",
		"window → github.com/x/chart → github.com/charmbracelet/lipgloss",
	}
	for i := range vs {
		vs[i] = vs[i][strings.LastIndex(vs[i], ": ")+2:]
	}
	if !slices.Equal(vs, want) {
		t.Errorf("the chains through another module:\n%s\nwant\n%s", strings.Join(vs, "\n"), strings.Join(want, "\n"))
	}
}

// made is a module m of the packages (module-relative path → its
// imports, each module-relative or a path outside), with one more import
// added to each package of extra.
func made(m string, pkgs map[string][]string, extra map[string]string) *graph {
	abs := func(p string) string {
		switch {
		case p == "":
			return m
		case strings.Contains(strings.SplitN(p, "/", 2)[0], "."):
			return p
		}
		return m + "/" + p
	}
	g := &graph{module: m, pkgs: map[string]*pkg{}}
	for p, imps := range pkgs {
		if e, ok := extra[p]; ok {
			imps = append(slices.Clip(imps), e)
		}
		q := &pkg{ImportPath: abs(p), Module: &struct {
			Path string
			Main bool
		}{m, true}}
		for _, i := range imps {
			q.Imports = append(q.Imports, abs(i))
			if _, ok := pkgs[i]; !ok && g.pkgs[abs(i)] == nil {
				g.pkgs[abs(i)] = &pkg{ImportPath: abs(i)}
			}
		}
		g.pkgs[q.ImportPath] = q
	}
	return g
}

// load is the module's packages and every package they depend on, as
// go list -deps -json lists them, run at the module's root.
func load(t *testing.T) *graph {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command on PATH to list the packages with: %v", err)
	}
	root, err := exec.Command(goBin, "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	dir := filepath.Dir(strings.TrimSpace(string(root)))
	watch(t, dir)
	cmd := exec.Command(goBin, "list", "-deps", "-test=false", "-json", "./...")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	g := &graph{pkgs: map[string]*pkg{}}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		p := new(pkg)
		if err := dec.Decode(p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list's output: %v", err)
		}
		g.pkgs[p.ImportPath] = p
		if p.Module != nil && p.Module.Main {
			g.module = p.Module.Path
		}
	}
	if g.module == "" {
		t.Fatal("go list named no main module")
	}
	return g
}

// watch looks at every folder and Go file of the module (and go.mod):
// go test keeps a test's result until a file the test looked at changes,
// and it does not see what go list reads; without this, an import added
// elsewhere would leave the last result standing.
func watch(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata"):
			return filepath.SkipDir
		case !d.IsDir() && (strings.HasSuffix(path, ".go") || d.Name() == "go.mod"):
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// own are the module's packages, sorted.
func (g *graph) own() []string {
	var out []string
	for path, p := range g.pkgs {
		if p.Module != nil && p.Module.Main {
			out = append(out, path)
		}
	}
	slices.Sort(out)
	return out
}

// matches reports whether import path p is one of the patterns.
func (g *graph) matches(p string, patterns []string) bool {
	for _, pat := range patterns {
		abs := pat
		switch {
		case pat == ".":
			abs = g.module
		case pat == "...":
			abs = g.module + "/..."
			if p == g.module {
				return true
			}
		case !strings.Contains(strings.SplitN(pat, "/", 2)[0], "."):
			abs = g.module + "/" + pat
		}
		if base, ok := strings.CutSuffix(abs, "/..."); ok {
			if p == base || strings.HasPrefix(p, base+"/") {
				return true
			}
		} else if p == abs {
			return true
		}
	}
	return false
}

// direct are a package's own imports, its tests' included, but itself.
func (g *graph) direct(p *pkg) []string {
	var out []string
	for _, i := range slices.Concat(p.Imports, p.TestImports, p.XTestImports) {
		if i != p.ImportPath && !slices.Contains(out, i) {
			out = append(out, i)
		}
	}
	return out
}

// check is every broken rule, one line per package and import it
// forbids, with the chain of imports that reaches it for a deep rule.
func check(g *graph, rs []rule) []string {
	var out []string
	for _, r := range rs {
		for _, from := range g.own() {
			if !g.matches(from, r.from) || g.matches(from, r.except) {
				continue
			}
			forbidden := func(to string) bool {
				return to != from && g.matches(to, r.not) && !g.matches(to, r.allow)
			}
			if !r.deep {
				imps := g.direct(g.pkgs[from])
				if r.code {
					imps = g.pkgs[from].Imports
				}
				for _, to := range imps {
					if forbidden(to) {
						out = append(out, r.name+": "+g.short(from)+" imports "+g.short(to))
					}
				}
				continue
			}
			for _, chain := range g.reach(from, forbidden) {
				out = append(out, r.name+": "+strings.Join(chain, " → "))
			}
		}
	}
	return out
}

// reach is, for each package that from depends on and forbidden names,
// the shortest chain of imports from from to it (breadth first; from's
// tests' own imports included, its dependencies' tests not).
func (g *graph) reach(from string, forbidden func(string) bool) [][]string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	var found []string
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		var next []string
		if q := g.pkgs[p]; q != nil && p == from {
			next = g.direct(q)
		} else if q != nil {
			next = q.Imports
		}
		for _, i := range next {
			if _, seen := prev[i]; seen {
				continue
			}
			prev[i] = p
			if forbidden(i) {
				found = append(found, i)
				continue // its own imports are its rule's business
			}
			queue = append(queue, i)
		}
	}
	var out [][]string
	for _, f := range found {
		var chain []string
		for p := f; p != ""; p = prev[p] {
			chain = append([]string{g.short(p)}, chain...)
		}
		out = append(out, chain)
	}
	return out
}

// short is p without the module's path (the root as ".").
func (g *graph) short(p string) string {
	if p == g.module {
		return "."
	}
	if s, ok := strings.CutPrefix(p, g.module+"/"); ok {
		return s
	}
	return p
}

package rulesdoc

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository's top, two folders up from this package.
const root = "../.."

// named is a page's name of the code: `window.planRemoval`,
// `window.Visit.drop`, `evidence.TestJudge`.
var named = regexp.MustCompile("`([a-z]+)\\.([A-Za-z_]\\w*)(?:\\.([A-Za-z_]\\w*))?`")

// decls are the names a package declares (tests included): functions,
// types, variables and constants, and methods as "Type.Method".
func decls(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	out := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) == 1 {
					typ := d.Recv.List[0].Type
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					}
					if g, ok := typ.(*ast.IndexExpr); ok {
						typ = g.X
					}
					if id, ok := typ.(*ast.Ident); ok {
						name = id.Name + "." + name
					}
				}
				out[name] = true
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						out[s.Name.Name] = true
					case *ast.ValueSpec:
						for _, n := range s.Names {
							out[n.Name] = true
						}
					}
				}
			}
		}
	}
	return out
}

// packages are the repository's packages by the name a page uses for
// them: the folder's last element.
var packages = map[string]string{
	"model": "model", "pinning": "pinning", "toolbytes": "toolbytes", "termtext": "termtext",
	"window": "window", "lineage": "lineage", "loader": "loader", "evidence": "evidence",
	"provenance": "provenance", "export": "export", "study": "study", "advise": "advise",
	"cli": "cli", "tui": "tui", "jsonlex": "internal/jsonlex",
}

// Every function, type, method and test a rules page names exists in the
// package it names, so that a page never points at code that is gone.
func TestRulesPagesNameRealCode(t *testing.T) {
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "rules", "*.md"))
	known := map[string]map[string]bool{}
	n := 0
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range named.FindAllStringSubmatch(line, -1) {
				dir, ok := packages[m[1]]
				if !ok {
					continue
				}
				if known[dir] == nil {
					known[dir] = decls(t, dir)
				}
				name := m[2]
				if m[3] != "" {
					name += "." + m[3]
				}
				n++
				if !known[dir][name] {
					t.Errorf("%s:%d: names %s.%s, which package %s does not declare", filepath.Base(p), i+1, m[1], name, dir)
				}
			}
		}
	}
	if n < 100 {
		t.Errorf("the pages name only %d functions, types and tests", n)
	}
}

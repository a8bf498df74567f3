package mcptool_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// mcptool keeps no process-global state: no package-level variable of a
// sync, sync/atomic or weak type (a registry of servers, arguments or
// connections shared by every registry in the process), and no
// runtime.AddCleanup or SetFinalizer tying state to the garbage collector.
// A transport gets what it needs explicitly. A constant built at first use
// (sync.OnceValue, sync.OnceValues: a table, a prototype copied out) is no
// shared state and is allowed. The check reads the source of mcptool and the
// packages under it, test files aside.
func TestNoProcessGlobalState(t *testing.T) {
	banned := map[string]bool{"sync": true, "sync/atomic": true, "weak": true}
	fset := token.NewFileSet()
	var files int
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		// The names the file imports the banned packages (and runtime) as.
		names := map[string]string{}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			name := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			names[name] = p
		}
		usesBanned := func(n ast.Node) (string, bool) {
			var found string
			ast.Inspect(n, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && banned[names[id.Name]] &&
						!(names[id.Name] == "sync" && (sel.Sel.Name == "OnceValue" || sel.Sel.Name == "OnceValues")) {
						found = names[id.Name] + "." + sel.Sel.Name
					}
				}
				return found == ""
			})
			return found, found != ""
		}
		for _, decl := range f.Decls {
			if gd, ok := decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, spec := range gd.Specs {
					if what, ok := usesBanned(spec); ok {
						t.Errorf("%s: a package-level variable uses %s", fset.Position(spec.Pos()), what)
					}
				}
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && names[id.Name] == "runtime" &&
					(sel.Sel.Name == "AddCleanup" || sel.Sel.Name == "SetFinalizer") {
					t.Errorf("%s: runtime.%s", fset.Position(call.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 20 {
		t.Fatalf("read only %d files: is the test run from mcptool/?", files)
	}
}

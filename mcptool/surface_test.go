package mcptool_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxSurface bounds the lines of `go doc -short ./mcptool` (issue 29: a
// small surface, one way to do each thing). Before a public name is added,
// look for one to remove. 81: SearchEmbedder (issue 36), for which none
// was found: each other name is the one way to do its thing.
const maxSurface = 81

// surfaceLines lists what `go doc -short` prints for the package in dir:
// one line per exported const and var declaration, function and type, and
// under each type its own consts, vars and constructor-like functions, as
// go/doc groups them.
func surfaceLines(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	p, err := doc.NewFromFiles(fset, files, "github.com/mcpgen/mcpgen/mcptool")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	values := func(indent string, vs []*doc.Value) {
		for _, v := range vs {
			lines = append(lines, indent+strings.Join(v.Names, ", "))
		}
	}
	funcs := func(indent string, fs []*doc.Func) {
		for _, f := range fs {
			lines = append(lines, indent+"func "+f.Name)
		}
	}
	values("const ", p.Consts)
	values("var ", p.Vars)
	funcs("", p.Funcs)
	for _, typ := range p.Types {
		lines = append(lines, "type "+typ.Name)
		values("    const ", typ.Consts)
		values("    var ", typ.Vars)
		funcs("    ", typ.Funcs)
	}
	return lines
}

// The package's surface, as go doc -short lists it, stays within
// maxSurface lines.
func TestSurface(t *testing.T) {
	lines := surfaceLines(t, ".")
	if len(lines) > maxSurface {
		t.Errorf("go doc -short ./mcptool is %d lines, more than %d: remove a public name before adding one\n%s",
			len(lines), maxSurface, strings.Join(lines, "\n"))
	}
	if testing.Short() {
		return
	}
	// The count is go doc's own.
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to compare with")
	}
	out, err := exec.Command(goBin, "doc", "-short", ".").Output()
	if err != nil {
		t.Fatalf("go doc -short: %v", err)
	}
	if n := strings.Count(string(out), "\n"); n != len(lines) {
		t.Errorf("go doc -short prints %d lines, surfaceLines counts %d:\n%s\n---\n%s", n, len(lines), out, strings.Join(lines, "\n"))
	}
}

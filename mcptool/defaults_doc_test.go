package mcptool_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryDefaultInOneTable: every option of the registry and its tools,
// and every field of HTTPOptions, has a row in the "Every default" table of
// docs/architecture.md, under where it applies.
func TestEveryDefaultInOneTable(t *testing.T) {
	raw, err := os.ReadFile("../docs/architecture.md")
	require.NoError(t, err)
	doc := string(raw)
	start := strings.Index(doc, "### Every default")
	require.GreaterOrEqual(t, start, 0, "docs/architecture.md has an \"Every default\" section")
	table := doc[start:]
	if end := strings.Index(table[len("###"):], "\n#"); end >= 0 {
		table = table[:end+len("###")]
	}
	rows := map[string]bool{} // "Name@where"
	cell := regexp.MustCompile("`([A-Z][A-Za-z]*)`")
	for _, line := range strings.Split(table, "\n") {
		cols := strings.Split(line, "|")
		if len(cols) < 4 {
			continue
		}
		where := strings.TrimSpace(cols[1])
		for _, m := range cell.FindAllStringSubmatch(cols[2], -1) {
			rows[m[1]+"@"+where] = true
		}
	}

	// The options, from the package's source: exported functions whose
	// result is an option type.
	want := map[string][]string{ // result type -> the "where" of its rows
		"Option":         {"tool"},
		"RegistryOption": {"registry"},
		"SharedOption":   {"registry or tool"},
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	found := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					st, ok := ts.Type.(*ast.StructType)
					if !ok || ts.Name.Name != "HTTPOptions" {
						continue
					}
					for _, f := range st.Fields.List {
						for _, n := range f.Names {
							found++
							assert.True(t, rows[n.Name+"@HTTP"], "docs/architecture.md \"Every default\" has no \"HTTP\" row for HTTPOptions.%s", n.Name)
						}
					}
				}
			}
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Type.Results == nil || len(fn.Type.Results.List) != 1 {
				continue
			}
			var wheres []string
			switch r := fn.Type.Results.List[0].Type.(type) {
			case *ast.Ident:
				wheres = want[r.Name]
			}
			for _, where := range wheres {
				found++
				ok := rows[fn.Name.Name+"@"+where]
				assert.True(t, ok, "docs/architecture.md \"Every default\" has no %q row for %s", where, fn.Name.Name)
			}
		}
	}
	assert.Greater(t, found, 30, "the options were found in the source")
}

package server

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestNoGoNamesInModelText reads every tools/list of the demo (both
// toolsets) and looks, in every description and title at any depth — the
// tools', their annotations', their input and output schemas' — for an
// exported Go identifier of the demo's packages: a Go name means nothing to
// a model, and a doc comment opens with one by Go's convention.
func TestNoGoNamesInModelText(t *testing.T) {
	names := exportedNames(t, ".")
	require.Contains(t, names, "CSVArgs", "the demo's identifiers were collected")
	word := regexp.MustCompile(`[\pL\pN_]+`)
	for _, toolset := range []string{"demo", "conformance"} {
		a, _ := newDemoApp(t, func(c *config) { c.toolset = toolset })
		cs := demoSession(t, a, "")
		tools := cs.Tools()
		require.NotEmpty(t, tools)
		for _, tl := range tools {
			raw, err := json.Marshal(tl)
			require.NoError(t, err)
			var doc any
			require.NoError(t, json.Unmarshal(raw, &doc))
			for _, txt := range modelText(doc, tl.Name) {
				for _, w := range word.FindAllString(txt.text, -1) {
					if names[w] {
						t.Errorf("%s: %s names Go identifier %s: %q", toolset, txt.at, w, txt.text)
					}
				}
			}
		}
	}
}

type located struct{ at, text string }

// modelText collects the strings under the keys "description" and "title"
// in v, with their JSON paths below at.
func modelText(v any, at string) []located {
	var out []located
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if s, ok := v[k].(string); ok && (k == "description" || k == "title") {
				out = append(out, located{at + "." + k, s})
				continue
			}
			out = append(out, modelText(v[k], at+"."+k)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, modelText(x, at+"[]")...)
		}
	}
	return out
}

// exportedNames parses the Go files of the package in dir and of the
// packages below it (tests left out) and returns the exported identifiers
// they declare: types, functions, methods, variables, constants and struct
// fields. Left out are those that read as a word of prose — a capitalized
// word ("Name", "A") or an acronym ("URL", "ID") — and proper names
// (properName), since in a description they are English, not Go.
func exportedNames(t *testing.T, dir string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	add := func(id *ast.Ident) {
		if id != nil && id.IsExported() && !plainWord.MatchString(id.Name) && !properName[id.Name] {
			names[id.Name] = true
		}
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				add(n.Name)
			case *ast.TypeSpec:
				add(n.Name)
			case *ast.ValueSpec:
				for _, id := range n.Names {
					add(id)
				}
			case *ast.Field:
				for _, id := range n.Names {
					add(id)
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	return names
}

// plainWord is an identifier that reads as a word in prose.
var plainWord = regexp.MustCompile(`^(\p{Lu}\p{Ll}*|\p{Lu}+)$`)

// properName are identifiers spelled as the name of what they stand for.
var properName = map[string]bool{
	"GitHub": true, // the service github_create_issue calls, named as its makers spell it
}

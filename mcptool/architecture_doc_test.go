package mcptool_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestArchitectureNamesExist: every Go name and repository path that
// docs/architecture.md writes in backticks is defined in the repository's
// code (tests included, for the fuzz targets it names), so the document cannot describe functions that were renamed or
// removed. Names qualified by a package outside the repository (mcp.,
// slog., …) are not checked; neither are the protocol's own words (method
// names, JSON fields) and tag keys, which are listed in wireWords.
func TestArchitectureNamesExist(t *testing.T) {
	raw, err := os.ReadFile("../docs/architecture.md")
	require.NoError(t, err)
	decls := repoDecls(t, "..")

	span := regexp.MustCompile("`([^`\n]+)`")
	var missing []string
	for _, m := range span.FindAllStringSubmatch(string(raw), -1) {
		if problem := decls.check(m[1]); problem != "" {
			missing = append(missing, "`"+m[1]+"`: "+problem)
		}
	}
	// The checker itself: what it must refuse and accept.
	for _, bad := range []string{"(*Registry).noSuchMethod", "mcptool.NoSuchName", "mcptool/nosuch.go", "NoSuchName", "bound[In].nosuch"} {
		require.NotEmpty(t, decls.check(bad), "%s is refused", bad)
	}
	for _, good := range []string{"(*Registry).Call", "bound[In].call", "mcpreflect.DefaultCache()", "annotations.Tool{Hints, Policy}", "mcptool/call.go", "mcp.NewServer"} {
		require.Empty(t, decls.check(good), "%s is accepted", good)
	}
	if len(missing) > 0 {
		t.Errorf("docs/architecture.md names what the code does not define:\n%s", strings.Join(missing, "\n"))
	}
}

// wireWords are words of the protocol, of JSON and of tags that the
// document writes in backticks and that are not Go names.
var wireWords = map[string]bool{
	"requestState": true, "taskIds": true, "_meta": true, "_extras": true,
	"readOnly": true, "openWorld": true, "maxArgBytes": true, "jsonschema_description": true,
}

// externalPackages are qualifiers of names defined outside this repository.
var externalPackages = map[string]bool{
	"mcp": true, "slog": true, "grpc": true, "redis": true, "reflect": true, "http": true,
	"json": true, "context": true, "jsonrpc": true, "auth": true, "connect": true, "proto": true,
}

// declSet is what the repository's non-test Go code declares.
type declSet struct {
	names    map[string]bool            // every declared name: types, funcs, methods, fields, consts, vars
	members  map[string]map[string]bool // type name → its methods and fields
	packages map[string]map[string]bool // package name → its top-level names
}

func repoDecls(t *testing.T, root string) declSet {
	t.Helper()
	d := declSet{names: map[string]bool{}, members: map[string]map[string]bool{}, packages: map[string]map[string]bool{}}
	add := func(m map[string]map[string]bool, k, v string) {
		if m[k] == nil {
			m[k] = map[string]bool{}
		}
		m[k][v] = true
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if n := e.Name(); n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		if info, err := e.Info(); err != nil || info.Size() > 1<<20 {
			return err // large generated sources declare nothing the document names
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		pkg := strings.TrimSuffix(f.Name.Name, "_test")
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				d.names[decl.Name.Name] = true
				if decl.Recv == nil {
					add(d.packages, pkg, decl.Name.Name)
					continue
				}
				recv := decl.Recv.List[0].Type
				for {
					switch r := recv.(type) {
					case *ast.StarExpr:
						recv = r.X
						continue
					case *ast.IndexExpr:
						recv = r.X
						continue
					case *ast.IndexListExpr:
						recv = r.X
						continue
					case *ast.Ident:
						add(d.members, r.Name, decl.Name.Name)
					}
					break
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						d.names[s.Name.Name] = true
						add(d.packages, pkg, s.Name.Name)
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fld := range st.Fields.List {
								for _, n := range fld.Names {
									d.names[n.Name] = true
									add(d.members, s.Name.Name, n.Name)
								}
							}
						}
						if it, ok := s.Type.(*ast.InterfaceType); ok {
							for _, m := range it.Methods.List {
								for _, n := range m.Names {
									add(d.members, s.Name.Name, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							d.names[n.Name] = true
							add(d.packages, pkg, n.Name)
						}
					}
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.NotEmpty(t, d.packages["mcptool"], "mcptool's source was read")
	return d
}

var (
	goRef     = regexp.MustCompile(`^\.?([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?((\.[A-Za-z_][A-Za-z0-9_]*)*)(\(.*\)|\{.*\})?$`)
	repoPath  = regexp.MustCompile(`^(\.\./)?(mcptool|reflect|annotations|internal|adapters|cmd|bench|examples|docs|testdata)/[^ ]*$|^[a-z_*]+\.go$`)
	camelCase = regexp.MustCompile(`^[a-z]+[A-Z]`)
)

// check returns what is wrong with one backticked span, or "".
func (d declSet) check(s string) string {
	switch {
	case repoPath.MatchString(s):
		return d.checkPath(s)
	case strings.ContainsAny(s, " /=\"$") || wireWords[s]:
		return "" // prose, a protocol method, a tag key, a JSON keyword
	}
	if strings.HasPrefix(s, "(*") { // (*T).Method
		s = strings.Replace(s[2:], ")", "", 1)
	}
	m := goRef.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	head, rest := m[1], strings.Split(strings.TrimPrefix(m[3], "."), ".")
	if m[3] == "" {
		rest = nil
	}
	if strings.HasPrefix(s, ".") { // `.Method()`: a method of some type
		if !d.names[head] {
			return "no such method"
		}
		return ""
	}
	if externalPackages[head] {
		return ""
	}
	// A package whose name is also a type somewhere (examples/cluster has a
	// type cluster): the package wins when it defines the name.
	if names, isPkg := d.packages[head]; isPkg && len(rest) > 0 && (!d.isType(head) || names[rest[0]]) {
		if !names[rest[0]] {
			return "package " + head + " defines no " + rest[0]
		}
		head, rest = rest[0], rest[1:]
	} else if len(rest) == 0 && !isGoLooking(head) {
		return "" // a plain lower-case word
	}
	if !d.names[head] {
		return "no such name"
	}
	for _, r := range rest {
		if !d.members[head][r] {
			return head + " has no method or field " + r
		}
		head = r
	}
	return ""
}

func (d declSet) isType(name string) bool { return len(d.members[name]) > 0 }

// isGoLooking reports whether an unqualified word reads as a Go name rather
// than an English or JSON word: exported, or camelCase.
func isGoLooking(s string) bool {
	return s[0] >= 'A' && s[0] <= 'Z' || camelCase.MatchString(s)
}

func (d declSet) checkPath(s string) string {
	p := strings.TrimPrefix(s, "../")
	if !strings.Contains(p, "/") { // a bare file name: somewhere under mcptool/ or reflect/
		for _, dir := range []string{"mcptool", "reflect", "annotations"} {
			if ms, _ := filepath.Glob(filepath.Join("..", dir, p)); len(ms) > 0 {
				return ""
			}
		}
		return "no such file in mcptool/, reflect/ or annotations/"
	}
	if ms, _ := filepath.Glob(filepath.Join("..", strings.TrimSuffix(p, "/"))); len(ms) == 0 {
		return "no such file or folder"
	}
	return ""
}

// Command mcpgen generates mcpgen_gen.go for a package of MCP tools: Go doc
// comments become tool, property and schema descriptions, and the input and
// output schemas of every tool type are precomputed, so registration does no
// reflection over tags. Install it as a tool of your module, once:
//
//	go get -tool github.com/mcpgen/mcpgen/cmd/mcpgen
//
// and run it with go generate, from a file of the package:
//
//	//go:generate go tool mcpgen
//
// A tool is any function or method of the package with a shape mcptool
// accepts: func(ctx, In) (Out, error), func(ctx, In) error, func(ctx) (Out,
// error), ... where In is a named struct type. See docs/mcpgen.md.
//
// mcpgen catalog [-format markdown|html|json] [-o FILE] [DIR] writes the
// catalogue of the tools of the package in DIR, whose function Registry
// (-func names another) builds its registry; see docs/catalog.md.
//
// mcpgen diff OLD.json NEW.json compares two JSON tool catalogues (see
// package mcptool/catalog) and classes every change as breaking,
// security-relevant or compatible, for a CI check; see docs/catalog.md.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

const (
	genFile    = "mcpgen_gen.go"
	buildTag   = "mcpgen"
	reflectPkg = "github.com/mcpgen/mcpgen/reflect"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "diff" {
		os.Exit(runDiff(os.Args[2:], os.Stdout, os.Stderr))
	}
	if len(os.Args) > 1 && os.Args[1] == "catalog" {
		os.Exit(runCatalog(os.Args[2:], os.Stdout, os.Stderr)) // catalog.go
	}
	dir := flag.String("dir", ".", "the package directory")
	out := flag.String("o", genFile, "the file to write, in the package directory")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: mcpgen [-dir DIR] [-o FILE]\n       mcpgen catalog [flags] [DIR]\n       mcpgen diff [flags] OLD.json NEW.json\n\nWrites FILE (default %s) for the package in DIR: doc comments as descriptions and precomputed schemas.\nmcpgen catalog writes the catalogue of a package's tools (mcpgen catalog -h).\nmcpgen diff compares two tool catalogues (mcpgen diff -h).\n\n", genFile)
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := generate(*dir, *out); err != nil {
		fmt.Fprintln(os.Stderr, "mcpgen:", err)
		os.Exit(1)
	}
}

// generate writes the generated file of the package in dir.
func generate(dir, out string) error {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	pkg, err := load(absDir)
	if err != nil {
		return err
	}
	a := newAnalysis(pkg)
	a.findTools()
	if len(a.inputs)+len(a.outputs) == 0 && len(a.docs) == 0 {
		return fmt.Errorf("%s: no tool functions found", pkg.PkgPath)
	}
	if err := a.collectTypeDocs(); err != nil {
		return err
	}
	dump, err := a.dump(absDir)
	if err != nil {
		return err
	}
	src, err := a.render(dump)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(absDir, out), src, 0o644)
}

// load loads the package without its generated file (which may be stale).
func load(dir string) (*packages.Package, error) {
	cfg := &packages.Config{
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports,
		Dir:        dir,
		BuildFlags: []string{"-tags=" + buildTag},
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("%s: want one package, found %d", dir, len(pkgs))
	}
	p := pkgs[0]
	if len(p.Errors) > 0 {
		var msgs []string
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
		return nil, fmt.Errorf("loading %s:\n%s", dir, strings.Join(msgs, "\n"))
	}
	return p, nil
}

type analysis struct {
	pkg     *packages.Package
	docs    map[string]string
	local   map[string]bool       // the keys of docs that name the package's own declarations
	inputs  map[string]types.Type // by type expression
	outputs map[string]types.Type
	named   map[*types.TypeName]bool // struct types whose docs to collect
	imports map[string]string        // import path → alias, for the generated files
}

func newAnalysis(pkg *packages.Package) *analysis {
	return &analysis{pkg: pkg, docs: map[string]string{}, local: map[string]bool{}, inputs: map[string]types.Type{}, outputs: map[string]types.Type{},
		named: map[*types.TypeName]bool{}, imports: map[string]string{}}
}

// pkgVar names, in the init functions of generated code for a command
// (package main), the package's path as the running program sees it.
const pkgVar = "mcpgen_pkg"

// isCommand reports whether the package is a command. The go command builds
// a command's package with the path "main", but its test binary with the
// import path, and function names and reflect's PkgPath follow: generated
// code for a command names its own declarations relative to the path found
// at run time (pkgVar), never by a constant.
func (a *analysis) isCommand() bool { return a.pkg.Name == "main" }

// pkgVarDecl declares pkgVar, in an init function of a command.
func pkgVarDecl(b *bytes.Buffer) {
	b.WriteString("\ttype mcpgen_here struct{}\n\t" + pkgVar + " := mcpgen_reflect.TypeFor[mcpgen_here]().PkgPath()\n")
}

// addDoc records a doc comment by qualified name (see mcpreflect.Generated).
func (a *analysis) addDoc(pkgPath, name, doc string) {
	k := pkgPath + "." + name
	a.docs[k] = doc
	if pkgPath == a.pkg.PkgPath {
		a.local[k] = true
	}
}

// findTools records every function and method with a tool shape, its doc
// comment, and its argument and result types.
func (a *analysis) findTools() {
	for _, f := range a.pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name == "init" || fd.Name.Name == "main" || fd.Type.TypeParams != nil {
				continue
			}
			obj, ok := a.pkg.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			sig := obj.Type().(*types.Signature)
			if sig.RecvTypeParams() != nil {
				continue
			}
			in, out, ok := toolShape(sig)
			if !ok {
				continue
			}
			if in != nil {
				if !a.referable(in) {
					continue
				}
				a.inputs[a.typeExpr(in)] = in
				a.reach(in)
			}
			if out != nil && a.referable(out) {
				a.outputs[a.typeExpr(out)] = out
				a.reach(out)
			}
			if doc := toolDoc(fd.Name.Name, docText(fd.Doc)); doc != "" {
				a.addDoc(a.pkg.PkgPath, funcKey(fd), doc)
			}
		}
	}
}

// toolShape reports whether sig is a tool function: (ctx?, In?) (Out?, error)
// with In a named struct (or a pointer to one).
func toolShape(sig *types.Signature) (in, out types.Type, ok bool) {
	ps := sig.Params()
	i := 0
	if ps.Len() > i && isContext(ps.At(i).Type()) {
		i++
	}
	if ps.Len() > i {
		t := ps.At(i).Type()
		if p, isPtr := t.(*types.Pointer); isPtr {
			t = p.Elem()
		}
		n, isNamed := t.(*types.Named)
		if !isNamed || n.TypeArgs().Len() > 0 {
			return nil, nil, false
		}
		st, isStruct := n.Underlying().(*types.Struct)
		if !isStruct || !argumentsLike(st) {
			return nil, nil, false
		}
		in = n
		i++
	}
	if ps.Len() > i || sig.Variadic() {
		return nil, nil, false
	}
	rs := sig.Results()
	switch rs.Len() {
	case 1:
		if !isError(rs.At(0).Type()) {
			return nil, nil, false
		}
	case 2:
		if !isError(rs.At(1).Type()) || isError(rs.At(0).Type()) {
			return nil, nil, false
		}
		out = rs.At(0).Type()
	default:
		return nil, nil, false
	}
	return in, out, true
}

func isContext(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

func isError(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }

// funcKey is the name the Go runtime gives a function or method value,
// after its package's path and a dot.
func funcKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	rt := fd.Recv.List[0].Type
	if s, ok := rt.(*ast.StarExpr); ok {
		return "(*" + recvName(s.X) + ")." + fd.Name.Name
	}
	return recvName(rt) + "." + fd.Name.Name
}

func recvName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return recvName(x.X)
	case *ast.IndexListExpr:
		return recvName(x.X)
	}
	return "?"
}

// referable reports whether generated code in the package can name t: no
// unexported types of other packages, no type parameters, no interfaces
// (results decided per value need no schema).
func (a *analysis) referable(t types.Type) bool {
	ok := true
	var walk func(t types.Type, depth int)
	walk = func(t types.Type, depth int) {
		if depth > 16 || !ok {
			return
		}
		switch x := t.(type) {
		case *types.Named:
			obj := x.Obj()
			if obj.Pkg() != nil && obj.Pkg().Path() != a.pkg.PkgPath && !obj.Exported() {
				ok = false
			}
			if x.TypeArgs().Len() > 0 {
				for i := 0; i < x.TypeArgs().Len(); i++ {
					walk(x.TypeArgs().At(i), depth+1)
				}
			}
		case *types.Pointer:
			walk(x.Elem(), depth+1)
		case *types.Slice:
			walk(x.Elem(), depth+1)
		case *types.Array:
			walk(x.Elem(), depth+1)
		case *types.Map:
			walk(x.Key(), depth+1)
			walk(x.Elem(), depth+1)
		case *types.TypeParam, *types.Signature, *types.Chan:
			ok = false
		case *types.Interface:
			ok = false
		}
	}
	walk(t, 0)
	return ok
}

// reach records the named struct types t reaches, for their doc comments.
func (a *analysis) reach(t types.Type) {
	var walk func(t types.Type)
	walk = func(t types.Type) {
		switch x := t.(type) {
		case *types.Named:
			if a.named[x.Obj()] || ownJSON(x) {
				return
			}
			if st, ok := x.Underlying().(*types.Struct); ok {
				a.named[x.Obj()] = true
				for i := 0; i < st.NumFields(); i++ {
					if f := st.Field(i); f.Exported() || f.Embedded() {
						walk(f.Type())
					}
				}
			}
		case *types.Pointer:
			walk(x.Elem())
		case *types.Slice:
			walk(x.Elem())
		case *types.Array:
			walk(x.Elem())
		case *types.Map:
			walk(x.Elem())
		case *types.Struct:
			for i := 0; i < x.NumFields(); i++ {
				if f := x.Field(i); f.Exported() || f.Embedded() {
					walk(f.Type())
				}
			}
		}
	}
	walk(t)
}

// ownJSON reports whether t decides its own JSON form or schema (time.Time,
// json.Unmarshaler, encoding.TextUnmarshaler, a JSONSchema method): its
// fields are not properties, so their comments are not wanted.
func ownJSON(t *types.Named) bool {
	ms := types.NewMethodSet(types.NewPointer(t))
	for i := 0; i < ms.Len(); i++ {
		switch ms.At(i).Obj().Name() {
		case "UnmarshalJSON", "UnmarshalText", "JSONSchema", "MarshalJSON", "MarshalText":
			return true
		}
	}
	return false
}

// collectTypeDocs records the doc comments of every reached struct type and
// its fields, loading the syntax of other packages that declare them.
func (a *analysis) collectTypeDocs() error {
	byPkg := map[string][]*types.TypeName{}
	for obj := range a.named {
		if obj.Pkg() == nil {
			continue
		}
		byPkg[obj.Pkg().Path()] = append(byPkg[obj.Pkg().Path()], obj)
	}
	syntax := map[string][]*ast.File{a.pkg.PkgPath: a.pkg.Syntax}
	var others []string
	for p := range byPkg {
		if p != a.pkg.PkgPath {
			others = append(others, p)
		}
	}
	if len(others) > 0 {
		sort.Strings(others)
		cfg := &packages.Config{Mode: packages.NeedName | packages.NeedSyntax | packages.NeedFiles, Dir: a.pkg.Dir}
		pkgs, err := packages.Load(cfg, others...)
		if err != nil {
			return err
		}
		for _, p := range pkgs {
			syntax[p.PkgPath] = p.Syntax
		}
	}
	for path, objs := range byPkg {
		want := map[string]bool{}
		for _, o := range objs {
			want[o.Name()] = true
		}
		for _, f := range syntax[path] {
			for _, d := range f.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.TYPE {
					continue
				}
				for _, spec := range gd.Specs {
					ts := spec.(*ast.TypeSpec)
					if !want[ts.Name.Name] {
						continue
					}
					doc := ts.Doc
					if doc == nil && len(gd.Specs) == 1 {
						doc = gd.Doc
					}
					if d := docText(doc); d != "" {
						a.addDoc(path, ts.Name.Name, d)
					}
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					for _, fld := range st.Fields.List {
						d := docText(fld.Doc)
						if d == "" {
							d = docText(fld.Comment)
						}
						if d == "" {
							continue
						}
						for _, n := range fld.Names {
							if n.IsExported() {
								a.addDoc(path, ts.Name.Name+"."+n.Name, d)
							}
						}
						if len(fld.Names) == 0 { // embedded
							a.addDoc(path, ts.Name.Name+"."+embeddedName(fld.Type), d)
						}
					}
				}
			}
		}
	}
	return nil
}

func embeddedName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return embeddedName(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return embeddedName(x.X)
	}
	return ""
}

// typeExpr renders t as Go source in the package, recording imports.
func (a *analysis) typeExpr(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p.Path() == a.pkg.PkgPath {
			return ""
		}
		if alias, ok := a.imports[p.Path()]; ok {
			return alias
		}
		alias := "mcpgen_" + sanitize(p.Name())
		for n := 2; a.aliasTaken(alias); n++ {
			alias = "mcpgen_" + sanitize(p.Name()) + strconv.Itoa(n)
		}
		a.imports[p.Path()] = alias
		return alias
	})
}

func (a *analysis) aliasTaken(alias string) bool {
	for _, v := range a.imports {
		if v == alias {
			return true
		}
	}
	return false
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// importBlock writes the imports of generated code: the extra ones, and
// those of the packages in used (nil: every package a type refers to).
func (a *analysis) importBlock(b *bytes.Buffer, used map[string]bool, extra ...string) {
	b.WriteString("import (\n")
	for _, e := range extra {
		b.WriteString("\t" + e + "\n")
	}
	for _, path := range sortedKeys(a.imports) {
		if used == nil || used[path] {
			fmt.Fprintf(b, "\t%s %q\n", a.imports[path], path)
		}
	}
	b.WriteString(")\n\n")
}

func (a *analysis) typeList(b *bytes.Buffer, m map[string]types.Type) {
	b.WriteString("[]mcpgen_reflect.Type{")
	for _, expr := range sortedKeys(m) {
		fmt.Fprintf(b, "mcpgen_reflect.TypeFor[%s](), ", expr)
	}
	b.WriteString("}")
}

// docsLiteral writes the doc comments as a map literal, and reports whether
// it refers to pkgVar.
func (a *analysis) docsLiteral(b *bytes.Buffer) (usesPkgVar bool) {
	b.WriteString("map[string]string{\n")
	for _, k := range sortedKeys(a.docs) {
		key := strconv.Quote(k)
		if a.isCommand() && a.local[k] {
			key = pkgVar + " + " + strconv.Quote(strings.TrimPrefix(k, a.pkg.PkgPath))
			usesPkgVar = true
		}
		fmt.Fprintf(b, "\t\t\t%s: %q,\n", key, a.docs[k])
	}
	b.WriteString("\t\t}")
	return usesPkgVar
}

// dump runs the package with a hook that derives the schemas by reflection,
// exactly as registration would, and returns what it printed.
func (a *analysis) dump(dir string) ([]byte, error) {
	var hook bytes.Buffer
	fmt.Fprintf(&hook, "package %s\n\n", a.pkg.Name)
	a.importBlock(&hook, nil, `mcpgen_os "os"`, `mcpgen_reflect "reflect"`, `mcpgen_mcpreflect "`+reflectPkg+`"`)
	hook.WriteString("func init() {\n\tif mcpgen_os.Getenv(\"MCPGEN_DUMP\") != \"1\" {\n\t\treturn\n\t}\n")
	var docs bytes.Buffer
	if a.docsLiteral(&docs) {
		pkgVarDecl(&hook)
	}
	hook.WriteString("\tmcpgen_mcpreflect.RegisterGenerated(")
	hook.Write(docs.Bytes())
	hook.WriteString(")\n\terr := mcpgen_mcpreflect.DumpGenerated(mcpgen_os.Stdout, ")
	a.typeList(&hook, a.inputs)
	hook.WriteString(", ")
	a.typeList(&hook, a.outputs)
	hook.WriteString(")\n\tif err != nil {\n\t\tmcpgen_os.Stderr.WriteString(err.Error() + \"\\n\")\n\t\tmcpgen_os.Exit(1)\n\t}\n\tmcpgen_os.Exit(0)\n}\n")

	tmp, err := os.MkdirTemp("", "mcpgen")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	hookPath := filepath.Join(tmp, "hook.go")
	if err := os.WriteFile(hookPath, hook.Bytes(), 0o644); err != nil {
		return nil, err
	}
	overlay := map[string]string{filepath.Join(dir, "zz_mcpgen_dump.go"): hookPath}
	target := "."
	if a.pkg.Name != "main" {
		// A main package that imports the package runs its init.
		mainDir := filepath.Join(dir, "mcpgen_dump_main")
		mainPath := filepath.Join(tmp, "main.go")
		if err := os.WriteFile(mainPath, []byte("package main\n\nimport _ "+strconv.Quote(a.pkg.PkgPath)+"\n\nfunc main() {}\n"), 0o644); err != nil {
			return nil, err
		}
		overlay[filepath.Join(mainDir, "main.go")] = mainPath
		target = "./mcpgen_dump_main"
	}
	var ov bytes.Buffer
	ov.WriteString(`{"Replace":{`)
	first := true
	for k, v := range overlay {
		if !first {
			ov.WriteString(",")
		}
		first = false
		fmt.Fprintf(&ov, "%q:%q", k, v)
	}
	ov.WriteString("}}")
	ovPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovPath, ov.Bytes(), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "run", "-tags="+buildTag, "-overlay="+ovPath, target)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MCPGEN_DUMP=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("deriving schemas: %v\n%s", err, stderr.String())
	}
	return stdout.Bytes(), nil
}

// render writes the generated file.
func (a *analysis) render(dump []byte) ([]byte, error) {
	var entries []struct {
		Type        string `json:"type"`
		Fingerprint string `json:"fingerprint"`
		Generation  int    `json:"generation"`
		InputJSON   string `json:"inputJSON"`
		Input       string `json:"input"`
		Structs     string `json:"structs"`
		OutputJSON  string `json:"outputJSON"`
		Output      string `json:"output"`
		Wrapped     bool   `json:"wrapped"`
	}
	if err := jsonUnmarshal(dump, &entries); err != nil {
		return nil, fmt.Errorf("reading the derived schemas: %w", err)
	}
	exprs := map[string]string{}      // reflect's type string → Go expression
	typeOf := map[string]types.Type{} // reflect's type string → type
	for _, m := range []map[string]types.Type{a.inputs, a.outputs} {
		for expr := range m {
			exprs[reflectString(a, m[expr])] = expr
			typeOf[reflectString(a, m[expr])] = m[expr]
		}
	}
	// Import only the packages of the types that got a plan or a schema: a
	// result type with neither (content, an interface) names no package.
	used := map[string]bool{}
	for _, e := range entries {
		if t, ok := typeOf[e.Type]; ok {
			types.TypeString(t, func(p *types.Package) string { used[p.Path()] = true; return "" })
		}
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by mcpgen from doc comments and types. DO NOT EDIT.\n\n")
	b.WriteString("//go:build !" + buildTag + "\n\n")
	fmt.Fprintf(&b, "package %s\n\n", a.pkg.Name)
	extra := []string{`mcpgen_reflect "reflect"`, `mcpgen_mcpreflect "` + reflectPkg + `"`}
	joined := dumpText(entries)
	if strings.Contains(joined, "mcpgen_jsonschema.") {
		extra = append(extra, `mcpgen_jsonschema "github.com/invopop/jsonschema"`)
	}
	if strings.Contains(joined, "mcpgen_json.") {
		extra = append(extra, `mcpgen_json "encoding/json"`)
	}
	a.importBlock(&b, used, extra...)
	// init registers the docs and, per type, its fingerprint and a small
	// function that builds its plan at first use: a program pays only for
	// the plans it registers, and the compiler sees many small functions
	// instead of one enormous literal.
	var body, loaders bytes.Buffer
	body.WriteString("func init() {\n\tmcpgen_mcpreflect.RegisterGenerated(\n\t\t")
	usesPkgVar := a.docsLiteral(&body)
	body.WriteString(",\n")
	sort.Slice(entries, func(i, j int) bool { return entries[i].Type < entries[j].Type })
	for i, e := range entries {
		expr, ok := exprs[e.Type]
		if !ok {
			return nil, fmt.Errorf("derived schema for unknown type %s", e.Type)
		}
		load := fmt.Sprintf("mcpgen_load%d", i)
		fmt.Fprintf(&body, "\t\tmcpgen_mcpreflect.GeneratedType{Type: mcpgen_reflect.TypeFor[%s](), Fingerprint: %q, Generation: %d, Load: %s},\n", expr, e.Fingerprint, e.Generation, load)
		fmt.Fprintf(&loaders, "\n// %s builds the generated data of %s.\nfunc %s(g *mcpgen_mcpreflect.GeneratedType) {\n", load, expr, load)
		if e.Input != "" {
			structs := e.Structs
			if a.isCommand() && strings.Contains(structs, `{Key: "main|`) {
				// A struct's key starts with reflect's PkgPath, "main"
				// when the dump ran.
				structs = strings.ReplaceAll(structs, `{Key: "main|`, `{Key: `+pkgVar+` + "|`)
				usesPkgVar = true
			}
			fmt.Fprintf(&loaders, "\tg.InputJSON = %s\n\tg.Input = %s\n\tg.Structs = %s\n", goString(e.InputJSON), e.Input, structs)
		}
		if e.Output != "" {
			fmt.Fprintf(&loaders, "\tg.OutputJSON = %s\n\tg.Output = %s\n", goString(e.OutputJSON), e.Output)
		}
		if e.Wrapped {
			loaders.WriteString("\tg.OutputWrapped = true\n")
		}
		loaders.WriteString("}\n")
	}
	body.WriteString("\t)\n}\n")
	if usesPkgVar {
		b.WriteString("// " + pkgVar + " is this package's path as the running program sees it.\nvar " + pkgVar + " = mcpgen_reflect.TypeFor[mcpgen_here]().PkgPath()\n\ntype mcpgen_here struct{}\n\n")
	}
	b.Write(body.Bytes())
	b.Write(loaders.Bytes())
	if strings.Contains(joined, "mcpgen_props(") {
		b.WriteString(propsHelper)
	}
	if strings.Contains(joined, "mcpgen_count(") {
		b.WriteString(countHelper)
	}
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting: %w\n%s", err, b.String())
	}
	return src, nil
}

// The helpers the schema literals of generated code call (see
// mcpreflect's DumpGenerated).
const (
	propsHelper = `
// mcpgen_props sets a schema's properties, in order: mcpgen_props(s, "a", sa, "b", sb).
func mcpgen_props(s *mcpgen_jsonschema.Schema, kv ...any) *mcpgen_jsonschema.Schema {
	s.Properties = mcpgen_jsonschema.NewProperties()
	for i := 0; i+1 < len(kv); i += 2 {
		s.Properties.Set(kv[i].(string), kv[i+1].(*mcpgen_jsonschema.Schema))
	}
	return s
}
`
	countHelper = `
// mcpgen_count returns a pointer to n.
func mcpgen_count(n uint64) *uint64 { return &n }
`
)

// reflectString renders t as reflect.Type.String() does: package names, not
// paths.
func reflectString(a *analysis, t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// goString quotes s as a raw string when it can.
func goString(s string) string {
	if !strings.Contains(s, "`") && !strings.ContainsAny(s, "\r") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// dumpText joins the Go expressions of the dump, to see what they import.
func dumpText[E any](entries []E) string {
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "%+v\n", e)
	}
	return b.String()
}

// argumentsLike reports whether a struct can be a tool's arguments: it has
// an exported field, a blank field (the mcp tag), or no fields at all. A
// struct of only unexported fields (a *Registry, a *sql.DB) is a service
// being passed around, not arguments.
func argumentsLike(st *types.Struct) bool {
	if st.NumFields() == 0 {
		return true
	}
	for i := 0; i < st.NumFields(); i++ {
		if f := st.Field(i); f.Exported() || f.Name() == "_" || f.Embedded() {
			return true
		}
	}
	return false
}

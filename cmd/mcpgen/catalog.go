package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// catalogUsage opens the help of mcpgen catalog.
const catalogUsage = `usage: mcpgen catalog [-format markdown|html|json] [-o FILE] [-title TITLE] [-func NAME] [DIR]

Writes the catalogue of the tools of the package in DIR (default .): the
Markdown or HTML page for people, or the JSON file for mcpgen diff. The
package's function NAME (default Registry) builds its registry; it is one of

	func Registry() *mcptool.Registry
	func Registry() (*mcptool.Registry, error)
	func Registry(reg *mcptool.Registry) error   (given mcptool.NewRegistry())

and may be unexported, also in a command (package main). The format is the
one -o's extension names (.md, .html, .json), else markdown. From a file of
the package:

	//go:generate go tool mcpgen catalog -o ../docs/tools.md

`

// registryPkg is the package of the registry a catalogue is built from.
const registryPkg = "github.com/mcpgen/mcpgen/mcptool"

// runCatalog is mcpgen catalog; it returns the exit status.
func runCatalog(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen catalog", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "", "markdown, html or json (default: from -o's extension, else markdown)")
	out := fs.String("o", "", "write to `FILE` instead of stdout")
	title := fs.String("title", "Tools", "the title of the Markdown and HTML catalogue")
	fn := fs.String("func", "Registry", "the package's function that builds the registry")
	fs.Usage = func() {
		fmt.Fprint(stderr, catalogUsage)
		fs.PrintDefaults()
	}
	// Flags may follow DIR, as with the go command.
	var dirs []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		dirs, args = append(dirs, fs.Arg(0)), fs.Args()[1:]
	}
	dir := "."
	switch len(dirs) {
	case 0:
	case 1:
		dir = dirs[0]
	default:
		fs.Usage()
		return 2
	}
	f, err := catalogFormat(*format, *out)
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen catalog:", err)
		return 2
	}
	if f == "json" {
		*title = ""
	}
	b, err := buildCatalog(dir, *fn, f, *title)
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen catalog:", err)
		return 1
	}
	if *out == "" {
		_, err = stdout.Write(b)
	} else {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen catalog:", err)
		return 1
	}
	return 0
}

// catalogFormat is the format flag says, else the one out's extension
// names, else markdown.
func catalogFormat(flag, out string) (string, error) {
	if flag == "" {
		switch strings.ToLower(filepath.Ext(out)) {
		case ".html", ".htm":
			return "html", nil
		case ".json":
			return "json", nil
		}
		return "markdown", nil
	}
	switch flag {
	case "markdown", "md":
		return "markdown", nil
	case "html", "json":
		return flag, nil
	}
	return "", fmt.Errorf("unknown format %q (want markdown, html or json)", flag)
}

// buildCatalog returns the catalogue, in format, of the registry that the
// function fn of the package in dir builds. It runs the package: a file
// added to it by an overlay (nothing is written to dir) calls fn when an
// environment variable asks, writes the catalogue and exits, before the
// program's main runs; a package that is not a command is run by a main
// package that imports it.
func buildCatalog(dir, fn, format, title string) ([]byte, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	pkg, err := load(absDir)
	if err != nil {
		return nil, err
	}
	call, err := registryCall(pkg.Types, fn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pkg.PkgPath, err)
	}
	tmp, err := os.MkdirTemp("", "mcpgen-catalog")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)

	var hook bytes.Buffer
	fmt.Fprintf(&hook, "package %s\n\nimport (\n\tmcpgen_errors \"errors\"\n\tmcpgen_os \"os\"\n", pkg.Name)
	if strings.Contains(call, "mcpgen_mcptool.") {
		fmt.Fprintf(&hook, "\n\tmcpgen_mcptool %q\n", registryPkg)
	}
	hook.WriteString(")\n\n")
	// The hook's own failure (fn's error, the catalogue's) is the file's
	// text and exit status 3; any other is the go command's.
	hook.WriteString("func init() {\n\tout := mcpgen_os.Getenv(\"MCPGEN_CATALOG_OUT\")\n\tif out == \"\" {\n\t\treturn\n\t}\n" +
		"\tif err := mcpgen_writeCatalog(out); err != nil {\n\t\t_ = mcpgen_os.WriteFile(out, []byte(err.Error()), 0o644)\n\t\tmcpgen_os.Exit(3)\n\t}\n\tmcpgen_os.Exit(0)\n}\n\n")
	fmt.Fprintf(&hook, "func mcpgen_writeCatalog(out string) error {\n%s\tif err != nil {\n\t\treturn err\n\t}\n", call)
	fmt.Fprintf(&hook, "\tif reg == nil {\n\t\treturn mcpgen_errors.New(%q)\n\t}\n", fn+" returned a nil registry")
	fmt.Fprintf(&hook, "\tc, err := reg.Catalog()\n\tif err != nil {\n\t\treturn err\n\t}\n\tf, err := mcpgen_os.Create(out)\n\tif err != nil {\n\t\treturn err\n\t}\n"+
		"\tif err := c.Write(f, %q, %s); err != nil {\n\t\tf.Close()\n\t\treturn err\n\t}\n\treturn f.Close()\n}\n", format, strconv.Quote(title))
	hookPath := filepath.Join(tmp, "hook.go")
	if err := os.WriteFile(hookPath, hook.Bytes(), 0o644); err != nil {
		return nil, err
	}
	overlay := map[string]string{filepath.Join(absDir, "zz_mcpgen_catalog.go"): hookPath}
	target := "."
	if pkg.Name != "main" {
		mainPath := filepath.Join(tmp, "main.go")
		if err := os.WriteFile(mainPath, []byte("package main\n\nimport _ "+strconv.Quote(pkg.PkgPath)+"\n\nfunc main() {}\n"), 0o644); err != nil {
			return nil, err
		}
		overlay[filepath.Join(absDir, "mcpgen_catalog_main", "main.go")] = mainPath
		target = "./mcpgen_catalog_main"
	}
	ov, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		return nil, err
	}
	ovPath := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		return nil, err
	}
	bin := filepath.Join(tmp, "catalog")
	build := exec.Command("go", "build", "-overlay="+ovPath, "-o", bin, target)
	build.Dir = absDir
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building %s: %v\n%s", pkg.PkgPath, err, strings.TrimSpace(string(out)))
	}
	outPath := filepath.Join(tmp, "catalog.out")
	run := exec.Command(bin)
	run.Dir = absDir
	run.Env = append(os.Environ(), "MCPGEN_CATALOG_OUT="+outPath)
	var stderr bytes.Buffer
	run.Stdout, run.Stderr = io.Discard, &stderr
	err = run.Run()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() == 3 {
		if msg, rerr := os.ReadFile(outPath); rerr == nil {
			return nil, fmt.Errorf("%s: %s", fn, msg)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("running %s of %s: %v\n%s", fn, pkg.PkgPath, err, strings.TrimSpace(stderr.String()))
	}
	return os.ReadFile(outPath)
}

// registryCall is the Go code that calls fn, a function of pkg of one of
// the shapes catalogUsage lists, and leaves reg and err set.
func registryCall(pkg *types.Package, fn string) (string, error) {
	want := fmt.Sprintf("want func %s() (*mcptool.Registry, error), func %[1]s() *mcptool.Registry or func %[1]s(*mcptool.Registry) error (-func names another)", fn)
	obj, ok := pkg.Scope().Lookup(fn).(*types.Func)
	if !ok {
		return "", fmt.Errorf("no function %s: %s", fn, want)
	}
	sig := obj.Type().(*types.Signature)
	params, results := sig.Params(), sig.Results()
	isError := func(t types.Type) bool { return types.Identical(t, types.Universe.Lookup("error").Type()) }
	switch {
	case sig.TypeParams().Len() > 0 || sig.Variadic():
	case params.Len() == 0 && results.Len() == 1 && isRegistry(results.At(0).Type()):
		return fmt.Sprintf("\treg := %s()\n\tvar err error\n", fn), nil
	case params.Len() == 0 && results.Len() == 2 && isRegistry(results.At(0).Type()) && isError(results.At(1).Type()):
		return fmt.Sprintf("\treg, err := %s()\n", fn), nil
	case params.Len() == 1 && isRegistry(params.At(0).Type()) && results.Len() == 1 && isError(results.At(0).Type()):
		return fmt.Sprintf("\treg := mcpgen_mcptool.NewRegistry()\n\terr := %s(reg)\n", fn), nil
	}
	return "", fmt.Errorf("%s is %s: %s", fn, types.TypeString(sig, types.RelativeTo(pkg)), want)
}

// isRegistry reports whether t is *mcptool.Registry.
func isRegistry(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := p.Elem().(*types.Named)
	return ok && n.Obj().Name() == "Registry" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == registryPkg
}

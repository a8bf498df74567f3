package doccheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// block is one fenced Go block of a Markdown file.
type block struct {
	file     string // relative to the repository root
	line     int    // of the opening fence
	fragment bool
	norun    bool // a complete program that needs what a test has not (a real issuer, a file): built, not run
	body     string
}

// generated is a block written out as a Go file of the overlay.
type generated struct {
	b      block
	src    string // the overlay's source file
	offset int
	kind   string // "fragment", "main", "package", "test"
	pkg    string // the package's directory, relative to root
}

func (b block) String() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// fence opens a Go block. CHANGELOG.md's blocks are indented in its list
// items; elsewhere an indented block (an illustration in a list, not Go to
// compile, as in docs/mcpgen.md) is not checked.
var fence = regexp.MustCompile("^([ \t]*)```go(?:[ \t]+(fragment|norun))?[ \t]*$")

// blocks returns the Go blocks of the Markdown file at root/name.
func blocks(t *testing.T, root, name string) []block {
	t.Helper()
	f, err := os.Open(filepath.Join(root, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []block
	var cur *block
	var indent string
	var body strings.Builder
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil:
			if m := fence.FindStringSubmatch(line); m != nil && (m[1] == "" || name == "CHANGELOG.md") {
				cur = &block{file: name, line: n, fragment: m[2] == "fragment", norun: m[2] == "norun"}
				indent = m[1]
				body.Reset()
			}
		case strings.TrimSpace(line) == "```":
			cur.body = body.String()
			out = append(out, *cur)
			cur = nil
		default:
			body.WriteString(strings.TrimPrefix(line, indent))
			body.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Errorf("%s: the block is not closed", cur)
	}
	return out
}

// imports maps the package names fragments use to import paths. The
// packages of mcp-go's client and server take "mcp" in docs/mcp-go.md.
func imports(file string) map[string]string {
	m := map[string]string{
		"mcptool":     "github.com/mcpgen/mcpgen/mcptool",
		"mcptest":     "github.com/mcpgen/mcpgen/mcptool/mcptest",
		"safety":      "github.com/mcpgen/mcpgen/mcptool/safety",
		"taskstore":   "github.com/mcpgen/mcpgen/mcptool/taskstore",
		"cluster":     "github.com/mcpgen/mcpgen/mcptool/cluster",
		"mcpreflect":  "github.com/mcpgen/mcpgen/reflect",
		"annotations": "github.com/mcpgen/mcpgen/annotations",
		"mcpredis":    "github.com/mcpgen/mcpgen/adapters/redis",
		"mcpsqlite":   "github.com/mcpgen/mcpgen/adapters/sqlite",
		"mcpotel":     "github.com/mcpgen/mcpgen/adapters/otel",
		"mcpgo":       "github.com/mcpgen/mcpgen/adapters/mcpgo",
		"mcp":         "github.com/modelcontextprotocol/go-sdk/mcp",
		"jsonrpc":     "github.com/modelcontextprotocol/go-sdk/jsonrpc",
		"jsonschema":  "github.com/invopop/jsonschema",
		"bytes":       "bytes",
		"context":     "context",
		"errors":      "errors",
		"fmt":         "fmt",
		"http":        "net/http",
		"httptest":    "net/http/httptest",
		"image":       "image",
		"png":         "image/png",
		"io":          "io",
		"json":        "encoding/json",
		"log":         "log",
		"os":          "os",
		"exec":        "os/exec",
		"filepath":    "path/filepath",
		"slog":        "log/slog",
		"strings":     "strings",
		"sync":        "sync",
		"testing":     "testing",
		"time":        "time",
		"netip":       "net/netip",
		"url":         "net/url",
		"rate":        "golang.org/x/time/rate",
		"redis":       "github.com/redis/go-redis/v9",
	}
	if file == "docs/mcp-go.md" {
		m["mcp"] = "github.com/mark3labs/mcp-go/mcp"
		m["server"] = "github.com/mark3labs/mcp-go/server"
		m["client"] = "github.com/mark3labs/mcp-go/client"
		m["transport"] = "github.com/mark3labs/mcp-go/client/transport"
	}
	return m
}

// used returns the known package names body qualifies identifiers with
// (name followed by a dot), skipping those it also declares.
func used(body string, known map[string]string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	src := []byte(body)
	s.Init(fset.AddFile("", -1, len(src)), src, func(token.Position, string) {}, 0)
	seen := map[string]bool{}
	declared := map[string]bool{}
	var prev, prev2 string
	var prevTok token.Token
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.PERIOD && prevTok == token.IDENT && prev2 != "." {
			if _, ok := known[prev]; ok {
				seen[prev] = true
			}
		}
		if tok == token.DEFINE && prevTok == token.IDENT {
			declared[prev] = true
		}
		prev2 = prev
		if tok == token.PERIOD {
			prev = "."
		} else {
			prev = lit
		}
		prevTok = tok
	}
	var out []string
	for n := range seen {
		if !declared[n] {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

var (
	elidedBody = regexp.MustCompile(`\{ *\.\.\. *\}`)
	elidedLine = regexp.MustCompile(`(?m)^[ \t]*\.\.\.[ \t]*(//.*)?$`)
	elidedArg  = regexp.MustCompile(`\( *\.\.\. *\)`)
)

// wrap makes a fragment a Go file of package pkg: top-level declarations,
// struct fields or statements, whichever parses. It returns the file and
// the number of lines added before the fragment's first line.
func wrap(pkg string, b block) (src string, offset int, err error) {
	body := elidedBody.ReplaceAllString(b.body, "{ panic(0) }")
	body = elidedLine.ReplaceAllString(body, "")
	body = elidedArg.ReplaceAllString(body, "()")
	known := imports(b.file)
	var head strings.Builder
	fmt.Fprintf(&head, "package %s\n\n", pkg)
	for _, name := range used(body, known) {
		fmt.Fprintf(&head, "import %s %q\n", name, known[name])
	}
	var errs []string
	for _, w := range [][3]string{{"declarations", "", ""}, {"struct fields", "type _ struct {\n", "}\n"}, {"statements", "func _() error {\n", "}\n"}} {
		h := head.String() + w[1]
		src := h + body + w[2]
		if _, err := parser.ParseFile(token.NewFileSet(), "", src, 0); err != nil {
			// The error's line, counted from the fragment's first line.
			msg := err.Error()
			if el, ok := err.(scanner.ErrorList); ok && len(el) > 0 {
				msg = fmt.Sprintf("line %d: %s", el[0].Pos.Line-strings.Count(h, "\n"), el[0].Msg)
			}
			errs = append(errs, w[0]+": "+msg)
			continue
		}
		return src, strings.Count(h, "\n"), nil
	}
	return "", 0, fmt.Errorf("%s", strings.Join(errs, "; "))
}

// ignorable are the compile errors of a fragment that come from what it
// leaves to its surroundings: names it does not declare, variables it
// declares for the reader and does not use, and the packages it names
// only where those names are undefined.
var ignorable = regexp.MustCompile(`: (undefined: [A-Za-z_][A-Za-z0-9_]*$|declared and not used|"[^"]+" imported( as \w+)? and not used|missing return|label \w+ defined and not used|cannot infer )`)

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// TestDocBlocksCompile compiles every fenced Go block of README.md,
// CHANGELOG.md and docs/*.md, runs the programs and the tests among them.
func TestDocBlocksCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root := repoRoot(t)
	files := []string{"README.md", "CHANGELOG.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		files = append(files, filepath.ToSlash(must(filepath.Rel(root, d))))
	}

	tmp := t.TempDir()
	overlay := map[string]string{}
	var gens []generated
	n := 0
	for _, f := range files {
		for _, b := range blocks(t, root, f) {
			n++
			pkg := fmt.Sprintf("b%03d", n)
			dir := filepath.Join("internal", "doccheck", "zz_blocks", pkg)
			g := generated{b: b, pkg: dir}
			name := "b.go"
			var clause string // the block's package name, when it is a whole file
			if f, err := parser.ParseFile(token.NewFileSet(), "", b.body, parser.PackageClauseOnly); err == nil {
				clause = f.Name.Name
			}
			switch {
			case clause == "main":
				g.kind = "main"
			case clause != "" && (strings.HasSuffix(clause, "_test") || strings.Contains(b.body, "\nfunc Test")):
				g.kind, name = "test", "b_test.go"
			case clause != "":
				g.kind = "package" // a library file: compiled
			case !b.fragment:
				t.Errorf("%s: neither a complete program (package main) nor a test file: mark the block ```go fragment", b)
				continue
			default:
				g.kind = "fragment"
			}
			src := b.body
			if g.kind == "fragment" {
				src, g.offset, err = wrap(pkg, b)
				if err != nil {
					t.Errorf("%s: the fragment does not parse as declarations, struct fields or statements: %v", b, err)
					continue
				}
			}
			g.src = filepath.Join(tmp, pkg+"_"+name)
			if err := os.WriteFile(g.src, []byte(src), 0o600); err != nil {
				t.Fatal(err)
			}
			overlay[filepath.Join(root, dir, name)] = g.src
			gens = append(gens, g)
		}
	}
	if len(gens) == 0 {
		t.Fatal("no Go blocks found")
	}
	ov, _ := json.Marshal(map[string]any{"Replace": overlay})
	ovFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovFile, ov, 0o600); err != nil {
		t.Fatal(err)
	}
	bySrc := map[string]generated{}
	var pkgs []string
	for _, g := range gens {
		bySrc[g.src] = g
		if g.kind != "test" {
			pkgs = append(pkgs, "./"+filepath.ToSlash(g.pkg))
		}
	}

	// Compile every fragment and program at once, with every error (-e).
	// On a machine with empty caches this downloads and compiles every
	// dependency the blocks import: the test's own deadline bounds it, not a
	// fixed one shorter than go test's.
	ctx := t.Context()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-30*time.Second))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, "go", append([]string{"build", "-overlay", ovFile, "-gcflags=-e", "-o", os.DevNull}, pkgs...)...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	for _, e := range buildErrors(root, out, err, bySrc) {
		t.Error(e)
	}

	// Run the programs and the tests.
	for _, g := range gens {
		switch g.kind {
		case "main":
			bin := filepath.Join(tmp, filepath.Base(g.pkg))
			build := exec.CommandContext(ctx, "go", "build", "-overlay", ovFile, "-o", bin, "./"+filepath.ToSlash(g.pkg))
			build.Dir = root
			if out, err := build.CombinedOutput(); err != nil {
				t.Errorf("%s: go build: %v\n%s", g.b, err, out)
				continue
			}
			if g.b.norun {
				continue
			}
			rctx, rcancel := context.WithTimeout(ctx, 30*time.Second)
			run := exec.CommandContext(rctx, bin)
			run.Dir = tmp
			run.Stdin = bytes.NewReader(nil)
			if out, err := run.CombinedOutput(); err != nil {
				t.Errorf("%s: the program failed: %v\n%s", g.b, err, out)
			}
			rcancel()
		case "test":
			test := exec.CommandContext(ctx, "go", "test", "-overlay", ovFile, "-count=1", "./"+filepath.ToSlash(g.pkg))
			test.Dir = root
			if out, err := test.CombinedOutput(); err != nil {
				t.Errorf("%s: go test: %v\n%s", g.b, err, out)
			}
		}
	}
	t.Logf("%d Go blocks compiled", len(gens))
}

// errLine is a compile error as go build prints it: file:line:col: message.
var errLine = regexp.MustCompile(`^(.+\.go):(\d+):(\d+): (.*)$`)

// progress is what go build prints on its way that is not an error: the
// modules it fetches into an empty module cache, and the headers ("# pkg")
// of each package's errors.
var progress = regexp.MustCompile(`^(go: downloading \S+ \S+|#.*|\s*)$`)

// buildErrors returns the errors of the go build of the blocks: its output
// out and its outcome err, with bySrc mapping each overlay source to its
// block. Errors in a block are reported at the block's line in its Markdown
// file; a fragment's ignorable errors are dropped. Since fragments leave
// names undefined, go build fails for them: its exit status alone says
// nothing, and a failure with no error line in its output is reported whole.
func buildErrors(root string, out []byte, err error, bySrc map[string]generated) []string {
	var errs []string
	located := false
	for _, line := range strings.Split(string(out), "\n") {
		if progress.MatchString(line) {
			continue
		}
		m := errLine.FindStringSubmatch(line)
		if m == nil {
			errs = append(errs, "go build: "+line)
			continue
		}
		located = true
		// go build names a file by the shorter of its absolute path and its
		// path relative to root: a temporary directory near the clone comes
		// back relative.
		src := m[1]
		if !filepath.IsAbs(src) {
			src = filepath.Join(root, src)
		}
		g, ok := bySrc[filepath.Clean(src)]
		if !ok {
			errs = append(errs, "go build: "+line)
			continue
		}
		if g.kind == "fragment" && ignorable.MatchString(line) {
			continue
		}
		var ln int
		fmt.Sscan(m[2], &ln)
		errs = append(errs, fmt.Sprintf("%s:%d: %s", g.b.file, g.b.line+ln-g.offset, m[4]))
	}
	if err != nil && !located && len(errs) == 0 {
		errs = append(errs, fmt.Sprintf("go build: %v\n%s", err, out))
	}
	return errs
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

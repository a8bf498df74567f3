package safety_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/safety"
)

// A Root confines a tool's file access to one directory: paths below it
// work, and a path that climbs out with ".." is refused with an error the
// model can read.
func ExampleRoot() {
	base, err := os.MkdirTemp("", "safety-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(base)

	// A file next to the data directory, which tools must not reach.
	if err := os.WriteFile(filepath.Join(base, "secret.txt"), []byte("top secret"), 0o600); err != nil {
		panic(err)
	}
	root, err := safety.OpenRoot(filepath.Join(base, "data")) // created if missing
	if err != nil {
		panic(err)
	}
	defer root.Close()

	if err := root.WriteFile("notes/today.txt", []byte("buy milk")); err != nil {
		panic(err)
	}
	b, err := root.ReadFile("notes/today.txt", 0)
	fmt.Printf("%q %v\n", b, err)

	_, err = root.ReadFile("../secret.txt", 0)
	fmt.Println(err)
	fmt.Println(errors.Is(err, safety.ErrOutsideRoot), mcptool.IsUserError(err))
	// Output:
	// "buy milk" <nil>
	// path is outside the allowed directory: "../secret.txt" leaves the data directory
	// true true
}

// OpenRoot creates the directory when it does not exist yet, and Dir
// reports it as an absolute path.
func ExampleOpenRoot() {
	base, err := os.MkdirTemp("", "safety-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(base)

	root, err := safety.OpenRoot(filepath.Join(base, "new", "data"))
	if err != nil {
		panic(err)
	}
	defer root.Close()
	fi, err := os.Stat(root.Dir())
	fmt.Println(err, fi.IsDir(), filepath.IsAbs(root.Dir()))
	// Output:
	// <nil> true true
}

// Open follows a symlink while it stays below the root, and refuses one
// that leads out of it.
func ExampleRoot_Open() {
	base, err := os.MkdirTemp("", "safety-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(base)
	outside := filepath.Join(base, "secret.txt")
	if err := os.WriteFile(outside, []byte("top secret"), 0o600); err != nil {
		panic(err)
	}
	root, err := safety.OpenRoot(filepath.Join(base, "data"))
	if err != nil {
		panic(err)
	}
	defer root.Close()
	if err := root.WriteFile("report.txt", []byte("all good")); err != nil {
		panic(err)
	}
	// Symlinks made behind the tool's back, for instance by another program.
	if err := os.Symlink("report.txt", filepath.Join(root.Dir(), "latest")); err != nil {
		panic(err)
	}
	if err := os.Symlink(outside, filepath.Join(root.Dir(), "escape")); err != nil {
		panic(err)
	}

	f, err := root.Open("latest")
	if err != nil {
		panic(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	fmt.Printf("latest: %q\n", b)

	_, err = root.Open("escape")
	fmt.Println(err)
	fmt.Println(errors.Is(err, safety.ErrOutsideRoot))

	_, err = root.Open("missing.txt")
	fmt.Println(err)
	// Output:
	// latest: "all good"
	// path is outside the allowed directory: "escape" leads out of the data directory (symlink)
	// true
	// "missing.txt" does not exist
}

// Clean checks a client's path before anything touches the disk, and
// returns it relative to the root.
func ExampleRoot_Clean() {
	root, done := exampleRoot()
	defer done()

	for _, name := range []string{
		"reports/2024/q1.csv",
		"./reports/../notes.txt", // ".." that stays inside is fine
		"reports/../../etc/passwd",
		"/etc/passwd",
		`./\Windows\win.ini`, // a Windows-style absolute path, however written
		"",
	} {
		clean, err := root.Clean(name)
		if err != nil {
			fmt.Println("refused:", err)
			continue
		}
		fmt.Println("ok:", clean)
	}
	// Output:
	// ok: reports/2024/q1.csv
	// ok: notes.txt
	// refused: path is outside the allowed directory: "reports/../../etc/passwd" leaves the data directory
	// refused: path is outside the allowed directory: "/etc/passwd" is absolute; give a path relative to the data directory
	// refused: path is outside the allowed directory: "./\\Windows\\win.ini" is absolute; give a path relative to the data directory
	// refused: the path is empty
}

// ReadFile with a limit refuses files larger than the tool is willing to
// load into memory.
func ExampleRoot_ReadFile() {
	root, done := exampleRoot()
	defer done()
	if err := root.WriteFile("big.log", []byte("0123456789")); err != nil {
		panic(err)
	}

	b, err := root.ReadFile("big.log", 10)
	fmt.Printf("%q %v\n", b, err)
	_, err = root.ReadFile("big.log", 4)
	fmt.Println(err)
	// Output:
	// "0123456789" <nil>
	// "big.log" is larger than 4 bytes
}

// Stat and Remove work on paths below the root; the root itself cannot be
// removed.
func ExampleRoot_Remove() {
	root, done := exampleRoot()
	defer done()
	if err := root.WriteFile("tmp/scratch.txt", []byte("x")); err != nil {
		panic(err)
	}

	fi, err := root.Stat("tmp/scratch.txt")
	fmt.Println(fi.Size(), err)
	fmt.Println(root.Remove("tmp/scratch.txt"))
	_, err = root.Stat("tmp/scratch.txt")
	fmt.Println(err)
	fmt.Println(root.Remove("."))
	// Output:
	// 1 <nil>
	// <nil>
	// "tmp/scratch.txt" does not exist
	// path is outside the allowed directory: refusing to remove the data directory itself
}

// FS exposes the root to the io/fs helpers, for instance to list every file
// a tool may read.
func ExampleRoot_FS() {
	root, done := exampleRoot()
	defer done()
	for _, name := range []string{"a.txt", "docs/b.md", "docs/img/c.png"} {
		if err := root.WriteFile(name, nil); err != nil {
			panic(err)
		}
	}

	err := fs.WalkDir(root.FS(), ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			fmt.Println(path)
		}
		return err
	})
	fmt.Println(err)
	// Output:
	// a.txt
	// docs/b.md
	// docs/img/c.png
	// <nil>
}

// WriteStream writes a file too large to build in memory: the content
// streams to a temporary file that replaces the target only when the
// writing function succeeds.
func ExampleRoot_WriteStream() {
	root, done := exampleRoot()
	defer done()

	n, err := root.WriteStream("reports/numbers.csv", func(w io.Writer) error {
		if _, err := io.WriteString(w, "n\n"); err != nil {
			return err
		}
		for i := range 1000 {
			if _, err := fmt.Fprintln(w, i); err != nil {
				return err
			}
		}
		return nil
	})
	fmt.Println(n, err)

	_, err = root.WriteStream("reports/numbers.csv", func(w io.Writer) error {
		return errors.New("interrupted")
	})
	fi, _ := root.Stat("reports/numbers.csv")
	fmt.Println(err, fi.Size())
	// Output:
	// 3892 <nil>
	// interrupted 3892
}

// NewRunner looks every program up in PATH once, so a missing program is
// found at start-up; Builtin gives the argument policies of common programs,
// and a program without one is refused.
func ExampleNewRunner() {
	root, done := exampleRoot()
	defer done()

	run, err := safety.NewRunner(root, safety.Builtin("echo", "ls"), safety.RunnerOptions{})
	fmt.Println(run.Allowed(), err)

	_, err = safety.NewRunner(root, safety.Builtin("sh"), safety.RunnerOptions{})
	fmt.Println(err)
	// Output:
	// [echo ls] <nil>
	// safety: program "sh": no built-in argument policy (built in: cat, date, echo, head, ls, sleep, tail, uname, wc); describe its arguments with a Program
}

// Run checks the arguments against the program's policy and resolves every
// path in the root before the program starts: a path that leads out, or an
// option the policy does not accept, is an error the model can read, and
// nothing runs. There is no shell, so metacharacters are plain text.
func ExampleRunner_Run() {
	root, done := exampleRoot()
	defer done()
	if err := root.WriteFile("sales.csv", []byte("region,units\nnorth,3\nsouth,4\n")); err != nil {
		panic(err)
	}
	run, err := safety.NewRunner(root, safety.Builtin("echo", "wc"), safety.RunnerOptions{})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	res, err := run.Run(ctx, "echo", "hello", "$(id)", "; rm -rf /", "|cat")
	fmt.Printf("%q %v\n", res.Stdout, err)
	res, err = run.Run(ctx, "wc", "-l", "sales.csv")
	fmt.Printf("%q %v\n", res.Stdout, err)

	for _, args := range [][]string{
		{"-l", "/etc/passwd"},
		{"-l", "../../etc/passwd"},
		{"--files0-from=/etc/passwd"},
	} {
		_, err = run.Run(ctx, "wc", args...)
		fmt.Println(err)
	}
	_, err = run.Run(ctx, "rm", "-rf", "/")
	fmt.Println(err)
	fmt.Println(errors.Is(err, safety.ErrNotAllowed), mcptool.IsUserError(err))
	// Output:
	// "hello $(id) ; rm -rf / |cat\n" <nil>
	// "3 sales.csv\n" <nil>
	// wc: path is outside the allowed directory: "/etc/passwd" is absolute; give a path relative to the data directory
	// wc: path is outside the allowed directory: "../../etc/passwd" leaves the data directory
	// wc: argument not accepted: option "--files0-from" is not accepted (wc accepts -c, --bytes, -m, --chars, -l, --lines, -w, --words, -L, --max-line-length)
	// program is not on the allowlist: "rm" (allowed: echo, wc)
	// true true
}

// A Program describes a program Builtin does not know: the options it
// accepts (an allowlist: any other is refused), which take a value, and
// whether its operands are text or paths below the root. Its String is a
// usage line for the tool's description.
func ExampleProgram() {
	root, done := exampleRoot()
	defer done()
	if err := root.WriteFile("notes.txt", []byte("b\na\nb\n")); err != nil {
		panic(err)
	}
	sortProg := safety.Program{
		Name: "sort",
		Options: []safety.Option{
			{Names: []string{"-r", "--reverse"}},
			{Names: []string{"-u", "--unique"}},
			{Names: []string{"-k", "--key"}, Value: safety.Text},
			// Not -o/--output (it writes anywhere), nor --files0-from.
		},
		Operands: safety.Path,
	}
	fmt.Println(sortProg)

	run, err := safety.NewRunner(root, []safety.Program{sortProg}, safety.RunnerOptions{})
	if err != nil {
		panic(err)
	}
	res, err := run.Run(context.Background(), "sort", "-ru", "notes.txt")
	fmt.Printf("%q %v\n", res.Stdout, err)
	_, err = run.Run(context.Background(), "sort", "-o/tmp/x", "notes.txt")
	fmt.Println(err)
	fmt.Println(errors.Is(err, safety.ErrArgument))
	// Output:
	// sort [-r|--reverse] [-u|--unique] [-k TEXT|--key=TEXT] [PATH...]
	// "b\na\n" <nil>
	// sort: argument not accepted: option "-o" is not accepted (sort accepts -r, --reverse, -u, --unique, -k, --key)
	// true
}

// Builtin's policies, as the usage lines a tool description can show.
func ExampleBuiltin() {
	for _, p := range safety.Builtin("date", "uname", "wc") {
		fmt.Println(p)
	}
	// Output:
	// date [-u|--utc|--universal] [-R|--rfc-email] [-I[TEXT]|--iso-8601[=TEXT]] [--rfc-3339=TEXT] [-r PATH|--reference=PATH] [+FORMAT]
	// uname [-a|--all] [-s|--kernel-name] [-n|--nodename] [-r|--kernel-release] [-v|--kernel-version] [-m|--machine] [-p|--processor] [-i|--hardware-platform] [-o|--operating-system]
	// wc [-c|--bytes] [-m|--chars] [-l|--lines] [-w|--words] [-L|--max-line-length] [PATH...]
}

// Allowed lists the runner's programs, sorted.
func ExampleRunner_Allowed() {
	root, done := exampleRoot()
	defer done()
	run, err := safety.NewRunner(root, safety.Builtin("wc", "echo", "date"), safety.RunnerOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("Runs one of:", run.Allowed())
	// Output:
	// Runs one of: [date echo wc]
}

// RunnerOptions bound each run: MaxOutput cuts stdout and stderr (and sets
// Truncated), Timeout stops the program (and sets TimedOut), and Env
// replaces the environment, which by default holds only PATH.
func ExampleRunnerOptions() {
	root, done := exampleRoot()
	defer done()
	ctx := context.Background()
	env := safety.Program{Name: "env"} // no arguments at all

	capped, err := safety.NewRunner(root, safety.Builtin("echo"), safety.RunnerOptions{MaxOutput: 5})
	if err != nil {
		panic(err)
	}
	res, _ := capped.Run(ctx, "echo", "a long line of output")
	fmt.Printf("%q truncated=%v\n", res.Stdout, res.Truncated)

	quick, err := safety.NewRunner(root, safety.Builtin("sleep"), safety.RunnerOptions{Timeout: 100 * time.Millisecond})
	if err != nil {
		panic(err)
	}
	res, _ = quick.Run(ctx, "sleep", "10")
	fmt.Printf("timedOut=%v exit=%d\n", res.TimedOut, res.ExitCode)

	def, err := safety.NewRunner(root, []safety.Program{env}, safety.RunnerOptions{})
	if err != nil {
		panic(err)
	}
	res, _ = def.Run(ctx, "env")
	fmt.Print(res.Stdout)

	custom, err := safety.NewRunner(root, []safety.Program{env}, safety.RunnerOptions{Env: []string{"LANG=C", "TZ=UTC"}})
	if err != nil {
		panic(err)
	}
	res, _ = custom.Run(ctx, "env")
	fmt.Print(res.Stdout)
	// Output:
	// "a lon" truncated=true
	// timedOut=true exit=-1
	// PATH=/usr/local/bin:/usr/bin:/bin
	// LANG=C
	// TZ=UTC
}

// A non-zero exit is a RunResult, not an error, so a tool can hand the
// whole result (exit code, output, flags) to the model as structured
// content.
func ExampleRunResult() {
	root, done := exampleRoot()
	defer done()
	run, err := safety.NewRunner(root, []safety.Program{{Name: "false"}}, safety.RunnerOptions{})
	if err != nil {
		panic(err)
	}
	res, err := run.Run(context.Background(), "false")
	fmt.Println(err)
	b, _ := json.Marshal(res)
	fmt.Println(string(b))
	// Output:
	// <nil>
	// {"exitCode":1,"stdout":"","stderr":"","truncated":false,"timedOut":false}
}

// Check allows a public https URL and refuses other schemes, credentials in
// the URL, and hosts that are (or resolve to) loopback or private addresses.
// IP literals are checked without a DNS lookup.
func ExampleURLPolicy_Check() {
	ctx := context.Background()
	var policy safety.URLPolicy // https only, public addresses only

	u, err := policy.Check(ctx, "https://93.184.216.34/docs?page=2")
	fmt.Println(u.Host, u.Path, err)

	for _, raw := range []string{
		"http://93.184.216.34/",
		"https://127.0.0.1:8080/admin",
		"https://10.0.0.7/internal",
		"https://169.254.169.254/latest/meta-data/",
		"https://user:pw@93.184.216.34/",
	} {
		_, err := policy.Check(ctx, raw)
		fmt.Println(errors.Is(err, safety.ErrForbiddenURL), err)
	}
	// Output:
	// 93.184.216.34 /docs <nil>
	// true URL not allowed: scheme "http" (allowed: https)
	// true URL not allowed: 127.0.0.1 resolves to the non-public address 127.0.0.1
	// true URL not allowed: 10.0.0.7 resolves to the non-public address 10.0.0.7
	// true URL not allowed: 169.254.169.254 resolves to the non-public address 169.254.169.254
	// true URL not allowed: credentials in the URL
}

// A policy for a configured local endpoint: plain http allowed alongside
// https, and private addresses allowed. The scheme list still applies.
func ExampleURLPolicy() {
	local := safety.URLPolicy{Schemes: []string{"http", "https"}, AllowPrivate: true}
	ctx := context.Background()

	u, err := local.Check(ctx, "http://127.0.0.1:11434/api/generate")
	fmt.Println(u, err)
	_, err = local.Check(ctx, "file:///etc/passwd")
	fmt.Println(err)
	// Output:
	// http://127.0.0.1:11434/api/generate <nil>
	// URL not allowed: scheme "file" (allowed: http, https)
}

// HTTPClient checks the address of every connection it makes, so a URL
// that passed Check cannot reach a private address later (DNS rebinding).
// Here a server on loopback is refused unless the policy allows private
// addresses.
func ExampleURLPolicy_HTTPClient() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "internal data")
	}))
	defer srv.Close()

	strict := safety.URLPolicy{Schemes: []string{"http"}}.HTTPClient(5 * time.Second)
	_, err := strict.Get(srv.URL)
	fmt.Println(errors.Is(err, safety.ErrForbiddenURL))

	local := safety.URLPolicy{Schemes: []string{"http"}, AllowPrivate: true}.HTTPClient(5 * time.Second)
	resp, err := local.Get(srv.URL)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(b))
	// Output:
	// true
	// 200 internal data
}

// exampleRoot opens a Root on a new temporary directory; done closes it and
// removes the directory.
func exampleRoot() (root *safety.Root, done func()) {
	base, err := os.MkdirTemp("", "safety-example")
	if err != nil {
		panic(err)
	}
	root, err = safety.OpenRoot(base)
	if err != nil {
		panic(err)
	}
	return root, func() { root.Close(); os.RemoveAll(base) }
}

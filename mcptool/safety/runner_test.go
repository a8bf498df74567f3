package safety_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/safety"
)

// confined is a root for the runner tests, with things outside it that no
// run may show: a secret file next to it and a directory whose entry names
// are markers, and symlinks planted inside that lead out.
type confined struct {
	run     *safety.Runner
	secret  string // absolute path of a file outside the root
	outside string // absolute path of a directory outside the root
}

// Text that is outside the root: no run may print it.
const (
	secretText   = "TOP-SECRET-CONTENT"
	outsideEntry = "outside-marker-entry"
)

func newConfined(t *testing.T, names ...string) *confined {
	t.Helper()
	base := t.TempDir()
	c := &confined{secret: filepath.Join(base, "secret.txt"), outside: filepath.Join(base, "outside")}
	require.NoError(t, os.WriteFile(c.secret, []byte(secretText+"\n2026-01-01\n"), 0o600))
	require.NoError(t, os.MkdirAll(filepath.Join(c.outside, outsideEntry), 0o700))
	root, err := safety.OpenRoot(filepath.Join(base, "data", "files"))
	require.NoError(t, err)
	t.Cleanup(func() { _ = root.Close() })
	for name, content := range map[string]string{
		"sales.csv":               "month,units\n2025-01,3\n2025-02,4\n",
		"sub/a.txt":               "one two three\n",
		"-n":                      "a file whose name looks like an option\n",
		"--files0-from=sales.csv": "another\n",
	} {
		require.NoError(t, root.WriteFile(name, []byte(content)))
	}
	for link, target := range map[string]string{
		"escape":      c.secret,
		"rel_escape":  "../../secret.txt",
		"dirlink":     c.outside,
		"rel_dirlink": "../../outside",
		"sub/up":      "../../../outside",
		"dangling":    "../../no-such-file",
		"inside":      "sales.csv",
		"insidedir":   "sub",
	} {
		require.NoError(t, os.Symlink(target, filepath.Join(root.Dir(), link)))
	}
	if len(names) == 0 {
		names = []string{"echo", "date", "uname", "ls", "wc", "cat", "head", "tail", "sleep"}
	}
	c.run, err = safety.NewRunner(root, safety.Builtin(names...), safety.RunnerOptions{Timeout: 5 * time.Second})
	require.NoError(t, err)
	return c
}

// TestRunnerConfinement runs every program of mcpgen-demo's default
// allowlist (and the other built-in policies) with every form of file
// argument we know: absolute paths, "..", symlinks that lead out, option
// values attached and apart, long options with "=", bundled short options,
// "--" and operands that look like options, and the options that read or
// change what lies outside (date -f/-s, wc --files0-from, ls -L). Refused
// ones must not run; accepted ones run for real and must not print what is
// outside.
func TestRunnerConfinement(t *testing.T) {
	c := newConfined(t)
	abs := c.secret
	// refused: the error wraps is and contains msg; nothing runs.
	// ok: the program runs, its stdout contains out (when given).
	type tc struct {
		prog string
		args []string
		is   error  // refused with this
		msg  string // the refusal names this
		out  string // accepted: stdout contains this
	}
	outside, arg := safety.ErrOutsideRoot, safety.ErrArgument
	cases := []tc{
		// ls
		{prog: "ls", args: []string{"/"}, is: outside, msg: `"/" is absolute`},
		{prog: "ls", args: []string{c.outside}, is: outside, msg: "is absolute"},
		{prog: "ls", args: []string{".."}, is: outside, msg: `".." leaves the data directory`},
		{prog: "ls", args: []string{"../.."}, is: outside, msg: `"../.." leaves`},
		{prog: "ls", args: []string{"sub/../../.."}, is: outside, msg: "leaves"},
		{prog: "ls", args: []string{"-la", "../../outside"}, is: outside, msg: "leaves"},
		{prog: "ls", args: []string{"dirlink"}, is: outside, msg: `"dirlink" leads out of the data directory (symlink)`},
		{prog: "ls", args: []string{"rel_dirlink"}, is: outside, msg: "(symlink)"},
		{prog: "ls", args: []string{"-d", "rel_dirlink/"}, is: outside, msg: "(symlink)"},
		{prog: "ls", args: []string{"sub/up"}, is: outside, msg: "(symlink)"},
		{prog: "ls", args: []string{"-l", "escape"}, is: outside, msg: "(symlink)"},
		{prog: "ls", args: []string{"dangling"}, is: outside, msg: "(symlink)"},
		{prog: "ls", args: []string{"--", "/"}, is: outside, msg: "is absolute"},
		{prog: "ls", args: []string{"-L"}, is: arg, msg: `option "-L" is not accepted (ls accepts -a, --all,`},
		{prog: "ls", args: []string{"-laL", "sub"}, is: arg, msg: `option "-L" is not accepted`},
		{prog: "ls", args: []string{"--dereference", "insidedir"}, is: arg, msg: `option "--dereference" is not accepted`},
		{prog: "ls", args: []string{"--deref"}, is: arg, msg: `"--deref" is not accepted`},
		{prog: "ls", args: []string{"--all=yes"}, is: arg, msg: "option --all takes no value"},
		{prog: "ls", args: []string{"-I"}, is: arg, msg: "option -I needs a value"},
		{prog: "ls", args: []string{}, out: "sales.csv"},
		{prog: "ls", args: []string{"-la", "sub"}, out: "a.txt"},
		{prog: "ls", args: []string{"-R"}, out: "sub:"},
		{prog: "ls", args: []string{"insidedir"}, out: "a.txt"},
		{prog: "ls", args: []string{"-d", "sub/.."}, out: "."},
		{prog: "ls", args: []string{"--", "-n"}, out: "./-n"},
		{prog: "ls", args: []string{"-I", "sales.csv", "--hide=-n"}, out: "sub"},
		// wc
		{prog: "wc", args: []string{"-c", abs}, is: outside, msg: "is absolute"},
		{prog: "wc", args: []string{"/etc/passwd"}, is: outside, msg: `"/etc/passwd" is absolute`},
		{prog: "wc", args: []string{"../../secret.txt"}, is: outside, msg: "leaves"},
		{prog: "wc", args: []string{"escape"}, is: outside, msg: "(symlink)"},
		{prog: "wc", args: []string{"rel_escape"}, is: outside, msg: "(symlink)"},
		{prog: "wc", args: []string{"-l", "--", abs}, is: outside, msg: "is absolute"},
		{prog: "wc", args: []string{"--files0-from=/etc/passwd"}, is: arg, msg: `option "--files0-from" is not accepted`},
		{prog: "wc", args: []string{"--files0-from", "sales.csv"}, is: arg, msg: `option "--files0-from" is not accepted`},
		{prog: "wc", args: []string{"--files0=/etc/passwd"}, is: arg, msg: `option "--files0" is not accepted`},
		{prog: "wc", args: []string{"--lines=x"}, is: arg, msg: "option --lines takes no value"},
		{prog: "wc", args: []string{"-l", "sales.csv"}, out: "3 sales.csv"},
		{prog: "wc", args: []string{"-lw", "sub/a.txt"}, out: " 3 sub/a.txt"},
		{prog: "wc", args: []string{"--lines", "inside"}, out: "3 inside"},
		{prog: "wc", args: []string{"-l", "--", "-n"}, out: "1 ./-n"},
		{prog: "wc", args: []string{"-c", "--", "--files0-from=sales.csv"}, out: "8 ./--files0-from=sales.csv"},
		{prog: "wc", args: []string{"-l", "sub/../sales.csv"}, out: "3 sales.csv"},
		// date
		{prog: "date", args: []string{"-f", abs}, is: arg, msg: `option "-f" is not accepted (date accepts -u, --utc,`},
		{prog: "date", args: []string{"-f" + abs}, is: arg, msg: `option "-f" is not accepted`},
		{prog: "date", args: []string{"--file=" + abs}, is: arg, msg: `option "--file" is not accepted`},
		{prog: "date", args: []string{"--file", "sales.csv"}, is: arg, msg: `option "--file" is not accepted`},
		{prog: "date", args: []string{"--fi=" + abs}, is: arg, msg: `option "--fi" is not accepted`},
		{prog: "date", args: []string{"-uf", abs}, is: arg, msg: `option "-f" is not accepted`},
		{prog: "date", args: []string{"-s", "2000-01-01"}, is: arg, msg: `option "-s" is not accepted`},
		{prog: "date", args: []string{"--set=2000-01-01"}, is: arg, msg: `option "--set" is not accepted`},
		{prog: "date", args: []string{"-d", `TZ="` + abs + `" now`}, is: arg, msg: `option "-d" is not accepted`},
		{prog: "date", args: []string{"010100002000"}, is: arg, msg: "an operand without + would set the clock"},
		{prog: "date", args: []string{"--", "0101"}, is: arg, msg: "would set the clock"},
		{prog: "date", args: []string{"+%s", "+%Y"}, is: arg, msg: "2 operands given, at most 1 accepted"},
		{prog: "date", args: []string{"-r", abs}, is: outside, msg: "is absolute"},
		{prog: "date", args: []string{"-r" + abs}, is: outside, msg: "is absolute"},
		{prog: "date", args: []string{"-ur", "../../secret.txt"}, is: outside, msg: "leaves"},
		{prog: "date", args: []string{"--reference=" + abs}, is: outside, msg: "is absolute"},
		{prog: "date", args: []string{"--reference", "escape"}, is: outside, msg: "(symlink)"},
		{prog: "date", args: []string{"-r"}, is: arg, msg: "option -r needs a value"},
		{prog: "date", args: []string{"-u", "+%Y"}, out: "20"},
		{prog: "date", args: []string{"-r", "sales.csv", "+%Y"}, out: "20"},
		{prog: "date", args: []string{"--reference=sub/a.txt", "-u", "+ok %Y"}, out: "ok 20"},
		{prog: "date", args: []string{"-Ihours", "-u"}, out: "+00:00"},
		{prog: "date", args: []string{"--rfc-3339", "date"}, out: "-"},
		// uname: no operands, no paths
		{prog: "uname", args: []string{abs}, is: arg, msg: "uname takes no operands, only options"},
		{prog: "uname", args: []string{"--", "-a"}, is: arg, msg: "takes no operands"},
		{prog: "uname", args: []string{"-x"}, is: arg, msg: `option "-x" is not accepted (uname accepts -a, --all,`},
		{prog: "uname", args: []string{"-sr"}, out: "Linux"},
		{prog: "uname", args: []string{"--kernel-name"}, out: "Linux"},
		// echo: its arguments are text, never opened
		{prog: "echo", args: []string{abs}, out: abs},
		{prog: "echo", args: []string{"-n", "../../secret.txt"}, out: "../../secret.txt"},
		{prog: "echo", args: []string{"--help"}, is: arg, msg: `option "--help" is not accepted (echo accepts -n, -e, -E)`},
		// cat, head, tail, sleep (built in, not on the demo's default list)
		{prog: "cat", args: []string{abs}, is: outside, msg: "is absolute"},
		{prog: "cat", args: []string{"escape"}, is: outside, msg: "(symlink)"},
		{prog: "cat", args: []string{"-n", "sub/a.txt"}, out: "1\tone two three"},
		{prog: "head", args: []string{"-n1", "../../secret.txt"}, is: outside, msg: "leaves"},
		{prog: "head", args: []string{"-n", "1", "sales.csv"}, out: "month,units"},
		{prog: "head", args: []string{"--lines=-2", "sales.csv"}, out: "month,units"},
		{prog: "tail", args: []string{"-f", "sales.csv"}, is: arg, msg: `option "-f" is not accepted`},
		{prog: "tail", args: []string{"--follow=name", "sales.csv"}, is: arg, msg: `"--follow" is not accepted`},
		{prog: "tail", args: []string{"-n1", "rel_escape"}, is: outside, msg: "(symlink)"},
		{prog: "tail", args: []string{"-n1", "sales.csv"}, out: "2025-02,4"},
		{prog: "sleep", args: []string{"0"}, out: ""},
		{prog: "sleep", args: []string{"--help"}, is: arg, msg: "sleep takes no options"},
	}
	ctx := context.Background()
	for _, tt := range cases {
		name := tt.prog + " " + strings.Join(tt.args, " ")
		t.Run(name, func(t *testing.T) {
			res, err := c.run.Run(ctx, tt.prog, tt.args...)
			if tt.is != nil {
				require.Error(t, err, "refused: %+v", res)
				assert.ErrorIs(t, err, tt.is)
				assert.Contains(t, err.Error(), tt.msg)
				assert.True(t, strings.HasPrefix(err.Error(), tt.prog+": "), "the refusal names the program: %v", err)
				assert.True(t, mcptool.IsUserError(err), "the model reads it")
				return
			}
			require.NoError(t, err)
			assert.False(t, res.TimedOut)
			assert.Contains(t, res.Stdout, tt.out, "stderr: %s", res.Stderr)
			for _, s := range []string{res.Stdout, res.Stderr} {
				assert.NotContains(t, s, secretText)
				assert.NotContains(t, s, outsideEntry)
			}
		})
	}
}

// TestRunnerCanonicalArgs checks that the program gets what the policy
// checked, even where getopt reads more than it seems: an operand after
// "--" that looks like an option stays an operand, and a path operand that
// begins with "-" is made "./-…" so it cannot become one.
func TestRunnerCanonicalArgs(t *testing.T) {
	c := newConfined(t, "echo", "wc", "ls")
	ctx := context.Background()
	res, err := c.run.Run(ctx, "echo", "-ne", "a", "--", "-x")
	require.NoError(t, err)
	assert.Equal(t, "-- a -x", res.Stdout, "echo -n -e -- a -x: options, then -- before an operand that begins with -")
	res, err = c.run.Run(ctx, "wc", "-l", "-")
	require.NoError(t, err)
	assert.Contains(t, res.Stderr, "./-: No such file", `"-" is a path below the root, not standard input`)
	res, err = c.run.Run(ctx, "ls", "-1", "--", "-n", "--files0-from=sales.csv")
	require.NoError(t, err)
	assert.Equal(t, "./--files0-from=sales.csv\n./-n\n", res.Stdout)
	// The directory listed is the root: programs run in it.
	res, err = c.run.Run(ctx, "ls", "-1", "-d", ".", "sub")
	require.NoError(t, err)
	assert.Equal(t, ".\nsub\n", res.Stdout)
}

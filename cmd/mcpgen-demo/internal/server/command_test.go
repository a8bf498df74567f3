package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExecuteCommand(t *testing.T) {
	cs, _ := demoClient(t, nil)
	got := okResult(t, cs.Call("execute_command", map[string]any{"command": "echo", "args": []string{"hi", "$(id)", "; rm -rf /", "*"}}))
	assert.Equal(t, map[string]any{"command": "echo", "exitCode": 0.0, "stdout": "hi $(id) ; rm -rf / *\n", "stderr": "", "truncated": false, "timedOut": false}, got,
		"no shell: metacharacters and globs are plain text")

	// It runs in the data directory's files folder.
	got = okResult(t, cs.Call("execute_command", map[string]any{"command": "wc", "args": []string{"-l", "sales.csv"}}))
	assert.Equal(t, "25 sales.csv\n", got["stdout"])

	// A failing program is a result, with its status and error output.
	got = okResult(t, cs.Call("execute_command", map[string]any{"command": "ls", "args": []string{"no-such-file"}}))
	assert.NotEqual(t, 0.0, got["exitCode"])
	assert.Contains(t, got["stderr"], "no-such-file")

	for _, cmd := range []string{"rm", "/bin/echo", "sh"} {
		msg := errResult(t, cs.Call("execute_command", map[string]any{"command": cmd, "args": []string{"-c", "id"}}))
		assert.Contains(t, msg, "program is not on the allowlist", cmd)
		assert.Contains(t, msg, "(allowed: date, echo, ls, uname, wc)", cmd)
	}
	for _, tl := range cs.Tools() {
		if tl.Name == "execute_command" {
			assert.Contains(t, tl.Description, "Allowed programs, with the only options each accepts", "the allowlist is appended to the doc comment")
			assert.True(t, strings.HasSuffix(tl.Description, "\n- wc [-c|--bytes] [-m|--chars] [-l|--lines] [-w|--words] [-L|--max-line-length] [PATH...]"), tl.Description)
			assert.Contains(t, tl.Description, "\n- date [-u|--utc|--universal] [-R|--rfc-email] [-I[TEXT]|--iso-8601[=TEXT]] [--rfc-3339=TEXT] [-r PATH|--reference=PATH] [+FORMAT]\n")
		}
	}
}

// TestExecuteCommandConfined is issue 24's attack over MCP: with the
// default allowlist, nothing reads, lists or changes what lies outside the
// files folder. Each refusal is an isError result naming the program and
// the reason; the programs' own forms are tested in mcptool/safety.
func TestExecuteCommandConfined(t *testing.T) {
	cs, dir := demoClient(t, nil)
	secret := filepath.Join(dir, "secret.txt") // in the data directory, next to files/
	require.NoError(t, os.WriteFile(secret, []byte("TOP-SECRET\n"), 0o600))
	require.NoError(t, os.Symlink(secret, filepath.Join(dir, "files", "link")))
	for _, tc := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"date", []string{"-f", "/etc/shadow"}, `date: argument not accepted: option "-f" is not accepted (date accepts -u, --utc, --universal, -R, --rfc-email, -I, --iso-8601, --rfc-3339, -r, --reference)`},
		{"date", []string{"--file=" + secret}, `date: argument not accepted: option "--file" is not accepted`},
		{"date", []string{"-s", "2000-01-01"}, `option "-s" is not accepted`},
		{"date", []string{"0101000000"}, `date: argument not accepted: "0101000000": give an output format that begins with +`},
		{"wc", []string{"--files0-from=/etc/passwd"}, `wc: argument not accepted: option "--files0-from" is not accepted`},
		{"wc", []string{"-c", secret}, `wc: path is outside the allowed directory: "` + secret + `" is absolute`},
		{"wc", []string{"link"}, `wc: path is outside the allowed directory: "link" leads out of the data directory (symlink)`},
		{"ls", []string{"/"}, `ls: path is outside the allowed directory: "/" is absolute`},
		{"ls", []string{"../.."}, `ls: path is outside the allowed directory: "../.." leaves the data directory`},
		{"ls", []string{".."}, `".." leaves the data directory`},
		{"uname", []string{"/etc"}, `uname: argument not accepted: "/etc": uname takes no operands, only options`},
	} {
		msg := errResult(t, cs.Call("execute_command", map[string]any{"command": tc.cmd, "args": tc.args}))
		assert.Contains(t, msg, tc.want, "%s %v", tc.cmd, tc.args)
		assert.NotContains(t, msg, "TOP-SECRET")
	}
	got := okResult(t, cs.Call("execute_command", map[string]any{"command": "ls", "args": []string{"-1"}}))
	assert.Equal(t, "link\nsales.csv\nscratch\n", got["stdout"], "ls lists the files folder, its working directory")
}

// TestExecuteCommandAllowAndTimeout runs a program the operator allowed
// with -allow, past its time limit.
func TestExecuteCommandAllowAndTimeout(t *testing.T) {
	cs, _ := demoClient(t, func(c *config) { c.allow = []string{"sleep"}; c.cmdTimeout = 200 * time.Millisecond })
	start := time.Now()
	got := okResult(t, cs.Call("execute_command", map[string]any{"command": "sleep", "args": []string{"10"}}))
	assert.Equal(t, true, got["timedOut"])
	assert.Equal(t, -1.0, got["exitCode"])
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.Contains(t, errResult(t, cs.Call("execute_command", map[string]any{"command": "echo"})), "(allowed: sleep)")

	_, err := newApp(config{features: full(), toolset: "demo", dataDir: t.TempDir(), allow: []string{"no-such-program-xyz"}}, discardLogger())
	assert.ErrorContains(t, err, `-allow: safety: program "no-such-program-xyz": no built-in argument policy`)
}

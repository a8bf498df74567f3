package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
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
			assert.True(t, strings.HasSuffix(tl.Description, " Allowed programs: echo, date, uname, ls, wc."), "the allowlist is appended to the doc comment: %q", tl.Description)
		}
	}
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

	_, err := newApp(config{toolset: "demo", dataDir: t.TempDir(), allow: []string{"no-such-program-xyz"}}, discardLogger())
	assert.ErrorContains(t, err, `allowlist entry "no-such-program-xyz"`)
}

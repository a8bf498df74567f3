package safety

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/mcptool"
)

// ErrNotAllowed is wrapped by errors for programs off a [Runner]'s list.
var ErrNotAllowed = errors.New("program is not on the allowlist")

// Runner runs programs from an allowlist, without a shell: arguments are
// passed as they are, so shell metacharacters mean nothing.
type Runner struct {
	programs  map[string]string // name → absolute path
	timeout   time.Duration
	maxOutput int
	dir       string
	env       []string
}

// RunnerOptions configure [NewRunner].
type RunnerOptions struct {
	// Timeout bounds each run. Default 10s.
	Timeout time.Duration
	// MaxOutput caps the bytes kept of stdout and of stderr. Default 64 KiB.
	MaxOutput int
	// Dir is the working directory. Default: the process's.
	Dir string
	// Env is the environment. Default: PATH only, nothing else inherited.
	Env []string
}

// NewRunner makes a runner for the named programs, each looked up in PATH
// now (a program that is not installed is an error here, not at call time).
func NewRunner(allow []string, opts RunnerOptions) (*Runner, error) {
	r := &Runner{programs: map[string]string{}, timeout: opts.Timeout, maxOutput: opts.MaxOutput, dir: opts.Dir, env: opts.Env}
	if r.timeout <= 0 {
		r.timeout = 10 * time.Second
	}
	if r.maxOutput <= 0 {
		r.maxOutput = 64 << 10
	}
	if r.env == nil {
		r.env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	}
	for _, name := range allow {
		if name == "" || strings.ContainsAny(name, `/\`) {
			return nil, fmt.Errorf("safety: allowlist entry %q: give a program name, not a path", name)
		}
		p, err := exec.LookPath(name)
		if err != nil {
			return nil, fmt.Errorf("safety: allowlist entry %q: %w", name, err)
		}
		r.programs[name] = p
	}
	return r, nil
}

// Allowed lists the programs the runner may run, sorted.
func (r *Runner) Allowed() []string {
	out := make([]string, 0, len(r.programs))
	for n := range r.programs {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// RunResult is what a program did.
type RunResult struct {
	ExitCode  int    `json:"exitCode"`
	Stdout    string `json:"stdout"`
	Stderr    string `json:"stderr"`
	Truncated bool   `json:"truncated" jsonschema_description:"stdout or stderr was cut at the output cap"`
	TimedOut  bool   `json:"timedOut"`
}

// Run runs an allowlisted program with args and returns its output. A
// non-zero exit is a result, not an error; a program off the list, a NUL in
// an argument, or a failure to start is an error.
func (r *Runner) Run(ctx context.Context, name string, args ...string) (*RunResult, error) {
	path, ok := r.programs[name]
	if !ok {
		return nil, mcptool.UserError(fmt.Errorf("%w: %q (allowed: %s)", ErrNotAllowed, name, strings.Join(r.Allowed(), ", ")))
	}
	for _, a := range args {
		if strings.ContainsRune(a, 0) {
			return nil, mcptool.UserError(errors.New("an argument contains a NUL byte"))
		}
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	cmd.WaitDelay = time.Second
	stdout := &capped{max: r.maxOutput}
	stderr := &capped{max: r.maxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	res := &RunResult{Stdout: stdout.buf.String(), Stderr: stderr.buf.String(), Truncated: stdout.cut || stderr.cut}
	if ctx.Err() == context.DeadlineExceeded {
		res.TimedOut, res.ExitCode = true, -1
		return res, nil
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.ExitCode = ee.ExitCode()
	case err != nil:
		return nil, fmt.Errorf("safety: run %s: %w", name, err)
	}
	return res, nil
}

// capped keeps the first max bytes written and counts the rest.
type capped struct {
	buf bytes.Buffer
	max int
	cut bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if room <= 0 {
		c.cut = c.cut || len(p) > 0
		return len(p), nil
	}
	if len(p) > room {
		c.buf.Write(p[:room])
		c.cut = true
		return len(p), nil
	}
	return c.buf.Write(p)
}

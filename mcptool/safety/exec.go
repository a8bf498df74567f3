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

// Runner runs programs from an allowlist, without a shell, confined to a
// [Root]: each program has an argument policy ([Program]) that names the
// options it accepts and says which arguments are paths; every path is
// resolved in the root and refused when it leads out, and the program runs
// with the root as its working directory. Arguments are passed as they are
// otherwise, so shell metacharacters mean nothing. It is safe for concurrent
// use.
//
// The confinement holds for what the policy describes: a program that can
// reach files without being given their paths (a shell, an interpreter, a
// program reading a list of names from a file) is not confined by any
// policy, and must not be allowed.
type Runner struct {
	programs  map[string]runnable
	root      *Root
	timeout   time.Duration
	maxOutput int
	env       []string
}

type runnable struct {
	path   string // absolute
	policy Program
}

// RunnerOptions configure [NewRunner]. The zero value is the defaults.
type RunnerOptions struct {
	// Timeout bounds each run. Default 10s.
	Timeout time.Duration
	// MaxOutput caps the bytes kept of stdout and of stderr. Default 64 KiB.
	MaxOutput int
	// Env is the environment. Default: PATH only, nothing else inherited.
	Env []string
}

// NewRunner makes a runner for programs, confined to root (their working
// directory, and the only place their path arguments may name). Each
// program is looked up in PATH now: one that is not installed is an error
// here, not at call time, as is a policy that is not well formed or a name
// [Builtin] has no policy for.
func NewRunner(root *Root, programs []Program, opts RunnerOptions) (*Runner, error) {
	if root == nil {
		return nil, errors.New("safety: NewRunner needs a Root: the programs run in it")
	}
	r := &Runner{programs: map[string]runnable{}, root: root, timeout: opts.Timeout, maxOutput: opts.MaxOutput, env: opts.Env}
	if r.timeout <= 0 {
		r.timeout = 10 * time.Second
	}
	if r.maxOutput <= 0 {
		r.maxOutput = 64 << 10
	}
	if r.env == nil {
		r.env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	}
	var errs []error
	for _, p := range programs {
		name := p.Name
		switch {
		case name == "" || strings.ContainsAny(name, `/\`):
			errs = append(errs, fmt.Errorf("safety: program %q: give a program name, not a path", name))
			continue
		case p.unknown:
			errs = append(errs, fmt.Errorf("safety: program %q: no built-in argument policy (built in: %s); describe its arguments with a Program", name, strings.Join(builtinNames(), ", ")))
			continue
		}
		if _, dup := r.programs[name]; dup {
			errs = append(errs, fmt.Errorf("safety: program %q listed twice", name))
			continue
		}
		if err := p.validate(); err != nil {
			errs = append(errs, err)
			continue
		}
		path, err := exec.LookPath(name)
		if err != nil {
			errs = append(errs, fmt.Errorf("safety: program %q: %w", name, err))
			continue
		}
		r.programs[name] = runnable{path: path, policy: p}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
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

// Run runs an allowlisted program with args, in the root, and returns its
// output. Arguments are checked against the program's policy first: an
// option it does not accept, a path that leads out of the root, a program
// off the list or a NUL in an argument is an error the model can read, and
// nothing runs. A non-zero exit is a result, not an error; so is a program
// stopped at the time limit (TimedOut). Its standard input is empty.
func (r *Runner) Run(ctx context.Context, name string, args ...string) (*RunResult, error) {
	prog, ok := r.programs[name]
	if !ok {
		return nil, mcptool.UserError(fmt.Errorf("%w: %q (allowed: %s)", ErrNotAllowed, name, strings.Join(r.Allowed(), ", ")))
	}
	for _, a := range args {
		if strings.ContainsRune(a, 0) {
			return nil, mcptool.UserError(errors.New("an argument contains a NUL byte"))
		}
	}
	argv, err := prog.policy.argv(r.root, args)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog.path, argv...)
	cmd.Dir, cmd.Env = r.root.Dir(), r.env
	cmd.WaitDelay = time.Second
	stdout := &capped{max: r.maxOutput}
	stderr := &capped{max: r.maxOutput}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err = cmd.Run()
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

package server

import (
	"context"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool/safety"
)

// Commands runs programs from an allowlist (the -allow flag), without a
// shell, confined to the data directory's files folder, with a time limit
// and an output cap. Each program has an argument policy (safety.Builtin):
// the options it accepts, and which arguments are paths, resolved in the
// folder and refused when they lead out.
type Commands struct {
	runner   *safety.Runner
	programs []safety.Program
}

// description is what the model is told of the programs: each one's usage
// line, so it knows the options it may give.
func (c *Commands) description() string {
	var b strings.Builder
	b.WriteString("Allowed programs, with the only options each accepts (PATH: relative to the files folder, " +
		"which the program runs in; a path that leads out of it, absolute or through .. or a symlink, is refused):")
	for _, p := range c.programs {
		b.WriteString("\n- " + p.String())
	}
	return b.String()
}

// CommandArgs are the arguments of execute_command. Bounds per call: the
// -cmd-timeout (10 s by default) and 64 KiB of stdout and of stderr kept;
// at most four calls at once.
type CommandArgs struct {
	_ struct{} `mcp:"title=Execute Command,readOnly,openWorld=false,concurrency=4"`
	// The program to run, by name (no path), from the server's allowlist, e.g. "ls"; the tool's
	// description lists the allowed programs.
	Command string `json:"command" jsonschema:"example=ls" validate:"required,min=1,max=64"`
	// The program's arguments, e.g. ["-l", "sales.csv"]: the options the tool's description lists for
	// the program, and paths relative to the files folder. There is no shell, so quotes, globs (*),
	// pipes (|) and $VARIABLES are plain text.
	Args []string `json:"args,omitempty" jsonschema:"maxItems=64" validate:"omitempty,dive,max=4096"`
}

// CommandResult is the outcome of execute_command: the program's exit status
// and output.
type CommandResult struct {
	// The program that ran.
	Command string `json:"command"`
	// The program's exit status: 0 is success; -1 when it was stopped at the time limit.
	ExitCode int `json:"exitCode"`
	// What the program wrote to standard output (at most 64 KiB).
	Stdout string `json:"stdout"`
	// What the program wrote to standard error (at most 64 KiB).
	Stderr string `json:"stderr"`
	// True when stdout or stderr was cut at the 64 KiB cap.
	Truncated bool `json:"truncated"`
	// True when the program ran past the server's time limit and was stopped.
	TimedOut bool `json:"timedOut"`
}

// Execute runs a program from the server's allowlist with arguments, without
// a shell, in the data directory's files folder, with a time limit and an
// output cap. A program off the list, an option the program does not
// accept, and a path outside the files folder are refused before anything
// runs. A non-zero exit status is reported in the result, not as an error.
//
// Example: {"command": "wc", "args": ["-l", "sales.csv"]} returns
// {"exitCode": 0, "stdout": "25 sales.csv\n", ...}.
func (c *Commands) Execute(ctx context.Context, in CommandArgs) (CommandResult, error) {
	res, err := c.runner.Run(ctx, in.Command, in.Args...)
	if err != nil {
		return CommandResult{}, err
	}
	return CommandResult{Command: in.Command, ExitCode: res.ExitCode, Stdout: res.Stdout, Stderr: res.Stderr, Truncated: res.Truncated, TimedOut: res.TimedOut}, nil
}

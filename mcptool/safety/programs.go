package safety

import (
	"errors"
	"maps"
	"slices"
	"strings"
)

// Builtin returns the built-in argument policies of the named programs,
// written for GNU coreutils: echo, date, uname, ls, wc (mcpgen-demo's
// default allowlist) and cat, head, tail, sleep. Each accepts the options
// that only report, and not those that reach beyond the root or change
// anything: not date's --file, --set or --date (a TZ="…" in its text opens
// that file), nor ls's --dereference, nor wc's --files0-from, nor tail's
// --follow. A name without a built-in policy gives a Program that
// [NewRunner] refuses, naming the programs that have one.
func Builtin(names ...string) []Program {
	out := make([]Program, 0, len(names))
	for _, n := range names {
		p, ok := builtin[n]
		if !ok {
			p = Program{Name: n, unknown: true}
		}
		p.Options = slices.Clone(p.Options) // the caller's to change
		for i := range p.Options {
			p.Options[i].Names = slices.Clone(p.Options[i].Names)
		}
		out = append(out, p)
	}
	return out
}

func builtinNames() []string { return slices.Sorted(maps.Keys(builtin)) }

// flags makes options without values, each spelled by its names.
func flags(names ...[]string) []Option {
	out := make([]Option, len(names))
	for i, n := range names {
		out[i] = Option{Names: n}
	}
	return out
}

func names(n ...string) []string { return n }

var builtin = map[string]Program{
	"echo": {Name: "echo", Options: flags(names("-n"), names("-e"), names("-E")), Operands: Text},
	"date": {
		Name: "date",
		Options: append(flags(names("-u", "--utc", "--universal"), names("-R", "--rfc-email")),
			Option{Names: names("-I", "--iso-8601"), Value: Text, Optional: true},
			Option{Names: names("--rfc-3339"), Value: Text},
			Option{Names: names("-r", "--reference"), Value: Path}),
		Operands: Text, MaxOperands: 1, OperandName: "+FORMAT",
		Check: func(op string) error {
			if !strings.HasPrefix(op, "+") {
				return errors.New("give an output format that begins with +, e.g. +%Y-%m-%d (an operand without + would set the clock)")
			}
			return nil
		},
	},
	"uname": {Name: "uname", Options: flags(names("-a", "--all"), names("-s", "--kernel-name"), names("-n", "--nodename"),
		names("-r", "--kernel-release"), names("-v", "--kernel-version"), names("-m", "--machine"), names("-p", "--processor"),
		names("-i", "--hardware-platform"), names("-o", "--operating-system"))},
	"ls": {
		Name: "ls",
		Options: append(flags(names("-a", "--all"), names("-A", "--almost-all"), names("-l"), names("-h", "--human-readable"),
			names("-R", "--recursive"), names("-r", "--reverse"), names("-t"), names("-S"), names("-X"), names("-U"), names("-1"),
			names("-d", "--directory"), names("-F"), names("-p"), names("-i", "--inode"), names("-s", "--size"),
			names("-n", "--numeric-uid-gid"), names("-g"), names("-o"), names("-G", "--no-group"), names("-Q", "--quote-name"),
			names("--full-time"), names("--group-directories-first")),
			Option{Names: names("-I", "--ignore"), Value: Text},
			Option{Names: names("--hide"), Value: Text},
			Option{Names: names("--sort"), Value: Text},
			Option{Names: names("--time-style"), Value: Text}),
		Operands: Path,
	},
	"wc": {Name: "wc", Options: flags(names("-c", "--bytes"), names("-m", "--chars"), names("-l", "--lines"), names("-w", "--words"),
		names("-L", "--max-line-length")), Operands: Path},
	"cat": {Name: "cat", Options: flags(names("-A", "--show-all"), names("-b", "--number-nonblank"), names("-e"), names("-E", "--show-ends"),
		names("-n", "--number"), names("-s", "--squeeze-blank"), names("-t"), names("-T", "--show-tabs"), names("-v", "--show-nonprinting")),
		Operands: Path},
	"head":  {Name: "head", Options: headTail, Operands: Path},
	"tail":  {Name: "tail", Options: headTail, Operands: Path},
	"sleep": {Name: "sleep", Operands: Text, OperandName: "SECONDS"},
}

var headTail = append([]Option{{Names: names("-c", "--bytes"), Value: Text}, {Names: names("-n", "--lines"), Value: Text}},
	flags(names("-q", "--quiet", "--silent"), names("-v", "--verbose"), names("-z", "--zero-terminated"))...)

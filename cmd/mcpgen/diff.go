package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

// diffUsage opens the help of mcpgen diff.
const diffUsage = `usage: mcpgen diff [-format markdown|json] [-allow-breaking] [-allow-security] [-fail-on-loosened] OLD.json NEW.json

Compares two JSON tool catalogues (mcptool's Registry.Catalog written as
"json") and classes each change as breaking, security-relevant, guard
loosened (an argument that was refused is now accepted) or compatible.
The exit status is 1 when a breaking or security-relevant change is not
allowed by a flag, or a guard is loosened under -fail-on-loosened; 2 on bad
usage or unreadable files; 0 otherwise.

`

// runDiff is mcpgen diff; it returns the exit status.
func runDiff(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpgen diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "markdown", "report format: markdown (a pull-request comment) or json")
	allowBreaking := fs.Bool("allow-breaking", false, "exit 0 on breaking changes")
	allowSecurity := fs.Bool("allow-security", false, "exit 0 on security-relevant changes")
	failLoosened := fs.Bool("fail-on-loosened", false, "exit 1 when a guard is loosened (a widened enum, type or range, a dropped pattern or bound, a new optional argument, ...)")
	fs.Usage = func() {
		fmt.Fprint(stderr, diffUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return 2
	}
	if *format != "markdown" && *format != "md" && *format != "json" {
		fmt.Fprintf(stderr, "mcpgen diff: unknown format %q (want markdown or json)\n", *format)
		return 2
	}
	old, err := readCatalog(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen diff:", err)
		return 2
	}
	new, err := readCatalog(fs.Arg(1))
	if err != nil {
		fmt.Fprintln(stderr, "mcpgen diff:", err)
		return 2
	}
	r := catalog.Compare(old, new)
	if err := r.Write(stdout, *format); err != nil {
		fmt.Fprintln(stderr, "mcpgen diff:", err)
		return 2
	}
	status := 0
	if r.Has(catalog.Breaking) && !*allowBreaking {
		fmt.Fprintln(stderr, "mcpgen diff: breaking changes (allow them with -allow-breaking)")
		status = 1
	}
	if r.Has(catalog.Security) && !*allowSecurity {
		fmt.Fprintln(stderr, "mcpgen diff: security-relevant changes (allow them with -allow-security)")
		status = 1
	}
	if r.Has(catalog.Loosened) {
		if *failLoosened {
			fmt.Fprintln(stderr, "mcpgen diff: guards loosened (refused by -fail-on-loosened)")
			status = 1
		} else {
			fmt.Fprintln(stderr, "mcpgen diff: guards loosened, compatible for callers (fail on them with -fail-on-loosened)")
		}
	}
	return status
}

func readCatalog(path string) (*catalog.Catalog, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := catalog.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

package mcptool_test

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// TestStartCost: what mcpgen's own packages do at package init is paid by
// every process that links mcptool, before main runs, whether or not it
// ever uses it (a stdio server's cold start). So each builds at first use
// what it needs later (the result prototypes of sdkpatch, toolsearch's
// concept table, reflect's number ranges and regexps), and its init
// allocates next to nothing. The test binary runs again with
// GODEBUG=inittrace=1, which reports each package's init.
func TestStartCost(t *testing.T) {
	const budget = 4 << 10 // bytes a package's init may allocate
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	line := regexp.MustCompile(`(?m)^init (\S+) @.* ([0-9]+) bytes, ([0-9]+) allocs$`)
	seen := map[string]bool{}
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		switch m[1] {
		case "github.com/mcpgen/mcpgen/reflect",
			"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch",
			"github.com/mcpgen/mcpgen/mcptool/internal/toolsearch":
		default:
			continue
		}
		seen[m[1]] = true
		if n, _ := strconv.Atoi(m[2]); n > budget {
			t.Errorf("%s's init allocates %s bytes in %s allocations; at most %d", m[1], m[2], m[3], budget)
		}
	}
	if len(seen) == 0 {
		t.Fatalf("no inittrace line of mcpgen's packages in:\n%s", out)
	}
}

package mcptool_test

import (
	"os/exec"
	"strings"
	"testing"
)

// A server that imports only mcptool compiles none of what the generator
// and the test helpers need (docs/dependencies.md): their dependencies
// would lengthen every server's first build. Nor does it compile
// html/template (the catalogue's page and the views are written without
// it; a view.Template user brings it), runtime/debug, or json/v2 (3 to 4 s
// of CPU in a one-tool server's first build: bench/README.md).
func TestServerCompilesNoToolingDependency(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, tooling := range []string{
			"golang.org/x/tools/",              // the generator's go/packages
			"github.com/aymanbagabas/go-udiff", // mcptest.Snapshot's diff
			"go.uber.org/goleak",               // mcptest.Client's leak check
			"github.com/stretchr/testify/",     // the tests
			"github.com/mcpgen/mcpgen/mcptool/mcptest",
			"github.com/mcpgen/mcpgen/cmd/",
			"html/template",                  // catalog's page, view's escaping
			"text/template",                  // html/template's
			"runtime/debug",                  // a panic's stack: runtime.Stack
			"github.com/go-json-experiment/", // json/v2: mcpreflect's tests' oracle only (emptyfill_test.go)
		} {
			if strings.HasPrefix(pkg, tooling) {
				t.Errorf("mcptool compiles %s", pkg)
			}
		}
	}
}

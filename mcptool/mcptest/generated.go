package mcptest

import (
	"testing"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// GeneratedCurrent fails t unless the generated code in the test binary
// (the mcpgen_gen.go files of its packages) is current: made by this
// mcpgen's schema generation, for the types as they are now. Stale
// generated data is not used (the schemas are derived by reflection, and
// a warning is logged); this makes it a test failure, so that upgrading
// mcpgen or changing a type without running go generate shows in CI.
// One call in any test of a package with generated code suffices.
func GeneratedCurrent(t testing.TB) {
	t.Helper()
	if err := mcpreflect.CheckGenerated(); err != nil {
		t.Errorf("%v", err)
	}
}

package mcptest_test

import (
	"testing"

	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

func TestSnapshotGolden(t *testing.T) {
	mcptest.Snapshot(t, sumRegistry(), "testdata/tools.golden.json")
}

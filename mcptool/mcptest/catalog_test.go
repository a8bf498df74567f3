package mcptest_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// TestSnapshotMarkdownGolden keeps the Markdown catalogue of the example
// registry current, as a module keeps its docs/tools.md.
func TestSnapshotMarkdownGolden(t *testing.T) {
	mcptest.Snapshot(t, sumRegistry(), "testdata/tools.golden.md")
}

// TestSnapshotFormats: the file's extension names the catalogue's format;
// -update writes it, and a registry that changed since fails with a diff.
func TestSnapshotFormats(t *testing.T) {
	dir := t.TempDir()
	changed := mcptool.NewRegistry()
	require.NoError(t, mcptool.Add(changed, "sum", func(_ context.Context, in SumArgs) (Sum, error) { return Sum{in.A + in.B}, nil },
		mcptool.Description("Adds two numbers exactly.")))
	for file, start := range map[string]string{
		"tools.md":   "# Tools\n\n| Tool | Title | Hints |\n",
		"tools.html": "<!DOCTYPE html>",
		"tools.json": "{\n  \"tools\": [",
	} {
		path := filepath.Join(dir, file)
		require.NoError(t, flag.Set("update", "true"))
		rec := &recorder{}
		mcptest.Snapshot(rec, sumRegistry(), path)
		require.NoError(t, flag.Set("update", "false"))
		require.Empty(t, rec.failures())
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(b), start), "%s: %.80q", file, b)
		assert.Contains(t, string(b), "Adds two numbers.")

		rec = &recorder{}
		mcptest.Snapshot(rec, sumRegistry(), path)
		assert.Empty(t, rec.failures(), "%s is current", file)
		rec = &recorder{}
		mcptest.Snapshot(rec, changed, path)
		assert.Contains(t, rec.failures(), file+" is out of date (go test -update rewrites it)")
		assert.Contains(t, rec.failures(), "Adds two numbers exactly.", "the diff shows the change")
	}
	page, err := os.ReadFile(filepath.Join(dir, "tools.html"))
	require.NoError(t, err)
	assert.Contains(t, string(page), "<title>Tools</title>", "titled as mcpgen catalog titles it")
}

// Snapshot keeps a committed Markdown catalogue current, docs/tools.md
// say: go test -update writes it, and the test fails when the tools
// changed and the file did not.
func ExampleSnapshot_markdown() {
	t := &recorder{}
	mcptest.Snapshot(t, sumRegistry(), "testdata/tools.golden.md")
	fmt.Println("current:", t.failures() == "")
	b, _ := os.ReadFile("testdata/tools.golden.md")
	fmt.Println(strings.SplitN(string(b), "\n", 2)[0])
	// Output:
	// current: true
	// # Tools
}

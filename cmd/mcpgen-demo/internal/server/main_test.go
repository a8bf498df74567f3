package server

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/mcptest"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// buildDemo builds cmd/mcpgen-demo/full into the test's temporary directory.
func buildDemo(t *testing.T) string {
	t.Helper()
	return mcptest.Binary(t, "../../full") // every feature: the tests cover both commands' code
}

// TestStdio runs the built demo as a subprocess, on a fresh data directory,
// and talks to it over stdio with the go-sdk client, in both protocol eras.
func TestStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo binary")
	}
	bin := buildDemo(t)
	for _, version := range []string{"2025-11-25", ""} {
		t.Run("version="+version, func(t *testing.T) {
			var stderr bytes.Buffer
			dataDir := filepath.Join(t.TempDir(), "data")
			cmd := exec.Command(bin, "-data", dataDir)
			cmd.Stderr = &stderr
			cs := mcptest.Client(t, nil, mcptest.Command(cmd), mcptest.Version(version))
			var names []string
			for _, tl := range cs.Tools() {
				names = append(names, tl.Name)
				assert.NotEmpty(t, tl.Description, tl.Name)
				// A binary's package path is "main", a test binary's the
				// import path: the doc comments of mcpgen_gen.go are found
				// in both.
				switch tl.Name {
				case "calculate_sum":
					assert.Equal(t, mcpreflect.FuncDoc(calculateSum), tl.Description)
					a := tl.InputSchema.(map[string]any)["properties"].(map[string]any)["a"].(map[string]any)
					assert.Equal(t, "The first addend, e.g. 2.5.", a["description"])
				case "search_pages":
					assert.Equal(t, mcpreflect.MethodDoc(reflect.TypeFor[*Notes](), "SearchPages"), tl.Description)
				}
			}
			assert.Subset(t, names, []string{"calculate_sum", "analyze_csv", "execute_command", "github_create_issue", "get_weather",
				"web_search", "create_record", "delete_file", "search_pages", "get_page", "delete_page"})
			res := cs.Call("calculate_sum", map[string]any{"a": 2.5, "b": 4})
			require.False(t, res.IsError, "%v", res.Content)
			assert.Equal(t, map[string]any{"sum": 6.5}, res.StructuredContent)

			text := cs.Call("calculate_sum", map[string]any{"a": "two"}).ErrorText()
			assert.Contains(t, text, "a: must be a number, got string (type)")
			assert.Contains(t, text, "b: is required but missing (required)")

			// The data directory was created and seeded on this first run.
			res = cs.Call("analyze_csv", map[string]any{"filepath": "sales.csv", "operations": []string{"count"}})
			require.False(t, res.IsError, "%v", res.Content)
			assert.Equal(t, 24.0, res.StructuredContent.(map[string]any)["rows"])
			res = cs.Call("search_pages", map[string]any{"query": "welcome"})
			require.False(t, res.IsError, "%v", res.Content)
			assert.Len(t, res.StructuredContent.(map[string]any)["results"], 1)
			require.NoError(t, cs.Close())
			// Logs go to stderr; stdout carried only the protocol (or the client would have failed).
			assert.True(t, strings.Contains(stderr.String(), "serving on stdio"), stderr.String())
			assert.Contains(t, stderr.String(), "files_seeded=true notes_seeded=true")
		})
	}
}

func TestUnknownToolset(t *testing.T) {
	var stderr bytes.Buffer
	err := run(context.Background(), full(), []string{"-toolset", "nope"}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	require.ErrorContains(t, err, `unknown toolset "nope"`)
}

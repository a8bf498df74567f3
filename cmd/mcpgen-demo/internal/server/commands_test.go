package server

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// heavyModules are the modules whose features only cmd/mcpgen-demo/full
// has: SQLite, Redis, the JWT library, protobuf, gRPC and protovalidate's
// CEL.
var heavyModules = []string{"modernc.org/sqlite", "github.com/redis/go-redis/", "github.com/lestrrat-go/jwx/",
	"google.golang.org/protobuf", "google.golang.org/grpc", "cel.dev/cel-go", "buf.build/go/protovalidate"}

// TestDemoCommandLeavesHeavyModulesOut: cmd/mcpgen-demo links none of the
// heavy modules, so that its first build compiles about half as much
// (bench/README.md, "First build"); cmd/mcpgen-demo/full links them all.
func TestDemoCommandLeavesHeavyModulesOut(t *testing.T) {
	deps := func(dir string) string {
		out, err := exec.Command("go", "list", "-deps", dir).Output()
		require.NoError(t, err)
		return string(out)
	}
	light, full := deps("../.."), deps("../../full")
	for _, m := range heavyModules {
		assert.NotContains(t, light, "\n"+m, "cmd/mcpgen-demo links %s", m)
		assert.Contains(t, full, "\n"+m, "cmd/mcpgen-demo/full links %s", m)
	}
}

// TestDemoCommandFeatures: the demo command serves the demo toolset
// without the tools that need SQLite or protobuf, keeps tasks in memory,
// and says where the flags it does not have are.
func TestDemoCommandFeatures(t *testing.T) {
	a, err := newApp(config{toolset: "demo", dataDir: t.TempDir()}, discardLogger())
	require.NoError(t, err)
	t.Cleanup(func() { _ = a.close() })
	var names []string
	for _, tool := range a.reg.Tools() {
		names = append(names, tool.Name)
	}
	for _, name := range []string{"calculate_sum", "analyze_csv", "delete_file", "get_weather", "web_search", "github_create_issue"} {
		assert.Contains(t, names, name)
	}
	for _, name := range []string{"create_record", "search_pages", "get_page", "delete_page", "library_search_books"} {
		assert.False(t, slices.Contains(names, name), "%s is cmd/mcpgen-demo/full's", name)
	}
	assert.NotContains(t, demoInstructions(a.demo), "search_pages", "the instructions name only the tools served")

	for _, args := range [][]string{{"-redis", "redis://127.0.0.1:6379/0"}, {"-auth-issuer", "http://127.0.0.1:9000"}, {"-tasks-db", "t.db"}, {"issuer"}} {
		var stderr bytes.Buffer
		err := run(context.Background(), Features{}, args, strings.NewReader(""), io.Discard, &stderr)
		require.Error(t, err, "%v", args)
		assert.Contains(t, stderr.String(), "cmd/mcpgen-demo/full", "%v: the usage names the command that has it", args)
	}
	t.Setenv("MCPGEN_AUTH_ISSUER", "http://127.0.0.1:9000")
	_, err = parseFlags(Features{}, nil, io.Discard)
	assert.ErrorContains(t, err, "MCPGEN_AUTH_ISSUER is set", "never serve without the authorization asked for")
	_, err = parseFlags(full(), nil, io.Discard)
	assert.NoError(t, err)
}

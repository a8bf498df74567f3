package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

// TestCatalog runs mcpgen catalog on the fixtures of testdata/catalog: a
// package whose Registry builds its registry (the Markdown catalogue is a
// golden file), an unexported function of a command, each format, and the
// errors of a function of the wrong shape, missing or failing.
func TestCatalog(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the fixtures")
	}
	weather := filepath.Join("testdata", "catalog", "weather")
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		status := runCatalog(args, &stdout, &stderr)
		return status, stdout.String(), stderr.String()
	}

	status, md, stderr := run(weather)
	require.Equal(t, 0, status, stderr)
	golden := filepath.Join("testdata", "catalog", "weather.md")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(md), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "go test ./cmd/mcpgen -run TestCatalog -update writes it")
	assert.Equal(t, string(want), md, "%s is stale: go test ./cmd/mcpgen -run TestCatalog -update", golden)
	assert.True(t, strings.HasPrefix(md, "# Tools\n\n"), "titled Tools, as mcptest.Snapshot titles it")

	// A command's unexported function that takes the registry; the format
	// from -o's extension; flags after the directory.
	out := filepath.Join(t.TempDir(), "tools.json")
	status, _, stderr = run("-func", "registry", filepath.Join("testdata", "catalog", "server"), "-o", out)
	require.Equal(t, 0, status, stderr)
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	c, err := catalog.Read(f)
	require.NoError(t, err)
	require.Len(t, c.Tools, 1)
	assert.Equal(t, "ping", c.Tools[0].Name, "main did not run: the catalogue was written")

	status, page, stderr := run("-format", "html", "-title", "Weather <tools>", "-func", "register", weather)
	require.Equal(t, 0, status, stderr)
	assert.Contains(t, page, "<title>Weather &lt;tools&gt;</title>")
	assert.Contains(t, page, "get_forecast")

	for fn, msg := range map[string]string{
		"Nope":   "no function Nope: want func Nope() (*mcptool.Registry, error), func Nope() *mcptool.Registry or func Nope(*mcptool.Registry) error (-func names another)",
		"Count":  "Count is func() int: want func Count() (*mcptool.Registry, error)",
		"Broken": `mcpgen catalog: Broken: mcptool: tool "Bad Name": invalid_name`,
	} {
		status, _, stderr = run("-func", fn, weather)
		assert.Equal(t, 1, status, fn)
		assert.Contains(t, stderr, msg, fn)
	}
	status, _, stderr = run("-format", "pdf", weather)
	assert.Equal(t, 2, status)
	assert.Contains(t, stderr, `unknown format "pdf" (want markdown, html or json)`)
}

package server

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDiscoveryClient drives the demo with -discovery with the TypeScript
// SDK's client: tools/list shows the discovery tools, search_tools finds
// analyze_csv, call_tool runs it (structuredContent and all), and a direct
// call of the tool found works too; call_tool refuses a destructive tool.
func TestDiscoveryClient(t *testing.T) {
	if testing.Short() {
		t.Skip("installs npm packages and runs the demo binary")
	}
	node, dir := nodeWith(t, "core-tasks-e2e", sdkV1Pkg)
	url, _ := httpDemo(t, buildDemo(t), "-discovery")
	out := runScript(t, node, dir, "discovery.mjs", url)
	var report struct {
		Listed           []string
		CallToolReadOnly bool
		WriteDestructive bool
		Found            []string
		FoundHasSchema   bool
		ProxyError       bool
		ProxyRows        int
		DirectError      bool
		DirectRows       int
		Refused          string
		Error            string
	}
	require.NoError(t, json.Unmarshal(out, &report), "%s", out)
	require.Empty(t, report.Error)
	assert.Equal(t, []string{"call_tool", "call_write_tool", "search_tools"}, report.Listed)
	assert.True(t, report.CallToolReadOnly)
	assert.True(t, report.WriteDestructive, "the demo has destructive tools: the write proxy says so")
	require.NotEmpty(t, report.Found)
	assert.Equal(t, "analyze_csv", report.Found[0])
	assert.True(t, report.FoundHasSchema)
	assert.False(t, report.ProxyError)
	assert.Positive(t, report.ProxyRows, "call_tool answers as the tool itself (structuredContent)")
	assert.False(t, report.DirectError)
	assert.Equal(t, report.ProxyRows, report.DirectRows)
	assert.Equal(t, "delete_file is not read-only: call it with call_write_tool", report.Refused)
}

package server

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/internal/npmtest"
)

// The npm packages the end-to-end tests drive tasks with: the Tasks
// extension's client (ext-tasks imports the TypeScript SDK's client), and the
// TypeScript SDK whose experimental tasks are 2025-11-25's core tasks.
const (
	extTasksPkg  = "@modelcontextprotocol/ext-tasks@0.2.2"
	sdkClientPkg = "@modelcontextprotocol/client@2.4.0"
	sdkV1Pkg     = "@modelcontextprotocol/sdk@1.32.2"
)

// nodeWith returns a Node >= 22 and a directory (named name) whose
// node_modules hold pkgs (internal/npmtest).
func nodeWith(t *testing.T, name string, pkgs ...string) (node, dir string) {
	t.Helper()
	return npmtest.Install(t, name, 22, pkgs...)
}

// TestExtTasksClient drives tasks of the demo's conformance toolset with
// @modelcontextprotocol/ext-tasks, the Tasks extension's own client: a
// task with progress, and a task that asks the user (input_required, then
// tasks/update) — over the 2026-07-28 stateless HTTP wire.
func TestExtTasksClient(t *testing.T) {
	if testing.Short() {
		t.Skip("installs npm packages and runs the demo binary")
	}
	node, dir := nodeWith(t, "ext-tasks-e2e", extTasksPkg, sdkClientPkg)
	url, _ := serveDemo(t, buildDemo(t), "-toolset", "conformance")
	out := runScript(t, node, dir, "ext-tasks.mjs", url)

	var report struct {
		Kind, Status, Text       string
		Updates                  []string
		InputRequest             struct{ Kind string }
		DeleteStatus, DeleteText string
	}
	require.NoError(t, json.Unmarshal(out, &report), "%s", out)
	assert.Equal(t, "task", report.Kind, "slow_compute ran as a task")
	assert.Equal(t, "completed", report.Status)
	assert.Equal(t, "Computed ext-tasks in 1s.", report.Text)
	require.NotEmpty(t, report.Updates)
	assert.Equal(t, "completed", report.Updates[len(report.Updates)-1])
	assert.Equal(t, "elicitation", report.InputRequest.Kind, "the task's input request reached the application")
	assert.Equal(t, "completed", report.DeleteStatus)
	assert.Equal(t, "Deleted a.txt.", report.DeleteText)
}

// runScript runs testdata/name with node from dir (so that its imports
// resolve in dir's node_modules) and returns what it printed.
func runScript(t *testing.T, node, dir, name string, args ...string) []byte {
	t.Helper()
	script, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, script, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, append([]string{path}, args...)...).Output()
	var stderr string
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = string(ee.Stderr)
	}
	require.NoError(t, err, "node %s: %s", name, stderr)
	return out
}

// TestCoreTasksClient drives the 2025-11-25 experimental core tasks of the
// demo's conformance toolset with the TypeScript SDK's own client
// (client.experimental.tasks) over a 2025-11-25 HTTP session: a task with
// progress, a task that asks the user (through tasks/result), tasks/list
// and tasks/cancel.
func TestCoreTasksClient(t *testing.T) {
	if testing.Short() {
		t.Skip("installs npm packages and runs the demo binary")
	}
	node, dir := nodeWith(t, "core-tasks-e2e", sdkV1Pkg)
	url, _ := serveDemo(t, buildDemo(t), "-stateless=false", "-toolset", "conformance")
	out := runScript(t, node, dir, "core-tasks.mjs", url)

	var report struct {
		ProtocolVersion string
		Capabilities    map[string]any
		TaskSupport     map[string]string
		TaskID, Text    string
		Events          []string
		ElicitedFor     string
		DeleteTaskID    string
		DeleteText      string
		Listed          []string
		CancelStatus    string
		AfterCancel     string
		Error           string
	}
	require.NoError(t, json.Unmarshal(out, &report), "%s", out)
	assert.Empty(t, report.Error)
	assert.Equal(t, "2025-11-25", report.ProtocolVersion)
	assert.Contains(t, report.Capabilities, "requests")
	assert.Equal(t, "optional", report.TaskSupport["slow_compute"])
	assert.Equal(t, "optional", report.TaskSupport["confirm_delete"])
	require.NotEmpty(t, report.TaskID, "slow_compute ran as a task")
	assert.Equal(t, "created", report.Events[0])
	assert.Equal(t, "completed", report.Events[len(report.Events)-1])
	assert.Equal(t, "Computed core in 1s.", report.Text)
	require.NotEmpty(t, report.DeleteTaskID)
	assert.Equal(t, report.DeleteTaskID, report.ElicitedFor, "the elicitation named its task")
	assert.Equal(t, "Deleted a.txt.", report.DeleteText)
	assert.Contains(t, report.Listed, report.TaskID)
	assert.Contains(t, report.Listed, report.DeleteTaskID)
	assert.Equal(t, "cancelled", report.CancelStatus)
	assert.Equal(t, "cancelled", report.AfterCancel)
}

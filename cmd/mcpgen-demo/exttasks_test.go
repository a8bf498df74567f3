package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The npm packages the end-to-end test drives tasks with: the Tasks
// extension's client (ext-tasks imports the TypeScript SDK's client).
const (
	extTasksPkg  = "@modelcontextprotocol/ext-tasks@0.2.2"
	sdkClientPkg = "@modelcontextprotocol/client@2.4.0"
)

// nodeWithExtTasks returns a Node >= 22 and a directory whose node_modules
// hold ext-tasks, installing them with npm into the user's cache directory
// (reused by later runs). The test is skipped when npm is missing.
func nodeWithExtTasks(t *testing.T) (node, dir string) {
	t.Helper()
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm not found: the ext-tasks end-to-end test needs npm (and Node 22, which it installs from npm)")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir = filepath.Join(cache, "mcpgen", "ext-tasks-e2e")
	pkgs := []string{extTasksPkg, sdkClientPkg}
	node, _ = exec.LookPath("node")
	if node != "" && nodeMajor(node) < 22 {
		node = ""
	}
	if node == "" {
		arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
		if runtime.GOOS != "linux" || arch == "" {
			t.Skipf("no Node >= 22 on PATH, and no node-linux package for %s/%s", runtime.GOOS, runtime.GOARCH)
		}
		pkg := "node-linux-" + arch
		pkgs = append(pkgs, pkg+"@22")
		node = filepath.Join(dir, "node_modules", pkg, "bin", "node")
	}
	marker := filepath.Join(dir, "installed-"+strings.NewReplacer("/", "_", "@", "_").Replace(strings.Join(pkgs, "+")))
	if _, err := os.Stat(marker); err != nil {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		args := append([]string{"install", "--prefix", dir, "--no-audit", "--no-fund", "--no-save", "--loglevel=error"}, pkgs...)
		out, err := exec.CommandContext(ctx, npm, args...).CombinedOutput()
		require.NoError(t, err, "npm %s:\n%s", strings.Join(args, " "), out)
		require.NoError(t, os.WriteFile(marker, nil, 0o644))
	}
	require.GreaterOrEqual(t, nodeMajor(node), 22, "node at %s", node)
	return node, dir
}

func nodeMajor(node string) int {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return 0
	}
	v := strings.TrimPrefix(strings.TrimSpace(string(out)), "v")
	major, _ := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	return major
}

// TestExtTasksClient drives tasks of the demo's conformance toolset with
// @modelcontextprotocol/ext-tasks, the Tasks extension's own client: a
// task with progress, and a task that asks the user (input_required, then
// tasks/update) — over the 2026-07-28 stateless HTTP wire.
func TestExtTasksClient(t *testing.T) {
	if testing.Short() {
		t.Skip("installs npm packages and runs the demo binary")
	}
	node, dir := nodeWithExtTasks(t)
	script, err := os.ReadFile(filepath.Join("testdata", "ext-tasks.mjs"))
	require.NoError(t, err)
	// Next to node_modules, so that its imports resolve.
	path := filepath.Join(dir, "ext-tasks.mjs")
	require.NoError(t, os.WriteFile(path, script, 0o644))

	url, _ := serveDemo(t, buildDemo(t), "-toolset", "conformance")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, path, url).Output()
	var stderr string
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = string(ee.Stderr)
	}
	require.NoError(t, err, "node ext-tasks.mjs: %s", stderr)

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

package server

import (
	"bufio"
	"fmt"
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

// TestGenerateCSVMemory is issue 24's load on generate_csv: 20 calls of the
// largest size (5,000,000 rows, about 125 MB each) fired at once at the demo
// binary over loopback HTTP. It once held every file in memory: 8 calls
// held 1.75 GB of RSS. Now at most two run at once (the others are refused,
// saying so) and each streams to its file, so the process's peak RSS
// (VmHWM) stays well under 512 MiB.
func TestGenerateCSVMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the demo binary; writes 250 MB")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/PID/status")
	}
	bin := buildDemo(t)
	dataDir := filepath.Join(t.TempDir(), "data")
	url, pid := startDemo(t, bin, "-stateless", "-data", dataDir)
	w := &taskWire{t: t, url: url, tasks: true}

	const calls, rows = 20, 5_000_000
	// Each call is answered directly when it ends within the tool's Wait (a
	// refusal at the cap always does), else with a task to poll.
	ids := make([]string, calls)
	direct := make([]map[string]any, calls)
	for i := range ids {
		res := w.ok("tools/call", map[string]any{"name": "generate_csv", "arguments": map[string]any{"filepath": fmt.Sprintf("big%d.csv", i), "rows": rows}})
		if res["resultType"] == "task" {
			ids[i] = res["taskId"].(string)
		} else {
			direct[i] = res
		}
	}
	var done int
	for i, id := range ids {
		res, status := direct[i], "completed"
		if id != "" {
			got := w.until(id, 3*time.Minute, "completed", "failed", "cancelled")
			res, _ = got["result"].(map[string]any)
			status, _ = got["status"].(string)
		}
		if sc, ok := res["structuredContent"].(map[string]any); ok && status == "completed" && res["isError"] != true {
			assert.EqualValues(t, rows, sc["rows"])
			done++
			continue
		}
		// Refused at the cap: the model is told to retry.
		assert.Contains(t, fmt.Sprint(res), "tool generate_csv is already running 2 calls: retry in a moment", "%v", res)
	}
	assert.GreaterOrEqual(t, done, 2, "the first two calls run")
	hwm := vmHWM(t, pid)
	t.Logf("%d of %d calls of %d rows ran; peak RSS (VmHWM) %d MiB", done, calls, rows, hwm>>20)
	assert.Less(t, hwm, int64(512<<20), "peak RSS")

	// The files that were written are whole.
	entries, err := os.ReadDir(filepath.Join(dataDir, "files"))
	require.NoError(t, err)
	var written int
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "big") {
			written++
			fi, err := e.Info()
			require.NoError(t, err)
			assert.Greater(t, fi.Size(), int64(100<<20), e.Name())
		}
		assert.NotContains(t, e.Name(), ".tmp-", "no temporary file left")
	}
	assert.Equal(t, done, written)
}

// startDemo starts the built demo on a free loopback port and returns its
// URL and process ID; it is killed when the test ends.
func startDemo(t *testing.T, bin string, args ...string) (url string, pid int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := urlRE.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case url = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("the demo did not start within 30s")
	}
	return url, cmd.Process.Pid
}

// vmHWM is the peak resident set size of process pid, in bytes.
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/PID/status")
	return 0
}

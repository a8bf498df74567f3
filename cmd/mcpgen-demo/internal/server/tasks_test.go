package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// taskWire speaks the 2026-07-28 wire to a served demo, declaring the tasks
// extension (or not), for the methods no client library has yet.
type taskWire struct {
	t     *testing.T
	url   string
	tasks bool
	id    atomic.Int64
}

type wireError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

func (w *taskWire) call(method string, params map[string]any) (map[string]any, *wireError) {
	w.t.Helper()
	caps := map[string]any{}
	if w.tasks {
		caps["extensions"] = map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}
	}
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": caps,
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": w.id.Add(1), "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, w.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if n, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", n)
	}
	if id, ok := params["taskId"].(string); ok {
		req.Header.Set("Mcp-Name", id)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(w.t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(raw), "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(d, `"id"`) {
				raw = []byte(d)
			}
		}
	}
	var msg struct {
		Result map[string]any `json:"result"`
		Error  *wireError     `json:"error"`
	}
	require.NoError(w.t, json.Unmarshal(raw, &msg), "%s", raw)
	return msg.Result, msg.Error
}

func (w *taskWire) ok(method string, params map[string]any) map[string]any {
	w.t.Helper()
	res, err := w.call(method, params)
	require.Nil(w.t, err, "%s: %+v", method, err)
	return res
}

func (w *taskWire) until(id string, timeout time.Duration, want ...string) map[string]any {
	w.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := w.ok("tasks/get", map[string]any{"taskId": id})
		for _, s := range want {
			if got["status"] == s {
				return got
			}
		}
		require.True(w.t, time.Now().Before(deadline), "task %s still %v after %s", id, got["status"], timeout)
		time.Sleep(20 * time.Millisecond)
	}
}

var urlRE = regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+/mcp)`)

// serveDemo starts the built demo on a free loopback port and returns its
// URL; stop kills it (SIGKILL when kill is set, as a crash would).
func serveDemo(t *testing.T, bin string, args ...string) (url string, stop func(kill bool)) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-http", "127.0.0.1:0", "-stateless"}, args...)...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
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
	stopped := false
	stop = func(kill bool) {
		if stopped {
			return
		}
		stopped = true
		sig := syscall.SIGTERM
		if kill {
			sig = syscall.SIGKILL
		}
		_ = cmd.Process.Signal(sig)
		_ = cmd.Wait()
	}
	t.Cleanup(func() { stop(true) })
	select {
	case url = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("the demo did not start within 30s")
	}
	return url, stop
}

// A process killed mid-task and started again on the same -tasks-db: the
// task it ran reads failed ("server restarted"), a completed one still has
// its result.
func TestTasksSurviveRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the demo binary")
	}
	bin := buildDemo(t)
	db := filepath.Join(t.TempDir(), "tasks.db")
	url, stop := serveDemo(t, bin, "-toolset", "conformance", "-tasks-db", db)
	w := &taskWire{t: t, url: url, tasks: true}

	done := w.ok("tools/call", map[string]any{"name": "slow_compute", "arguments": map[string]any{"seconds": 0, "label": "kept"}})
	doneID := done["taskId"].(string)
	w.until(doneID, 10*time.Second, "completed")
	running := w.ok("tools/call", map[string]any{"name": "slow_compute", "arguments": map[string]any{"seconds": 60, "label": "lost"}})
	runningID := running["taskId"].(string)
	w.until(runningID, 10*time.Second, "working")
	stop(true) // SIGKILL: no chance to clean up

	url, _ = serveDemo(t, bin, "-toolset", "conformance", "-tasks-db", db)
	w = &taskWire{t: t, url: url, tasks: true}
	got := w.ok("tasks/get", map[string]any{"taskId": runningID})
	assert.Equal(t, "failed", got["status"])
	assert.Equal(t, "server restarted", got["statusMessage"])
	assert.Equal(t, "server restarted", got["error"].(map[string]any)["message"])
	got = w.ok("tasks/get", map[string]any{"taskId": doneID})
	assert.Equal(t, "completed", got["status"])
	content := got["result"].(map[string]any)["content"].([]any)
	assert.Contains(t, content[0].(map[string]any)["text"], "Computed kept")
}

// The demo's CSV tools as tasks: generate_csv runs only as a task,
// analyze_csv becomes one for clients that support tasks.
func TestDemoCSVTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the demo binary")
	}
	bin := buildDemo(t)
	url, _ := serveDemo(t, bin, "-data", filepath.Join(t.TempDir(), "data"))
	plain := &taskWire{t: t, url: url}
	_, err := plain.call("tools/call", map[string]any{"name": "generate_csv", "arguments": map[string]any{"filepath": "big.csv", "rows": 10}})
	require.NotNil(t, err)
	assert.EqualValues(t, -32021, err.Code, "generate_csv needs a client that supports tasks")

	w := &taskWire{t: t, url: url, tasks: true}
	// Quick calls are answered directly (within the default Wait of 1 s),
	// also generate_csv's: a client that declares tasks and never polls
	// still gets them.
	res := w.ok("tools/call", map[string]any{"name": "generate_csv", "arguments": map[string]any{"filepath": "small.csv", "rows": 10}})
	require.Equal(t, "complete", res["resultType"], "%v", res)
	assert.EqualValues(t, 10, res["structuredContent"].(map[string]any)["rows"])
	res = w.ok("tools/call", map[string]any{"name": "analyze_csv", "arguments": map[string]any{"filepath": "small.csv", "operations": []string{"count"}}})
	require.Equal(t, "complete", res["resultType"], "%v", res)

	// Longer ones become tasks; how long is the machine's to say, so a call
	// that still ended within Wait is checked as a direct answer.
	const rows = 5_000_000
	result := func(res map[string]any) map[string]any {
		t.Helper()
		if res["resultType"] != "task" {
			require.Equal(t, "complete", res["resultType"], "%v", res)
			return res
		}
		id := res["taskId"].(string)
		var got map[string]any
		deadline := time.Now().Add(2 * time.Minute)
		for {
			got = w.ok("tasks/get", map[string]any{"taskId": id})
			if got["status"] != "working" || time.Now().After(deadline) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		require.Equal(t, "completed", got["status"], "%v", got)
		return got["result"].(map[string]any)
	}
	gen := result(w.ok("tools/call", map[string]any{"name": "generate_csv", "arguments": map[string]any{"filepath": "big.csv", "rows": rows}}))
	assert.EqualValues(t, rows, gen["structuredContent"].(map[string]any)["rows"])
	an := result(w.ok("tools/call", map[string]any{"name": "analyze_csv", "arguments": map[string]any{"filepath": "big.csv", "operations": []string{"count", "sum"}}}))
	assert.EqualValues(t, rows, an["structuredContent"].(map[string]any)["rows"])

	// Without the extension analyze_csv answers directly.
	res = plain.ok("tools/call", map[string]any{"name": "analyze_csv", "arguments": map[string]any{"filepath": "sales.csv", "operations": []string{"count"}}})
	assert.Equal(t, "complete", res["resultType"])
	assert.EqualValues(t, 24, res["structuredContent"].(map[string]any)["rows"])
}

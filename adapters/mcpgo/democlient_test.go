package mcpgo_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// The demo server (cmd/mcpgen-demo, its own module) driven by mark3labs/mcp-go's
// client, as a user of that client would: over stdio and HTTP, on both
// protocol eras — the tool list, calls, an invalid call, a task=required tool
// and a confirmation (elicitation).

// buildDemo builds cmd/mcpgen-demo into the test's temporary directory.
func buildDemo(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the demo")
	}
	bin := filepath.Join(t.TempDir(), "mcpgen-demo")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("..", "..", "cmd", "mcpgen-demo")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/mcpgen-demo: %v\n%s", err, out)
	}
	return bin
}

// serveDemoHTTP starts the demo with -http on a free loopback port and
// returns its endpoint.
func serveDemoHTTP(t *testing.T, bin, data string) string {
	t.Helper()
	cmd := exec.Command(bin, "-data", data, "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`url=(http://127\.0\.0\.1:[0-9]+/mcp)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case u := <-urls:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("the demo did not log its URL")
		return ""
	}
}

// confirmer answers delete confirmations: accepted or declined.
type confirmer struct {
	accept atomic.Bool
	asked  atomic.Int64
}

func (c *confirmer) Elicit(_ context.Context, req gomcp.ElicitationRequest) (*gomcp.ElicitationResult, error) {
	c.asked.Add(1)
	if !c.accept.Load() {
		return &gomcp.ElicitationResult{ElicitationResponse: gomcp.ElicitationResponse{Action: gomcp.ElicitationResponseActionDecline}}, nil
	}
	return &gomcp.ElicitationResult{ElicitationResponse: gomcp.ElicitationResponse{
		Action: gomcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true}}}, nil
}

func TestDemoWithMcpGoClient(t *testing.T) {
	bin := buildDemo(t)
	for _, tr := range []string{"stdio", "http"} {
		for _, version := range []string{"2025-11-25", "2026-07-28"} {
			for _, tasks := range []bool{false, true} {
				name := tr + "/" + version + "/plain"
				if tasks {
					name = tr + "/" + version + "/tasks"
				}
				t.Run(name, func(t *testing.T) { demoSession(t, bin, tr, version, tasks) })
			}
		}
	}
}

func demoSession(t *testing.T, bin, tr, version string, tasks bool) {
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	data := t.TempDir()
	var tp transport.Interface
	if tr == "stdio" {
		tp = transport.NewStdio(bin, os.Environ(), "-data", data)
	} else {
		h, err := transport.NewStreamableHTTP(serveDemoHTTP(t, bin, data))
		require.NoError(t, err)
		tp = h
	}
	conf := &confirmer{}
	opts := []client.ClientOption{client.WithProtocolVersion(version), client.WithElicitationHandler(conf)}
	if tasks && version == "2026-07-28" {
		// The extension; a 2025-11-25 client asks for core tasks per call.
		opts = append(opts, client.WithClientCapabilities(gomcp.ClientCapabilities{
			Extensions: map[string]any{mcptool.TasksExtension: map[string]any{}}}))
	}
	c := client.NewClient(tp, opts...)
	require.NoError(t, c.Start(ctx))
	defer c.Close()
	init, err := c.Initialize(ctx, gomcp.InitializeRequest{Params: gomcp.InitializeParams{
		ClientInfo: gomcp.Implementation{Name: "mcp-go-test", Version: "1"}}})
	require.NoError(t, err)
	require.Equal(t, version, init.ProtocolVersion)

	// The tool list.
	list, err := c.ListTools(ctx, gomcp.ListToolsRequest{})
	require.NoError(t, err)
	names := map[string]bool{}
	for _, tool := range list.Tools {
		names[tool.Name] = true
	}
	for _, want := range []string{"calculate_sum", "analyze_csv", "generate_csv", "delete_file"} {
		assert.True(t, names[want], "tools/list lacks %s", want)
	}

	// A call, and an invalid one: an isError result naming the argument.
	call := func(name string, args map[string]any) (*gomcp.CallToolResult, error) {
		return c.CallTool(ctx, gomcp.CallToolRequest{Params: gomcp.CallToolParams{Name: name, Arguments: args}})
	}
	res, err := call("calculate_sum", map[string]any{"a": 2.5, "b": 4})
	require.NoError(t, err)
	require.False(t, res.IsError, "%+v", res)
	assert.JSONEq(t, `{"sum":6.5}`, mustJSON(t, res.StructuredContent))
	res, err = call("calculate_sum", map[string]any{"a": "two", "b": 4})
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, textOf(res), "a:")

	// A task=required tool.
	gen := map[string]any{"filepath": "made.csv", "rows": 5}
	switch {
	case !tasks && version == "2026-07-28":
		// The spec's -32021: mcp-go reads the name from data.capability.
		_, err = call("generate_csv", gen)
		require.Error(t, err)
		var missing gomcp.MissingRequiredClientCapabilityError
		require.True(t, errors.As(err, &missing), "%T %v", err, err)
		assert.Equal(t, mcptool.TasksExtension, missing.Capability)
	case !tasks:
		// The spec's -32601, with the reason.
		_, err = call("generate_csv", gen)
		require.Error(t, err)
		assert.Contains(t, err.Error(), `tool "generate_csv" runs only as a task`)
		assert.NotContains(t, err.Error(), `method not found: "tools/call"`)
	case version == "2026-07-28":
		// The extension: a quick call is answered directly (Wait).
		res, err = call("generate_csv", gen)
		require.NoError(t, err)
		require.False(t, res.IsError, "%+v", res)
		assert.Contains(t, mustJSON(t, res.StructuredContent), `"rows":5`)
	default:
		// 2025-11-25 core tasks: mcp-go v1.6.0's CallTool with params.task
		// cannot read the spec's CreateTaskResult ({"task": {...}}, no
		// content), so the call goes through the transport, and the task is
		// followed with mcp-go's WaitForTask and TaskResult.
		_, err = c.CallTool(ctx, gomcp.CallToolRequest{Params: gomcp.CallToolParams{Name: "generate_csv", Arguments: gen, Task: &gomcp.TaskParams{}}})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "content is missing", "mcp-go's CallTool now reads CreateTaskResult: update docs/mcp-go.md")
		resp, err := tp.SendRequest(ctx, transport.JSONRPCRequest{JSONRPC: "2.0", ID: gomcp.NewRequestId(int64(1000)), Method: "tools/call",
			Params: map[string]any{"name": "generate_csv", "arguments": gen, "task": map[string]any{"ttl": 60000}}})
		require.NoError(t, err)
		require.Nil(t, resp.Error)
		var created gomcp.CreateTaskResult
		require.NoError(t, json.Unmarshal(resp.Result, &created))
		require.NotEmpty(t, created.Task.TaskId, "%s", resp.Result)
		done, err := c.WaitForTask(ctx, gomcp.GetTaskRequest{Params: gomcp.GetTaskParams{TaskId: created.Task.TaskId}}, 50*time.Millisecond)
		require.NoError(t, err)
		assert.Equal(t, gomcp.TaskStatusCompleted, done.Status)
		out, err := c.TaskResult(ctx, gomcp.TaskResultRequest{Params: gomcp.TaskResultParams{TaskId: created.Task.TaskId}})
		require.NoError(t, err)
		assert.Contains(t, mustJSON(t, out), `"rows":5`)
	}

	// A confirmation: declined, nothing is deleted; accepted, it is.
	file := filepath.Join(data, "files", "doomed.txt")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	res, err = call("delete_file", map[string]any{"path": "doomed.txt"})
	require.NoError(t, err)
	assert.True(t, res.IsError, "%+v", res)
	assert.FileExists(t, file)
	conf.accept.Store(true)
	res, err = call("delete_file", map[string]any{"path": "doomed.txt"})
	require.NoError(t, err)
	assert.False(t, res.IsError, "%s", textOf(res))
	assert.NoFileExists(t, file)
	assert.EqualValues(t, 2, conf.asked.Load(), "the user was asked each time")
}

// textOf joins a result's text blocks.
func textOf(res *gomcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(gomcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

package mcpredis_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// taskReplica serves a registry on the cluster's state over HTTP, with one
// task tool that reports progress, then waits for gate.
func taskReplica(t *testing.T, c interface {
	RegistryOptions() []mcptool.RegistryOption
}, gate <-chan struct{}) string {
	t.Helper()
	reg := mcptool.NewRegistry(append(c.RegistryOptions(), mcptool.Logger(slog.New(slog.DiscardHandler)))...)
	if err := reg.Add("slow", func(ctx context.Context) (string, error) {
		mcptool.Progress(ctx, 1, 2, "halfway")
		select {
		case <-gate:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return "finished", nil
	}, mcptool.Description("Slow."), mcptool.Task(mcptool.TaskSettings{Wait: -1})); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(reg.Server(&mcp.Implementation{Name: "replica", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{Stateless: true}))
	t.Cleanup(hs.Close)
	return hs.URL
}

// post sends a 2026-07-28 request declaring the tasks extension and
// returns the response body.
func post(t *testing.T, ctx context.Context, url, method string, params map[string]any) io.ReadCloser {
	t.Helper()
	params["_meta"] = map[string]any{
		mcp.MetaKeyProtocolVersion:    "2026-07-28",
		mcp.MetaKeyClientCapabilities: map[string]any{"extensions": map[string]any{mcptool.TasksExtension: map[string]any{}}},
		mcp.MetaKeyClientInfo:         map[string]any{"name": "test", "version": "1"},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if name, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", name)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Body
}

// messages decodes the JSON-RPC messages of an SSE (or JSON) body.
func messages(body io.ReadCloser) <-chan map[string]any {
	out := make(chan map[string]any, 16)
	go func() {
		defer close(out)
		defer body.Close()
		sc := bufio.NewScanner(body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line, _ := strings.CutPrefix(sc.Text(), "data: ")
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil {
				out <- m
			}
		}
	}()
	return out
}

// A client listening on replica B hears the task that replica A runs,
// from working to completed: B reads it through the Redis store's Watch.
func TestTaskListenAcrossReplicas(t *testing.T) {
	srv := startRedis(t)
	gate := make(chan struct{})
	a := taskReplica(t, open(t, srv, nil), gate)
	b := taskReplica(t, open(t, srv, nil), gate)
	ctx := t.Context()

	var id string
	for m := range messages(post(t, ctx, a, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}})) {
		if r, ok := m["result"].(map[string]any); ok {
			id, _ = r["taskId"].(string)
		}
	}
	if id == "" {
		t.Fatal("replica A made no task")
	}
	stream := messages(post(t, ctx, b, "subscriptions/listen", map[string]any{"notifications": map[string]any{"taskIds": []string{id}}}))
	nextMsg := func() map[string]any {
		t.Helper()
		select {
		case m, ok := <-stream:
			if !ok {
				t.Fatal("the stream ended")
			}
			return m
		case <-time.After(10 * time.Second):
			t.Fatal("nothing on the stream for 10s")
			return nil
		}
	}
	ack := nextMsg()
	if ack["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first message %v, want the acknowledgement", ack)
	}
	var statuses []string
	for {
		m := nextMsg()
		if m["method"] == nil {
			break // the listen's response: every task is done
		}
		p, _ := m["params"].(map[string]any)
		statuses = append(statuses, p["status"].(string))
		if p["status"] == "working" && len(statuses) == 1 {
			close(gate) // A finishes only once B has told the client it works
		}
		if p["status"] == "completed" {
			res, _ := p["result"].(map[string]any)
			content, _ := res["content"].([]any)
			if len(content) == 0 || content[0].(map[string]any)["text"] != "finished" {
				t.Fatalf("completed without A's result: %v", p)
			}
		}
	}
	if len(statuses) < 2 || statuses[0] != "working" || statuses[len(statuses)-1] != "completed" {
		t.Fatalf("replica B told %v, want working … completed", statuses)
	}
}

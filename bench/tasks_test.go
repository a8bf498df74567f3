package bench

// Tasks (issue 15), end to end, protocol 2026-07-28, one go-sdk client
// declaring the tasks extension, over go-sdk's in-memory transport, pipes
// to mcpgen's StdioTransport, or streamable HTTP on loopback (taskwire_test.go
// has the same without the client):
//
//	BenchmarkTask/transport=T/mode=direct  tools/call of a tool that is not a task
//	BenchmarkTask/transport=T/mode=task    tools/call of the same function as a
//	                                       task (CreateTaskResult) plus its
//	                                       first tasks/get
//	BenchmarkTasksGet/stored=N             tasks/get (HTTP) of a completed task
//	                                       among N in the in-memory store

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

type taskGetParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type taskState struct {
	mcp.ResultBase
	TaskID string          `json:"taskId"`
	Status string          `json:"status"`
	Result json.RawMessage `json:"result,omitempty"`
}

type echoIn struct {
	Text string `json:"text"`
}

// echoServer serves a registry with the tool twice, "echo" and
// "echo_task" (a task).
func echoServer(tb testing.TB, opts ...mcptool.RegistryOption) (*mcptool.Registry, *mcptool.Server) {
	tb.Helper()
	reg := mcptool.NewRegistry(opts...)
	echo := func(_ context.Context, in echoIn) (string, error) { return in.Text, nil }
	if err := reg.Add("echo", echo, mcptool.Description("Echoes.")); err != nil {
		tb.Fatal(err)
	}
	if err := reg.Add("echo_task", echo, mcptool.Description("Echoes, as a task."), mcptool.Task(mcptool.TaskSettings{Wait: -1})); err != nil {
		tb.Fatal(err)
	}
	return reg, reg.Server(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
}

// taskSession serves echoServer and connects a tasks-aware go-sdk client,
// over streamable HTTP, stdio pipes or go-sdk's in-memory transport.
func taskSession(tb testing.TB, transport string, opts ...mcptool.RegistryOption) *mcp.ClientSession {
	tb.Helper()
	_, srv := echoServer(tb, opts...)
	c := mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "1.0.0"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Extensions: map[string]any{mcptool.TasksExtension: map[string]any{}}},
	})
	if err := mcp.AddSendingCustomMethod[*taskGetParams, *taskState](c, "tasks/get"); err != nil {
		tb.Fatal(err)
	}
	var ct mcp.Transport
	switch transport {
	case "stdio":
		// go-sdk's transport on the client's side of the pipes.
		cr, cw := serveStdio(tb, srv)
		ct = &mcp.IOTransport{Reader: cr, Writer: cw}
	case "inmemory":
		c, s := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(context.Background(), s, nil)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { ss.Close() })
		ct = c
	default:
		ts := httptest.NewServer(srv.Handler(nil))
		tb.Cleanup(ts.Close)
		ct = &mcp.StreamableClientTransport{Endpoint: ts.URL, HTTPClient: ts.Client(), DisableStandaloneSSE: true}
	}
	cs, err := c.Connect(context.Background(), ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

func getTask(tb testing.TB, cs *mcp.ClientSession, id string) *taskState {
	t, err := mcp.CallCustomMethod[*taskGetParams, *taskState](context.Background(), cs, "tasks/get", &taskGetParams{TaskID: id})
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func taskID(tb testing.TB, res *mcp.CallToolResult) string {
	related, _ := res.Meta["io.modelcontextprotocol/related-task"].(map[string]any)
	id, _ := related["taskId"].(string)
	if id == "" {
		tb.Fatalf("no task created: %+v", res)
	}
	return id
}

// BenchmarkTask runs both modes against a store already holding 10,000
// tasks, as a server that has been up a while holds them. An empty store
// would favour the task mode: the tasks it adds as it runs grow the live
// heap, and a larger live heap makes the garbage collector run less often
// for go-sdk's allocations (with 2 s per benchmark the task mode came out
// faster than the direct one over HTTP).
func BenchmarkTask(b *testing.B) {
	for _, tr := range []string{"inmemory", "stdio", "http"} {
		b.Run("transport="+tr, func(b *testing.B) {
			store, _ := storeWith(b, 10_000)
			benchTask(b, taskSession(b, tr, mcptool.Tasks(mcptool.TaskSettings{Store: store})))
		})
	}
}

// serveStdio connects srv to mcpgen's StdioTransport over two pipes, as
// between a client and the server process it runs, and returns the
// client's ends: what the server writes, and where to write to it.
func serveStdio(tb testing.TB, srv *mcptool.Server) (*io.PipeReader, *io.PipeWriter) {
	tb.Helper()
	sr, cw := io.Pipe()
	cr, sw := io.Pipe()
	ss, err := srv.Connect(context.Background(), &mcptool.StdioTransport{Reader: sr, Writer: sw}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cw.Close(); ss.Close(); sw.Close() })
	return cr, cw
}

// storeWith returns an in-memory store holding n completed tasks of
// echo_task, and their IDs.
func storeWith(tb testing.TB, n int) (*taskstore.Memory, []string) {
	store := taskstore.NewMemory()
	now := time.Now()
	result := json.RawMessage(`{"content":[{"type":"text","text":"hello"}]}`)
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("task-%06d", i)
		err := store.Create(context.Background(), taskstore.Task{ID: ids[i], Tool: "echo_task", Status: taskstore.Completed,
			CreatedAt: now, UpdatedAt: now, ExpiresAt: now.Add(time.Hour), PollInterval: time.Second, Result: result})
		if err != nil {
			tb.Fatal(err)
		}
	}
	return store, ids
}

func benchTask(b *testing.B, cs *mcp.ClientSession) {
	ctx := context.Background()
	args := map[string]any{"text": "hello"}
	b.Run("mode=direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: args})
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
	b.Run("mode=task", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo_task", Arguments: args})
			if err != nil {
				b.Fatal(err)
			}
			getTask(b, cs, taskID(b, res))
		}
	})
}

func BenchmarkTasksGet(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		b.Run(fmt.Sprintf("stored=%d", n), func(b *testing.B) {
			store, ids := storeWith(b, n)
			cs := taskSession(b, "http", mcptool.Tasks(mcptool.TaskSettings{Store: store}))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if t := getTask(b, cs, ids[i%n]); t.Status != "completed" {
					b.Fatal(t.Status)
				}
				i += 7919 // a prime: ids spread over the store
			}
		})
	}
}

// The task path answers as the direct one does, through tasks/get.
func TestTaskEquivalence(t *testing.T) {
	cs := taskSession(t, "http")
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo_task", Arguments: map[string]any{"text": "same"}})
	if err != nil {
		t.Fatal(err)
	}
	id := taskID(t, res)
	deadline := time.Now().Add(5 * time.Second)
	var st *taskState
	for st = getTask(t, cs, id); st.Status != "completed" && time.Now().Before(deadline); st = getTask(t, cs, id) {
		time.Sleep(time.Millisecond)
	}
	var got mcp.CallToolResult
	if err := json.Unmarshal(st.Result, &got); err != nil {
		t.Fatal(err)
	}
	direct, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "same"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.Content[0].(*mcp.TextContent).Text != "same" || direct.Content[0].(*mcp.TextContent).Text != "same" {
		t.Fatalf("task result %+v, direct %+v", got.Content[0], direct.Content[0])
	}
}

package sdkpatch

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// chanTransport is a server connection fed and read through channels.
type chanTransport struct {
	in, out chan jsonrpc.Message
	closed  chan struct{}
}

func newChanTransport() *chanTransport {
	return &chanTransport{in: make(chan jsonrpc.Message), out: make(chan jsonrpc.Message, 100), closed: make(chan struct{})}
}

func (c *chanTransport) Connect(context.Context) (mcp.Connection, error) { return c, nil }
func (c *chanTransport) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
func (c *chanTransport) Write(_ context.Context, m jsonrpc.Message) error {
	c.out <- m
	return nil
}
func (c *chanTransport) Close() error {
	select {
	case <-c.closed:
	default:
		close(c.closed)
	}
	return nil
}
func (c *chanTransport) SessionID() string { return "chan" }

// Pins what ToolsChanged relies on: adding and removing a tool on a server
// makes go-sdk send an initialized 2025-11-25 session one
// notifications/tools/list_changed (changes close together share one), and
// the placeholder is not left in go-sdk's tools.
func TestToolsChangedNotifies(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
	})
	tr := newChanTransport()
	ss, err := srv.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	send := func(id any, method, params string) {
		t.Helper()
		m := &jsonrpc.Request{Method: method, Params: json.RawMessage(params)}
		if id != nil {
			m.ID, _ = jsonrpc.MakeID(id)
		}
		select {
		case tr.in <- m:
		case <-ctx.Done():
			t.Fatal("the server did not read")
		}
	}
	next := func(wait time.Duration) jsonrpc.Message {
		select {
		case m := <-tr.out:
			return m
		case <-time.After(wait):
			return nil
		}
	}
	send("init", "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)
	if r, ok := next(5 * time.Second).(*jsonrpc.Response); !ok || r.Error != nil {
		t.Fatalf("initialize: %v", r)
	}
	send(nil, "notifications/initialized", `{}`)
	send("ping", "ping", `{}`) // answered once initialized has been handled
	if _, ok := next(5 * time.Second).(*jsonrpc.Response); !ok {
		t.Fatal("no answer to ping")
	}

	ToolsChanged(srv)
	ToolsChanged(srv)
	var notes int
	for m := next(2 * time.Second); m != nil; m = next(300 * time.Millisecond) {
		if r, ok := m.(*jsonrpc.Request); ok && r.Method == "notifications/tools/list_changed" {
			notes++
		}
	}
	if notes != 1 {
		t.Errorf("%d notifications/tools/list_changed for two changes together, want 1", notes)
	}
	send("list", "tools/list", `{}`)
	r, ok := next(5 * time.Second).(*jsonrpc.Response)
	if !ok || r.Error != nil {
		t.Fatalf("tools/list: %v", r)
	}
	var lr mcp.ListToolsResult
	if err := json.Unmarshal(r.Result, &lr); err != nil {
		t.Fatal(err)
	}
	if len(lr.Tools) != 0 {
		t.Errorf("go-sdk still holds %d tools: %v", len(lr.Tools), lr.Tools)
	}
}

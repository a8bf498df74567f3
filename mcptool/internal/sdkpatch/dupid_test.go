package sdkpatch

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Pins what mcptool's StdioTransport works around in its own bookkeeping
// (stdio.go, inFlight: the calls read and not yet answered, which it
// keeps anyway to answer them at end of input): go-sdk v1.8.0 drops a call
// whose id is already in flight without answering it, so the transport
// answers it with -32600 before go-sdk sees it. Retire the refusal when
// go-sdk answers such a call itself.
func TestGoSDKDropsDuplicateCallID(t *testing.T) {
	release := make(chan struct{})
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "block", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-release:
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
		})
	w := connect(t, srv)
	w.initialize("2025-11-25")
	id, _ := jsonrpc.MakeID("dup")
	for range 2 {
		select {
		case w.tr.in <- &jsonrpc.Request{ID: id, Method: "tools/call", Params: json.RawMessage(`{"name":"block","arguments":{}}`)}:
		case <-w.ctx.Done():
			t.Fatal("the server did not read")
		}
	}
	if b := w.call("after", "ping", `{}`); decode(t, b).Error != nil {
		t.Fatalf("ping: %s", b) // the second call has been read and handled by now
	}
	select {
	case m := <-w.tr.out:
		b, _ := jsonrpc.EncodeMessage(m)
		t.Fatalf("go-sdk answered a call whose id is in flight: %s (stdio.go inFlight's refusal may be retired)", b)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	var answers int
	for m := range 2 {
		select {
		case msg := <-w.tr.out:
			if r, ok := msg.(*jsonrpc.Response); ok && r.ID == id {
				answers++
			}
		case <-time.After(time.Duration(m+1) * 300 * time.Millisecond):
		}
	}
	if answers != 1 {
		t.Errorf("%d answers with id \"dup\" for two calls, want 1 (the first's)", answers)
	}
}

package sdkpatch

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Pins what CancelledNotification works around: go-sdk's stateful
// streamable handler lets a call run on when the POST that carried it ends
// early, and cancels it on the notifications/cancelled its client would
// send.
func TestStatefulCallOutlivesItsRequest(t *testing.T) {
	started, ended := make(chan struct{}, 1), make(chan struct{}, 1)
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "block", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			started <- struct{}{}
			<-ctx.Done()
			ended <- struct{}{}
			return nil, ctx.Err()
		})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()
	post := func(ctx context.Context, session, body string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, hs.URL, bytes.NewReader([]byte(body)))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		return http.DefaultClient.Do(req)
	}
	resp, err := post(context.Background(), "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatal("no session")
	}
	if resp, err = post(context.Background(), session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		if resp, err := post(ctx, session, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"block","arguments":{}}}`); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not start")
	}
	cancel() // the client goes away
	select {
	case <-ended:
		t.Fatal("go-sdk cancelled the call when its request ended: CancelledNotification may be retired")
	case <-time.After(300 * time.Millisecond):
	}
	note, err := CancelledNotification(json.RawMessage("7"), "the client went away")
	if err != nil {
		t.Fatal(err)
	}
	if resp, err = post(context.Background(), session, string(note)); err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("go-sdk did not cancel the call on notifications/cancelled")
	}
}

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

// Pins what SameHeader works around and relies on: go-sdk's stateful
// streamable handler lets a call run on when the POST that carried it ends
// early; it hands the call's handler that POST's own header map; closing
// the session (found with Server.Sessions) does not cancel the call but
// waits for it; and once closed, the handler forgets the session (its
// client gets 404).
func TestStatefulCallOutlivesItsRequest(t *testing.T) {
	started, ended, release := make(chan http.Header, 1), make(chan struct{}, 1), make(chan struct{})
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "block", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			started <- req.Extra.Header
			select {
			case <-ctx.Done():
			case <-release:
			}
			ended <- struct{}{}
			return &mcp.CallToolResult{}, nil
		})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	carried := make(chan http.Header, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Call") != "" {
			carried <- r.Header
		}
		sdk.ServeHTTP(w, r)
	}))
	defer hs.Close()
	post := func(ctx context.Context, session, body string, call bool) (*http.Response, error) {
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
		if call {
			req.Header.Set("X-Call", "1")
		}
		return http.DefaultClient.Do(req)
	}
	resp, err := post(context.Background(), "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`, false)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatal("no session")
	}
	if resp, err = post(context.Background(), session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false); err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		if resp, err := post(ctx, session, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"block","arguments":{}}}`, true); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
	}()
	var got http.Header
	select {
	case got = <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the call did not start")
	}
	if !SameHeader(got, <-carried) {
		t.Fatal("the call's RequestExtra.Header is not its POST's header map: SameHeader cannot find the calls of a request")
	}
	if SameHeader(got, got.Clone()) || SameHeader(nil, nil) {
		t.Fatal("SameHeader took two maps for one")
	}
	cancel() // the client goes away
	select {
	case <-ended:
		t.Fatal("go-sdk cancelled the call when its request ended: SameHeader may be retired")
	case <-time.After(300 * time.Millisecond):
	}

	var ss *mcp.ServerSession
	for s := range srv.Sessions() {
		if s.ID() == session {
			ss = s
		}
	}
	if ss == nil {
		t.Fatal("Server.Sessions does not hold the session")
	}
	closed := make(chan error, 1)
	go func() { closed <- ss.Close() }()
	select {
	case <-ended:
		t.Fatal("go-sdk cancelled the call when its session closed: cancelling first may be retired")
	case <-closed:
		t.Fatal("ServerSession.Close returned with a call in flight")
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	<-ended
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("ServerSession.Close did not return once its call did")
	}
	resp, err = post(context.Background(), session, `{"jsonrpc":"2.0","id":8,"method":"ping"}`, false)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a request of the closed session: status %d, want 404 (the handler forgets a session closed with ServerSession.Close)", resp.StatusCode)
	}
}

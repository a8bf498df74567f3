package sdkpatch

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// captureTransport is a server connection that reads nothing and keeps
// what the server writes.
type captureTransport struct {
	mu      sync.Mutex
	written []jsonrpc.Message
	closed  chan struct{}
	once    sync.Once
}

func newCapture() *captureTransport { return &captureTransport{closed: make(chan struct{})} }

func (c *captureTransport) Connect(context.Context) (mcp.Connection, error) { return c, nil }
func (c *captureTransport) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
func (c *captureTransport) Write(_ context.Context, m jsonrpc.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.written = append(c.written, m)
	return nil
}
func (c *captureTransport) Close() error      { c.once.Do(func() { close(c.closed) }); return nil }
func (c *captureTransport) SessionID() string { return "capture" }

// Pins what Notify relies on: go-sdk's ServerSession.NotifyProgress hands
// the connection one notifications/progress whose params keep the token
// and the _meta given, whether or not a request asked for progress, and
// Unwrap finds the notification in it. If go-sdk starts checking progress
// tokens, dropping _meta or can send custom notifications, this fails.
func TestNotifyThroughProgress(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	tr := newCapture()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ss, err := srv.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	msg := json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t1","status":"working"}}`)
	if err := Notify(ctx, ss, "tok-1", msg); err != nil {
		t.Fatalf("Notify: %v", err)
	}
	tr.mu.Lock()
	written := append([]jsonrpc.Message(nil), tr.written...)
	tr.mu.Unlock()
	if len(written) != 1 {
		t.Fatalf("go-sdk wrote %d messages, want 1: %v", len(written), written)
	}
	got, ok := Unwrap(written[0], func(tok string) bool { return tok == "tok-1" })
	if !ok {
		t.Fatalf("Unwrap did not find the notification in %#v", written[0])
	}
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal(msg, &b) != nil || !jsonEqual(a, b) {
		t.Errorf("unwrapped %s, want %s", got, msg)
	}
	if _, ok := Unwrap(written[0], func(string) bool { return false }); ok {
		t.Error("Unwrap took a token that is not the transport's")
	}
	plain := &jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(`{"progressToken":"tok-1","progress":1}`)}
	if _, ok := Unwrap(plain, func(string) bool { return true }); ok {
		t.Error("Unwrap took a plain progress notification")
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

package sdkpatch

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wire is a session of srv over a chanTransport, read as the client would
// read it: each answer as the JSON go-sdk writes.
type wire struct {
	t   *testing.T
	ctx context.Context
	tr  *chanTransport
}

func connect(t *testing.T, srv *mcp.Server) *wire {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	tr := newChanTransport()
	ss, err := srv.Connect(ctx, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	return &wire{t, ctx, tr}
}

// call sends a request (a notification when id is "") and returns the
// JSON of its response (nil for a notification).
func (w *wire) call(id string, method, params string) []byte {
	w.t.Helper()
	m := &jsonrpc.Request{Method: method, Params: json.RawMessage(params)}
	if id != "" {
		m.ID, _ = jsonrpc.MakeID(id)
	}
	select {
	case w.tr.in <- m:
	case <-w.ctx.Done():
		w.t.Fatal("the server did not read")
	}
	if id == "" {
		return nil
	}
	for {
		select {
		case msg := <-w.tr.out:
			if _, ok := msg.(*jsonrpc.Response); !ok {
				continue // a notification
			}
			b, err := jsonrpc.EncodeMessage(msg)
			if err != nil {
				w.t.Fatal(err)
			}
			return b
		case <-w.ctx.Done():
			w.t.Fatalf("no answer to %s", method)
		}
	}
}

// initialize opens the session at version.
func (w *wire) initialize(version string) []byte {
	w.t.Helper()
	b := w.call("init", "initialize", `{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)
	w.call("", "notifications/initialized", `{}`)
	w.call("ready", "ping", `{}`) // answered once initialized has been handled
	return b
}

// response decodes a response's JSON.
type response struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func decode(t *testing.T, b []byte) response {
	t.Helper()
	var r response
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return r
}

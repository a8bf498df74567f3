package mcptool_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// stdioPeer is the client side of a server run on a StdioTransport over
// pipes: it writes lines and reads responses.
type stdioPeer struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error // Run's result
}

func runStdio(t *testing.T, srv *mcptool.Server) *stdioPeer {
	t.Helper()
	return runStdioCtx(t, context.Background(), srv)
}

// runStdioCtx is runStdio serving under ctx.
func runStdioCtx(t *testing.T, ctx context.Context, srv *mcptool.Server) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(ctx)
	p := &stdioPeer{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	p.out.Buffer(nil, 1<<20)
	go func() {
		p.done <- srv.Run(ctx, &mcptool.StdioTransport{Reader: inR, Writer: outW})
		_ = outW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		_ = inW.Close()
		_ = outR.Close()
	})
	return p
}

func (p *stdioPeer) send(line string) {
	p.t.Helper()
	_, err := io.WriteString(p.in, line+"\n")
	require.NoError(p.t, err)
}

// recv reads the next message the server wrote.
func (p *stdioPeer) recv() map[string]any {
	p.t.Helper()
	got := make(chan bool, 1)
	go func() { got <- p.out.Scan() }()
	select {
	case ok := <-got:
		require.True(p.t, ok, "output ended: %v", p.out.Err())
	case <-time.After(10 * time.Second):
		p.t.Fatal("no message from the server within 10s")
	}
	var m map[string]any
	require.NoError(p.t, json.Unmarshal(p.out.Bytes(), &m), "%s", p.out.Bytes())
	return m
}

func (p *stdioPeer) initialize(capabilities string) {
	p.t.Helper()
	p.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + capabilities + `,"clientInfo":{"name":"t","version":"1"}}}`)
	require.Equal(p.t, "init", p.recv()["id"])
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// wait returns Run's result, failing if Run does not return within 10s.
func (p *stdioPeer) wait() error {
	p.t.Helper()
	select {
	case err := <-p.done:
		return err
	case <-time.After(10 * time.Second):
		p.t.Fatal("Run did not return within 10s")
		return nil
	}
}

func errorOf(t *testing.T, m map[string]any) (id any, code float64, message string) {
	t.Helper()
	e, ok := m["error"].(map[string]any)
	require.True(t, ok, "not an error response: %v", m)
	require.Contains(t, m, "id")
	return m["id"], e["code"].(float64), e["message"].(string)
}

// echoServer serves one tool, echo, which answers its argument s.
func echoServer(t *testing.T) *mcptool.Server {
	t.Helper()
	reg := mcptool.NewRegistry()
	require.NoError(t, mcptool.Add(reg, "echo", func(_ context.Context, in struct {
		S string `json:"s"`
	}) (string, error) {
		return in.S, nil
	}, mcptool.Description("Echo s.")))
	return reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
}

// TestStdioTransportMalformedLines: every line that is no JSON-RPC message
// gets its error, and the server goes on serving.
func TestStdioTransportMalformedLines(t *testing.T) {
	p := runStdio(t, echoServer(t))
	p.initialize(`{}`)

	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, tc := range []struct {
		name, line string
		id         any
		code       float64
		message    string
	}{
		{"bad JSON", `{"jsonrpc":"2.0","id":5,`, nil, -32700, "parse error: invalid JSON"},
		{"two values", `{"jsonrpc":"2.0","id":5,"method":"ping"} {}`, nil, -32700, "parse error: invalid JSON"},
		{"not UTF-8 JSON", "\xff\xfe", nil, -32700, "parse error: invalid JSON"},
		{"nested past encoding/json", nested(100000), nil, -32700, "parse error: invalid JSON"},
		{"nested past go-sdk", `{"jsonrpc":"2.0","id":6,"method":"ping","params":{"x":` + nested(1001) + `}}`, nil, -32700, "parse error: JSON nested deeper than 1000 levels"},
		{"wrong version", `{"jsonrpc":"1.0","id":"v","method":"ping"}`, "v", -32600, `invalid request: invalid message version tag "1.0"; expected "2.0"`},
		{"bad id type", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, nil, -32600, "invalid request: "},
		{"response without id", `{"jsonrpc":"2.0","result":{}}`, nil, -32600, "invalid request: "},
		{"not an object", `42`, nil, -32600, "invalid request: "},
		{"batch at 2025-11-25", `[{"jsonrpc":"2.0","id":7,"method":"ping"}]`, nil, -32600, "invalid request: JSON-RPC batches are not supported in 2025-06-18 and later"},
		// Refused whole, as Server.Handler refuses such a body: nothing runs.
		{"a call and a byte", stdioCall(`"jsonrpc":"2.0",`) + `x`, nil, -32700, "parse error: invalid JSON"},
		{"a call and a brace", stdioCall(`"jsonrpc":"2.0",`) + `}`, nil, -32700, "parse error: invalid JSON"},
		{"a call and a value", stdioCall(`"jsonrpc":"2.0",`) + ` 1`, nil, -32700, "parse error: invalid JSON"},
		{"a call without jsonrpc", stdioCall(``), "c", -32600, `invalid request: invalid message version tag ""; expected "2.0"`},
		{"a call of JSON-RPC 1.0", stdioCall(`"jsonrpc":"1.0",`), "c", -32600, `invalid request: invalid message version tag "1.0"; expected "2.0"`},
		{"a call with jsonrpc 2", stdioCall(`"jsonrpc":2,`), "c", -32600, "invalid request: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p.t = t
			p.send(tc.line)
			id, code, message := errorOf(t, p.recv())
			assert.Equal(t, tc.id, id)
			assert.Equal(t, tc.code, code)
			assert.Contains(t, message, tc.message)

			p.send(`{"jsonrpc":"2.0","id":"after","method":"tools/call","params":{"name":"echo","arguments":{"s":"still here"}}}`)
			m := p.recv()
			require.Equal(t, "after", m["id"], "%v", m)
			assert.Equal(t, "still here", m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"])
		})
	}
	p.t = t

	// A nesting depth go-sdk accepts is served.
	p.send(`{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"x":` + nested(990) + `}}`)
	m := p.recv()
	assert.Equal(t, "deep", m["id"])
	assert.NotContains(t, m, "error")

	// Blank lines are skipped, and a last line without a newline is served.
	p.send("")
	_, err := io.WriteString(p.in, `{"jsonrpc":"2.0","id":"last","method":"ping"}`)
	require.NoError(t, err)
	require.NoError(t, p.in.Close())
	assert.Equal(t, "last", p.recv()["id"])
	require.NoError(t, p.wait())
}

// stdioCall is a tools/call of echo with id "c", version its "jsonrpc"
// member and a comma (or nothing).
func stdioCall(version string) string {
	return `{` + version + `"id":"c","method":"tools/call","params":{"name":"echo","arguments":{"s":"ran"}}}`
}

// TestStdioTransportBatchBound: a batch of more than 16 messages gets
// -32600 before anything of it is served, as Server.Handler refuses it
// with 413; a batch of 16 is served, each call answered.
func TestStdioTransportBatchBound(t *testing.T) {
	p := runStdio(t, echoServer(t))
	p.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	require.Equal(t, "init", p.recv()["id"])
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	batch := func(n int) string {
		msgs := make([]string, n)
		for i := range msgs {
			msgs[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"s":"%d"}}}`, i, i)
		}
		return "[" + strings.Join(msgs, ",") + "]"
	}
	for _, n := range []int{12_000, 17} {
		p.send(batch(n))
		id, code, message := errorOf(t, p.recv())
		assert.Nil(t, id)
		assert.EqualValues(t, -32600, code)
		assert.Equal(t, "invalid request: a batch holds at most 16 messages", message)
	}
	p.send(batch(16))
	got := make(chan bool, 1)
	go func() { got <- p.out.Scan() }()
	select {
	case ok := <-got:
		require.True(t, ok)
	case <-time.After(10 * time.Second):
		t.Fatal("no batch response within 10s")
	}
	var answers []map[string]any
	require.NoError(t, json.Unmarshal(p.out.Bytes(), &answers), "%s", p.out.Bytes())
	assert.Len(t, answers, 16)
	for _, a := range answers {
		assert.Contains(t, a, "result")
	}
}

// TestStdioTransportLongLine: a line longer than mcp.DefaultMaxLineLength is
// refused without being buffered, and the next line is served.
func TestStdioTransportLongLine(t *testing.T) {
	p := runStdio(t, mcptool.NewRegistry().Mount(mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)))
	p.initialize(`{}`)
	go func() {
		_, _ = io.WriteString(p.in, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`+strings.Repeat("a", mcp.DefaultMaxLineLength)+`"}}`+"\n")
		_, _ = io.WriteString(p.in, `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n")
	}()
	id, code, message := errorOf(t, p.recv())
	assert.Nil(t, id)
	assert.Equal(t, -32700.0, code)
	assert.Equal(t, fmt.Sprintf("parse error: line longer than %d bytes", mcp.DefaultMaxLineLength), message)
	assert.Equal(t, 2.0, p.recv()["id"])
}

// TestStdioTransportDrainsAtEOF: the calls in flight when the input ends run
// to completion, uncancelled, and all their responses are written before Run
// returns.
func TestStdioTransportDrainsAtEOF(t *testing.T) {
	const calls = 8
	release := make(chan struct{})
	cancelled := make(chan error, calls)
	reg := mcptool.NewRegistry()
	require.NoError(t, mcptool.Add(reg, "slow", func(ctx context.Context, in struct {
		N int `json:"n"`
	}) (int, error) {
		<-release
		cancelled <- ctx.Err()
		return in.N, nil
	}, mcptool.Description("Wait, then return n.")))
	p := runStdio(t, reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil))
	p.initialize(`{}`)
	for i := range calls {
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"slow","arguments":{"n":%d}}}`, i, i))
	}
	require.NoError(t, p.in.Close())
	select {
	case err := <-p.done:
		t.Fatalf("Run returned with %d calls in flight: %v", calls, err)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	seen := map[float64]bool{}
	for range calls {
		m := p.recv()
		require.NotContains(t, m, "error")
		id := m["id"].(float64)
		assert.Equal(t, id, m["result"].(map[string]any)["structuredContent"].(map[string]any)["result"])
		seen[id] = true
	}
	assert.Len(t, seen, calls)
	require.NoError(t, p.wait())
	for range calls {
		assert.NoError(t, <-cancelled, "a call's ctx was cancelled at end of input")
	}
}

// TestStdioTransportFailsServerRequestsAtEOF: a tool that asks the client
// something after the client closed its input gets mcp.ErrConnectionClosed
// instead of waiting forever, and its response is still written.
func TestStdioTransportFailsServerRequestsAtEOF(t *testing.T) {
	inputClosed := make(chan struct{})
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-inputClosed
		_, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "sure?", RequestedSchema: map[string]any{"type": "object"}})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(errors.Is(err, mcp.ErrConnectionClosed))}}}, nil
	})
	p := runStdio(t, mcptool.NewRegistry().Mount(srv))
	p.initialize(`{"elicitation":{"form":{}}}`)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{}}}`)
	require.NoError(t, p.in.Close())
	close(inputClosed)
	m := p.recv()
	require.Equal(t, "elicitation/create", m["method"], "%v", m)
	m = p.recv()
	require.Equal(t, 1.0, m["id"], "%v", m)
	assert.Equal(t, "true", m["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"])
	require.NoError(t, p.wait())
}

// TestStdioTransportCancel: cancelling Run's context ends the session while
// the input stays open.
func TestStdioTransportCancel(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	go func() { done <- srv.Run(ctx, &mcptool.StdioTransport{Reader: inR, Writer: io.Discard}) }()
	time.Sleep(10 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
	// The reader was closed with the connection.
	_, err := inW.Write([]byte("\n"))
	assert.ErrorIs(t, err, io.ErrClosedPipe)
}

// TestStdioTransportBatch: at 2025-03-26 a batch is served as go-sdk's own
// stdio transport serves it: its calls' responses together in one array,
// a member that is no message answered in it, notifications unanswered.
func TestStdioTransportBatch(t *testing.T) {
	p := runStdio(t, echoServer(t))
	p.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	init := p.recv()
	require.Equal(t, "2025-03-26", init["result"].(map[string]any)["protocolVersion"])

	recvBatch := func() []map[string]any {
		t.Helper()
		got := make(chan bool, 1)
		go func() { got <- p.out.Scan() }()
		select {
		case ok := <-got:
			require.True(t, ok)
		case <-time.After(10 * time.Second):
			t.Fatal("no batch response within 10s")
		}
		var out []map[string]any
		require.NoError(t, json.Unmarshal(p.out.Bytes(), &out), "%s", p.out.Bytes())
		return out
	}
	byID := func(ms []map[string]any) map[any]map[string]any {
		out := map[any]map[string]any{}
		for _, m := range ms {
			out[m["id"]] = m
		}
		return out
	}

	p.send(`[{"jsonrpc":"2.0","method":"notifications/initialized"},` +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"s":"one"}}},` +
		`{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"echo","arguments":{"s":"two"}}},` +
		`{"jsonrpc":"1.0","id":3,"method":"ping"},` +
		`{"jsonrpc":"2.0","id":4,"method":"ping"}]`)
	got := byID(recvBatch())
	require.Len(t, got, 4, "three calls and the bad member, not the notification")
	assert.Equal(t, "one", resultText(got[float64(1)]["result"].(map[string]any)))
	assert.Equal(t, "two", resultText(got["two"]["result"].(map[string]any)))
	assert.EqualValues(t, -32600, got[float64(3)]["error"].(map[string]any)["code"])
	assert.Contains(t, got[float64(4)], "result")

	// Only notifications: nothing to answer. The next line is served.
	p.send(`[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}]`)
	p.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	assert.Equal(t, "after", p.recv()["id"])

	// Refused: an empty batch, initialize or a repeated id in a batch.
	p.send(`[]`)
	_, code, message := errorOf(t, p.recv())
	assert.EqualValues(t, -32600, code)
	assert.Contains(t, message, "empty batch")
	p.send(`[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":"ping"},` +
		`{"jsonrpc":"2.0","id":"again","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}]`)
	var results, refused int
	for _, m := range recvBatch() {
		if e, ok := m["error"].(map[string]any); ok {
			assert.EqualValues(t, -32600, e["code"])
			refused++
		} else {
			results++
		}
	}
	assert.Equal(t, 1, results, "the first ping")
	assert.Equal(t, 2, refused, "the repeated id and initialize")
	// Per-request protocol metadata (2026-07-28) never comes in batches.
	p.send(`[{"jsonrpc":"2.0","id":6,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}]`)
	_, code, _ = errorOf(t, p.recv())
	assert.EqualValues(t, -32600, code)
}

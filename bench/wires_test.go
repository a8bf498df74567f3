package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	mgomcp "github.com/mark3labs/mcp-go/mcp"
	mgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/standalone"
	"github.com/mcpgen/mcpgen/mcptool"
)

// The wires of the three-server series (internal/series -wire stdio and
// -wire session) in process: each stack's server built as
// internal/standalone/<stack> builds it for that wire, driven by a bare
// client that speaks 2025-11-25 after initialize.

var wireStacks = []string{"mcpgen", "gosdk", "mcpgo"}

const (
	wireInitialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
		`"capabilities":{},"clientInfo":{"name":"series","version":"1.0.0"}}}`
	wireInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	wireWant        = `"structuredContent":{"sum":3}`
)

// wireCall appends calculate_sum's tools/call with id to buf, as the
// series sends it in a session or over stdio.
func wireCall(buf []byte, id int64) []byte {
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = strconv.AppendInt(buf, id, 10)
	return append(buf, `,"method":"tools/call","params":{"name":"calculate_sum","arguments":{"a":1,"b":2}}}`...)
}

// wireMCPGen is calculate_sum on mcpgen's server.
func wireMCPGen(tb testing.TB) *mcptool.Server {
	tb.Helper()
	reg := mcptool.NewRegistry()
	if err := mcptool.Add(reg, standalone.SumName, standalone.Sum, mcptool.Description(standalone.SumDescription)); err != nil {
		tb.Fatal(err)
	}
	return reg.Server(&mcp.Implementation{Name: "standalone", Version: "1"}, nil)
}

// wireGoSDK is calculate_sum on go-sdk's server.
func wireGoSDK() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "standalone", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: standalone.SumName, Description: standalone.SumDescription},
		func(ctx context.Context, _ *mcp.CallToolRequest, in standalone.SumIn) (*mcp.CallToolResult, standalone.SumOut, error) {
			out, err := standalone.Sum(ctx, in)
			return nil, out, err
		})
	return srv
}

// wireMCPGo is calculate_sum on mcp-go's server.
func wireMCPGo() *mgoserver.MCPServer {
	srv := mgoserver.NewMCPServer("standalone", "1", mgoserver.WithToolCapabilities(true))
	srv.AddTool(mgomcp.NewTool(standalone.SumName, mgomcp.WithDescription(standalone.SumDescription),
		mgomcp.WithInputSchema[standalone.SumIn](), mgomcp.WithOutputSchema[standalone.SumOut]()),
		mgomcp.NewStructuredToolHandler(func(ctx context.Context, _ mgomcp.CallToolRequest, in standalone.SumIn) (standalone.SumOut, error) {
			return standalone.Sum(ctx, in)
		}))
	return srv
}

// stdioClient is the client's end of a stack's stdio server served in
// process over two io.Pipes, initialized.
type stdioClient struct {
	in  io.WriteCloser // the server's input
	out *bufio.Reader  // the server's output
	buf []byte
	id  int64
}

// startStdio serves stack's stdio server in process and initializes it;
// the server ends (and is waited for) when the test does.
func startStdio(tb testing.TB, stack string) *stdioClient {
	tb.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	ctx := context.Background()
	switch stack {
	case "mcpgen":
		srv := wireMCPGen(tb)
		go func() { done <- srv.Run(ctx, &mcptool.StdioTransport{Reader: inR, Writer: outW}) }()
	case "gosdk":
		srv := wireGoSDK()
		go func() { done <- srv.Run(ctx, &mcp.IOTransport{Reader: inR, Writer: outW}) }()
	case "mcpgo":
		// server.ServeStdio is this Listen on os.Stdin and os.Stdout.
		srv := mgoserver.NewStdioServer(wireMCPGo())
		go func() { done <- srv.Listen(ctx, inR, outW) }()
	default:
		tb.Fatalf("no stack %q", stack)
	}
	c := &stdioClient{in: inW, out: bufio.NewReaderSize(outR, 64<<10)}
	tb.Cleanup(func() {
		_ = inW.Close()
		go func() { _, _ = io.Copy(io.Discard, outR) }() // whatever is left unread
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			tb.Errorf("%s: the stdio server did not end with its input", stack)
		}
		_ = outR.Close()
	})
	if line := c.roundTrip(tb, []byte(wireInitialize)); !bytes.Contains(line, []byte(`"protocolVersion"`)) {
		tb.Fatalf("%s: initialize: %s", stack, line)
	}
	if _, err := c.in.Write([]byte(wireInitialized + "\n")); err != nil {
		tb.Fatal(err)
	}
	return c
}

// roundTrip writes line and returns the next line the server writes,
// which is valid until the next read.
func (c *stdioClient) roundTrip(tb testing.TB, line []byte) []byte {
	c.buf = append(append(c.buf[:0], line...), '\n')
	if _, err := c.in.Write(c.buf); err != nil {
		tb.Fatal(err)
	}
	answer, err := c.out.ReadSlice('\n')
	if err != nil {
		tb.Fatal(err)
	}
	return answer
}

// call sends a tools/call with a fresh id and returns the answer line.
func (c *stdioClient) call(tb testing.TB) []byte {
	c.id++
	c.buf = append(wireCall(c.buf[:0], c.id), '\n')
	if _, err := c.in.Write(c.buf); err != nil {
		tb.Fatal(err)
	}
	answer, err := c.out.ReadSlice('\n')
	if err != nil {
		tb.Fatal(err)
	}
	return answer
}

// sessionHandler is stack's HTTP handler as internal/standalone/<stack>
// -wire session builds it: mcpgen's one handler (Server.Handler;
// 2025-era clients get sessions), go-sdk's with default options
// (stateful), mcp-go's WithStateful.
func sessionHandler(tb testing.TB, stack string) http.Handler {
	tb.Helper()
	switch stack {
	case "mcpgen":
		return wireMCPGen(tb).Handler(nil)
	case "gosdk":
		srv := wireGoSDK()
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	case "mcpgo":
		return mgoserver.NewStreamableHTTPServer(wireMCPGo(), mgoserver.WithStateful(true))
	}
	tb.Fatalf("no stack %q", stack)
	return nil
}

// sessionClient is a 2025-11-25 session with a handler, served in process
// (httptest: no network, no client).
type sessionClient struct {
	h           http.Handler
	id, version string
	buf         []byte
	next        int64
}

// openSession sends initialize and notifications/initialized through h.
func openSession(tb testing.TB, stack string, h http.Handler) *sessionClient {
	tb.Helper()
	s := &sessionClient{h: h}
	rec := s.post([]byte(wireInitialize))
	if s.id = rec.Header().Get("Mcp-Session-Id"); rec.Code != http.StatusOK || s.id == "" {
		tb.Fatalf("%s: initialize: %d, session %q: %s", stack, rec.Code, s.id, rec.Body)
	}
	var init struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if err := json.Unmarshal(sseData(rec.Body.Bytes()), &init); err != nil || init.Result.ProtocolVersion == "" {
		tb.Fatalf("%s: initialize: %v: %s", stack, err, rec.Body)
	}
	s.version = init.Result.ProtocolVersion
	if rec := s.post([]byte(wireInitialized)); rec.Code/100 != 2 {
		tb.Fatalf("%s: notifications/initialized: %d: %s", stack, rec.Code, rec.Body)
	}
	return s
}

// post serves body in the session.
func (s *sessionClient) post(body []byte) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
		req.Header.Set("Mcp-Protocol-Version", s.version)
	}
	rec := httptest.NewRecorder()
	s.h.ServeHTTP(rec, req)
	return rec
}

// call serves a tools/call with a fresh id in the session.
func (s *sessionClient) call() *httptest.ResponseRecorder {
	s.next++
	s.buf = wireCall(s.buf[:0], s.next)
	return s.post(s.buf)
}

// sseData is the data of the first SSE event of body that has any, or
// body if it is no event stream.
func sseData(body []byte) []byte {
	for line := range bytes.Lines(body) {
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok && len(bytes.TrimSpace(data)) > 0 {
			return bytes.TrimSpace(data)
		}
	}
	return body
}

// TestWireAnswers: every stack answers the series' stdio and session calls
// with calculate_sum's result, each call under its own id.
func TestWireAnswers(t *testing.T) {
	for _, stack := range wireStacks {
		t.Run("stdio/stack="+stack, func(t *testing.T) {
			c := startStdio(t, stack)
			for id := 1; id <= 3; id++ {
				line := c.call(t)
				var m struct {
					ID int64 `json:"id"`
				}
				if err := json.Unmarshal(line, &m); err != nil || m.ID != int64(id) || !bytes.Contains(line, []byte(wireWant)) {
					t.Fatalf("call %d: %v: %s", id, err, line)
				}
			}
		})
		t.Run("session/stack="+stack, func(t *testing.T) {
			s := openSession(t, stack, sessionHandler(t, stack))
			for id := 1; id <= 3; id++ {
				rec := s.call()
				var m struct {
					ID int64 `json:"id"`
				}
				data := sseData(rec.Body.Bytes())
				if err := json.Unmarshal(data, &m); err != nil || rec.Code != http.StatusOK || m.ID != int64(id) || !bytes.Contains(data, []byte(wireWant)) {
					t.Fatalf("call %d: %d %v: %s", id, rec.Code, err, rec.Body)
				}
			}
		})
	}
}

// BenchmarkStdioCall: one tools/call of calculate_sum per op, written to
// each stack's stdio server (as internal/standalone/<stack> -wire stdio
// serves it) over an io.Pipe and its answer line read back, one call in
// flight, after initialize. The client's side allocates nothing (a reused
// buffer, bufio.Reader.ReadSlice), so B/op and allocs/op are the server's
// whole work for a call.
func BenchmarkStdioCall(b *testing.B) {
	for _, stack := range wireStacks {
		b.Run("stack="+stack, func(b *testing.B) {
			c := startStdio(b, stack)
			if line := c.call(b); !bytes.Contains(line, []byte(wireWant)) {
				b.Fatalf("%s", line)
			}
			b.ReportAllocs()
			for b.Loop() {
				c.call(b)
			}
		})
	}
}

// BenchmarkSessionCall: one tools/call of calculate_sum per op in a
// 2025-11-25 session, through each stack's session handler (as
// internal/standalone/<stack> -wire session builds it) in process
// (httptest: no network, no client), after initialize. B/op and
// allocs/op are the server's whole work for a call and the httptest
// request and recorder, alike for every stack.
func BenchmarkSessionCall(b *testing.B) {
	for _, stack := range wireStacks {
		b.Run("stack="+stack, func(b *testing.B) {
			s := openSession(b, stack, sessionHandler(b, stack))
			if rec := s.call(); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), wireWant) {
				b.Fatalf("%d: %s", rec.Code, rec.Body)
			}
			b.ReportAllocs()
			for b.Loop() {
				s.call()
			}
		})
	}
}

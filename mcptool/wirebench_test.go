package mcptool

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchRegistry is the one-tool registry of the wire benchmarks.
func benchRegistry(b *testing.B) *Registry {
	b.Helper()
	reg := NewRegistry()
	type sumIn struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	if err := Add(reg, "calculate_sum", func(_ context.Context, in sumIn) (float64, error) { return in.A + in.B, nil }, Description("Adds.")); err != nil {
		b.Fatal(err)
	}
	return reg
}

// BenchmarkStdioCall serves one tools/call at a time over StdioTransport,
// through pipes, on a session at 2025-11-25: what a call costs the stdio
// wire (and the benchmark's pipes), per call.
func BenchmarkStdioCall(b *testing.B) {
	srv := benchRegistry(b).Server(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Run(ctx, &StdioTransport{Reader: inR, Writer: outW, Logger: slog.New(slog.DiscardHandler)})
		_ = outW.Close()
	}()
	b.Cleanup(func() {
		cancel()
		_ = inW.Close()
		_ = outR.Close()
		<-done
	})
	br := bufio.NewReader(outR)
	roundTrip := func(line string) string {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			b.Fatal(err)
		}
		resp, err := br.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		return resp
	}
	roundTrip(stdioInit("2025-11-25", `{}`))
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if resp := roundTrip(stdioCallLine(strconv.Itoa(i), "calculate_sum", `{"a":1,"b":2}`)); !strings.Contains(resp, `"result":3`) {
			b.Fatal(resp)
		}
	}
}

// BenchmarkSessionCall serves one tools/call at a time on a 2025-11-25
// session over streamable HTTP, through Server.Handler in process: what a
// call costs the session wire (and the benchmark's request and recorder).
func BenchmarkSessionCall(b *testing.B) {
	reg := benchRegistry(b)
	srv := reg.Server(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	h := newHTTPHandler(srv, nil, true)
	post := func(session, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	init := post("", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
	session := init.Header().Get("Mcp-Session-Id")
	if session == "" {
		b.Fatal(init.Code, init.Body.String())
	}
	post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	b.Cleanup(func() {
		req := httptest.NewRequest(http.MethodDelete, "http://localhost/mcp", nil)
		req.Header.Set("Mcp-Session-Id", session)
		h.ServeHTTP(httptest.NewRecorder(), req)
	})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if rec := post(session, stdioCallLine(strconv.Itoa(i), "calculate_sum", `{"a":1,"b":2}`)); !strings.Contains(rec.Body.String(), `"result":3`) {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}

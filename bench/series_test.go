package bench

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	mgomcp "github.com/mark3labs/mcp-go/mcp"
	mgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/standalone"
	"github.com/mcpgen/mcpgen/mcptool"
)

// seriesCall is the three-server series' request (internal/series): a
// 2026-07-28 tools/call of calculate_sum.
const seriesCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculate_sum",` +
	`"arguments":{"a":1,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"series","version":"1.0.0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{}}}}`

// seriesHandler is the HTTP handler of a stack's server in the series,
// built as internal/standalone/<stack> builds it, in this process.
func seriesHandler(tb testing.TB, stack string) http.Handler {
	tb.Helper()
	switch stack {
	case "mcpgen":
		reg := mcptool.NewRegistry()
		if err := mcptool.Add(reg, standalone.SumName, standalone.Sum, mcptool.Description(standalone.SumDescription)); err != nil {
			tb.Fatal(err)
		}
		return reg.Server(&mcp.Implementation{Name: "standalone", Version: "1"}, nil).Handler(nil)
	case "gosdk":
		srv := mcp.NewServer(&mcp.Implementation{Name: "standalone", Version: "1"}, nil)
		mcp.AddTool(srv, &mcp.Tool{Name: standalone.SumName, Description: standalone.SumDescription},
			func(ctx context.Context, _ *mcp.CallToolRequest, in standalone.SumIn) (*mcp.CallToolResult, standalone.SumOut, error) {
				out, err := standalone.Sum(ctx, in)
				return nil, out, err
			})
		return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	case "mcpgo":
		srv := mgoserver.NewMCPServer("standalone", "1", mgoserver.WithToolCapabilities(true))
		srv.AddTool(mgomcp.NewTool(standalone.SumName, mgomcp.WithDescription(standalone.SumDescription),
			mgomcp.WithInputSchema[standalone.SumIn](), mgomcp.WithOutputSchema[standalone.SumOut]()),
			mgomcp.NewStructuredToolHandler(func(ctx context.Context, _ mgomcp.CallToolRequest, in standalone.SumIn) (standalone.SumOut, error) {
				return standalone.Sum(ctx, in)
			}))
		return mgoserver.NewStreamableHTTPServer(srv, mgoserver.WithStateLess(true))
	}
	tb.Fatalf("no stack %q", stack)
	return nil
}

// serveSeriesCall serves seriesCall through h in this process and returns
// the answer.
func serveSeriesCall(h http.Handler) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(seriesCall))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "calculate_sum")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// BenchmarkStatelessCall: one stateless tools/call of calculate_sum through
// each stack's HTTP handler, in process (httptest: no network, no client),
// as the series' servers serve it. allocs/op and B/op are the server's
// whole work for a request (and the httptest request and recorder, alike
// for every stack).
func BenchmarkStatelessCall(b *testing.B) {
	for _, stack := range []string{"mcpgen", "gosdk", "mcpgo"} {
		b.Run("stack="+stack, func(b *testing.B) {
			h := seriesHandler(b, stack)
			if rec := serveSeriesCall(h); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"structuredContent":{"sum":3}`) {
				b.Fatalf("%d: %s", rec.Code, rec.Body)
			}
			b.ReportAllocs()
			for b.Loop() {
				serveSeriesCall(h)
			}
		})
	}
}

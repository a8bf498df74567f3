// Command gosdk is BenchmarkStandalone's go-sdk server, written by hand as
// go-sdk's documentation shows: two tools added with mcp.AddTool. With
// -wire stateless (the default) it serves mcp.NewStreamableHTTPHandler with
// Stateless set (without it go-sdk answers 2026-07-28 clients with
// 2025-11-25), with -wire session the same handler with its default
// options (stateful: sessions, answers as SSE), each on loopback; it prints
// its address and start-up heap (standalone.Ready) and serves until killed.
// With -wire stdio it serves mcp.StdioTransport until its input ends.
package main

import (
	"context"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/standalone"
)

func main() {
	wire := standalone.Wire()
	standalone.Profile(wire)
	standalone.HeapOnSignal()
	srv := mcp.NewServer(&mcp.Implementation{Name: "standalone", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: standalone.Name, Description: standalone.Description},
		func(ctx context.Context, _ *mcp.CallToolRequest, in standalone.In) (*mcp.CallToolResult, standalone.Out, error) {
			out, err := standalone.Echo(ctx, in)
			return nil, out, err
		})
	mcp.AddTool(srv, &mcp.Tool{Name: standalone.SumName, Description: standalone.SumDescription},
		func(ctx context.Context, _ *mcp.CallToolRequest, in standalone.SumIn) (*mcp.CallToolResult, standalone.SumOut, error) {
			out, err := standalone.Sum(ctx, in)
			return nil, out, err
		})
	if wire == standalone.Stdio {
		if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		return
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: wire == standalone.Stateless})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	standalone.Ready(os.Stdout, ln)
	log.Fatal(http.Serve(ln, h))
}

// Command gosdk is BenchmarkStandalone's go-sdk server, written by hand as
// go-sdk's documentation shows: two tools added with mcp.AddTool, served by
// mcp.NewStreamableHTTPHandler with Stateless set (without it go-sdk answers
// 2026-07-28 clients with 2025-11-25) on loopback. It prints its address and
// start-up heap (standalone.Ready) and serves until killed.
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
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	standalone.Ready(os.Stdout, ln)
	log.Fatal(http.Serve(ln, h))
}

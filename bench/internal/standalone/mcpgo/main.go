// Command mcpgo is the three-server series' mark3labs/mcp-go server, written
// as mcp-go's documentation shows: the two tools added with typed input and
// output schemas and NewStructuredToolHandler, served by mcp-go's own
// StreamableHTTPServer, stateless, on loopback. It prints its address and
// start-up heap (standalone.Ready) and serves until killed.
package main

import (
	"context"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/bench/internal/standalone"
)

func main() {
	srv := server.NewMCPServer("standalone", "1", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool(standalone.Name, mcp.WithDescription(standalone.Description),
		mcp.WithInputSchema[standalone.In](), mcp.WithOutputSchema[standalone.Out]()),
		mcp.NewStructuredToolHandler(func(ctx context.Context, _ mcp.CallToolRequest, in standalone.In) (standalone.Out, error) {
			return standalone.Echo(ctx, in)
		}))
	srv.AddTool(mcp.NewTool(standalone.SumName, mcp.WithDescription(standalone.SumDescription),
		mcp.WithInputSchema[standalone.SumIn](), mcp.WithOutputSchema[standalone.SumOut]()),
		mcp.NewStructuredToolHandler(func(ctx context.Context, _ mcp.CallToolRequest, in standalone.SumIn) (standalone.SumOut, error) {
			return standalone.Sum(ctx, in)
		}))
	h := server.NewStreamableHTTPServer(srv, server.WithStateLess(true))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	standalone.Ready(os.Stdout, ln)
	log.Fatal(http.Serve(ln, h))
}

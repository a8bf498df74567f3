// Command mcpgo is the three-server series' mark3labs/mcp-go server, written
// as mcp-go's documentation shows: the two tools added with typed input and
// output schemas and NewStructuredToolHandler. With -wire stateless (the
// default) it serves mcp-go's own StreamableHTTPServer, stateless, with
// -wire session the same server stateful (WithStateful: sessions it keeps
// and checks), each on loopback; it prints its address and start-up heap
// (standalone.Ready) and serves until killed. With -wire stdio it serves
// server.ServeStdio until its input ends.
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
	wire := standalone.Wire()
	standalone.Profile(wire)
	standalone.HeapOnSignal()
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
	if wire == standalone.Stdio {
		if err := server.ServeStdio(srv); err != nil {
			log.Fatal(err)
		}
		return
	}
	opt := server.WithStateLess(true)
	if wire == standalone.Session {
		opt = server.WithStateful(true)
	}
	h := server.NewStreamableHTTPServer(srv, opt)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	standalone.Ready(os.Stdout, ln)
	log.Fatal(http.Serve(ln, h))
}

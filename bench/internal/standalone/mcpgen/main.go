// Command mcpgen is BenchmarkStandalone's mcpgen server: two tools, added
// with mcptool.Add, served by Registry.Server. With -wire stateless (the
// default) or session it serves mcptool.Server.Handler on loopback, which
// answers 2026-07-28 requests statelessly and gives 2025-era clients
// sessions, so both wires are the same handler; it prints its address and
// start-up heap (standalone.Ready) and serves until killed. With -wire
// stdio it serves mcptool.StdioTransport until its input ends.
package main

import (
	"context"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/standalone"
	"github.com/mcpgen/mcpgen/mcptool"
)

func main() {
	wire := standalone.Wire()
	standalone.Profile(wire)
	standalone.HeapOnSignal()
	reg := mcptool.NewRegistry()
	if err := mcptool.Add(reg, standalone.Name, standalone.Echo, mcptool.Description(standalone.Description)); err != nil {
		log.Fatal(err)
	}
	if err := mcptool.Add(reg, standalone.SumName, standalone.Sum, mcptool.Description(standalone.SumDescription)); err != nil {
		log.Fatal(err)
	}
	srv := reg.Server(&mcp.Implementation{Name: "standalone", Version: "1"}, nil)
	if wire == standalone.Stdio {
		if err := srv.Run(context.Background(), &mcptool.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		return
	}
	h := srv.Handler(nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	standalone.Ready(os.Stdout, ln)
	log.Fatal(http.Serve(ln, h))
}

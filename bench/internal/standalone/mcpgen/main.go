// Command mcpgen is BenchmarkStandalone's mcpgen server: two tools, added
// with mcptool.Add, served by Registry.Server and its Handler on
// loopback (2026-07-28 requests are stateless). It prints its address and
// start-up heap (standalone.Ready) and serves until killed.
package main

import (
	"log"
	"net"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/standalone"
	"github.com/mcpgen/mcpgen/mcptool"
)

func main() {
	reg := mcptool.NewRegistry()
	if err := mcptool.Add(reg, standalone.Name, standalone.Echo, mcptool.Description(standalone.Description)); err != nil {
		log.Fatal(err)
	}
	if err := mcptool.Add(reg, standalone.SumName, standalone.Sum, mcptool.Description(standalone.SumDescription)); err != nil {
		log.Fatal(err)
	}
	h := reg.Server(&mcp.Implementation{Name: "standalone", Version: "1"}, nil).Handler(nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	standalone.Ready(os.Stdout, ln)
	log.Fatal(http.Serve(ln, h))
}

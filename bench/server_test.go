package bench

// Server construction and tools/list.

import (
	"context"
	"fmt"
	"sync"
	"testing"

	mgomcp "github.com/mark3labs/mcp-go/mcp"
	mgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/bench/internal/regtypes"
	"github.com/mcpgen/mcpgen/mcptool"
)

const serverTools = 100

// BenchmarkServer builds one server from a 100-tool set, as the stateless
// one-server-per-request pattern does for every request. The tool set is
// built once, outside the loop, in each stack's own terms:
//
//	floor         100 *mcp.Tool with hand-written schemas: NewServer + 100 Server.AddTool
//	mcpgen        a 100-tool Registry: Registry.Server
//	gosdk         NewServer with a shared SchemaCache (go-sdk's advice for
//	              this pattern) + 100 mcp.AddTool
//	gosdk-uncached  the same without the cache (informative)
//	mcpgo         100 prebuilt ServerTools: NewMCPServer + AddTools. mcp-go
//	              compiles each tool's validator at its first call on each
//	              server, so a stateless mcp-go server pays schema
//	              compilation again per request; not counted here
func BenchmarkServer(b *testing.B) {
	b.Run("stack=floor", func(b *testing.B) {
		tools := floorTools()[:serverTools]
		b.ReportAllocs()
		for b.Loop() {
			s := mcp.NewServer(impl, nil)
			for _, t := range tools {
				s.AddTool(t, noopHandler)
			}
		}
	})
	b.Run("stack=mcpgen", func(b *testing.B) {
		r := mcptool.NewRegistry(mcptool.NoDescription())
		for i := range serverTools {
			if err := regtypes.Types[i].Mcpgen(r, regName(i)); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportAllocs()
		for b.Loop() {
			r.Server(impl, nil)
		}
	})
	gosdk := func(cache *mcp.SchemaCache) func(*testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s := mcp.NewServer(impl, &mcp.ServerOptions{SchemaCache: cache})
				for i := range serverTools {
					regtypes.Types[i].Gosdk(s, regName(i))
				}
			}
		}
	}
	b.Run("stack=gosdk", gosdk(mcp.NewSchemaCache()))
	b.Run("stack=gosdk-uncached", gosdk(nil))
	b.Run("stack=mcpgo", func(b *testing.B) {
		tools := make([]mgoserver.ServerTool, serverTools)
		for i := range tools {
			tools[i] = regtypes.Types[i].Mcpgo(regName(i))
		}
		b.ReportAllocs()
		for b.Loop() {
			s := mgoserver.NewMCPServer("bench", "1.0.0", mgoserver.WithToolCapabilities(true), mgoserver.WithInputSchemaValidation())
			s.AddTools(tools...)
		}
	})
}

const listTools = 10000

func listName(i int) string { return fmt.Sprintf("search_%05d", i) }

// The 10,000-tool servers: the search tool under 10,000 names, built once.
var (
	listMcpgen = sync.OnceValue(func() *mcp.Server {
		r := mcptool.NewRegistry(mcptool.NoDescription())
		for i := range listTools {
			if err := mcptool.Add(r, listName(i), mcpgenSearch, mcptool.Description("Search notes")); err != nil {
				panic(err)
			}
		}
		return r.Server(impl, nil).Server
	})
	listGosdk = sync.OnceValue(func() *mcp.Server {
		s := mcp.NewServer(impl, &mcp.ServerOptions{SchemaCache: mcp.NewSchemaCache()})
		in := gosdkInputSchema()
		for i := range listTools {
			mcp.AddTool(s, &mcp.Tool{Name: listName(i), Description: "Search notes", InputSchema: in}, gosdkSearch)
		}
		return s
	})
	listFloor = sync.OnceValue(func() *mcp.Server {
		s := mcp.NewServer(impl, nil)
		for i := range listTools {
			t := floorTool()
			t.Name = listName(i)
			s.AddTool(t, floorHandler)
		}
		return s
	})
	listMcpgo = sync.OnceValue(func() *mgoserver.MCPServer {
		s := mgoserver.NewMCPServer("bench", "1.0.0",
			mgoserver.WithToolCapabilities(true),
			mgoserver.WithInputSchemaValidation(),
			mgoserver.WithPaginationLimit(1000)) // go-sdk's default page size
		tool := mcpgoTool()
		h := mgomcp.NewStructuredToolHandler(mcpgoSearch)
		tools := make([]mgoserver.ServerTool, listTools)
		for i := range tools {
			t := tool
			t.Name = listName(i)
			tools[i] = mgoserver.ServerTool{Tool: t, Handler: h}
		}
		s.AddTools(tools...)
		return s
	})
)

// listAll lists every tool, following pages, and returns how many.
func listAll(tb testing.TB, cs *mcp.ClientSession) int {
	n := 0
	for _, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			tb.Fatal(err)
		}
		n++
	}
	return n
}

// BenchmarkToolsList lists 10,000 tools, all pages (1000 a page), over the
// in-memory transport with the go-sdk client.
func BenchmarkToolsList(b *testing.B) {
	for _, st := range stacks {
		b.Run("stack="+st, func(b *testing.B) {
			var cs *mcp.ClientSession
			switch st {
			case "floor":
				cs = connectInMemory(b, st, listFloor(), nil)
			case "mcpgen":
				cs = connectInMemory(b, st, listMcpgen(), nil)
			case "gosdk":
				cs = connectInMemory(b, st, listGosdk(), nil)
			case "mcpgo":
				cs = connectInMemory(b, st, nil, listMcpgo())
			}
			b.ReportAllocs()
			for b.Loop() {
				if n := listAll(b, cs); n != listTools {
					b.Fatalf("listed %d tools, want %d", n, listTools)
				}
			}
		})
	}
}

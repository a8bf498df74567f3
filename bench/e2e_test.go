package bench

// End to end: one go-sdk client (the same for every stack, so only the
// server differs) calls the tool over
//
//	transport=inmemory  go-sdk's in-memory transport (net.Pipe, newline-
//	                    delimited JSON); mcp-go's server is its StdioServer
//	                    on the same kind of pipe, the same framing
//	transport=http      streamable HTTP on loopback (httptest), protocol
//	                    2026-07-28 (stateless, the client's default):
//	                    mcpgen's Server.Handler, go-sdk's
//	                    NewStreamableHTTPHandler with Stateless set for gosdk
//	                    and floor (without it go-sdk answers 2026-07-28
//	                    clients with 2025-11-25), mcp-go's StreamableHTTPServer
//	transport=http-2025 the same servers with sessions, the client pinned to
//	                    2025-11-25: go-sdk's handler with its defaults
//
// equivalence_test.go checks that every stack negotiates the same revision
// on each transport.

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	mgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var stacks = []string{"floor", "mcpgen", "gosdk", "mcpgo"}

// e2eStacks adds mcpgen's registry served on mcp-go through adapters/mcpgo:
// its rows compare with mcpgo (mcp-go native) for the adapter's overhead.
var e2eStacks = append(stacks[:len(stacks):len(stacks)], "mcpgo-adapter")

// sdkServerFor returns the go-sdk server of a stack (nil for mcpgo).
func sdkServerFor(stack string) *mcp.Server {
	switch stack {
	case "floor":
		return floorServer()
	case "mcpgen":
		return mcpgenServer()
	case "gosdk":
		return gosdkServer()
	}
	return nil
}

var client = mcp.NewClient(&mcp.Implementation{Name: "bench-client", Version: "1.0.0"}, nil)

// connectInMemory serves a stack's server on an in-memory pipe and connects
// the client to it.
func connectInMemory(tb testing.TB, stack string, srv *mcp.Server, mgo *mgoserver.MCPServer) *mcp.ClientSession {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var ct mcp.Transport
	done := make(chan struct{})
	if mgo != nil || stack == "mcpgo" || stack == "mcpgo-adapter" {
		switch {
		case mgo != nil:
		case stack == "mcpgo":
			mgo = mcpgoServer()
		default:
			mgo = mcpgoAdapterServer()
		}
		c1, c2 := net.Pipe()
		stdio := mgoserver.NewStdioServer(mgo)
		go func() {
			defer close(done)
			_ = stdio.Listen(ctx, c2, c2)
		}()
		ct = &mcp.IOTransport{Reader: c1, Writer: c1}
		tb.Cleanup(func() { c2.Close(); <-done })
	} else {
		if srv == nil {
			srv = sdkServerFor(stack)
		}
		c, s := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, s, nil)
		if err != nil {
			tb.Fatal(err)
		}
		close(done)
		ct = c
		tb.Cleanup(func() { ss.Close() })
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close(); cancel() })
	return cs
}

// httpHandlerFor returns a stack's streamable HTTP handler for a protocol era.
func httpHandlerFor(stack string, era2025 bool) http.Handler {
	switch stack {
	case "mcpgen":
		_, srv := mcpgenServed()
		return srv.Handler(nil)
	case "mcpgo":
		return mgoserver.NewStreamableHTTPServer(mcpgoServer())
	case "mcpgo-adapter":
		return mgoserver.NewStreamableHTTPServer(mcpgoAdapterServer())
	}
	srv := sdkServerFor(stack)
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: !era2025})
}

// connectHTTP serves a stack on loopback and connects the client to it, with
// protocol 2025-11-25 (sessions) when era2025 is set, else 2026-07-28.
func connectHTTP(tb testing.TB, stack string, era2025 bool) *mcp.ClientSession {
	tb.Helper()
	mux := http.NewServeMux()
	mux.Handle("/mcp", httpHandlerFor(stack, era2025))
	ts := httptest.NewServer(mux)
	tb.Cleanup(ts.Close)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint:             ts.URL + "/mcp",
		HTTPClient:           ts.Client(),
		DisableStandaloneSSE: true,
	}, sessionOptions(era2025))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

func sessionOptions(era2025 bool) *mcp.ClientSessionOptions {
	if era2025 {
		return &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}
	}
	return nil
}

func callTool(tb testing.TB, cs *mcp.ClientSession, args any) *mcp.CallToolResult {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolName, Arguments: args})
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

var transports = []string{"inmemory", "http", "http-2025"}

func BenchmarkE2E(b *testing.B) {
	for _, tr := range transports {
		b.Run("transport="+tr, func(b *testing.B) {
			for _, st := range e2eStacks {
				b.Run("stack="+st, func(b *testing.B) {
					var cs *mcp.ClientSession
					if tr == "inmemory" {
						cs = connectInMemory(b, st, nil, nil)
					} else {
						cs = connectHTTP(b, st, tr == "http-2025")
					}
					b.ReportAllocs()
					for b.Loop() {
						if res := callTool(b, cs, validArgs); res.IsError {
							b.Fatal(res.Content)
						}
					}
				})
			}
		})
	}
}

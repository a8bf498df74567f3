package bench

// The mcp-go adapter against mcp-go native, on the server alone: one
// tools/call JSON-RPC message handed to MCPServer.HandleMessage (mcp-go's
// own entry point, under every transport of it) and the response marshalled,
// with no transport, goroutine or client in between. The E2E rows
// (stack=mcpgo, stack=mcpgo-adapter) measure the same with a go-sdk client
// over real transports; these rows isolate the servers' work, which is
// what the adapter changes.

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	mgoserver "github.com/mark3labs/mcp-go/server"
)

// adapterStacks are the two ways of serving the benchmark's tool on mcp-go.
var adapterStacks = []string{"mcpgo", "mcpgo-adapter"}

func mcpgoServerFor(stack string) *mgoserver.MCPServer {
	if stack == "mcpgo-adapter" {
		return mcpgoAdapterServer()
	}
	return mcpgoServer()
}

// callMessage is a 2026-07-28 tools/call request: stateless, its protocol
// version and client capabilities in _meta.
var callMessage = json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + toolName +
	`","arguments":` + string(validArgs) + `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientCapabilities":{}}}}`)

// handleCall sends msg to s and returns the JSON of its response.
func handleCall(tb testing.TB, s *mgoserver.MCPServer, msg json.RawMessage) []byte {
	resp := s.HandleMessage(context.Background(), msg)
	out, err := json.Marshal(resp)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func BenchmarkMCPGoHandle(b *testing.B) {
	for _, st := range adapterStacks {
		b.Run("stack="+st, func(b *testing.B) {
			s := mcpgoServerFor(st)
			b.ReportAllocs()
			for b.Loop() {
				if out := handleCall(b, s, callMessage); !strings.Contains(string(out), `"total"`) {
					b.Fatalf("%s", out)
				}
			}
		})
	}
}

// TestMCPGoHandle checks that both stacks answer the benchmark's message
// with the same structured result, and refuse invalid arguments.
func TestMCPGoHandle(t *testing.T) {
	type resp struct {
		Result struct {
			StructuredContent any  `json:"structuredContent"`
			IsError           bool `json:"isError"`
		} `json:"result"`
		Error *struct{ Message string } `json:"error"`
	}
	bad := json.RawMessage(strings.Replace(string(callMessage), `"limit":20`, `"limit":500`, 1))
	var first any
	for _, st := range adapterStacks {
		s := mcpgoServerFor(st)
		var r resp
		if err := json.Unmarshal(handleCall(t, s, callMessage), &r); err != nil {
			t.Fatal(err)
		}
		if r.Error != nil || r.Result.IsError || r.Result.StructuredContent == nil {
			t.Fatalf("%s: %+v", st, r)
		}
		if first == nil {
			first = r.Result.StructuredContent
		} else if !equalJSON(first, r.Result.StructuredContent) {
			t.Errorf("%s: result differs: %v, want %v", st, r.Result.StructuredContent, first)
		}
		var rb resp
		if err := json.Unmarshal(handleCall(t, s, bad), &rb); err != nil {
			t.Fatal(err)
		}
		if rb.Error == nil && !rb.Result.IsError {
			t.Errorf("%s: accepted limit 500", st)
		}
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

package mcptool_test

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// A StdioTransport answers a malformed line with a JSON-RPC error and goes
// on serving, and when its input ends it still answers every request it
// read before Run returns. (A real server leaves Reader and Writer nil:
// stdin and stdout.)
func ExampleStdioTransport() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("ping", func() (string, error) { return "pong", nil }, mcptool.Description("Answer pong."))
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)

	input := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ping"
{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ping"}}
`)
	var out strings.Builder
	err := srv.Run(context.Background(), &mcptool.StdioTransport{Reader: input, Writer: &out})
	fmt.Println("Run:", err)
	// Parse errors are written as lines are read, responses as requests
	// end: sort them.
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	slices.Sort(lines)
	for _, line := range lines {
		if !strings.Contains(line, `"id":1,`) { // initialize's response
			fmt.Println(line)
		}
	}
	// Output:
	// Run: <nil>
	// {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"pong"}]}}
	// {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: invalid JSON"}}
}

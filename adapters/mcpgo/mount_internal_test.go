package mcpgo

import (
	"context"
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/mcptool"
)

// Keeping a served registry in sync costs the size of each change: adding N
// tools one by one to a mounted registry compares N tools, not N²/2, and
// every one of them is served.
func TestMountWorkIsLinear(t *testing.T) {
	reg := mcptool.NewRegistry()
	srv := server.NewMCPServer("t", "1", server.WithToolCapabilities(true))
	m, unmount := mountOn(reg, srv)
	defer unmount()
	const n = 500
	for i := range n {
		if err := reg.Add(fmt.Sprintf("tool_%d", i), func(context.Context) (string, error) { return "ok", nil },
			mcptool.Description("A tool.")); err != nil {
			t.Fatal(err)
		}
	}
	reg.Remove("tool_0", "tool_1")
	m.mu.Lock()
	checked, served := m.checked, len(m.served)
	m.mu.Unlock()
	if checked != n+2 {
		t.Errorf("compared %d tools for %d additions and 2 removals; want %d", checked, n, n+2)
	}
	if got := len(srv.ListTools()); served != n-2 || got != n-2 {
		t.Errorf("served %d, the server lists %d; want %d", served, got, n-2)
	}
}

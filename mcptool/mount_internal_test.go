package mcptool

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func subscribers(r *Registry) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.subs)
}

// A server nobody references stops following the registry: one server per
// request must not leak subscriptions. Its subscription goes at the next
// server the registry serves (or the registry's next change), with no
// finalizer or cleanup anywhere.
func TestServerCollectedUnsubscribes(t *testing.T) {
	reg := NewRegistry()
	require.NoError(t, reg.Add("a", func() (string, error) { return "a", nil }))
	kept := reg.Server(&mcp.Implementation{Name: "kept", Version: "1"}, nil)
	for range 50 {
		_ = reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	}
	deadline := time.Now().Add(5 * time.Second)
	for subscribers(reg) > 2 && time.Now().Before(deadline) {
		runtime.GC()
		_ = reg.Server(&mcp.Implementation{Name: "next", Version: "1"}, nil)
	}
	require.LessOrEqual(t, subscribers(reg), 2, "only the server still referenced (and the one just built) follow the registry")

	// A change forgets them too.
	for range 50 {
		_ = reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	}
	for subscribers(reg) > 1 && time.Now().Before(deadline) {
		runtime.GC()
		require.NoError(t, reg.Add("b", func() (string, error) { return "b", nil }))
		reg.Remove("b")
	}
	require.Equal(t, 1, subscribers(reg), "a change forgets the collected servers")
	runtime.KeepAlive(kept)
}

func TestUnmountRemovesTools(t *testing.T) {
	reg := NewRegistry()
	require.NoError(t, reg.Add("a", func() (string, error) { return "a", nil }))
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mounted := reg.Mount(srv)
	require.Equal(t, 1, subscribers(reg))
	mounted.Unmount()
	require.Equal(t, 0, subscribers(reg))
	require.NoError(t, reg.Add("b", func() (string, error) { return "b", nil }))
	runtime.KeepAlive(srv)
}

// Keeping a live server in sync costs work in proportion to the change, not
// to the registry: adding N tools one by one to a served registry compares
// about N tools in all (quadratic behaviour would compare N²/2).
func TestMountWorkIsLinear(t *testing.T) {
	reg := NewRegistry()
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	m := reg.mount(srv)
	defer m.unmount()
	const n = 2000
	for i := range n {
		require.NoError(t, reg.Add(fmt.Sprintf("t%04d", i), func() (string, error) { return "", nil }))
	}
	reg.Remove("t0000", "t0001")
	m.mu.Lock()
	checked, served := m.checked, len(m.served)
	m.mu.Unlock()
	require.Equal(t, n-2, served)
	assert.LessOrEqual(t, checked, n+2, "each change compares only the tools it names")
	runtime.KeepAlive(srv)
}

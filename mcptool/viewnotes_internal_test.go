package mcptool

import (
	"context"
	"runtime"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What the server remembers of its sessions without the extension goes
// with them: after many sessions that came and went, it holds about as
// many as are open, not one for each.
func TestPageNotesForgetSessionsGone(t *testing.T) {
	ctx := context.Background()
	reg := NewRegistry()
	require.NoError(t, reg.Add("a", func() (string, error) { return "a", nil }, Description("A.")))
	srv := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	notes := srv.m.notes
	require.NotNil(t, notes)
	const n = 400
	for i := range n {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		require.NoError(t, err)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		require.NoError(t, err)
		require.NoError(t, cs.Close())
		_ = ss.Wait()
		if i%50 == 0 {
			runtime.GC()
		}
	}
	notes.mu.Lock()
	remembered := len(notes.heard)
	notes.mu.Unlock()
	assert.Less(t, remembered, n/2, "sessions remembered after %d came and went", n)
	assert.Positive(t, remembered, "the sessions were remembered at all")
}

package mcptool_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// restartedStore is a Memory store whose server last started at started.
type restartedStore struct {
	*taskstore.Memory
	started time.Time
}

func (s restartedStore) StartedAt(context.Context) (time.Time, error) { return s.started, nil }

// A task whose lease ran out across a restart of its store says the store
// restarted, not that its server stopped; within a lease of the restart its
// worker may still renew it, so it is not failed yet.
func TestTaskLeaseLapsedAcrossStoreRestart(t *testing.T) {
	lastRenewal := time.Now().Add(-time.Minute)
	create := func(store taskstore.Store, id string) {
		require.NoError(t, store.Create(context.Background(), taskstore.Task{
			ID: id, Tool: "steps", Status: taskstore.Working, CreatedAt: lastRenewal, UpdatedAt: lastRenewal,
			Worker: "w", LeaseUntil: lastRenewal.Add(30 * time.Second),
		}))
	}
	for _, tc := range []struct {
		name    string
		started time.Time // zero: not a Restarter
		status  string
		message string
	}{
		{"store restarted long ago", lastRenewal.Add(10 * time.Second), "failed", "the task store restarted while the task ran"},
		{"store restarted just now", time.Now().Add(-time.Second), "working", ""},
		{"store not restarted", lastRenewal.Add(-time.Hour), "failed", "the server running the task stopped"},
		{"not a restarter", time.Time{}, "failed", "the server running the task stopped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var store taskstore.Store = taskstore.NewMemory()
			if !tc.started.IsZero() {
				store = restartedStore{taskstore.NewMemory(), tc.started}
			}
			reg, _ := taskRegistry(t, mcptool.Tasks(mcptool.TaskSettings{Store: store}))
			w := newWire(t, reg, true)
			create(store, "t1")
			got := w.get("t1")
			assert.Equal(t, tc.status, got["status"])
			if tc.message != "" {
				assert.Contains(t, got["statusMessage"], tc.message)
			}
		})
	}
}

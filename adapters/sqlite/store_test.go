package sqlite_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/adapters/sqlite"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
	"github.com/mcpgen/mcpgen/mcptool/taskstore/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) taskstore.Store {
		s, err := sqlite.Open(filepath.Join(t.TempDir(), "tasks.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// A restart keeps finished tasks and fails the ones that were running.
func TestRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tasks.db")
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	working := taskstore.Task{ID: "w", Tool: "slow", Status: taskstore.Working, CreatedAt: now, UpdatedAt: now, ExpiresAt: now.Add(time.Hour), Worker: "p1", LeaseUntil: now.Add(time.Minute)}
	asking := working
	asking.ID, asking.Status = "i", taskstore.InputRequired
	asking.InputRequests = map[string]json.RawMessage{"k": json.RawMessage(`{"method":"elicitation/create"}`)}
	done := working
	done.ID, done.Status, done.Result, done.Worker = "c", taskstore.Completed, json.RawMessage(`{"content":[{"type":"text","text":"42"}]}`), ""
	gone := done
	gone.ID, gone.ExpiresAt = "x", now.Add(200*time.Millisecond)
	for _, task := range []taskstore.Task{working, asking, done, gone} {
		if err := s.Create(ctx, task); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(250 * time.Millisecond)

	s, err = sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{"w", "i"} {
		got, err := s.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != taskstore.Failed || got.StatusMessage != sqlite.RestartedMessage || len(got.InputRequests) != 0 || got.Worker != "" {
			t.Fatalf("task %s after a restart: %+v, want failed (%s)", id, got, sqlite.RestartedMessage)
		}
		var e struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(got.Error, &e); err != nil || e.Code != -32603 || e.Message != sqlite.RestartedMessage {
			t.Fatalf("task %s error %s", id, got.Error)
		}
	}
	got, err := s.Get(ctx, "c")
	if err != nil || got.Status != taskstore.Completed || string(got.Result) != string(done.Result) {
		t.Fatalf("completed task after a restart: %+v, %v", got, err)
	}
	if _, err := s.Get(ctx, "x"); !errors.Is(err, taskstore.ErrNotFound) {
		t.Fatalf("expired task after a restart: err = %v, want ErrNotFound", err)
	}
}

package mcpredis_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// Open refuses a Redis that would lose the tasks on a restart, unless told
// to allow it; then it names what is lost.
func TestOpenRefusesVolatileRedis(t *testing.T) {
	srv := startRedisWith(t, true)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := mcpredis.Open(ctx, srv.URL(), nil)
	if !errors.Is(err, mcpredis.ErrVolatile) {
		if c != nil {
			_ = c.Close()
		}
		t.Fatalf("Open on a Redis without persistence: %v; want ErrVolatile", err)
	}
	if !strings.Contains(err.Error(), "appendonly yes") {
		t.Errorf("the error does not say what to do: %v", err)
	}
	var log bytes.Buffer
	c, err = mcpredis.Open(ctx, srv.URL(), &mcpredis.Options{AllowVolatileTasks: true, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatalf("Open with AllowVolatileTasks: %v", err)
	}
	defer c.Close()
	if !strings.Contains(log.String(), "a Redis restart loses every task") {
		t.Errorf("no warning naming what is lost: %q", log.String())
	}
}

// Tasks on a Redis with the append-only file survive its restart.
func TestTasksSurviveRedisRestart(t *testing.T) {
	srv := startRedis(t)
	c := open(t, srv, nil)
	ctx := context.Background()
	task := taskstore.Task{ID: "survivor", Tool: "slow", Status: taskstore.Working}
	if err := c.TaskStore().Create(ctx, task); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond) // appendfsync everysec
	srv.stop()
	srv.start(t)
	deadline := time.Now().Add(5 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		if _, err = c.TaskStore().Get(ctx, task.ID); err == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the task did not survive a Redis restart: %v", err)
}

// StartedAt moves when Redis restarts, so a lease that lapsed across the
// restart is told apart from a dead replica.
func TestTaskStoreStartedAt(t *testing.T) {
	srv := startRedis(t)
	c := open(t, srv, nil)
	ctx := context.Background()
	first, err := c.TaskStore().StartedAt(ctx)
	if err != nil || time.Since(first) > time.Minute {
		t.Fatalf("StartedAt %v, %v: want within the last minute", first, err)
	}
	time.Sleep(2100 * time.Millisecond)
	srv.stop()
	srv.start(t)
	deadline := time.Now().Add(5 * time.Second)
	for {
		again, err := c.TaskStore().StartedAt(ctx)
		if err == nil && again.After(first.Add(time.Second)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("StartedAt after a restart: %v, %v; first %v", again, err, first)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

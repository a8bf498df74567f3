package mcpredis_test

import (
	"testing"
	"time"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
	"github.com/mcpgen/mcpgen/mcptool/taskstore"
	"github.com/mcpgen/mcpgen/mcptool/taskstore/storetest"
)

// The store keeps taskstore's contract, each subtest on a fresh database.
func TestTaskStoreContract(t *testing.T) {
	srv := startRedis(t)
	storetest.Run(t, func(t *testing.T) taskstore.Store {
		c := open(t, srv, nil)
		if err := c.Client().FlushDB(t.Context()).Err(); err != nil {
			t.Fatal(err)
		}
		return c.TaskStore()
	})
}

// watchedTask returns the task stores of two replicas on srv, and the
// watcher replica A holds on task "x", which A created (working).
func watchedTask(t *testing.T, srv *redisServer) (a, b *mcpredis.TaskStore, ch <-chan struct{}) {
	t.Helper()
	a, b = open(t, srv, nil).TaskStore(), open(t, srv, nil).TaskStore()
	if err := a.Create(t.Context(), taskstore.Task{ID: "x", Tool: "slow", Status: taskstore.Working}); err != nil {
		t.Fatal(err)
	}
	ch, err := a.Watch(t.Context(), "x")
	if err != nil {
		t.Fatal(err)
	}
	return a, b, ch
}

// A cancel written by one replica reaches the watcher on another.
func TestTaskWatchAcrossReplicas(t *testing.T) {
	srv := startRedis(t)
	a, b, ch := watchedTask(t, srv)
	ctx := t.Context()
	other, _ := a.Watch(ctx, "y") // another task's watcher hears nothing
	cur, err := b.Get(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	cur.CancelRequested = true
	if _, err := b.Update(ctx, cur); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("the watcher on replica A did not hear replica B's update")
	}
	got, _ := a.Get(ctx, "x")
	if !got.CancelRequested || got.Version != 2 {
		t.Fatalf("replica A reads %+v", got)
	}
	select {
	case <-other:
		t.Fatal("a watcher of another task was woken")
	case <-time.After(100 * time.Millisecond):
	}
}

// Updates published while a store's subscription is down reach nobody: when
// Redis is back and the subscription re-established, every watcher is woken
// to read its task again, so a cancel written by another replica right after
// a Redis restart is not missed.
func TestTaskWatchAfterRedisRestart(t *testing.T) {
	srv := startRedisWith(t, true)
	a, b, ch := watchedTask(t, srv)
	ctx := t.Context()
	srv.stop()
	srv.start(t)
	// The restarted server is empty (no persistence): B writes the task as
	// another replica would after the restart, possibly before A has
	// re-subscribed, so its publication may reach nobody.
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := b.Create(ctx, taskstore.Task{ID: "x", Tool: "slow", Status: taskstore.Working, CancelRequested: true})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Redis did not come back: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	select {
	case <-ch:
	case <-time.After(15 * time.Second):
		t.Fatal("the watcher was not woken after the subscription came back")
	}
	got, err := a.Get(ctx, "x")
	if err != nil || !got.CancelRequested {
		t.Fatalf("replica A reads %+v, %v", got, err)
	}
}

// Package storetest checks that an implementation of taskstore.Store keeps
// the contract mcpgen relies on. Store implementations call Run from a test:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) taskstore.Store { return open(t) })
//	}
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// Run runs the contract tests against stores made by open (a fresh, empty
// store for each subtest).
func Run(t *testing.T, open func(t *testing.T) taskstore.Store) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Millisecond)
	sample := func(id string) taskstore.Task {
		return taskstore.Task{
			ID: id, Tool: "slow", Owner: "alice", Status: taskstore.Working, StatusMessage: "started",
			CreatedAt: now, UpdatedAt: now, ExpiresAt: now.Add(time.Hour), PollInterval: 250 * time.Millisecond,
			Worker: "w1", LeaseUntil: now.Add(30 * time.Second),
		}
	}

	t.Run("CreateGetRoundTrip", func(t *testing.T) {
		s := open(t)
		in := sample("t1")
		in.InputRequests = map[string]json.RawMessage{"k": json.RawMessage(`{"method":"elicitation/create"}`)}
		in.Answers = map[string]json.RawMessage{"j": json.RawMessage(`{"action":"accept"}`)}
		in.Issued = 2
		in.Version = 99 // ignored
		if err := s.Create(ctx, in); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(ctx, "t1")
		if err != nil {
			t.Fatal(err)
		}
		want := in
		want.Version = 1
		if !equal(got, want) {
			t.Fatalf("Get = %+v\nwant %+v", got, want)
		}
		if err := s.Create(ctx, sample("t1")); !errors.Is(err, taskstore.ErrExists) {
			t.Fatalf("second Create: err = %v, want ErrExists", err)
		}
	})

	t.Run("NotFound", func(t *testing.T) {
		s := open(t)
		if _, err := s.Get(ctx, "nope"); !errors.Is(err, taskstore.ErrNotFound) {
			t.Fatalf("Get: err = %v, want ErrNotFound", err)
		}
		if _, err := s.Update(ctx, sample("nope")); !errors.Is(err, taskstore.ErrNotFound) {
			t.Fatalf("Update: err = %v, want ErrNotFound", err)
		}
	})

	t.Run("CompareAndSet", func(t *testing.T) {
		s := open(t)
		if err := s.Create(ctx, sample("t2")); err != nil {
			t.Fatal(err)
		}
		a, _ := s.Get(ctx, "t2")
		b := a
		a.Status, a.Result = taskstore.Completed, json.RawMessage(`{"content":[]}`)
		stored, err := s.Update(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Version != 2 || stored.Status != taskstore.Completed {
			t.Fatalf("Update returned version %d status %s, want 2 completed", stored.Version, stored.Status)
		}
		b.Status = taskstore.Cancelled
		if _, err := s.Update(ctx, b); !errors.Is(err, taskstore.ErrConflict) {
			t.Fatalf("stale Update: err = %v, want ErrConflict", err)
		}
		got, _ := s.Get(ctx, "t2")
		if got.Status != taskstore.Completed || string(got.Result) != `{"content":[]}` {
			t.Fatalf("after a refused update: %+v", got)
		}
	})

	t.Run("ConcurrentIncrements", func(t *testing.T) {
		s := open(t)
		if err := s.Create(ctx, sample("t3")); err != nil {
			t.Fatal(err)
		}
		const n = 20
		var wg sync.WaitGroup
		errs := make(chan error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 1000 {
					cur, err := s.Get(ctx, "t3")
					if err != nil {
						errs <- err
						return
					}
					cur.Issued++
					cur.StatusMessage = fmt.Sprint("writer ", i)
					if _, err := s.Update(ctx, cur); err == nil {
						return
					} else if !errors.Is(err, taskstore.ErrConflict) {
						errs <- err
						return
					}
				}
				errs <- errors.New("no update succeeded in 1000 tries")
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		got, _ := s.Get(ctx, "t3")
		if got.Issued != n || got.Version != n+1 {
			t.Fatalf("after %d CAS increments: Issued=%d Version=%d, want %d and %d", n, got.Issued, got.Version, n, n+1)
		}
	})

	t.Run("Expiry", func(t *testing.T) {
		s := open(t)
		in := sample("t4")
		in.ExpiresAt = time.Now().Add(300 * time.Millisecond)
		if err := s.Create(ctx, in); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, "t4"); err != nil {
			t.Fatalf("Get before expiry: %v", err)
		}
		time.Sleep(400 * time.Millisecond)
		if _, err := s.Get(ctx, "t4"); !errors.Is(err, taskstore.ErrNotFound) {
			t.Fatalf("Get after expiry: err = %v, want ErrNotFound", err)
		}
		forever := sample("t5")
		forever.ExpiresAt = time.Time{}
		if err := s.Create(ctx, forever); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, "t5"); err != nil {
			t.Fatalf("a task without expiry: %v", err)
		}
	})

	t.Run("List", func(t *testing.T) {
		s := open(t)
		l, ok := s.(taskstore.Lister)
		if !ok {
			t.Skip("the store is not a taskstore.Lister")
		}
		// Five of alice's tasks (one expiring), two of bob's.
		for i, id := range []string{"L3", "L1", "L5", "L2", "L4", "B1", "B2"} {
			in := sample(id)
			if id[0] == 'B' {
				in.Owner = "bob"
			}
			if i == 2 {
				in.ExpiresAt = time.Now().Add(300 * time.Millisecond)
			}
			if err := s.Create(ctx, in); err != nil {
				t.Fatal(err)
			}
		}
		ids := func(ts []taskstore.Task) []string {
			out := []string{}
			for _, x := range ts {
				out = append(out, x.ID)
			}
			return out
		}
		page, err := l.List(ctx, "alice", "", 3)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(page); !reflect.DeepEqual(got, []string{"L1", "L2", "L3"}) {
			t.Fatalf("first page = %v, want [L1 L2 L3]", got)
		}
		if !equal(page[0], func() taskstore.Task { w := sample("L1"); w.Version = 1; return w }()) {
			t.Fatalf("listed task = %+v, want what Get returns", page[0])
		}
		page, err = l.List(ctx, "alice", "L3", 3)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(page); !reflect.DeepEqual(got, []string{"L4", "L5"}) {
			t.Fatalf("second page = %v, want [L4 L5]", got)
		}
		time.Sleep(400 * time.Millisecond)
		page, err = l.List(ctx, "alice", "", 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(page); !reflect.DeepEqual(got, []string{"L1", "L2", "L3", "L4"}) {
			t.Fatalf("after L5 expired = %v, want [L1 L2 L3 L4]", got)
		}
		page, err = l.List(ctx, "carol", "", 10)
		if err != nil || len(page) != 0 {
			t.Fatalf("another owner's list = %v, %v; want none", ids(page), err)
		}
	})

	t.Run("Watch", func(t *testing.T) {
		s := open(t)
		if err := s.Create(ctx, sample("t6")); err != nil {
			t.Fatal(err)
		}
		wctx, cancel := context.WithCancel(ctx)
		ch, err := s.Watch(wctx, "t6")
		if err != nil {
			t.Fatal(err)
		}
		cur, _ := s.Get(ctx, "t6")
		cur.CancelRequested = true
		if _, err := s.Update(ctx, cur); err != nil {
			t.Fatal(err)
		}
		select {
		case _, ok := <-ch:
			if !ok {
				t.Fatal("watch channel closed before ctx was done")
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no watch event within 5s of an update")
		}
		cancel()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case _, ok := <-ch:
				if !ok {
					return
				}
			case <-deadline:
				t.Fatal("watch channel not closed within 5s of ctx being done")
			}
		}
	})
}

// equal compares tasks, times by instant.
func equal(a, b taskstore.Task) bool {
	times := func(t *taskstore.Task) [4]time.Time {
		r := [4]time.Time{t.CreatedAt, t.UpdatedAt, t.ExpiresAt, t.LeaseUntil}
		t.CreatedAt, t.UpdatedAt, t.ExpiresAt, t.LeaseUntil = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		return r
	}
	ta, tb := times(&a), times(&b)
	for i := range ta {
		if !ta[i].Equal(tb[i]) {
			return false
		}
	}
	return reflect.DeepEqual(normalize(a), normalize(b))
}

func normalize(t taskstore.Task) taskstore.Task {
	if len(t.InputRequests) == 0 {
		t.InputRequests = nil
	}
	if len(t.Answers) == 0 {
		t.Answers = nil
	}
	if len(t.Result) == 0 {
		t.Result = nil
	}
	if len(t.Error) == 0 {
		t.Error = nil
	}
	return t
}

package taskstore_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpgen/mcpgen/mcptool/taskstore"
)

// Every change is a compare-and-set on Version: a writer that lost a race
// gets ErrConflict, reads again and retries.
func ExampleMemory() {
	ctx := context.Background()
	s := taskstore.NewMemory()
	now := time.Now()
	_ = s.Create(ctx, taskstore.Task{ID: "t1", Tool: "report", Status: taskstore.Working, CreatedAt: now, UpdatedAt: now})

	a, _ := s.Get(ctx, "t1")
	b := a // a second writer read the same version
	a.Status = taskstore.Completed
	if _, err := s.Update(ctx, a); err != nil {
		fmt.Println(err)
	}
	b.CancelRequested = true
	_, err := s.Update(ctx, b)
	fmt.Println(errors.Is(err, taskstore.ErrConflict))

	cur, _ := s.Get(ctx, "t1")
	fmt.Println(cur.Status, cur.Version)
	// Output:
	// true
	// completed 2
}

package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// tasks/list reads an owner's page through the owner index, not by scanning
// every task.
func TestListUsesOwnerIndex(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "tasks.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+listQuery, "alice", "", 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if got := strings.Join(plan, "; "); !strings.Contains(got, "USING INDEX mcpgen_tasks_owner") || strings.Contains(got, "TEMP B-TREE") {
		t.Fatalf("query plan: %s; want a search of mcpgen_tasks_owner in ID order", got)
	}
}

package mcpredis_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
)

func collect(t *testing.T, s *mcpredis.EventStore, sess, stream string, index int) ([]string, error) {
	t.Helper()
	var out []string
	for d, err := range s.After(context.Background(), sess, stream, index) {
		if err != nil {
			return out, err
		}
		out = append(out, string(d))
	}
	return out, nil
}

func TestEventStore(t *testing.T) {
	srv := startRedis(t)
	// Two replicas: one writes, the other reads.
	w := open(t, srv, &mcpredis.Options{MaxEvents: 3}).EventStore()
	r := open(t, srv, &mcpredis.Options{MaxEvents: 3}).EventStore()
	ctx := context.Background()
	if err := w.Open(ctx, "s1", "0"); err != nil {
		t.Fatal(err)
	}
	if got, err := collect(t, r, "s1", "0", -1); err != nil || len(got) != 0 {
		t.Fatalf("empty stream: %v, %v", got, err)
	}
	for _, d := range []string{"a", "b"} {
		if err := w.Append(ctx, "s1", "0", []byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := collect(t, r, "s1", "0", 0); err != nil || !slices.Equal(got, []string{"b"}) {
		t.Fatalf("after 0: %v, %v", got, err)
	}
	for _, d := range []string{"c", "d", "e"} {
		_ = w.Append(ctx, "s1", "0", []byte(d))
	}
	// Three kept: c, d, e (indexes 2..4).
	if got, err := collect(t, r, "s1", "0", 1); err != nil || !slices.Equal(got, []string{"c", "d", "e"}) {
		t.Fatalf("after 1: %v, %v", got, err)
	}
	if _, err := collect(t, r, "s1", "0", 0); !errors.Is(err, mcp.ErrEventsPurged) {
		t.Fatalf("after a purged index: err = %v, want ErrEventsPurged", err)
	}
	if got, err := collect(t, r, "s1", "0", 4); err != nil || len(got) != 0 {
		t.Fatalf("after the last: %v, %v", got, err)
	}
	if _, err := collect(t, r, "s1", "nope", -1); err == nil {
		t.Fatal("an unknown stream read without error")
	}
	if err := w.SessionClosed(ctx, "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := collect(t, r, "s1", "0", -1); err == nil {
		t.Fatal("a closed session's stream still read")
	}
}

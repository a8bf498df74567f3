package discovery

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/mcptool"
)

// bigCatalogue registers the first n methods (by name) of every API of
// the module: 28,000 are there.
func bigCatalogue(tb testing.TB, n int) *mcptool.Registry {
	tb.Helper()
	dir, err := APIDir()
	if err != nil {
		tb.Fatal(err)
	}
	methods, err := Load(dir, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if len(methods) < n {
		tb.Fatalf("%d methods, fewer than %d", len(methods), n)
	}
	reg, err := NewRegistry(methods[:n], true)
	if err != nil {
		tb.Fatal(err)
	}
	return reg
}

var latencyQueries = []string{
	"send an email", "list the objects in a bucket", "create a virtual machine instance", "delete a dataset",
	"translate text", "get the status of a long running operation", "add a member to a group", "upload a video",
}

// TestSearchLatency: search_tools (the whole call: decode, search, the
// definitions marshalled) takes at most 1 ms at the median over 10,000
// tools, once the index is built.
func TestSearchLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 10,000 tools")
	}
	reg := bigCatalogue(t, 10000)
	ctx := context.Background()
	call := func(q string) time.Duration {
		args, _ := json.Marshal(map[string]any{"query": q})
		start := time.Now()
		res, err := reg.Call(ctx, "search_tools", args)
		d := time.Since(start)
		if err != nil || res.IsError {
			t.Fatalf("%q: %v %v", q, err, res)
		}
		return d
	}
	start := time.Now()
	call("warm up") // builds the index
	t.Logf("index of 10,000 tools built in %v (once per registry change)", time.Since(start).Round(time.Millisecond))
	var ds []time.Duration
	for i := range 400 {
		ds = append(ds, call(latencyQueries[i%len(latencyQueries)]))
	}
	slices.Sort(ds)
	p50, p99 := ds[len(ds)/2], ds[len(ds)*99/100]
	t.Logf("search_tools over 10,000 tools: p50 %v, p99 %v", p50, p99)
	if p50 > time.Millisecond {
		t.Errorf("p50 %v, more than 1 ms", p50)
	}
}

// BenchmarkSearch times search_tools calls over 10,000 tools.
func BenchmarkSearch(b *testing.B) {
	reg := bigCatalogue(b, 10000)
	ctx := context.Background()
	args := make([][]byte, len(latencyQueries))
	for i, q := range latencyQueries {
		args[i], _ = json.Marshal(map[string]any{"query": q})
	}
	if _, err := reg.Call(ctx, "search_tools", args[0]); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := reg.Call(ctx, "search_tools", args[i%len(args)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRegister times registering the labeled catalogue's 769 tools,
// with and without discovery mode: the index is built on the first
// search, not at registration, so the two cost the same.
func BenchmarkRegister(b *testing.B) {
	dir, err := APIDir()
	if err != nil {
		b.Fatal(err)
	}
	methods, err := Load(dir, Labeled)
	if err != nil {
		b.Fatal(err)
	}
	for _, disc := range []bool{false, true} {
		b.Run(fmt.Sprintf("discovery=%v", disc), func(b *testing.B) {
			for b.Loop() {
				if _, err := NewRegistry(methods, disc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

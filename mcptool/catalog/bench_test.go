package catalog_test

import (
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

// Large returns a catalogue of n tools shaped like real ones: four
// arguments with constraints, a result of three fields, both schemas, an
// example call and a fingerprint. The browser test renders the same.
func large(tb testing.TB, n int) *catalog.Catalog {
	in := json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"What to look for in the records","minLength":2,"maxLength":200},` +
		`"limit":{"type":"integer","description":"How many records to return","default":10,"minimum":1,"maximum":100},` +
		`"sort":{"type":"string","enum":["relevance","date","name"]},"tags":{"type":"array","items":{"type":"string","maxLength":20},"maxItems":5}},` +
		`"required":["query"],"additionalProperties":false}`)
	out := json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"},"score":{"type":"number"}},"required":["id"]}},"total":{"type":"integer"}},"required":["items","total"]}`)
	c := &catalog.Catalog{Tools: make([]catalog.Tool, n)}
	for i := range c.Tools {
		t := catalog.Tool{
			Name:        fmt.Sprintf("tool_%05d", i),
			Title:       fmt.Sprintf("Tool %d", i),
			Description: fmt.Sprintf("Searches the records of collection %d by text, newest first; returns at most limit records with their scores.", i),
			Hints:       catalog.Hints{ReadOnly: i%3 == 0, Destructive: i%3 == 1, Idempotent: i%2 == 0, OpenWorld: i%5 == 0, Confirm: i%3 == 1},
			Arguments: []catalog.Argument{
				{Path: "limit", Type: "integer", Default: json.Number("10"), Constraints: []string{"≥ 1", "≤ 100"}, Description: "How many records to return"},
				{Path: "query", Type: "string", Required: true, Constraints: []string{"min length 2", "max length 200"}, Description: "What to look for in the records"},
				{Path: "sort", Type: "string", Constraints: []string{`one of "relevance", "date", "name"`}},
				{Path: "tags", Type: "array of string", Constraints: []string{"max items 5", "each: max length 20"}},
			},
			Result: []catalog.Argument{
				{Path: "items", Type: "array of object", Required: true},
				{Path: "items[].id", Type: "string", Required: true},
				{Path: "items[].score", Type: "number"},
				{Path: "total", Type: "integer", Required: true},
			},
			InputSchema:  in,
			OutputSchema: out,
			Example:      json.RawMessage(`{"query":"xxx"}`),
		}
		fp, err := catalog.Fingerprint(t)
		if err != nil {
			tb.Fatal(err)
		}
		t.Fingerprint = fp
		c.Tools[i] = t
	}
	return c
}

// BenchmarkWriteHTML10k writes the HTML catalogue of 10,000 tools; the
// target is under 1 s per op (docs/browsertest/ci.sh checks it).
func BenchmarkWriteHTML10k(b *testing.B) {
	c := large(b, 10000)
	cw := &countWriter{}
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		cw.n = 0
		if err := c.Write(cw, "html", "Large"); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cw.n)/1e6, "MB/page")
	// CPU time, user and system, of the process per op: what the page costs
	// when the machine is shared (wall time is the target).
	b.ReportMetric(float64((cpuTime()-cpu0).Milliseconds())/float64(b.N), "cpu-ms/op")
}

type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)

package catalog_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

// TestCompareHints: a flip of any of the four MCP hints, either way, is
// security-relevant, since clients decide by them what runs without asking;
// only a confirmation gained is compatible.
func TestCompareHints(t *testing.T) {
	hints := func(o, a catalog.Hints) []string {
		tool := func(h catalog.Hints) catalog.Tool {
			return catalog.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`), Arguments: []catalog.Argument{}, Hints: h}
		}
		r := catalog.Compare(&catalog.Catalog{Tools: []catalog.Tool{tool(o)}}, &catalog.Catalog{Tools: []catalog.Tool{tool(a)}})
		var out []string
		for _, c := range r.Changes {
			out = append(out, string(c.Class)+" "+c.Where)
		}
		return out
	}
	for _, c := range []struct {
		name string
		set  func(*catalog.Hints)
	}{
		{"destructive", func(h *catalog.Hints) { h.Destructive = true }},
		{"readOnly", func(h *catalog.Hints) { h.ReadOnly = true }},
		{"idempotent", func(h *catalog.Hints) { h.Idempotent = true }},
		{"openWorld", func(h *catalog.Hints) { h.OpenWorld = true }},
	} {
		var off, on catalog.Hints
		c.set(&on)
		want := []string{"security-relevant hints." + c.name}
		assert.Equal(t, want, hints(off, on), "%s gained", c.name)
		assert.Equal(t, want, hints(on, off), "%s lost", c.name)
	}
	assert.Equal(t, []string{"compatible hints.confirm"}, hints(catalog.Hints{}, catalog.Hints{Confirm: true}), "the server now asks")
	assert.Equal(t, []string{"security-relevant hints.confirm"}, hints(catalog.Hints{Confirm: true}, catalog.Hints{}))
	assert.Empty(t, hints(catalog.Hints{Destructive: true}, catalog.Hints{Destructive: true}))
}

package server

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	gsjsonschema "github.com/google/jsonschema-go/jsonschema"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// TestBytesPerTool measures the demo's tools as a model reads them: the
// bytes of each argument and result schema as mcpgen publishes it, and as
// go-sdk's mcp.AddTool would for the same Go type (jsonschema-go's
// inference; mcp-go's WithInputSchema[T] uses the same library). go-sdk
// reads a jsonschema tag as a description only, so it publishes none of
// the tags' constraints: where mcpgen is larger, the difference is what the
// tags say (bounds, enums, formats, required). bench/README.md's "bytes per
// tool" table:
//
//	cd cmd/mcpgen-demo && go test -run TestBytesPerTool -v
func TestBytesPerTool(t *testing.T) {
	var b strings.Builder
	b.WriteString("| type | mcpgen | mcpgen without descriptions | go-sdk | ratio (without descriptions) |\n| --- | --- | --- | --- | --- |\n")
	var mine, bare, theirs int
	row := func(typ reflect.Type, ours []byte) {
		if strings.Contains(string(ours), "1.7976931348623157e308") {
			t.Errorf("%s restates float64's range: %s", typ, ours)
		}
		nodesc := withoutDescriptions(t, ours)
		s, err := gsjsonschema.ForType(typ, &gsjsonschema.ForOptions{})
		if err != nil {
			// jsonschema-go refuses a jsonschema tag of keywords ("minimum=1").
			fmt.Fprintf(&b, "| %s | %d | %d | refused | |\n", typ, len(ours), len(nodesc))
			return
		}
		raw, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		mine += len(ours)
		bare += len(nodesc)
		theirs += len(raw)
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.2fx |\n", typ, len(ours), len(nodesc), len(raw), float64(len(nodesc))/float64(len(raw)))
	}
	cache := mcpreflect.DefaultCache()
	for _, typ := range demoArgTypes {
		p, err := cache.Plan(typ, mcpreflect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		row(typ, p.SchemaJSON)
	}
	for _, typ := range demoResultTypes {
		o, err := cache.Output(typ, mcpreflect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		row(typ, o.SchemaJSON)
	}
	if mine == 0 || theirs == 0 {
		t.Fatal("nothing measured")
	}
	fmt.Fprintf(&b, "| total (go-sdk's types) | %d | %d | %d | %.2fx |\n", mine, bare, theirs, float64(bare)/float64(theirs))
	t.Logf("demo tools, bytes per schema:\n%s", b.String())
}

// withoutDescriptions is schema without its "description" keywords, which
// go-sdk derives from no doc comment: what mcpgen says beyond them is
// constraints.
func withoutDescriptions(t *testing.T, schema []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(schema, &v); err != nil {
		t.Fatal(err)
	}
	var strip func(v any, inProperties bool)
	strip = func(v any, inProperties bool) {
		switch x := v.(type) {
		case map[string]any:
			if !inProperties {
				delete(x, "description")
			}
			for k, e := range x {
				strip(e, k == "properties" && !inProperties)
			}
		case []any:
			for _, e := range x {
				strip(e, false)
			}
		}
	}
	strip(v, false)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

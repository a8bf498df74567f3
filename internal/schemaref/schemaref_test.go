package schemaref

import (
	"reflect"
	"testing"

	"github.com/invopop/jsonschema"
)

func TestTyped(t *testing.T) {
	node := &jsonschema.Schema{Type: "string"}
	root := &jsonschema.Schema{Type: "object", Definitions: jsonschema.Definitions{"Node": node}}
	for _, tc := range []struct {
		ref  string
		want *jsonschema.Schema
	}{
		{"", nil}, // no $ref: s itself, checked below
		{"#", root},
		{"#/$defs/Node", node},
		{"#/$defs/Missing", nil},
		{"#/definitions/Node", nil},
		{"other.json#/$defs/Node", nil},
	} {
		s := &jsonschema.Schema{Ref: tc.ref}
		want := tc.want
		if tc.ref == "" {
			want = s
		}
		if got := Typed(root, s); got != want {
			t.Errorf("Typed(%q) = %v, want %v", tc.ref, got, want)
		}
	}
	if Typed(root, nil) != nil {
		t.Error("Typed(nil) is not nil")
	}
}

func TestLookup(t *testing.T) {
	node := map[string]any{"type": "string"}
	odd := map[string]any{"type": "integer"}
	doc := map[string]any{
		"type":  "object",
		"$defs": map[string]any{"Node": node, "a/b~c": odd, "notObj": 3.0},
		"items": []any{node},
	}
	for _, tc := range []struct {
		ref  string
		want map[string]any
	}{
		{"#", doc},
		{"#/$defs/Node", node},
		{"#/$defs/a~1b~0c", odd},
		{"#/$defs/Missing", nil},
		{"#/$defs/notObj", nil},
		{"#/items/0", nil}, // arrays are not followed
		{"#$defs", nil},
		{"other.json#/$defs/Node", nil},
	} {
		got, ok := Lookup(doc, tc.ref)
		if ok != (tc.want != nil) {
			t.Errorf("Lookup(%q) ok = %v, want %v", tc.ref, ok, tc.want != nil)
			continue
		}
		if ok && got["type"] != tc.want["type"] {
			t.Errorf("Lookup(%q) = %v, want %v", tc.ref, got, tc.want)
		}
	}
}

func TestResolve(t *testing.T) {
	root := map[string]any{"$defs": map[string]any{
		"A": map[string]any{"$ref": "#/$defs/B", "description": "a"},
		"B": map[string]any{"type": "string", "description": "b"},
	}}
	got := Resolve(root, map[string]any{"$ref": "#/$defs/A", "title": "t"})
	want := map[string]any{"type": "string", "description": "a", "title": "t"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a chain of references with siblings: got %v, want %v", got, want)
	}
	dangling := map[string]any{"$ref": "#/$defs/None"}
	if got := Resolve(root, dangling); !reflect.DeepEqual(got, dangling) {
		t.Errorf("a reference that leads nowhere: got %v, want the schema itself", got)
	}
	loop := map[string]any{"$defs": map[string]any{"L": map[string]any{"$ref": "#/$defs/L"}}}
	if got := Resolve(loop, map[string]any{"$ref": "#/$defs/L"}); got["$ref"] != "#/$defs/L" {
		t.Errorf("a reference to itself ends: got %v", got)
	}
}

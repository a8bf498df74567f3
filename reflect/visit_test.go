package mcpreflect

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
)

var schemaPtrType = reflect.TypeFor[*jsonschema.Schema]()

// The keyword table names every field of jsonschema.Schema that holds
// subschemas: a field invopop/jsonschema adds makes this fail until the
// table has it.
func TestKeywordTableCoversSchema(t *testing.T) {
	inTable := map[string]bool{}
	for _, k := range keywords {
		if k.field != "" {
			inTable[k.field] = true
		}
	}
	st := reflect.TypeFor[jsonschema.Schema]()
	for i := range st.NumField() {
		f := st.Field(i)
		if !f.IsExported() {
			continue
		}
		holds := strings.Contains(f.Type.String(), "jsonschema.Schema") || f.Type == reflect.TypeFor[jsonschema.Definitions]()
		if holds != inTable[f.Name] {
			t.Errorf("field %s (%s): holds subschemas %v, in the keyword table %v", f.Name, f.Type, holds, inTable[f.Name])
		}
	}
}

// everyKeyword builds a tree that uses every subschema keyword at two
// levels: below the root, a node per keyword slot, each with every keyword
// again, whose slots hold leaf(n) with n counting the leaves.
func everyKeyword(leaf func(n int) *jsonschema.Schema) (*jsonschema.Schema, int) {
	n := 0
	var node func(depth int) *jsonschema.Schema
	node = func(depth int) *jsonschema.Schema {
		if depth == 2 {
			n++
			return leaf(n)
		}
		s := &jsonschema.Schema{Type: "object", Description: fmt.Sprintf("inner-%d", depth)}
		s.Properties = jsonschema.NewProperties()
		s.Properties.Set("p1", node(depth+1))
		s.Properties.Set("p0", node(depth+1))
		s.Definitions = jsonschema.Definitions{"d": node(depth + 1)}
		s.AllOf = []*jsonschema.Schema{node(depth + 1), node(depth + 1)}
		s.AnyOf = []*jsonschema.Schema{node(depth + 1)}
		s.OneOf = []*jsonschema.Schema{node(depth + 1)}
		s.Not, s.If, s.Then, s.Else = node(depth+1), node(depth+1), node(depth+1), node(depth+1)
		s.DependentSchemas = map[string]*jsonschema.Schema{"b": node(depth + 1), "a": node(depth + 1)}
		s.PrefixItems = []*jsonschema.Schema{node(depth + 1)}
		s.Items, s.Contains = node(depth+1), node(depth+1)
		s.PatternProperties = map[string]*jsonschema.Schema{"^x": node(depth + 1)}
		s.AdditionalProperties, s.PropertyNames, s.ContentSchema = node(depth+1), node(depth+1), node(depth+1)
		s.Extras = map[string]any{"unevaluatedItems": node(depth + 1), "unevaluatedProperties": node(depth + 1), "x-note": "kept"}
		return s
	}
	return node(0), n
}

func marked(n int) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Description: fmt.Sprintf("leaf-%d.", n)}
}

// nodes lists every node below s by reflection over jsonschema.Schema's
// fields: independent of the keyword table.
func nodes(s *jsonschema.Schema) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s}
	var sub func(v reflect.Value)
	sub = func(v reflect.Value) {
		switch {
		case v.Type() == schemaPtrType:
			if !v.IsNil() {
				out = append(out, nodes(v.Interface().(*jsonschema.Schema))...)
			}
		case v.Kind() == reflect.Slice || v.Kind() == reflect.Map:
			it := v.MapRange
			if v.Kind() == reflect.Slice {
				for i := range v.Len() {
					sub(v.Index(i))
				}
				return
			}
			for r := it(); r.Next(); {
				sub(r.Value())
			}
		case v.Kind() == reflect.Interface && !v.IsNil():
			sub(v.Elem())
		}
	}
	v := reflect.ValueOf(s).Elem()
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.IsExported() && f.Name != "Properties" {
			sub(v.Field(i))
		}
	}
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			out = append(out, nodes(p.Value)...)
		}
	}
	return out
}

func TestEveryWalkReachesEveryNode(t *testing.T) {
	tree, leaves := everyKeyword(marked)
	all := nodes(tree)
	const slots = 22 // subschemas each inner node holds
	if want := 1 + slots + slots*slots; len(all) != want || leaves != slots*slots {
		t.Fatalf("the tree has %d nodes and %d leaves, want %d and %d", len(all), leaves, want, slots*slots)
	}
	countLeaves := func(walk, text string) {
		t.Helper()
		for i := 1; i <= leaves; i++ {
			if c := strings.Count(text, fmt.Sprintf("leaf-%d.", i)); c != 1 {
				t.Fatalf("%s: leaf %d appears %d times", walk, i, c)
			}
		}
	}

	// The writer: every node, byte for byte as invopop/jsonschema.
	got, err := marshalSchema(tree)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(tree)
	if string(got) != string(want) {
		t.Fatalf("writer:\n got %s\nwant %s", got, want)
	}
	countLeaves("writer", string(got))

	// The Go-literal emitter.
	lit, err := schemaLiteral(tree)
	if err != nil {
		t.Fatal(err)
	}
	countLeaves("literal", lit)
	for _, k := range keywords {
		name := k.field + ": "
		if k.kind == slotExtra {
			name = fmt.Sprintf("%q: ", k.name)
		}
		if k.kind != slotProps && !strings.Contains(lit, name) {
			t.Errorf("literal: no %s", name)
		}
	}

	// clone: every node copied, none shared.
	c := cloneSchema(tree)
	if raw, _ := json.Marshal(c); string(raw) != string(want) {
		t.Fatalf("clone differs:\n got %s\nwant %s", raw, want)
	}
	orig := map[*jsonschema.Schema]bool{}
	for _, n := range all {
		orig[n] = true
	}
	copied := nodes(c)
	if len(copied) != len(all) {
		t.Fatalf("clone has %d nodes, want %d", len(copied), len(all))
	}
	for _, n := range copied {
		if orig[n] {
			t.Fatalf("clone shares node %s", n.Description)
		}
	}

	// tidy: every empty leaf is made to marshal as {} rather than true.
	empty, _ := everyKeyword(func(int) *jsonschema.Schema { return &jsonschema.Schema{} })
	tidy(empty)
	raw, _ := json.Marshal(empty)
	if strings.Contains(string(raw), "true") {
		t.Fatalf("tidy missed an empty leaf: %s", raw)
	}
	if c := strings.Count(string(raw), "{}"); c != leaves {
		t.Fatalf("tidy: %d empty leaves written {}, want %d", c, leaves)
	}

	// children visits every node once.
	seen := map[*jsonschema.Schema]int{}
	var visit func(*jsonschema.Schema)
	visit = func(s *jsonschema.Schema) {
		seen[s]++
		children(s, func(_ edge, x *jsonschema.Schema) { visit(x) })
	}
	visit(tree)
	if len(seen) != len(all) {
		t.Fatalf("children reached %d nodes, want %d", len(seen), len(all))
	}
}

// A boolean schema below any keyword, at any depth, is reported with its
// path; additionalProperties: false is allowed.
func TestNoBooleanSchemasEveryKeyword(t *testing.T) {
	for kw := range numKeywords {
		tree, _ := everyKeyword(marked)
		// Replace the first child of kw below the root's first child of kw.
		var path string
		eachIn(tree, kw, true, func(c edge, x *jsonschema.Schema) bool {
			eachIn(x, kw, true, func(c2 edge, y *jsonschema.Schema) bool {
				*y = *jsonschema.TrueSchema
				path = "#" + c.path() + c2.path()
				return false
			})
			return false
		})
		err := noBooleanSchemas(tree)
		if err == nil || !strings.Contains(err.Error(), "boolean schema at "+path+":") {
			t.Errorf("%s: got %v, want the path %s", keywords[kw].name, err, path)
		}
	}
	s := &jsonschema.Schema{Type: "object", AdditionalProperties: jsonschema.FalseSchema}
	if err := noBooleanSchemas(s); err != nil {
		t.Error(err)
	}
}

// The compile check sends every keyword the typed decoders do not check to
// the full validator.
func TestHasUncompiledEveryKeyword(t *testing.T) {
	for kw := range numKeywords {
		s := &jsonschema.Schema{}
		leaf := &jsonschema.Schema{Type: "string"}
		switch k := keywords[kw]; k.kind {
		case slotOne:
			*k.one(s) = leaf
		case slotList:
			*k.list(s) = []*jsonschema.Schema{leaf}
		case slotDict:
			*k.dict(s) = map[string]*jsonschema.Schema{"a": leaf}
		case slotProps:
			s.Properties = jsonschema.NewProperties()
			s.Properties.Set("a", leaf)
		case slotExtra:
			s.Extras = map[string]any{k.name: leaf}
		}
		if got := hasUncompiled(s); got == keywords[kw].compiled {
			t.Errorf("%s: hasUncompiled = %v", keywords[kw].name, got)
		}
	}
	for _, name := range []string{"allOf", "anyOf", "oneOf", "not", "if", "contains", "prefixItems", "patternProperties", "dependentSchemas", "unevaluatedItems", "unevaluatedProperties"} {
		for _, k := range keywords {
			if k.name == name && k.compiled {
				t.Errorf("%s must be checked by the full validator", name)
			}
		}
	}
}

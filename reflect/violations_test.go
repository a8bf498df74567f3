package mcpreflect

import (
	"testing"

	"github.com/invopop/jsonschema"
)

// Issue 14 §2: every bad item and field of a nested array is named, and
// uniqueItems compares the JSON values of the items of the right type only.

type polygonArgs struct {
	Polygon [][2]float64 `json:"polygon"`
}

func TestNestedArrayViolations(t *testing.T) {
	_, err := decodeInto[polygonArgs](t, `{"polygon":[[null,null,[1]],[1,2],["x",3,4,"y"]]}`)
	wantViolations(t, err,
		Violation{Path: "polygon[0]", Rule: "maxItems", Msg: "must have exactly 2 items, got 3"},
		Violation{Path: "polygon[0][0]", Rule: "type", Msg: "must be a number, got null"},
		Violation{Path: "polygon[0][1]", Rule: "type", Msg: "must be a number, got null"},
		Violation{Path: "polygon[0][2]", Rule: "type", Msg: "must be a number, got array"},
		Violation{Path: "polygon[2]", Rule: "maxItems", Msg: "must have exactly 2 items, got 4"},
		Violation{Path: "polygon[2][0]", Rule: "type", Msg: "must be a number, got string"},
		Violation{Path: "polygon[2][3]", Rule: "type", Msg: "must be a number, got string"},
	)
	p, err := PlanFor(tf[polygonArgs](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The reference validator finds the same seven.
	s := compileSchema(t, "polygon", p.SchemaJSON)
	v := judge(t, p, s, []byte(`{"polygon":[[null,null,[1]],[1,2],["x",3,4,"y"]]}`))
	if v.schemaErr == nil {
		t.Fatal("the reference validator accepts it")
	}
}

type uniqueArgs struct {
	Names  []string   `json:"names,omitempty" jsonschema:"uniqueItems"`
	Nums   []float64  `json:"nums,omitempty" jsonschema:"uniqueItems"`
	Ints   []int      `json:"ints,omitempty" jsonschema:"uniqueItems"`
	Points []ZooPoint `json:"points,omitempty" jsonschema:"uniqueItems"`
}

func TestUniqueItemsComparesJSONValues(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want []Violation
	}{
		{`{"names":[3,4]}`, []Violation{
			{Path: "names[0]", Rule: "type", Msg: "must be a string, got number"},
			{Path: "names[1]", Rule: "type", Msg: "must be a string, got number"}}},
		{`{"names":[true,false]}`, []Violation{
			{Path: "names[0]", Rule: "type", Msg: "must be a string, got boolean"},
			{Path: "names[1]", Rule: "type", Msg: "must be a string, got boolean"}}},
		{`{"names":[{"a":1},{"b":2}]}`, []Violation{
			{Path: "names[0]", Rule: "type", Msg: "must be a string, got object"},
			{Path: "names[1]", Rule: "type", Msg: "must be a string, got object"}}},
		{`{"names":["a",1,"a"]}`, []Violation{
			{Path: "names", Rule: "uniqueItems", Msg: "items must be unique, but items 0 and 2 are equal"},
			{Path: "names[1]", Rule: "type", Msg: "must be a string, got number"}}},
		{`{"names":["\u0061","a"]}`, []Violation{
			{Path: "names", Rule: "uniqueItems", Msg: "items must be unique, but items 0 and 1 are equal"}}},
		{`{"nums":[1,1.0]}`, []Violation{
			{Path: "nums", Rule: "uniqueItems", Msg: "items must be unique, but items 0 and 1 are equal"}}},
		{`{"nums":[0,-0]}`, []Violation{
			{Path: "nums", Rule: "uniqueItems", Msg: "items must be unique, but items 0 and 1 are equal"}}},
		{`{"ints":[100,1e2]}`, []Violation{
			{Path: "ints", Rule: "uniqueItems", Msg: "items must be unique, but items 0 and 1 are equal"}}},
		{`{"points":[{"x":1,"y":2},{"y":2,"x":1}]}`, []Violation{
			{Path: "points", Rule: "uniqueItems", Msg: "items must be unique, but items 0 and 1 are equal"}}},
		// Items of the right type with their own violations still count.
		{`{"points":[{"x":1},{"x":1}]}`, []Violation{
			{Path: "points", Rule: "uniqueItems", Msg: "items must be unique, but items 0 and 1 are equal"},
			{Path: "points[0].y", Rule: "required", Msg: "is required but missing"},
			{Path: "points[1].y", Rule: "required", Msg: "is required but missing"}}},
	} {
		_, err := decodeInto[uniqueArgs](t, c.doc)
		wantViolations(t, err, c.want...)
	}
	// Different JSON values are unique, even where the Go values are not.
	for _, doc := range []string{`{"nums":[1,1.0000000000000000001]}`, `{"points":[{"x":1,"y":2},{"x":2,"y":1}]}`, `{"names":["a","A"]}`} {
		if _, err := decodeInto[uniqueArgs](t, doc); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
	}
	// The reference validator agrees on each verdict.
	p, err := PlanFor(tf[uniqueArgs](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := compileSchema(t, "unique", p.SchemaJSON)
	for _, doc := range []string{`{"names":[3,4]}`, `{"nums":[1,1.0]}`, `{"nums":[1,1.0000000000000000001]}`, `{"points":[{"x":1,"y":2},{"y":2,"x":1}]}`, `{"ints":[100,1e2]}`} {
		v := judge(t, p, s, []byte(doc))
		if (v.schemaErr == nil) != (v.decodeErr == nil) {
			t.Errorf("%s: reference %v, Decode %v", doc, v.schemaErr, v.decodeErr)
		}
	}
}

// extendedArgs has a keyword only the full validator checks (minProperties
// on a struct) beside fields the typed decoder checks.
type extendedArgs struct {
	N int    `json:"n,omitempty"`
	S string `json:"s,omitempty"`
}

func (extendedArgs) JSONSchemaExtend(s *jsonschema.Schema) {
	two := uint64(2)
	s.MinProperties = &two
}

// Both kinds of violation are named at once, each once.
func TestTypedAndGenericViolations(t *testing.T) {
	_, err := decodeInto[extendedArgs](t, `{"n":"x"}`)
	wantViolations(t, err,
		Violation{Path: "", Rule: "minProperties", Msg: "got 1, want 2"},
		Violation{Path: "n", Rule: "type", Msg: "must be an integer, got string"})
}

package mcpreflect

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"reflect"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

type nilInner struct {
	Tags []string `json:"tags"`
}

// nilResult has every kind of field that can be nil.
type nilResult struct {
	Tags    []string            `json:"tags"`
	Attrs   map[string]string   `json:"attrs"`
	Matrix  [][]int             `json:"matrix"`
	ByKey   map[string][]int    `json:"byKey"`
	Inner   nilInner            `json:"inner"`
	Inners  []nilInner          `json:"inners"`
	Raw     []byte              `json:"raw"`
	Addrs   []netip.Addr        `json:"addrs"`
	Parent  *nilInner           `json:"parent"`
	Any     any                 `json:"any"`
	Message json.RawMessage     `json:"message"`
	Own     ownSlice            `json:"own"`
	Skipped []string            `json:"skipped,omitempty"`
	Nested  map[string]nilInner `json:"nested"`
}

// ownSlice marshals itself: a nil one is what its MarshalJSON says.
type ownSlice []int

func (s ownSlice) MarshalJSON() ([]byte, error) {
	if s == nil {
		return []byte("null"), nil
	}
	return json.Marshal([]int(s))
}

// TestNilSlicesInResults checks that a result's nil slices and maps, at any
// depth, are sent as [] and {}, so that its output schema says "array" and
// "object" and not ["array", "null"] (which some clients reject), and that
// every value sent is valid against the published schema. Only what can
// really be null stays nullable: pointers (a type that marshals itself has
// the schema it gives). A value without nil slices or maps is encoded as
// encoding/json encodes it.
func TestNilSlicesInResults(t *testing.T) {
	out, err := OutputFor(reflect.TypeFor[nilResult](), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(out.SchemaJSON, &schema); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]any{
		"tags": "array", "attrs": "object", "matrix": "array", "byKey": "object", "inners": "array",
		"raw": "string", "addrs": "array", "nested": "object",
		"parent": []any{"object", "null"}, "own": nil,
	} {
		if got := schema.Properties[name].Type; !reflect.DeepEqual(got, want) {
			t.Errorf("output schema of %s: type %v, want %v", name, got, want)
		}
	}
	if strings.Count(string(out.SchemaJSON), `"null"`) != 1 {
		t.Errorf("only parent may be null: %s", out.SchemaJSON)
	}

	s := compileSchema(t, "nil-result", out.SchemaJSON)
	for _, v := range []nilResult{
		{},
		{Matrix: [][]int{nil, {1}}, ByKey: map[string][]int{"a": nil}, Inners: []nilInner{{}},
			Nested: map[string]nilInner{"x": {}}, Parent: &nilInner{}, Raw: []byte{}, Skipped: []string{}},
	} {
		res, err := out.Result(v)
		if err != nil {
			t.Fatal(err)
		}
		raw := res.StructuredContent.(json.RawMessage)
		doc, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(doc); err != nil {
			t.Errorf("%s does not fit the published schema: %v", raw, err)
		}
		for _, nullable := range []string{`"parent":null`, `"own":null`, `"any":null`, `"message":null`} {
			raw = bytes.Replace(raw, []byte(nullable), nil, 1)
		}
		if bytes.Contains(raw, []byte("null")) {
			t.Errorf("a nil slice or map sent as null: %s", res.StructuredContent)
		}
	}

	full := nilResult{Tags: []string{"<a&b>"}, Attrs: map[string]string{"z": "1", "a": "2"}, Matrix: [][]int{{1}},
		ByKey: map[string][]int{"k": {}}, Inner: nilInner{Tags: []string{}}, Inners: []nilInner{{Tags: []string{"x"}}},
		Raw: []byte("raw"), Addrs: []netip.Addr{netip.MustParseAddr("::1")}, Parent: &nilInner{Tags: []string{}},
		Any: 1.5, Message: json.RawMessage(`{"b":1,"a":[]}`), Own: ownSlice{}, Skipped: []string{"s"},
		Nested: map[string]nilInner{"n": {Tags: []string{}}}}
	res, err := out.Result(full)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(full)
	if got := res.StructuredContent.(json.RawMessage); !bytes.Equal(got, want) {
		t.Errorf("encoded\n%s\nencoding/json gives\n%s", got, want)
	}
}

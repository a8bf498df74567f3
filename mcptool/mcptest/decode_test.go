package mcptest_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// Note is a result element of the decode tests.
type Note struct {
	ID   int    `json:"id"`
	Text string `json:"text"`
}

// Notes is an object whose one field is named result, as mcpgen's wrapper is.
type Notes struct {
	Result []Note `json:"result"`
}

// decodeCase registers one tool returning want and checks that Decode gives
// it back in a value of the same Go type.
func decodeCase[Out any](name string, want Out) (func(*mcptool.Registry), func(*testing.T, *mcptest.Conn)) {
	return func(reg *mcptool.Registry) {
			mcptool.Add(reg, name, func(context.Context, struct{}) (Out, error) { return want, nil })
		}, func(t *testing.T, c *mcptest.Conn) {
			t.Helper()
			var got Out
			c.Call(name, nil).Decode(&got)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: Decode gave %#v, want %#v", name, got, want)
			}
		}
}

// TestDecodeWrapped decodes every result shape mcpgen sends as
// {"result": value} into the tool's own result type, on both eras, and
// checks that types holding the wrapper object still get it.
func TestDecodeWrapped(t *testing.T) {
	when := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	type label string
	cases := [][2]any{}
	add := func(reg func(*mcptool.Registry), check func(*testing.T, *mcptest.Conn)) {
		cases = append(cases, [2]any{reg, check})
	}
	add(decodeCase("notes", []Note{{1, "a"}, {2, "b"}}))
	add(decodeCase("empty_notes", []Note{}))
	add(decodeCase("pointer_notes", &[]Note{{3, "c"}}))
	add(decodeCase("strings", []string{"x", "y"}))
	add(decodeCase("labels", []label{"x"}))
	add(decodeCase("array", [3]int{1, 2, 3}))
	add(decodeCase("matrix", [][]float64{{1.5}, {}}))
	add(decodeCase("int", 42))
	add(decodeCase("uint8", uint8(7)))
	add(decodeCase("float", 2.5))
	add(decodeCase("bool", true))
	add(decodeCase("pointer_int", new(9)))
	add(decodeCase("time", when))
	add(decodeCase("bytes", []byte("raw")))
	add(decodeCase("maps", []map[string]int{{"a": 1}}))
	// Not wrapped: an object, and a struct whose one field is "result".
	add(decodeCase("note", Note{4, "d"}))
	add(decodeCase("by_id", map[string]Note{"5": {5, "e"}}))
	add(decodeCase("wrapper_lookalike", Notes{Result: []Note{{6, "f"}}}))

	reg := mcptool.NewRegistry()
	for _, c := range cases {
		c[0].(func(*mcptool.Registry))(reg)
	}
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			c := mcptest.Client(t, reg, mcptest.Version(version))
			for _, tc := range cases {
				tc[1].(func(*testing.T, *mcptest.Conn))(t, c)
			}

			// A type that holds the wrapper object gets it, as before.
			var w Notes
			c.Call("notes", nil).Decode(&w)
			if len(w.Result) != 2 || w.Result[1].Text != "b" {
				t.Errorf("Decode into a struct with a result field: %+v", w)
			}
			var m map[string]any
			c.Call("int", nil).Decode(&m)
			if m["result"] != 42.0 {
				t.Errorf("Decode into a map: %v, want the wrapper object", m)
			}
		})
	}
}

package wire

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		in   string
		want any
		ok   bool
	}{
		{`{"name":"c","version":"1"}`, map[string]any{"name": "c", "version": "1"}, true},
		{`{}`, map[string]any{}, true},
		{`[]`, []any{}, true},
		{` [1, -2.5e3, true, false, null, "x"] `, []any{1.0, -2500.0, true, false, nil, "x"}, true},
		{`{"a":1,"a":{"b":[{}]}}`, map[string]any{"a": map[string]any{"b": []any{map[string]any{}}}}, true},
		{`"\u00e9\"\\"`, "é\"\\", true},
		{"\"\xff\"", "\ufffd", true},
		{`{"\u0069d":7}`, map[string]any{"id": 7.0}, true},
		{`1e400`, nil, false}, // encoding/json: out of range
		{`{"a":1`, nil, false},
		{`[1 2]`, nil, false},
		{`tru`, nil, false},
		{`1 2`, nil, false},
	} {
		got, ok := DecodeAny([]byte(c.in))
		if ok != c.ok || (ok && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("DecodeAny(%s) = %#v, %v; want %#v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestMessageDecoded: a message's id and params' _meta, as encoding/json
// decodes them (each _meta of params decoded into the same map).
func TestMessageDecoded(t *testing.T) {
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"m"}`,
		`{"jsonrpc":"2.0","id":"a","method":"m","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"m","params":{"_meta":null}}`,
		`{"jsonrpc":"2.0","id":3,"method":"m","params":{"x":1,"_meta":{"a":"b","c":[1,{"d":null}]}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"m","params":{"_meta":{"a":1,"b":2},"_meta":{"a":3}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"m","params":{"_meta":null,"_meta":{"a":3}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"m","params":{"_meta":1}}`,
		`{"jsonrpc":"2.0","id":7,"method":"m","params":{"_meta":{"a":1},"_meta":[]}}`,
	} {
		b, err := Scan([]byte(body), Limits{})
		if err != nil {
			t.Fatalf("Scan(%s): %v", body, err)
		}
		id, meta, ok := b.Messages[0].Decoded()
		var want struct {
			ID     any
			Params struct {
				Meta map[string]any `json:"_meta"`
			}
		}
		werr := json.Unmarshal([]byte(body), &want)
		if ok != (werr == nil) || ok && (!reflect.DeepEqual(id, want.ID) || !reflect.DeepEqual(meta, want.Params.Meta)) {
			t.Errorf("Decoded(%s) = %#v, %#v, %v; encoding/json: %#v, %#v, %v", body, id, meta, ok, want.ID, want.Params.Meta, werr)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		typicalCall, `[]`, `{"a":[[[[]]]]}`, `{"k":-0.5E-3,"k":"\ud834\udd1e"}`, "\"\xff\"", `1e400`, `-0`, ` null `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if !json.Valid(v) {
			return // Decode takes what Scan validated
		}
		var want any
		werr := json.Unmarshal(v, &want)
		got, ok := DecodeAny(v)
		if ok != (werr == nil) {
			t.Fatalf("DecodeAny(%q): ok %v; encoding/json: %v", v, ok, werr)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Fatalf("DecodeAny(%q) = %#v; encoding/json: %#v", v, got, want)
		}
	})
}

// BenchmarkDecode decodes what the HTTP path decodes with it (a message's
// _meta members and id), in a whole typical tools/call, and values made
// of arrays.
func BenchmarkDecode(b *testing.B) {
	for _, c := range []struct{ name, v string }{
		{"call", typicalCall},
		{"arrays", `[[1,2,3],["a","b"],[{"k":[true,false,null]}],[],[-0.5e3,7]]`},
	} {
		b.Run(c.name, func(b *testing.B) {
			v := []byte(c.v)
			b.ReportAllocs()
			b.SetBytes(int64(len(v)))
			for b.Loop() {
				if _, ok := DecodeAny(v); !ok {
					b.Fatal("not decoded")
				}
			}
		})
	}
}

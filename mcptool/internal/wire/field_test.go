package wire

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestField(t *testing.T) {
	const msg = ` {"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"task":"not this one","s":"a\"}b"},"task":{"ttl":5}}} `
	for _, tc := range []struct {
		name string
		obj  string
		path []string
		want string // "" when not found
	}{
		{"top", msg, []string{"method"}, `"tools/call"`},
		{"nested, past a nested namesake", msg, []string{"params", "task"}, `{"ttl":5}`},
		{"past an escaped quote", msg, []string{"params", "arguments", "s"}, `"a\"}b"`},
		{"absent", msg, []string{"params", "query"}, ""},
		{"not an object on the way", msg, []string{"method", "x"}, ""},
		{"escaped key", `{"met\u0068od":"ping"}`, []string{"method"}, `"ping"`},
		{"first of repeated keys", `{"method":"a","method":"b"}`, []string{"method"}, `"a"`},
		{"scalars and space", `{ "a" : [ 1 , -2.5e3 , true , null ] , "b" : false }`, []string{"b"}, `false`},
		{"not an object", `[{"method":"x"}]`, []string{"method"}, ""},
		{"broken key", `{"a" 1,"method":"x"}`, []string{"method"}, ""},
		{"missing value", `{"a":,"method":"x"}`, []string{"method"}, ""},
		{"unclosed string", `{"method":"x`, []string{"method"}, ""},
		{"unclosed object", `{"method":{"a":1`, []string{"method"}, ""},
		{"stray closer", `{"a":],"method":"x"}`, []string{"method"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Field([]byte(tc.obj), tc.path...)
			if tc.want == "" {
				if ok {
					t.Errorf("found %s", got)
				}
				return
			}
			if !ok || string(got) != tc.want {
				t.Errorf("got %s, %v; want %s", got, ok, tc.want)
			}
		})
	}
}

// Field passes over what it does not look for without allocating, as
// sdkpatch.LiftParam needs of every message a transport reads.
func TestFieldAllocatesNothing(t *testing.T) {
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,2,{"b":"c"}]},"_meta":{"k":1}}}`)
	if n := testing.AllocsPerRun(100, func() { Field(msg, "params", "task") }); n != 0 {
		t.Errorf("%v allocations, want 0", n)
	}
}

func TestMembers(t *testing.T) {
	var got []string
	ok := Members([]byte(`{"a":1,"b\u0021":{"c":[2]},"d":"x","e":null}`), func(k []byte, v json.RawMessage) bool {
		got = append(got, string(k)+"="+string(v))
		return string(k) != "d"
	})
	if want := `a=1 b!={"c":[2]} d="x"`; !ok || strings.Join(got, " ") != want {
		t.Errorf("got %q, %v; want %q (stopping after d)", got, ok, want)
	}
	for _, bad := range []string{``, `[]`, `"x"`, `{"a":1,}`, `{"a":1`} {
		if Members([]byte(bad), func([]byte, json.RawMessage) bool { return true }) {
			t.Errorf("%q: reported an object", bad)
		}
	}
	if !Members([]byte(` {} `), func([]byte, json.RawMessage) bool { t.Error("called for {}"); return true }) {
		t.Error("{}: not an object")
	}
}

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		`"plain"`:        "plain",
		`"a\"b\u00e9\n"`: "a\"bé\n",
		`"é"`:            "é",
		`""`:             "",
	} {
		if got, ok := Text([]byte(in)); !ok || got != want {
			t.Errorf("Text(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, in := range []string{`1`, `null`, `"`, ``, `{"a":"b"}`} {
		if got, ok := Text([]byte(in)); ok {
			t.Errorf("Text(%s) = %q, want not a string", in, got)
		}
	}
}

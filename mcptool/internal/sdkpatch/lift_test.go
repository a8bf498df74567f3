package sdkpatch

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestLiftParam(t *testing.T) {
	const key = "io.mcpgen/task-param"
	for _, tc := range []struct {
		name, in string
		want     string // the params after; "" when msg comes back as it is
	}{
		{"lifted", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{"ttl":5}}}`,
			`{"_meta":{"io.mcpgen/task-param":{"ttl":5}},"name":"t"}`},
		{"beside _meta", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{},"_meta":{"k":1}}}`,
			`{"_meta":{"io.mcpgen/task-param":{},"k":1},"name":"t"}`},
		{"_meta null", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{},"_meta":null}}`,
			`{"_meta":{"io.mcpgen/task-param":{}},"name":"t"}`},
		{"_meta not an object", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","task":{},"_meta":[1]}}`, ""},
		{"other method", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"task":{}}}`, ""},
		{"method last", `{"jsonrpc":"2.0","id":1,"params":{"name":"t","task":{"ttl":5}},"method":"tools/call"}`,
			`{"_meta":{"io.mcpgen/task-param":{"ttl":5}},"name":"t"}`},
		{"method escaped", `{"jsonrpc":"2.0","id":1,"method":"tools\/call","params":{"name":"t","task":{"ttl":5}}}`,
			`{"_meta":{"io.mcpgen/task-param":{"ttl":5}},"name":"t"}`},
		{"method not a string", `{"jsonrpc":"2.0","id":1,"method":1,"params":{"name":"t","task":{}}}`, ""},
		{"no method", `{"jsonrpc":"2.0","id":1,"result":{"task":{}}}`, ""},
		{"no param", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`, ""},
		{"not JSON", `{"params":{"task":{}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := LiftParam([]byte(tc.in), "tools/call", "task", key)
			if tc.want == "" {
				if string(out) != tc.in {
					t.Errorf("changed to %s", out)
				}
				return
			}
			var got struct {
				ID     json.RawMessage `json:"id"`
				Params json.RawMessage `json:"params"`
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if string(got.Params) != tc.want || string(got.ID) != "1" {
				t.Errorf("params %s id %s, want %s id 1", got.Params, got.ID, tc.want)
			}
			// What the middleware reads: go-sdk's decoding keeps it in Meta.
			m, err := jsonrpc.DecodeMessage(out)
			if err != nil {
				t.Fatal(err)
			}
			var p mcp.CallToolParamsRaw
			if err := json.Unmarshal(m.(*jsonrpc.Request).Params, &p); err != nil {
				t.Fatal(err)
			}
			if _, ok := p.Meta[key]; !ok {
				t.Errorf("go-sdk's decoding lost %s: %v", key, p.Meta)
			}
		})
	}
}

// A message without the param (nearly every one) costs a scan only, and a
// message of another method never reads its params: a tools/call whose
// arguments hold a "query" is not scanned for tools/list's.
func TestLiftParamAllocatesNothingWithoutTheParam(t *testing.T) {
	msg := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,2,3]},"_meta":{"k":1}}}`)
	if n := testing.AllocsPerRun(100, func() { LiftParam(msg, "tools/call", "task", "k") }); n != 0 {
		t.Errorf("%v allocations per message without the param, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { LiftParam(msg, "tools/list", "query", "k") }); n != 0 {
		t.Errorf("%v allocations per message of another method, want 0", n)
	}
	// A params.query that is not tools/list's stays where it is.
	other := []byte(`{"jsonrpc":"2.0","id":1,"method":"resources/list","params":{"query":"x"}}`)
	if out := LiftParam(other, "tools/list", "query", "k"); string(out) != string(other) {
		t.Errorf("changed to %s", out)
	}
}

func TestSetMetaDropMeta(t *testing.T) {
	params := map[string]json.RawMessage{"_meta": json.RawMessage(`{"a":1,"b":2}`)}
	DropMeta(params, "a")
	if got := string(params["_meta"]); got != `{"b":2}` {
		t.Errorf("DropMeta: %s", got)
	}
	DropMeta(params, "zz")
	if got := string(params["_meta"]); got != `{"b":2}` {
		t.Errorf("DropMeta of an absent key: %s", got)
	}
	if !SetMeta(params, "c", json.RawMessage(`[3]`)) || string(params["_meta"]) != `{"b":2,"c":[3]}` {
		t.Errorf("SetMeta: %s", params["_meta"])
	}
	empty := map[string]json.RawMessage{}
	DropMeta(empty, "a")
	if _, ok := empty["_meta"]; ok {
		t.Error("DropMeta added _meta")
	}
	bad := map[string]json.RawMessage{"_meta": json.RawMessage(`"x"`)}
	if SetMeta(bad, "c", json.RawMessage(`1`)) || string(bad["_meta"]) != `"x"` {
		t.Errorf("SetMeta on a string _meta: %s", bad["_meta"])
	}
}

func BenchmarkLiftParam(b *testing.B) {
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"rows":[` +
		strings.Repeat(`{"id":1,"text":"some text"},`, 4000) + `{}]}}}`
	for _, bc := range []struct{ name, msg, method, param string }{
		{"without", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,2,3],"b":"some text"},"_meta":{"progressToken":7}}}`, "tools/call", "task"},
		{"with", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":[1,2,3],"b":"some text"},"task":{"ttl":60000}}}`, "tools/call", "task"},
		// What StdioTransport's lift of tools/list's query costs a large tools/call.
		{"other method, 100 KB", big, "tools/list", "query"},
	} {
		msg := []byte(bc.msg)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(msg)))
			for b.Loop() {
				LiftParam(msg, bc.method, bc.param, "io.mcpgen/task-param")
			}
		})
	}
}

package sdkpatch

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// jsonNames returns the JSON member names of struct type t, embedded
// structs' included.
func jsonNames(t reflect.Type) []string {
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			names = append(names, jsonNames(f.Type)...)
		case name == "":
			names = append(names, f.Name)
		default:
			names = append(names, name)
		}
	}
	return names
}

// Pins what WithCapability and WithToolField add: go-sdk v1.8.0 has no
// field for capabilities.tasks or a tool's execution, and drops them.
func TestGoSDKLacksResultFields(t *testing.T) {
	for _, tc := range []struct {
		into   any
		member string
		json   string
	}{
		{&mcp.ServerCapabilities{}, "tasks", `{"tasks":{"cancel":{}},"tools":{}}`},
		{&mcp.Tool{}, "execution", `{"name":"t","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}`},
	} {
		typ := reflect.TypeOf(tc.into).Elem()
		for _, name := range jsonNames(typ) {
			if strings.EqualFold(name, tc.member) {
				t.Errorf("go-sdk's %s has %q now: the patch that adds it can go", typ, name)
			}
		}
		if err := json.Unmarshal([]byte(tc.json), tc.into); err != nil {
			t.Fatal(err)
		}
		out, err := json.Marshal(tc.into)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), `"`+tc.member+`"`) {
			t.Errorf("go-sdk's %s keeps %q now (%s): the patch that adds it can go", typ, tc.member, out)
		}
	}
}

// Pins what both rely on: a result a receiving middleware returns in place
// of go-sdk's for initialize and tools/list goes out marshalled as it is,
// and the session goes on.
func TestGoSDKSendsMiddlewareResults(t *testing.T) {
	newServer := func(patch bool) *mcp.Server {
		srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
		for _, name := range []string{"a", "b"} {
			srv.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}, placeholder)
		}
		if patch {
			srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
				return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
					res, err := next(ctx, method, req)
					switch r := res.(type) {
					case *mcp.InitializeResult:
						return WithCapability(r, "tasks", json.RawMessage(`{"cancel":{}}`)), err
					case *mcp.ListToolsResult:
						return WithToolField(r, "execution", map[string]json.RawMessage{"a": json.RawMessage(`{"taskSupport":"optional"}`)}), err
					}
					return res, err
				}
			})
		}
		return srv
	}
	for _, version := range []string{"2025-06-18", "2025-11-25"} {
		t.Run(version, func(t *testing.T) {
			plain, patched := connect(t, newServer(false)), connect(t, newServer(true))
			want := members(t, decode(t, plain.initialize(version)).Result)
			got := members(t, decode(t, patched.initialize(version)).Result)
			wantCaps, gotCaps := members(t, want["capabilities"]), members(t, got["capabilities"])
			if string(gotCaps["tasks"]) != `{"cancel":{}}` {
				t.Errorf("capabilities.tasks on the wire: %s", got["capabilities"])
			}
			delete(gotCaps, "tasks")
			delete(got, "capabilities")
			delete(want, "capabilities")
			same(t, "initialize", got, want)
			same(t, "capabilities", gotCaps, wantCaps)

			want = members(t, decode(t, plain.call("list", "tools/list", `{}`)).Result)
			got = members(t, decode(t, patched.call("list", "tools/list", `{}`)).Result)
			var wantTools, gotTools []map[string]json.RawMessage
			if json.Unmarshal(want["tools"], &wantTools) != nil || json.Unmarshal(got["tools"], &gotTools) != nil || len(gotTools) != 2 || len(wantTools) != 2 {
				t.Fatalf("tools: %s, want the two of %s", got["tools"], want["tools"])
			}
			if string(gotTools[0]["execution"]) != `{"taskSupport":"optional"}` {
				t.Errorf("tool a on the wire: %v", gotTools[0])
			}
			delete(gotTools[0], "execution")
			delete(got, "tools")
			delete(want, "tools")
			same(t, "tools/list", got, want)
			for i := range gotTools {
				same(t, "tool", gotTools[i], wantTools[i])
			}
			if r := decode(t, patched.call("ping", "ping", `{}`)); r.Error != nil {
				t.Errorf("ping after a patched initialize: %+v", r.Error)
			}
		})
	}
}

func members(t *testing.T, raw json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return m
}

func same(t *testing.T, what string, got, want map[string]json.RawMessage) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s: %s, want go-sdk's own %s", what, g, w)
	}
}

func TestWithToolFieldReplaces(t *testing.T) {
	res := &mcp.ListToolsResult{Tools: []*mcp.Tool{{Name: "a", InputSchema: json.RawMessage(`{}`), Meta: mcp.Meta{"execution": 1}}}}
	if WithToolField(res, "execution", nil) != mcp.Result(res) {
		t.Error("WithToolField without values did not return res")
	}
	b, err := json.Marshal(WithToolField(res, "_meta", map[string]json.RawMessage{"a": json.RawMessage(`{"k":2}`)}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"_meta":{"k":2}`) || strings.Count(string(b), `"_meta"`) != 1 {
		t.Errorf("%s: want the tool's _meta replaced", b)
	}
}

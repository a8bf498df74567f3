package bench

// The comparison is fair only if every stack does the same work: these tests
// check that each one validates (rejects every invalid argument set of the
// contract in stacks_test.go), applies the default, and returns the same
// result, on the handler path and end to end.

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	mgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// outcome is what a client can see of a result.
type outcome struct {
	isError    bool
	text       string
	structured any // structuredContent, decoded
}

func fromSDK(tb testing.TB, res *mcp.CallToolResult) outcome {
	tb.Helper()
	o := outcome{isError: res.IsError}
	if len(res.Content) == 1 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			o.text = tc.Text
		}
	}
	if res.StructuredContent != nil {
		o.structured = decode(tb, res.StructuredContent)
	}
	return o
}

func fromMcpgo(tb testing.TB, res *mgomcp.CallToolResult) outcome {
	tb.Helper()
	o := outcome{isError: res.IsError}
	if len(res.Content) == 1 {
		if tc, ok := res.Content[0].(mgomcp.TextContent); ok {
			o.text = tc.Text
		}
	}
	if res.StructuredContent != nil {
		o.structured = decode(tb, res.StructuredContent)
	}
	return o
}

// decode normalizes a JSON value (raw or Go) to its generic form.
func decode(tb testing.TB, v any) any {
	tb.Helper()
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			tb.Fatal(err)
		}
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		tb.Fatalf("%s: %v", raw, err)
	}
	return out
}

// handlerPaths are the benchmarked handler paths, by stack.
func handlerPaths() map[string]func(tb testing.TB, args json.RawMessage) outcome {
	ctx := context.Background()
	sdk := func(h mcp.ToolHandler) func(testing.TB, json.RawMessage) outcome {
		return func(tb testing.TB, args json.RawMessage) outcome {
			res, err := h(ctx, callRequest(args))
			if err != nil {
				tb.Fatalf("protocol error for %s: %v", args, err)
			}
			return fromSDK(tb, res)
		}
	}
	mgo := mcpgoServer()
	reg := mcpgenRegistry()
	return map[string]func(testing.TB, json.RawMessage) outcome{
		"floor":          sdk(floorHandler),
		"mcpgen":         sdk(sdkHandler(mounted(mcpgenRegistry()), toolName)),
		"mcpgen-reflect": sdk(sdkHandler(mounted(mcpgenReflectRegistry()), toolName)),
		"gosdk":          sdk(sdkHandler(gosdkServer(), toolName)),
		"mcpgo": func(tb testing.TB, args json.RawMessage) outcome {
			res, err := mcpgoResult(mgo.HandleMessage(ctx, mcpgoCallMessage(args)))
			if err != nil {
				tb.Fatalf("%s: %v", args, err)
			}
			return fromMcpgo(tb, res)
		},
		"mcpgen-call": func(tb testing.TB, args json.RawMessage) outcome {
			res, err := reg.Call(ctx, toolName, args)
			if err != nil {
				tb.Fatalf("%s: %v", args, err)
			}
			return fromSDK(tb, res)
		},
	}
}

var validCases = []struct {
	name string
	args string
	want string // the expected structuredContent, without hits and total
}{
	{"all", string(validArgs),
		`{"query":"release plan","limit":20,"sort":"date","tags":["go","mcp"],"author":"ada","year":2024}`},
	{"defaults", `{"query":"go plan"}`,
		`{"query":"go plan","limit":10,"sort":"relevance","tags":[],"author":"","year":0}`},
	{"lower bounds", `{"query":"ab","limit":1,"sort":"title","tags":[],"filter":{"author":"a"}}`,
		`{"query":"ab","limit":1,"sort":"title","tags":[],"author":"a","year":0}`},
	{"upper bounds", `{"query":"` + strings.Repeat("q", 200) + `","limit":100,"tags":["1","2","3","4","5","6","7","8","9","10"],"filter":{"author":"` + strings.Repeat("a", 64) + `","year":2100}}`,
		`{"query":"` + strings.Repeat("q", 200) + `","limit":100,"sort":"relevance","tags":["1","2","3","4","5","6","7","8","9","10"],"author":"` + strings.Repeat("a", 64) + `","year":2100}`},
}

var invalidCases = []struct{ name, args string }{
	{"missing query", `{}`},
	{"null query", `{"query":null}`},
	{"query too short", `{"query":"a"}`},
	{"query too long", `{"query":"` + strings.Repeat("q", 201) + `"}`},
	{"query not a string", `{"query":12}`},
	{"limit below", `{"query":"go plan","limit":0}`},
	{"limit above", `{"query":"go plan","limit":101}`},
	{"limit fraction", `{"query":"go plan","limit":1.5}`},
	{"limit as string", `{"query":"go plan","limit":"10"}`},
	{"sort not in enum", `{"query":"go plan","sort":"size"}`},
	{"tags not an array", `{"query":"go plan","tags":"go"}`},
	{"tags item not a string", `{"query":"go plan","tags":[1]}`},
	{"too many tags", `{"query":"go plan","tags":["1","2","3","4","5","6","7","8","9","10","11"]}`},
	{"filter not an object", `{"query":"go plan","filter":"ada"}`},
	{"filter author missing", `{"query":"go plan","filter":{}}`},
	{"filter author empty", `{"query":"go plan","filter":{"author":""}}`},
	{"filter author too long", `{"query":"go plan","filter":{"author":"` + strings.Repeat("a", 65) + `"}}`},
	{"filter year below", `{"query":"go plan","filter":{"author":"ada","year":1800}}`},
	{"filter year above", `{"query":"go plan","filter":{"author":"ada","year":2101}}`},
	{"unknown property", `{"query":"go plan","qurey":"x"}`},
	{"unknown nested property", `{"query":"go plan","filter":{"author":"ada","x":1}}`},
}

func TestEquivalence(t *testing.T) {
	paths := handlerPaths()
	for _, c := range validCases {
		t.Run("valid/"+c.name, func(t *testing.T) {
			want := decode(t, json.RawMessage(c.want)).(map[string]any)
			want["hits"] = decode(t, hits)
			want["total"] = float64(len(hits))
			for stack, call := range paths {
				o := call(t, json.RawMessage(c.args))
				if o.isError {
					t.Errorf("%s: rejected valid arguments %s: %s", stack, c.args, o.text)
					continue
				}
				if !reflect.DeepEqual(o.structured, want) {
					t.Errorf("%s: structuredContent\n got %v\nwant %v", stack, o.structured, want)
				}
				if got := decode(t, json.RawMessage(o.text)); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: text content is not the structured result's JSON: %s", stack, o.text)
				}
			}
		})
	}
	for _, c := range invalidCases {
		t.Run("invalid/"+c.name, func(t *testing.T) {
			for stack, call := range paths {
				o := call(t, json.RawMessage(c.args))
				if !o.isError {
					t.Errorf("%s: accepted invalid arguments %s", stack, c.args)
				}
				if o.text == "" {
					t.Errorf("%s: error result without text", stack)
				}
			}
		})
	}
}

// TestEquivalenceE2E checks the end-to-end paths: every stack answers the
// benchmark's call with the same result, rejects invalid arguments, and
// negotiates the same protocol revision on a given transport.
func TestEquivalenceE2E(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			versions := map[string]string{}
			var first any
			for _, st := range e2eStacks {
				var cs *mcp.ClientSession
				if tr == "inmemory" {
					cs = connectInMemory(t, st, nil, nil)
				} else {
					cs = connectHTTP(t, st, tr == "http-2025")
				}
				versions[st] = cs.InitializeResult().ProtocolVersion
				o := fromSDK(t, callTool(t, cs, validArgs))
				if o.isError {
					t.Fatalf("%s: %s", st, o.text)
				}
				if first == nil {
					first = o.structured
				} else if !reflect.DeepEqual(first, o.structured) {
					t.Errorf("%s: result differs: %v", st, o.structured)
				}
				if bad := fromSDK(t, callTool(t, cs, json.RawMessage(`{"query":"a","limit":500}`))); !bad.isError {
					t.Errorf("%s: accepted invalid arguments end to end", st)
				}
			}
			t.Logf("negotiated protocol versions: %v", versions)
			for st, v := range versions {
				if v != versions["floor"] {
					t.Errorf("%s negotiated %s, floor %s: the transports are not comparable", st, v, versions["floor"])
				}
			}
		})
	}
}

// TestToolsListServers checks that each tools/list server lists its 10,000
// tools with the same input schema content.
func TestToolsListServers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds four 10,000-tool servers")
	}
	var first any
	for _, st := range stacks {
		var cs *mcp.ClientSession
		switch st {
		case "floor":
			cs = connectInMemory(t, st, listFloor(), nil)
		case "mcpgen":
			cs = connectInMemory(t, st, listMcpgen(), nil)
		case "gosdk":
			cs = connectInMemory(t, st, listGosdk(), nil)
		case "mcpgo":
			cs = connectInMemory(t, st, nil, listMcpgo())
		}
		n := 0
		for tool, err := range cs.Tools(context.Background(), nil) {
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				s := decode(t, tool.InputSchema)
				if first == nil {
					first = s
				} else if !reflect.DeepEqual(first, s) {
					t.Errorf("%s: input schema differs:\n%v\n%v", st, s, first)
				}
			}
			n++
		}
		if n != listTools {
			t.Errorf("%s: listed %d tools", st, n)
		}
	}
}

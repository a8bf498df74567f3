package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// ---- helpers shared by this package's tests (prefixed reg to keep clear of
// other test files in the package) ----

// regCall calls a tool that must exist and whose arguments must be JSON.
func regCall(t testing.TB, r *mcptool.Registry, name, args string) *mcp.CallToolResult {
	t.Helper()
	var raw json.RawMessage
	if args != "" {
		raw = json.RawMessage(args)
	}
	res, err := r.Call(context.Background(), name, raw)
	require.NoError(t, err, "Call(%q, %s)", name, args)
	require.NotNil(t, res)
	return res
}

// regText returns the text of a result that has exactly one text block.
func regText(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	require.Len(t, res.Content, 1, "content: %s", regMarshal(t, res))
	tc, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "content[0] is %T, not *mcp.TextContent", res.Content[0])
	return tc.Text
}

// regOK returns the text of a successful one-text-block result.
func regOK(t testing.TB, r *mcptool.Registry, name, args string) string {
	t.Helper()
	res := regCall(t, r, name, args)
	require.False(t, res.IsError, "unexpected isError result: %s", regMarshal(t, res))
	return regText(t, res)
}

// regFail returns the text of an isError result.
func regFail(t testing.TB, r *mcptool.Registry, name, args string) string {
	t.Helper()
	res := regCall(t, r, name, args)
	require.True(t, res.IsError, "want an isError result, got %s", regMarshal(t, res))
	assert.Nil(t, res.StructuredContent, "an isError result carries no structuredContent")
	return regText(t, res)
}

func regMarshal(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// regMap marshals v and unmarshals it into a generic JSON object.
func regMap(t testing.TB, v any) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(regMarshal(t, v)), &m))
	return m
}

// regTool returns the wire form of a registered tool's definition.
func regTool(t testing.TB, r *mcptool.Registry, name string) map[string]any {
	t.Helper()
	def, ok := r.Tool(name)
	require.True(t, ok, "tool %q is not registered", name)
	return regMap(t, def)
}

// regPath walks a generic JSON value along keys (object keys or, for arrays,
// decimal indexes).
func regPath(t testing.TB, v any, keys ...string) any {
	t.Helper()
	for i, k := range keys {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[k]
			require.True(t, ok, "no key %q at %s in %v", k, strings.Join(keys[:i], "."), v)
			v = next
		case []any:
			var n int
			_, err := fmt.Sscan(k, &n)
			require.NoError(t, err)
			require.Less(t, n, len(x))
			v = x[n]
		default:
			t.Fatalf("cannot index %T with %q at %s", v, k, strings.Join(keys[:i], "."))
		}
	}
	return v
}

// regRefs checks that every "$ref" in a schema points into its own "$defs".
func regRefs(t testing.TB, schema map[string]any) []string {
	t.Helper()
	defs, _ := schema["$defs"].(map[string]any)
	var refs []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if k == "$ref" {
					ref := c.(string)
					refs = append(refs, ref)
					name, ok := strings.CutPrefix(ref, "#/$defs/")
					if assert.True(t, ok, "ref %q", ref) {
						assert.Contains(t, defs, name, "dangling $ref %q", ref)
					}
					continue
				}
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(schema)
	return refs
}

type regCtxKey struct{}

// ---- function shapes ----

type shapeArgs struct {
	X string `json:"x"`
}

type shapeOut struct {
	Got string `json:"got"`
}

func regCtxValue(ctx context.Context) string {
	s, _ := ctx.Value(regCtxKey{}).(string)
	return s
}

func TestAddShapes(t *testing.T) {
	tests := []struct {
		name    string
		fn      any
		hasIn   bool
		hasOut  bool
		wantCtx bool
	}{
		{"ctx_in_out_err", func(ctx context.Context, in shapeArgs) (shapeOut, error) {
			return shapeOut{Got: regCtxValue(ctx) + in.X}, nil
		}, true, true, true},
		{"ctx_in_err", func(ctx context.Context, in shapeArgs) error {
			return regCheck(regCtxValue(ctx) == "ctx" && in.X == "v")
		}, true, false, true},
		{"ctx_out_err", func(ctx context.Context) (shapeOut, error) {
			return shapeOut{Got: regCtxValue(ctx)}, nil
		}, false, true, true},
		{"ctx_err", func(ctx context.Context) error {
			return regCheck(regCtxValue(ctx) == "ctx")
		}, false, false, true},
		{"in_out_err", func(in shapeArgs) (shapeOut, error) { return shapeOut{Got: in.X}, nil }, true, true, false},
		{"in_err", func(in shapeArgs) error { return regCheck(in.X == "v") }, true, false, false},
		{"out_err", func() (shapeOut, error) { return shapeOut{Got: "none"}, nil }, false, true, false},
		{"err", func() error { return nil }, false, false, false},
		{"ctx_ptr_in_out_err", func(ctx context.Context, in *shapeArgs) (shapeOut, error) {
			return shapeOut{Got: regCtxValue(ctx) + in.X}, nil
		}, true, true, true},
		{"ptr_in_err", func(in *shapeArgs) error { return regCheck(in != nil && in.X == "v") }, true, false, false},
		{"ptr_in_out_err", func(in *shapeArgs) (shapeOut, error) { return shapeOut{Got: in.X}, nil }, true, true, false},
	}
	r := mcptool.NewRegistry()
	ctx := context.WithValue(context.Background(), regCtxKey{}, "ctx")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, r.Add(tt.name, tt.fn))
			def := regTool(t, r, tt.name)
			in := def["inputSchema"].(map[string]any)
			assert.Equal(t, "object", in["type"])
			assert.Equal(t, false, in["additionalProperties"])
			args := `{"x":"v"}`
			if tt.hasIn {
				assert.Equal(t, map[string]any{"x": map[string]any{"type": "string"}}, in["properties"])
				assert.Equal(t, []any{"x"}, in["required"])
			} else {
				assert.NotContains(t, in, "properties", "a function without arguments takes none")
				args = `{}`
				// ... and rejects any.
				msg := regFail(t, r, tt.name, `{"x":"v"}`)
				assert.Contains(t, msg, "x: is not a known argument (additionalProperties)")
			}
			if tt.hasOut {
				assert.Contains(t, def, "outputSchema")
			} else {
				assert.NotContains(t, def, "outputSchema")
			}

			res, err := r.Call(ctx, tt.name, json.RawMessage(args))
			require.NoError(t, err)
			require.False(t, res.IsError, regMarshal(t, res))
			if !tt.hasOut {
				assert.Empty(t, res.Content, "an error-only function has no content")
				assert.NotNil(t, res.Content, "content is [] on the wire, not null")
				assert.Nil(t, res.StructuredContent)
				return
			}
			want := ""
			if tt.wantCtx {
				want = "ctx"
			}
			if tt.hasIn {
				want += "v"
			} else if !tt.wantCtx {
				want = "none"
			}
			wantJSON := `{"got":"` + want + `"}`
			assert.JSONEq(t, wantJSON, regText(t, res))
			assert.JSONEq(t, wantJSON, regMarshal(t, res.StructuredContent))
		})
	}
	assert.Equal(t, len(tests), len(r.Tools()))
}

// regCheck turns a condition a tool checks into its error.
func regCheck(ok bool) error {
	if ok {
		return nil
	}
	return errors.New("check failed")
}

func TestAddRejectsShapes(t *testing.T) {
	type In struct {
		A int `json:"a"`
	}
	var nilFn func(context.Context, In) error
	tests := []struct {
		name    string
		fn      any
		msgPart string
	}{
		{"nil", nil, "not a function"},
		{"non-func int", 42, "not a function"},
		{"non-func struct", In{}, "not a function"},
		{"typed nil func", nilFn, "nil function"},
		{"variadic", func(ctx context.Context, in ...In) error { return nil }, "variadic"},
		{"variadic after in", func(in In, more ...int) error { return nil }, "variadic"},
		{"no results", func(ctx context.Context, in In) {}, "wrong number of results"},
		{"three results", func() (int, int, error) { return 0, 0, nil }, "wrong number of results"},
		{"result not error", func(ctx context.Context, in In) int { return 0 }, "the last result must be error"},
		{"two results, last not error", func() (int, string) { return 0, "" }, "the last result must be error"},
		{"error first", func() (error, error) { return nil, nil }, "the first result must not be error"},
		{"non-struct in", func(ctx context.Context, n int) error { return nil }, "the argument type int is not a struct"},
		{"map in", func(m map[string]any) error { return nil }, "is not a struct"},
		{"pointer to non-struct in", func(p *string) error { return nil }, "the argument type *string is not a struct"},
		{"pointer to pointer in", func(p **In) error { return nil }, "is not a struct"},
		{"ctx not first", func(in In, ctx context.Context) error { return nil }, "too many parameters"},
		{"ctx twice", func(ctx context.Context, ctx2 context.Context) error { return nil }, "context.Context must come first"},
		{"too many parameters", func(ctx context.Context, a, b In) error { return nil }, "too many parameters"},
		{"chan result", func() (chan int, error) { return nil, nil }, "chan"},
		{"func field", func(in struct {
			F func() `json:"f"`
		}) error {
			return nil
		}, "func"},
		{"unknown mcp key", func(in struct {
			_ struct{} `mcp:"readOnyl"`
		}) error {
			return nil
		}, `unknown key "readOnyl" (did you mean "readOnly"?)`},
		{"bad mcp syntax", func(in struct {
			_ struct{} `mcp:"readOnly,"`
		}) error {
			return nil
		}, "expected a key after ','"},
		{"bad mcp bool", func(in struct {
			_ struct{} `mcp:"readOnly=yes"`
		}) error {
			return nil
		}, "value must be true or false"},
		{"meaningless mcp tag", func(in struct {
			_ struct{} `mcp:"readOnly,destructive"`
		}) error {
			return nil
		}, "meaningless hint combination"},
		{"bad validate rule", func(in struct {
			N int `json:"n" validate:"min=x"`
		}) error {
			return nil
		}, `validate:"min=x"`},
		{"unknown jsonschema key", func(in struct {
			N int `json:"n" jsonschema:"minimun=1"`
		}) error {
			return nil
		}, `did you mean "minimum"?`},
	}
	r := mcptool.NewRegistry()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.Add("bad_tool", tt.fn)
			require.Error(t, err)
			assert.Equal(t, mcptool.CodeInvalidDefinition, mcptool.CodeOf(err), err.Error())
			var e *mcptool.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, "bad_tool", e.Tool)
			var de *mcpreflect.DefinitionError
			require.ErrorAs(t, err, &de, "a definition error wraps *DefinitionError")
			assert.Contains(t, err.Error(), tt.msgPart)
			assert.True(t, strings.HasPrefix(err.Error(), `mcptool: tool "bad_tool": invalid_definition: `), err.Error())
			assert.Equal(t, 0, len(r.Tools()))
			_, ok := r.Tool("bad_tool")
			assert.False(t, ok)
		})
	}
}

func TestDefinitionErrorNamesTypeFieldAndTag(t *testing.T) {
	type Bad struct {
		Name string `json:"name"`
		N    int    `json:"n" validate:"min=x"`
	}
	err := mcptool.NewRegistry().Add("bad", func(Bad) error { return nil })
	var de *mcpreflect.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "mcptool_test.Bad", de.Type)
	assert.Equal(t, "N", de.Field)
	assert.Equal(t, `validate:"min=x"`, de.Tag)
	assert.NotEmpty(t, de.Msg)
}

func TestAddInvalidName(t *testing.T) {
	r := mcptool.NewRegistry()
	for _, n := range []string{"", "has space", strings.Repeat("n", 129), "slash/name"} {
		err := r.Add(n, func() error { return nil })
		assert.Equal(t, mcptool.CodeInvalidName, mcptool.CodeOf(err), "%q: %v", n, err)
		err = mcptool.Add(r, n, func(context.Context, shapeArgs) (string, error) { return "", nil })
		assert.Equal(t, mcptool.CodeInvalidName, mcptool.CodeOf(err), "generic %q: %v", n, err)
	}
	assert.Equal(t, 0, len(r.Tools()))
	require.NoError(t, r.Add(strings.Repeat("n", 128), func() error { return nil }))
	assert.Equal(t, 1, len(r.Tools()))
}

func TestAddDuplicate(t *testing.T) {
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("dup", func() (string, error) { return "first", nil }))
	err := r.Add("dup", func() (string, error) { return "second", nil })
	require.Error(t, err)
	assert.Equal(t, mcptool.CodeDuplicate, mcptool.CodeOf(err))
	assert.Equal(t, `mcptool: tool "dup": duplicate: a tool with this name is already registered`, err.Error())
	err = mcptool.Add(r, "dup", func(context.Context, shapeArgs) (string, error) { return "third", nil })
	assert.Equal(t, mcptool.CodeDuplicate, mcptool.CodeOf(err))

	assert.Equal(t, 1, len(r.Tools()))
	assert.Equal(t, "first", regOK(t, r, "dup", ""), "the first registration stays")

	// Names are case-sensitive.
	require.NoError(t, r.Add("DUP", func() (string, error) { return "upper", nil }))
	assert.Equal(t, "upper", regOK(t, r, "DUP", ""))

	// A removed name can be registered again.
	r.Remove("dup")
	require.NoError(t, r.Add("dup", func() (string, error) { return "again", nil }))
	assert.Equal(t, "again", regOK(t, r, "dup", ""))
}

func TestRemove(t *testing.T) {
	r := mcptool.NewRegistry()
	r.Remove()                    // nothing to remove
	r.Remove("nothing", "at_all") // unknown names on an empty registry
	assert.Equal(t, 0, len(r.Tools()))
	for _, n := range []string{"a", "b", "c", "d"} {
		s := n
		require.NoError(t, r.Add(n, func() (string, error) { return s, nil }))
	}
	r.Remove("b", "unknown", "b")
	assert.Equal(t, 3, len(r.Tools()))
	assert.Equal(t, []string{"a", "c", "d"}, regNames(r.Tools()))
	_, ok := r.Tool("b")
	assert.False(t, ok)
	_, err := r.Call(context.Background(), "b", nil)
	assert.Equal(t, mcptool.CodeUnknownTool, mcptool.CodeOf(err))
	assert.Equal(t, "c", regOK(t, r, "c", ""))

	r.Remove("unknown")
	assert.Equal(t, 3, len(r.Tools()))

	r.Remove("d", "a")
	assert.Equal(t, []string{"c"}, regNames(r.Tools()))
	r.Remove("c")
	assert.Equal(t, 0, len(r.Tools()))
	assert.Empty(t, r.Tools())
}

func regNames(tools []*mcp.Tool) []string {
	out := make([]string, len(tools))
	for i, tl := range tools {
		out[i] = tl.Name
	}
	return out
}

func TestToolsSortedByName(t *testing.T) {
	r := mcptool.NewRegistry()
	assert.NotNil(t, r.Tools(), "an empty registry lists no tools, not nil")
	assert.Empty(t, r.Tools())
	names := []string{"b", "a", "C", "a.b", "a-b", "a_b", "10", "9", "zz", "a"}
	for i, n := range names {
		if i == len(names)-1 {
			break // "a" again: a duplicate
		}
		require.NoError(t, r.Add(n, func() error { return nil }, mcptool.Description("tool "+n)))
	}
	want := []string{"10", "9", "C", "a", "a-b", "a.b", "a_b", "b", "zz"}
	tools := r.Tools()
	assert.Equal(t, want, regNames(tools))
	assert.True(t, slices.IsSorted(regNames(tools)))
	assert.Equal(t, len(want), len(r.Tools()))

	for _, tl := range tools {
		def, ok := r.Tool(tl.Name)
		require.True(t, ok)
		assert.Same(t, tl, def, "Tools and Tool share the definition")
		assert.Equal(t, "tool "+tl.Name, def.Description)
	}
	_, ok := r.Tool("A")
	assert.False(t, ok)
	def, ok := r.Tool("nope")
	assert.False(t, ok)
	assert.Nil(t, def)

	// The returned slice is the caller's.
	tools[0] = nil
	assert.Equal(t, want, regNames(r.Tools()))
}

// ---- the canonical example ----

func TestCanonicalSearchExample(t *testing.T) {
	type SearchArgs struct {
		_     struct{} `mcp:"title=Search pages,readOnly,openWorld"`
		Query string   `json:"query" jsonschema_description:"Search query, matched against title and content" validate:"required,min=2"`
		Limit int      `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
		Sort  string   `json:"sort,omitempty" validate:"omitempty,oneof=relevance date"`
	}
	type Page struct {
		ID    string `json:"id"`
		Title string `json:"title"`
		URL   string `json:"url"`
	}
	var got SearchArgs
	search := func(ctx context.Context, in SearchArgs) ([]Page, error) {
		got = in
		return []Page{{ID: "p1", Title: "About " + in.Query, URL: "https://example.com/p1"}}, nil
	}
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("search_pages", search, mcptool.Description("Search pages by title or content.")))

	def, ok := r.Tool("search_pages")
	require.True(t, ok)
	assert.Equal(t, "search_pages", def.Name)
	assert.Equal(t, "Search pages", def.Title)
	assert.Equal(t, "Search pages by title or content.", def.Description)

	wire := regMap(t, def)
	in := wire["inputSchema"].(map[string]any)
	assert.Equal(t, "object", in["type"])
	assert.Equal(t, false, in["additionalProperties"])
	assert.Equal(t, []any{"query"}, in["required"])
	assert.Equal(t, map[string]any{
		"query": map[string]any{
			"type":        "string",
			"description": "Search query, matched against title and content",
			"minLength":   float64(2),
		},
		"limit": map[string]any{
			"type":    "integer",
			"minimum": float64(1),
			"maximum": float64(100),
			"default": float64(10),
		},
		"sort": map[string]any{
			"type": "string",
			"enum": []any{"relevance", "date"},
		},
	}, in["properties"])
	assert.NotContains(t, in, "$schema", "no dialect by default")
	assert.NotContains(t, in, "$defs")

	// Property order follows the struct.
	raw := regMarshal(t, def.InputSchema)
	iq, il, is := strings.Index(raw, `"query"`), strings.Index(raw, `"limit"`), strings.Index(raw, `"sort"`)
	assert.True(t, iq < il && il < is, raw)

	out := wire["outputSchema"].(map[string]any)
	assert.Equal(t, map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []any{"result"},
		"properties": map[string]any{
			"result": map[string]any{
				"type": "array",
				"items": map[string]any{
					"type":                 "object",
					"additionalProperties": false,
					"required":             []any{"id", "title", "url"},
					"properties": map[string]any{
						"id":    map[string]any{"type": "string"},
						"title": map[string]any{"type": "string"},
						"url":   map[string]any{"type": "string"},
					},
				},
			},
		},
	}, out)

	assert.Equal(t, map[string]any{
		"title":          "Search pages",
		"readOnlyHint":   true,
		"openWorldHint":  true,
		"idempotentHint": false,
	}, wire["annotations"], "readOnly and openWorld from the tag, idempotent at its default, destructive left out on a read-only tool")

	// A good call: the default limit is applied, the result is wrapped.
	res := regCall(t, r, "search_pages", `{"query":"go"}`)
	require.False(t, res.IsError)
	assert.Equal(t, SearchArgs{Query: "go", Limit: 10}, got)
	wantOut := `{"result":[{"id":"p1","title":"About go","url":"https://example.com/p1"}]}`
	assert.JSONEq(t, wantOut, regText(t, res))
	assert.JSONEq(t, wantOut, regMarshal(t, res.StructuredContent))

	res = regCall(t, r, "search_pages", `{"query":"golang","limit":3,"sort":"date"}`)
	require.False(t, res.IsError)
	assert.Equal(t, SearchArgs{Query: "golang", Limit: 3, Sort: "date"}, got)

	// A bad call lists every problem at once.
	got = SearchArgs{}
	msg := regFail(t, r, "search_pages", `{"query":"x","limit":101,"sort":"name","page":2}`)
	assert.Equal(t, SearchArgs{}, got, "the function does not run on invalid arguments")
	for _, part := range []string{
		"query:", "(minLength)",
		"limit:", "(maximum)",
		"sort:", "(enum)",
		"page:", "(additionalProperties)",
	} {
		assert.Contains(t, msg, part)
	}
	assert.Contains(t, regFail(t, r, "search_pages", `{}`), "query: is required but missing (required)")
	assert.Contains(t, regFail(t, r, "search_pages", `{"query":"go","limit":0}`), "limit: must be at least 1, got 0 (minimum)",
		"an explicit 0 is checked, not taken for absent")
}

// ---- options ----

func TestDescriptionAndTitle(t *testing.T) {
	type Tagged struct {
		_ struct{} `mcp:"title='Tag, title'"`
	}
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("plain", func() error { return nil }))
	require.NoError(t, r.Add("tagged", func(Tagged) error { return nil }))
	require.NoError(t, r.Add("overridden", func(Tagged) error { return nil },
		mcptool.Title("Option title"), mcptool.Description("Does things.")))
	require.NoError(t, r.Add("untagged_title", func() error { return nil }, mcptool.Title("Only option")))
	require.NoError(t, r.Add("last_wins", func() error { return nil },
		mcptool.Description("one"), mcptool.Description("two"), mcptool.Title("A"), mcptool.Title("B")))

	def, _ := r.Tool("plain")
	assert.Empty(t, def.Title)
	assert.Empty(t, def.Description)
	assert.NotContains(t, regMap(t, def), "title")
	assert.NotContains(t, regMap(t, def)["annotations"], "title")

	def, _ = r.Tool("tagged")
	assert.Equal(t, "Tag, title", def.Title)
	assert.Equal(t, "Tag, title", def.Annotations.Title)

	def, _ = r.Tool("overridden")
	assert.Equal(t, "Option title", def.Title)
	assert.Equal(t, "Option title", def.Annotations.Title)
	assert.Equal(t, "Does things.", def.Description)

	def, _ = r.Tool("untagged_title")
	assert.Equal(t, "Only option", def.Title)

	def, _ = r.Tool("last_wins")
	assert.Equal(t, "B", def.Title)
	assert.Equal(t, "two", def.Description)
}

func TestHintOptions(t *testing.T) {
	type ReadOnlyClosed struct {
		_ struct{} `mcp:"readOnly,openWorld=false"`
	}
	type Destructive struct {
		_ struct{} `mcp:"destructive,idempotent=false"`
	}
	tests := []struct {
		name string
		fn   any
		opts []mcptool.Option
		want map[string]any
	}{
		{"defaults", func() error { return nil }, nil, map[string]any{
			"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true,
		}},
		{"tag only", func(ReadOnlyClosed) error { return nil }, nil, map[string]any{
			"readOnlyHint": true, "idempotentHint": false, "openWorldHint": false,
		}},
		{"options only", func() error { return nil },
			[]mcptool.Option{mcptool.Destructive(false), mcptool.Idempotent(true), mcptool.OpenWorld(false)},
			map[string]any{"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}},
		{"ReadOnly option", func() error { return nil }, []mcptool.Option{mcptool.ReadOnly(true)},
			map[string]any{"readOnlyHint": true, "idempotentHint": false, "openWorldHint": true}},
		{"ReadOnly(false) overrides the tag", func(ReadOnlyClosed) error { return nil }, []mcptool.Option{mcptool.ReadOnly(false)},
			map[string]any{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": false}},
		{"OpenWorld(true) overrides the tag", func(ReadOnlyClosed) error { return nil }, []mcptool.Option{mcptool.OpenWorld(true)},
			map[string]any{"readOnlyHint": true, "idempotentHint": false, "openWorldHint": true}},
		{"Destructive/Idempotent override the tag", func(Destructive) error { return nil },
			[]mcptool.Option{mcptool.Destructive(false), mcptool.Idempotent(true)},
			map[string]any{"readOnlyHint": false, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}},
		{"ReadOnly(true) over a destructive=false tag", func(struct {
			_ struct{} `mcp:"destructive=false"`
		}) error {
			return nil
		}, []mcptool.Option{mcptool.ReadOnly(true)},
			map[string]any{"readOnlyHint": true, "idempotentHint": false, "openWorldHint": true}},
		{"last option wins", func() error { return nil }, []mcptool.Option{mcptool.ReadOnly(true), mcptool.ReadOnly(false)},
			map[string]any{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}},
	}
	r := mcptool.NewRegistry()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := fmt.Sprintf("hint_%d", i)
			require.NoError(t, r.Add(name, tt.fn, tt.opts...))
			assert.Equal(t, tt.want, regTool(t, r, name)["annotations"])
		})
	}
}

func TestHintOptionsMeaningless(t *testing.T) {
	type ReadOnly struct {
		_ struct{} `mcp:"readOnly"`
	}
	type Destructive struct {
		_ struct{} `mcp:"destructive"`
	}
	type Idempotent struct {
		_ struct{} `mcp:"idempotent"`
	}
	tests := []struct {
		name    string
		fn      any
		opts    []mcptool.Option
		msgPart string
	}{
		{"both options", func() error { return nil },
			[]mcptool.Option{mcptool.ReadOnly(true), mcptool.Destructive(true)}, "destructive on a readOnly tool"},
		{"idempotent option on a read-only tag", func(ReadOnly) error { return nil },
			[]mcptool.Option{mcptool.Idempotent(true)}, "idempotent on a readOnly tool"},
		{"destructive option on a read-only tag", func(ReadOnly) error { return nil },
			[]mcptool.Option{mcptool.Destructive(true)}, "destructive on a readOnly tool"},
		{"read-only option on a destructive tag", func(Destructive) error { return nil },
			[]mcptool.Option{mcptool.ReadOnly(true)}, "destructive on a readOnly tool"},
		{"read-only option on an idempotent tag", func(Idempotent) error { return nil },
			[]mcptool.Option{mcptool.ReadOnly(true)}, "idempotent on a readOnly tool"},
	}
	r := mcptool.NewRegistry()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := r.Add("meaningless", tt.fn, tt.opts...)
			require.Error(t, err)
			assert.Equal(t, mcptool.CodeInvalidDefinition, mcptool.CodeOf(err))
			assert.ErrorIs(t, err, annotations.ErrMeaningless)
			assert.Contains(t, err.Error(), tt.msgPart)
			assert.Equal(t, 0, len(r.Tools()))
		})
	}
	// Read-only with destructive/idempotent explicitly false is fine.
	require.NoError(t, r.Add("fine_tag", func(struct {
		_ struct{} `mcp:"readOnly,destructive=false,idempotent=false"`
	}) error {
		return nil
	}))
	require.NoError(t, r.Add("fine", func(ReadOnly) error { return nil }, mcptool.Destructive(false), mcptool.Idempotent(false)))
}

type regInner struct {
	A int `json:"a"`
}

type regOuter struct {
	X regInner  `json:"x"`
	Y *regInner `json:"y,omitempty"`
}

func TestKeepDefsAndDeclareDialect(t *testing.T) {
	fn := func(in regOuter) (regOuter, error) { return in, nil }
	ref := map[string]any{"$ref": "#/$defs/regInner"}

	checkSchema := func(t *testing.T, s map[string]any, keepDefs, dialect, output bool) {
		t.Helper()
		a := map[string]any{"type": "integer", "minimum": -9.223372036854776e+18, "maximum": 9.223372036854776e+18}
		if output {
			a = map[string]any{"type": "integer"} // the server writes it: no range to restate
		}
		inlined := map[string]any{
			"type": "object", "additionalProperties": false, "required": []any{"a"},
			"properties": map[string]any{"a": a},
		}
		if dialect {
			assert.Equal(t, "https://json-schema.org/draft/2020-12/schema", s["$schema"])
		} else {
			assert.NotContains(t, s, "$schema")
		}
		props := s["properties"].(map[string]any)
		if keepDefs {
			assert.Equal(t, ref, props["x"])
			assert.Equal(t, ref, props["y"])
			assert.Equal(t, map[string]any{"regInner": inlined}, s["$defs"])
			assert.Len(t, regRefs(t, s), 2)
		} else {
			assert.Equal(t, inlined, props["x"])
			assert.Equal(t, inlined, props["y"])
			assert.NotContains(t, s, "$defs")
		}
	}
	checkTool := func(t *testing.T, r *mcptool.Registry, name string, keepDefs, dialect bool) {
		t.Helper()
		def := regTool(t, r, name)
		checkSchema(t, def["inputSchema"].(map[string]any), keepDefs, dialect, false)
		checkSchema(t, def["outputSchema"].(map[string]any), keepDefs, dialect, true)
		// The schemas do not change what a call accepts.
		assert.JSONEq(t, `{"x":{"a":1},"y":{"a":2}}`, regOK(t, r, name, `{"x":{"a":1},"y":{"a":2}}`))
		assert.Contains(t, regFail(t, r, name, `{"x":{"a":1},"y":{"a":"2"}}`), "y.a: must be an integer")
	}

	t.Run("per tool", func(t *testing.T) {
		r := mcptool.NewRegistry()
		// The same type under every combination: plans must not leak between them.
		require.NoError(t, r.Add("plain", fn))
		require.NoError(t, r.Add("defs", fn, mcptool.KeepDefs()))
		require.NoError(t, r.Add("dialect", fn, mcptool.DeclareDialect()))
		require.NoError(t, r.Add("both", fn, mcptool.KeepDefs(), mcptool.DeclareDialect()))
		require.NoError(t, mcptool.Add(r, "generic_both", func(_ context.Context, in regOuter) (regOuter, error) { return in, nil },
			mcptool.DeclareDialect(), mcptool.KeepDefs()))
		require.NoError(t, r.Add("plain_again", fn))
		checkTool(t, r, "plain", false, false)
		checkTool(t, r, "defs", true, false)
		checkTool(t, r, "dialect", false, true)
		checkTool(t, r, "both", true, true)
		checkTool(t, r, "generic_both", true, true)
		checkTool(t, r, "plain_again", false, false)
	})
	t.Run("per registry", func(t *testing.T) {
		r := mcptool.NewRegistry(mcptool.KeepDefs())
		require.NoError(t, r.Add("defs", fn))
		require.NoError(t, r.Add("defs_dialect", fn, mcptool.DeclareDialect()))
		checkTool(t, r, "defs", true, false)
		checkTool(t, r, "defs_dialect", true, true)

		r = mcptool.NewRegistry(mcptool.DeclareDialect())
		require.NoError(t, r.Add("dialect", fn))
		checkTool(t, r, "dialect", false, true)

		r = mcptool.NewRegistry(mcptool.DeclareDialect(), mcptool.KeepDefs())
		require.NoError(t, r.Add("both", fn))
		checkTool(t, r, "both", true, true)
	})
}

func TestRecursiveTypeSchemaRefsResolve(t *testing.T) {
	type Tree struct {
		Value    int     `json:"value"`
		Children []*Tree `json:"children,omitempty"`
	}
	type Forest struct {
		Trees []Tree `json:"trees"`
	}
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("forest", func(in Forest) (Forest, error) { return in, nil }))
	require.NoError(t, r.Add("tree", func(in Tree) (Tree, error) { return in, nil }))

	// Calls decode recursive values to any depth, with paths into them.
	assert.JSONEq(t, `{"value":1,"children":[{"value":2,"children":[{"value":3}]}]}`,
		regOK(t, r, "tree", `{"value":1,"children":[{"value":2,"children":[{"value":3}]}]}`))
	assert.Contains(t, regFail(t, r, "tree", `{"value":1,"children":[{"value":2},{"value":2,"children":[{"value":"x"}]}]}`),
		"children[1].children[0].value: must be an integer")

	for _, name := range []string{"forest", "tree"} {
		def := regTool(t, r, name)
		for _, key := range []string{"inputSchema", "outputSchema"} {
			t.Run(name+"/"+key, func(t *testing.T) {
				s := def[key].(map[string]any)
				// Once a bug: a recursive root type referred to
				// "#/$defs/Tree", and its schema had no $defs. regRefs fails
				// the test on a dangling $ref.
				assert.NotEmpty(t, regRefs(t, s), "a recursive type needs a $ref")
			})
		}
	}
}

func TestMeaninglessTagWrapsErrMeaningless(t *testing.T) {
	type Args struct {
		_ struct{} `mcp:"readOnly,destructive"`
	}
	err := mcptool.NewRegistry().Add("x", func(Args) error { return nil })
	require.Error(t, err)
	assert.Equal(t, mcptool.CodeInvalidDefinition, mcptool.CodeOf(err))
	assert.Contains(t, err.Error(), "meaningless hint combination")
	assert.ErrorIs(t, err, annotations.ErrMeaningless)
}

// ---- concurrency ----

func TestConcurrentAddRemoveCallTools(t *testing.T) {
	type In struct {
		N int `json:"n"`
	}
	const (
		names   = 8
		workers = 4
		rounds  = 200
	)
	r := mcptool.NewRegistry()
	// A stable tool that is never removed.
	require.NoError(t, r.Add("stable", func(in In) (int, error) { return in.N * 2, nil }))
	name := func(i int) string { return fmt.Sprintf("tool_%d", i) }
	var wg sync.WaitGroup
	var calls, unknown atomic.Int64
	stop := make(chan struct{})

	// Writers: add and remove tools; each tool echoes its own name.
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				n := name((w + i) % names)
				err := r.Add(n, func(ctx context.Context, in In) (string, error) {
					return fmt.Sprintf("%s:%d", n, in.N), nil
				})
				if err != nil && mcptool.CodeOf(err) != mcptool.CodeDuplicate {
					t.Errorf("Add(%s): %v", n, err)
				}
				if i%3 == 0 {
					r.Remove(n, name((w+i+1)%names))
				}
				if i%5 == 0 {
					_ = mcptool.Add(r, n, func(ctx context.Context, in *In) (string, error) {
						return fmt.Sprintf("%s:%d", n, in.N), nil
					})
				}
			}
		}()
	}
	// Readers: call and list until the writers are done.
	var readers sync.WaitGroup
	for w := range workers {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				n := name((w*3 + i) % names)
				res, err := r.Call(context.Background(), n, json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)))
				calls.Add(1)
				switch {
				case err != nil:
					unknown.Add(1)
					if mcptool.CodeOf(err) != mcptool.CodeUnknownTool {
						t.Errorf("Call(%s): %v", n, err)
					}
				case res.IsError || len(res.Content) != 1:
					t.Errorf("Call(%s): unexpected result %+v", n, res)
				default:
					if txt := res.Content[0].(*mcp.TextContent).Text; txt != fmt.Sprintf("%s:%d", n, i) {
						t.Errorf("Call(%s) = %q", n, txt)
					}
				}
				res, err = r.Call(context.Background(), "stable", json.RawMessage(`{"n":21}`))
				if err != nil || res.IsError {
					t.Errorf("stable: %v %+v", err, res)
				} else if got := res.StructuredContent; regMarshalNoT(got) != `{"result":42}` {
					t.Errorf("stable = %s", regMarshalNoT(got))
				}
				tools := r.Tools()
				ns := regNames(tools)
				if !slices.IsSorted(ns) || len(slices.Compact(slices.Clone(ns))) != len(ns) {
					t.Errorf("Tools() not sorted and unique: %v", ns)
				}
				if !slices.Contains(ns, "stable") {
					t.Errorf("Tools() lost the stable tool: %v", ns)
				}
				if l := len(r.Tools()); l < 1 || l > names+1 {
					t.Errorf("Len() = %d", l)
				}
				if def, ok := r.Tool(n); ok && def.Name != n {
					t.Errorf("Tool(%s).Name = %s", n, def.Name)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	assert.Positive(t, calls.Load())

	// After the dust settles the registry is consistent.
	tools := r.Tools()
	assert.Equal(t, len(tools), len(r.Tools()))
	for _, tl := range tools {
		if tl.Name == "stable" {
			continue
		}
		assert.Equal(t, tl.Name+":7", regOK(t, r, tl.Name, `{"n":7}`))
	}
	r.Remove(regNames(tools)...)
	assert.Equal(t, 0, len(r.Tools()))
}

func regMarshalNoT(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

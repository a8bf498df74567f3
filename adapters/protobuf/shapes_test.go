package mcpproto_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb"
	"github.com/mcpgen/mcpgen/mcptool"
)

func echo[M any](_ context.Context, m *M) (*M, error) { return m, nil }

// shapesRegistry has an echo tool per test message.
func shapesRegistry(t *testing.T) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry(mcpproto.Types(mcpproto.SourceInfo(testpb.Descriptors)), mcptool.NoDescription(), quiet())
	require.NoError(t, reg.Add("scalars", echo[testpb.Scalars]))
	require.NoError(t, reg.Add("shapes", echo[testpb.Shapes]))
	require.NoError(t, reg.Add("tree", echo[testpb.Tree]))
	require.NoError(t, reg.Add("well_known", echo[testpb.WellKnown]))
	require.NoError(t, reg.Add("rules", echo[testpb.Rules]))
	return reg
}

// TestGoldenSchemas holds the input and output schema of every message
// shape and well-known type to testdata/ (go test -update rewrites them).
func TestGoldenSchemas(t *testing.T) {
	reg := shapesRegistry(t)
	for _, name := range []string{"scalars", "shapes", "tree", "well_known", "rules"} {
		tl, ok := reg.Tool(name)
		require.True(t, ok)
		assert.JSONEq(t, golden(t, name+"_input", tl.InputSchema), string(tl.InputSchema.(json.RawMessage)), name)
		assert.JSONEq(t, golden(t, name+"_output", tl.OutputSchema), string(tl.OutputSchema.(json.RawMessage)), name)
	}
}

func compileSchema(t *testing.T, raw json.RawMessage) *sjs.Schema {
	t.Helper()
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	require.NoError(t, err)
	c := sjs.NewCompiler()
	c.DefaultDraft(sjs.Draft2020)
	c.AssertFormat()
	require.NoError(t, c.AddResource("test://schema.json", doc))
	s, err := c.Compile("test://schema.json")
	require.NoError(t, err)
	return s
}

func validJSON(s *sjs.Schema, raw string) error {
	doc, err := sjs.UnmarshalJSON(bytes.NewReader([]byte(raw)))
	if err != nil {
		return err
	}
	return s.Validate(doc)
}

// TestRoundTrips sends every well-known type (and every shape) through an
// echo tool: the arguments are valid under the published input schema,
// the result equals them as protojson writes them, and it is valid under
// the published output schema.
func TestRoundTrips(t *testing.T) {
	reg := shapesRegistry(t)
	cases := []struct{ tool, in, out string }{
		{"well_known", `{"at":"2026-07-28T10:00:00.5Z"}`, `{"at":"2026-07-28T10:00:00.500Z"}`},
		{"well_known", `{"at":"2026-07-28T12:00:00+02:00"}`, `{"at":"2026-07-28T10:00:00Z"}`},
		{"well_known", `{"took":"1.5s"}`, `{"took":"1.500s"}`},
		{"well_known", `{"took":"-3s"}`, ``},
		{"well_known", `{"attrs":{"a":1,"b":[true,null,"x"],"c":{"d":{}}}}`, ``},
		{"well_known", `{"anyValue":"text"}`, ``},
		{"well_known", `{"anyValue":{"k":[1,2]}}`, ``},
		{"well_known", `{"anyValue":null}`, ``},
		{"well_known", `{"list":[1,"a",null,{"b":false}]}`, ``},
		{"well_known", `{"s":"wrapped"}`, ``},
		{"well_known", `{"s":""}`, ``},
		{"well_known", `{"i64":"9223372036854775807"}`, ``},
		{"well_known", `{"i64":42}`, `{"i64":"42"}`},
		{"well_known", `{"b":false}`, ``},
		{"well_known", `{"dbl":1.25}`, ``},
		{"well_known", `{"dbl":"NaN"}`, ``},
		{"well_known", `{"raw":"aGVsbG8="}`, ``},
		{"well_known", `{"mask":"title,bookId.value"}`, ``},
		{"well_known", `{"nothing":{}}`, ``},
		{"well_known", `{"detail":{"@type":"type.googleapis.com/google.protobuf.Duration","value":"2s"}}`, ``},
		{"well_known", `{"detail":{"@type":"type.googleapis.com/mcpgen.test.Tree","label":"x"}}`, ``},
		{"well_known", `{"u32":4294967295,"f":1.5,"i32":-7,"u64":"18446744073709551615"}`, ``},
		{"well_known", `{"null":null}`, `{}`},
		{"scalars", `{"d":1.5,"f":-2,"i32":-3,"i64":"-4","u32":5,"u64":"6","s32":-7,"s64":"-8","f32":9,"f64":"10","sf32":-11,"sf64":"-12","flag":true,"text":"t","data":"AAE="}`, ``},
		{"scalars", `{"i64":"1","u64":2,"d":"Infinity"}`, `{"i64":"1","u64":"2","d":"Infinity"}`},
		{"scalars", `{"i32":"1e2","u32":"7.0","i64":1.0,"s64":"-2.5e1"}`, `{"i32":100,"u32":7,"i64":"1","s64":"-25"}`},
		{"shapes", `{"nickName":"","tags":["a","b"],"counts":{"x":"1"},"byId":{"7":{"text":"seven"}},"color":"COLOR_RED","number":"5","colors":["COLOR_GREEN",1],"flags":{"true":"yes"}}`,
			`{"nickName":"","tags":["a","b"],"counts":{"x":"1"},"byId":{"7":{"text":"seven"}},"color":"COLOR_RED","number":"5","colors":["COLOR_GREEN","COLOR_RED"],"flags":{"true":"yes"}}`},
		{"shapes", `{"nickName":"n","byId":{},"scalars":{"flag":true}}`, `{"nickName":"n","scalars":{"flag":true}}`},
		{"shapes", `{"byId":{"+7":{},"08":{}}}`, `{"byId":{"7":{},"8":{}}}`},
		{"tree", `{"label":"root","children":[{"label":"a","children":[{"label":"b"}]}]}`, ``},
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%d_%s", i, c.tool), func(t *testing.T) {
			tl, _ := reg.Tool(c.tool)
			assert.NoError(t, validJSON(compileSchema(t, tl.InputSchema.(json.RawMessage)), c.in), "the input schema takes %s", c.in)
			res := call(t, reg, c.tool, c.in)
			require.False(t, res.IsError, text(res))
			want := c.out
			if want == "" {
				want = c.in
			}
			got := string(res.StructuredContent.(json.RawMessage))
			assert.JSONEq(t, want, got)
			assert.NoError(t, validJSON(compileSchema(t, tl.OutputSchema.(json.RawMessage)), got), "the output schema takes %s", got)
		})
	}
}

// TestRefusals: what protojson refuses, the published schema refuses too,
// and the violations say where.
func TestRefusals(t *testing.T) {
	reg := shapesRegistry(t)
	cases := []struct{ tool, in, path string }{
		{"well_known", `{"at":"yesterday"}`, "at"},
		{"well_known", `{"took":"1.5"}`, "took"},
		{"well_known", `{"mask":"book_id"}`, "mask"},
		{"well_known", `{"nothing":{"a":1}}`, "nothing.a"},
		{"well_known", `{"i64":"1.5x"}`, "i64"},
		{"scalars", `{"i32":2147483648}`, "i32"},
		{"scalars", `{"u32":-1}`, "u32"},
		{"scalars", `{"flag":"true"}`, "flag"},
		{"scalars", `{"nope":1}`, "nope"},
		{"shapes", `{"color":"COLOR_BLUE"}`, "color"},
		{"shapes", `{"name":"a","number":1}`, ""},
		{"shapes", `{"nickName":"a","nick_name":"b"}`, "nick_name"},
		{"shapes", `{"byId":{"x":{}}}`, "byId"},
		{"shapes", `{"flags":{"yes":"no"}}`, "flags"},
		{"tree", `{"children":[{"label":1}]}`, "children[0].label"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprintf("%d_%s", i, c.tool), func(t *testing.T) {
			tl, _ := reg.Tool(c.tool)
			assert.Error(t, validJSON(compileSchema(t, tl.InputSchema.(json.RawMessage)), c.in), "the input schema refuses %s", c.in)
			res := call(t, reg, c.tool, c.in)
			require.True(t, res.IsError, "%s accepted", c.in)
			want := "- " + c.path + ": "
			if c.path == "" {
				want = "- (arguments): "
			}
			assert.Contains(t, text(res), want)
		})
	}
}

// TestRefusalsOnlyProtojsonSees: an integer's string form that is a JSON
// number but not an integral one ("1.5") passes the schema, which cannot
// say integral for a string ("15e-1" is 1.5, "1.5e1" is 15); protojson
// refuses it, in its own words.
func TestRefusalsOnlyProtojsonSees(t *testing.T) {
	reg := shapesRegistry(t)
	tl, _ := reg.Tool("scalars")
	require.NoError(t, validJSON(compileSchema(t, tl.InputSchema.(json.RawMessage)), `{"i64":"1.5"}`))
	res := call(t, reg, "scalars", `{"i64":"1.5"}`)
	require.True(t, res.IsError)
	assert.Contains(t, text(res), `invalid value for int64 field i64: "1.5" (protojson)`)
	res = call(t, reg, "scalars", `{"i64":"1.5e1"}`)
	require.False(t, res.IsError, text(res))
	assert.JSONEq(t, `{"i64":"15"}`, text(res))
}

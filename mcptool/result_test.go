package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// resultRegistry returns a registry whose internal errors go to buf.
func resultRegistry(buf *bytes.Buffer) *mcptool.Registry {
	return mcptool.NewRegistry(mcptool.Logger(slog.New(slog.NewTextHandler(buf, nil))))
}

// regWire round-trips a result through its wire form, the way a client
// would read it.
func regWire(t *testing.T, res *mcp.CallToolResult) *mcp.CallToolResult {
	t.Helper()
	var back mcp.CallToolResult
	require.NoError(t, json.Unmarshal([]byte(regMarshal(t, res)), &back))
	return &back
}

type resultPoint struct {
	X int    `json:"x"`
	Y int    `json:"y"`
	L string `json:"label,omitempty"`
}

type resultLabel string

func TestResultText(t *testing.T) {
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("str", func() (string, error) { return "hello, world", nil }))
	require.NoError(t, r.Add("named", func() (resultLabel, error) { return "named string", nil }))
	require.NoError(t, r.Add("empty", func() (string, error) { return "", nil }))
	require.NoError(t, r.Add("json_looking", func() (string, error) { return `{"a":1}`, nil }))

	for name, want := range map[string]string{
		"str": "hello, world", "named": "named string", "empty": "", "json_looking": `{"a":1}`,
	} {
		res := regCall(t, r, name, "")
		assert.False(t, res.IsError)
		assert.Equal(t, want, regText(t, res), name)
		assert.Nil(t, res.StructuredContent, "%s: text is not structured, even when it looks like JSON", name)
		assert.NotContains(t, regTool(t, r, name), "outputSchema", name)
		wire := regMarshal(t, res)
		assert.JSONEq(t, `{"content":[{"type":"text","text":`+regMarshal(t, want)+`}]}`, wire)
	}
}

func TestResultCallToolResultAsIs(t *testing.T) {
	var buf bytes.Buffer
	r := resultRegistry(&buf)
	mine := &mcp.CallToolResult{
		Content:           []mcp.Content{mcptool.Text("custom")},
		StructuredContent: map[string]any{"k": "v"},
		IsError:           true,
	}
	require.NoError(t, r.Add("as_is", func() (*mcp.CallToolResult, error) { return mine, nil }))
	require.NoError(t, r.Add("no_content", func() (*mcp.CallToolResult, error) { return &mcp.CallToolResult{}, nil }))
	require.NoError(t, r.Add("nil", func() (*mcp.CallToolResult, error) { return nil, nil }))

	res := regCall(t, r, "as_is", "")
	assert.Same(t, mine, res, "the function's result is sent as it is")
	assert.True(t, res.IsError)
	assert.NotContains(t, regTool(t, r, "as_is"), "outputSchema")

	res = regCall(t, r, "no_content", "")
	assert.False(t, res.IsError)
	assert.NotNil(t, res.Content)
	assert.JSONEq(t, `{"content":[]}`, regMarshal(t, res), "content is required on the wire")

	msg := regFail(t, r, "nil", "")
	assert.Regexp(t, `^internal error \(ref [0-9a-f]{12}\)$`, msg)
	assert.Contains(t, buf.String(), "nil result")
}

func TestResultContent(t *testing.T) {
	var buf bytes.Buffer
	r := resultRegistry(&buf)
	link := mcptool.ResourceLink("file:///a.txt", "a.txt", "text/plain")
	require.NoError(t, r.Add("one", func() (mcp.Content, error) { return link, nil }))
	require.NoError(t, r.Add("concrete", func() (*mcp.TextContent, error) { return mcptool.Text("t"), nil }))
	require.NoError(t, r.Add("many", func() ([]mcp.Content, error) {
		return []mcp.Content{mcptool.Text("a"), mcptool.Image([]byte{1, 2}, "image/gif"), mcptool.Text("b")}, nil
	}))
	require.NoError(t, r.Add("texts", func() ([]*mcp.TextContent, error) {
		return []*mcp.TextContent{mcptool.Text("x"), mcptool.Text("y")}, nil
	}))
	require.NoError(t, r.Add("images", func() ([]*mcp.ImageContent, error) {
		return []*mcp.ImageContent{mcptool.Image([]byte("i"), "image/png")}, nil
	}))
	require.NoError(t, r.Add("nil_slice", func() ([]mcp.Content, error) { return nil, nil }))
	require.NoError(t, r.Add("nil_iface", func() (mcp.Content, error) { return nil, nil }))
	require.NoError(t, r.Add("nil_text", func() (*mcp.TextContent, error) { return nil, nil }))

	for _, name := range []string{"one", "concrete", "many", "texts", "images", "nil_slice", "nil_iface"} {
		assert.NotContains(t, regTool(t, r, name), "outputSchema", name)
	}

	res := regCall(t, r, "one", "")
	require.Len(t, res.Content, 1)
	assert.Same(t, link, res.Content[0])
	assert.Nil(t, res.StructuredContent)

	assert.Equal(t, "t", regOK(t, r, "concrete", ""))

	res = regWire(t, regCall(t, r, "many", ""))
	require.Len(t, res.Content, 3)
	assert.Equal(t, "a", res.Content[0].(*mcp.TextContent).Text)
	img := res.Content[1].(*mcp.ImageContent)
	assert.Equal(t, []byte{1, 2}, img.Data)
	assert.Equal(t, "image/gif", img.MIMEType)
	assert.Equal(t, "b", res.Content[2].(*mcp.TextContent).Text)

	res = regCall(t, r, "texts", "")
	require.Len(t, res.Content, 2)
	assert.Equal(t, "x", res.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, "y", res.Content[1].(*mcp.TextContent).Text)

	res = regCall(t, r, "images", "")
	require.Len(t, res.Content, 1)
	assert.Equal(t, []byte("i"), res.Content[0].(*mcp.ImageContent).Data)

	for _, name := range []string{"nil_slice", "nil_iface"} {
		res = regCall(t, r, name, "")
		assert.False(t, res.IsError, name)
		assert.JSONEq(t, `{"content":[]}`, regMarshal(t, res), name)
	}

	assert.Regexp(t, `^internal error \(ref [0-9a-f]{12}\)$`, regFail(t, r, "nil_text", ""),
		"a nil content pointer is an internal error, not a null block")
}

func TestResultImage(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	pix := map[image.Point]color.NRGBA{
		{0, 0}: {255, 0, 0, 255},
		{1, 0}: {0, 255, 0, 255},
		{2, 0}: {0, 0, 255, 255},
		{0, 1}: {10, 20, 30, 255},
		{1, 1}: {0, 0, 0, 0},
		{2, 1}: {200, 100, 50, 128},
	}
	for p, c := range pix {
		src.SetNRGBA(p.X, p.Y, c)
	}
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("iface", func() (image.Image, error) { return src, nil }))
	require.NoError(t, r.Add("concrete", func() (*image.NRGBA, error) { return src, nil }))
	require.NoError(t, r.Add("gray", func() (*image.Gray, error) {
		g := image.NewGray(image.Rect(0, 0, 2, 1))
		g.SetGray(1, 0, color.Gray{Y: 77})
		return g, nil
	}))

	for _, name := range []string{"iface", "concrete"} {
		assert.NotContains(t, regTool(t, r, name), "outputSchema")
		res := regWire(t, regCall(t, r, name, ""))
		require.False(t, res.IsError)
		require.Len(t, res.Content, 1)
		ic, ok := res.Content[0].(*mcp.ImageContent)
		require.True(t, ok, "%T", res.Content[0])
		assert.Equal(t, "image/png", ic.MIMEType)
		got, err := png.Decode(bytes.NewReader(ic.Data))
		require.NoError(t, err)
		require.Equal(t, src.Bounds(), got.Bounds())
		for p, want := range pix {
			assert.Equal(t, want, color.NRGBAModel.Convert(got.At(p.X, p.Y)), "pixel %v", p)
		}
	}

	res := regCall(t, r, "gray", "")
	got, err := png.Decode(bytes.NewReader(res.Content[0].(*mcp.ImageContent).Data))
	require.NoError(t, err)
	assert.Equal(t, color.Gray{Y: 77}, color.GrayModel.Convert(got.At(1, 0)))
	assert.Equal(t, color.Gray{Y: 0}, color.GrayModel.Convert(got.At(0, 0)))
}

func TestResultErrorOnly(t *testing.T) {
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("ok", func(ctx context.Context) error { return nil }))
	require.NoError(t, r.Add("fails", func(ctx context.Context) error { return mcptool.Errorf("disk full") }))
	res := regCall(t, r, "ok", "")
	assert.False(t, res.IsError)
	assert.Empty(t, res.Content)
	assert.Nil(t, res.StructuredContent)
	assert.JSONEq(t, `{"content":[]}`, regMarshal(t, res))
	assert.NotContains(t, regTool(t, r, "ok"), "outputSchema")
	assert.Equal(t, "disk full", regFail(t, r, "fails", ""))
}

func TestResultStructured(t *testing.T) {
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("point", func() (resultPoint, error) { return resultPoint{X: 1, Y: 2}, nil }))
	require.NoError(t, r.Add("point_ptr", func() (*resultPoint, error) { return &resultPoint{X: 3, Y: 4, L: "p"}, nil }))
	require.NoError(t, r.Add("map", func() (map[string]int, error) { return map[string]int{"a": 1}, nil }))
	require.NoError(t, r.Add("nil_map", func() (map[string]int, error) { return nil, nil }))

	pointSchema := map[string]any{
		"type": "object", "additionalProperties": false, "required": []any{"x", "y"},
		"properties": map[string]any{
			"x": map[string]any{"type": "integer"}, "y": map[string]any{"type": "integer"},
			"label": map[string]any{"type": "string"},
		},
	}
	assert.Equal(t, pointSchema, regTool(t, r, "point")["outputSchema"])
	assert.Equal(t, pointSchema, regTool(t, r, "point_ptr")["outputSchema"], "a pointer result has its element's schema")
	assert.Equal(t, map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "integer"}},
		regTool(t, r, "map")["outputSchema"], "a map is an object: not wrapped")

	tests := []struct{ name, want string }{
		{"point", `{"x":1,"y":2}`},
		{"point_ptr", `{"x":3,"y":4,"label":"p"}`},
		{"map", `{"a":1}`},
		{"nil_map", `{}`},
	}
	for _, tt := range tests {
		res := regCall(t, r, tt.name, "")
		require.False(t, res.IsError, tt.name)
		assert.JSONEq(t, tt.want, regText(t, res), "%s: the text block is the JSON", tt.name)
		assert.JSONEq(t, tt.want, regMarshal(t, res.StructuredContent), tt.name)
		// On the wire too.
		back := regWire(t, res)
		assert.JSONEq(t, tt.want, regMarshal(t, back.StructuredContent), tt.name)
	}
}

func TestResultWrapped(t *testing.T) {
	var buf bytes.Buffer
	r := resultRegistry(&buf)
	require.NoError(t, r.Add("int", func() (int, error) { return 42, nil }))
	require.NoError(t, r.Add("float", func() (float64, error) { return 2.5, nil }))
	require.NoError(t, r.Add("bool", func() (bool, error) { return true, nil }))
	require.NoError(t, r.Add("strings", func() ([]string, error) { return []string{"a", "b"}, nil }))
	require.NoError(t, r.Add("nil_slice", func() ([]resultPoint, error) { return nil, nil }))
	require.NoError(t, r.Add("empty_slice", func() ([]int, error) { return []int{}, nil }))
	require.NoError(t, r.Add("array", func() ([2]int, error) { return [2]int{7, 8}, nil }))
	require.NoError(t, r.Add("time", func() (time.Time, error) { return time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), nil }))
	require.NoError(t, r.Add("nan", func() (float64, error) { return math.NaN(), nil }))

	tests := []struct {
		name, want string
		inner      map[string]any
	}{
		{"int", `{"result":42}`, map[string]any{"type": "integer"}},
		{"float", `{"result":2.5}`, map[string]any{"type": "number"}},
		{"bool", `{"result":true}`, map[string]any{"type": "boolean"}},
		{"strings", `{"result":["a","b"]}`, map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
		{"nil_slice", `{"result":[]}`, nil},
		{"empty_slice", `{"result":[]}`, map[string]any{"type": "array", "items": map[string]any{"type": "integer"}}},
		{"array", `{"result":[7,8]}`, map[string]any{"type": "array", "items": map[string]any{"type": "integer"}, "minItems": float64(2), "maxItems": float64(2)}},
		{"time", `{"result":"2024-01-02T03:04:05Z"}`, map[string]any{"type": "string", "format": "date-time"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := regTool(t, r, tt.name)["outputSchema"].(map[string]any)
			assert.Equal(t, "object", out["type"])
			assert.Equal(t, false, out["additionalProperties"])
			assert.Equal(t, []any{"result"}, out["required"])
			if tt.inner != nil {
				assert.Equal(t, tt.inner, regPath(t, out, "properties", "result"))
			}
			res := regCall(t, r, tt.name, "")
			require.False(t, res.IsError)
			assert.JSONEq(t, tt.want, regText(t, res))
			assert.JSONEq(t, tt.want, regMarshal(t, res.StructuredContent))
		})
	}

	// A value JSON cannot encode is an internal error, not a broken result.
	assert.Regexp(t, `^internal error \(ref [0-9a-f]{12}\)$`, regFail(t, r, "nan", ""))
	assert.Contains(t, buf.String(), "NaN")
}

func TestResultNilPointer(t *testing.T) {
	var buf bytes.Buffer
	r := resultRegistry(&buf)
	require.NoError(t, r.Add("nil_struct", func() (*resultPoint, error) { return nil, nil }))
	require.NoError(t, mcptool.Add(r, "generic_nil_struct", func(context.Context, struct{}) (*resultPoint, error) { return nil, nil }))
	require.NoError(t, r.Add("nil_with_error", func() (*resultPoint, error) { return nil, mcptool.Errorf("not found") }))

	for _, name := range []string{"nil_struct", "generic_nil_struct"} {
		buf.Reset()
		msg := regFail(t, r, name, "")
		m := regRefRe.FindStringSubmatch(msg)
		require.NotNil(t, m, msg)
		assert.Equal(t, m[0], msg, "the model sees only the reference")
		log := buf.String()
		assert.Contains(t, log, "ref="+m[1])
		assert.Contains(t, log, "tool="+name)
		assert.Contains(t, log, "the tool returned a nil result and no error")
	}
	assert.Equal(t, "not found", regFail(t, r, "nil_with_error", ""), "an error wins over the nil result")
}

func TestResultNoOutputSchema(t *testing.T) {
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("struct", func() (resultPoint, error) { return resultPoint{X: 1, Y: 2}, nil }, mcptool.NoOutputSchema()))
	require.NoError(t, mcptool.Add(r, "generic_struct", func(context.Context, struct{}) (resultPoint, error) {
		return resultPoint{X: 1, Y: 2}, nil
	}, mcptool.NoOutputSchema()))
	require.NoError(t, r.Add("int", func() (int, error) { return 4, nil }, mcptool.NoOutputSchema()))
	require.NoError(t, r.Add("slice", func() ([]string, error) { return []string{"a"}, nil }, mcptool.NoOutputSchema()))
	require.NoError(t, r.Add("nil_slice", func() ([]string, error) { return nil, nil }, mcptool.NoOutputSchema()))
	require.NoError(t, r.Add("dynamic", func() (any, error) { return map[string]int{"a": 1}, nil }, mcptool.NoOutputSchema()))
	require.NoError(t, r.Add("text", func() (string, error) { return "t", nil }, mcptool.NoOutputSchema()))
	require.NoError(t, r.Add("with_schema", func() (resultPoint, error) { return resultPoint{X: 1, Y: 2}, nil }))

	tests := []struct{ name, want string }{
		{"struct", `{"x":1,"y":2}`},
		{"generic_struct", `{"x":1,"y":2}`},
		{"int", `4`},
		{"slice", `["a"]`},
		{"nil_slice", `[]`},
		{"dynamic", `{"a":1}`},
	}
	for _, tt := range tests {
		assert.NotContains(t, regTool(t, r, tt.name), "outputSchema", tt.name)
		res := regCall(t, r, tt.name, "")
		assert.Nil(t, res.StructuredContent, tt.name)
		assert.JSONEq(t, tt.want, regText(t, res), "%s: the text is the value's own JSON", tt.name)
		assert.NotContains(t, regMarshal(t, res), "structuredContent")
	}
	assert.Equal(t, "t", regOK(t, r, "text", ""))

	// The option is per tool.
	assert.Contains(t, regTool(t, r, "with_schema"), "outputSchema")
	assert.NotNil(t, regCall(t, r, "with_schema", "").StructuredContent)
}

type resultShape struct {
	Kind string `json:"kind" validate:"oneof=text int map content contents image result nil slice struct"`
}

func TestResultDynamic(t *testing.T) {
	r := mcptool.NewRegistry()
	img := image.NewGray(image.Rect(0, 0, 1, 1))
	custom := &mcp.CallToolResult{Content: []mcp.Content{mcptool.Text("custom")}}
	require.NoError(t, r.Add("dyn", func(in resultShape) (any, error) {
		switch in.Kind {
		case "text":
			return resultLabel("a label"), nil
		case "int":
			return 3, nil
		case "map":
			return map[string]any{"k": "v"}, nil
		case "content":
			return mcptool.Text("block"), nil
		case "contents":
			return []mcp.Content{mcptool.Text("1"), mcptool.Text("2")}, nil
		case "image":
			return img, nil
		case "result":
			return custom, nil
		case "slice":
			return []int{1, 2}, nil
		case "struct":
			return resultPoint{X: 5, Y: 6}, nil
		}
		return nil, nil
	}))
	assert.NotContains(t, regTool(t, r, "dyn"), "outputSchema", "an interface result has no schema")

	assert.Equal(t, "a label", regOK(t, r, "dyn", `{"kind":"text"}`))
	res := regCall(t, r, "dyn", `{"kind":"int"}`)
	assert.Equal(t, "3", regText(t, res))
	assert.Nil(t, res.StructuredContent, "a non-object value has no structuredContent")
	res = regCall(t, r, "dyn", `{"kind":"slice"}`)
	assert.Equal(t, "[1,2]", regText(t, res))
	assert.Nil(t, res.StructuredContent)
	res = regCall(t, r, "dyn", `{"kind":"map"}`)
	assert.JSONEq(t, `{"k":"v"}`, regText(t, res))
	assert.JSONEq(t, `{"k":"v"}`, regMarshal(t, res.StructuredContent))
	res = regCall(t, r, "dyn", `{"kind":"struct"}`)
	assert.JSONEq(t, `{"x":5,"y":6}`, regMarshal(t, res.StructuredContent))
	assert.Equal(t, "block", regOK(t, r, "dyn", `{"kind":"content"}`))
	res = regCall(t, r, "dyn", `{"kind":"contents"}`)
	require.Len(t, res.Content, 2)
	assert.Equal(t, "2", res.Content[1].(*mcp.TextContent).Text)
	res = regCall(t, r, "dyn", `{"kind":"image"}`)
	require.Len(t, res.Content, 1)
	assert.Equal(t, "image/png", res.Content[0].(*mcp.ImageContent).MIMEType)
	assert.Same(t, custom, regCall(t, r, "dyn", `{"kind":"result"}`))
	res = regCall(t, r, "dyn", `{"kind":"nil"}`)
	assert.False(t, res.IsError)
	assert.Empty(t, res.Content)
	assert.Contains(t, regFail(t, r, "dyn", `{"kind":"other"}`), "kind:")
}

// regMoney marshals to a JSON string, whatever its Go fields.
type regMoney struct{ Cents int }

func (m regMoney) MarshalJSON() ([]byte, error) {
	return json.Marshal("$" + strings.Repeat("9", m.Cents))
}

func TestResultJSONMarshaler(t *testing.T) {
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("money", func() (regMoney, error) { return regMoney{Cents: 2}, nil }))
	res := regCall(t, r, "money", "")
	sc := regMarshal(t, res.StructuredContent)
	// Once a bug: the output schema of a json.Marshaler type came from its
	// Go fields, so a type that marshals to a string got an object
	// outputSchema and was sent unwrapped, as a string structuredContent.
	require.True(t, strings.HasPrefix(sc, "{"), "structuredContent %s, outputSchema %s", sc, regMarshal(t, regTool(t, r, "money")["outputSchema"]))
	assert.JSONEq(t, `{"result":"$99"}`, sc)
}

package mcptool

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

type catFilter struct {
	From time.Time `json:"from" jsonschema_description:"Start of the range"`
	Tags []string  `json:"tags,omitempty" validate:"omitempty,max=3,dive,min=2"`
}

type catArgs struct {
	_       struct{}    `mcp:"title=Find events,readOnly"`
	Query   string      `json:"query" jsonschema_description:"What to look for" validate:"required,min=2"`
	Limit   int         `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
	Sort    string      `json:"sort,omitempty" validate:"omitempty,oneof=relevance date"`
	Filters []catFilter `json:"filters,omitempty"`
}

type catEvent struct {
	ID   string `json:"id" jsonschema_description:"Event id"`
	Note string `json:"note,omitempty"`
}

func TestCatalog(t *testing.T) {
	reg := NewRegistry()
	require.NoError(t, reg.Add("find_events", func(context.Context, catArgs) ([]catEvent, error) { return nil, nil },
		Description("Find events | pipes escaped.")))
	require.NoError(t, reg.Add("ping", func() (string, error) { return "pong", nil }, Description("Ping.")))
	c, err := reg.Catalog()
	require.NoError(t, err)
	require.Len(t, c.Tools, 2)
	fe := c.Tools[0]
	assert.Equal(t, "find_events", fe.Name)
	assert.Equal(t, catalog.Hints{ReadOnly: true, OpenWorld: true}, fe.Hints)
	var paths []string
	for _, a := range fe.Arguments {
		paths = append(paths, a.Path)
	}
	assert.Equal(t, []string{"filters", "filters[].from", "filters[].tags", "limit", "query", "sort"}, paths)
	byPath := map[string]catalog.Argument{}
	for _, a := range fe.Arguments {
		byPath[a.Path] = a
	}
	assert.Equal(t, "integer", byPath["limit"].Type)
	assert.Equal(t, json.Number("10"), byPath["limit"].Default)
	assert.Equal(t, []string{"≥ 1", "≤ 100"}, byPath["limit"].Constraints)
	assert.True(t, byPath["query"].Required)
	assert.False(t, byPath["filters[].from"].Required, "required inside an optional array item is not required of the call")
	assert.Equal(t, "string (date-time)", byPath["filters[].from"].Type)
	assert.Equal(t, []string{"max items 3", "each: min length 2"}, byPath["filters[].tags"].Constraints)
	assert.Equal(t, []string{`one of "relevance", "date"`}, byPath["sort"].Constraints)
	// The example call is accepted by the tool.
	assert.JSONEq(t, `{"query":"example query"}`, string(fe.Example))
	res, err := reg.Call(context.Background(), "find_events", fe.Example)
	require.NoError(t, err)
	assert.False(t, res.IsError)
	var rpaths []string
	for _, a := range fe.Result {
		rpaths = append(rpaths, a.Path)
	}
	assert.Equal(t, []string{"result", "result[].id", "result[].note"}, rpaths)

	c, err = reg.Catalog()
	require.NoError(t, err)
	var md bytes.Buffer
	require.NoError(t, c.Write(&md, "markdown", "Tools"))
	out := md.String()
	assert.Contains(t, out, "# Tools\n")
	assert.Contains(t, out, "| [`find_events`](#find_events) | Find events | read-only, open world |")
	assert.Contains(t, out, "| `limit` | integer | no | `10` | ≥ 1; ≤ 100 |  |")
	assert.Contains(t, out, "\n> Find events \\| pipes escaped.\n")
	assert.Contains(t, out, `{"name":"find_events","arguments":{"query":"example query"}}`)
	assert.Contains(t, out, "## `ping`\n\n**Hints:** destructive, open world.\n\n> Ping.\n\nArguments: none.")

	var js bytes.Buffer
	require.NoError(t, c.Write(&js, "json", ""))
	var back catalog.Catalog
	require.NoError(t, json.Unmarshal(js.Bytes(), &back))
	assert.Equal(t, "ping", back.Tools[1].Name)
	assert.JSONEq(t, `{"type":"object","additionalProperties":false}`, string(back.Tools[1].InputSchema))
}

// TestCatalogReadsCombinedSchemas checks how an argument whose schema is
// anyOf, oneOf, allOf or not is shown: its branches' types, and each
// branch's constraints under its type.
func TestCatalogReadsCombinedSchemas(t *testing.T) {
	root := map[string]any{"$defs": map[string]any{"Small": map[string]any{"type": "integer", "maximum": 5.0}}}
	cases := []struct {
		schema string
		typ    string
		cons   []string
	}{
		{`{"anyOf":[{"type":"integer","minimum":1,"maximum":50},{"type":"string","pattern":"^[0-9]+$"},{"type":"null"}]}`,
			"integer or string or null", []string{"as integer: ≥ 1, ≤ 50", `as string: pattern "^[0-9]+$"`}},
		{`{"oneOf":[{"$ref":"#/$defs/Small"},{"type":"integer","minimum":10}]}`,
			"integer", []string{"as integer: ≤ 5", "as integer: ≥ 10"}},
		{`{"allOf":[{"type":"string","minLength":2},{"not":{"enum":[""]}}]}`,
			"string", []string{"min length 2", `not one of ""`}},
		{`{"anyOf":[{"not":{}},{}]}`, "see schema", nil},
	}
	for _, c := range cases {
		var s map[string]any
		if err := json.Unmarshal([]byte(c.schema), &s); err != nil {
			t.Fatal(err)
		}
		if got := typeOf(root, s); got != c.typ {
			t.Errorf("typeOf(%s) = %q, want %q", c.schema, got, c.typ)
		}
		if got := constraints(root, s); !slices.Equal(got, c.cons) {
			t.Errorf("constraints(%s) = %q, want %q", c.schema, got, c.cons)
		}
	}
}

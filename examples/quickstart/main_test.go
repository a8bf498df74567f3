package main

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// The README shows this tool's schema, annotations and error text; keep them true.
func TestReadmeClaims(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("search_notes", Search, mcptool.Description("Search notes by title.")))
	tool, _ := reg.Tool("search_notes")
	assert.JSONEq(t, `{"type": "object", "additionalProperties": false, "required": ["query"],
	 "properties": {
	   "query": {"type": "string", "minLength": 2, "description": "Words to look for, e.g. \"release plan\""},
	   "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
	   "sort":  {"type": "string", "enum": ["relevance", "date"]}}}`, string(tool.InputSchema.(json.RawMessage)))
	ann, _ := json.Marshal(tool.Annotations)
	assert.JSONEq(t, `{"title": "Search notes", "readOnlyHint": true, "idempotentHint": false, "openWorldHint": false}`, string(ann))

	res, err := reg.Call(context.Background(), "search_notes", json.RawMessage(`{"query": "x", "limit": 500, "qurey": 1}`))
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.Equal(t, `invalid arguments:
- query: must be at least 2 characters long, got 1 (minLength)
- limit: must be at most 100, got 500 (maximum)
- qurey: is not a known argument (did you mean "query"?) (additionalProperties)`, res.Content[0].(*mcp.TextContent).Text)

	res, err = reg.Call(context.Background(), "search_notes", json.RawMessage(`{"query": "plan"}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"result":[{"id":"1","title":"Release plan for 1.0"},{"id":"3","title":"Plan the plan"}]}`, string(res.StructuredContent.(json.RawMessage)))

	type badArgs struct {
		Limit int `json:"limit" validate:"omitempty,min=1"`
	}
	err = reg.Add("bad", func(context.Context, badArgs) (string, error) { return "", nil })
	require.Error(t, err)
	assert.Contains(t, err.Error(), `.Limit: tag validate:"omitempty,min=1": omitempty contradicts the json tag, which makes "limit" required: add omitempty to the json tag, or drop omitempty`)
}

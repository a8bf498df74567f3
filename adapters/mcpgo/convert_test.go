//lint:file-ignore SA1019 a sampling-only content block stands for the blocks mcp-go has no type for.

package mcpgo_test

import (
	"encoding/json"
	"testing"

	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/adapters/mcpgo"
	"github.com/mcpgen/mcpgen/mcptool"
)

func TestToolConversion(t *testing.T) {
	reg := sharedRegistry(t)
	for _, def := range reg.Tools() {
		t.Run(def.Name, func(t *testing.T) {
			got, err := mcpgo.Tool(def)
			require.NoError(t, err)
			assert.Equal(t, def.Name, got.Name)
			assert.Equal(t, def.Description, got.Description)
			assert.Equal(t, []byte(def.InputSchema.(json.RawMessage)), []byte(got.RawInputSchema), "the registry's schema bytes")
			if def.OutputSchema != nil {
				assert.Equal(t, []byte(def.OutputSchema.(json.RawMessage)), []byte(got.RawOutputSchema))
			} else {
				assert.Nil(t, got.RawOutputSchema)
			}
			// The tool marshals (mcp-go refuses a raw and a structured schema
			// both set) with go-sdk's annotations.
			raw, err := json.Marshal(got)
			require.NoError(t, err)
			var wire map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(raw, &wire))
			want, err := json.Marshal(def.Annotations)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(wire["annotations"]))
			assert.Equal(t, def.Title, got.Annotations.Title)
		})
	}

	// A definition built by hand: title only at the top, _meta, icons, a
	// schema that is not raw JSON, no schema at all.
	got, err := mcpgo.Tool(&mcp.Tool{
		Name:        "hand",
		Title:       "By hand",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "integer"}}},
		Meta:        mcp.Meta{"progressToken": "kept", "k": "v"},
		Icons:       []mcp.Icon{{Source: "https://example.com/i.png", MIMEType: "image/png", Sizes: []string{"48x48"}}},
	})
	require.NoError(t, err)
	assert.Equal(t, "By hand", got.Annotations.Title)
	assert.JSONEq(t, `{"type":"object","properties":{"x":{"type":"integer"}}}`, string(got.RawInputSchema))
	assert.Equal(t, []gomcp.Icon{{Src: "https://example.com/i.png", MIMEType: "image/png", Sizes: []string{"48x48"}}}, got.Icons)
	meta, _ := json.Marshal(got.Meta)
	assert.JSONEq(t, `{"progressToken":"kept","k":"v"}`, string(meta))

	got, err = mcpgo.Tool(&mcp.Tool{Name: "bare"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object"}`, string(got.RawInputSchema))
	assert.Nil(t, got.RawOutputSchema)

	_, err = mcpgo.Tool(&mcp.Tool{Name: "bad", InputSchema: func() {}})
	assert.Error(t, err)
}

func TestResultConversion(t *testing.T) {
	size := int64(7)
	meta := mcp.Meta{"progressToken": "p", "k": "v"}
	res := &mcp.CallToolResult{
		Meta: meta,
		Content: []mcp.Content{
			mcptool.Text("hi"),
			&mcp.TextContent{Text: "", Annotations: &mcp.Annotations{Audience: []mcp.Role{"user", "assistant"}, Priority: 0.25, LastModified: "2025-01-01T00:00:00Z"}, Meta: mcp.Meta{"a": 1.0}},
			mcptool.Image([]byte{1, 2, 3}, "image/png"),
			mcptool.Audio([]byte("RIFF"), "audio/wav"),
			mcptool.ResourceLink("file:///a", "a", ""),
			&mcp.ResourceLink{URI: "file:///b", Name: "b", Title: "Bee", Size: &size},
			mcptool.EmbeddedText("test://t", "text/plain", "body"),
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://b", MIMEType: "application/octet-stream", Blob: []byte{0, 255}}},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://m", Text: "x", Meta: mcp.Meta{"r": true}}, Meta: mcp.Meta{"e": 1.0}},
			&mcp.ToolUseContent{ID: "u1", Name: "t", Input: map[string]any{"q": 1.0}},
		},
		StructuredContent: map[string]any{"n": 1.0},
		IsError:           true,
	}
	out, err := mcpgo.Result(res)
	require.NoError(t, err)
	assert.True(t, out.IsError)
	assert.Equal(t, res.StructuredContent, out.StructuredContent)
	assert.Equal(t, mcp.Meta{"progressToken": "p", "k": "v"}, meta, "the result's _meta is not changed")

	// Native mcp-go types, where mcp-go has one that says it all.
	require.Len(t, out.Content, len(res.Content))
	assert.Equal(t, gomcp.NewTextContent("hi"), out.Content[0])
	tc := out.Content[1].(gomcp.TextContent)
	p := 0.25
	assert.Equal(t, &gomcp.Annotations{Audience: []gomcp.Role{"user", "assistant"}, Priority: &p, LastModified: "2025-01-01T00:00:00Z"}, tc.Annotations)
	assert.Equal(t, map[string]any{"a": 1.0}, tc.Meta.AdditionalFields)
	assert.Equal(t, gomcp.NewImageContent("AQID", "image/png"), out.Content[2])
	assert.Equal(t, gomcp.NewAudioContent("UklGRg==", "audio/wav"), out.Content[3])
	assert.Equal(t, gomcp.NewResourceLink("file:///a", "a", "", ""), out.Content[4])
	assert.Equal(t, gomcp.NewEmbeddedResource(gomcp.TextResourceContents{URI: "test://t", MIMEType: "text/plain", Text: "body"}), out.Content[6])
	assert.Equal(t, gomcp.NewEmbeddedResource(gomcp.BlobResourceContents{URI: "test://b", MIMEType: "application/octet-stream", Blob: "AP8="}), out.Content[7])
	er := out.Content[8].(gomcp.EmbeddedResource)
	assert.Equal(t, map[string]any{"r": true}, er.Resource.(gomcp.TextResourceContents).Meta)
	assert.Equal(t, map[string]any{"e": 1.0}, er.Meta.AdditionalFields)

	// Every block's JSON is go-sdk's, empty strings aside; the ones mcp-go
	// has no type for are go-sdk's JSON exactly.
	for i, c := range res.Content {
		want, err := json.Marshal(c)
		require.NoError(t, err)
		got, err := json.Marshal(out.Content[i])
		require.NoError(t, err)
		assert.Equal(t, dropEmpty(jsonMap(t, json.RawMessage(want))), dropEmpty(jsonMap(t, json.RawMessage(got))), "block %d (%T)", i, c)
		if i == 5 || i == 9 {
			assert.JSONEq(t, string(want), string(got), "block %d is passed on as it is", i)
		}
	}
	want, err := json.Marshal(res)
	require.NoError(t, err)
	got, err := json.Marshal(out)
	require.NoError(t, err)
	var w, g map[string]any
	require.NoError(t, json.Unmarshal(want, &w))
	require.NoError(t, json.Unmarshal(got, &g))
	assert.Equal(t, w["_meta"], g["_meta"])
	assert.Equal(t, w["structuredContent"], g["structuredContent"])
	assert.Equal(t, w["isError"], g["isError"])

	// An empty result has empty content, not null.
	out, err = mcpgo.Result(&mcp.CallToolResult{})
	require.NoError(t, err)
	raw, err := json.Marshal(out)
	require.NoError(t, err)
	assert.JSONEq(t, `{"content":[]}`, string(raw))

	_, err = mcpgo.Result(&mcp.CallToolResult{Content: []mcp.Content{nil}})
	assert.Error(t, err)
}

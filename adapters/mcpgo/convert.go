package mcpgo

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"

	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool converts a go-sdk tool definition, as [mcptool.Registry.Tools] returns
// them, to mcp-go's. The input and output schemas are passed on as raw JSON
// (RawInputSchema, RawOutputSchema), byte for byte; the annotations, _meta
// and icons are carried over. The title is sent at the top level and as
// annotations.title, where the registry puts it too.
func Tool(def *mcp.Tool) (gomcp.Tool, error) {
	t := gomcp.Tool{Name: def.Name, Title: def.Title, Description: def.Description}
	in, err := schemaJSON(def.InputSchema)
	if err != nil {
		return t, fmt.Errorf("tool %q: inputSchema: %w", def.Name, err)
	}
	if in == nil {
		in = json.RawMessage(`{"type":"object"}`)
	}
	t.RawInputSchema = in
	if t.RawOutputSchema, err = schemaJSON(def.OutputSchema); err != nil {
		return t, fmt.Errorf("tool %q: outputSchema: %w", def.Name, err)
	}
	if def.Annotations != nil {
		if err := roundTrip(def.Annotations, &t.Annotations); err != nil {
			return t, fmt.Errorf("tool %q: annotations: %w", def.Name, err)
		}
	}
	if t.Annotations.Title == "" {
		t.Annotations.Title = def.Title
	}
	t.Meta = metaOf(def.Meta)
	if len(def.Icons) > 0 {
		if err := roundTrip(def.Icons, &t.Icons); err != nil {
			return t, fmt.Errorf("tool %q: icons: %w", def.Name, err)
		}
	}
	return t, nil
}

// schemaJSON returns a schema as JSON: nil for none, raw JSON as it is.
func schemaJSON(s any) (json.RawMessage, error) {
	switch v := s.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		if v == nil {
			return nil, nil
		}
		return v, nil
	case []byte:
		if v == nil {
			return nil, nil
		}
		return json.RawMessage(v), nil
	}
	return json.Marshal(s)
}

// Result converts a go-sdk tool result to mcp-go's: content, structured
// content, isError and _meta, and the input requests and request state of an
// input-required result. Every content block becomes mcp-go's type for
// it (TextContent, ImageContent, AudioContent, ResourceLink,
// EmbeddedResource with TextResourceContents or BlobResourceContents), with
// its annotations and _meta; binary data is base64-encoded as on the wire. A
// block mcp-go has no faithful type for (a resource link with a title, size,
// icons or _meta; a sampling-only block) is passed on as go-sdk's JSON of it.
func Result(res *mcp.CallToolResult) (*gomcp.CallToolResult, error) {
	out := &gomcp.CallToolResult{
		Content:           make([]gomcp.Content, 0, len(res.Content)),
		StructuredContent: res.StructuredContent,
		IsError:           res.IsError,
	}
	out.Meta = metaOf(res.Meta)
	if len(res.InputRequests) > 0 {
		// A 2026-07-28 call waiting for the client's input.
		out.ResultType = gomcp.ResultTypeInputRequired
		if err := roundTrip(res.InputRequests, &out.InputRequests); err != nil {
			return nil, fmt.Errorf("mcpgo: input requests: %w", err)
		}
		out.RequestState = res.RequestState
		for _, r := range out.InputRequests {
			if e := r.Elicitation; e != nil && e.RequestedSchema == nil && (e.Mode == "" || e.Mode == gomcp.ElicitationModeForm) {
				// mcp-go needs a schema in form mode; go-sdk leaves it out.
				e.RequestedSchema = map[string]any{"type": "object", "properties": map[string]any{}}
			}
		}
	}
	for _, c := range res.Content {
		gc, err := content(c)
		if err != nil {
			return nil, err
		}
		out.Content = append(out.Content, gc)
	}
	return out, nil
}

// content converts one go-sdk content block.
func content(c mcp.Content) (gomcp.Content, error) {
	switch v := c.(type) {
	case *mcp.TextContent:
		return gomcp.TextContent{Annotated: annotated(v.Annotations), Meta: metaOf(v.Meta), Type: gomcp.ContentTypeText, Text: v.Text}, nil
	case *mcp.ImageContent:
		return gomcp.ImageContent{Annotated: annotated(v.Annotations), Meta: metaOf(v.Meta), Type: gomcp.ContentTypeImage,
			Data: base64.StdEncoding.EncodeToString(v.Data), MIMEType: v.MIMEType}, nil
	case *mcp.AudioContent:
		return gomcp.AudioContent{Annotated: annotated(v.Annotations), Meta: metaOf(v.Meta), Type: gomcp.ContentTypeAudio,
			Data: base64.StdEncoding.EncodeToString(v.Data), MIMEType: v.MIMEType}, nil
	case *mcp.ResourceLink:
		if v.Title == "" && v.Size == nil && len(v.Icons) == 0 && len(v.Meta) == 0 {
			return gomcp.ResourceLink{Annotated: annotated(v.Annotations), Type: gomcp.ContentTypeLink,
				URI: v.URI, Name: v.Name, Description: v.Description, MIMEType: v.MIMEType}, nil
		}
	case *mcp.EmbeddedResource:
		if r := v.Resource; r != nil {
			er := gomcp.EmbeddedResource{Annotated: annotated(v.Annotations), Meta: metaOf(v.Meta), Type: gomcp.ContentTypeResource}
			if r.Blob != nil {
				er.Resource = gomcp.BlobResourceContents{Meta: cloneMap(r.Meta), URI: r.URI, MIMEType: r.MIMEType, Blob: base64.StdEncoding.EncodeToString(r.Blob)}
			} else {
				er.Resource = gomcp.TextResourceContents{Meta: cloneMap(r.Meta), URI: r.URI, MIMEType: r.MIMEType, Text: r.Text}
			}
			return er, nil
		}
	case nil:
		return nil, fmt.Errorf("mcpgo: nil content block")
	}
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("mcpgo: content %T: %w", c, err)
	}
	return rawContent{raw: raw}, nil
}

// rawContent is a content block that mcp-go has no faithful type for, sent
// as go-sdk's JSON of it. It embeds TextContent only to be a gomcp.Content.
type rawContent struct {
	gomcp.TextContent
	raw json.RawMessage
}

// MarshalJSON returns go-sdk's JSON of the block.
func (c rawContent) MarshalJSON() ([]byte, error) { return c.raw, nil }

func annotated(a *mcp.Annotations) gomcp.Annotated {
	if a == nil {
		return gomcp.Annotated{}
	}
	out := &gomcp.Annotations{LastModified: a.LastModified}
	for _, r := range a.Audience {
		out.Audience = append(out.Audience, gomcp.Role(r))
	}
	if a.Priority != 0 {
		p := a.Priority
		out.Priority = &p
	}
	return gomcp.Annotated{Annotations: out}
}

// metaOf converts go-sdk _meta. It copies the map: mcp-go's NewMetaFromMap
// takes progressToken out of the map it is given.
func metaOf(m map[string]any) *gomcp.Meta {
	if len(m) == 0 {
		return nil
	}
	return gomcp.NewMetaFromMap(maps.Clone(m))
}

func cloneMap(m map[string]any) map[string]any {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}

// roundTrip converts between the two libraries' types of one protocol
// object through its JSON.
func roundTrip(from, to any) error {
	b, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, to)
}

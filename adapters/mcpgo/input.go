//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them.

package mcpgo

import (
	"context"
	"errors"
	"fmt"

	gjs "github.com/google/jsonschema-go/jsonschema"
	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicit sends an elicitation request, as go-sdk's ServerSession.Elicit
// does: the mode inferred when unset, checked against the client's declared
// modes, and accepted content checked against the requested schema, with
// its defaults applied.
func elicit(ctx context.Context, srv *server.MCPServer, caps *gomcp.ElicitationCapability, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	mode := p.Mode
	if mode == "" {
		mode = gomcp.ElicitationModeForm
		if p.URL != "" || p.ElicitationID != "" {
			mode = gomcp.ElicitationModeURL
		}
	}
	switch mode {
	case gomcp.ElicitationModeForm:
		if caps.Form == nil && caps.URL != nil {
			return nil, errors.New(`client does not support "form" elicitation`)
		}
	case gomcp.ElicitationModeURL:
		if caps.URL == nil {
			return nil, errors.New(`client does not support "url" elicitation`)
		}
	}
	var params gomcp.ElicitationParams
	if err := roundTrip(p, &params); err != nil {
		return nil, fmt.Errorf("elicitation request: %w", err)
	}
	params.Mode = mode
	if mode == gomcp.ElicitationModeForm && params.RequestedSchema == nil {
		// mcp-go requires a schema in form mode; go-sdk leaves it out.
		params.RequestedSchema = map[string]any{"type": "object", "properties": map[string]any{}}
	}
	res, err := srv.RequestElicitation(ctx, gomcp.ElicitationRequest{
		Request: gomcp.Request{Method: string(gomcp.MethodElicitationCreate)},
		Params:  params,
	})
	if err != nil {
		return nil, err
	}
	var out mcp.ElicitResult
	if err := roundTrip(res, &out); err != nil {
		return nil, fmt.Errorf("elicitation result: %w", err)
	}
	if out.Action != "accept" || out.Content == nil || p.RequestedSchema == nil {
		return &out, nil
	}
	schema, err := resolveSchema(p.RequestedSchema)
	if err != nil {
		return nil, err
	}
	if err := schema.Validate(out.Content); err != nil {
		return nil, fmt.Errorf("elicitation result content does not match requested schema: %v", err)
	}
	if err := schema.ApplyDefaults(&out.Content); err != nil {
		return nil, fmt.Errorf("failed to apply schema defaults to elicitation result: %v", err)
	}
	return &out, nil
}

func resolveSchema(s any) (*gjs.Resolved, error) {
	var schema gjs.Schema
	if err := roundTrip(s, &schema); err != nil {
		return nil, fmt.Errorf("requested schema: %w", err)
	}
	return schema.Resolve(nil)
}

// sample sends a sampling request: params is *mcp.CreateMessageParams or
// *mcp.CreateMessageWithToolsParams (without tools). The answer is always
// a *mcp.CreateMessageWithToolsResult, as [mcptool.Ask] promises.
func sample(ctx context.Context, srv *server.MCPServer, params any) (*mcp.CreateMessageWithToolsResult, error) {
	var req gomcp.CreateMessageRequest
	req.Method = string(gomcp.MethodSamplingCreateMessage)
	if err := roundTrip(params, &req.CreateMessageParams); err != nil {
		return nil, fmt.Errorf("sampling request: %w", err)
	}
	// Give the messages mcp-go's content types, as its clients expect.
	for i := range req.Messages {
		c, err := typedContent(req.Messages[i].Content)
		if err != nil {
			return nil, fmt.Errorf("sampling request: message %d: %w", i, err)
		}
		req.Messages[i].Content = c
	}
	res, err := srv.RequestSampling(ctx, req)
	if err != nil {
		return nil, err
	}
	wire := struct {
		Meta       *gomcp.Meta `json:"_meta,omitempty"`
		Role       gomcp.Role  `json:"role"`
		Content    any         `json:"content"`
		Model      string      `json:"model"`
		StopReason string      `json:"stopReason,omitempty"`
	}{res.Meta, res.Role, typed(res.Content), res.Model, res.StopReason}
	var out mcp.CreateMessageWithToolsResult
	if err := roundTrip(wire, &out); err != nil {
		return nil, fmt.Errorf("sampling result: %w", err)
	}
	return &out, nil
}

// typedContent turns decoded JSON content (an object, or an array of them)
// into mcp-go content values.
func typedContent(v any) (any, error) {
	switch c := v.(type) {
	case map[string]any:
		return gomcp.ParseContent(c)
	case []any:
		if len(c) == 1 {
			return typedContent(c[0])
		}
		out := make([]gomcp.Content, 0, len(c))
		for _, x := range c {
			m, ok := x.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("content block is %T, not an object", x)
			}
			pc, err := gomcp.ParseContent(m)
			if err != nil {
				return nil, err
			}
			out = append(out, pc)
		}
		return out, nil
	}
	return v, nil
}

// typed fills in the type of mcp-go content values that a client's handler
// built without it, so that they marshal as valid content.
func typed(v any) any {
	switch c := v.(type) {
	case gomcp.TextContent:
		c.Type = gomcp.ContentTypeText
		return c
	case *gomcp.TextContent:
		if c != nil && c.Type == "" {
			cc := *c
			cc.Type = gomcp.ContentTypeText
			return cc
		}
	case gomcp.ImageContent:
		c.Type = gomcp.ContentTypeImage
		return c
	case *gomcp.ImageContent:
		if c != nil && c.Type == "" {
			cc := *c
			cc.Type = gomcp.ContentTypeImage
			return cc
		}
	case gomcp.AudioContent:
		c.Type = gomcp.ContentTypeAudio
		return c
	case *gomcp.AudioContent:
		if c != nil && c.Type == "" {
			cc := *c
			cc.Type = gomcp.ContentTypeAudio
			return cc
		}
	case []gomcp.Content:
		out := make([]any, len(c))
		for i, x := range c {
			out[i] = typed(x)
		}
		return out
	}
	return v
}

// listRoots asks the client for its roots.
func listRoots(ctx context.Context, srv *server.MCPServer, p *mcp.ListRootsParams) (*mcp.ListRootsResult, error) {
	req := gomcp.ListRootsRequest{Request: gomcp.Request{Method: string(gomcp.MethodListRoots)}}
	if len(p.Meta) > 0 {
		req.Params.Meta = metaOf(p.Meta)
	}
	res, err := srv.RequestRoots(ctx, req)
	if err != nil {
		return nil, err
	}
	var out mcp.ListRootsResult
	if err := roundTrip(res, &out); err != nil {
		return nil, fmt.Errorf("roots result: %w", err)
	}
	if out.Roots == nil {
		out.Roots = []*mcp.Root{}
	}
	return &out, nil
}

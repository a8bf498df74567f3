package mcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/client"
	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/adapters/mcpgo"
	"github.com/mcpgen/mcpgen/mcptool"
)

type LookupArgs struct {
	_    struct{} `mcp:"title=Look up a word,readOnly,openWorld=false"`
	Word string   `json:"word" jsonschema:"description=The word to define"`
}

// Tool converts a registry's tool definition to mcp-go's, for code that
// registers tools on an mcp-go server by hand (Mount does this for every
// tool). The input schema is the registry's, byte for byte, and the title
// travels as annotations.title.
func ExampleTool() {
	reg := mcptool.NewRegistry()
	err := reg.Add("lookup", func(_ context.Context, in LookupArgs) (string, error) {
		return in.Word + ": a word", nil
	}, mcptool.Description("Defines a word."))
	if err != nil {
		panic(err)
	}

	def := reg.Tools()[0]
	tool, err := mcpgo.Tool(def)
	if err != nil {
		panic(err)
	}
	fmt.Println(tool.Name, "-", tool.Description)
	fmt.Println(string(tool.RawInputSchema))
	fmt.Println(tool.Annotations.Title, *tool.Annotations.ReadOnlyHint, *tool.Annotations.OpenWorldHint)
	// Output:
	// lookup - Defines a word.
	// {"properties":{"word":{"type":"string","description":"The word to define"}},"additionalProperties":false,"type":"object","required":["word"]}
	// Look up a word true false
}

// Result converts a go-sdk tool result, as mcptool.Registry.Call returns
// it, to mcp-go's: each content block becomes mcp-go's type for it (binary
// data base64-encoded), and structured content and isError are kept.
func ExampleResult() {
	res, err := mcpgo.Result(&mcp.CallToolResult{
		Content: []mcp.Content{
			mcptool.Text("two files"),
			mcptool.Image([]byte{0x89, 'P', 'N', 'G'}, "image/png"),
			mcptool.EmbeddedText("file:///notes.txt", "text/plain", "buy milk"),
		},
		StructuredContent: map[string]any{"count": 2},
	})
	if err != nil {
		panic(err)
	}
	for _, c := range res.Content {
		switch c := c.(type) {
		case gomcp.TextContent:
			fmt.Println("text:", c.Text)
		case gomcp.ImageContent:
			fmt.Println("image:", c.MIMEType, c.Data)
		case gomcp.EmbeddedResource:
			r := c.Resource.(gomcp.TextResourceContents)
			fmt.Println("resource:", r.URI, r.Text)
		}
	}
	b, _ := json.Marshal(res.StructuredContent)
	fmt.Println(string(b), res.IsError)
	// Output:
	// text: two files
	// image: image/png iVBORw==
	// resource: file:///notes.txt buy milk
	// {"count":2} false
}

// Request gives a tool the mcp-go request it was called with, for the
// request's _meta (or, on HTTP transports, its headers). It is nil when the
// tool is called some other way, for instance with mcptool.Registry.Call.
func ExampleRequest() {
	reg := mcptool.NewRegistry()
	err := reg.Add("whoami", func(ctx context.Context) (string, error) {
		req := mcpgo.Request(ctx)
		if req == nil || req.Params.Meta == nil {
			return "no mcp-go request", nil
		}
		return fmt.Sprintf("called as %s, trace %v", req.Params.Name, req.Params.Meta.AdditionalFields["trace"]), nil
	}, mcptool.Description("Reports how it was called."))
	if err != nil {
		panic(err)
	}
	s := mcpgo.NewServer(reg, "demo", "1.0.0")

	ctx := context.Background()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		panic(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		panic(err)
	}
	if _, err := c.Initialize(ctx, gomcp.InitializeRequest{Params: gomcp.InitializeParams{ProtocolVersion: gomcp.LATEST_PROTOCOL_VERSION}}); err != nil {
		panic(err)
	}

	req := gomcp.CallToolRequest{}
	req.Params.Name = "whoami"
	req.Params.Meta = &gomcp.Meta{AdditionalFields: map[string]any{"trace": "t-42"}}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Content[0].(gomcp.TextContent).Text)

	direct, err := reg.Call(ctx, "whoami", nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(direct.Content[0].(*mcp.TextContent).Text)
	// Output:
	// called as whoami, trace t-42
	// no mcp-go request
}

// Mount keeps an mcp-go server in step with the registry: tools added
// later appear on the server, and unmount takes the registry's tools off
// it again while the server's own tools stay.
func ExampleMount_unmount() {
	reg := mcptool.NewRegistry()
	s := server.NewMCPServer("demo", "1.0.0", server.WithToolCapabilities(true))
	s.AddTool(gomcp.NewTool("ping"), func(context.Context, gomcp.CallToolRequest) (*gomcp.CallToolResult, error) {
		return gomcp.NewToolResultText("pong"), nil
	})

	unmount := mcpgo.Mount(reg, s)
	fmt.Println(len(s.ListTools()), "tools")
	err := reg.Add("lookup", func(_ context.Context, in LookupArgs) (string, error) {
		return in.Word, nil
	}, mcptool.Description("Defines a word."))
	if err != nil {
		panic(err)
	}
	fmt.Println(len(s.ListTools()), "tools")
	unmount()
	_, stillThere := s.ListTools()["ping"]
	fmt.Println(len(s.ListTools()), "tools, ping:", stillThere)
	// Output:
	// 1 tools
	// 2 tools
	// 1 tools, ping: true
}

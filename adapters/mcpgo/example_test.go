package mcpgo_test

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/client"
	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpgen/mcpgen/adapters/mcpgo"
	"github.com/mcpgen/mcpgen/mcptool"
)

type GreetArgs struct {
	Name string `json:"name" validate:"required,min=2"`
}

func Greet(_ context.Context, in GreetArgs) (string, error) {
	return "Hello, " + in.Name + "!", nil
}

// Mount an mcpgen registry on an mcp-go server that has tools of its own,
// and call both kinds with mcp-go's client.
func ExampleMount() {
	reg := mcptool.NewRegistry()
	if err := reg.Add("greet", Greet, mcptool.Description("Greets someone.")); err != nil {
		panic(err)
	}

	s := server.NewMCPServer("demo", "1.0.0", server.WithToolCapabilities(true), server.WithLogging())
	s.AddTool(gomcp.NewTool("ping", gomcp.WithDescription("A plain mcp-go tool.")),
		func(context.Context, gomcp.CallToolRequest) (*gomcp.CallToolResult, error) {
			return gomcp.NewToolResultText("pong"), nil
		})
	unmount := mcpgo.Mount(reg, s)
	defer unmount()

	// In a real server: server.ServeStdio(s), or
	// server.NewStreamableHTTPServer(s).Start(":8080").
	ctx := context.Background()
	c, _ := client.NewInProcessClient(s)
	defer c.Close()
	_ = c.Start(ctx)
	_, _ = c.Initialize(ctx, gomcp.InitializeRequest{Params: gomcp.InitializeParams{ProtocolVersion: gomcp.LATEST_PROTOCOL_VERSION}})

	for _, args := range []map[string]any{{"name": "Ada"}, {"name": "A"}} {
		req := gomcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "greet", args
		res, _ := c.CallTool(ctx, req)
		fmt.Printf("isError=%v %s\n", res.IsError, res.Content[0].(gomcp.TextContent).Text)
	}
	req := gomcp.CallToolRequest{}
	req.Params.Name = "ping"
	res, _ := c.CallTool(ctx, req)
	fmt.Println(res.Content[0].(gomcp.TextContent).Text)
	// Output:
	// isError=false Hello, Ada!
	// isError=true invalid arguments:
	// - name: must be at least 2 characters long, got 1 (minLength)
	// pong
}

// NewServer builds the mcp-go server too, with the tools (listChanged) and
// logging capabilities declared.
func ExampleNewServer() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("greet", Greet, mcptool.Description("Greets someone."))
	s := mcpgo.NewServer(reg, "demo", "1.0.0", server.WithInstructions("Greets people."))

	_ = reg.Add("greet_twice", func(ctx context.Context, in GreetArgs) (string, error) {
		g, _ := Greet(ctx, in)
		return g + " " + g, nil
	}, mcptool.Description("Greets someone twice."))
	fmt.Println(len(s.ListTools()), "tools")
	// Output: 2 tools
}

package sdkpatch

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// notifications/tools/list_changed for tools go-sdk does not hold. go-sdk
// v1.8.0 sends it only when its own tool set changes (AddTool,
// RemoveTools), after a short delay that gathers changes into one
// notification, to every session and listen that wants it; mcptool serves
// its registry's tools from middleware, so a placeholder tool goes in and
// out of go-sdk's set to make it send one. tools/list must hide the
// placeholder (ListChangedTool).
//
// Retire when go-sdk can be told that the tool list changed (an exported
// notify, or a tools/list_changed it sends for middleware-served tools).

// ListChangedTool is the name of the placeholder tool.
const ListChangedTool = "io.mcpgen.list-changed"

// ToolsChanged makes go-sdk tell srv's clients that its tool list changed.
func ToolsChanged(srv *mcp.Server) {
	srv.AddTool(&mcp.Tool{Name: ListChangedTool, InputSchema: json.RawMessage(`{"type":"object"}`)}, placeholder)
	srv.RemoveTools(ListChangedTool)
}

func placeholder(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", ListChangedTool)}
}

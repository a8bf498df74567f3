package bench

// The handler path: raw arguments in, *CallToolResult out, no transport.
//
//	floor          the hand-written ToolHandler (json.Decoder with
//	               DisallowUnknownFields, checks by hand, result by hand)
//	mcpgen         the ToolHandler mcpgen mounts on a go-sdk server for a
//	               tool added with the generic mcptool.Add
//	gosdk          the ToolHandler go-sdk's generic mcp.AddTool builds
//	mcpgo          MCPServer.HandleMessage with a tools/call request: mcp-go
//	               validates inside its unexported handleToolCall, reachable
//	               only through HandleMessage, so its row includes parsing
//	               the JSON-RPC envelope (mcp-go's arguments are an `any`
//	               decoded with the envelope; that decoding is part of its
//	               validation path)
//
// Informative rows: floor-lax (json.Unmarshal: accepts unknown properties,
// so it is not equivalent), mcpgen-reflect (Registry.Add: reflect.Call per
// call), mcpgen-call (Registry.Call: mcpgen without the go-sdk adapter).

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func BenchmarkHandler(b *testing.B) {
	ctx := context.Background()
	sdk := func(h mcp.ToolHandler) func(*testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := callRequest(validArgs)
				res, err := h(ctx, req)
				if err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		}
	}
	b.Run("stack=floor", sdk(floorHandler))
	b.Run("stack=mcpgen", sdk(sdkHandler(mounted(mcpgenRegistry()), toolName)))
	b.Run("stack=gosdk", sdk(sdkHandler(gosdkServer(), toolName)))
	b.Run("stack=mcpgo", func(b *testing.B) {
		s := mcpgoServer()
		msg := mcpgoCallMessage(validArgs)
		b.ReportAllocs()
		for b.Loop() {
			res, err := mcpgoResult(s.HandleMessage(ctx, msg))
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
	b.Run("stack=floor-lax", sdk(floorLaxHandler))
	b.Run("stack=mcpgen-reflect", sdk(sdkHandler(mounted(mcpgenReflectRegistry()), toolName)))
	b.Run("stack=mcpgen-call", func(b *testing.B) {
		r := mcpgenRegistry()
		b.ReportAllocs()
		for b.Loop() {
			res, err := r.Call(ctx, toolName, validArgs)
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
}

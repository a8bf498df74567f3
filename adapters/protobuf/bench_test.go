package mcpproto_test

import (
	"context"
	"encoding/json"
	"testing"

	"buf.build/go/protovalidate"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/protobuf/encoding/protojson"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb"
	"github.com/mcpgen/mcpgen/mcptool"
)

// The target: a call on a protobuf tool costs at most 1.5x a
// hand-written handler that decodes with protojson and validates with
// protovalidate itself. Compare with benchstat:
//
//	go test -run '^$' -bench 'BenchmarkLendBook' -count 10 . | tee new.txt
//
// Numbers measured on a loaded machine say nothing: run it alone.
var lendArgs = json.RawMessage(`{"bookId":"b-1","member":"a@example.com","days":14,"due":"2999-01-01T00:00:00Z"}`)

// BenchmarkLendBookTool is one tools/call of lend_book through the
// registry: size check, protojson, protovalidate, the method, protojson of
// the result, the tool result.
func BenchmarkLendBookTool(b *testing.B) {
	reg := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), quiet())
	if err := reg.AddMethods(newLibrary()); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := reg.Call(ctx, "lend_book", lendArgs)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// BenchmarkLendBookHandWritten is the same work written by hand: protojson,
// protovalidate, the method, protojson of the result into a tool result.
func BenchmarkLendBookHandWritten(b *testing.B) {
	lib := newLibrary()
	v, err := protovalidate.New()
	if err != nil {
		b.Fatal(err)
	}
	handle := func(ctx context.Context, args json.RawMessage) (*mcp.CallToolResult, error) {
		var in testpb.LendBookRequest
		if err := protojson.Unmarshal(args, &in); err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
		}
		if err := v.Validate(&in); err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
		}
		out, err := lib.LendBook(ctx, &in)
		if err != nil {
			return nil, err
		}
		raw, err := protojson.Marshal(out)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(raw)}}, StructuredContent: json.RawMessage(raw)}, nil
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := handle(ctx, lendArgs)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

package mcpproto_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb"
	"github.com/mcpgen/mcpgen/mcptool"
)

// A gRPC server implementation becomes tools as it is: the methods it
// inherits from UnimplementedLibraryServer and the streaming WatchBooks
// are skipped.
func ExampleTypes() {
	reg := mcptool.NewRegistry(
		mcpproto.Types(mcpproto.SourceInfo(testpb.Descriptors)), // comments as descriptions
		mcptool.Logger(slog.New(slog.DiscardHandler)), mcptool.NoDescription())
	if err := reg.AddMethods(newLibrary(), mcptool.Method("GetBook", mcptool.ReadOnly(true))); err != nil {
		fmt.Println(err)
		return
	}
	for _, tl := range reg.Tools() {
		fmt.Println(tl.Name)
	}
	ctx := context.Background()
	res, _ := reg.Call(ctx, "get_book", json.RawMessage(`{"bookId":"b-1"}`))
	fmt.Println(string(res.StructuredContent.(json.RawMessage)))
	res, _ = reg.Call(ctx, "lend_book", json.RawMessage(`{"bookId":"b-1","member":"ada","days":"14","extra":1}`))
	fmt.Println(text(res))
	// Output:
	// get_book
	// lend_book
	// {"bookId":"b-1","title":"Dune","authors":["Frank Herbert"],"year":1965,"shelf":"SHELF_FICTION","added":"2026-01-02T03:04:05Z"}
	// invalid arguments:
	// - extra: unknown field (additionalProperties)
	// - member: must be a valid email address (string.email)
}

// AddService registers a service from its descriptor; one from Described,
// with the source info of the descriptor set protogen writes, describes
// each tool by its method's .proto comment.
func ExampleAddService() {
	sd, err := mcpproto.Described(testpb.File_library_proto.Services().ByName("Library"), testpb.Descriptors)
	if err != nil {
		fmt.Println(err)
		return
	}
	reg := mcptool.NewRegistry(mcpproto.Types(), mcptool.Logger(slog.New(slog.DiscardHandler)))
	if err := mcpproto.AddService(reg, sd, newLibrary(), mcptool.Prefix("library_")); err != nil {
		fmt.Println(err)
		return
	}
	for _, tl := range reg.Tools() {
		fmt.Printf("%s: %s\n", tl.Name, tl.Description)
	}
	// Output:
	// library_get_book: Gets one book by its ID.
	// library_lend_book: Lends a book to a member.
}

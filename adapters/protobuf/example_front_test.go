package mcpproto_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/reflection"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb"
	"github.com/mcpgen/mcpgen/mcptool"
)

// startLibrary serves the library over gRPC on loopback, with the
// reflection service, as a server nobody here wrote would be.
func startLibrary(lib testpb.LibraryServer) (addr string, stop func(), err error) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := grpc.NewServer()
	testpb.RegisterLibraryServer(srv, lib)
	reflection.Register(srv)
	go func() { _ = srv.Serve(lis) }()
	return lis.Addr().String(), srv.Stop, nil
}

// Front makes a running gRPC server's unary methods tools, from its
// reflection service alone.
func ExampleFront() {
	addr, stop, err := startLibrary(newLibrary())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.Close()

	reg := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), mcptool.Logger(slog.New(slog.DiscardHandler)))
	ctx := context.Background()
	err = mcpproto.Front(ctx, reg, conn,
		mcpproto.ToolPrefix("library_"),
		mcpproto.Metadata(func(context.Context) map[string]string { return map[string]string{"authorization": "Bearer demo"} }))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, tl := range reg.Tools() {
		fmt.Println(tl.Name)
	}
	res, _ := reg.Call(ctx, "library_get_book", json.RawMessage(`{"bookId":"b-1"}`))
	fmt.Println(res.IsError)
	fmt.Println(string(res.StructuredContent.(json.RawMessage)))
	res, _ = reg.Call(ctx, "library_get_book", json.RawMessage(`{"bookId":"nope"}`))
	fmt.Println(text(res))
	res, _ = reg.Call(ctx, "library_get_book", json.RawMessage(`{"bookId":"b-9"}`))
	fmt.Println(text(res))
	// Output:
	// library_delete_book
	// library_get_book
	// library_lend_book
	// library_list_books
	// false
	// {"bookId":"b-1","title":"Dune","authors":["Frank Herbert"],"year":1965,"shelf":"SHELF_FICTION","added":"2026-01-02T03:04:05Z"}
	// invalid arguments:
	// - bookId: does not match regex pattern `^b-[0-9]+$` (string.pattern)
	// NotFound: no book b-9
}

// WithLimits bounds what each fronted call may cost: here a response of
// more than 3 values is refused before it is decoded, and the result names
// the bound.
func ExampleWithLimits() {
	addr, stop, err := startLibrary(newLibrary())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stop()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer conn.Close()

	reg := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), mcptool.Logger(slog.New(slog.DiscardHandler)))
	ctx := context.Background()
	err = mcpproto.Front(ctx, reg, conn, mcpproto.WithLimits(mcpproto.Limits{Timeout: 5 * time.Second, MaxResponseValues: 3}))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, _ := reg.Call(ctx, "get_book", json.RawMessage(`{"bookId":"b-1"}`))
	fmt.Println(text(res))
	// Output:
	// mcpgen.test.Library/GetBook: the server's response holds more than 3 values (mcpproto.Limits.MaxResponseValues)
}

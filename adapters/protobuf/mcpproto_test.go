package mcpproto_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/timestamppb"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb/testpbconnect"
	"github.com/mcpgen/mcpgen/mcptool"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func quiet() mcptool.RegistryOption { return mcptool.Logger(slog.New(slog.DiscardHandler)) }

// grpcLibrary is a gRPC server implementation, as a user writes one.
type grpcLibrary struct {
	testpb.UnimplementedLibraryServer
	books map[string]*testpb.Book
}

func (l *grpcLibrary) GetBook(_ context.Context, in *testpb.GetBookRequest) (*testpb.Book, error) {
	b, ok := l.books[in.GetBookId()]
	if !ok {
		return nil, status.Errorf(codes.NotFound, "no book %s", in.GetBookId())
	}
	return b, nil
}

func (l *grpcLibrary) LendBook(_ context.Context, in *testpb.LendBookRequest) (*testpb.Loan, error) {
	return &testpb.Loan{LoanId: "l-1", BookId: in.GetBookId(), Member: in.GetMember(), Due: in.GetDue()}, nil
}

func (l *grpcLibrary) WatchBooks(*testpb.ListBooksRequest, grpc.ServerStreamingServer[testpb.Book]) error {
	return errors.New("not a tool")
}

// connectLibrary is a Connect handler implementation.
type connectLibrary struct {
	testpbconnect.UnimplementedLibraryHandler
}

func (connectLibrary) GetBook(_ context.Context, req *connect.Request[testpb.GetBookRequest]) (*connect.Response[testpb.Book], error) {
	return connect.NewResponse(&testpb.Book{BookId: req.Msg.GetBookId(), Title: "Dune", Authors: []string{"Frank Herbert"}, Year: 1965}), nil
}

func (connectLibrary) DeleteBook(context.Context, *connect.Request[testpb.DeleteBookRequest]) (*connect.Response[emptypb.Empty], error) {
	return connect.NewResponse(&emptypb.Empty{}), nil
}

func newLibrary() *grpcLibrary {
	return &grpcLibrary{books: map[string]*testpb.Book{
		"b-1": {BookId: "b-1", Title: "Dune", Authors: []string{"Frank Herbert"}, Year: 1965, Shelf: testpb.Shelf_SHELF_FICTION,
			Added: timestamppb.New(mustTime("2026-01-02T03:04:05Z"))},
	}}
}

func call(t *testing.T, reg *mcptool.Registry, name, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := reg.Call(context.Background(), name, json.RawMessage(args))
	require.NoError(t, err)
	return res
}

func text(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }

func TestAddMethodsOnGRPCServer(t *testing.T) {
	var logs strings.Builder
	reg := mcptool.NewRegistry(mcpproto.Types(mcpproto.SourceInfo(testpb.Descriptors)), mcptool.Logger(slog.New(slog.NewTextHandler(&logs, nil))))
	require.NoError(t, reg.AddMethods(newLibrary()))
	var names []string
	for _, tl := range reg.Tools() {
		names = append(names, tl.Name)
	}
	assert.ElementsMatch(t, []string{"get_book", "lend_book"}, names, "stubs and the streaming method are no tools")
	assert.Contains(t, logs.String(), "WatchBooks", "the streaming method is skipped with a note")

	res := call(t, reg, "get_book", `{"bookId":"b-1"}`)
	require.False(t, res.IsError, text(res))
	assert.JSONEq(t, `{"bookId":"b-1","title":"Dune","authors":["Frank Herbert"],"year":1965,"shelf":"SHELF_FICTION","added":"2026-01-02T03:04:05Z"}`, text(res))
	assert.JSONEq(t, text(res), string(res.StructuredContent.(json.RawMessage)))

	res = call(t, reg, "get_book", `{"book_id":"b-1"}`)
	require.True(t, res.IsError, "the .proto name is not the published spelling")
	assert.Equal(t, "invalid arguments:\n- (arguments): missing property 'bookId' (required)\n- book_id: unknown field; this field is spelt bookId (additionalProperties)", text(res))

	res = call(t, reg, "get_book", `{"bookId":"b-1","color":1}`)
	require.True(t, res.IsError)
	assert.Equal(t, "invalid arguments:\n- color: unknown field (protojson)", normalizeUnknown(text(res)))

	res = call(t, reg, "get_book", `{"bookId":"x"}`)
	require.True(t, res.IsError)
	assert.Equal(t, "invalid arguments:\n- bookId: does not match regex pattern `^b-[0-9]+$` (string.pattern)", text(res))

	res = call(t, reg, "lend_book", `{"bookId":"b-1","member":"not-an-email","days":5}`)
	require.True(t, res.IsError)
	assert.Contains(t, text(res), "- member: ")
	assert.Contains(t, text(res), "(string.email)")
	assert.Contains(t, text(res), "- days: must be in list [7, 14, 28] (uint32.in)")

	res = call(t, reg, "lend_book", `{"bookId":"b-1","member":"a@example.com","due":"2000-01-01T00:00:00Z"}`)
	require.True(t, res.IsError, "the CEL rule")
	assert.Equal(t, "invalid arguments:\n- (arguments): due must be after now (loan.due_after_start)", text(res))

	tl, _ := reg.Tool("get_book")
	assert.JSONEq(t, golden(t, "get_book_input", tl.InputSchema), string(tl.InputSchema.(json.RawMessage)))
	assert.JSONEq(t, golden(t, "get_book_output", tl.OutputSchema), string(tl.OutputSchema.(json.RawMessage)))
	tl, _ = reg.Tool("lend_book")
	assert.JSONEq(t, golden(t, "lend_book_input", tl.InputSchema), string(tl.InputSchema.(json.RawMessage)))
}

func TestAddService(t *testing.T) {
	sd, err := mcpproto.Described(testpb.File_library_proto.Services().ByName("Library"), testpb.Descriptors)
	require.NoError(t, err)
	var logs strings.Builder
	reg := mcptool.NewRegistry(mcpproto.Types(), mcptool.Logger(slog.New(slog.NewTextHandler(&logs, nil))))
	require.NoError(t, mcpproto.AddService(reg, sd, newLibrary(), mcptool.Prefix("library_"),
		mcptool.Method("LendBook", mcptool.Description("Lends a book (explicit)."), mcptool.Group("loans"))))
	cat, err := reg.Catalog()
	require.NoError(t, err)
	groups := map[string]string{}
	for _, ct := range cat.Tools {
		groups[ct.Name] = ct.Group
	}
	assert.Equal(t, map[string]string{"library_get_book": "mcpgen.test.Library", "library_lend_book": "loans"}, groups,
		"the service's full name by default; an option wins")
	got := map[string]string{}
	for _, tl := range reg.Tools() {
		got[tl.Name] = tl.Description
	}
	tl, _ := reg.Tool("library_get_book")
	assert.True(t, tl.Annotations.ReadOnlyHint, "idempotency_level = NO_SIDE_EFFECTS")
	tl, _ = reg.Tool("library_lend_book")
	assert.False(t, tl.Annotations.ReadOnlyHint)
	assert.False(t, tl.Annotations.IdempotentHint)
	assert.Equal(t, map[string]string{
		"library_get_book":  "Gets one book by its ID.",
		"library_lend_book": "Lends a book (explicit).",
	}, got, "the methods impl inherits from its Unimplemented stub are no tools")
	assert.Contains(t, logs.String(), "WatchBooks", "the streaming method is skipped with a note")

	_, err = mcpproto.Described(testpb.File_library_proto.Services().ByName("Library"), []byte("not a descriptor set"))
	assert.ErrorContains(t, err, "mcpproto.Described(mcpgen.test.Library)")
	_, err = mcpproto.Described(testpb.File_library_proto.Services().ByName("Library"))
	assert.ErrorContains(t, err, "the descriptor sets have no such service")
}

// TestDescriptionsFromComments pins where the .proto comments come from:
// the descriptor set protogen writes (go generate) carries them, for the
// tools (Described + AddService) and for the messages and fields
// (SourceInfo), with AddMethods too; the generated Go code does not, so
// without the set there are none.
func TestDescriptionsFromComments(t *testing.T) {
	generated := testpb.File_library_proto.Services().ByName("Library")
	require.Zero(t, generated.ParentFile().SourceLocations().Len(), "protoc-gen-go keeps no comments: if it now does, Described is not needed")

	fieldDoc := func(reg *mcptool.Registry, tool, field string) string {
		tl, ok := reg.Tool(tool)
		require.True(t, ok, tool)
		var s struct {
			Description string
			Properties  map[string]struct{ Description string }
		}
		require.NoError(t, json.Unmarshal(tl.InputSchema.(json.RawMessage), &s))
		return s.Properties[field].Description
	}

	// Without the descriptor set: no comments anywhere.
	reg := mcptool.NewRegistry(mcpproto.Types(), quiet())
	require.NoError(t, mcpproto.AddService(reg, generated, newLibrary()))
	tl, _ := reg.Tool("lend_book")
	assert.Empty(t, tl.Description)
	assert.Empty(t, fieldDoc(reg, "lend_book", "member"))

	// With it: the rpc comment is the tool's description, the field
	// comments the properties'.
	sd, err := mcpproto.Described(generated, testpb.Descriptors)
	require.NoError(t, err)
	reg = mcptool.NewRegistry(mcpproto.Types(mcpproto.SourceInfo(testpb.Descriptors)), quiet())
	require.NoError(t, mcpproto.AddService(reg, sd, newLibrary()))
	tl, _ = reg.Tool("lend_book")
	assert.Equal(t, "Lends a book to a member.", tl.Description)
	assert.Equal(t, "The member's e-mail address.", fieldDoc(reg, "lend_book", "member"))
	assert.Equal(t, "How many days, when due is not given.", fieldDoc(reg, "lend_book", "days"))
	tl, _ = reg.Tool("get_book")
	assert.Equal(t, "Gets one book by its ID.", tl.Description)
	var out struct{ Description string }
	require.NoError(t, json.Unmarshal(tl.OutputSchema.(json.RawMessage), &out))
	assert.Equal(t, "A book of the library.", out.Description, "a message's comment describes its schema")

	// AddMethods: the fields' comments through SourceInfo; a tool's
	// description from an option (or the Go method's doc comment, through
	// cmd/mcpgen), as AddMethods has no service descriptor.
	reg = mcptool.NewRegistry(mcpproto.Types(mcpproto.SourceInfo(testpb.Descriptors)), quiet())
	require.NoError(t, reg.AddMethods(newLibrary(), mcptool.Method("LendBook", mcptool.Description("Lends a book."))))
	tl, _ = reg.Tool("lend_book")
	assert.Equal(t, "Lends a book.", tl.Description)
	assert.Equal(t, "The member's e-mail address.", fieldDoc(reg, "lend_book", "member"))
}

// normalizeUnknown keeps the unknown-field report independent of the
// validator's wording.
func normalizeUnknown(s string) string {
	if strings.Contains(s, "- color:") || strings.Contains(s, "- (arguments):") {
		if strings.Contains(s, "color") && (strings.Contains(s, "additionalProperties") || strings.Contains(s, "unknown field")) {
			return "invalid arguments:\n- color: unknown field (protojson)"
		}
	}
	return s
}

func TestAddMethodsOnConnectHandler(t *testing.T) {
	reg := mcptool.NewRegistry(mcpproto.Types(), quiet())
	require.NoError(t, reg.AddMethods(connectLibrary{}, mcptool.Prefix("lib_"),
		mcptool.Method("GetBook", mcptool.ReadOnly(true), mcptool.Description("Gets a book.")),
		mcptool.Method("DeleteBook", mcptool.Destructive(true), mcptool.Description("Deletes a book."))))
	var names []string
	for _, tl := range reg.Tools() {
		names = append(names, tl.Name)
	}
	assert.ElementsMatch(t, []string{"lib_get_book", "lib_delete_book"}, names)
	res := call(t, reg, "lib_get_book", `{"bookId":"b-7"}`)
	require.False(t, res.IsError, text(res))
	assert.JSONEq(t, `{"bookId":"b-7","title":"Dune","authors":["Frank Herbert"],"year":1965}`, text(res))
	res = call(t, reg, "lib_delete_book", `{"bookId":"b-7"}`)
	require.False(t, res.IsError, text(res))
	assert.JSONEq(t, `{}`, text(res))
	tl, _ := reg.Tool("lib_get_book")
	assert.True(t, tl.Annotations.ReadOnlyHint)
	assert.JSONEq(t, golden(t, "connect_get_book_input", tl.InputSchema), string(tl.InputSchema.(json.RawMessage)))
}

func TestWithoutTypesIsAnError(t *testing.T) {
	err := mcptool.NewRegistry(quiet()).AddMethods(newLibrary())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "mcpproto.Types()")
}

// golden compares v (JSON) with testdata/name.json, rewriting it under -update.
func golden(t *testing.T, name string, v any) string {
	t.Helper()
	var raw []byte
	switch x := v.(type) {
	case json.RawMessage:
		raw = x
	default:
		var err error
		raw, err = json.Marshal(v)
		require.NoError(t, err)
	}
	var pretty strings.Builder
	var anyv any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber() // 64-bit bounds exactly
	require.NoError(t, dec.Decode(&anyv))
	enc := json.NewEncoder(&pretty)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(anyv))
	path := filepath.Join("testdata", name+".json")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(pretty.String()), 0o644))
	}
	f, err := os.Open(path)
	require.NoError(t, err, "run go test -update to write %s", path)
	defer f.Close()
	want, err := io.ReadAll(f)
	require.NoError(t, err)
	return string(want)
}

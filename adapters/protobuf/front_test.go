package mcpproto_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb"
	"github.com/mcpgen/mcpgen/mcptool"
)

// recordingLibrary remembers the metadata of its calls.
type recordingLibrary struct {
	*grpcLibrary
	mu   sync.Mutex
	auth []string
}

func (l *recordingLibrary) LendBook(ctx context.Context, in *testpb.LendBookRequest) (*testpb.Loan, error) {
	md, _ := metadata.FromIncomingContext(ctx)
	l.mu.Lock()
	l.auth = append(l.auth, md.Get("authorization")...)
	l.mu.Unlock()
	return l.grpcLibrary.LendBook(ctx, in)
}

type tokenKey struct{}

func TestFrontEndToEnd(t *testing.T) {
	lib := &recordingLibrary{grpcLibrary: newLibrary()}
	addr, stop, err := startLibrary(lib)
	require.NoError(t, err)
	defer stop()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()

	reg := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), quiet())
	require.NoError(t, mcpproto.Front(context.Background(), reg, conn,
		mcpproto.Services("mcpgen.test.Library"),
		mcpproto.MethodOptions("mcpgen.test.Library/GetBook", mcptool.ReadOnly(true)),
		mcpproto.Metadata(func(ctx context.Context) map[string]string {
			tok, _ := ctx.Value(tokenKey{}).(string)
			return map[string]string{"authorization": "Bearer " + tok}
		})))

	// The same schemas as the generated code's.
	local := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), quiet())
	require.NoError(t, local.AddMethods(newLibrary()))
	for _, name := range []string{"get_book", "lend_book"} {
		remote, _ := reg.Tool(name)
		mine, _ := local.Tool(name)
		assert.JSONEq(t, string(mine.InputSchema.(json.RawMessage)), string(remote.InputSchema.(json.RawMessage)), name)
		assert.JSONEq(t, string(mine.OutputSchema.(json.RawMessage)), string(remote.OutputSchema.(json.RawMessage)), name)
	}
	tl, _ := reg.Tool("get_book")
	assert.True(t, tl.Annotations.ReadOnlyHint)
	cat, err := reg.Catalog()
	require.NoError(t, err)
	for _, ct := range cat.Tools {
		assert.Equal(t, "mcpgen.test.Library", ct.Group, "%s: the service's full name", ct.Name)
	}
	tl, _ = reg.Tool("delete_book")
	assert.True(t, tl.Annotations.IdempotentHint, "the server's idempotency_level = IDEMPOTENT")

	ctx := context.WithValue(context.Background(), tokenKey{}, "t0k")
	res, err := reg.Call(ctx, "lend_book", []byte(`{"bookId":"b-1","member":"a@example.com","days":14}`))
	require.NoError(t, err)
	require.False(t, res.IsError, text(res))
	assert.JSONEq(t, `{"loanId":"l-1","bookId":"b-1","member":"a@example.com"}`, text(res))
	assert.Equal(t, []string{"Bearer t0k"}, lib.auth, "the metadata is forwarded")

	res, err = reg.Call(ctx, "lend_book", []byte(`{"bookId":"b-1","member":"a@example.com","due":"2001-01-01T00:00:00Z"}`))
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.Contains(t, text(res), "(loan.due_after_start)", "CEL rules of a descriptor from reflection are enforced")
	assert.Len(t, lib.auth, 1, "an invalid call never reaches the server")

	res, err = reg.Call(ctx, "list_books", []byte(`{"shelf":"SHELF_FICTION","pageSize":5}`))
	require.NoError(t, err)
	require.True(t, res.IsError)
	assert.Equal(t, "Unimplemented: method ListBooks not implemented", text(res))
}

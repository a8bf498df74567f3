package mcpproto_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb"
	"github.com/mcpgen/mcpgen/mcptool"
)

// failingLibrary answers GetBook with the status of the code it is asked
// for by the book id ("b-5" for NotFound), as a gRPC implementation does.
type failingLibrary struct {
	testpb.UnimplementedLibraryServer
}

func (failingLibrary) GetBook(_ context.Context, in *testpb.GetBookRequest) (*testpb.Book, error) {
	return nil, status.Errorf(codeNamed(in.GetBookId()), "no order ord-99")
}

// failingConnect is the same as a Connect handler.
type failingConnect struct{ connectLibrary }

func (failingConnect) GetBook(_ context.Context, req *connect.Request[testpb.GetBookRequest]) (*connect.Response[testpb.Book], error) {
	return nil, connect.NewError(connect.Code(codeNamed(req.Msg.GetBookId())), errors.New("no order ord-99"))
}

func codeNamed(id string) codes.Code {
	n, _ := strconv.Atoi(strings.TrimPrefix(id, "b-"))
	return codes.Code(n)
}

func bookOf(c codes.Code) string { return fmt.Sprintf(`{"bookId":"b-%d"}`, c) }

// TestStatusErrors holds the three ways of serving a gRPC service to one
// mapping of its status errors: a code the caller can act on is shown with
// its message, Unavailable by its code alone, and the server's own
// failures are masked as internal errors.
func TestStatusErrors(t *testing.T) {
	local := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), quiet())
	require.NoError(t, local.AddMethods(failingLibrary{}, mcptool.Include("GetBook")))
	viaService := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), quiet())
	require.NoError(t, mcpproto.AddService(viaService, testpb.File_library_proto.Services().ByName("Library"), failingLibrary{}))
	viaConnect := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), quiet())
	require.NoError(t, viaConnect.AddMethods(failingConnect{}, mcptool.Include("GetBook")))

	addr, stop, err := startLibrary(failingLibrary{})
	require.NoError(t, err)
	defer stop()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	fronted := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), quiet())
	require.NoError(t, mcpproto.Front(context.Background(), fronted, conn, mcpproto.Services("mcpgen.test.Library")))

	paths := map[string]*mcptool.Registry{"AddMethods": local, "AddService": viaService, "Connect": viaConnect, "Front": fronted}
	shown := []codes.Code{codes.InvalidArgument, codes.NotFound, codes.AlreadyExists, codes.PermissionDenied, codes.FailedPrecondition,
		codes.OutOfRange, codes.Unauthenticated, codes.ResourceExhausted, codes.Aborted, codes.Unimplemented, codes.DeadlineExceeded, codes.Canceled}
	masked := []codes.Code{codes.Internal, codes.Unknown, codes.DataLoss}
	for path, reg := range paths {
		for _, c := range shown {
			res := call(t, reg, "get_book", bookOf(c))
			assert.True(t, res.IsError, "%s %s", path, c)
			assert.Equal(t, c.String()+": no order ord-99", text(res), "%s %s", path, c)
		}
		res := call(t, reg, "get_book", bookOf(codes.Unavailable))
		assert.Equal(t, "Unavailable: the service cannot be reached now; try again later", text(res), path)
		for _, c := range masked {
			res := call(t, reg, "get_book", bookOf(c))
			assert.True(t, res.IsError, "%s %s", path, c)
			assert.True(t, strings.HasPrefix(text(res), "internal error (ref "), "%s %s: %s", path, c, text(res))
			assert.NotContains(t, text(res), "ord-99", "%s %s", path, c)
		}
	}
}

package mcpproto_test

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/adapters/protobuf/internal/testpb"
	"github.com/mcpgen/mcpgen/mcptool"
)

// costlyLibrary is a backend that costs its caller what the attack run
// found: b-1 never answers (until the call is given up), b-2 answers 1.9
// million empty authors (3.6 MiB on the wire), b-3 a title of 2 MiB, and
// b-4 waits for release, announcing itself on arrived.
type costlyLibrary struct {
	testpb.UnimplementedLibraryServer
	arrived chan struct{}
	release chan struct{}
	huge    *testpb.Book // built once, so that the server's own cost is not the caller's
}

func (l *costlyLibrary) GetBook(ctx context.Context, in *testpb.GetBookRequest) (*testpb.Book, error) {
	switch in.GetBookId() {
	case "b-1":
		<-ctx.Done()
		return nil, ctx.Err()
	case "b-2":
		return l.huge, nil
	case "b-3":
		return &testpb.Book{BookId: "b-3", Title: strings.Repeat("x", 2<<20)}, nil
	case "b-4":
		l.arrived <- struct{}{}
		<-l.release
	}
	return &testpb.Book{BookId: in.GetBookId(), Title: "Dune"}, nil
}

// frontCostly fronts a costlyLibrary on loopback with opts.
func frontCostly(t *testing.T, opts ...mcpproto.FrontOption) (*mcptool.Registry, *costlyLibrary) {
	t.Helper()
	lib := &costlyLibrary{arrived: make(chan struct{}), release: make(chan struct{}),
		huge: &testpb.Book{BookId: "b-2", Authors: make([]string, 1_900_000)}}
	addr, stop, err := startLibrary(lib)
	require.NoError(t, err)
	t.Cleanup(stop)
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	reg := mcptool.NewRegistry(mcpproto.Types(), mcptool.NoDescription(), quiet())
	require.NoError(t, mcpproto.Front(context.Background(), reg, conn, append([]mcpproto.FrontOption{mcpproto.Services("mcpgen.test.Library")}, opts...)...))
	return reg, lib
}

// A backend that never answers holds the call no longer than the timeout.
func TestFrontTimeout(t *testing.T) {
	reg, _ := frontCostly(t, mcpproto.WithLimits(mcpproto.Limits{Timeout: 300 * time.Millisecond}))
	start := time.Now()
	res := call(t, reg, "get_book", `{"bookId":"b-1"}`)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.True(t, res.IsError)
	assert.Equal(t, "mcpgen.test.Library/GetBook: the server did not answer within 300ms (mcpproto.Limits.Timeout)", text(res))
}

// A response of 1.9 million empty strings is refused before it is decoded,
// at the default bound: the call costs its bytes on the wire (some 11 MiB
// allocated, the server's marshalling included), not the 300 MiB allocated
// (+82 MiB held) to decode it and encode it as JSON.
func TestFrontResponseValues(t *testing.T) {
	reg, _ := frontCostly(t)
	call(t, reg, "get_book", `{"bookId":"b-5"}`) // warm the connection
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := call(t, reg, "get_book", `{"bookId":"b-2"}`)
	runtime.ReadMemStats(&after)
	assert.True(t, res.IsError)
	assert.Equal(t, "mcpgen.test.Library/GetBook: the server's response holds more than 100000 values (mcpproto.Limits.MaxResponseValues)", text(res))
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %.1f MiB for the refused call (server and client)", float64(allocated)/(1<<20))
	assert.Less(t, allocated, uint64(16<<20), "the response is not decoded")

	// A bound of one's own.
	reg, _ = frontCostly(t, mcpproto.WithLimits(mcpproto.Limits{MaxResponseValues: 3}))
	res = call(t, reg, "get_book", `{"bookId":"b-5"}`)
	assert.False(t, res.IsError, text(res)) // two fields
	reg, _ = frontCostly(t, mcpproto.WithLimits(mcpproto.Limits{MaxResponseValues: 1}))
	res = call(t, reg, "get_book", `{"bookId":"b-5"}`)
	assert.Equal(t, "mcpgen.test.Library/GetBook: the server's response holds more than 1 values (mcpproto.Limits.MaxResponseValues)", text(res))
}

// A response larger on the wire than the bound is refused.
func TestFrontResponseBytes(t *testing.T) {
	reg, _ := frontCostly(t, mcpproto.WithLimits(mcpproto.Limits{MaxResponseBytes: 1 << 20}))
	res := call(t, reg, "get_book", `{"bookId":"b-3"}`)
	assert.True(t, res.IsError)
	assert.Equal(t, "mcpgen.test.Library/GetBook: the server's response is larger than 1048576 bytes (mcpproto.Limits.MaxResponseBytes)", text(res))
	res = call(t, reg, "get_book", `{"bookId":"b-5"}`)
	assert.False(t, res.IsError, text(res))
}

// The calls in flight to one server are capped over all its methods.
func TestFrontMaxInFlight(t *testing.T) {
	reg, lib := frontCostly(t, mcpproto.WithLimits(mcpproto.Limits{MaxInFlight: 2}))
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			res := call(t, reg, "get_book", `{"bookId":"b-4"}`)
			assert.False(t, res.IsError, text(res))
		})
	}
	<-lib.arrived
	<-lib.arrived
	res := call(t, reg, "lend_book", `{"bookId":"b-1","member":"a@example.com"}`)
	assert.True(t, res.IsError)
	assert.Equal(t, "mcpgen.test.Library/LendBook: the server is already answering 2 calls (mcpproto.Limits.MaxInFlight): retry in a moment", text(res))
	close(lib.release)
	wg.Wait()
	res = call(t, reg, "get_book", `{"bookId":"b-5"}`)
	assert.False(t, res.IsError, text(res))
}

package mcptool_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// syncBuffer is a log destination safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// runStdioLogged is runStdio with the transport's Logger writing to log.
func runStdioLogged(t *testing.T, srv *mcptool.Server, log io.Writer) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	p := &stdioPeer{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	p.out.Buffer(nil, 1<<20)
	tr := &mcptool.StdioTransport{Reader: inR, Writer: outW, Logger: slog.New(slog.NewTextHandler(log, nil))}
	go func() {
		p.done <- srv.Run(ctx, tr)
		_ = outW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		_ = inW.Close()
		_ = outR.Close()
	})
	return p
}

// A call whose id is already in flight gets -32600 naming the id, and is
// logged; the first call is answered as usual.
func TestStdioTransportDuplicateID(t *testing.T) {
	reg := mcptool.NewRegistry()
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	require.NoError(t, reg.Add("wait", func(ctx context.Context) (string, error) {
		once.Do(func() { close(entered) })
		<-release
		return "released", nil
	}, mcptool.Description("Waits.")))
	var log syncBuffer
	p := runStdioLogged(t, reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil), &log)
	p.initialize(`{}`)
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait"}}`
	p.send(call)
	<-entered
	p.send(call)
	id, code, msg := errorOf(t, p.recv())
	assert.EqualValues(t, 7, id)
	assert.EqualValues(t, -32600, code)
	assert.Contains(t, msg, "id 7 is already in use")
	assert.Contains(t, log.String(), "already in flight")
	assert.Contains(t, log.String(), "id=7")
	close(release)
	res := p.recv()
	assert.EqualValues(t, 7, res["id"])
	assert.Contains(t, res, "result")
	// Once answered, the id may be used again.
	p.send(call)
	res = p.recv()
	assert.EqualValues(t, 7, res["id"])
	assert.Contains(t, res, "result")
}

// A request before initialize gets a JSON-RPC error code, not 0.
func TestStdioTransportBeforeInitialize(t *testing.T) {
	p := runStdio(t, echoServer(t))
	p.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	id, code, msg := errorOf(t, p.recv())
	assert.EqualValues(t, 1, id)
	assert.EqualValues(t, -32600, code)
	assert.Contains(t, msg, "initialization")
}

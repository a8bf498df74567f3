//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them.

package mcpgo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/adapters/mcpgo"
	"github.com/mcpgen/mcpgen/mcptool"
)

// Every test of this package runs sequentially: mcp-go's stdio server keeps
// its one session in a package variable, shared by all stdio servers of a
// process.

// observed is what a client saw of one tool call, in a form both libraries'
// results reduce to: the result's JSON with empty strings dropped from
// content blocks (mcp-go writes "description":"" and "mimeType":"" where
// go-sdk leaves them out) and internal error references masked.
type observed struct {
	ProtocolError string // "invalid_params", "internal_error", ...; "" for a result
	IsError       bool
	Content       []map[string]any
	Structured    any
	Meta          map[string]any
}

var refRe = regexp.MustCompile(`\(ref [0-9a-f]{12}\)`)

func observe(t *testing.T, res any) observed {
	t.Helper()
	raw, err := json.Marshal(res)
	require.NoError(t, err)
	var wire struct {
		Content           []map[string]any `json:"content"`
		StructuredContent any              `json:"structuredContent"`
		IsError           bool             `json:"isError"`
		Meta              map[string]any   `json:"_meta"`
	}
	require.NoError(t, json.Unmarshal(raw, &wire))
	o := observed{IsError: wire.IsError, Structured: wire.StructuredContent, Content: []map[string]any{}, Meta: wire.Meta}
	for _, c := range wire.Content {
		o.Content = append(o.Content, dropEmpty(c))
	}
	// The protocol's own result metadata (2026-07-28 serverInfo) is not the
	// tool's.
	for k := range o.Meta {
		if strings.HasPrefix(k, "io.modelcontextprotocol/") {
			delete(o.Meta, k)
		}
	}
	if len(o.Meta) == 0 {
		o.Meta = nil
	}
	return o
}

func dropEmpty(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		switch x := v.(type) {
		case string:
			if x == "" {
				continue
			}
			if k == "text" {
				v = refRe.ReplaceAllString(x, "(ref X)")
			}
		case map[string]any:
			v = dropEmpty(x)
		}
		out[k] = v
	}
	return out
}

// goClientView is o as mcp-go's client can represent it: its ResourceLink
// has no title, size, icons or _meta (the wire has them; see
// TestWireResults).
func (o observed) goClientView() observed {
	out := o
	out.Content = nil
	for _, c := range o.Content {
		if c["type"] == "resource_link" {
			c = maps.Clone(c)
			for _, k := range []string{"title", "size", "icons", "_meta"} {
				delete(c, k)
			}
		}
		out.Content = append(out.Content, c)
	}
	return out
}

// text is the first text block of o.
func (o observed) text() string {
	for _, c := range o.Content {
		if c["type"] == "text" {
			s, _ := c["text"].(string)
			return s
		}
	}
	return ""
}

// caller is one client connected to a server of the registry under test.
type caller interface {
	call(t *testing.T, name string, args json.RawMessage) observed
	tools(t *testing.T) []toolView
}

// toolView is what a client saw of one tool in tools/list.
type toolView struct {
	Name        string
	Description string
	Title       string // annotations.title
	Annotations map[string]any
	Input       map[string]any // type, properties, required, additionalProperties, $defs
	Output      map[string]any
}

// visible keeps the schema keys mcp-go's client keeps, with its defaults
// (no properties is {}, no required is []).
func visible(schema map[string]any) map[string]any {
	if schema == nil {
		return nil
	}
	out := map[string]any{"type": schema["type"], "properties": map[string]any{}, "required": []any{}}
	for _, k := range []string{"properties", "required", "$defs", "additionalProperties"} {
		if v, ok := schema[k]; ok {
			out[k] = v
		}
	}
	return out
}

func jsonMap(t *testing.T, v any) map[string]any {
	t.Helper()
	if v == nil {
		return nil
	}
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	return m
}

// ----- the go-sdk path -----

type sdkCaller struct{ cs *mcp.ClientSession }

func connectSDK(t *testing.T, reg *mcptool.Registry, version string, copts *mcp.ClientOptions) *sdkCaller {
	t.Helper()
	ctx := context.Background()
	srv := reg.Server(&mcp.Implementation{Name: "sdk", Version: "1"}, nil)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, copts)
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return &sdkCaller{cs}
}

func (c *sdkCaller) call(t *testing.T, name string, args json.RawMessage) observed {
	t.Helper()
	params := &mcp.CallToolParams{Name: name}
	if args != nil {
		params.Arguments = args
	}
	res, err := c.cs.CallTool(context.Background(), params)
	if err != nil {
		var je *jsonrpc.Error
		require.True(t, errors.As(err, &je), "not a JSON-RPC error: %v", err)
		return observed{ProtocolError: codeName(int(je.Code))}
	}
	return observe(t, res)
}

func (c *sdkCaller) tools(t *testing.T) []toolView {
	t.Helper()
	lt, err := c.cs.ListTools(context.Background(), nil)
	require.NoError(t, err)
	var out []toolView
	for _, x := range lt.Tools {
		v := toolView{Name: x.Name, Description: x.Description, Annotations: jsonMap(t, x.Annotations),
			Input: visible(jsonMap(t, x.InputSchema)), Output: visible(jsonMap(t, x.OutputSchema))}
		if x.Annotations != nil {
			v.Title = x.Annotations.Title
		}
		out = append(out, v)
	}
	return out
}

func codeName(code int) string {
	switch code {
	case -32602:
		return "invalid_params"
	case -32603:
		return "internal_error"
	case -32601:
		return "method_not_found"
	}
	return fmt.Sprint("code ", code)
}

// ----- the mcp-go path -----

// transportKind is an mcp-go transport, all of them with mcp-go's own client,
// and the protocol era the client speaks: "stdio" is 2026-07-28 (mcp-go's
// client probes server/discover), "stdio/2025-11-25" the initialize
// handshake of the 2025 era.
type transportKind string

const (
	// inProcess is mcp-go's in-process transport.
	inProcess transportKind = "inprocess"
	// stdio is mcp-go's stdio server and client over in-process pipes.
	stdio transportKind = "stdio"
	// streamable is mcp-go's streamable HTTP server (httptest) and client,
	// listening on the GET stream for notifications and server requests.
	streamable transportKind = "http"
)

// legacyVersion is the last protocol revision with sessions.
const legacyVersion = gomcp.ProtocolVersion20251125

// legacy is k with a client of the 2025 era.
func legacy(k transportKind) transportKind { return k + "/" + legacyVersion }

// base is the transport of k, without its era.
func (k transportKind) base() transportKind {
	b, _, _ := strings.Cut(string(k), "/")
	return transportKind(b)
}

// version is the protocol revision k's client asks for.
func (k transportKind) version() string {
	if _, v, ok := strings.Cut(string(k), "/"); ok {
		return v
	}
	return gomcp.LATEST_PROTOCOL_VERSION
}

// modern reports whether k's client speaks the 2026-07-28 revision.
func (k transportKind) modern() bool { return gomcp.IsModernProtocol(k.version()) }

// bothEras is every kind in the 2026-07-28 and the 2025-11-25 era.
func bothEras(kinds ...transportKind) []transportKind {
	out := slices.Clone(kinds)
	for _, k := range kinds {
		out = append(out, legacy(k))
	}
	return out
}

var transports = bothEras(inProcess, stdio, streamable)

// goHandlers answer server requests on mcp-go's client; nil ones leave the
// capability undeclared.
type goHandlers struct {
	elicit func(context.Context, gomcp.ElicitationRequest) (*gomcp.ElicitationResult, error)
	sample func(context.Context, gomcp.CreateMessageRequest) (*gomcp.CreateMessageResult, error)
	roots  func(context.Context, gomcp.ListRootsRequest) (*gomcp.ListRootsResult, error)
}

type elicitFunc func(context.Context, gomcp.ElicitationRequest) (*gomcp.ElicitationResult, error)

func (f elicitFunc) Elicit(ctx context.Context, r gomcp.ElicitationRequest) (*gomcp.ElicitationResult, error) {
	return f(ctx, r)
}

type sampleFunc func(context.Context, gomcp.CreateMessageRequest) (*gomcp.CreateMessageResult, error)

func (f sampleFunc) CreateMessage(ctx context.Context, r gomcp.CreateMessageRequest) (*gomcp.CreateMessageResult, error) {
	return f(ctx, r)
}

type rootsFunc func(context.Context, gomcp.ListRootsRequest) (*gomcp.ListRootsResult, error)

func (f rootsFunc) ListRoots(ctx context.Context, r gomcp.ListRootsRequest) (*gomcp.ListRootsResult, error) {
	return f(ctx, r)
}

type goCaller struct {
	c   *client.Client
	srv *server.MCPServer
}

// connectGo serves reg on a new mcp-go server (mcpgo.NewServer) and connects
// mcp-go's client to it over kind.
func connectGo(t *testing.T, kind transportKind, reg *mcptool.Registry, h goHandlers, onNote func(gomcp.JSONRPCNotification)) *goCaller {
	t.Helper()
	return connectGoServer(t, kind, mcpgo.NewServer(reg, "mcpgo", "1"), h, onNote)
}

func connectGoServer(t *testing.T, kind transportKind, srv *server.MCPServer, h goHandlers, onNote func(gomcp.JSONRPCNotification)) *goCaller {
	t.Helper()
	ctx := context.Background()
	copts := []client.ClientOption{client.WithProtocolVersion(kind.version())}
	var iopts []transport.InProcessOption
	if h.elicit != nil {
		copts = append(copts, client.WithElicitationHandler(elicitFunc(h.elicit)))
		iopts = append(iopts, transport.WithElicitationHandler(elicitFunc(h.elicit)))
	}
	if h.sample != nil {
		copts = append(copts, client.WithSamplingHandler(sampleFunc(h.sample)))
		iopts = append(iopts, transport.WithSamplingHandler(sampleFunc(h.sample)))
	}
	if h.roots != nil {
		copts = append(copts, client.WithRootsHandler(rootsFunc(h.roots)))
		iopts = append(iopts, transport.WithRootsHandler(rootsFunc(h.roots)))
	}
	var tr transport.Interface
	switch kind.base() {
	case inProcess:
		tr = transport.NewInProcessTransportWithOptions(srv, iopts...)
	case stdio:
		c2sR, c2sW := io.Pipe()
		s2cR, s2cW := io.Pipe()
		ss := server.NewStdioServer(srv)
		ss.SetErrorLogger(log.New(io.Discard, "", 0))
		lctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = ss.Listen(lctx, c2sR, s2cW)
		}()
		t.Cleanup(func() {
			cancel()
			_ = c2sW.Close()
			_ = s2cW.Close()
			_ = c2sR.Close()
			_ = s2cR.Close()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Error("the stdio server did not stop")
			}
		})
		tr = transport.NewIO(s2cR, c2sW, io.NopCloser(strings.NewReader("")))
	case streamable:
		hs := httptest.NewServer(server.NewStreamableHTTPServer(srv))
		t.Cleanup(hs.Close)
		var hopts []transport.StreamableHTTPCOption
		if !kind.modern() {
			// The GET stream carries notifications and server requests
			// outside a request's response; 2026-07-28 has none (mcp-go
			// keeps a client that listens on the 2025 era).
			hopts = append(hopts, transport.WithContinuousListening())
		}
		st, err := transport.NewStreamableHTTP(hs.URL, hopts...)
		require.NoError(t, err)
		tr = st
	}
	c := client.NewClient(tr, copts...)
	if onNote != nil {
		c.OnNotification(onNote)
	}
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() { _ = c.Close() })
	_, err := c.Initialize(ctx, gomcp.InitializeRequest{Params: gomcp.InitializeParams{
		ProtocolVersion: kind.version(),
		ClientInfo:      gomcp.Implementation{Name: "mcp-go client", Version: "1"},
	}})
	require.NoError(t, err)
	require.Equal(t, kind.version(), c.ProtocolVersion(), "the era of %s", kind)
	if kind.base() == streamable && !kind.modern() {
		// The GET stream is opened in the background: wait until the server
		// can reach the client on it, for server requests and notifications.
		waitListening(t, c)
	}
	return &goCaller{c: c, srv: srv}
}

// waitListening waits until the client's GET stream is up: a ping then
// comes back (mcp-go answers pings in both directions).
func waitListening(t *testing.T, c *client.Client) {
	t.Helper()
	time.Sleep(50 * time.Millisecond)
	require.NoError(t, c.Ping(context.Background()))
}

func (c *goCaller) call(t *testing.T, name string, args json.RawMessage) observed {
	t.Helper()
	return c.callWith(t, name, args, nil)
}

func (c *goCaller) callWith(t *testing.T, name string, args json.RawMessage, meta *gomcp.Meta) observed {
	t.Helper()
	req := gomcp.CallToolRequest{}
	req.Params.Name = name
	if args != nil {
		req.Params.Arguments = args
	}
	req.Params.Meta = meta
	res, err := c.c.CallTool(context.Background(), req)
	if err != nil {
		switch {
		case errors.Is(err, gomcp.ErrInvalidParams):
			return observed{ProtocolError: "invalid_params"}
		case errors.Is(err, gomcp.ErrInternalError):
			return observed{ProtocolError: "internal_error"}
		case errors.Is(err, gomcp.ErrMethodNotFound):
			return observed{ProtocolError: "method_not_found"}
		}
		t.Fatalf("call %s: %v", name, err)
	}
	return observe(t, res)
}

func (c *goCaller) tools(t *testing.T) []toolView {
	t.Helper()
	lt, err := c.c.ListTools(context.Background(), gomcp.ListToolsRequest{})
	require.NoError(t, err)
	var out []toolView
	for _, x := range lt.Tools {
		v := toolView{Name: x.Name, Description: x.Description, Title: x.Annotations.Title, Annotations: jsonMap(t, x.Annotations),
			Input: visible(jsonMap(t, x.InputSchema))}
		if x.OutputSchema.Type != "" {
			v.Output = visible(jsonMap(t, x.OutputSchema))
		}
		out = append(out, v)
	}
	return out
}

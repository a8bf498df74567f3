package mcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"weak"

	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/adapter"
)

// NewServer returns a new mcp-go server that serves reg's tools, kept in sync
// as tools are added and removed. It declares the tools capability with
// listChanged and the logging capability; opts come after those, so they can
// change them.
func NewServer(reg *mcptool.Registry, name, version string, opts ...server.ServerOption) *server.MCPServer {
	all := append([]server.ServerOption{server.WithToolCapabilities(true), server.WithLogging()}, opts...)
	s := server.NewMCPServer(name, version, all...)
	Mount(reg, s)
	return s
}

// Mount serves reg's tools on s, and keeps them in sync until the returned
// function is called or s is garbage collected: a tool added to the registry
// is added to s, a removed one is deleted from s, and mcp-go tells clients
// with notifications/tools/list_changed (unless s was built with
// server.WithToolCapabilities(false)). A tool of s with the name of a
// registry tool is replaced. unmount deletes the registry's tools from s.
//
// Mount does not change the capabilities s declares, except that mcp-go
// declares tools (with listChanged) when the first tool is added to a server
// that declared none. Declare server.WithLogging() for clients to be able to
// set a logging level.
func Mount(reg *mcptool.Registry, s *server.MCPServer) (unmount func()) {
	_, unmount = mountOn(reg, s)
	return unmount
}

func mountOn(reg *mcptool.Registry, s *server.MCPServer) (*mount, func()) {
	m := &mount{reg: reg, srv: weak.Make(s), served: map[string]*mcp.Tool{}}
	cancel := reg.Watch(m.apply)
	m.cancel = cancel
	var names []string
	for _, def := range reg.Tools() {
		names = append(names, def.Name)
	}
	m.apply(names)
	runtime.AddCleanup(s, func(c func()) { c() }, cancel)
	return m, func() {
		cancel()
		m.mu.Lock()
		defer m.mu.Unlock()
		if m.stopped {
			return
		}
		m.stopped = true
		if srv := m.srv.Value(); srv != nil && len(m.served) > 0 {
			names := make([]string, 0, len(m.served))
			for n := range m.served {
				names = append(names, n)
			}
			srv.DeleteTools(names...)
		}
		m.served = nil
	}
}

// mount follows one registry on one server.
type mount struct {
	reg     *mcptool.Registry
	srv     weak.Pointer[server.MCPServer]
	cancel  func()
	mu      sync.Mutex
	served  map[string]*mcp.Tool // by name: the registry definition served
	stopped bool
	checked int // tools compared with the registry: the work of keeping in sync
}

// apply brings the named tools up to date on the server: at Mount every
// registered tool, then the tools each change of the registry touched, so
// the work per change is the size of the change, not of the registry. Each
// name is compared with the registry as it is now (by definition identity:
// a tool removed and added again under its name has a new definition), not
// as the change says, so changes whose notifications race settle on the
// registry's state. Each call reaches the server as at most one DeleteTools
// and one AddTools, so clients get at most two list_changed notifications.
func (m *mount) apply(changed []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return
	}
	srv := m.srv.Value()
	if srv == nil {
		m.cancel()
		return
	}
	m.sync(srv, changed)
}

// sync serves the named tools as the registry has them now.
func (m *mount) sync(srv *server.MCPServer, names []string) {
	var added []server.ServerTool
	var gone []string
	for _, name := range names {
		m.checked++
		def, ok := m.reg.Tool(name)
		switch served := m.served[name]; {
		case ok && served != def:
			t, err := Tool(def)
			if err != nil {
				// Registry definitions always marshal; this is a bug.
				slog.Error("mcpgo: tool not served", "tool", name, "err", err)
				continue
			}
			added = append(added, server.ServerTool{Tool: t, Handler: m.handler(name)})
			m.served[name] = def
		case !ok && served != nil:
			gone = append(gone, name)
			delete(m.served, name)
		}
	}
	if len(gone) > 0 {
		srv.DeleteTools(gone...)
	}
	if len(added) > 0 {
		srv.AddTools(added...)
	}
}

// handler adapts the registry tool name to mcp-go. It never lets a panic
// reach mcp-go (the registry recovers them) and never returns (nil, nil).
func (m *mount) handler(name string) server.ToolHandlerFunc {
	return func(ctx context.Context, req gomcp.CallToolRequest) (*gomcp.CallToolResult, error) {
		srv := server.ServerFromContext(ctx)
		if srv == nil {
			srv = m.srv.Value()
		}
		args := req.Params.RawArguments // the client's bytes, when it came over the wire
		if len(args) == 0 {
			var err error
			if args, err = rawArguments(req.Params.Arguments); err != nil {
				return nil, fmt.Errorf("tool %q: arguments: %v", name, err)
			}
		}
		req.Header = adapter.VisibleHeader(req.Header) // tools see the caller, never the credential
		ctx = context.WithValue(ctx, requestKey{}, &req)
		p, err := newPeer(ctx, srv, &req, args)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %v", name, err)
		}
		res, err := adapter.Invoke(ctx, m.reg, name, args, p)
		if err != nil {
			return nil, protocolError(err)
		}
		if res == nil {
			res = &mcp.CallToolResult{Content: []mcp.Content{}}
		}
		return Result(res)
	}
}

// protocolError turns a protocol error of the registry into the error an
// mcp-go handler returns. mcp-go answers every handler error with code
// -32603 (internal error) and the error's text as the message, so only the
// message can be kept: that of [mcptool.Error.JSONRPC], or of the tool's
// *jsonrpc.Error.
func protocolError(err error) error {
	var e *mcptool.Error
	if errors.As(err, &e) {
		return errors.New(e.JSONRPC().Message)
	}
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return errors.New(je.Message)
	}
	return err
}

// rawArguments re-encodes the arguments mcp-go decoded. nil stays nil (no
// arguments).
func rawArguments(v any) (json.RawMessage, error) {
	switch a := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return a, nil
	case []byte:
		return json.RawMessage(a), nil
	}
	return json.Marshal(v)
}

type requestKey struct{}

// Request returns the mcp-go request of the tool call ctx belongs to, when
// the tool was called through a server mounted with [Mount]: its _meta, and
// the HTTP headers on HTTP transports, without Authorization, Cookie and
// Proxy-Authorization (read the caller with mcptool.Caller). ([mcptool.Request]
// is nil on this path: it returns go-sdk requests.)
func Request(ctx context.Context) *gomcp.CallToolRequest {
	r, _ := ctx.Value(requestKey{}).(*gomcp.CallToolRequest)
	return r
}

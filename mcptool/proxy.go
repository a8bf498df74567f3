package mcptool

import (
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The proxies of discovery mode (discovery.go builds them): a call of
// call_tool or call_write_tool is resolved here to the tool it names
// (route, callTarget), before the tasks layer and the call path see it.

// The tools of discovery mode.
const (
	searchToolsName = "search_tools"
	callToolName    = "call_tool"
	callWriteName   = "call_write_tool"
)

// discovery holds a discovery-mode registry's own tools, and its ranking
// by meaning; it is what the registry's servers plug in (discoveryHook).
type discovery struct {
	reg                 *Registry
	search, call, write *tool
	emb                 *embedder // ranks search_tools' hits by meaning; nil without SearchEmbedder (semantic.go)
}

// proxy returns the discovery tool named name.
func (d *discovery) proxy(name string) (*tool, bool) {
	switch {
	case d == nil:
		return nil, false
	case name == searchToolsName:
		return d.search, true
	case name == callToolName:
		return d.call, true
	case name == callWriteName:
		return d.write, true
	}
	return nil, false
}

type proxyArgs struct {
	Name      string          `json:"name" jsonschema:"minLength=1,description=The tool's name as search_tools gave it."`
	Arguments json.RawMessage `json:"arguments,omitempty" jsonschema_description:"The tool's arguments: an object as its inputSchema describes."`
}

// route resolves a call of a proxy (call_tool, call_write_tool) to the
// tool it names, with that tool's arguments; ok is false for any other
// call, and for one the proxy refuses (then the proxy runs, and says why).
// The proxy's arguments are decoded by the proxy's own plan, so what the
// proxy's schema rejects is never routed.
func (r *Registry) route(name string, args json.RawMessage) (t *tool, inner json.RawMessage, ok bool) {
	d := r.disc
	if d == nil || name != callToolName && name != callWriteName {
		return nil, nil, false
	}
	p, _ := d.proxy(name)
	if len(args) > p.pol.maxArgBytes {
		return nil, nil, false
	}
	var in proxyArgs
	if p.plan.Decode(args, &in, p.pol.maxDepth) != nil {
		return nil, nil, false
	}
	t, reason := r.reach(name, in)
	if reason != "" {
		return nil, nil, false
	}
	return t, in.Arguments, true
}

// reach finds the tool a proxy call names, or says why the proxy cannot
// call it.
func (r *Registry) reach(proxy string, in proxyArgs) (*tool, string) {
	v, ok := r.tools.Load(in.Name)
	if !ok {
		if _, own := r.disc.proxy(in.Name); own {
			return nil, fmt.Sprintf("%s is called directly, not through %s", in.Name, proxy)
		}
		return nil, noSuchTool(in.Name, "")
	}
	t := v.(*tool)
	if proxy == callToolName && !t.def.Annotations.ReadOnlyHint {
		return nil, fmt.Sprintf("%s is not read-only: call it with %s", t.name, callWriteName)
	}
	if a := trimJSON(in.Arguments); len(a) > 0 && a[0] != '{' && string(a) != "null" {
		return nil, "arguments: must be an object"
	}
	return t, ""
}

func trimJSON(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// callTarget is the tool a tools/call names, after a proxy call is
// resolved (route): then call is rewritten in place into a call of that
// tool, so every layer after it (tasks, the call path, audit) sees the
// tool's own call.
func (r *Registry) callTarget(call *mcp.CallToolRequest) (*tool, bool) {
	if t, inner, ok := r.route(call.Params.Name, call.Params.Arguments); ok {
		call.Params.Name, call.Params.Arguments = t.name, inner
		return t, true
	}
	return r.lookup(call.Params.Name)
}

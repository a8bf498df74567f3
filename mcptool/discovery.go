package mcptool

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/mcpgen/mcpgen/mcptool/internal/toolsearch"
	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// Discovery (docs/discovery.md): a registry made with the Discovery option
// lists only its eager tools and the tools that reach the rest —
// search_tools, which finds tools by what they do, and two proxies that call
// a found tool by name: call_tool, read-only, which reaches only read-only
// tools, and call_write_tool, which reaches every tool and whose hints are
// the most alarming of the tools it reaches. A client that approves calls
// by their hints is never told that a proxy able to delete is read-only.
//
// A proxy call is resolved where a call names its tool (route, callTarget):
// the call becomes the named tool's own, with its arguments, before the
// task layer and the call path see it, so it is decoded, authorized,
// confirmed, limited, audited and run as a task exactly as a direct call of
// that tool. A call the proxy cannot resolve (an unknown tool, a tool that
// is not read-only through call_tool) runs the proxy itself, which answers
// why.

// The tools of discovery mode.
const (
	searchToolsName = "search_tools"
	callToolName    = "call_tool"
	callWriteName   = "call_write_tool"
)

// queryMetaKey is where StdioTransport and Server.Handler move the query
// of a tools/list (SEP-1821, experimental), which go-sdk would drop.
const queryMetaKey = "io.mcpgen/query"

// Discovery makes tools/list show only the eager tools (the `mcp:"eager"`
// tag, or named here) and three tools that reach the others: search_tools
// (query, group, limit: the matching tools' definitions, best first, or the
// list of groups), call_tool (name, arguments: calls a read-only tool) and
// call_write_tool (the same for any tool). Every tool can still be called
// by its name. For catalogues too large to send to the model on every
// turn; docs/discovery.md.
func Discovery(eager ...string) RegistryOption {
	return registryOption(func(c *registryConfig) {
		c.discovery = true
		c.eager = append(c.eager, eager...)
	})
}

// discovery holds a discovery-mode registry's own tools.
type discovery struct {
	search, call, write *tool
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

type searchArgs struct {
	_     struct{} `mcp:"readOnly,openWorld=false"`
	Query string   `json:"query,omitempty" jsonschema_description:"What you want to do, in words: e.g. refund an invoice. Empty: the groups, and the names of the tools in none."`
	Group string   `json:"group,omitempty" jsonschema_description:"Only tools of this group."`
	Limit int      `json:"limit,omitempty" jsonschema:"minimum=1,maximum=50,default=5,description=How many tools at most."`
}

type proxyArgs struct {
	Name      string          `json:"name" jsonschema:"minLength=1,description=The tool's name as search_tools gave it."`
	Arguments json.RawMessage `json:"arguments,omitempty" jsonschema_description:"The tool's arguments: an object as its inputSchema describes."`
}

const searchDescription = "Finds the tools of this server that do what you describe, best first, with their full definitions " +
	"(name, description, inputSchema, annotations). Call a tool whose readOnlyHint is true with call_tool; any other with call_write_tool. " +
	"An empty query lists the groups of tools, and the names and titles of the tools in none."

// newDiscovery builds the discovery tools of r.
func (r *Registry) newDiscovery() (*discovery, error) {
	d := &discovery{}
	var err error
	d.search, err = newTyped(r, searchToolsName, r.searchTools, []Option{Description(searchDescription), NoOutputSchema()})
	if err != nil {
		return nil, err
	}
	d.call, err = newTyped(r, callToolName, r.proxyRefusal(callToolName), []Option{
		Description("Calls a read-only tool that search_tools found (readOnlyHint true), with its arguments."),
		ReadOnly(true), NoOutputSchema(),
	})
	if err != nil {
		return nil, err
	}
	d.write, err = newTyped(r, callWriteName, r.proxyRefusal(callWriteName), []Option{
		Description("Calls any tool that search_tools found, with its arguments; use call_tool for read-only ones."),
		NoOutputSchema(),
	})
	if err != nil {
		return nil, err
	}
	for _, t := range []*tool{d.search, d.call, d.write} {
		t.handler = r.chain(t) // the registry's middleware, as for its other tools
	}
	return d, nil
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

// proxyRefusal is the function of a proxy: it runs only for a call route
// did not resolve, and answers why.
func (r *Registry) proxyRefusal(proxy string) func(context.Context, proxyArgs) (*mcp.CallToolResult, error) {
	return func(ctx context.Context, in proxyArgs) (*mcp.CallToolResult, error) {
		if _, reason := r.reach(proxy, in); reason != "" {
			if _, known := r.lookup(in.Name); !known {
				reason = noSuchTool(in.Name, r.didYouMean(ctx, in.Name))
			}
			return nil, Errorf("%s", reason)
		}
		// Resolved, yet here: an entry that does not route proxies (Mount).
		return nil, Errorf("%s cannot be called through %s on this server: call it by its name", in.Name, proxy)
	}
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

// catalogIndex is what discovery mode derives from one snapshot of the tools, once
// per change, when first asked.
type catalogIndex struct {
	once   sync.Once
	listed []*tool // eager tools and the discovery tools, sorted by name
	docs   []*tool // the searchable tools, by index position
	ix     *toolsearch.Index
	groups []groupInfo
	vecs   toolVectors // SearchEmbedder's vectors of docs, embedded on first use
}

type groupInfo struct {
	Name  string `json:"name"`
	Tools int    `json:"tools"`
}

// listed returns the tools tools/list shows: all of set, or in discovery
// mode the eager ones and the discovery tools.
func (r *Registry) listed(set *toolSet) []*tool {
	if r.disc == nil {
		return set.sorted
	}
	return r.index(set).listed
}

// index returns set's discovery index, building it on first use.
func (r *Registry) index(set *toolSet) *catalogIndex {
	v := &set.index
	v.once.Do(func() { r.buildIndex(set, v) })
	return v
}

func (r *Registry) buildIndex(set *toolSet, v *catalogIndex) {
	d := r.disc
	docs := make([]toolsearch.Doc, 0, len(set.sorted))
	count := map[string]int{}
	var readHints, writeHints annotations.Effective
	readHints.ReadOnly = true
	writeHints.Idempotent = true
	anyWrite := false
	for _, t := range set.sorted {
		if t.eager {
			v.listed = append(v.listed, t)
		}
		if t.searchable() {
			v.docs = append(v.docs, t)
			docs = append(docs, searchDoc(t))
			if t.group != "" {
				count[t.group]++
			}
		}
		a := t.def.Annotations
		open := a.OpenWorldHint == nil || *a.OpenWorldHint
		if a.ReadOnlyHint {
			readHints.OpenWorld = readHints.OpenWorld || open
		} else {
			anyWrite = true
			writeHints.Destructive = writeHints.Destructive || a.DestructiveHint == nil || *a.DestructiveHint
			writeHints.Idempotent = writeHints.Idempotent && a.IdempotentHint
		}
		writeHints.OpenWorld = writeHints.OpenWorld || open
	}
	if !anyWrite {
		writeHints.Idempotent = false
	}
	v.ix = toolsearch.Build(docs)
	for g, n := range count {
		v.groups = append(v.groups, groupInfo{g, n})
	}
	slices.SortFunc(v.groups, func(a, b groupInfo) int { return strings.Compare(a.Name, b.Name) })
	v.listed = append(v.listed, d.search, withHints(d.call, readHints))
	if anyWrite {
		v.listed = append(v.listed, withHints(d.write, writeHints))
	}
	slices.SortFunc(v.listed, func(a, b *tool) int { return strings.Compare(a.name, b.name) })
}

// withHints returns a copy of the proxy p listed with the hints e: the
// most alarming of the tools it reaches.
func withHints(p *tool, e annotations.Effective) *tool {
	cp := *p
	def := *p.def
	def.Annotations = &mcp.ToolAnnotations{ReadOnlyHint: e.ReadOnly, IdempotentHint: e.Idempotent, OpenWorldHint: &e.OpenWorld}
	if !e.ReadOnly {
		def.Annotations.DestructiveHint = &e.Destructive
	}
	cp.def = &def
	return &cp
}

// searchable reports whether search_tools (and a tools/list with a query)
// may find t: every tool but an app-only one, which only views call and the
// model, which reads what search finds, must never be shown.
func (t *tool) searchable() bool { return t.view == nil || !t.view.appOnly }

// searchDoc is the text of t that search ranks: its name, group, title and
// description, its top-level arguments' names and descriptions, and the
// names of the properties nested in them (read with wire.Members, each
// schema in one pass, not decoded: decoding 10,000 schemas costs seconds).
func searchDoc(t *tool) toolsearch.Doc {
	d := toolsearch.Doc{Name: t.name, Group: t.group, Description: t.def.Title + " " + t.def.Description}
	raw, ok := t.def.InputSchema.(json.RawMessage)
	if !ok {
		return d
	}
	_, _, props := schemaParts(raw)
	wire.Members(props, func(k []byte, v json.RawMessage) bool {
		desc, items, props := schemaParts(v)
		arg := toolsearch.Arg{Name: string(k)}
		arg.Description, _ = wire.Text(desc)
		d.Args = append(d.Args, arg)
		nestedFields(&d, items, props, 1)
		return true
	})
	slices.SortFunc(d.Args, func(a, b toolsearch.Arg) int { return strings.Compare(a.Name, b.Name) })
	slices.Sort(d.Fields)
	return d
}

// schemaParts returns the description, items and properties of schema, as
// they are in it (nil when absent).
func schemaParts(schema []byte) (desc, items, props json.RawMessage) {
	wire.Members(schema, func(k []byte, v json.RawMessage) bool {
		switch string(k) {
		case "description":
			desc = v
		case "items":
			items = v
		case "properties":
			props = v
		}
		return true
	})
	return desc, items, props
}

// maxNest bounds how deep nestedFields reads an argument's schema.
const maxNest = 3

// nestedFields adds to d.Fields the names of the properties of a schema
// (an argument's, or its items' for an array: its items and properties),
// and of theirs, down to maxNest levels: a request body's fields name what
// a tool changes.
func nestedFields(d *toolsearch.Doc, items, props json.RawMessage, depth int) {
	if depth > maxNest {
		return
	}
	if items != nil {
		_, _, props = schemaParts(items)
	}
	wire.Members(props, func(k []byte, v json.RawMessage) bool {
		d.Fields = append(d.Fields, string(k))
		_, items, props := schemaParts(v)
		nestedFields(d, items, props, depth+1)
		return true
	})
}

// search returns the tools of set matching query, best first, at most
// limit, among those in group (any when "") that the caller ti may see, by
// the rule of tools/list (ListAllTools, else the tool's scopes). An empty
// query returns group's tools by name (none when group is "").
func (r *Registry) search(ctx context.Context, set *toolSet, query, group string, limit int, ti *auth.TokenInfo) []*tool {
	v := r.index(set)
	visible := func(t *tool) bool {
		return (group == "" || t.group == group) && (r.cfg.listAll || mayCall(t, ti))
	}
	var out []*tool
	if strings.TrimSpace(query) == "" {
		if group == "" {
			return nil
		}
		for _, t := range v.docs {
			if len(out) < limit && visible(t) {
				out = append(out, t)
			}
		}
		return out
	}
	keep := func(i int) bool { return visible(v.docs[i]) }
	var hits []toolsearch.Hit
	if r.cfg.embed != nil {
		hits = r.rankByMeaning(ctx, v, query, v.ix.Search(query, max(limit, semanticCandidates), keep), limit)
	} else {
		hits = v.ix.Search(query, limit, keep)
	}
	for _, h := range hits {
		out = append(out, v.docs[h.Doc])
	}
	return out
}

// searchResult is what search_tools answers: the tools found (for an
// empty query, emptyResult).
type searchResult struct {
	Tools []*mcp.Tool `json:"tools"`
}

// searchTools is search_tools' function.
func (r *Registry) searchTools(ctx context.Context, in searchArgs) (*mcp.CallToolResult, error) {
	var ti *auth.TokenInfo
	if cs := stateFrom(ctx); cs != nil {
		ti = cs.ti
	}
	if in.Limit == 0 {
		in.Limit = 5
	}
	set := r.snapshot()
	var res any
	if strings.TrimSpace(in.Query) == "" && in.Group == "" {
		res = r.emptySearch(set, ti) // discoveryhelp.go
	} else {
		found := searchResult{Tools: []*mcp.Tool{}}
		for _, t := range r.search(ctx, set, in.Query, in.Group, in.Limit, ti) {
			found.Tools = append(found.Tools, t.def)
		}
		res = found
	}
	b, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
}

// listQuery returns the query of a tools/list (SEP-1821, lifted into
// _meta by the transports), removing it from the request.
func listQuery(req *mcp.ListToolsRequest) (string, bool) {
	if req.Params == nil {
		return "", false
	}
	v, ok := req.Params.Meta[queryMetaKey]
	if !ok {
		return "", false
	}
	delete(req.Params.Meta, queryMetaKey)
	q, _ := v.(string)
	return q, true
}

// liftQuery moves params.query of a tools/list message into
// params._meta[queryMetaKey] (sdkpatch.LiftParam): go-sdk drops it.
func liftQuery(msg []byte) []byte {
	return sdkpatch.LiftParam(msg, "tools/list", "query", queryMetaKey)
}

// listQueryLimit bounds the tools a tools/list with a query returns.
const listQueryLimit = 10

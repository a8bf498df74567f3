package mcptool

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/toolsearch"
)

// Discovery (docs/discovery.md): a registry made with the Discovery option
// lists only its eager tools and the tools that reach the rest —
// search_tools, which finds tools by what they do, and two proxies that call
// a found tool by name: call_tool, read-only, which reaches only read-only
// tools, and call_write_tool, which reaches every tool and whose hints are
// the most alarming of the tools it reaches. A client that approves calls
// by their hints is never told that a proxy able to delete is read-only.
//
// A proxy call is resolved where a call names its tool (proxy.go: route, callTarget):
// the call becomes the named tool's own, with its arguments, before the
// task layer and the call path see it, so it is decoded, authorized,
// confirmed, limited, audited and run as a task exactly as a direct call of
// that tool. A call the proxy cannot resolve (an unknown tool, a tool that
// is not read-only through call_tool) runs the proxy itself, which answers
// why.

// Discovery makes tools/list show only the eager tools (the `mcp:"eager"`
// tag, or named here) and three tools that reach the others: search_tools
// (query, group, limit: the matching tools' definitions, best first, or the
// list of groups), call_tool (name, arguments: calls a read-only tool) and
// call_write_tool (the same for any tool). Every tool can still be called
// by its name. For catalogues too large to send to the model on every
// turn; docs/discovery.md.
func Discovery(eager ...string) RegistryOption {
	return registryOption(func(c *registryConfig) {
		c.discoveryOn = true
		c.eager = append(c.eager, eager...)
	})
}

type searchArgs struct {
	_     struct{} `mcp:"readOnly,openWorld=false"`
	Query string   `json:"query,omitempty" jsonschema_description:"What you want to do, in words: e.g. refund an invoice. Empty: the groups, and the names of the tools in none."`
	Group string   `json:"group,omitempty" jsonschema_description:"Only tools of this group."`
	Limit int      `json:"limit,omitempty" jsonschema:"minimum=1,maximum=50,default=5,description=How many tools at most."`
}

const searchDescription = "Finds the tools of this server that do what you describe, best first, with their full definitions " +
	"(name, description, inputSchema, annotations). Call a tool whose readOnlyHint is true with call_tool; any other with call_write_tool. " +
	"An empty query lists the groups of tools, and the names and titles of the tools in none."

// newDiscovery builds the discovery tools of r.
func (r *Registry) newDiscovery() (*discovery, error) {
	d := &discovery{reg: r}
	if r.cfg.embed != nil {
		d.emb = &embedder{fn: r.cfg.embed, logger: r.cfg.logger}
	}
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

// target is the tool a call of t reaches: for a proxy's call, the tool it
// names, call rewritten into that tool's own (callTarget); else t.
func (d *discovery) target(t *tool, known bool, call *mcp.CallToolRequest) (*tool, bool) {
	if known && (t.name == callToolName || t.name == callWriteName) {
		return d.reg.callTarget(call)
	}
	return t, known
}

// listed returns the tools of set tools/list shows: the eager ones and the
// discovery tools.
func (d *discovery) listed(set *toolSet) []*tool { return d.reg.index(set).listed }

// query returns the tools of set a tools/list with a query shows (SEP-1821):
// those search finds, at most limit.
func (d *discovery) query(ctx context.Context, set *toolSet, q string, limit int, ti *auth.TokenInfo) ([]*tool, bool) {
	return d.reg.search(ctx, set, q, "", limit, ti), true
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
	if e := r.disc.emb; e != nil {
		hits = e.rankByMeaning(ctx, v.docs, &v.vecs, query, v.ix.Search(query, max(limit, semanticCandidates), keep), limit)
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

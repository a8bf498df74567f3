package mcptool

import (
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// A request that mcpgen's dispatcher answers, decoded from the scanned
// message into the go-sdk request type go-sdk would have built: on the
// 2026-07-28 wire (modern.request), and in a 2025-era session (stdio, or
// streamable HTTP with Mcp-Session-Id: sessionRequest) with the same
// Session and Extra, so that the middleware and the call path see the same
// request on every wire. Each decodes params' members first, then the id
// and _meta in one pass (idAndMeta, jsonrpc.go).

// sessionFrame holds what one tools/call of a session allocates, in one
// allocation.
type sessionFrame struct {
	call   mcp.CallToolRequest
	params mcp.CallToolParamsRaw
}

// sessionRequest returns the request msg carries when the dispatcher
// answers it on ss exactly as go-sdk's session would: a JSON-RPC 2.0 call
// with an id, of tools/list, tasks/*, or tools/call of a registry tool (its
// 2025-11-25 task param included), whose
// params decode as go-sdk decodes them, on an initialized session, without
// the per-request protocol metadata of the 2026-07-28 wire (go-sdk
// serves that). Anything else is go-sdk's: ok is false. The tool of a
// tools/call is found here, once: t, for dispatcher.serve (toolcall.go).
func (d *dispatcher) sessionRequest(msg *wire.Message, ss *mcp.ServerSession, extra *mcp.RequestExtra) (req mcp.Request, t *tool, id jsonrpc.ID, ok bool) {
	if !msg.Version2() || msg.Response || len(msg.ID) == 0 || string(msg.ID) == "null" {
		return nil, nil, id, false
	}
	switch msg.Method {
	case "tools/call", "tools/list", methodTasksGet, methodTasksUpdate, methodTasksCancel, methodTasksResult, methodTasksList:
	default:
		return nil, nil, id, false
	}
	if ss.InitializeParams() == nil {
		return nil, nil, id, false // go-sdk refuses it: not initialized
	}
	for _, mb := range msg.Meta {
		if mb.Key == mcp.MetaKeyProtocolVersion || strings.HasPrefix(mb.Key, "io.mcpgen/") {
			return nil, nil, id, false // per-request protocol; or a key of mcpgen's own
		}
	}
	if raw := msg.RawParams; raw != nil && string(raw) != "null" && msg.Params == nil {
		return nil, nil, id, false // params that are no object: go-sdk's error
	}
	id, meta, ok := idAndMeta(msg, false)
	if !ok {
		return nil, nil, id, false
	}
	if msg.Method == "tools/list" {
		p := &mcp.ListToolsParams{Meta: meta}
		for _, mb := range msg.Params {
			switch mb.Key {
			case "_meta":
			case "cursor":
				if unmarshalString(mb.Value, &p.Cursor) != nil {
					return nil, nil, id, false
				}
			default:
				return nil, nil, id, false // query (discovery.go) and the rest: go-sdk's
			}
		}
		if msg.RawParams == nil || string(msg.RawParams) == "null" {
			p = nil
		}
		return &mcp.ListToolsRequest{Session: ss, Params: p, Extra: extra}, nil, id, true
	}
	if msg.Params == nil && msg.Method != methodTasksList {
		return nil, nil, id, false // go-sdk's "missing params"; tasks/list may have none
	}
	if msg.Method != "tools/call" {
		p := &taskParams{}
		p.Meta = meta
		for _, mb := range msg.Params {
			var err error
			switch mb.Key {
			case "_meta":
			case "taskId":
				err = unmarshalString(mb.Value, &p.TaskID)
			case "inputResponses":
				err = json.Unmarshal(mb.Value, &p.InputResponses)
			case "cursor":
				err = unmarshalString(mb.Value, &p.Cursor)
			}
			if err != nil {
				return nil, nil, id, false
			}
		}
		return &mcp.ServerRequest[*taskParams]{Session: ss, Params: p, Extra: extra}, nil, id, true
	}
	f := &sessionFrame{}
	p := &f.params
	p.Meta = meta
	named := false
	for _, mb := range msg.Params {
		switch mb.Key {
		case "_meta":
		case "name":
			named = true
			if unmarshalString(mb.Value, &p.Name) != nil {
				return nil, nil, id, false
			}
		case "arguments":
			p.Arguments = mb.Value
		case "task": // the 2025-11-25 task param, where liftTaskParam puts it for go-sdk (taskcore.go)
			v, ok := wire.DecodeAny(mb.Value)
			if !ok {
				return nil, nil, id, false
			}
			if p.Meta == nil {
				p.Meta = mcp.Meta{}
			}
			p.Meta[taskParamKey] = v
		default:
			return nil, nil, id, false // inputResponses, requestState, …: go-sdk's
		}
	}
	if !named {
		return nil, nil, id, false
	}
	if string(p.Arguments) == "null" {
		p.Arguments = nil // as encoding/json leaves a RawMessage for null
	}
	if t, ok = d.reg.lookup(p.Name); !ok || t.headers {
		return nil, nil, id, false // go-sdk's: its tools, its unknown tool
	}
	f.call = mcp.CallToolRequest{Session: ss, Params: p, Extra: extra}
	return &f.call, t, id, true
}

// request decodes msg's params into the go-sdk request its method takes,
// each member from its slice of the body (a tools/call's into f, with
// the tool it names, found once: f.tool), and its id. ok is false when a
// member does not decode (go-sdk answers that), or a tools/call names a
// tool the registry does not serve here.
func (m *modern) request(msg *wire.Message, f *frame) (mcp.Request, jsonrpc.ID, bool) {
	extra := &f.extra
	var (
		req   mcp.Request
		meta  *mcp.Meta // where the request's _meta goes
		query *string   // a tools/list's SEP-1821 query, as liftQuery lifts it for go-sdk
	)
	switch msg.Method {
	case "tools/call":
		p := &f.params
		for _, mb := range msg.Params {
			var err error
			switch mb.Key {
			case "name":
				err = unmarshalString(mb.Value, &p.Name)
			case "arguments":
				p.Arguments = mb.Value
			case "inputResponses":
				err = json.Unmarshal(mb.Value, &p.InputResponses)
			case "requestState":
				err = unmarshalString(mb.Value, &p.RequestState)
			}
			if err != nil {
				return nil, jsonrpc.ID{}, false
			}
		}
		f.call = mcp.CallToolRequest{Params: p, Extra: extra}
		req, meta = &f.call, &p.Meta
	case "tools/list":
		var cursor, q json.RawMessage // the last of each, as encoding/json decodes them
		for _, mb := range msg.Params {
			switch mb.Key {
			case "cursor":
				cursor = mb.Value
			case "query":
				q = mb.Value
			}
		}
		p := &mcp.ListToolsParams{}
		if cursor != nil && json.Unmarshal(cursor, &p.Cursor) != nil {
			return nil, jsonrpc.ID{}, false
		}
		if q != nil {
			query = new(string)
			if json.Unmarshal(q, query) != nil {
				return nil, jsonrpc.ID{}, false
			}
		}
		req, meta = &mcp.ListToolsRequest{Params: p, Extra: extra}, &p.Meta
	default:
		p := &taskParams{}
		for _, mb := range msg.Params {
			var err error
			switch mb.Key {
			case "taskId":
				err = json.Unmarshal(mb.Value, &p.TaskID)
			case "inputResponses":
				err = json.Unmarshal(mb.Value, &p.InputResponses)
			case "cursor":
				err = json.Unmarshal(mb.Value, &p.Cursor)
			}
			if err != nil {
				return nil, jsonrpc.ID{}, false
			}
		}
		req, meta = &mcp.ServerRequest[*taskParams]{Params: p, Extra: extra}, &p.Meta
	}
	id, md, ok := idAndMeta(msg, true)
	if !ok {
		return nil, id, false
	}
	*meta = md
	if query != nil {
		if md == nil {
			*meta = mcp.Meta{}
		}
		(*meta)[queryMetaKey] = *query
	}
	if msg.Method == "tools/call" {
		name := f.params.Name
		t, ok := m.reg.lookup(name)
		if !ok || t.headers || extra.Header.Get("Mcp-Name") != name {
			return nil, id, false // go-sdk's: its tools, its Mcp-Name and Mcp-Param checks
		}
		f.tool = t
	}
	return req, id, true
}

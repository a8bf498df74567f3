package mcptool

import (
	"encoding/json"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// A request of a 2025-era session (stdio, or streamable HTTP with
// Mcp-Session-Id) that mcpgen's dispatcher answers, decoded from the
// scanned message into the go-sdk request type go-sdk's session would have
// built, with the same Session and Extra, so that the middleware and the
// call path see the same request on every wire.

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
	if id, ok = messageID(msg.ID); !ok {
		return nil, nil, id, false
	}
	if raw := msg.RawParams; raw != nil && string(raw) != "null" && msg.Params == nil {
		return nil, nil, id, false // params that are no object: go-sdk's error
	}
	meta, ok := metaOf(msg)
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
			v, ok := wire.Decode(mb.Value)
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

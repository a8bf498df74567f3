package mcptool

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sjson "github.com/segmentio/encoding/json"
)

// Polling: a client waiting for a task sends tasks/get again and again, and
// go-sdk decodes each message several times over (and serves each
// 2026-07-28 request over HTTP on a session of its own), which costs
// several times what reading the task does. So the transports mcpgen owns
// answer a plain tasks/get of the 2026-07-28 wire themselves, with the
// registry's getTask (the same code go-sdk's path runs): NewHTTPHandler
// (servePoll) and StdioTransport (stdioConn.poll). They do so only for a
// server a Registry built (Registry.Server), served by that one registry:
// then they know whose tasks the server serves, and the server's
// Implementation for the result's _meta. Anything unusual (a header that
// disagrees, a missing capability, a malformed message, a stdio session
// that began with initialize) goes to go-sdk, which answers it as before.

// servePoll answers body, a POST of the 2026-07-28 wire, when it is a
// tasks/get it can answer for srv, and reports whether it did.
func servePoll(w http.ResponseWriter, r *http.Request, srv *mcp.Server, body []byte) bool {
	pt := servedOn(srv)
	if !pt.answersPolls() || !accepts(r, "application/json") {
		return false
	}
	id, taskID, ok := plainTaskGet(body)
	if !ok ||
		r.Header.Get("Mcp-Protocol-Version") != modernVersion ||
		r.Header.Get("Mcp-Method") != methodTasksGet ||
		(r.Header.Get("Mcp-Name") != "" && r.Header.Get("Mcp-Name") != taskID) {
		return false
	}
	caller := ownerOf(r.Context(), &mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context())})
	out, invalid, ok := answerPoll(r.Context(), pt, caller, id, taskID)
	if !ok {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	if invalid {
		// SEP-2575: -32602 is answered with HTTP 400 (as go-sdk does).
		w.WriteHeader(http.StatusBadRequest)
	}
	_, _ = w.Write(out)
	return true
}

// answersPolls reports whether a transport can answer tasks/get for the
// server: one registry serves it, and its Implementation is known.
func (pt servedBy) answersPolls() bool { return pt.reg != nil && pt.impl != nil }

// answerPoll is the JSON-RPC response to tasks/get of taskID (request id)
// from caller, answered by pt's registry (pt.answersPolls()); invalid
// reports a -32602 error. ok is false when go-sdk has to answer instead.
func answerPoll(ctx context.Context, pt servedBy, caller string, id json.RawMessage, taskID string) (out []byte, invalid, ok bool) {
	res, err := pt.reg.getTask(ctx, caller, taskID)
	var rpcErr *jsonrpc.Error
	if err != nil && !errors.As(err, &rpcErr) {
		return nil, false, false
	}
	msg := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  *detailedTask   `json:"result,omitempty"`
		Error   *jsonrpc.Error  `json:"error,omitempty"`
	}{JSONRPC: "2.0", ID: id, Result: res, Error: rpcErr}
	if res != nil {
		res.Meta = mcp.Meta{mcp.MetaKeyServerInfo: pt.impl}
	}
	out, err = json.Marshal(msg)
	if err != nil {
		return nil, false, false
	}
	return out, rpcErr != nil && rpcErr.Code == jsonrpc.CodeInvalidParams, true
}

// plainTaskGet reads a tasks/get request of the 2026-07-28 wire whose
// client declares the tasks extension: its id and task ID. It decodes as
// go-sdk decodes a message (segmentio's decoder, keys matched exactly, at
// most maxStdioDepth levels deep), in one pass, and takes only what go-sdk
// would take the same way: a body with anything after its value is left to
// go-sdk.
func plainTaskGet(body []byte) (id json.RawMessage, taskID string, ok bool) {
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  string          `json:"method"`
		Params  *struct {
			TaskID string `json:"taskId"`
			Meta   *struct {
				Version string `json:"io.modelcontextprotocol/protocolVersion"`
				Caps    *struct {
					Extensions map[string]json.RawMessage `json:"extensions"`
				} `json:"io.modelcontextprotocol/clientCapabilities"`
				Info *mcp.Implementation `json:"io.modelcontextprotocol/clientInfo"`
			} `json:"_meta"`
		} `json:"params"`
	}
	if bytes.Count(body, []byte("{"))+bytes.Count(body, []byte("[")) > maxStdioDepth && tooDeep(body, maxStdioDepth) {
		return nil, "", false
	}
	rest, err := sjson.Parse(body, &msg, sjson.DontMatchCaseInsensitiveStructFields)
	if err != nil || len(rest) != 0 || msg.JSONRPC != "2.0" || msg.Method != methodTasksGet {
		return nil, "", false
	}
	p := msg.Params
	if p == nil || p.TaskID == "" || p.Meta == nil || p.Meta.Version != modernVersion || p.Meta.Caps == nil {
		return nil, "", false
	}
	if _, declared := p.Meta.Caps.Extensions[TasksExtension]; !declared {
		return nil, "", false
	}
	id = msg.ID
	if len(id) == 0 || !(id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
		return nil, "", false
	}
	return id, p.TaskID, true
}

// accepts reports whether r's Accept header lists mediaType.
func accepts(r *http.Request, mediaType string) bool {
	for _, v := range r.Header.Values("Accept") {
		for part := range strings.SplitSeq(v, ",") {
			if t, _, _ := strings.Cut(strings.TrimSpace(part), ";"); strings.EqualFold(t, mediaType) {
				return true
			}
		}
	}
	return false
}

package mcptool

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Polling: a client waiting for a task sends tasks/get again and again, and
// go-sdk serves each 2026-07-28 request on a session of its own, which costs
// several times what reading the task does. So NewHTTPHandler answers a
// plain tasks/get of the 2026-07-28 wire itself, with the registry's getTask
// (the same code go-sdk's path runs), when the server is one a Registry
// built (Registry.Server): then the handler knows the one registry whose
// tasks the server serves, and the server's Implementation for the result's
// _meta. Anything unusual (a header that disagrees, a missing capability, a
// malformed message) goes to go-sdk, which answers it as before.

// servePoll answers body, a POST of the 2026-07-28 wire, when it is a
// tasks/get it can answer for srv, and reports whether it did.
func servePoll(w http.ResponseWriter, r *http.Request, srv *mcp.Server, body []byte) bool {
	pt := servedOn(srv)
	if pt.reg == nil || pt.impl == nil || !accepts(r, "application/json") {
		return false
	}
	id, taskID, ok := plainTaskGet(body)
	if !ok ||
		r.Header.Get("Mcp-Protocol-Version") != modernVersion ||
		r.Header.Get("Mcp-Method") != methodTasksGet ||
		(r.Header.Get("Mcp-Name") != "" && r.Header.Get("Mcp-Name") != taskID) {
		return false
	}
	caller := ""
	if ti := auth.TokenInfoFromContext(r.Context()); ti != nil {
		caller = ti.UserID
	}
	res, err := pt.reg.getTask(context.WithValue(r.Context(), callerKey{}, caller), taskID)
	var rpcErr *jsonrpc.Error
	if err != nil && !errors.As(err, &rpcErr) {
		return false
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
	out, merr := json.Marshal(msg)
	if merr != nil {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	if rpcErr != nil && rpcErr.Code == jsonrpc.CodeInvalidParams {
		// SEP-2575: -32602 is answered with HTTP 400 (as go-sdk does).
		w.WriteHeader(http.StatusBadRequest)
	}
	_, _ = w.Write(out)
	return true
}

// plainTaskGet reads a tasks/get request of the 2026-07-28 wire whose
// client declares the tasks extension: its id and task ID. Keys are
// matched exactly, as go-sdk matches them.
func plainTaskGet(body []byte) (id json.RawMessage, taskID string, ok bool) {
	var msg map[string]json.RawMessage
	var params, meta map[string]json.RawMessage
	var version, jsonrpcVersion, method string
	var caps struct {
		Extensions map[string]json.RawMessage `json:"extensions"`
	}
	if json.Unmarshal(body, &msg) != nil ||
		json.Unmarshal(msg["jsonrpc"], &jsonrpcVersion) != nil || jsonrpcVersion != "2.0" ||
		json.Unmarshal(msg["method"], &method) != nil || method != methodTasksGet ||
		json.Unmarshal(msg["params"], &params) != nil ||
		json.Unmarshal(params["taskId"], &taskID) != nil || taskID == "" ||
		json.Unmarshal(params["_meta"], &meta) != nil ||
		json.Unmarshal(meta[mcp.MetaKeyProtocolVersion], &version) != nil || version != modernVersion ||
		json.Unmarshal(meta[mcp.MetaKeyClientCapabilities], &caps) != nil || caps.Extensions[TasksExtension] == nil {
		return nil, "", false
	}
	if info, present := meta[mcp.MetaKeyClientInfo]; present {
		var impl mcp.Implementation
		if json.Unmarshal(info, &impl) != nil {
			return nil, "", false
		}
	}
	id = msg["id"]
	if len(id) == 0 || !(id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
		return nil, "", false
	}
	return id, taskID, true
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

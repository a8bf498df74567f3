package sdkpatch

import (
	"bytes"
	"encoding/json"

	jsonwire "github.com/mcpgen/mcpgen/mcptool/internal/wire" // wire is a test helper here
)

// Params go-sdk drops. go-sdk v1.8.0 decodes the params of each method it
// knows into a fixed struct and drops the members that struct has no field
// for, but keeps _meta. A transport that reads a message before go-sdk can
// move such a param into _meta (LiftParam), where the receiving middleware
// finds it in the request's decoded Meta, or carry something else there for
// the middleware (SetMeta, DropMeta). TestGoSDKDropsWhatTransportsCarry pins
// the params mcptool carries so: the 2025-11-25 "task" of tools/call and
// the tasks extension's notifications.taskIds of subscriptions/listen.
//
// Retire when go-sdk serves those params (the 2025-11-25 tasks, listens
// naming taskIds) or keeps the params it does not know.

// LiftParam moves params.<param> of msg, a JSON-RPC message, into
// params._meta[metaKey] when msg's method is method; any other message is
// returned as it is, and costs a scan for its method (a message of method,
// without params.<param>, a second scan), which allocates nothing. So is a
// message whose _meta is neither an object nor null.
func LiftParam(msg []byte, method, param, metaKey string) []byte {
	raw, ok := jsonwire.Field(msg, "method")
	if !ok || raw[0] != '"' || bytes.IndexByte(raw, '\\') < 0 && string(raw[1:len(raw)-1]) != method {
		return msg // an escaped method name is compared once decoded, below
	}
	if _, ok := jsonwire.Field(msg, "params", param); !ok {
		return msg
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(msg, &top) != nil {
		return msg
	}
	var m string
	var params map[string]json.RawMessage
	if json.Unmarshal(top["method"], &m) != nil || m != method || json.Unmarshal(top["params"], &params) != nil {
		return msg
	}
	value, ok := params[param]
	if !ok || !SetMeta(params, metaKey, value) {
		return msg
	}
	delete(params, param)
	var err error
	if top["params"], err = json.Marshal(params); err != nil {
		return msg
	}
	out, err := json.Marshal(top)
	if err != nil {
		return msg
	}
	return out
}

// SetMeta sets params._meta[key] to value, and reports whether it could
// (params._meta, if present, must be an object or null).
func SetMeta(params map[string]json.RawMessage, key string, value json.RawMessage) bool {
	meta := map[string]json.RawMessage{}
	if raw, ok := params["_meta"]; ok && json.Unmarshal(raw, &meta) != nil {
		return false
	}
	if meta == nil { // "_meta": null
		meta = map[string]json.RawMessage{}
	}
	meta[key] = value
	b, err := json.Marshal(meta)
	if err != nil {
		return false
	}
	params["_meta"] = b
	return true
}

// DropMeta removes key from params._meta, if there: what a client sent
// under a key the transport uses itself.
func DropMeta(params map[string]json.RawMessage, key string) {
	var meta map[string]json.RawMessage
	if raw, ok := params["_meta"]; !ok || json.Unmarshal(raw, &meta) != nil || meta == nil {
		return
	}
	if _, ok := meta[key]; !ok {
		return
	}
	delete(meta, key)
	if b, err := json.Marshal(meta); err == nil {
		params["_meta"] = b
	}
}

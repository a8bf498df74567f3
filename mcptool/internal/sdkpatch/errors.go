package sdkpatch

import (
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Response errors go-sdk words or codes its own way. go-sdk v1.8.0's
// JSON-RPC connection replaces every handler error that errors.Is its
// method-not-found error (any *jsonrpc.Error of code -32601) with
// `method not found: "<method>"`, losing the handler's reason; and it
// answers a plain Go error with code 0, which is no JSON-RPC code — among
// them its own refusal of a request sent before initialize. Both pinned by
// TestGoSDKErrorWording.
//
// Retire MethodNotFound when go-sdk keeps the message of a -32601 a handler
// returns; ResponseCode when go-sdk sends a JSON-RPC code for every error
// (-32600 for a request before initialize).

// MethodNotFound is the -32601 error with msg as its message on the wire:
// it converts to a *jsonrpc.Error with errors.As, which is how go-sdk finds
// the code it sends, but is not errors.Is go-sdk's own.
func MethodNotFound(msg string) error {
	return &keepMessage{&jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: msg}}
}

type keepMessage struct{ e *jsonrpc.Error }

func (k *keepMessage) Error() string { return k.e.Message }

func (k *keepMessage) As(target any) bool {
	if p, ok := target.(**jsonrpc.Error); ok {
		*p = k.e
		return true
	}
	return false
}

// ResponseCode gives a response error go-sdk made from a plain Go error
// (sent with code 0) the code it should have: a request other than
// initialize before the session is initialized is an invalid request
// (-32600), as JSON-RPC defines it and MCP names no other code for it;
// anything else is an internal error (-32603). Any other response is
// returned as it is.
func ResponseCode(resp *jsonrpc.Response) *jsonrpc.Response {
	if resp.Error == nil {
		return resp
	}
	var we *jsonrpc.Error
	if errors.As(resp.Error, &we) && we.Code != 0 {
		return resp
	}
	msg := resp.Error.Error()
	code := int64(jsonrpc.CodeInternalError)
	if strings.Contains(msg, beforeInitialize) {
		code = jsonrpc.CodeInvalidRequest
		msg = "invalid request: " + msg + " (send initialize first)"
	}
	out := *resp
	out.Error = &jsonrpc.Error{Code: code, Message: msg}
	return &out
}

// beforeInitialize is in go-sdk's error for a request before initialize.
const beforeInitialize = "invalid during session initialization"

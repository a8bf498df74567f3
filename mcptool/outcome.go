package mcptool

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"runtime"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// outcome is how one call ended: exactly one of the kinds below. This
// file holds it and the results it becomes (ErrorResult, encode2025).
type outcome struct {
	kind    outcomeKind
	reason  string              // outRefused: the policy, for the audit log
	res     *mcp.CallToolResult // the result, with IsError set for every kind but outOK
	err     error               // outProtocol: the error; outInternal: the cause, logged
	stack   []byte              // outInternal: where a panic happened
	pending mcp.InputRequestMap // outInputRequired: what the client must answer
}

type outcomeKind uint8

const (
	outOK               outcomeKind = iota // the tool's result
	outToolError                           // the tool returned an error meant for the model
	outInvalidArguments                    // the arguments break the schema or the size limit
	outRefused                             // a policy refused the call (reason says which)
	outInputRequired                       // the tool waits for the client's answers
	outInternal                            // a failure the model must not see
	outProtocol                            // a JSON-RPC error
)

func refused(reason, msg string) outcome {
	return outcome{kind: outRefused, reason: reason, res: ErrorResult(msg)}
}

// argumentsOutcome turns a decode error into an isError result, or a
// protocol error for malformed JSON.
func argumentsOutcome(name string, err error) outcome {
	var ae *mcpreflect.ArgumentsError
	if !errors.As(err, &ae) {
		return outcome{kind: outProtocol, err: &Error{Code: CodeMalformedArguments, Tool: name, Err: err}}
	}
	return outcome{kind: outInvalidArguments, res: ErrorResult(err.Error())}
}

// word names the outcome in the audit log.
func (o outcome) word() string {
	switch o.kind {
	case outOK:
		return "ok"
	case outToolError:
		return "tool_error"
	case outInvalidArguments:
		return "invalid_arguments"
	case outRefused:
		return o.reason
	case outInputRequired:
		return "input_required"
	case outInternal:
		return "internal_error"
	}
	if o.reason != "" { // forbidden: the token lacks the tool's scopes
		return o.reason
	}
	return "protocol_error"
}

// result is the outcome as Go values: a result, or a protocol error.
func (o outcome) result() (*mcp.CallToolResult, error) {
	switch {
	case o.kind == outProtocol:
		return nil, o.err
	case o.kind == outInputRequired: // settled without the request to ask on
		return ErrorResult("waiting for input"), nil
	case o.res == nil:
		return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
	}
	return o.res, nil
}

// encode2025 is the outcome of a call of a 2025-era session: a result whose
// content is never null, or a JSON-RPC error. Input was asked with
// requests of the server's own.
func encode2025(o outcome) (*mcp.CallToolResult, error) {
	res, err := o.result()
	if err != nil {
		if e := (*Error)(nil); errors.As(err, &e) {
			return nil, e.JSONRPC()
		}
		return nil, err
	}
	if res.Content == nil {
		res.Content = []mcp.Content{}
	}
	return res, nil
}

func newRef() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ErrorResult returns a result with IsError set and msg as its text.
func ErrorResult(msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}
}

// protocolError reports whether a tool's error is meant as a JSON-RPC error.
func protocolError(err error) (*jsonrpc.Error, bool) {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je, true
	}
	return nil, false
}

// stack is the calling goroutine's stack, as runtime/debug.Stack formats it
// (which a server would compile for this alone).
func stack() []byte {
	buf := make([]byte, 4096)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

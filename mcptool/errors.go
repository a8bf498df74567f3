package mcptool

import (
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Code classifies an [*Error].
type Code int

const (
	// CodeUnknownTool: no tool has the name called.
	CodeUnknownTool Code = iota + 1
	// CodeMalformedArguments: the arguments are not a JSON value.
	CodeMalformedArguments
	// CodeInvalidName: a tool name breaks the MCP naming rules.
	CodeInvalidName
	// CodeDuplicate: a tool with that name is already registered.
	CodeDuplicate
	// CodeInvalidDefinition: a function, type or tag cannot become a tool.
	CodeInvalidDefinition
	// CodeInsufficientScope: the call's verified token lacks scopes its
	// tool needs (see [Scopes]); JSON-RPC error -32403 on the wire (over
	// HTTP the request gets 403 first).
	CodeInsufficientScope
)

func (c Code) String() string {
	switch c {
	case CodeUnknownTool:
		return "unknown_tool"
	case CodeMalformedArguments:
		return "malformed_arguments"
	case CodeInvalidName:
		return "invalid_name"
	case CodeDuplicate:
		return "duplicate"
	case CodeInvalidDefinition:
		return "invalid_definition"
	case CodeInsufficientScope:
		return "insufficient_scope"
	}
	return fmt.Sprintf("code(%d)", int(c))
}

// Error is the error type of this package: registration errors and protocol
// errors of [Registry.Call]. Use [CodeOf] to branch on it.
type Error struct {
	Code Code
	Tool string // the tool's name, when known
	Err  error
}

func (e *Error) Error() string {
	if e.Tool != "" {
		return fmt.Sprintf("mcptool: tool %q: %s: %v", e.Tool, e.Code, e.Err)
	}
	return fmt.Sprintf("mcptool: %s: %v", e.Code, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// jsonrpcInsufficientScope is the JSON-RPC error code of
// [CodeInsufficientScope].
const jsonrpcInsufficientScope = -32403

// JSONRPC returns the error as a JSON-RPC error: invalid params (-32602) for
// an unknown tool or malformed arguments, as the MCP specification asks;
// -32403 for [CodeInsufficientScope].
func (e *Error) JSONRPC() *jsonrpc.Error {
	if e.Code == CodeInsufficientScope {
		return &jsonrpc.Error{Code: jsonrpcInsufficientScope, Message: e.publicMessage()}
	}
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: e.publicMessage()}
}

func (e *Error) publicMessage() string {
	switch e.Code {
	case CodeUnknownTool:
		return fmt.Sprintf("unknown tool %q", e.Tool)
	case CodeMalformedArguments:
		return fmt.Sprintf("tool %q: %v", e.Tool, e.Err)
	case CodeInsufficientScope:
		return fmt.Sprintf("insufficient scope: tool %s %v", e.Tool, e.Err)
	}
	return e.Error()
}

// CodeOf returns the code of err if it is or wraps an [*Error], and 0 otherwise.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) && e != nil {
		return e.Code
	}
	return 0
}

// userError is an error whose text is meant for the model.
type userError struct{ err error }

func (e userError) Error() string { return e.err.Error() }
func (e userError) Unwrap() error { return e.err }

// UserError marks err as meant for the model: a tool that returns it (or an
// error wrapping it) gets an isError result with its text. Other errors are
// reported as "internal error (ref ...)" and logged, unless the registry
// was built with [ExposeErrors]. UserError(nil) is nil.
func UserError(err error) error {
	if err == nil {
		return nil
	}
	return userError{err}
}

// Errorf formats an error meant for the model, like fmt.Errorf (%w works).
func Errorf(format string, args ...any) error {
	return userError{fmt.Errorf(format, args...)}
}

// IsUserError reports whether err is or wraps an error meant for the model:
// one from [UserError] or [Errorf], or [ErrInputUnsupported].
func IsUserError(err error) bool {
	var ue userError
	return errors.As(err, &ue) || errors.Is(err, ErrInputUnsupported)
}

// The errors of asking the client for input.
var (
	// ErrInputRequired is returned by [Ask], [Elicit], [Sample] and
	// [ListRoots] on a 2026-07-28 request whose answer has not arrived yet.
	// Return it (or an error wrapping it) from the tool: mcpgen then answers
	// the call with an input-required result, and the client calls again
	// with the answers, which the same call site then returns. Everything
	// the tool did before asking runs again on that retry, so keep it free
	// of side effects.
	ErrInputRequired = errors.New("mcptool: waiting for the client's answer to an input request")

	// ErrInputUnsupported is returned when the client cannot answer an
	// input request: it did not declare the capability, the tool was called
	// directly, or the session is a stateless 2025-era one (which cannot
	// carry requests from server to client).
	ErrInputUnsupported = errors.New("mcptool: the client cannot answer this input request")
)

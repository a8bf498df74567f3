// Package adapter is for those who serve an mcptool registry on another MCP
// library (adapters/mcpgo serves one on mark3labs/mcp-go): the client end
// of a call ([Peer]) and the call through it ([Invoke]). Tool authors and
// servers on go-sdk do not need it.
//
// An adapter lists the registry's tools ([mcptool.Registry.Tools]), follows
// its changes ([mcptool.Registry.Watch], then [mcptool.Registry.Tool] for
// each changed name), and answers each tools/call with Invoke.
package adapter

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/internal/peerctx"
)

// Peer is the client end of one tool call, as a transport sees it. The
// context helpers ([mcptool.Progress], [mcptool.Log], [mcptool.Ask], ...)
// reach the client through it:
//
//   - SessionID identifies the client session for per-session policies and
//     the audit log, "" when the transport has no sessions;
//   - ProgressToken is the call's progress token, nil when it has none;
//   - NotifyProgress sends notifications/progress for a token;
//   - LogHandler returns a handler whose records reach the client as
//     notifications/message from the named logger, at the level the client
//     asked for; nil when the transport cannot log to the client;
//   - Ask sends one input request (elicitation, sampling, roots) to the
//     client and waits for its answer: *mcp.ElicitResult,
//     *mcp.CreateMessageWithToolsResult or *mcp.ListRootsResult. It returns
//     an error wrapping [mcptool.ErrInputUnsupported] when the client
//     cannot answer.
type Peer = peerctx.Peer

// Invoke calls the named tool of reg on behalf of a transport adapter:
// like [mcptool.Registry.Call], with peer as the client end for the context
// helpers.
//
// On a 2026-07-28 request input is not asked of the client with requests of
// its own but with input-required results. A peer that has the method
//
//	CallRequest() *mcp.CallToolRequest
//
// and returns the call in go-sdk's form for such a request (its _meta with
// protocol version and client capabilities, its inputResponses and
// requestState; nil for a 2025-era call) gets the go-sdk server's behaviour:
// [mcptool.Ask] returns the answers of earlier rounds, and a call still
// waiting for answers returns a result with InputRequests and a sealed
// RequestState for the adapter to send. [mcptool.Request] returns that
// request during the call.
func Invoke(ctx context.Context, reg *mcptool.Registry, name string, args json.RawMessage, peer Peer) (*mcp.CallToolResult, error) {
	if peer == nil {
		return reg.Call(ctx, name, args)
	}
	return reg.Call(peerctx.With(ctx, peer), name, args)
}

// VisibleHeader is h without the headers that carry the client's
// credentials (Authorization, Cookie, Proxy-Authorization, any case): what
// an adapter may hand tools of its library's request, as mcptool does with
// go-sdk's ([mcptool.Request]). Tools learn the caller from
// [mcptool.Caller], never from the credential. h is returned as is when it
// holds none of them, else a copy.
func VisibleHeader(h http.Header) http.Header { return peerctx.VisibleHeader(h) }

//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them in both eras.

package mcptool

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// modernVersion is the first protocol revision with input-required results.
const modernVersion = "2026-07-28"

// sdkPeer is the go-sdk request of a call.
type sdkPeer struct{ req *mcp.CallToolRequest }

func (p sdkPeer) SessionID() string { return sessionName(p.req.Session, p.req.Extra) }

func (p sdkPeer) ProgressToken() any { return p.req.Params.GetProgressToken() }

func (p sdkPeer) NotifyProgress(ctx context.Context, token any, progress, total float64, message string) error {
	if p.req.Session == nil {
		return nil
	}
	return p.req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		ProgressToken: token, Progress: progress, Total: total, Message: message,
	})
}

func (p sdkPeer) LogHandler(_ context.Context, name string) slog.Handler {
	if p.req.Session == nil {
		return nil
	}
	return mcp.NewLoggingHandler(p.req.Session, &mcp.LoggingHandlerOptions{LoggerName: name})
}

// Ask sends a request on a 2025-era session. (2026-07-28 requests never get
// here: they answer with input-required results instead.)
func (p sdkPeer) Ask(ctx context.Context, r mcp.InputRequest) (mcp.InputResponse, error) {
	ss := p.req.Session
	if ss == nil {
		return nil, fmt.Errorf("%w: no session", ErrInputUnsupported)
	}
	ip := ss.InitializeParams()
	if ip == nil || ip.ProtocolVersion >= modernVersion {
		return nil, fmt.Errorf("%w: this session cannot carry requests from the server", ErrInputUnsupported)
	}
	if err := capable(ip.Capabilities, r); err != nil {
		return nil, err
	}
	return askLegacy(ctx, ss, r)
}

func capable(caps *mcp.ClientCapabilities, r mcp.InputRequest) error {
	var ok bool
	var what string
	switch r.(type) {
	case *mcp.ElicitParams:
		ok, what = caps != nil && caps.Elicitation != nil, "elicitation"
	case *mcp.CreateMessageParams, *mcp.CreateMessageWithToolsParams:
		ok, what = caps != nil && caps.Sampling != nil, "sampling"
	case *mcp.ListRootsParams:
		ok, what = caps != nil && (caps.RootsV2 != nil || caps.Roots.ListChanged), "roots"
	default:
		return fmt.Errorf("%w: unknown input request %T", ErrInputUnsupported, r)
	}
	if !ok {
		return fmt.Errorf("%w: the client did not declare the %s capability", ErrInputUnsupported, what)
	}
	return nil
}

func askLegacy(ctx context.Context, ss *mcp.ServerSession, r mcp.InputRequest) (mcp.InputResponse, error) {
	switch p := r.(type) {
	case *mcp.ElicitParams:
		return ss.Elicit(ctx, p)
	case *mcp.CreateMessageParams:
		res, err := ss.CreateMessage(ctx, p)
		if err != nil {
			return nil, err
		}
		return &mcp.CreateMessageWithToolsResult{Meta: res.Meta, Content: []mcp.Content{res.Content}, Model: res.Model, Role: res.Role, StopReason: res.StopReason}, nil
	case *mcp.CreateMessageWithToolsParams:
		return ss.CreateMessageWithTools(ctx, p)
	case *mcp.ListRootsParams:
		return ss.ListRoots(ctx, p)
	}
	return nil, fmt.Errorf("unknown input request %T", r)
}

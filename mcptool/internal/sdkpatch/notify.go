package sdkpatch

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Notifications go-sdk cannot send. go-sdk v1.8.0 sends only the
// notifications it defines (progress, logging, list changes, …) and has no
// public way to send another, such as the tasks extension's
// notifications/tasks. A transport that writes the session's messages
// itself (mcptool's StdioTransport) can: the server sends the notification
// wrapped in a notifications/progress (ServerSession.NotifyProgress, which
// go-sdk passes to the connection as it is), under a progress token the
// transport handed out, and the transport writes the notification inside
// in its place.
//
// Retire when go-sdk can send a custom notification on a session (or serves
// subscriptions/listen with the tasks extension's taskIds itself).

// notificationKey is the _meta key of the wrapped notification.
const notificationKey = "io.mcpgen/notification"

// Notify sends msg, a whole JSON-RPC notification, to the client of ss,
// wrapped for the transport that handed out token.
func Notify(ctx context.Context, ss *mcp.ServerSession, token string, msg json.RawMessage) error {
	return ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
		Meta:          mcp.Meta{notificationKey: msg},
		ProgressToken: token,
	})
}

// Unwrap returns the notification msg wraps when msg is a notification Notify
// sent under a token mine accepts.
func Unwrap(msg jsonrpc.Message, mine func(token string) bool) (json.RawMessage, bool) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.IsCall() || req.Method != "notifications/progress" {
		return nil, false
	}
	var p struct {
		Meta struct {
			Notification json.RawMessage `json:"io.mcpgen/notification"`
		} `json:"_meta"`
		Token any `json:"progressToken"`
	}
	if json.Unmarshal(req.Params, &p) != nil || len(p.Meta.Notification) == 0 {
		return nil, false
	}
	token, _ := p.Token.(string)
	if token == "" || !mine(token) {
		return nil, false
	}
	return p.Meta.Notification, true
}

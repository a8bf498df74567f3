package sdkpatch

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Notifications a session must not get. go-sdk v1.8.0 sends
// notifications/resources/list_changed whenever a resource is added or
// removed, to every 2025-11-25 session and every 2026-07-28 listen that
// opted in, whichever clients the resource is for: it has no resource that
// only some clients see. It sends each through the server's sending
// middleware, with the session it goes to, and a middleware that does not
// pass it on keeps it from that session alone (TestDropKeepsANotification).
//
// Retire when go-sdk can hold a resource for some sessions only.

// Drop is sending middleware that does not send notifications named method
// to the sessions drop reports true for.
func Drop(method string, drop func(ctx context.Context, ss *mcp.ServerSession) bool) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, m string, req mcp.Request) (mcp.Result, error) {
			if m == method {
				if ss, ok := req.GetSession().(*mcp.ServerSession); ok && drop(ctx, ss) {
					return nil, nil
				}
			}
			return next(ctx, m, req)
		}
	}
}

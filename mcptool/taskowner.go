package mcptool

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ownerOf is who a request comes from, as the owner of the tasks it
// creates and the caller of the tasks it reads: the verified principal
// (tokenInfoOf: the request's token, else the context's [Authenticated]),
// or "" when it has none. It is the one place that says so; every task
// path (tools/call, tasks/*, the poll shortcut, listen) asks it, or
// sessionCaller, which builds on it.
//
// A session is no authorization context (MCP's security practices: servers
// must not use sessions for authentication), and nothing of an
// unauthenticated client survives its session: a 2025-era client evicted by
// MaxSessions, or whose session timed out, initializes a new one. Its tasks
// are therefore reachable by their IDs, which are unguessable (130 random
// bits), as the tasks specification prescribes when context binding is
// unavailable; see docs/tasks.md.
func ownerOf(ctx context.Context, extra *mcp.RequestExtra) string {
	return subjectOf(tokenInfoOf(ctx, extra))
}

// sessionCaller is who uses a core task: the verified principal (ownerOf),
// else the session, which scopes tasks/list (mayUse says who may use the
// task).
func sessionCaller(ctx context.Context, ss *mcp.ServerSession, extra *mcp.RequestExtra) string {
	if owner := ownerOf(ctx, extra); owner != "" {
		return owner
	}
	if name := sessionName(ss, extra); name != "" {
		return sessionScope + name
	}
	return "" // no session: anyone holding the ID, as with the extension
}

// sessionScope is the prefix of a task owner that names a session, not a
// principal: the task of an unauthenticated 2025-era session. The session
// scopes tasks/list, not access.
const sessionScope = "session:"

// mayUse reports whether caller may read, answer or cancel a task owned by
// owner: a principal's task only that principal; a task without one
// (unowned, or created by an unauthenticated session) whoever holds its ID.
func mayUse(owner, caller string) bool {
	return owner == "" || owner == caller || strings.HasPrefix(owner, sessionScope)
}

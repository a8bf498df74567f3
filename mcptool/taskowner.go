package mcptool

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ownerOf is who a request comes from, as the owner of the tasks it
// creates and the caller of the tasks it reads: the authenticated principal
// of its token, or "" when it has none. It is the one place that says so;
// every task path (tools/call, tasks/*, the poll shortcut, listen) asks it.
//
// A session is no authorization context (MCP's security practices: servers
// must not use sessions for authentication), and nothing of an
// unauthenticated client survives its session: a 2025-era client evicted by
// MaxSessions, or whose session timed out, initializes a new one. Its tasks
// are therefore reachable by their IDs, which are unguessable (130 random
// bits), as the tasks specification prescribes when context binding is
// unavailable; see docs/tasks.md.
func ownerOf(extra *mcp.RequestExtra) string {
	if extra != nil && extra.TokenInfo != nil && extra.TokenInfo.UserID != "" {
		return extra.TokenInfo.UserID
	}
	return ""
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

package mcptool

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/annotations"
)

// Authorization: an MCP server over HTTP as an OAuth 2.1 resource server.
// The pieces, in the order a request meets them:
//
//	HTTP      HTTPOptions.TokenVerifier: RFC 9728 metadata; 401 without a
//	          valid token; 403 insufficient_scope for a tools/call whose tool
//	          needs scopes the token lacks (authHTTP, authhttp.go)
//	list      tools/list shows a caller only the tools its token may call
//	          (dispatch.go; ListAllTools turns that off)
//	call      bound.call's authorize step, for every transport: a call with
//	          a verified token lacking a scope is a JSON-RPC error naming
//	          the missing scopes (authorize below)
//	tasks     a task is its creator's (task.go owner, by subject)
//	tools     Caller(ctx): the verified principal
//
// The token arrives verified as go-sdk's auth.TokenInfo (in the request's
// context, then in CallToolRequest.Extra): one seam, auth.TokenVerifier,
// which adapters/oauth implements for JWTs.

// Scopes says which OAuth scopes a caller's token must all carry to call
// the tool, and to see it in tools/list. On a registry it is the default
// for every tool; a tool's tag (`mcp:"scopes=notes:read notes:write"`) or
// option replaces it, and Scopes() with none says the tool needs none. Each
// scope must be a scope-token of RFC 6749 §3.3 (printable ASCII without
// spaces, '"' or '\'). Scopes are checked only for calls that carry a
// verified token: over HTTP, see [HTTPOptions.TokenVerifier]. Default: none.
func Scopes(scopes ...string) SharedOption {
	s := append([]string{}, scopes...) // non-nil: Scopes() says none
	return policyOption(func(p *annotations.Policy) { p.Scopes = slices.Clone(s) })
}

// Principal is who calls a tool, as a verified OAuth access token says.
type Principal struct {
	Subject  string   // the token's sub: the user, or the client acting for itself
	ClientID string   // the OAuth client the token was issued to, if the token says
	Scopes   []string // the scopes the token carries
}

// Caller returns the verified principal of the tool call ctx belongs to;
// ok is false when the call carries no verified token (authorization off,
// stdio, direct calls). The token itself never reaches tools: pass it
// through to no other API (the MCP authorization specification forbids
// token passthrough).
func Caller(ctx context.Context) (p Principal, ok bool) {
	cs := stateFrom(ctx)
	if cs == nil {
		return p, false
	}
	ti := cs.tokenInfo()
	if ti == nil {
		return p, false
	}
	p = Principal{Subject: ti.UserID, Scopes: slices.Clone(ti.Scopes)}
	p.ClientID, _ = ti.Extra["client_id"].(string)
	return p, true
}

// Authenticated returns a context whose tool calls carry ti as if it were
// a verified token: for a server on stdio, whose user the process knows
// from its environment (the MCP authorization specification leaves stdio
// to it). Serve with it — srv.Run(mcptool.Authenticated(ctx, ti), transport)
// — and tools/list shows only the tools ti's scopes allow, a call of
// another is the error [CodeInsufficientScope] (JSON-RPC -32403) naming the missing
// scopes, and [Caller] returns ti's principal. A request's own verified
// token (HTTP with [HTTPOptions.TokenVerifier]) wins over it.
func Authenticated(ctx context.Context, ti *auth.TokenInfo) context.Context {
	return context.WithValue(ctx, authenticatedKey{}, ti)
}

type authenticatedKey struct{}

// tokenInfoOf is the verified token of a request served under ctx, or nil.
func tokenInfoOf(ctx context.Context, extra *mcp.RequestExtra) *auth.TokenInfo {
	if extra != nil && extra.TokenInfo != nil {
		return extra.TokenInfo
	}
	ti, _ := ctx.Value(authenticatedKey{}).(*auth.TokenInfo)
	return ti
}

// subjectOf is the subject of a verified token, "" for none.
func subjectOf(ti *auth.TokenInfo) string {
	if ti == nil {
		return ""
	}
	return ti.UserID
}

// authorize is the call path's authorization step: a call with a verified
// token must carry every scope of its tool.
func authorize(cs *callState) (outcome, bool) {
	need := cs.tool.pol.scopes
	if len(need) == 0 {
		return outcome{}, true
	}
	ti := cs.tokenInfo()
	if ti == nil {
		return outcome{}, true
	}
	missing := missingScopes(need, ti.Scopes)
	if len(missing) == 0 {
		return outcome{}, true
	}
	return outcome{kind: outProtocol, reason: "forbidden", err: &Error{
		Code: CodeInsufficientScope,
		Tool: cs.tool.name,
		Err:  fmt.Errorf("needs the scopes %s; the token lacks %s", strings.Join(need, " "), strings.Join(missing, " ")),
	}}, false
}

// missingScopes returns the scopes of need that have does not hold.
func missingScopes(need, have []string) []string {
	var missing []string
	for _, s := range need {
		if !slices.Contains(have, s) {
			missing = append(missing, s)
		}
	}
	return missing
}

// mayCall reports whether a caller with ti may call t: anyone without a
// verified token (authorization is off), or a token with t's scopes.
func mayCall(t *tool, ti *auth.TokenInfo) bool {
	return ti == nil || len(missingScopes(t.pol.scopes, ti.Scopes)) == 0
}

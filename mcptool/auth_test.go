package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/adapter"
)

// tokens is a verifier of made-up tokens: token → what it verifies to.
type tokens map[string]*auth.TokenInfo

func (ts tokens) verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	if token == "down" {
		return nil, errors.New("the issuer is unreachable")
	}
	if ti, ok := ts[token]; ok {
		switch token { // expired relative to the request, however long the tests before it took
		case "stale":
			ti = &auth.TokenInfo{UserID: ti.UserID, Scopes: ti.Scopes, Expiration: time.Now().Add(-2 * time.Minute)}
		case "recent":
			ti = &auth.TokenInfo{UserID: ti.UserID, Scopes: ti.Scopes, Expiration: time.Now().Add(-20 * time.Second)}
		}
		return ti, nil
	}
	return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
}

var testTokens = tokens{
	"reader": {UserID: "ada", Scopes: []string{"notes:read"}, Expiration: time.Now().Add(time.Hour), Extra: map[string]any{"client_id": "cli"}},
	"writer": {UserID: "bob", Scopes: []string{"notes:read", "notes:write"}, Expiration: time.Now().Add(time.Hour)},
	"nobody": {UserID: "eve", Expiration: time.Now().Add(time.Hour)},
	"stale":  {UserID: "ada", Scopes: []string{"notes:read"}, Expiration: time.Now().Add(-2 * time.Minute)}, // a verifier that ignores exp
	"recent": {UserID: "ada", Scopes: []string{"notes:read"}, Expiration: time.Now().Add(-20 * time.Second)},
}

type noteArgs struct {
	_    struct{} `mcp:"readOnly,scopes=notes:read"`
	Text string   `json:"text,omitempty"`
}

// authServer serves a registry of three tools — read (notes:read), write
// (notes:read notes:write) and open (no scopes) — with Authorization.
func authServer(t *testing.T, regOpts ...mcptool.RegistryOption) (*httptest.Server, *bytes.Buffer) {
	t.Helper()
	var audit bytes.Buffer
	reg := mcptool.NewRegistry(append([]mcptool.RegistryOption{mcptool.NoDescription(), mcptool.Audit(slog.New(slog.NewJSONHandler(&audit, nil)), true)}, regOpts...)...)
	who := func(ctx context.Context, in noteArgs) (string, error) {
		p, ok := mcptool.Caller(ctx)
		return fmt.Sprintf("%s %s %v %v", p.Subject, p.ClientID, p.Scopes, ok), nil
	}
	require.NoError(t, mcptool.Add(reg, "read", who))
	require.NoError(t, mcptool.Add(reg, "write", who, mcptool.ReadOnly(false), mcptool.Destructive(false), mcptool.Scopes("notes:read", "notes:write")))
	require.NoError(t, mcptool.Add(reg, "open", who, mcptool.Scopes()))
	srv := reg.Server(&mcp.Implementation{Name: "notes", Version: "1"}, nil)
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	t.Cleanup(hs.Close)
	hs.Config.Handler = srv.Handler(&mcptool.HTTPOptions{TokenVerifier: testTokens.verify, ResourceMetadata: &oauthex.ProtectedResourceMetadata{
		Resource:             hs.URL + "/mcp",
		AuthorizationServers: []string{"https://auth.example.com"},
	}})
	return hs, &audit
}

// bearerClient is an HTTP client that sends token.
func bearerClient(token string) *http.Client {
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestAuthChallenges(t *testing.T) {
	hs, _ := authServer(t)
	metaURL := hs.URL + "/.well-known/oauth-protected-resource/mcp"
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	for name, tc := range map[string]struct {
		header string
		code   int
		want   string
	}{
		"no token":       {"", 401, `Bearer resource_metadata="` + metaURL + `"`},
		"basic auth":     {"Basic YTpi", 401, `Bearer resource_metadata="` + metaURL + `"`},
		"unknown token":  {"Bearer forged", 401, `Bearer error="invalid_token", resource_metadata="` + metaURL + `"`},
		"empty bearer":   {"Bearer ", 401, `Bearer resource_metadata="` + metaURL + `"`},
		"issuer down":    {"Bearer down", 503, ""},
		"expired":        {"Bearer stale", 401, `Bearer error="invalid_token", resource_metadata="` + metaURL + `"`},
		"in the leeway":  {"Bearer recent", 200, ""}, // go-sdk's RequireBearerToken refused it, without a challenge
		"good token":     {"Bearer reader", 200, ""},
		"case of scheme": {"bearer reader", 200, ""},
	} {
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.header != "" {
			req.Header.Set("Authorization", tc.header)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, tc.code, resp.StatusCode, "%s: %s", name, body)
		assert.Equal(t, tc.want, resp.Header.Get("WWW-Authenticate"), name)
		assert.NotContains(t, string(body), "unreachable", "%s: the verifier's error is logged, not sent", name)
	}

	// The metadata, at the path of the resource and at the root.
	for _, u := range []string{metaURL, hs.URL + "/.well-known/oauth-protected-resource"} {
		resp, err := http.Get(u)
		require.NoError(t, err)
		var meta map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&meta))
		resp.Body.Close()
		assert.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"))
		assert.Equal(t, hs.URL+"/mcp", meta["resource"])
		assert.Equal(t, []any{"https://auth.example.com"}, meta["authorization_servers"])
		assert.Equal(t, []any{"notes:read", "notes:write"}, meta["scopes_supported"], "the scopes of the registry's tools")
		assert.Equal(t, []any{"header"}, meta["bearer_methods_supported"])
	}
}

func connectWith(t *testing.T, url, token, version string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: bearerClient(token)}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	var names []string
	for tl, err := range cs.Tools(t.Context(), nil) {
		require.NoError(t, err)
		names = append(names, tl.Name)
	}
	return names
}

func TestAuthListAndCall(t *testing.T) {
	hs, audit := authServer(t)
	for _, version := range []string{"", "2025-11-25"} {
		reader := connectWith(t, hs.URL+"/mcp", "reader", version)
		writer := connectWith(t, hs.URL+"/mcp", "writer", version)
		nobody := connectWith(t, hs.URL+"/mcp", "nobody", version)
		assert.Equal(t, []string{"open", "read"}, toolNames(t, reader), version)
		assert.Equal(t, []string{"open", "read", "write"}, toolNames(t, writer), version)
		assert.Equal(t, []string{"open"}, toolNames(t, nobody), version)

		res, err := reader.CallTool(t.Context(), &mcp.CallToolParams{Name: "read"})
		require.NoError(t, err, version)
		assert.Equal(t, "ada cli [notes:read] true", res.Content[0].(*mcp.TextContent).Text, "the tool learns its caller")

		_, err = reader.CallTool(t.Context(), &mcp.CallToolParams{Name: "write"})
		require.Error(t, err, version)
		assert.Contains(t, err.Error(), "Forbidden", version)
		_, err = nobody.CallTool(t.Context(), &mcp.CallToolParams{Name: "read"})
		require.Error(t, err, version)

		res, err = writer.CallTool(t.Context(), &mcp.CallToolParams{Name: "write"})
		require.NoError(t, err, version)
		assert.False(t, res.IsError)
	}
	assert.Contains(t, audit.String(), `"subject":"ada"`)
	assert.Contains(t, audit.String(), `"subject":"bob"`)
	for tok := range testTokens {
		assert.NotContains(t, audit.String(), `"`+tok+`"`, "the audit log never holds a token")
	}
}

func TestAuthForbiddenHeaders(t *testing.T) {
	hs, _ := authServer(t)
	metaURL := hs.URL + "/.well-known/oauth-protected-resource/mcp"
	// A 2025-11-25 session: the tool is read from the body.
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	post := func(session, body string, hdr map[string]string) *http.Response {
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer reader")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	resp := post("", init, nil)
	session := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, session)
	post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
	resp = post(session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write","arguments":{}}}`, nil)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Equal(t, `Bearer error="insufficient_scope", scope="notes:read notes:write", resource_metadata="`+metaURL+`"`, resp.Header.Get("WWW-Authenticate"))
	resp = post(session, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read","arguments":{}}}`, nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	// 2026-07-28: the tool is named by Mcp-Name.
	resp = post("", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"write","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "write"})
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `scope="notes:read notes:write"`)
}

// tokenPeer is an adapter's client end whose calls carry a verified token.
type tokenPeer struct{ req *mcp.CallToolRequest }

func (tokenPeer) SessionID() string  { return "" }
func (tokenPeer) ProgressToken() any { return nil }
func (tokenPeer) NotifyProgress(context.Context, any, float64, float64, string) error {
	return nil
}
func (tokenPeer) LogHandler(context.Context, string) slog.Handler { return nil }
func (tokenPeer) Ask(context.Context, mcp.InputRequest) (mcp.InputResponse, error) {
	return nil, mcptool.ErrInputUnsupported
}
func (p tokenPeer) CallRequest() *mcp.CallToolRequest { return p.req }

// The call path checks the scopes itself, for every transport (HTTP answers
// 403 before): a call whose token lacks some is a JSON-RPC error naming
// them, and the tool does not run.
func TestAuthCallPathChecksScopes(t *testing.T) {
	var audit bytes.Buffer
	reg := mcptool.NewRegistry(mcptool.NoDescription(), mcptool.Audit(slog.New(slog.NewJSONHandler(&audit, nil)), false))
	ran := false
	require.NoError(t, mcptool.Add(reg, "write", func(ctx context.Context, in noteArgs) (string, error) { ran = true; return "", nil },
		mcptool.Scopes("notes:read", "notes:write", "notes:admin")))
	call := func(token string) error {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "write"}, Extra: &mcp.RequestExtra{TokenInfo: testTokens[token]}}
		_, err := adapter.Invoke(t.Context(), reg, "write", nil, tokenPeer{req})
		return err
	}
	err := call("reader")
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(-32403), je.Code)
	assert.Equal(t, "insufficient scope: tool write needs the scopes notes:read notes:write notes:admin; the token lacks notes:write notes:admin", je.Message)
	assert.False(t, ran)
	assert.Contains(t, audit.String(), `"outcome":"forbidden"`)
	assert.Contains(t, audit.String(), `"subject":"ada"`)

	// A direct call under Authenticated: an *Error of CodeInsufficientScope,
	// whose JSON-RPC form is what the wire carries.
	_, err = reg.Call(mcptool.Authenticated(t.Context(), testTokens["reader"]), "write", nil)
	require.Error(t, err)
	assert.Equal(t, mcptool.CodeInsufficientScope, mcptool.CodeOf(err))
	assert.Equal(t, "insufficient_scope", mcptool.CodeOf(err).String())
	var e *mcptool.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, &jsonrpc.Error{Code: -32403, Message: "insufficient scope: tool write needs the scopes notes:read notes:write notes:admin; the token lacks notes:write notes:admin"}, e.JSONRPC())
	assert.False(t, ran)

	// Without a verified token (authorization off), scopes are not checked.
	_, err = reg.Call(t.Context(), "write", nil)
	require.NoError(t, err)
	assert.True(t, ran)
}

// Through Authorization, a task is its creator's: another principal's
// tasks/get (answered by the poll shortcut), tasks/update and tasks/cancel
// find nothing.
func TestAuthTaskOwner(t *testing.T) {
	reg, release := taskRegistry(t)
	defer close(release)
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	t.Cleanup(hs.Close)
	hs.Config.Handler = srv.Handler(&mcptool.HTTPOptions{TokenVerifier: testTokens.verify, ResourceMetadata: &oauthex.ProtectedResourceMetadata{
		Resource: hs.URL, AuthorizationServers: []string{"https://auth.example.com"},
	}})
	caps := map[string]any{"extensions": map[string]any{mcptool.TasksExtension: map[string]any{}}}
	ada := &wire{t: t, url: hs.URL, caps: caps, header: []string{"Authorization", "Bearer reader"}}
	bob := &wire{t: t, url: hs.URL, caps: caps, header: []string{"Authorization", "Bearer writer"}}

	id := ada.callTool("steps", map[string]any{"steps": 1})["taskId"].(string)
	assert.Equal(t, "working", ada.get(id)["status"])
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		_, err := bob.call(m, map[string]any{"taskId": id, "inputResponses": map[string]any{}})
		require.NotNil(t, err, m)
		assert.EqualValues(t, jsonrpc.CodeInvalidParams, err.Code, m)
	}
	assert.Equal(t, "working", ada.get(id)["status"], "bob's cancel did nothing")
}

// On stdio the process knows its user: served under Authenticated, the
// list shows what its scopes allow and a call of another tool is a JSON-RPC
// error naming the missing scopes.
func TestAuthStdio(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.NoDescription())
	who := func(ctx context.Context, in noteArgs) (string, error) {
		p, ok := mcptool.Caller(ctx)
		return fmt.Sprintf("%s %v", p.Subject, ok), nil
	}
	require.NoError(t, mcptool.Add(reg, "read", who))
	require.NoError(t, mcptool.Add(reg, "write", who, mcptool.ReadOnly(false), mcptool.Destructive(false), mcptool.Scopes("notes:read", "notes:write")))
	srv := reg.Server(&mcp.Implementation{Name: "notes", Version: "1"}, nil)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(mcptool.Authenticated(t.Context(), testTokens["reader"]))
	done := make(chan error, 1)
	var wire syncBuffer // what the server writes, kept before the client can read it
	go func() {
		done <- srv.Run(ctx, &mcptool.StdioTransport{Reader: inR, Writer: io.MultiWriter(&wire, outW)})
	}()
	t.Cleanup(func() { cancel(); inW.Close(); <-done })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	require.NoError(t, err)
	defer cs.Close()

	assert.Equal(t, []string{"read"}, toolNames(t, cs))
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "read"})
	require.NoError(t, err)
	assert.Equal(t, "ada true", res.Content[0].(*mcp.TextContent).Text)
	_, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "write"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "insufficient scope: tool write needs the scopes notes:read notes:write; the token lacks notes:write")
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.EqualValues(t, -32403, je.Code)
	assert.Contains(t, wire.String(), `"error":{"code":-32403,"message":"insufficient scope: tool write needs the scopes notes:read notes:write; the token lacks notes:write"}}`,
		"the error on the wire, byte for byte")
}

// callerConcurrency caps each principal's calls running at once, not
// another principal's.
func TestAuthCallerConcurrency(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.NoDescription())
	started, release := make(chan struct{}, 4), make(chan struct{})
	require.NoError(t, mcptool.Add(reg, "slow", func(ctx context.Context, in noteArgs) (string, error) {
		started <- struct{}{}
		<-release
		return "done", nil
	}, mcptool.CallerConcurrency(1), mcptool.Scopes()))
	call := func(token string) (*mcp.CallToolResult, error) {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "slow"}, Extra: &mcp.RequestExtra{TokenInfo: testTokens[token]}}
		return adapter.Invoke(t.Context(), reg, "slow", nil, tokenPeer{req})
	}
	first := make(chan *mcp.CallToolResult, 1)
	go func() { res, _ := call("reader"); first <- res }()
	<-started
	res, err := call("reader")
	require.NoError(t, err)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "you are already running 1 calls of tool slow")

	second := make(chan *mcp.CallToolResult, 1)
	go func() { res, _ := call("writer"); second <- res }()
	<-started // another principal runs at once
	close(release)
	assert.False(t, (<-first).IsError)
	assert.False(t, (<-second).IsError)
	res, err = call("reader") // the slot was given back
	require.NoError(t, err)
	<-started
	assert.False(t, res.IsError)
}

// A 2025-era session is its user's: another user's DELETE of it is refused
// (go-sdk's 403) and cancels none of its calls; its own user's deletes it
// and cancels them.
func TestAuthDeleteOfAnotherUsersSession(t *testing.T) {
	reg, started, cancelled := blockingTool(t)
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	t.Cleanup(hs.Close)
	hs.Config.Handler = reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{
		Logger: slog.New(slog.DiscardHandler), TokenVerifier: testTokens.verify, ResourceMetadata: &oauthex.ProtectedResourceMetadata{Resource: hs.URL, AuthorizationServers: []string{"https://auth.example.com"}},
	})
	do := func(method, token, session, body string) (*http.Response, error) {
		req, err := http.NewRequest(method, hs.URL, strings.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		}
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
		}
		return resp, err
	}
	send := func(method, token, session, body string) *http.Response {
		t.Helper()
		resp, err := do(method, token, session, body)
		require.NoError(t, err)
		return resp
	}
	resp := send(http.MethodPost, "writer", "", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	id := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, id)
	require.Equal(t, http.StatusAccepted, send(http.MethodPost, "writer", id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).StatusCode)
	go func() { _, _ = do(http.MethodPost, "writer", id, blockCall) }()
	waitFor(t, started, 5*time.Second, "tool start")

	assert.Equal(t, http.StatusForbidden, send(http.MethodDelete, "reader", id, "").StatusCode)
	select {
	case <-cancelled:
		t.Fatal("another user's DELETE cancelled the session's call")
	case <-time.After(300 * time.Millisecond):
	}
	assert.Equal(t, http.StatusNoContent, send(http.MethodDelete, "writer", id, "").StatusCode)
	waitFor(t, cancelled, 3*time.Second, "the call cancelled by its user's DELETE")
}

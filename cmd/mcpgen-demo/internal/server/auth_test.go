package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
)

// Every demo tool needs the scope its hints call for: read-only tools
// demo:read, destructive ones and execute_command demo:admin, the others
// demo:write.
func TestDemoScopes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), full(), []string{"docs", "-format", "json"}, nil, &stdout, &stderr))
	var cat struct {
		Tools []struct {
			Name  string `json:"name"`
			Hints struct {
				ReadOnly    bool `json:"readOnly"`
				Destructive bool `json:"destructive"`
			} `json:"hints"`
			Scopes []string `json:"scopes"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &cat))
	require.NotEmpty(t, cat.Tools)
	for _, tl := range cat.Tools {
		want := scopeWrite
		switch {
		case tl.Name == "execute_command":
			// Read-only by construction (every program it may run only reads
			// the files folder), but running programs is the operator's to grant.
			want = scopeAdmin
		case tl.Hints.ReadOnly:
			want = scopeRead
		case tl.Hints.Destructive:
			want = scopeAdmin
		}
		assert.Equal(t, []string{want}, tl.Scopes, tl.Name)
	}
}

// The demo with -auth-issuer: 401 without a token; a demo:read token lists
// and calls only the read-only tools; a demo:write token gets 403 from a
// destructive tool, naming demo:admin.
func TestDemoAuthorization(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo binary")
	}
	iss, err := oauthtest.NewIssuer()
	require.NoError(t, err)
	defer iss.Close()
	const audience = "http://mcp.test/mcp"
	url, _ := httpDemo(t, buildDemo(t), "-auth-issuer", iss.URL, "-auth-audience", audience, "-confirm=false")

	resp, err := http.Post(url, "application/json", strings.NewReader(`{}`))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	metaURL := strings.TrimSuffix(url, "/mcp") + "/.well-known/oauth-protected-resource/mcp"
	assert.Equal(t, `Bearer resource_metadata="http://mcp.test/.well-known/oauth-protected-resource/mcp"`, resp.Header.Get("WWW-Authenticate"))
	resp, err = http.Get(metaURL)
	require.NoError(t, err)
	var meta map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&meta))
	resp.Body.Close()
	assert.Equal(t, audience, meta["resource"])
	assert.Equal(t, []any{iss.URL}, meta["authorization_servers"])
	assert.Equal(t, []any{"demo:admin", "demo:read", "demo:write"}, meta["scopes_supported"])

	token := func(scope string) string {
		tok, err := iss.Token(oauthtest.Claims{"sub": "ada", "aud": audience, "scope": scope}, "")
		require.NoError(t, err)
		return tok
	}
	connect := func(tok string) *mcp.ClientSession {
		c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
		hc := &http.Client{Transport: bearer{tok}}
		cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	reader := connect(token("demo:read"))
	var names []string
	for tl, err := range reader.Tools(t.Context(), nil) {
		require.NoError(t, err)
		names = append(names, tl.Name)
		assert.True(t, tl.Annotations.ReadOnlyHint, tl.Name)
	}
	// docs/auth.md names them (issue 32.6: it said six).
	assert.Equal(t, demoReadTools, names)
	res, err := reader.CallTool(t.Context(), &mcp.CallToolParams{Name: "calculate_sum", Arguments: map[string]any{"a": 1, "b": 2}})
	require.NoError(t, err)
	assert.False(t, res.IsError)

	writer := connect(token("demo:read demo:write"))
	_, err = writer.CallTool(t.Context(), &mcp.CallToolParams{Name: "delete_file", Arguments: map[string]any{"path": "x.csv"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Forbidden")

	expired, err := iss.Token(oauthtest.Claims{"sub": "ada", "aud": audience, "scope": "demo:read", "exp": time.Now().Add(-time.Hour).Unix()}, "")
	require.NoError(t, err)
	req, _ := http.NewRequest("POST", url, strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+expired)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("WWW-Authenticate"), `error="invalid_token"`)
}

// With -list-all-tools a demo:read token lists every tool, and a call of
// one its scopes do not allow is the 403 a client steps up from: the way to
// see a client's step-up that checks its own list before calling (MCP
// Inspector: docs/browsertest TestInspectorOAuth).
func TestDemoListAllTools(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo binary")
	}
	iss, err := oauthtest.NewIssuer()
	require.NoError(t, err)
	defer iss.Close()
	const audience = "http://mcp.test/mcp"
	url, _ := httpDemo(t, buildDemo(t), "-auth-issuer", iss.URL, "-auth-audience", audience, "-list-all-tools")
	tok, err := iss.Token(oauthtest.Claims{"sub": "ada", "aud": audience, "scope": "demo:read"}, "")
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{tok}}}, nil)
	require.NoError(t, err)
	defer cs.Close()
	var names []string
	for tl, err := range cs.Tools(t.Context(), nil) {
		require.NoError(t, err)
		names = append(names, tl.Name)
	}
	assert.Contains(t, names, "delete_file")
	assert.Contains(t, names, "create_record")
	assert.Greater(t, len(names), len(demoReadTools))

	req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_file","arguments":{"path":"sales.csv"}}}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Equal(t, `Bearer error="insufficient_scope", scope="demo:admin", resource_metadata="http://mcp.test/.well-known/oauth-protected-resource/mcp"`,
		resp.Header.Get("WWW-Authenticate"))
}

// demoReadTools are the tools a demo:read token lists, as docs/auth.md
// says.
var demoReadTools = []string{"analyze_csv", "calculate_sum", "get_page", "get_weather", "library_search_books", "search_pages", "web_search"}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// Without -auth-issuer the demo refuses an address that is not loopback,
// unless -allow-unauthenticated, and then warns.
func TestDemoRefusesAnonymousNonLoopback(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo binary")
	}
	bin := buildDemo(t)
	out, err := exec.Command(bin, "-http", "0.0.0.0:0", "-data", filepath.Join(t.TempDir(), "data")).CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "refusing to serve without authorization")

	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-http", "0.0.0.0:0", "-allow-unauthenticated", "-data", filepath.Join(t.TempDir(), "data"))
	var stderr syncBuffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "url=") }, 50*time.Second, 50*time.Millisecond)
	assert.Contains(t, stderr.String(), "serving without authorization on an address that is not loopback")
}

// syncBuffer is a bytes.Buffer safe to write from a process's output copier
// while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestAuthTypeScriptClient: the TypeScript SDK's client calls the demo with
// a bearer token from a real issuer on loopback.
func TestAuthTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("installs npm packages and runs the demo binary")
	}
	node, dir := nodeWith(t, "core-tasks-e2e", sdkV1Pkg)
	iss, err := oauthtest.NewIssuer()
	require.NoError(t, err)
	defer iss.Close()
	bin := buildDemo(t)
	url, _ := httpDemo(t, bin, "-auth-issuer", iss.URL, "-confirm=false")
	audience := url // the default: http://ADDR/mcp
	out := runScript(t, node, dir, "auth.mjs", url, iss.URL, audience)

	var report struct {
		NoTokenStatus        int
		Challenge            string
		AuthorizationServers []string
		ScopesSupported      []string
		Tools                []string
		Sum                  float64
		DeleteError          string
		DeleteCode           int
		Error                string
	}
	require.NoError(t, json.Unmarshal(out, &report), "%s", out)
	require.Empty(t, report.Error)
	assert.Equal(t, 401, report.NoTokenStatus)
	assert.Equal(t, `Bearer resource_metadata="`+strings.TrimSuffix(url, "/mcp")+`/.well-known/oauth-protected-resource/mcp"`, report.Challenge)
	assert.Equal(t, []string{iss.URL}, report.AuthorizationServers)
	assert.Equal(t, []string{"demo:admin", "demo:read", "demo:write"}, report.ScopesSupported)
	assert.Equal(t, demoReadTools, report.Tools)
	assert.Equal(t, 5.0, report.Sum)
	assert.Equal(t, 403, report.DeleteCode)
	assert.Contains(t, report.DeleteError, "tool delete_file needs the scopes demo:admin")
}

// docs/auth.md says what a demo:read token lists: the tools
// TestDemoAuthorization and TestAuthTypeScriptClient see.
func TestAuthDocReadTools(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "auth.md"))
	require.NoError(t, err)
	quoted := make([]string, len(demoReadTools))
	for i, n := range demoReadTools {
		quoted[i] = "`" + n + "`"
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	assert.Contains(t, text, "it lists seven read-only tools ("+strings.Join(quoted, ", ")+")")
	assert.Len(t, demoReadTools, 7)
}

// The TypeScript SDK's OAuth client against the demo and the development
// issuer (issue 32.6): the interactive flow (dynamic registration, the
// authorization code with PKCE) ends with a token that lists the tools,
// and a client_credentials provider that asks for the scope of the 403's
// challenge steps up from demo:read to call delete_file.
func TestAuthTypeScriptOAuthFlows(t *testing.T) {
	if testing.Short() {
		t.Skip("installs npm packages and runs the demo binary")
	}
	node, dir := nodeWith(t, "core-tasks-e2e", sdkV1Pkg)
	iss, err := oauthtest.NewIssuer()
	require.NoError(t, err)
	defer iss.Close()
	url, _ := httpDemo(t, buildDemo(t), "-auth-issuer", iss.URL, "-confirm=false")
	out := runScript(t, node, dir, "auth-code.mjs", url)

	var report struct {
		Registered         bool
		AuthorizationScope string
		PKCE               string
		InteractiveTools   int
		ReadTools          int
		StepUpScopes       []string
		DeleteText         string
		DeleteIsError      bool
		Interactive, Error string
	}
	require.NoError(t, json.Unmarshal(out, &report), "%s", out)
	require.Empty(t, report.Error)
	require.Empty(t, report.Interactive)
	assert.True(t, report.Registered, "dynamic client registration")
	assert.Equal(t, "S256", report.PKCE)
	assert.Equal(t, "demo:admin demo:read demo:write", report.AuthorizationScope, "the SDK asks for scopes_supported")
	assert.Greater(t, report.InteractiveTools, len(demoReadTools), "a token of every scope lists more than the read tools")
	assert.Equal(t, len(demoReadTools), report.ReadTools)
	assert.Equal(t, []string{"demo:admin", "demo:read"}, report.StepUpScopes)
	assert.True(t, report.DeleteIsError, "the file does not exist: the tool ran and said so")
	assert.Contains(t, report.DeleteText, "nothing-here.csv")
}

// docs/auth.md's step-up provider is the one auth-code.mjs runs.
func TestAuthDocStepUpProvider(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "docs", "auth.md"))
	require.NoError(t, err)
	script, err := os.ReadFile(filepath.Join("testdata", "auth-code.mjs"))
	require.NoError(t, err)
	class := func(text string) string {
		i := strings.Index(text, "class ChallengedScopeProvider {")
		require.GreaterOrEqual(t, i, 0)
		j := strings.Index(text[i:], "\n}\n")
		require.Greater(t, j, 0)
		return text[i : i+j+2]
	}
	assert.Equal(t, class(string(doc)), class(string(script)))
}

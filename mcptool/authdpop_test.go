package mcptool_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// proofError is a verifier's refusal that carries its own challenge, as
// adapters/oauth's DPoP refusals do.
type proofError struct{}

func (proofError) Error() string {
	return auth.ErrInvalidToken.Error() + ": the DPoP proof was used before"
}
func (proofError) Unwrap() error { return auth.ErrInvalidToken }
func (proofError) WWWAuthenticate() string {
	return `DPoP error="invalid_dpop_proof", error_description="the DPoP proof was used before", algs="ES256"`
}

// dpopServer serves authServer's registry with a verifier that takes
// "reader" with the proof "good", refuses the proof "used" with its own
// challenge, and records the scheme each request used.
func dpopServer(t *testing.T, meta oauthex.ProtectedResourceMetadata) (*httptest.Server, *[]string) {
	t.Helper()
	var schemes []string
	verify := func(_ context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		scheme, _, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		schemes = append(schemes, scheme)
		if strings.EqualFold(scheme, "DPoP") && r.Header.Get("DPoP") == "used" {
			return nil, fmt.Errorf("verify: %w", proofError{})
		}
		return testTokens.verify(context.Background(), token, r)
	}
	reg := mcptool.NewRegistry(mcptool.NoDescription())
	who := func(ctx context.Context, in noteArgs) (string, error) { return "ok", nil }
	require.NoError(t, mcptool.Add(reg, "read", who))
	require.NoError(t, mcptool.Add(reg, "write", who, mcptool.ReadOnly(false), mcptool.Destructive(false), mcptool.Scopes("notes:read", "notes:write")))
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	t.Cleanup(hs.Close)
	meta.Resource = hs.URL + "/mcp"
	meta.AuthorizationServers = []string{"https://auth.example.com"}
	hs.Config.Handler = reg.Server(&mcp.Implementation{Name: "notes", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{TokenVerifier: verify, ResourceMetadata: &meta})
	return hs, &schemes
}

// postTool POSTs a 2026-07-28 tools/call of tool with the given
// Authorization and DPoP headers.
func postTool(t *testing.T, hs *httptest.Server, tool, authz, proof string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", tool)
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	if proof != "" {
		req.Header.Set("DPoP", proof)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// A verifier's error with a challenge is answered with that challenge,
// followed by the tool's scope and the resource metadata; the DPoP scheme
// reaches the verifier when the metadata announces DPoP, and a 403 to a
// DPoP request challenges with DPoP.
func TestAuthDPoPChallenges(t *testing.T) {
	hs, schemes := dpopServer(t, oauthex.ProtectedResourceMetadata{DPOPSigningAlgValuesSupported: []string{"ES256", "EdDSA"}})
	meta := `resource_metadata="` + hs.URL + `/.well-known/oauth-protected-resource/mcp"`

	resp := postTool(t, hs, "read", "DPoP reader", "used")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Equal(t, []string{`DPoP error="invalid_dpop_proof", error_description="the DPoP proof was used before", algs="ES256", scope="notes:read", ` + meta}, resp.Header.Values("WWW-Authenticate"))

	resp = postTool(t, hs, "read", "dpop reader", "good")
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the scheme's case does not matter")
	assert.Equal(t, []string{"DPoP", "dpop"}, *schemes)

	resp = postTool(t, hs, "write", "DPoP reader", "good")
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Equal(t, `DPoP error="insufficient_scope", algs="ES256 EdDSA", scope="notes:read notes:write", `+meta, resp.Header.Get("WWW-Authenticate"))

	resp = postTool(t, hs, "read", "DPoP forged", "good")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Equal(t, `DPoP error="invalid_token", algs="ES256 EdDSA", scope="notes:read", `+meta, resp.Header.Get("WWW-Authenticate"))

	// Without credentials, a server that takes both schemes offers both.
	resp = postTool(t, hs, "read", "", "")
	assert.Equal(t, []string{`Bearer scope="notes:read", ` + meta, `DPoP algs="ES256 EdDSA", scope="notes:read", ` + meta}, resp.Header.Values("WWW-Authenticate"))
	resp = postTool(t, hs, "read", "Bearer reader", "")
	assert.Equal(t, http.StatusOK, resp.StatusCode, "DPoP is optional: a bearer token the verifier takes is taken")
}

// With dpop_bound_access_tokens_required the handler refuses Bearer before
// the verifier sees the token, with the DPoP challenge; without DPoP in
// the metadata the DPoP scheme is no credential at all.
func TestAuthDPoPRequired(t *testing.T) {
	hs, schemes := dpopServer(t, oauthex.ProtectedResourceMetadata{DPOPBoundAccessTokensRequired: true, DPOPSigningAlgValuesSupported: []string{"ES256"}})
	meta := `resource_metadata="` + hs.URL + `/.well-known/oauth-protected-resource/mcp"`
	resp := postTool(t, hs, "read", "Bearer reader", "")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Equal(t, []string{`DPoP error="invalid_token", algs="ES256", scope="notes:read", ` + meta}, resp.Header.Values("WWW-Authenticate"))
	resp = postTool(t, hs, "read", "", "")
	assert.Equal(t, []string{`DPoP algs="ES256", scope="notes:read", ` + meta}, resp.Header.Values("WWW-Authenticate"))
	assert.Empty(t, *schemes, "the verifier saw no token")
	resp = postTool(t, hs, "read", "DPoP reader", "good")
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	r, err := http.Get(hs.URL + "/.well-known/oauth-protected-resource/mcp")
	require.NoError(t, err)
	body, _ := io.ReadAll(r.Body)
	r.Body.Close()
	assert.Contains(t, string(body), `"dpop_signing_alg_values_supported":["ES256"],"dpop_bound_access_tokens_required":true`)

	plain, schemes := dpopServer(t, oauthex.ProtectedResourceMetadata{})
	resp = postTool(t, plain, "read", "DPoP reader", "good")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Equal(t, `Bearer scope="notes:read", resource_metadata="`+plain.URL+`/.well-known/oauth-protected-resource/mcp"`, resp.Header.Get("WWW-Authenticate"))
	assert.Empty(t, *schemes, "a server that does not announce DPoP does not take its scheme")
}

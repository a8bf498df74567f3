package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
)

// dpopPkg is panva's DPoP (RFC 9449) library for JavaScript runtimes: it
// makes the proofs of the end-to-end test.
const dpopPkg = "dpop@2.1.2"

// TestAuthDPoPClient: the demo with -auth-dpop against a real DPoP client
// (panva's dpop package making the proofs, the TypeScript SDK's client
// making the calls, testdata/dpop.mjs): the development issuer binds the
// token to the client's key, the SDK's calls with a fresh proof each work,
// and a replayed proof, a proof for another URL and the token sent as
// Bearer are refused with the DPoP challenge.
func TestAuthDPoPClient(t *testing.T) {
	if testing.Short() {
		t.Skip("installs npm packages and runs the demo binary")
	}
	node, dir := nodeWith(t, "dpop-e2e", sdkV1Pkg, dpopPkg)
	iss, err := oauthtest.NewIssuer()
	require.NoError(t, err)
	defer iss.Close()
	url, _ := httpDemo(t, buildDemo(t), "-auth-issuer", iss.URL, "-auth-dpop", "-confirm=false")
	out := runScript(t, node, dir, "dpop.mjs", url, iss.URL)

	var report struct {
		NoTokenStatus     int
		NoTokenChallenge  string
		DPoPRequired      bool
		DPoPAlgs          []string
		TokenType         string
		Tools             int
		Sum               float64
		ReplayStatus      int
		ReplayChallenge   string
		OtherURLStatus    int
		OtherURLChallenge string
		BearerStatus      int
		BearerChallenge   string
		Error             string
	}
	require.NoError(t, json.Unmarshal(out, &report), "%s", out)
	require.Empty(t, report.Error)
	metadata := `resource_metadata="` + strings.TrimSuffix(url, "/mcp") + `/.well-known/oauth-protected-resource/mcp"`
	algs := `algs="ES256 ES384 ES512 PS256 PS384 PS512 RS256 RS384 RS512 EdDSA"`
	assert.Equal(t, 401, report.NoTokenStatus)
	assert.Equal(t, "DPoP "+algs+", "+metadata, report.NoTokenChallenge)
	assert.True(t, report.DPoPRequired)
	assert.Contains(t, report.DPoPAlgs, "ES256")
	assert.Equal(t, "DPoP", report.TokenType)
	assert.Equal(t, len(demoReadTools), report.Tools)
	assert.Equal(t, 5.0, report.Sum)
	assert.Equal(t, 401, report.ReplayStatus)
	assert.Equal(t, `DPoP error="invalid_dpop_proof", error_description="the DPoP proof was used before (its jti)", `+algs+", "+metadata, report.ReplayChallenge)
	assert.Equal(t, 401, report.OtherURLStatus)
	assert.Contains(t, report.OtherURLChallenge, `error_description="the DPoP proof's htu is not this request's URL"`)
	assert.Equal(t, 401, report.BearerStatus)
	assert.Equal(t, `DPoP error="invalid_token", `+algs+", "+metadata, report.BearerChallenge)
}

// Two replicas with -auth-dpop and one Redis (-redis): a proof one of them
// took is refused by the other, as a replay.
func TestDPoPReplicasShareProofs(t *testing.T) {
	port := startRedis(t)

	iss, err := oauthtest.NewIssuer()
	require.NoError(t, err)
	defer iss.Close()
	const audience = "http://mcp.test/mcp" // the load balancer's URL, the replicas' one resource
	cfg := config{features: full(), toolset: "conformance", redisURL: "redis://127.0.0.1:" + port + "/0", authIssuer: iss.URL, authAudience: audience, authDPoP: true}
	replica := func() string {
		a, err := newApp(cfg, discardLogger())
		require.NoError(t, err)
		t.Cleanup(func() { _ = a.close() })
		hs := httptest.NewUnstartedServer(nil)
		hs.Start()
		t.Cleanup(hs.Close)
		hopts := a.cluster.HTTPOptions()
		on, done, err := authorization(t.Context(), cfg, a.cluster, hs.Listener, discardLogger(), hopts)
		require.NoError(t, err)
		require.True(t, on)
		t.Cleanup(done)
		hs.Config.Handler = a.srv.Handler(hopts)
		return hs.URL + "/mcp"
	}
	first, second := replica(), replica()

	key, err := oauthtest.NewDPoPKey("ES256")
	require.NoError(t, err)
	token, err := iss.Token(oauthtest.Claims{"sub": "ada", "aud": audience, "cnf": map[string]any{"jkt": key.Thumbprint()}}, "")
	require.NoError(t, err)
	proof, err := key.Proof("POST", audience, token)
	require.NoError(t, err)
	post := func(url string) (int, string) {
		req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "DPoP "+token)
		req.Header.Set("DPoP", proof)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("WWW-Authenticate")
	}
	code, challenge := post(first)
	require.Equal(t, http.StatusOK, code, challenge)
	code, challenge = post(second)
	assert.Equal(t, http.StatusUnauthorized, code)
	assert.Contains(t, challenge, `DPoP error="invalid_dpop_proof", error_description="the DPoP proof was used before (its jti)"`)
}

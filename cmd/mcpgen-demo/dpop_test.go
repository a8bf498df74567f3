package main

import (
	"encoding/json"
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

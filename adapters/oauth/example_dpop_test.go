package mcpoauth_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	mcpoauth "github.com/mcpgen/mcpgen/adapters/oauth"
	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
	"github.com/mcpgen/mcpgen/mcptool"
)

// A server that takes only DPoP-bound tokens (RFC 9449): the client signs
// a fresh proof for each request with the key its token is bound to. A
// replayed proof, and the token sent as Bearer, are refused with the DPoP
// challenge.
func ExampleDPoPOptions() {
	iss, _ := oauthtest.NewIssuer()
	defer iss.Close()
	hs := httptest.NewServer(nil)
	defer hs.Close()
	resource := hs.URL + "/mcp"

	v, err := mcpoauth.New(context.Background(), &mcpoauth.Options{
		Issuer:   iss.URL,
		Audience: resource,
		DPoP:     &mcpoauth.DPoPOptions{Required: true, Algorithms: []string{"ES256"}},
	})
	if err != nil {
		panic(err)
	}
	defer v.Close()
	reg := mcptool.NewRegistry()
	_ = mcptool.Add(reg, "read", func(ctx context.Context, _ ReadArgs) (string, error) { return "notes", nil }, mcptool.Description("Reads the notes."))
	hs.Config.Handler = reg.Server(&mcp.Implementation{Name: "notes", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{
		TokenVerifier:    v.Verify,
		ResourceMetadata: v.ResourceMetadata(oauthex.ProtectedResourceMetadata{}),
	})

	// The client's key, and a token bound to it (the issuer's token
	// endpoint binds one to the key of the token request's DPoP proof).
	key, _ := oauthtest.NewDPoPKey("ES256")
	token, _ := iss.Token(oauthtest.Claims{"sub": "ada", "aud": resource, "scope": "notes:read", "cnf": map[string]any{"jkt": key.Thumbprint()}}, "")
	proof, _ := key.Proof("POST", resource, token)

	call := func(authorization, proof string) {
		req, _ := http.NewRequest("POST", resource, strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "read")
		req.Header.Set("Authorization", authorization)
		if proof != "" {
			req.Header.Set("DPoP", proof)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Println(strings.TrimSpace(fmt.Sprint(resp.StatusCode, " ", strings.ReplaceAll(resp.Header.Get("WWW-Authenticate"), hs.URL, "http://server"))))
	}
	call("DPoP "+token, proof)
	call("DPoP "+token, proof) // the same proof again
	call("Bearer "+token, "")
	// Output:
	// 200
	// 401 DPoP error="invalid_dpop_proof", error_description="the DPoP proof was used before (its jti)", algs="ES256", scope="notes:read", resource_metadata="http://server/.well-known/oauth-protected-resource/mcp"
	// 401 DPoP error="invalid_token", algs="ES256", scope="notes:read", resource_metadata="http://server/.well-known/oauth-protected-resource/mcp"
}

// The protected resource metadata of a verifier with DPoP: its resource
// and issuer, and what RFC 9449 §5.1 has a resource announce.
func ExampleVerifier_ResourceMetadata() {
	iss, _ := oauthtest.NewIssuer()
	defer iss.Close()
	v, err := mcpoauth.New(context.Background(), &mcpoauth.Options{
		Issuer:   iss.URL,
		Audience: "https://mcp.example.com/mcp",
		DPoP:     &mcpoauth.DPoPOptions{Required: true, Algorithms: []string{"ES256", "EdDSA"}},
	})
	if err != nil {
		panic(err)
	}
	defer v.Close()
	m := v.ResourceMetadata(oauthex.ProtectedResourceMetadata{ResourceName: "notes"})
	fmt.Println(m.Resource, m.ResourceName, len(m.AuthorizationServers))
	fmt.Println(m.DPOPSigningAlgValuesSupported, m.DPOPBoundAccessTokensRequired)
	// Output:
	// https://mcp.example.com/mcp notes 1
	// [ES256 EdDSA] true
}

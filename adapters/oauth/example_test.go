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

type ReadArgs struct {
	_ struct{} `mcp:"readOnly,scopes=notes:read"`
}

// A server that takes the issuer's tokens for its own URL. The issuer here
// is oauthtest's, on loopback.
func ExampleNew() {
	iss, err := oauthtest.NewIssuer()
	if err != nil {
		panic(err)
	}
	defer iss.Close()
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	defer hs.Close()
	resource := hs.URL + "/mcp"

	ctx := context.Background()
	v, err := mcpoauth.New(ctx, &mcpoauth.Options{Issuer: iss.URL, Audience: resource})
	if err != nil {
		panic(err)
	}
	defer v.Close()

	reg := mcptool.NewRegistry()
	_ = mcptool.Add(reg, "read", func(ctx context.Context, _ ReadArgs) (string, error) {
		p, _ := mcptool.Caller(ctx)
		return "hello " + p.Subject, nil
	}, mcptool.Description("Greets the caller."))
	hs.Config.Handler = reg.Server(&mcp.Implementation{Name: "notes", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{TokenVerifier: v.Verify, ResourceMetadata: &oauthex.ProtectedResourceMetadata{Resource: resource, AuthorizationServers: []string{iss.URL}}})

	token, _ := iss.Token(oauthtest.Claims{"sub": "ada", "aud": resource, "scope": "notes:read"}, "")
	forOther, _ := iss.Token(oauthtest.Claims{"sub": "ada", "aud": "https://other.example.com", "scope": "notes:read"}, "")
	for _, tok := range []string{token, forOther} {
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "read")
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Println(resp.StatusCode, resp.Header.Get("WWW-Authenticate") != "")
	}
	// Output:
	// 200 false
	// 401 true
}

package bench

// BenchmarkAuth: what verifying a bearer token adds to an end-to-end HTTP
// call (2026-07-28, stateless): mcpgen's handler without authorization, and
// with mcptool.HTTPOptions.TokenVerifier verifying an RS256 JWT through mcpoauth
// (adapters/oauth) against a loopback issuer. After the first call the
// token's verification is cached until it expires, so each call costs a
// SHA-256 of the token and a map lookup; the target is at most 5%.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	mcpoauth "github.com/mcpgen/mcpgen/adapters/oauth"
	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
	"github.com/mcpgen/mcpgen/mcptool"
)

// bearerTransport adds a bearer token to every request.
type bearerTransport struct {
	token string
	next  http.RoundTripper
}

func (t bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+t.token)
	return t.next.RoundTrip(r)
}

// connectAuth serves mcpgen on loopback, with authorization when iss is
// set, and connects the client (with a token from iss).
func connectAuth(tb testing.TB, iss *oauthtest.Issuer) *mcp.ClientSession {
	tb.Helper()
	ts := httptest.NewUnstartedServer(nil)
	ts.Start()
	tb.Cleanup(ts.Close)
	resource := ts.URL + "/mcp"
	opts := &mcptool.HTTPOptions{}
	hc := ts.Client()
	if iss != nil {
		v, err := mcpoauth.New(context.Background(), &mcpoauth.Options{Issuer: iss.URL, Audience: resource})
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { _ = v.Close() })
		opts.TokenVerifier = v.Verify
		opts.ResourceMetadata = &oauthex.ProtectedResourceMetadata{Resource: resource, AuthorizationServers: []string{iss.URL}}
		tok, err := iss.Token(oauthtest.Claims{"sub": "bench", "aud": resource, "scope": "search"}, "")
		if err != nil {
			tb.Fatal(err)
		}
		hc = &http.Client{Transport: bearerTransport{tok, ts.Client().Transport}}
	}
	mux := http.NewServeMux()
	_, srv := mcpgenServed()
	mux.Handle("/mcp", srv.Handler(opts))
	ts.Config.Handler = mux
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: resource, HTTPClient: hc, DisableStandaloneSSE: true,
	}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

func BenchmarkAuth(b *testing.B) {
	iss, err := oauthtest.NewIssuer()
	if err != nil {
		b.Fatal(err)
	}
	defer iss.Close()
	for _, mode := range []string{"off", "jwt"} {
		b.Run("auth="+mode, func(b *testing.B) {
			var cs *mcp.ClientSession
			if mode == "jwt" {
				cs = connectAuth(b, iss)
			} else {
				cs = connectAuth(b, nil)
			}
			b.ReportAllocs()
			for b.Loop() {
				if res := callTool(b, cs, validArgs); res.IsError {
					b.Fatal(res.Content)
				}
			}
		})
	}
}

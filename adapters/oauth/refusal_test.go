package mcpoauth_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mcpoauth "github.com/mcpgen/mcpgen/adapters/oauth"
	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
	"github.com/mcpgen/mcpgen/mcptool"
)

// servedWith serves a registry of one tool, "read" (notes:read), behind v,
// and returns the server's URL.
func servedWith(t *testing.T, iss *oauthtest.Issuer, o mcpoauth.Options) string {
	t.Helper()
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	t.Cleanup(hs.Close)
	v := newVerifier(t, iss, o)
	reg := mcptool.NewRegistry()
	require.NoError(t, mcptool.Add(reg, "read", func(ctx context.Context, _ ReadArgs) (string, error) {
		p, _ := mcptool.Caller(ctx)
		return "hello " + p.Subject, nil
	}, mcptool.Description("Greets the caller.")))
	hs.Config.Handler = reg.Server(&mcp.Implementation{Name: "notes", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{
		TokenVerifier:    v.Verify,
		ResourceMetadata: &oauthex.ProtectedResourceMetadata{Resource: audience, AuthorizationServers: []string{iss.URL}},
	})
	return hs.URL
}

// callRead sends a 2026-07-28 tools/call of "read" with token.
func callRead(t *testing.T, url, token string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "read")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate"), strings.TrimSpace(string(body))
}

// A token that expired 10 seconds ago, inside the verifier's leeway,
// passed the verifier and was then refused by go-sdk's RequireBearerToken
// with a bare "401 token expired" (issue 33.3): the verifier's leeway is
// the one that decides, and a token past it is refused with the challenge.
func TestExpiredTokenOneLeeway(t *testing.T) {
	iss := newIssuer(t)
	_, err := iss.AddKey("ES256")
	require.NoError(t, err)
	url := servedWith(t, iss, mcpoauth.Options{})
	metadata := `resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`

	inLeeway := sign(t, iss, oauthtest.Claims{"scope": "notes:read", "exp": time.Now().Add(-10 * time.Second).Unix()}, "")
	code, challenge, body := callRead(t, url, inLeeway)
	assert.Equal(t, http.StatusOK, code, body)
	assert.Contains(t, body, "hello ada")
	assert.Empty(t, challenge)

	pastLeeway := sign(t, iss, oauthtest.Claims{"scope": "notes:read", "exp": time.Now().Add(-45 * time.Second).Unix()}, "")
	code, challenge, body = callRead(t, url, pastLeeway)
	assert.Equal(t, http.StatusUnauthorized, code)
	assert.Equal(t, `Bearer error="invalid_token", scope="notes:read", `+metadata, challenge)
	assert.Equal(t, "the access token is not valid", body)

	// A verifier's leeway of a minute, the most there is: a token 45
	// seconds past its expiry is taken all the way to the tool.
	url = servedWith(t, iss, mcpoauth.Options{Leeway: time.Minute})
	code, _, body = callRead(t, url, pastLeeway)
	assert.Equal(t, http.StatusOK, code, body)
}

// A leeway longer than mcptool's would let the verifier take tokens the
// server then refuses.
func TestLeewayAtMostAMinute(t *testing.T) {
	iss := newIssuer(t)
	_, err := mcpoauth.New(t.Context(), &mcpoauth.Options{Issuer: iss.URL, Audience: audience, Leeway: 2 * time.Minute})
	require.EqualError(t, err, "mcpoauth: Options.Leeway 2m0s is more than 1m0s")
}

// Access tokens whose header typ is JWT or absent were accepted (issue
// 33.4): with RequireATJWT only RFC 9068's typ passes; without it, any.
func TestRequireATJWT(t *testing.T) {
	iss := newIssuer(t)
	_, err := iss.AddKey("ES256")
	require.NoError(t, err)
	strict := newVerifier(t, iss, mcpoauth.Options{RequireATJWT: true})
	lenient := newVerifier(t, iss, mcpoauth.Options{})
	for _, tc := range []struct{ typ, strictErr string }{
		{"at+jwt", ""},
		{"AT+JWT", ""},
		{"application/at+jwt", ""},
		{"Application/AT+JWT", ""},
		{"JWT", "invalid token: the token's typ is not at+jwt (RFC 9068)"},
		{"jwt", "invalid token: the token's typ is not at+jwt (RFC 9068)"},
		{"at+jwt-not", "invalid token: the token's typ is not at+jwt (RFC 9068)"},
		{"", "invalid token: the token has no typ; want at+jwt (RFC 9068)"},
	} {
		tok, err := iss.TypedToken(tc.typ, oauthtest.Claims{"sub": "ada", "aud": audience, "scope": "notes:read"}, "")
		require.NoError(t, err)
		ti, err := strict.Verify(t.Context(), tok, nil)
		if tc.strictErr == "" {
			require.NoError(t, err, tc.typ)
			assert.Equal(t, "ada", ti.UserID, tc.typ)
		} else {
			require.EqualError(t, err, tc.strictErr, tc.typ)
		}
		ti, err = lenient.Verify(t.Context(), tok, nil)
		require.NoError(t, err, "off by default: %q", tc.typ)
		assert.Equal(t, "ada", ti.UserID)
	}
}

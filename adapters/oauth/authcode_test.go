package mcpoauth_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mcpoauth "github.com/mcpgen/mcpgen/adapters/oauth"
	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
)

// The development issuer advertised authorization_endpoint and
// response_types_supported ["code"], but /authorize answered 404 (issue
// 32.6): it registers clients (RFC 7591) and grants codes for PKCE S256,
// whose tokens the verifier takes.
func TestIssuerAuthorizationCode(t *testing.T) {
	iss := newIssuer(t)
	v := newVerifier(t, iss, mcpoauth.Options{})
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	jsonOf := func(resp *http.Response) map[string]any {
		defer resp.Body.Close()
		var m map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
		return m
	}

	resp, err := http.Get(iss.URL + "/.well-known/oauth-authorization-server")
	require.NoError(t, err)
	meta := jsonOf(resp)
	assert.Equal(t, iss.URL+"/register", meta["registration_endpoint"])
	assert.Equal(t, []any{"authorization_code", "client_credentials"}, meta["grant_types_supported"])

	resp, err = http.Post(iss.URL+"/register", "application/json", strings.NewReader(`{"redirect_uris":["https://evil.example.com/cb"]}`))
	require.NoError(t, err)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Equal(t, "invalid_redirect_uri", jsonOf(resp)["error"])

	const redirect = "http://127.0.0.1:6274/oauth/callback"
	resp, err = http.Post(iss.URL+"/register", "application/json", strings.NewReader(`{"redirect_uris":["`+redirect+`"],"client_name":"Inspector"}`))
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	clientID, _ := jsonOf(resp)["client_id"].(string)
	require.NotEmpty(t, clientID)

	const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	sum := sha256.Sum256([]byte(verifier))
	authorize := func(extra url.Values) *url.URL {
		q := url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {redirect}, "state": {"s1"},
			"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
			"scope": {"notes:read"}, "resource": {audience}}
		for k, vs := range extra {
			q[k] = vs
		}
		resp, err := noFollow.Get(iss.URL + "/authorize?" + q.Encode())
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusFound, resp.StatusCode)
		loc, err := url.Parse(resp.Header.Get("Location"))
		require.NoError(t, err)
		return loc
	}
	loc := authorize(url.Values{"code_challenge_method": {"plain"}})
	assert.Equal(t, "invalid_request", loc.Query().Get("error"), "PKCE S256 only")

	loc = authorize(nil)
	assert.Equal(t, "http://127.0.0.1:6274/oauth/callback", loc.Scheme+"://"+loc.Host+loc.Path)
	assert.Equal(t, "s1", loc.Query().Get("state"))
	assert.Equal(t, iss.URL, loc.Query().Get("iss"))
	code := loc.Query().Get("code")
	require.NotEmpty(t, code)

	exchange := func(code, codeVerifier string) map[string]any {
		resp, err := http.PostForm(iss.URL+"/token", url.Values{"grant_type": {"authorization_code"}, "code": {code},
			"code_verifier": {codeVerifier}, "client_id": {clientID}, "redirect_uri": {redirect}, "resource": {audience}})
		require.NoError(t, err)
		return jsonOf(resp)
	}
	assert.Equal(t, "invalid_grant", exchange(code, "wrong-verifier-wrong-verifier-wrong-verifier")["error"])
	assert.Equal(t, "invalid_grant", exchange(code, verifier)["error"], "a code tried once is spent")

	tok := exchange(authorize(nil).Query().Get("code"), verifier)
	access, _ := tok["access_token"].(string)
	require.NotEmpty(t, access, "%v", tok)
	ti, err := v.Verify(t.Context(), access, nil)
	require.NoError(t, err)
	assert.Equal(t, "dev-user", ti.UserID)
	assert.Equal(t, []string{"notes:read"}, ti.Scopes)
	assert.Equal(t, clientID, ti.Extra["client_id"])

	resp, err = noFollow.Get(iss.URL + "/authorize?response_type=code&client_id=nobody&redirect_uri=" + url.QueryEscape(redirect))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "an unknown client is not redirected anywhere")
}

// A client registered with a loopback IP redirect URI may come back on
// another port (RFC 8252 §7.3): MCP Inspector's CLI keeps its registration
// when its --callback-url changes. Anything else must match exactly.
func TestIssuerLoopbackRedirectPort(t *testing.T) {
	iss := newIssuer(t)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := http.Post(iss.URL+"/register", "application/json",
		strings.NewReader(`{"redirect_uris":["http://127.0.0.1:6276/oauth/callback","http://localhost:7000/cb"]}`))
	require.NoError(t, err)
	var reg struct {
		ClientID string `json:"client_id"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&reg))
	resp.Body.Close()
	authorize := func(redirect string) (int, string) {
		q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {redirect},
			"code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}, "code_challenge_method": {"S256"}}
		resp, err := noFollow.Get(iss.URL + "/authorize?" + q.Encode())
		require.NoError(t, err)
		resp.Body.Close()
		loc, _ := url.Parse(resp.Header.Get("Location"))
		return resp.StatusCode, loc.Scheme + "://" + loc.Host + loc.Path
	}
	for redirect, want := range map[string]int{
		"http://127.0.0.1:6276/oauth/callback":  http.StatusFound,
		"http://127.0.0.1:40123/oauth/callback": http.StatusFound,
		"http://127.0.0.1/oauth/callback":       http.StatusFound,
		"http://127.0.0.1:40123/elsewhere":      http.StatusBadRequest,
		"https://127.0.0.1:6276/oauth/callback": http.StatusBadRequest,
		"http://[::1]:6276/oauth/callback":      http.StatusBadRequest,
		"http://localhost:7000/cb":              http.StatusFound,
		"http://localhost:7001/cb":              http.StatusBadRequest,
	} {
		code, back := authorize(redirect)
		if assert.Equal(t, want, code, redirect) && code == http.StatusFound {
			assert.Equal(t, redirect, back, "the code goes back to the port asked for")
		}
	}
}

// A development issuer restarted on the same address has new keys: their
// kids are new too, so a verifier that knew the old keys fetches the new
// ones and takes the new tokens (they were refused until the JWKS cache
// expired while every restart named its first key key-1-rs256).
func TestIssuerRestartNewKeyIDs(t *testing.T) {
	var current atomic.Pointer[oauthtest.Issuer]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { current.Load().Handler().ServeHTTP(w, r) }))
	defer srv.Close()
	start := func() *oauthtest.Issuer {
		iss := &oauthtest.Issuer{URL: srv.URL}
		_, err := iss.AddKey("RS256")
		require.NoError(t, err)
		current.Store(iss)
		return iss
	}
	token := func(iss *oauthtest.Issuer) string {
		tok, err := iss.Token(oauthtest.Claims{"sub": "ada", "aud": audience, "scope": "notes:read"}, "")
		require.NoError(t, err)
		return tok
	}
	first := start()
	v, err := mcpoauth.New(t.Context(), &mcpoauth.Options{Issuer: srv.URL, Audience: audience, RefetchInterval: time.Millisecond})
	require.NoError(t, err)
	defer v.Close()
	_, err = v.Verify(t.Context(), token(first), nil)
	require.NoError(t, err)

	second := start()
	assert.NotEqual(t, first.KeyID("RS256"), second.KeyID("RS256"))
	time.Sleep(5 * time.Millisecond)
	_, err = v.Verify(t.Context(), token(second), nil)
	assert.NoError(t, err, "the restarted issuer's token")
}

package mcpoauth_test

import (
	"context"
	"crypto/hmac"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mcpoauth "github.com/mcpgen/mcpgen/adapters/oauth"
	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
)

const audience = "https://mcp.example.com/mcp"

func newIssuer(t *testing.T) *oauthtest.Issuer {
	t.Helper()
	iss, err := oauthtest.NewIssuer()
	require.NoError(t, err)
	t.Cleanup(iss.Close)
	return iss
}

func newVerifier(t *testing.T, iss *oauthtest.Issuer, o mcpoauth.Options) *mcpoauth.Verifier {
	t.Helper()
	o.Issuer, o.Audience = iss.URL, audience
	v, err := mcpoauth.New(t.Context(), &o)
	require.NoError(t, err)
	t.Cleanup(func() { _ = v.Close() })
	return v
}

func sign(t *testing.T, iss *oauthtest.Issuer, claims oauthtest.Claims, kid string) string {
	t.Helper()
	if _, ok := claims["sub"]; !ok {
		claims["sub"] = "ada"
	}
	if _, ok := claims["aud"]; !ok {
		claims["aud"] = audience
	}
	tok, err := iss.Token(claims, kid)
	require.NoError(t, err)
	return tok
}

func TestVerifyGood(t *testing.T) {
	iss := newIssuer(t)
	es, err := iss.AddKey("ES256")
	require.NoError(t, err)
	v := newVerifier(t, iss, mcpoauth.Options{})
	for _, kid := range []string{iss.KeyID("RS256"), es} {
		tok := sign(t, iss, oauthtest.Claims{"scope": "notes:read notes:write", "client_id": "cli"}, kid)
		ti, err := v.Verify(t.Context(), tok, nil)
		require.NoError(t, err, kid)
		assert.Equal(t, "ada", ti.UserID)
		assert.Equal(t, []string{"notes:read", "notes:write"}, ti.Scopes)
		assert.Equal(t, "cli", ti.Extra["client_id"])
		assert.WithinDuration(t, time.Now().Add(5*time.Minute), ti.Expiration, 5*time.Second)
	}
	// scp as an array (Okta, Azure), azp as the client.
	tok := sign(t, iss, oauthtest.Claims{"scp": []string{"a", "b"}, "azp": "web", "aud": []string{"other", audience}}, "")
	ti, err := v.Verify(t.Context(), tok, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, ti.Scopes)
	assert.Equal(t, "web", ti.Extra["client_id"])
}

func TestVerifyRefuses(t *testing.T) {
	iss := newIssuer(t)
	v := newVerifier(t, iss, mcpoauth.Options{Leeway: 5 * time.Second, RefetchInterval: time.Hour})
	good := sign(t, iss, oauthtest.Claims{"scope": "notes:read"}, "")
	parts := strings.Split(good, ".")
	now := time.Now()

	pub := iss.PublicKey(iss.KeyID("RS256")).(*rsa.PublicKey)
	der, err := x509.MarshalPKIXPublicKey(pub)
	require.NoError(t, err)
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
	hs := func(key []byte) string {
		in := oauthtest.Segment(map[string]any{"alg": "HS256", "typ": "JWT", "kid": iss.KeyID("RS256")}) + "." + parts[1]
		m := hmac.New(sha256.New, key)
		m.Write([]byte(in))
		return in + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}
	var claims map[string]any
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	require.NoError(t, json.Unmarshal(payload, &claims))
	claims["scope"] = "notes:read notes:admin"

	for name, tc := range map[string]struct {
		token string
		why   string
	}{
		"expired":        {sign(t, iss, oauthtest.Claims{"exp": now.Add(-time.Minute).Unix()}, ""), "expired"},
		"expired skew":   {sign(t, iss, oauthtest.Claims{"exp": now.Add(-6 * time.Second).Unix()}, ""), "expired"},
		"not yet valid":  {sign(t, iss, oauthtest.Claims{"nbf": now.Add(time.Minute).Unix()}, ""), "not valid yet"},
		"no exp":         {sign(t, iss, oauthtest.Claims{"exp": nil}, ""), "no exp"},
		"wrong audience": {sign(t, iss, oauthtest.Claims{"aud": "https://other.example.com/mcp"}, ""), "not for this server"},
		"no audience":    {sign(t, iss, oauthtest.Claims{"aud": nil}, ""), "not for this server"},
		"wrong issuer":   {sign(t, iss, oauthtest.Claims{"iss": "https://evil.example.com"}, ""), "another issuer"},
		"no subject":     {sign(t, iss, oauthtest.Claims{"sub": ""}, ""), "no sub"},
		"alg none": {oauthtest.Segment(map[string]any{"alg": "none", "typ": "JWT"}) + "." + parts[1] + ".",
			`"none" is not accepted`},
		"HS256 with the public key (PEM)": {hs(pemKey), `"HS256" is not accepted`},
		"HS256 with the public key (DER)": {hs(der), `"HS256" is not accepted`},
		"tampered payload":                {parts[0] + "." + oauthtest.Segment(claims) + "." + parts[2], "do not verify"},
		"signature of another token": {parts[0] + "." + parts[1] + "." +
			strings.Split(sign(t, iss, oauthtest.Claims{}, ""), ".")[2], "do not verify"},
		"unknown kid": {oauthtest.Segment(map[string]any{"alg": "RS256", "kid": "nope"}) + "." + parts[1] + "." + parts[2], `no key "nope"`},
		"garbage":     {"garbage", "not a signed JWT"},
		"empty":       {"", "not a signed JWT"},
		"three dots":  {"a.b.c", "not a signed JWT"},
	} {
		ti, err := v.Verify(t.Context(), tc.token, nil)
		assert.Nil(t, ti, name)
		if assert.Error(t, err, name) {
			assert.ErrorIs(t, err, auth.ErrInvalidToken, name)
			assert.Contains(t, err.Error(), tc.why, name)
			assert.NotContains(t, err.Error(), "ada", "%s: the error says nothing the token holds", name)
		}
	}
	_, err = v.Verify(t.Context(), good, nil)
	assert.NoError(t, err, "the good token still verifies")
}

func TestVerifyWithinLeeway(t *testing.T) {
	iss := newIssuer(t)
	v := newVerifier(t, iss, mcpoauth.Options{Leeway: time.Minute})
	tok := sign(t, iss, oauthtest.Claims{"exp": time.Now().Add(-10 * time.Second).Unix(), "nbf": time.Now().Add(10 * time.Second).Unix()}, "")
	_, err := v.Verify(t.Context(), tok, nil)
	assert.NoError(t, err, "exp and nbf a little off are within the leeway")
}

func TestKeyRotation(t *testing.T) {
	iss := newIssuer(t)
	const interval = 3 * time.Second
	v := newVerifier(t, iss, mcpoauth.Options{RefetchInterval: interval})
	_, err := v.Verify(t.Context(), sign(t, iss, oauthtest.Claims{}, ""), nil)
	require.NoError(t, err)

	// A key published after the verifier fetched the JWKS.
	kid, err := iss.AddKey("ES256")
	require.NoError(t, err)
	_, err = v.Verify(t.Context(), sign(t, iss, oauthtest.Claims{}, kid), nil)
	require.NoError(t, err, "an unknown kid fetches the JWKS again")
	fetched := time.Now()

	// Within the interval, another unknown kid does not fetch again.
	kid2, err := iss.AddKey("RS256")
	require.NoError(t, err)
	tok2 := sign(t, iss, oauthtest.Claims{}, kid2)
	_, err = v.Verify(t.Context(), tok2, nil)
	if time.Since(fetched) < interval {
		assert.ErrorContains(t, err, "no key", "refetching is rate limited")
	}
	time.Sleep(time.Until(fetched.Add(interval + 100*time.Millisecond)))
	_, err = v.Verify(t.Context(), tok2, nil)
	assert.NoError(t, err, "after the interval it fetches again")
}

func TestVerifyCachesUntilExpiry(t *testing.T) {
	iss := newIssuer(t)
	v := newVerifier(t, iss, mcpoauth.Options{Leeway: -1, CacheSize: 2})
	tok := sign(t, iss, oauthtest.Claims{"exp": time.Now().Add(1500 * time.Millisecond).Unix()}, "")
	a, err := v.Verify(t.Context(), tok, nil)
	require.NoError(t, err)
	b, err := v.Verify(t.Context(), tok, nil)
	require.NoError(t, err)
	assert.Same(t, a, b, "the second Verify is answered from the cache")
	for range 3 { // more tokens than the cache holds
		_, err := v.Verify(t.Context(), sign(t, iss, oauthtest.Claims{}, ""), nil)
		require.NoError(t, err)
	}
	time.Sleep(time.Until(a.Expiration) + 100*time.Millisecond)
	_, err = v.Verify(t.Context(), tok, nil)
	assert.ErrorContains(t, err, "expired", "a cached token is not good past its exp")
}

func TestNewRefuses(t *testing.T) {
	iss := newIssuer(t)
	for _, algs := range [][]string{{"none"}, {"HS256"}, {"RS256", "HS512"}, {"nope"}} {
		_, err := mcpoauth.New(t.Context(), &mcpoauth.Options{Issuer: iss.URL, Audience: audience, Algorithms: algs})
		assert.ErrorContains(t, err, "is not accepted", "%v", algs)
	}
	_, err := mcpoauth.New(t.Context(), &mcpoauth.Options{Issuer: iss.URL})
	assert.ErrorContains(t, err, "Audience")
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err = mcpoauth.New(ctx, &mcpoauth.Options{Issuer: iss.URL + "/nowhere", Audience: audience})
	assert.True(t, errors.Is(err, mcpoauth.ErrNoJWKS), "%v", err)
}

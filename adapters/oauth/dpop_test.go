package mcpoauth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mcpoauth "github.com/mcpgen/mcpgen/adapters/oauth"
	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
	"github.com/mcpgen/mcpgen/mcptool"
)

// challenger is what mcptool's handler looks for on a verifier's error.
type challenger interface{ WWWAuthenticate() string }

func dpopKey(t *testing.T, alg string) *oauthtest.DPoPKey {
	t.Helper()
	k, err := oauthtest.NewDPoPKey(alg)
	require.NoError(t, err)
	return k
}

// boundTo signs a token bound to k (cnf.jkt).
func boundTo(t *testing.T, iss *oauthtest.Issuer, k *oauthtest.DPoPKey) string {
	t.Helper()
	return sign(t, iss, oauthtest.Claims{"scope": "notes:read", "cnf": map[string]any{"jkt": k.Thumbprint()}}, "")
}

func proof(t *testing.T, k *oauthtest.DPoPKey, method, url, token string) string {
	t.Helper()
	p, err := k.Proof(method, url, token)
	require.NoError(t, err)
	return p
}

func signProof(t *testing.T, k *oauthtest.DPoPKey, claims oauthtest.Claims) string {
	t.Helper()
	p, err := k.SignProof(claims)
	require.NoError(t, err)
	return p
}

// request is a POST to the audience's URL with the given Authorization and
// DPoP headers.
func request(authz string, proofs ...string) *http.Request {
	r := httptest.NewRequest("POST", audience, nil)
	if authz != "" {
		r.Header.Set("Authorization", authz)
	}
	for _, p := range proofs {
		r.Header.Add("DPoP", p)
	}
	return r
}

// handmadeKey is a new ES256 private key, as a JWK.
func handmadeKey(t *testing.T) jwk.Key {
	t.Helper()
	raw, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	k, err := jwk.Import(raw)
	require.NoError(t, err)
	return k
}

// handmade signs claims with jwx and a new ES256 key into a proof of
// header typ typ and jwk the public key, or with private the private key.
func handmade(t *testing.T, typ string, private bool, claims oauthtest.Claims) string {
	t.Helper()
	priv := handmadeKey(t)
	key := priv
	if !private {
		var err error
		key, err = priv.PublicKey()
		require.NoError(t, err)
	}
	h := jws.NewHeaders()
	require.NoError(t, errors.Join(h.Set(jws.TypeKey, typ), h.Set(jws.JWKKey, key)))
	payload, err := json.Marshal(claims)
	require.NoError(t, err)
	b, err := jws.Sign(payload, jws.WithKey(jwa.ES256(), priv, jws.WithProtectedHeaders(h)))
	require.NoError(t, err)
	return string(b)
}

func ath(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// A bound token is taken with the DPoP scheme and a proof of its key for
// this request; each way a proof can be wrong is refused with RFC 9449's
// challenge, saying what was wrong and nothing the token or proof holds.
func TestDPoPRefusals(t *testing.T) {
	iss := newIssuer(t)
	v := newVerifier(t, iss, mcpoauth.Options{DPoP: &mcpoauth.DPoPOptions{}})
	k, other := dpopKey(t, "ES256"), dpopKey(t, "ES256")
	tok := boundTo(t, iss, k)
	unbound := sign(t, iss, oauthtest.Claims{"scope": "notes:read"}, "")
	now := time.Now().Unix()
	claims := func(extra oauthtest.Claims) oauthtest.Claims {
		c := oauthtest.Claims{"jti": "j-" + base64.RawURLEncoding.EncodeToString([]byte(time.Now().String())), "htm": "POST", "htu": audience, "iat": now, "ath": ath(tok)}
		for n, x := range extra {
			if x == nil {
				delete(c, n)
			} else {
				c[n] = x
			}
		}
		return c
	}
	// Proofs whose header is wrong, built by hand with jwx: alg none,
	// HS256, typ JWT, a private key in jwk.
	pub := handmadeKey(t)
	pubJWK, err := pub.PublicKey()
	require.NoError(t, err)
	unsigned := oauthtest.Segment(map[string]any{"typ": "dpop+jwt", "alg": "none", "jwk": pubJWK}) + "." + oauthtest.Segment(claims(nil)) + "."
	hsInput := oauthtest.Segment(map[string]any{"typ": "dpop+jwt", "alg": "HS256", "jwk": map[string]any{"kty": "oct", "k": "c2VjcmV0"}}) + "." + oauthtest.Segment(claims(nil))
	mac := hmac.New(sha256.New, []byte("secret"))
	mac.Write([]byte(hsInput))
	hs256 := hsInput + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
	good := proof(t, k, "POST", audience, tok)
	parts := strings.Split(good, ".")
	tampered := parts[0] + "." + oauthtest.Segment(claims(oauthtest.Claims{"htu": "https://mcp.example.com/other"})) + "." + parts[2]

	for _, tc := range []struct {
		name, authz string
		proofs      []string
		code, desc  string
	}{
		{"bound token as Bearer", "Bearer " + tok, []string{proof(t, k, "POST", audience, tok)}, "invalid_token", "the token is bound to a key: send it with the DPoP scheme and a DPoP proof"},
		{"no proof", "DPoP " + tok, nil, "invalid_dpop_proof", "send one DPoP header"},
		{"two proofs", "DPoP " + tok, []string{proof(t, k, "POST", audience, tok), proof(t, k, "POST", audience, tok)}, "invalid_dpop_proof", "send one DPoP header"},
		{"another URL", "DPoP " + tok, []string{proof(t, k, "POST", "https://mcp.example.com/other", tok)}, "invalid_dpop_proof", "the DPoP proof's htu is not this request's URL"},
		{"another host", "DPoP " + tok, []string{proof(t, k, "POST", "https://evil.example.com/mcp", tok)}, "invalid_dpop_proof", "the DPoP proof's htu is not this request's URL"},
		{"another scheme", "DPoP " + tok, []string{proof(t, k, "POST", "http://mcp.example.com/mcp", tok)}, "invalid_dpop_proof", "the DPoP proof's htu is not this request's URL"},
		{"another method", "DPoP " + tok, []string{proof(t, k, "GET", audience, tok)}, "invalid_dpop_proof", "the DPoP proof's htm is not this request's method"},
		{"another key", "DPoP " + tok, []string{proof(t, other, "POST", audience, tok)}, "invalid_dpop_proof", "the DPoP proof is not signed by the key the token is bound to"},
		{"another token's ath", "DPoP " + tok, []string{proof(t, k, "POST", audience, unbound)}, "invalid_dpop_proof", "the DPoP proof's ath is not this token's hash"},
		{"no ath", "DPoP " + tok, []string{proof(t, k, "POST", audience, "")}, "invalid_dpop_proof", "the DPoP proof's ath is not this token's hash"},
		{"iat too old", "DPoP " + tok, []string{signProof(t, k, claims(oauthtest.Claims{"iat": now - 90}))}, "invalid_dpop_proof", "the DPoP proof's iat is too old"},
		{"iat in the future", "DPoP " + tok, []string{signProof(t, k, claims(oauthtest.Claims{"iat": now + 90}))}, "invalid_dpop_proof", "the DPoP proof's iat is in the future"},
		{"no iat", "DPoP " + tok, []string{signProof(t, k, claims(oauthtest.Claims{"iat": nil}))}, "invalid_dpop_proof", "the DPoP proof has no iat"},
		{"no jti", "DPoP " + tok, []string{signProof(t, k, claims(oauthtest.Claims{"jti": nil}))}, "invalid_dpop_proof", "the DPoP proof has no jti"},
		{"alg none", "DPoP " + tok, []string{unsigned}, "invalid_dpop_proof", "the DPoP proof's alg is not one of algs"},
		{"alg HS256", "DPoP " + tok, []string{hs256}, "invalid_dpop_proof", "the DPoP proof's alg is not one of algs"},
		{"typ JWT", "DPoP " + tok, []string{handmade(t, "JWT", false, claims(nil))}, "invalid_dpop_proof", "the DPoP proof's typ is not dpop+jwt"},
		{"private key in jwk", "DPoP " + tok, []string{handmade(t, "dpop+jwt", true, claims(nil))}, "invalid_dpop_proof", "the DPoP proof's jwk is not a public key"},
		{"claims changed after signing", "DPoP " + tok, []string{tampered}, "invalid_dpop_proof", "the DPoP proof's signature does not verify with its jwk"},
		{"not a JWT", "DPoP " + tok, []string{"xx-yy"}, "invalid_dpop_proof", "the DPoP proof is not a signed JWT"},
		{"unbound token as DPoP", "DPoP " + unbound, []string{proof(t, k, "POST", audience, unbound)}, "invalid_token", "the token is not bound to a key (cnf.jkt)"},
	} {
		_, err := v.Verify(t.Context(), strings.Fields(tc.authz)[1], request(tc.authz, tc.proofs...))
		require.Error(t, err, tc.name)
		assert.ErrorIs(t, err, auth.ErrInvalidToken, tc.name)
		var ch challenger
		require.True(t, errors.As(err, &ch), tc.name)
		assert.Equal(t, `DPoP error="`+tc.code+`", error_description="`+tc.desc+`", algs="ES256 ES384 ES512 PS256 PS384 PS512 RS256 RS384 RS512 EdDSA"`, ch.WWWAuthenticate(), tc.name)
		for _, secret := range append([]string{tok, unbound}, tc.proofs...) {
			assert.NotContains(t, err.Error()+ch.WWWAuthenticate(), secret, tc.name)
		}
	}

	// The proof that is right, also with an htu that normalizes to the
	// request's URL; a second use of either is a replay.
	for _, u := range []string{audience, "HTTPS://MCP.Example.com:443/./mcp?q=1#f"} {
		p := proof(t, k, "POST", u, tok)
		ti, err := v.Verify(t.Context(), tok, request("DPoP "+tok, p))
		require.NoError(t, err, u)
		assert.Equal(t, "ada", ti.UserID)
		_, err = v.Verify(t.Context(), tok, request("DPoP "+tok, p))
		var ch challenger
		require.True(t, errors.As(err, &ch), u)
		assert.Contains(t, ch.WWWAuthenticate(), `error="invalid_dpop_proof", error_description="the DPoP proof was used before (its jti)"`)
	}
	// The token is now cached: a fresh proof is still required each time.
	_, err = v.Verify(t.Context(), tok, request("Bearer "+tok))
	assert.ErrorAs(t, err, new(challenger), "a cached bound token as Bearer")
	_, err = v.Verify(t.Context(), tok, request("DPoP "+tok, proof(t, k, "POST", audience, tok)))
	require.NoError(t, err)

	// DPoP is optional here: an unbound token is taken as Bearer.
	_, err = v.Verify(t.Context(), unbound, request("Bearer "+unbound))
	require.NoError(t, err)
}

// Proofs of each kind of key the default algorithms allow are taken.
func TestDPoPKeyKinds(t *testing.T) {
	iss := newIssuer(t)
	v := newVerifier(t, iss, mcpoauth.Options{DPoP: &mcpoauth.DPoPOptions{}})
	for _, alg := range []string{"ES256", "RS256", "EdDSA"} {
		k := dpopKey(t, alg)
		tok := boundTo(t, iss, k)
		_, err := v.Verify(t.Context(), tok, request("DPoP "+tok, proof(t, k, "POST", audience, tok)))
		require.NoError(t, err, alg)
	}
	strict := newVerifier(t, iss, mcpoauth.Options{DPoP: &mcpoauth.DPoPOptions{Algorithms: []string{"ES256"}}})
	k := dpopKey(t, "RS256")
	tok := boundTo(t, iss, k)
	_, err := strict.Verify(t.Context(), tok, request("DPoP "+tok, proof(t, k, "POST", audience, tok)))
	var ch challenger
	require.ErrorAs(t, err, &ch)
	assert.Equal(t, `DPoP error="invalid_dpop_proof", error_description="the DPoP proof's alg is not one of algs", algs="ES256"`, ch.WWWAuthenticate())
}

// Required refuses tokens that are not bound; without DPoPOptions a bound
// token is refused whichever scheme carries it.
func TestDPoPRequiredAndOff(t *testing.T) {
	iss := newIssuer(t)
	unbound := sign(t, iss, oauthtest.Claims{"scope": "notes:read"}, "")
	req := newVerifier(t, iss, mcpoauth.Options{DPoP: &mcpoauth.DPoPOptions{Required: true, Algorithms: []string{"ES256"}}})
	_, err := req.Verify(t.Context(), unbound, request("Bearer "+unbound))
	var ch challenger
	require.ErrorAs(t, err, &ch)
	assert.Equal(t, `DPoP error="invalid_token", error_description="this server takes only DPoP-bound tokens", algs="ES256"`, ch.WWWAuthenticate())

	off := newVerifier(t, iss, mcpoauth.Options{})
	k := dpopKey(t, "ES256")
	tok := boundTo(t, iss, k)
	for _, r := range []*http.Request{request("Bearer " + tok), request("DPoP "+tok, proof(t, k, "POST", audience, tok)), nil} {
		_, err = off.Verify(t.Context(), tok, r)
		require.ErrorIs(t, err, auth.ErrInvalidToken)
		assert.Contains(t, err.Error(), "the token is bound to a key (cnf.jkt), and this server does not check DPoP proofs")
	}
	_, err = off.Verify(t.Context(), unbound, request("Bearer "+unbound))
	require.NoError(t, err, "without DPoP, bearer tokens as before")

	bad := sign(t, iss, oauthtest.Claims{"cnf": map[string]any{"jkt": 7}}, "")
	_, err = req.Verify(t.Context(), bad, request("DPoP "+bad))
	require.EqualError(t, err, "invalid token: the token's cnf.jkt is not a key thumbprint")

	_, err = mcpoauth.New(t.Context(), &mcpoauth.Options{Issuer: iss.URL, Audience: "urn:mcp:notes", DPoP: &mcpoauth.DPoPOptions{}})
	require.ErrorContains(t, err, "must be the http(s) URL clients reach this server at")
	_, err = mcpoauth.New(t.Context(), &mcpoauth.Options{Issuer: iss.URL, Audience: audience, DPoP: &mcpoauth.DPoPOptions{Algorithms: []string{"HS256"}}})
	require.ErrorContains(t, err, `algorithm "HS256" is not accepted`)
}

// memSpent is a cluster.SpentStore shared by verifiers, as replicas share
// adapters/redis's.
type memSpent struct {
	mu  sync.Mutex
	ids map[string]time.Time
}

func (s *memSpent) Spend(_ context.Context, id string, expires time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.ids[id]; ok {
		return false, nil
	}
	s.ids[id] = expires
	return true, nil
}

// A proof taken by one replica is refused by another that shares its
// store; the store keeps a proof until it is too old to be taken anyway.
func TestDPoPReplayAcrossReplicas(t *testing.T) {
	iss := newIssuer(t)
	spent := &memSpent{ids: map[string]time.Time{}}
	a := newVerifier(t, iss, mcpoauth.Options{DPoP: &mcpoauth.DPoPOptions{Spent: spent}})
	b := newVerifier(t, iss, mcpoauth.Options{DPoP: &mcpoauth.DPoPOptions{Spent: spent}})
	k := dpopKey(t, "ES256")
	tok := boundTo(t, iss, k)
	p := proof(t, k, "POST", audience, tok)
	_, err := a.Verify(t.Context(), tok, request("DPoP "+tok, p))
	require.NoError(t, err)
	_, err = b.Verify(t.Context(), tok, request("DPoP "+tok, p))
	var ch challenger
	require.ErrorAs(t, err, &ch)
	assert.Contains(t, ch.WWWAuthenticate(), "the DPoP proof was used before (its jti)")
	require.Len(t, spent.ids, 1)
	for id, exp := range spent.ids {
		assert.True(t, strings.HasPrefix(id, "dpop:"), id)
		assert.WithinDuration(t, time.Now().Add(time.Minute), exp, 5*time.Second)
	}

	// A store that fails: no proof is taken unchecked, and the failure is
	// not a refusal of the token (mcptool answers 503 and logs it).
	c := newVerifier(t, iss, mcpoauth.Options{DPoP: &mcpoauth.DPoPOptions{Spent: failingSpent{}}})
	_, err = c.Verify(t.Context(), tok, request("DPoP "+tok, proof(t, k, "POST", audience, tok)))
	require.Error(t, err)
	assert.NotErrorIs(t, err, auth.ErrInvalidToken)
}

type failingSpent struct{}

func (failingSpent) Spend(context.Context, string, time.Time) (bool, error) {
	return false, errors.New("redis: connection refused")
}

// Through mcptool's handler: the metadata announces DPoP, a replayed
// proof and a bound token sent as Bearer get the challenge with the
// tool's scope and the metadata's URL, and a 403 to a DPoP request
// challenges with DPoP.
func TestDPoPThroughHandler(t *testing.T) {
	iss := newIssuer(t)
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	t.Cleanup(hs.Close)
	v := newVerifier(t, iss, mcpoauth.Options{DPoP: &mcpoauth.DPoPOptions{Required: true, Algorithms: []string{"ES256", "EdDSA"}}})
	reg := mcptool.NewRegistry()
	require.NoError(t, mcptool.Add(reg, "read", func(ctx context.Context, _ ReadArgs) (string, error) {
		p, _ := mcptool.Caller(ctx)
		return "hello " + p.Subject, nil
	}, mcptool.Description("Greets the caller.")))
	hs.Config.Handler = reg.Server(&mcp.Implementation{Name: "notes", Version: "1"}, nil).Handler(&mcptool.HTTPOptions{
		TokenVerifier:    v.Verify,
		ResourceMetadata: v.ResourceMetadata(oauthex.ProtectedResourceMetadata{}),
	})
	metadata := `resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`
	k := dpopKey(t, "ES256")
	tok := boundTo(t, iss, k)
	call := func(authz, dpop string) (int, string, string) {
		req, _ := http.NewRequest("POST", hs.URL+"/mcp", strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "read")
		req.Header.Set("Authorization", authz)
		if dpop != "" {
			req.Header.Set("DPoP", dpop)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, strings.Join(resp.Header.Values("WWW-Authenticate"), "\n"), string(body)
	}
	p := proof(t, k, "POST", audience, tok)
	code, challenge, body := call("DPoP "+tok, p)
	require.Equal(t, http.StatusOK, code, challenge)
	assert.Contains(t, body, "hello ada")
	code, challenge, _ = call("DPoP "+tok, p)
	assert.Equal(t, http.StatusUnauthorized, code)
	assert.Equal(t, `DPoP error="invalid_dpop_proof", error_description="the DPoP proof was used before (its jti)", algs="ES256 EdDSA", scope="notes:read", `+metadata, challenge)
	code, challenge, _ = call("Bearer "+tok, "")
	assert.Equal(t, http.StatusUnauthorized, code)
	assert.Equal(t, `DPoP error="invalid_token", algs="ES256 EdDSA", scope="notes:read", `+metadata, challenge, "Required: the handler refuses Bearer itself")
	code, challenge, _ = call("DPoP "+tok, proof(t, dpopKey(t, "ES256"), "POST", audience, tok))
	assert.Equal(t, http.StatusUnauthorized, code)
	assert.Contains(t, challenge, `error_description="the DPoP proof is not signed by the key the token is bound to"`)

	resp, err := http.Get(hs.URL + "/.well-known/oauth-protected-resource/mcp")
	require.NoError(t, err)
	meta, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(meta), `"dpop_signing_alg_values_supported":["ES256","EdDSA"],"dpop_bound_access_tokens_required":true`)
}

// The development issuer binds a token to the key of the token request's
// proof (RFC 9449 §5), and refuses a proof for another URL.
func TestIssuerBindsDPoPTokens(t *testing.T) {
	iss := newIssuer(t)
	k := dpopKey(t, "ES256")
	post := func(proof string) (int, map[string]any) {
		req, _ := http.NewRequest("POST", iss.URL+"/token", strings.NewReader("grant_type=client_credentials&scope=notes:read&resource="+audience))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if proof != "" {
			req.Header.Set("DPoP", proof)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		return resp.StatusCode, out
	}
	code, out := post(proof(t, k, "POST", iss.URL+"/token", ""))
	require.Equal(t, http.StatusOK, code, out)
	assert.Equal(t, "DPoP", out["token_type"])
	tok := out["access_token"].(string)
	v := newVerifier(t, iss, mcpoauth.Options{DPoP: &mcpoauth.DPoPOptions{}})
	_, err := v.Verify(t.Context(), tok, request("DPoP "+tok, proof(t, k, "POST", audience, tok)))
	require.NoError(t, err, "the issuer's token is bound to k")
	_, err = v.Verify(t.Context(), tok, request("Bearer "+tok))
	require.Error(t, err)

	code, out = post(proof(t, k, "POST", iss.URL+"/other", ""))
	assert.Equal(t, http.StatusBadRequest, code)
	assert.Equal(t, "invalid_dpop_proof", out["error"])
	code, out = post("")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "Bearer", out["token_type"])
}

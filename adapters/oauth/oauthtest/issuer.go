// Package oauthtest is an OAuth authorization server for tests and local
// development: it publishes RFC 8414 metadata and a JWKS, and signs RS256
// and ES256 access tokens (RFC 9068) with its keys. Its token endpoint
// grants client_credentials to anyone who asks, for any scope, and
// authorization codes without asking a user: serve it on loopback only. A
// token request carrying a DPoP proof gets a token bound to the proof's key
// (RFC 9449; the endpoint does not remember proofs' jti), and [DPoPKey]
// makes a client's proofs.
package oauthtest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwk"
)

// Issuer is an authorization server on loopback. Its URL is its issuer
// identifier.
type Issuer struct {
	URL string

	srv  *httptest.Server
	mu   sync.Mutex
	keys []*signingKey // published in the JWKS, in order
	n    int

	clients map[string]client // registered (authcode.go)
	codes   map[string]grant  // authorization codes not yet exchanged
}

type signingKey struct {
	kid string
	alg string // RS256 or ES256
	rsa *rsa.PrivateKey
	ec  *ecdsa.PrivateKey
}

// NewIssuer starts an issuer on a loopback port with one RS256 key
// published. Close stops it.
func NewIssuer() (*Issuer, error) {
	i := &Issuer{}
	i.srv = httptest.NewServer(i.Handler())
	i.URL = i.srv.URL
	if _, err := i.AddKey("RS256"); err != nil {
		i.srv.Close()
		return nil, err
	}
	return i, nil
}

// Close stops the issuer's server.
func (i *Issuer) Close() {
	if i.srv != nil {
		i.srv.Close()
	}
}

// AddKey makes a new key for alg ("RS256" or "ES256") and publishes it in
// the JWKS; it returns its kid. Tokens signed with it verify only once a
// verifier has fetched the JWKS again.
func (i *Issuer) AddKey(alg string) (string, error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.n++
	// The kid names this issuer's key: a restarted issuer (mcpgen-demo
	// issuer) signs with new keys of new kids, which a verifier fetches,
	// instead of keys it takes for the old ones and refuses.
	k := &signingKey{kid: fmt.Sprintf("key-%d-%s-%s", i.n, strings.ToLower(alg), randomString()[:8]), alg: alg}
	var err error
	switch alg {
	case "RS256":
		k.rsa, err = rsa.GenerateKey(rand.Reader, 2048)
	case "ES256":
		k.ec, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	default:
		return "", fmt.Errorf("oauthtest: algorithm %q: want RS256 or ES256", alg)
	}
	if err != nil {
		return "", err
	}
	i.keys = append(i.keys, k)
	return k.kid, nil
}

// KeyID returns the kid of the newest key for alg, or "".
func (i *Issuer) KeyID(alg string) string {
	i.mu.Lock()
	defer i.mu.Unlock()
	for j := len(i.keys) - 1; j >= 0; j-- {
		if i.keys[j].alg == alg {
			return i.keys[j].kid
		}
	}
	return ""
}

// Claims are a token's claims. Token fills in iss (the issuer), iat (now)
// and exp (now + 5 min) unless given; a nil value leaves a claim out.
type Claims map[string]any

// Token signs claims with the key kid ("" for the first key) into a JWT
// access token, of header typ "at+jwt" (RFC 9068).
func (i *Issuer) Token(claims Claims, kid string) (string, error) {
	return i.TypedToken("at+jwt", claims, kid)
}

// TypedToken is [Issuer.Token] with the header typ typ ("" for none): for
// tests of issuers that do not follow RFC 9068's typing.
func (i *Issuer) TypedToken(typ string, claims Claims, kid string) (string, error) {
	i.mu.Lock()
	var k *signingKey
	for _, x := range i.keys {
		if kid == "" || x.kid == kid {
			k = x
			break
		}
	}
	i.mu.Unlock()
	if k == nil {
		return "", fmt.Errorf("oauthtest: no key %q", kid)
	}
	now := time.Now()
	full := Claims{"iss": i.URL, "iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix()}
	for c, v := range claims {
		if v == nil {
			delete(full, c)
		} else {
			full[c] = v
		}
	}
	header := map[string]any{"alg": k.alg, "kid": k.kid}
	if typ != "" {
		header["typ"] = typ
	}
	return k.sign(header, full)
}

// PublicKey returns the public key kid names, as a crypto.PublicKey.
func (i *Issuer) PublicKey(kid string) crypto.PublicKey {
	i.mu.Lock()
	defer i.mu.Unlock()
	for _, k := range i.keys {
		if k.kid == kid {
			if k.rsa != nil {
				return &k.rsa.PublicKey
			}
			return &k.ec.PublicKey
		}
	}
	return nil
}

// Segment encodes v as JSON in base64url, as a JWT's header and payload are:
// for tests that build malformed tokens.
func Segment(v any) string {
	b, _ := json.Marshal(v)
	return base64.RawURLEncoding.EncodeToString(b)
}

func (k *signingKey) sign(header map[string]any, claims Claims) (string, error) {
	input := Segment(header) + "." + Segment(claims)
	sum := sha256.Sum256([]byte(input))
	var sig []byte
	var err error
	if k.rsa != nil {
		sig, err = rsa.SignPKCS1v15(rand.Reader, k.rsa, crypto.SHA256, sum[:])
	} else {
		var r, s *big.Int
		r, s, err = ecdsa.Sign(rand.Reader, k.ec, sum[:])
		if err == nil {
			sig = make([]byte, 64)
			r.FillBytes(sig[:32])
			s.FillBytes(sig[32:])
		}
	}
	if err != nil {
		return "", err
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

// Handler serves the issuer's metadata (RFC 8414 and OpenID Connect
// discovery), its JWKS at /jwks, and a token endpoint at /token granting
// client_credentials (the form's scope, and its resource as aud, RFC
// 8707) and authorization codes, tokens bound to the key of the request's
// DPoP proof when it has one (RFC 9449 §5; dpop.go): /register registers a client with
// loopback redirect URIs (RFC 7591), /authorize grants a code for PKCE's
// S256 at once, without asking anyone (authcode.go).
func (i *Issuer) Handler() http.Handler {
	mux := http.NewServeMux()
	meta := func(w http.ResponseWriter, r *http.Request) {
		base := i.base(r)
		writeJSON(w, map[string]any{
			"issuer":                                base,
			"jwks_uri":                              base + "/jwks",
			"authorization_endpoint":                base + "/authorize",
			"token_endpoint":                        base + "/token",
			"registration_endpoint":                 base + "/register",
			"grant_types_supported":                 []string{"authorization_code", "client_credentials"},
			"response_types_supported":              []string{"code"},
			"code_challenge_methods_supported":      []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"},
			"dpop_signing_alg_values_supported":     dpopAlgs,
		})
	}
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", meta)
	mux.HandleFunc("GET /.well-known/openid-configuration", meta)
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		set, err := i.jwks()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, set)
	})
	mux.HandleFunc("POST /register", i.register)
	mux.HandleFunc("GET /authorize", i.authorize)
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			oauthError(w, http.StatusBadRequest, "invalid_request", "the body is not a form")
			return
		}
		switch r.PostForm.Get("grant_type") {
		case "authorization_code":
			i.exchange(w, r)
		case "client_credentials":
			client := r.PostForm.Get("client_id")
			if client == "" {
				client = "dev-client"
			}
			i.grantToken(w, r, Claims{"sub": client, "client_id": client, "scope": r.PostForm.Get("scope")}, r.PostForm.Get("resource"))
		default:
			oauthError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be authorization_code or client_credentials")
		}
	})
	return mux
}

// grantToken answers a token request with an access token of claims, for
// resource (its aud; none if empty). A request with a DPoP proof gets a
// token bound to the proof's key (RFC 9449 §5: cnf.jkt, token_type DPoP).
func (i *Issuer) grantToken(w http.ResponseWriter, r *http.Request, claims Claims, resource string) {
	claims["iss"] = i.base(r)
	if resource != "" {
		claims["aud"] = resource
	}
	jkt, err := i.tokenBinding(r)
	if err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_dpop_proof", err.Error())
		return
	}
	typ := "Bearer"
	if jkt != "" {
		claims["cnf"] = map[string]any{"jkt": jkt}
		typ = "DPoP"
	}
	tok, err := i.Token(claims, "")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, map[string]any{"access_token": tok, "token_type": typ, "expires_in": 300, "scope": claims["scope"]})
}

// base is the issuer identifier: its URL when started by NewIssuer, else
// the address the request came to.
func (i *Issuer) base(r *http.Request) string {
	if i.URL != "" {
		return i.URL
	}
	return "http://" + r.Host
}

func (i *Issuer) jwks() (any, error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	set := jwk.NewSet()
	for _, k := range i.keys {
		var pub any
		if k.rsa != nil {
			pub = &k.rsa.PublicKey
		} else {
			pub = &k.ec.PublicKey
		}
		key, err := jwk.Import(pub)
		if err != nil {
			return nil, err
		}
		if err := errors.Join(key.Set(jwk.KeyIDKey, k.kid), key.Set(jwk.AlgorithmKey, k.alg), key.Set(jwk.KeyUsageKey, "sig")); err != nil {
			return nil, err
		}
		if err := set.AddKey(key); err != nil {
			return nil, err
		}
	}
	return set, nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

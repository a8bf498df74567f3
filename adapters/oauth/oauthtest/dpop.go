package oauthtest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"

	"github.com/mcpgen/mcpgen/adapters/oauth/internal/dpop"
)

// DPoP (RFC 9449): a client's key that makes proofs, and the token
// endpoint's binding of a token to the key of the proof a token request
// carries (RFC 9449 §5): its cnf.jkt, token_type "DPoP".

// DPoPKey is a client's DPoP key pair.
type DPoPKey struct {
	alg  jwa.SignatureAlgorithm
	priv jwk.Key
	pub  jwk.Key
}

// NewDPoPKey makes a key pair for alg: "ES256", "RS256" or "EdDSA".
func NewDPoPKey(alg string) (*DPoPKey, error) {
	var raw any
	var err error
	switch alg {
	case "ES256":
		raw, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case "RS256":
		raw, err = rsa.GenerateKey(rand.Reader, 2048)
	case "EdDSA":
		_, raw, err = ed25519.GenerateKey(rand.Reader)
	default:
		return nil, fmt.Errorf("oauthtest: DPoP algorithm %q: want ES256, RS256 or EdDSA", alg)
	}
	if err != nil {
		return nil, err
	}
	k := &DPoPKey{}
	k.alg, _ = jwa.LookupSignatureAlgorithm(alg)
	if k.priv, err = jwk.Import(raw); err != nil {
		return nil, err
	}
	if k.pub, err = k.priv.PublicKey(); err != nil {
		return nil, err
	}
	return k, nil
}

// Thumbprint is the key's JWK SHA-256 thumbprint (RFC 7638), base64url:
// the cnf.jkt of the tokens bound to it.
func (k *DPoPKey) Thumbprint() string {
	tp, err := k.pub.Thumbprint(crypto.SHA256)
	if err != nil {
		panic(err) // a public key of the three kinds always has one
	}
	return base64.RawURLEncoding.EncodeToString(tp)
}

// Proof makes a proof for a request of method to url, with a fresh jti and
// iat now, and ath the hash of accessToken ("" for none: a token request).
func (k *DPoPKey) Proof(method, url, accessToken string) (string, error) {
	c := Claims{"jti": randomString(), "htm": method, "htu": url, "iat": time.Now().Unix()}
	if accessToken != "" {
		c["ath"] = dpop.ATH(accessToken)
	}
	return k.SignProof(c)
}

// SignProof signs claims as they are into a proof (header typ dpop+jwt,
// the key's alg and its public jwk): for tests of proofs that are wrong.
func (k *DPoPKey) SignProof(claims Claims) (string, error) {
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	h := jws.NewHeaders()
	if err := errors.Join(h.Set(jws.TypeKey, "dpop+jwt"), h.Set(jws.JWKKey, k.pub)); err != nil {
		return "", err
	}
	b, err := jws.Sign(payload, jws.WithKey(k.alg, k.priv, jws.WithProtectedHeaders(h)))
	return string(b), err
}

// dpopAlgs are the proof algorithms the token endpoint takes.
var dpopAlgs = []string{"ES256", "RS256", "PS256", "EdDSA"}

// tokenBinding checks the DPoP proof of a token request, if it has one
// (RFC 9449 §5), and returns the thumbprint to bind the token to ("" for
// none).
func (i *Issuer) tokenBinding(r *http.Request) (string, error) {
	proofs := r.Header.Values("DPoP")
	switch len(proofs) {
	case 0:
		return "", nil
	case 1:
	default:
		return "", errors.New("send one DPoP header")
	}
	htu, err := dpop.Normalize(i.base(r) + "/token")
	if err != nil {
		return "", err
	}
	var algs []jwa.SignatureAlgorithm
	for _, name := range dpopAlgs {
		alg, _ := jwa.LookupSignatureAlgorithm(name)
		algs = append(algs, alg)
	}
	p, err := dpop.Check(proofs[0], http.MethodPost, htu, time.Now(), time.Minute, algs)
	if err != nil {
		return "", err
	}
	return p.JKT, nil
}

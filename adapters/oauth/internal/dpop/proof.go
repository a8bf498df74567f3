// Package dpop checks DPoP proofs (RFC 9449 §4.3) for the verifier and for
// oauthtest's token endpoint: one proof check, two places that need it.
package dpop

import (
	"crypto"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
)

// Proof is what a checked proof says: the thumbprint of its key (RFC 7638,
// base64url of SHA-256), its jti, when it was made, and its ath (empty
// when it has none).
type Proof struct {
	JKT string
	JTI string
	IAT time.Time
	ATH string
}

// Check verifies the compact JWT proof for a request of method to htu (the
// URL the request was sent to, already normalized by Normalize): typ
// dpop+jwt, an alg of algs, a signature by the public key of its jwk
// header, htm and htu those of the request, iat within window of now, and a
// jti. Its errors say what is wrong in a few words, never what the proof
// holds.
func Check(proof, method, htu string, now time.Time, window time.Duration, algs []jwa.SignatureAlgorithm) (Proof, error) {
	msg, err := jws.Parse([]byte(proof), jws.WithCompact())
	if err != nil {
		return Proof{}, errors.New("the DPoP proof is not a signed JWT")
	}
	sigs := msg.Signatures()
	if len(sigs) != 1 {
		return Proof{}, errors.New("the DPoP proof is not a JWT with one signature")
	}
	h := sigs[0].ProtectedHeaders()
	if typ, _ := h.Type(); !strings.EqualFold(typ, "dpop+jwt") {
		return Proof{}, errors.New("the DPoP proof's typ is not dpop+jwt")
	}
	alg, ok := h.Algorithm()
	if !ok || !slices.Contains(algs, alg) {
		return Proof{}, errors.New("the DPoP proof's alg is not one of algs")
	}
	key, ok := h.JWK()
	if !ok {
		return Proof{}, errors.New("the DPoP proof has no jwk header")
	}
	if private, err := jwk.IsPrivateKey(key); err != nil || private {
		return Proof{}, errors.New("the DPoP proof's jwk is not a public key")
	}
	payload, err := jws.Verify([]byte(proof), jws.WithKey(alg, key))
	if err != nil {
		return Proof{}, errors.New("the DPoP proof's signature does not verify with its jwk")
	}
	var c struct {
		JTI string   `json:"jti"`
		HTM string   `json:"htm"`
		HTU string   `json:"htu"`
		IAT *float64 `json:"iat"`
		ATH string   `json:"ath"`
	}
	if err := json.Unmarshal(payload, &c); err != nil {
		return Proof{}, errors.New("the DPoP proof's claims are not a JSON object of jti, htm, htu, iat")
	}
	switch {
	case c.JTI == "":
		return Proof{}, errors.New("the DPoP proof has no jti")
	case c.HTM != method:
		return Proof{}, errors.New("the DPoP proof's htm is not this request's method")
	case c.IAT == nil || math.IsNaN(*c.IAT) || math.IsInf(*c.IAT, 0):
		return Proof{}, errors.New("the DPoP proof has no iat")
	}
	if u, err := Normalize(c.HTU); err != nil || u != htu {
		return Proof{}, errors.New("the DPoP proof's htu is not this request's URL")
	}
	// How far iat is from now, in seconds: any number compares, and the
	// time made of it is within the window.
	off := *c.IAT - float64(now.UnixNano())/1e9
	switch {
	case off < -window.Seconds():
		return Proof{}, errors.New("the DPoP proof's iat is too old")
	case off > window.Seconds():
		return Proof{}, errors.New("the DPoP proof's iat is in the future")
	}
	iat := now.Add(time.Duration(off * float64(time.Second)))
	tp, err := key.Thumbprint(crypto.SHA256)
	if err != nil {
		return Proof{}, errors.New("the DPoP proof's jwk has no thumbprint")
	}
	return Proof{JKT: base64.RawURLEncoding.EncodeToString(tp), JTI: c.JTI, IAT: iat, ATH: c.ATH}, nil
}

// ATH is the ath of a proof sent with token: base64url(SHA-256(token)).
func ATH(token string) string {
	sum := sha256.Sum256([]byte(token))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Normalize returns an http(s) URL without its query and fragment, in the
// form RFC 3986 §6.2.2 and §6.2.3 make equal URLs share (RFC 9449 §4.3
// compares htu so): scheme and host lowercase, no default port, an empty
// path "/", percent-encodings uppercase, unreserved characters decoded and
// dot segments removed.
func Normalize(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	scheme := strings.ToLower(u.Scheme)
	if (scheme != "http" && scheme != "https") || u.Host == "" || u.Opaque != "" || u.User != nil {
		return "", fmt.Errorf("not an http(s) URL")
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" && !(scheme == "http" && port == "80") && !(scheme == "https" && port == "443") {
		host += ":" + port
	}
	escaped := percents(u.EscapedPath())
	decoded, err := url.PathUnescape(escaped)
	if err != nil {
		return "", err
	}
	path := "/"
	if escaped != "" {
		path = (&url.URL{Path: "/"}).ResolveReference(&url.URL{Path: decoded, RawPath: escaped}).EscapedPath()
	}
	return scheme + "://" + host + path, nil
}

// percents normalizes the percent-encodings of an escaped path (RFC 3986
// §6.2.2.1 and §6.2.2.2): unreserved characters decoded, the rest with
// uppercase hexadecimal digits.
func percents(p string) string {
	if !strings.Contains(p, "%") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] != '%' || i+2 >= len(p) {
			b.WriteByte(p[i])
			continue
		}
		hi, lo := unhex(p[i+1]), unhex(p[i+2])
		if hi < 0 || lo < 0 {
			b.WriteByte(p[i])
			continue
		}
		c := byte(hi<<4 | lo)
		if unreserved(c) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
		i += 2
	}
	return b.String()
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func unreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

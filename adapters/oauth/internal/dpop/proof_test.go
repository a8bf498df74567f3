package dpop

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
)

// htu is compared after RFC 3986 §6.2.2 and §6.2.3 normalization (RFC 9449
// §4.3): the same URL however spelt, and a different one stays different.
func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"HTTPS://MCP.Example.COM:443/mcp":      "https://mcp.example.com/mcp",
		"https://mcp.example.com/a/./b/../mcp": "https://mcp.example.com/a/mcp",
		"https://mcp.example.com/mcp?q=1#f":    "https://mcp.example.com/mcp",
		"http://mcp.example.com:80":            "http://mcp.example.com/",
		"http://mcp.example.com:8080/%7euser":  "http://mcp.example.com:8080/~user",
		"http://mcp.example.com/a%2fb":         "http://mcp.example.com/a%2Fb",
		"http://mcp.example.com/a/%2e%2e/mcp":  "http://mcp.example.com/mcp",
		"http://mcp.example.com//x/mcp":        "http://mcp.example.com//x/mcp",
		"http://[::1]:80/mcp/":                 "http://[::1]/mcp/",
	} {
		got, err := Normalize(in)
		if err != nil || got != want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"ftp://mcp.example.com/mcp", "/mcp", "https://user@mcp.example.com/mcp", "mailto:a@b", "https://%zz/"} {
		if got, err := Normalize(in); err == nil {
			t.Errorf("Normalize(%q) = %q, want an error", in, got)
		}
	}
}

// iat is compared as a number: one far out of time's range is refused,
// not wrapped around into the window.
func TestCheckIATRange(t *testing.T) {
	if _, err := Check("x", "POST", "https://mcp.example.com/mcp", time.Now(), time.Minute, nil); err == nil {
		t.Fatal("not a JWT: want an error")
	}
	for _, tc := range []struct {
		iat  float64
		want string
	}{
		{1e300, "the DPoP proof's iat is in the future"},
		{-1e300, "the DPoP proof's iat is too old"},
		{float64(time.Now().Unix()) - 120, "the DPoP proof's iat is too old"},
	} {
		proof := signed(t, map[string]any{"jti": "j", "htm": "POST", "htu": "https://mcp.example.com/mcp", "iat": tc.iat})
		_, err := Check(proof, "POST", "https://mcp.example.com/mcp", time.Now(), time.Minute, []jwa.SignatureAlgorithm{jwa.ES256()})
		if err == nil || err.Error() != tc.want {
			t.Errorf("iat %g: %v, want %q", tc.iat, err, tc.want)
		}
	}
}

// signed signs claims into a proof with a new ES256 key.
func signed(t *testing.T, claims map[string]any) string {
	t.Helper()
	raw, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	priv, err := jwk.Import(raw)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := priv.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	h := jws.NewHeaders()
	if err := errors.Join(h.Set(jws.TypeKey, "dpop+jwt"), h.Set(jws.JWKKey, pub)); err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	b, err := jws.Sign(payload, jws.WithKey(jwa.ES256(), priv, jws.WithProtectedHeaders(h)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

package mcpoauth_test

import (
	"testing"

	mcpoauth "github.com/mcpgen/mcpgen/adapters/oauth"
	"github.com/mcpgen/mcpgen/adapters/oauth/oauthtest"
)

// BenchmarkVerify: a token seen before (cached: a SHA-256 and a map
// lookup), and one verified each time (the RS256 signature and the claims).
func BenchmarkVerify(b *testing.B) {
	iss, err := oauthtest.NewIssuer()
	if err != nil {
		b.Fatal(err)
	}
	defer iss.Close()
	for _, mode := range []string{"cached", "uncached"} {
		b.Run("mode="+mode, func(b *testing.B) {
			o := mcpoauth.Options{Issuer: iss.URL, Audience: audience}
			if mode == "uncached" {
				o.CacheSize = -1
			}
			v, err := mcpoauth.New(b.Context(), &o)
			if err != nil {
				b.Fatal(err)
			}
			defer v.Close()
			tok, err := iss.Token(oauthtest.Claims{"sub": "ada", "aud": audience, "scope": "notes:read notes:write"}, "")
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.Verify(b.Context(), tok, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package sdkpatch

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// WithTokenInfo returns middleware that hands the TokenInfo info returns
// for a request, already verified by mcptool, to go-sdk's handler (which
// reads it with auth.TokenInfoFromContext, for Extra.TokenInfo and to bind
// sessions to their user). go-sdk stores it only from its own
// auth.RequireBearerToken, under an unexported key, and that middleware
// also refuses: a token past its Expiration plus ClockSkew (default 0) with
// a bare 401 that names no resource_metadata, so a token inside the
// verifier's leeway passed mcptool and was then refused without a
// challenge (issue 33.3); and every request whose Authorization is not
// "Bearer" and one token, such as the DPoP scheme (RFC 9449) mcptool takes
// (issue 43.2). Here it never refuses: no scopes, no expiration required,
// a ClockSkew no Expiration reaches, and a request of another scheme goes
// through it as a copy saying "Bearer", the handler then serving the
// request itself; mcptool's authHTTP is the one that decides
// (TestWithTokenInfoNeverRefuses). It retires when go-sdk can put a
// TokenInfo in a context without checking it.
func WithTokenInfo(info func(*http.Request) *auth.TokenInfo) func(http.Handler) http.Handler {
	store := auth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		return info(r), nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true, ClockSkew: neverExpires})
	return func(next http.Handler) http.Handler {
		bearer := store(next)
		other := store(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			orig := r.Context().Value(origKey{}).(*http.Request)
			next.ServeHTTP(w, orig.WithContext(r.Context()))
		}))
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if f := strings.Fields(r.Header.Get("Authorization")); len(f) == 2 && strings.EqualFold(f[0], "Bearer") {
				bearer.ServeHTTP(w, r)
				return
			}
			as := r.WithContext(context.WithValue(r.Context(), origKey{}, r))
			as.Header = r.Header.Clone()
			as.Header.Set("Authorization", "Bearer verified-by-mcptool")
			other.ServeHTTP(w, as)
		})
	}
}

// origKey holds the request a copy saying "Bearer" stands for.
type origKey struct{}

// neverExpires is a clock skew past any token's expiry: 200 years.
const neverExpires = 200 * 365 * 24 * time.Hour

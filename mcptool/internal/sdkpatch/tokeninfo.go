package sdkpatch

import (
	"context"
	"net/http"
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
// challenge (issue 33.3). Here it never refuses: no scopes, no expiration
// required, a ClockSkew no Expiration reaches; mcptool's authHTTP is the one
// that decides (TestWithTokenInfoNeverRefuses). It retires when go-sdk can
// put a TokenInfo in a context without checking it.
func WithTokenInfo(info func(*http.Request) *auth.TokenInfo) func(http.Handler) http.Handler {
	return auth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		return info(r), nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true, ClockSkew: neverExpires})
}

// neverExpires is a clock skew past any token's expiry: 200 years.
const neverExpires = 200 * 365 * 24 * time.Hour

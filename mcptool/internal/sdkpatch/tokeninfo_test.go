package sdkpatch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// go-sdk's RequireBearerToken refuses a token that expired a second ago
// with a 401 naming no resource_metadata; WithTokenInfo passes it (and one
// without an expiry) to the handler, TokenInfo in its context.
func TestWithTokenInfoNeverRefuses(t *testing.T) {
	expired := &auth.TokenInfo{UserID: "ada", Expiration: time.Now().Add(-time.Second)}
	serve := func(mw func(http.Handler) http.Handler) (int, string, *auth.TokenInfo) {
		var got *auth.TokenInfo
		h := mw(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = auth.TokenInfoFromContext(r.Context()) }))
		req := httptest.NewRequest("POST", "/", nil)
		req.Header.Set("Authorization", "Bearer t")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Header().Get("WWW-Authenticate"), got
	}

	// The behaviour this patch exists for.
	code, challenge, _ := serve(auth.RequireBearerToken(func(_ context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		return expired, nil
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true}))
	if code != http.StatusUnauthorized || challenge != "" {
		t.Fatalf("go-sdk answers an expired token %d with WWW-Authenticate %q; WithTokenInfo may be retired", code, challenge)
	}

	for _, ti := range []*auth.TokenInfo{expired, {UserID: "bob"}, {UserID: "eve", Expiration: time.Now().Add(-100 * 365 * 24 * time.Hour)}} {
		code, _, got := serve(WithTokenInfo(func(*http.Request) *auth.TokenInfo { return ti }))
		if code != http.StatusOK || got != ti {
			t.Errorf("WithTokenInfo(%s): %d, TokenInfo %v", ti.UserID, code, got)
		}
	}
}

// go-sdk's RequireBearerToken refuses the DPoP scheme (RFC 9449) with a bare
// 401; WithTokenInfo passes it, the request's own headers untouched.
func TestWithTokenInfoOtherSchemes(t *testing.T) {
	ti := &auth.TokenInfo{UserID: "ada", Expiration: time.Now().Add(time.Hour)}
	serve := func(mw func(http.Handler) http.Handler, authz string) (int, *auth.TokenInfo, string) {
		var got *auth.TokenInfo
		var seen string
		h := mw(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			got, seen = auth.TokenInfoFromContext(r.Context()), r.Header.Get("Authorization")
		}))
		req := httptest.NewRequest("POST", "/", nil)
		req.Header.Set("Authorization", authz)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, got, seen
	}
	code, _, _ := serve(auth.RequireBearerToken(func(context.Context, string, *http.Request) (*auth.TokenInfo, error) { return ti, nil }, nil), "DPoP t")
	if code != http.StatusUnauthorized {
		t.Fatalf("go-sdk answers the DPoP scheme %d; WithTokenInfo's copy may be retired", code)
	}
	for _, authz := range []string{"DPoP t", "dpop t", "Bearer t", "Bearer a b"} {
		code, got, seen := serve(WithTokenInfo(func(*http.Request) *auth.TokenInfo { return ti }), authz)
		if code != http.StatusOK || got != ti || seen != authz {
			t.Errorf("WithTokenInfo with %q: %d, TokenInfo %v, the handler saw %q", authz, code, got, seen)
		}
	}
}

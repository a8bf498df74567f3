package mcptool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Authorization over HTTP: the handler that checks a request's token,
// challenges (authheader.go), and serves the protected resource metadata
// (its configuration, authConfig, is in httpoptions.go).

// authHTTP is the handler's resource server.
type authHTTP struct {
	cfg       authConfig
	srv       *mcp.Server
	reg       *Registry // the registry serving srv (Server.Handler's), or nil
	metaURL   string    // where the metadata is served, for WWW-Authenticate
	metaPaths []string  // the paths it is served at
	logger    *slog.Logger
	pass      func(http.Handler) http.Handler // hands the verified TokenInfo to go-sdk
}

type verifiedKey struct{}

// newAuthHTTP checks the configuration; on its error Server.Handler returns
// a misconfigured handler.
func newAuthHTTP(cfg *authConfig, srv *mcp.Server, reg *Registry, logger *slog.Logger) (*authHTTP, error) {
	if cfg.verify == nil || cfg.meta == nil {
		return nil, errors.New("authorization needs both TokenVerifier and ResourceMetadata")
	}
	u, err := url.Parse(cfg.meta.Resource)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Fragment != "" {
		return nil, fmt.Errorf("ResourceMetadata: its Resource %q must be an absolute URL without a fragment (RFC 8707)", cfg.meta.Resource)
	}
	if len(cfg.meta.AuthorizationServers) == 0 {
		return nil, errors.New("ResourceMetadata: it must name at least one authorization server")
	}
	a := &authHTTP{cfg: *cfg, srv: srv, reg: reg, logger: logger}
	path := strings.TrimRight(u.EscapedPath(), "/")
	a.metaPaths = []string{"/.well-known/oauth-protected-resource" + path}
	if path != "" {
		a.metaPaths = append(a.metaPaths, "/.well-known/oauth-protected-resource")
	}
	a.metaURL = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: a.metaPaths[0]}).String()
	a.pass = sdkpatch.WithTokenInfo(func(r *http.Request) *auth.TokenInfo {
		return r.Context().Value(verifiedKey{}).(*auth.TokenInfo)
	})
	return a, nil
}

// wrap puts the resource server in front of next.
func (a *authHTTP) wrap(next http.Handler) http.Handler {
	inner := a.pass(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slices.Contains(a.metaPaths, r.URL.Path) {
			a.serveMetadata(w, r)
			return
		}
		if r.Method == http.MethodOptions {
			next.ServeHTTP(w, r) // a CORS preflight carries no credentials
			return
		}
		token, dpop, ok := a.bearer(r)
		switch {
		case !ok:
			a.challenge(w, r, http.StatusUnauthorized, "", a.neededScope(r), "an access token is required")
			return
		case !dpop && a.cfg.meta.DPOPBoundAccessTokensRequired:
			a.challenge(w, r, http.StatusUnauthorized, "invalid_token", a.neededScope(r), "this server takes only DPoP-bound access tokens")
			return
		}
		ti, err := a.cfg.verify(r.Context(), token, r)
		var ch challenger
		switch {
		case errors.As(err, &ch):
			// The verifier's own challenge: a DPoP refusal (RFC 9449 §7.1).
			a.send(w, http.StatusUnauthorized, []string{ch.WWWAuthenticate()}, a.neededScope(r), "the access token or its DPoP proof is not valid")
			return
		case errors.Is(err, auth.ErrInvalidToken):
			a.challenge(w, r, http.StatusUnauthorized, "invalid_token", a.neededScope(r), "the access token is not valid")
			return
		case err != nil || ti == nil:
			if a.logger != nil {
				a.logger.ErrorContext(r.Context(), "mcptool: cannot verify access tokens", "err", err)
			}
			w.Header().Set("Retry-After", "5")
			http.Error(w, "cannot verify the access token now", http.StatusServiceUnavailable)
			return
		case tokenExpired(ti, time.Now()):
			a.challenge(w, r, http.StatusUnauthorized, "invalid_token", a.neededScope(r), "the access token has expired")
			return
		}
		inner.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), verifiedKey{}, ti)))
	})
}

// tokenLeeway is how long after its expiry a token the TokenVerifier
// accepted is still taken. The verifier decides expiry, with its own
// leeway for clocks that drift (adapters/oauth: Options.Leeway, 30 seconds
// by default and never more than this); this check stops a verifier that
// does not look at the expiry at all. go-sdk's own check is off
// (sdkpatch.WithTokenInfo): nothing after the verifier refuses a token
// it took, and every refusal carries the challenge (challenge).
const tokenLeeway = time.Minute

// tokenExpired reports whether ti expired more than tokenLeeway before now.
func tokenExpired(ti *auth.TokenInfo, now time.Time) bool {
	return !ti.Expiration.IsZero() && ti.Expiration.Add(tokenLeeway).Before(now)
}

// serveMetadata answers the protected resource metadata.
func (a *authHTTP) serveMetadata(w http.ResponseWriter, r *http.Request) {
	meta := *a.cfg.meta
	if meta.ScopesSupported == nil {
		meta.ScopesSupported = a.scopes()
	}
	if meta.BearerMethodsSupported == nil {
		meta.BearerMethodsSupported = []string{"header"}
	}
	auth.ProtectedResourceMetadataHandler(&meta).ServeHTTP(w, r)
}

// scopes lists the scopes of the registry's tools, sorted.
func (a *authHTTP) scopes() []string {
	reg := a.reg
	if reg == nil {
		return nil
	}
	var all []string
	for _, t := range reg.snapshot().sorted {
		all = append(all, t.pol.scopes...)
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// permit answers a tools/call of the tool name whose token lacks the
// tool's scopes with 403 and returns false. The handler reads name from the
// Mcp-Name header (2026-07-28) or the body (2025-era sessions), before
// anything decodes the arguments; the call path checks the scopes again.
// A call of a discovery proxy (call_tool, call_write_tool) is the call of
// the tool its arguments name (route, as the call path resolves it).
func (a *authHTTP) permit(w http.ResponseWriter, r *http.Request, name string, args []byte) bool {
	ti := auth.TokenInfoFromContext(r.Context())
	reg := a.reg
	if ti == nil || reg == nil {
		return true
	}
	t, _, ok := reg.route(name, args)
	if !ok {
		t, ok = reg.lookup(name)
	}
	if !ok || mayCall(t, ti) {
		return true
	}
	a.challenge(w, r, http.StatusForbidden, "insufficient_scope", strings.Join(t.pol.scopes, " "),
		fmt.Sprintf("tool %s needs the scopes %s", t.name, strings.Join(t.pol.scopes, " ")))
	return false
}

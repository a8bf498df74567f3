package mcptool

import (
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// The defaults of HTTPOptions.MaxBodyValues and MaxBodyDepth.
const (
	defaultMaxBodyValues = 50_000
	defaultMaxBodyDepth  = 1000
)

// HTTPOptions configures [Server.Handler]. A nil *HTTPOptions, and a zero
// field, take the default: the handler serves both protocol eras with
// DNS-rebinding and cross-origin protection on, and the defaults of the
// table in docs/architecture.md. A negative limit turns that limit off.
type HTTPOptions struct {
	// Stateless serves every request without a session. 2026-07-28 clients
	// are always served statelessly; with Stateless, 2025-era clients are
	// too, and then cannot be sent requests (sampling, elicitation, roots)
	// or notifications outside a request: any replica can answer any
	// request.
	Stateless bool

	// TrustedOrigins are browser origins (scheme://host[:port]) allowed to
	// make cross-origin requests; others get 403. An origin that is not of
	// that form misconfigures the handler: see [Server.Handler].
	TrustedOrigins []string

	// SessionTimeout closes 2025-era sessions idle for that long. Default
	// 30 minutes; negative means never.
	SessionTimeout time.Duration

	// MaxSessions caps the 2025-era sessions kept at once. Opening one more
	// closes another: the one idle longest, preferring one with no call in
	// flight (a stream the client keeps open to listen is not activity); the
	// calls of the one closed are cancelled (by the handler's registry; with
	// none they run to their end first) and its client gets 404 and
	// initializes again. Default 1024; negative means no cap.
	MaxSessions int

	// EventStore keeps the events of 2025-era streams, so that a client
	// resumes a dropped stream with Last-Event-ID. Default: in memory, per
	// handler. Replicas share one (adapters/redis).
	EventStore mcp.EventStore

	// MaxRequestBodyBytes bounds a request body; a larger one gets 413.
	// Default 4 MiB; negative means no bound.
	MaxRequestBodyBytes int64

	// MaxBodyBytesInFlight bounds the memory the request bodies being
	// served take at once: a sixteenth holds bodies as their bytes arrive,
	// the rest holds each body received at what decoding it costs, counted
	// by its structure (values, containers, keys, bytes), until it is
	// answered. A body finding no room within BodyReadTimeout gets 503.
	// Small calls are not counted. Default 32 × MaxRequestBodyBytes (128
	// MiB); negative means no bound.
	MaxBodyBytesInFlight int64

	// MaxBodyValues bounds the JSON values (scalars, objects, arrays) in a
	// request body, and MaxBodyDepth their nesting; a body beyond either
	// gets 413. Defaults 50,000 and 1000; negative means no bound.
	MaxBodyValues int
	MaxBodyDepth  int

	// BodyReadTimeout bounds how long a request body may take to arrive; a
	// slower one gets 408. It is enforced with the connection's read
	// deadline (http.ResponseController), so the http.Server needs no
	// ReadTimeout, which would also end long calls and streams. Default 30
	// seconds; negative means none.
	BodyReadTimeout time.Duration

	// Logger receives the requests the handler refuses (403, 408, 413, 503:
	// the status, the reason and the remote address, never the body) and
	// its misconfiguration, default slog.Default(); and, only when set, the
	// transport's warnings (an event it could not store or write).
	Logger *slog.Logger

	// TokenVerifier, with ResourceMetadata, makes the handler an OAuth 2.1
	// resource server, as the MCP authorization specification says:
	//
	//   - it serves ResourceMetadata, its RFC 9728 protected resource
	//     metadata, at /.well-known/oauth-protected-resource followed by the
	//     path of ResourceMetadata.Resource (and without it), to any origin;
	//     route those paths to the handler when it is not mounted at "/";
	//   - a request without a bearer token, or whose token TokenVerifier
	//     refuses, gets 401 with WWW-Authenticate: Bearer
	//     resource_metadata="…" (and error="invalid_token" for a refused
	//     token);
	//   - a tools/call whose tool needs scopes the token lacks gets 403 with
	//     WWW-Authenticate: Bearer error="insufficient_scope", scope="…"
	//     naming the tool's scopes, so the client can ask for them (step-up);
	//   - tools/list shows each caller only the tools it may call
	//     ([ListAllTools]), a task is seen only by the subject who created
	//     it, and tools learn who calls them from [Caller].
	//
	// mcpoauth (adapters/oauth) verifies JWTs against an issuer's JWKS. A
	// verifier must return an error wrapping auth.ErrInvalidToken for a
	// token it refuses (another error is 503), and a TokenInfo with the
	// subject (UserID), the scopes and the expiry. Default: none, every
	// request is served without a token.
	TokenVerifier auth.TokenVerifier

	// ResourceMetadata is the resource's RFC 9728 metadata, required with
	// TokenVerifier (and TokenVerifier with it), else the handler is
	// misconfigured (see [Server.Handler]: every request gets 500).
	// ResourceMetadata.Resource (this server's URL, the audience its tokens
	// must name) and AuthorizationServers are required too. Left empty,
	// ScopesSupported lists the scopes of the registry's tools and
	// BearerMethodsSupported is ["header"].
	ResourceMetadata *oauthex.ProtectedResourceMetadata
}

// httpConfig is HTTPOptions with the defaults filled in.
type httpConfig struct {
	stateless            bool
	trustedOrigins       []string
	sessionTimeout       time.Duration
	logger               *slog.Logger
	maxRequestBodyBytes  int64
	eventStore           mcp.EventStore
	maxSessions          int
	maxBodyBytesInFlight int64
	bodyLimits           wire.Limits
	bodyReadTimeout      time.Duration
	auth                 *authConfig // TokenVerifier and ResourceMetadata (authhttp.go)
}

// authConfig is what HTTPOptions.TokenVerifier and ResourceMetadata configure.
type authConfig struct {
	verify auth.TokenVerifier
	meta   *oauthex.ProtectedResourceMetadata
}

// newHTTPConfig fills in the defaults of what opts (nil for none) leaves
// zero.
func newHTTPConfig(opts *HTTPOptions) httpConfig {
	if opts == nil {
		opts = &HTTPOptions{}
	}
	c := httpConfig{
		stateless:            opts.Stateless,
		trustedOrigins:       append([]string(nil), opts.TrustedOrigins...),
		sessionTimeout:       opts.SessionTimeout,
		logger:               opts.Logger,
		maxRequestBodyBytes:  opts.MaxRequestBodyBytes,
		eventStore:           opts.EventStore,
		maxSessions:          opts.MaxSessions,
		maxBodyBytesInFlight: opts.MaxBodyBytesInFlight,
		bodyReadTimeout:      opts.BodyReadTimeout,
		bodyLimits:           wire.Limits{MaxValues: opts.MaxBodyValues, MaxDepth: opts.MaxBodyDepth},
	}
	if opts.TokenVerifier != nil || opts.ResourceMetadata != nil {
		c.auth = &authConfig{verify: opts.TokenVerifier, meta: opts.ResourceMetadata}
	}
	if c.sessionTimeout == 0 {
		c.sessionTimeout = 30 * time.Minute
	} else if c.sessionTimeout < 0 {
		c.sessionTimeout = 0
	}
	if c.maxRequestBodyBytes == 0 {
		c.maxRequestBodyBytes = mcp.DefaultMaxRequestBodyBytes
	}
	if c.eventStore == nil {
		c.eventStore = mcp.NewMemoryEventStore(nil)
	}
	if c.maxSessions == 0 {
		c.maxSessions = 1024
	}
	if c.maxBodyBytesInFlight == 0 {
		c.maxBodyBytesInFlight = 32 * c.maxRequestBodyBytes
		if c.maxRequestBodyBytes < 0 {
			c.maxBodyBytesInFlight = 32 * mcp.DefaultMaxRequestBodyBytes
		}
	}
	if c.bodyLimits.MaxValues == 0 {
		c.bodyLimits.MaxValues = defaultMaxBodyValues
	} else if c.bodyLimits.MaxValues < 0 {
		c.bodyLimits.MaxValues = 0
	}
	if c.bodyLimits.MaxDepth == 0 {
		c.bodyLimits.MaxDepth = defaultMaxBodyDepth
	} else if c.bodyLimits.MaxDepth < 0 {
		c.bodyLimits.MaxDepth = 0
	}
	if c.bodyReadTimeout == 0 {
		c.bodyReadTimeout = 30 * time.Second
	}
	return c
}

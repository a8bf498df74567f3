package mcptool

import (
	"log/slog"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOption configures [NewHTTPHandler]. With none, the handler serves both
// protocol eras with DNS-rebinding and cross-origin protection on, and the
// defaults of the table in docs/architecture.md.
type HTTPOption interface {
	applyHTTP(*httpConfig)
}

// httpConfig is what the HTTP options set; a zero field keeps the default.
type httpConfig struct {
	stateless            bool
	trustedOrigins       []string
	sessionTimeout       time.Duration
	logger               *slog.Logger
	maxRequestBodyBytes  int64
	eventStore           mcp.EventStore
	maxSessions          int
	maxBodyBytesInFlight int64
	bodyReadTimeout      time.Duration
	auth                 *authConfig // Authorization (auth.go)
}

type httpOption func(*httpConfig)

func (f httpOption) applyHTTP(c *httpConfig) { f(c) }

// Stateless serves every request without a session. 2026-07-28 clients are
// always served statelessly; with Stateless, 2025-era clients are too, and
// then cannot be sent requests (sampling, elicitation, roots) or
// notifications outside a request: any replica can answer any request.
func Stateless() HTTPOption {
	return httpOption(func(c *httpConfig) { c.stateless = true })
}

// TrustedOrigins adds browser origins (scheme://host[:port]) allowed to make
// cross-origin requests; others get 403. An origin that is not of that
// form misconfigures the handler: see [NewHTTPHandler].
func TrustedOrigins(origins ...string) HTTPOption {
	return httpOption(func(c *httpConfig) { c.trustedOrigins = append(c.trustedOrigins, origins...) })
}

// SessionTimeout closes 2025-era sessions idle for d. Default 30 minutes;
// negative means never.
func SessionTimeout(d time.Duration) HTTPOption {
	return httpOption(func(c *httpConfig) { c.sessionTimeout = d })
}

// MaxSessions caps the 2025-era sessions kept at once. Opening one more
// closes another: the one idle longest, preferring one with no call in
// flight (a stream the client keeps open to listen is not activity); the
// calls of the one closed are cancelled and its client gets 404 and
// initializes again. Default 1024; negative means no cap.
func MaxSessions(n int) HTTPOption {
	return httpOption(func(c *httpConfig) { c.maxSessions = n })
}

// EventStore keeps the events of 2025-era streams, so that a client resumes
// a dropped stream with Last-Event-ID. Default: in memory, per handler.
// Replicas share one (adapters/redis).
func EventStore(s mcp.EventStore) HTTPOption {
	return httpOption(func(c *httpConfig) { c.eventStore = s })
}

// MaxRequestBodyBytes bounds a request body; a larger one gets 413.
// Default 4 MiB; negative means no bound.
func MaxRequestBodyBytes(n int64) HTTPOption {
	return httpOption(func(c *httpConfig) { c.maxRequestBodyBytes = n })
}

// MaxBodyBytesInFlight bounds the memory the request bodies being served
// take at once, across all requests: the bodies themselves and what
// decoding them costs. A sixteenth of n holds the bodies as their bytes
// arrive, never by the size they declare (a large body starts arriving
// when those arriving leave room for it, counting each at its declared size
// for its first half second, smallest first): clients that trickle large bodies
// hold only what they have sent, and cannot make other calls wait (a body
// of at most 64 KiB with a Content-Length is not counted, so small calls
// never queue behind large ones). The rest holds the bodies received, each
// counted at 32 times its size — what reading and decoding it costs, in
// go-sdk and in mcpgen, wherever its bulk sits — but never more than that
// part, so that any body fits alone, until its request is answered; the
// bodies received wait for it in the order they arrived. A body whose next
// bytes find no room waits for it up to a second at a time, and a body
// received waits its turn, within BodyReadTimeout; then it gets 503 with
// Retry-After.
// Default 32 × MaxRequestBodyBytes (128 MiB: 8 MiB of bodies arriving,
// and one body of the largest size decoded at a time, or three of a quarter
// of it; 128 MiB too when bodies are unbounded); negative means no bound.
func MaxBodyBytesInFlight(n int64) HTTPOption {
	return httpOption(func(c *httpConfig) { c.maxBodyBytesInFlight = n })
}

// BodyReadTimeout bounds how long a request body may take to arrive; a
// slower one gets 408. It is enforced with the connection's read deadline
// (http.ResponseController), so the http.Server needs no ReadTimeout, which
// would also end long calls and streams. Default 30 seconds; negative means
// none.
func BodyReadTimeout(d time.Duration) HTTPOption {
	return httpOption(func(c *httpConfig) { c.bodyReadTimeout = d })
}

// newHTTPConfig applies opts in order (a later option wins) and fills in
// the defaults.
func newHTTPConfig(opts []HTTPOption) httpConfig {
	var c httpConfig
	for _, o := range opts {
		if o != nil {
			o.applyHTTP(&c)
		}
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
		c.maxBodyBytesInFlight = decodeCost * c.maxRequestBodyBytes
		if c.maxRequestBodyBytes < 0 {
			c.maxBodyBytesInFlight = decodeCost * mcp.DefaultMaxRequestBodyBytes
		}
	}
	if c.bodyReadTimeout == 0 {
		c.bodyReadTimeout = 30 * time.Second
	}
	return c
}

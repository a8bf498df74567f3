package mcptool

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// With nil options, the handler takes the defaults docs/architecture.md
// lists; a zero field keeps them, a negative one turns the bound off.
func TestHTTPConfigDefaults(t *testing.T) {
	def := newHTTPConfig(nil)
	assert.False(t, def.stateless)
	assert.Empty(t, def.trustedOrigins)
	assert.Equal(t, 30*time.Minute, def.sessionTimeout)
	assert.Nil(t, def.logger)
	assert.EqualValues(t, 4<<20, def.maxRequestBodyBytes)
	assert.NotNil(t, def.eventStore)
	assert.Equal(t, 1024, def.maxSessions)
	assert.EqualValues(t, 128<<20, def.maxBodyBytesInFlight)
	assert.Equal(t, 30*time.Second, def.bodyReadTimeout)
	assert.Equal(t, wire.Limits{MaxValues: 50_000, MaxDepth: 1000}, def.bodyLimits)
	assert.Nil(t, def.auth)

	zero := newHTTPConfig(&HTTPOptions{})
	zero.eventStore = def.eventStore
	assert.Equal(t, def, zero)

	off := newHTTPConfig(&HTTPOptions{SessionTimeout: -1, MaxRequestBodyBytes: -1, MaxSessions: -1, BodyReadTimeout: -1, MaxBodyBytesInFlight: -1, MaxBodyValues: -1, MaxBodyDepth: -1})
	assert.Equal(t, wire.Limits{}, off.bodyLimits, "negative: no cap")
	assert.Zero(t, off.sessionTimeout, "negative: never")
	assert.Negative(t, off.maxRequestBodyBytes)
	assert.Negative(t, off.maxSessions)
	assert.Negative(t, off.bodyReadTimeout)
	assert.Negative(t, off.maxBodyBytesInFlight)
	unbounded := newHTTPConfig(&HTTPOptions{MaxRequestBodyBytes: -1})
	assert.EqualValues(t, 128<<20, unbounded.maxBodyBytesInFlight, "unbounded bodies: 32 × the default")
	assert.EqualValues(t, 32<<10, newHTTPConfig(&HTTPOptions{MaxRequestBodyBytes: 1 << 10}).maxBodyBytesInFlight)
}

// Every field reaches the handler's configuration as given; the
// configuration does not share the caller's TrustedOrigins slice.
func TestHTTPOptionsFields(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store := mcp.NewMemoryEventStore(nil)
	verify := func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return nil, auth.ErrInvalidToken
	}
	meta := &oauthex.ProtectedResourceMetadata{Resource: "https://mcp.example/mcp"}
	origins := []string{"https://a.example", "https://b.example"}
	c := newHTTPConfig(&HTTPOptions{
		Stateless: true, TrustedOrigins: origins,
		SessionTimeout: time.Minute, Logger: logger, MaxRequestBodyBytes: 1 << 20, EventStore: store,
		MaxSessions: 9, MaxBodyBytesInFlight: 3 << 20, BodyReadTimeout: time.Second,
		MaxBodyValues: 7, MaxBodyDepth: 5, TokenVerifier: verify, ResourceMetadata: meta,
	})
	if assert.NotNil(t, c.auth) {
		assert.NotNil(t, c.auth.verify)
		assert.Same(t, meta, c.auth.meta)
	}
	c.auth = nil
	assert.Equal(t, httpConfig{
		stateless: true, trustedOrigins: []string{"https://a.example", "https://b.example"},
		sessionTimeout: time.Minute, logger: logger, maxRequestBodyBytes: 1 << 20, eventStore: store,
		maxSessions: 9, maxBodyBytesInFlight: 3 << 20, bodyReadTimeout: time.Second,
		bodyLimits: wire.Limits{MaxValues: 7, MaxDepth: 5},
	}, c)
	origins[0] = "https://changed.example"
	assert.Equal(t, "https://a.example", c.trustedOrigins[0])

	// Either half of authorization alone still configures it, so that
	// Server.Handler reports the misconfiguration instead of serving open.
	assert.NotNil(t, newHTTPConfig(&HTTPOptions{ResourceMetadata: meta}).auth)
	assert.NotNil(t, newHTTPConfig(&HTTPOptions{TokenVerifier: verify}).auth)

	// Logger is a registry option; the handler's logger is its own field.
	var rc registryConfig
	Logger(logger).applyRegistry(&rc)
	assert.Same(t, logger, rc.logger)
}

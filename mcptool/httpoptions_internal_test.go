package mcptool

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
)

// With no options, the handler takes the defaults docs/architecture.md
// lists; a zero or absent option keeps them, a negative one turns the bound
// off.
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

	zero := newHTTPConfig([]HTTPOption{nil, SessionTimeout(0), MaxSessions(0), MaxRequestBodyBytes(0), BodyReadTimeout(0)})
	zero.eventStore = def.eventStore
	assert.Equal(t, def, zero)

	off := newHTTPConfig([]HTTPOption{SessionTimeout(-1), MaxRequestBodyBytes(-1), MaxSessions(-1), BodyReadTimeout(-1)})
	assert.Zero(t, off.sessionTimeout, "negative: never")
	assert.Negative(t, off.maxRequestBodyBytes)
	assert.Negative(t, off.maxSessions)
	assert.Negative(t, off.bodyReadTimeout)
	assert.EqualValues(t, 128<<20, off.maxBodyBytesInFlight, "unbounded bodies: 32 × the default")
	assert.EqualValues(t, 32<<10, newHTTPConfig([]HTTPOption{MaxRequestBodyBytes(1 << 10)}).maxBodyBytesInFlight)
}

// Options apply in order and the later wins; TrustedOrigins adds.
func TestHTTPOptionsOrder(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store := mcp.NewMemoryEventStore(nil)
	c := newHTTPConfig([]HTTPOption{
		Stateless(), TrustedOrigins("https://a.example"), TrustedOrigins("https://b.example"),
		SessionTimeout(time.Minute), Logger(logger), MaxRequestBodyBytes(1 << 20), EventStore(store),
		MaxSessions(9), MaxBodyBytesInFlight(3 << 20), BodyReadTimeout(time.Second),
	})
	assert.Equal(t, httpConfig{
		stateless: true, trustedOrigins: []string{"https://a.example", "https://b.example"},
		sessionTimeout: time.Minute, logger: logger, maxRequestBodyBytes: 1 << 20, eventStore: store,
		maxSessions: 9, maxBodyBytesInFlight: 3 << 20, bodyReadTimeout: time.Second,
	}, c)

	later := newHTTPConfig([]HTTPOption{MaxSessions(5), Stateless(), MaxSessions(6), MaxSessions(7)})
	assert.Equal(t, 7, later.maxSessions, "the later option wins")
	assert.True(t, later.stateless)

	// Logger is one option for the registry and the handler.
	var rc registryConfig
	Logger(logger).applyRegistry(&rc)
	assert.Same(t, logger, rc.logger)
	assert.Same(t, logger, newHTTPConfig([]HTTPOption{Logger(logger)}).logger)
}

package mcpproto

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The defaults are those Limits' doc comment states, and WithLimits
// replaces only the fields it sets.
func TestDefaultLimits(t *testing.T) {
	assert.Equal(t, Limits{Timeout: 30 * time.Second, MaxResponseBytes: 4 << 20, MaxResponseValues: 100_000, MaxInFlight: 32}, defaultLimits)
	cfg := frontConfig{limits: defaultLimits}
	WithLimits(Limits{Timeout: time.Second, MaxInFlight: -1})(&cfg)
	assert.Equal(t, Limits{Timeout: time.Second, MaxResponseBytes: 4 << 20, MaxResponseValues: 100_000, MaxInFlight: -1}, cfg.limits)
	assert.Nil(t, newFrontCalls(cfg.limits).slots, "a negative cap is none")
}

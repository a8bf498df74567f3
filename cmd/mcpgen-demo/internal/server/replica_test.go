package server

import (
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
	"github.com/stretchr/testify/require"
)

// -redis makes the demo a replica: its registry takes the shared state key
// from Redis; a Redis that cannot be reached is a startup error.
func TestRedisFlag(t *testing.T) {
	_, err := newApp(config{features: full(), toolset: "conformance", redisURL: "redis://127.0.0.1:1/0"}, discardLogger())
	require.Error(t, err, "an unreachable Redis must fail the start")
	port := startRedis(t)

	cfg := config{features: full(), toolset: "conformance", redisURL: "redis://127.0.0.1:" + port + "/0"}
	a, err := newApp(cfg, discardLogger())
	require.NoError(t, err)
	b, err := newApp(cfg, discardLogger())
	require.NoError(t, err)
	require.NotNil(t, a.cluster)
	assert.Equal(t, a.cluster.(*mcpredis.Cluster).StateKey(), b.cluster.(*mcpredis.Cluster).StateKey(), "replicas share one requestState key")
	require.NoError(t, a.close())
	require.NoError(t, b.close())
}

// startRedis starts a redis-server of the test's own on a loopback port and
// returns the port. Without redis-server the test is skipped, or fails when
// MCPGEN_REQUIRE_REDIS is set (.ci/run sets it once it has installed one).
func startRedis(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("MCPGEN_REQUIRE_REDIS") != "" {
			t.Fatal("redis-server is not installed, and MCPGEN_REQUIRE_REDIS is set")
		}
		t.Skip("redis-server is not installed; .ci/run installs it, then runs this test")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	cmd := exec.Command("redis-server", "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "yes", "--dir", t.TempDir())
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	require.Eventually(t, func() bool {
		c, err := net.Dial("tcp", "127.0.0.1:"+port)
		if err == nil {
			c.Close()
		}
		return err == nil
	}, 5*time.Second, 20*time.Millisecond)
	return port
}

package mcpredis_test

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
)

// redisServer is a redis-server of the test's own, on a loopback port,
// with its append-only file on (as Open requires), unless volatile.
type redisServer struct {
	Addr     string
	cmd      *exec.Cmd
	port     int
	dir      string
	volatile bool // no persistence at all
}

// startRedis starts a redis-server, or skips the test when there is none
// (CI installs it; see .ci/run).
func startRedis(t testing.TB) *redisServer {
	t.Helper()
	return startRedisWith(t, false)
}

// startRedisWith starts a redis-server without any persistence when
// volatile.
func startRedisWith(t testing.TB, volatile bool) *redisServer {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("MCPGEN_REQUIRE_REDIS") != "" {
			t.Fatal("redis-server is not installed, and MCPGEN_REQUIRE_REDIS is set")
		}
		t.Skip("redis-server is not installed (apt-get install redis-server); CI installs it")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	s := &redisServer{Addr: "127.0.0.1:" + strconv.Itoa(port), port: port, dir: t.TempDir(), volatile: volatile}
	s.start(t)
	t.Cleanup(s.stop)
	return s
}

func (s *redisServer) start(t testing.TB) {
	t.Helper()
	persist := []string{"--appendonly", "yes", "--appendfsync", "everysec"}
	if s.volatile {
		persist = []string{"--appendonly", "no"}
	}
	s.cmd = exec.Command("redis-server", append([]string{"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--dir", s.dir}, persist...)...)
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", s.Addr); err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("redis-server did not listen on %s", s.Addr)
}

func (s *redisServer) stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
		s.cmd = nil
	}
}

func (s *redisServer) URL() string { return "redis://" + s.Addr + "/0" }

// open returns a Cluster on s, closed at the end of the test.
func open(t testing.TB, s *redisServer, o *mcpredis.Options) *mcpredis.Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if s.volatile { // a test of what a restart of an empty Redis does
		var oo mcpredis.Options
		if o != nil {
			oo = *o
		}
		oo.AllowVolatileTasks = true
		oo.Logger = slog.New(slog.DiscardHandler)
		o = &oo
	}
	c, err := mcpredis.Open(ctx, s.URL(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestMain(m *testing.M) {
	if os.Getenv(mcpredis.EnvStateKey) != "" || os.Getenv(mcpredis.EnvStateKeyFile) != "" {
		fmt.Fprintln(os.Stderr, "tests unset", mcpredis.EnvStateKey, "and", mcpredis.EnvStateKeyFile)
		os.Unsetenv(mcpredis.EnvStateKey)
		os.Unsetenv(mcpredis.EnvStateKeyFile)
	}
	os.Exit(m.Run())
}

func resultText(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

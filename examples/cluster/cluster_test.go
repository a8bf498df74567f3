// Package cluster_test starts a real cluster on loopback — redis-server,
// three mcpgen-demo replicas sharing it, HAProxy in front with
// haproxy.cfg — and checks that mcpgen's promises hold across replicas.
// Without redis-server or haproxy the tests skip (CI installs both; set
// MCPGEN_REQUIRE_CLUSTER=1 to make their absence a failure).
package cluster_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// demoBin is the mcpgen-demo binary TestMain builds.
var demoBin string

func TestMain(m *testing.M) {
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "mcpgen-cluster")
		if err != nil {
			panic(err)
		}
		defer os.RemoveAll(dir)
		demoBin = filepath.Join(dir, "mcpgen-demo")
		build := exec.Command("go", "build", "-o", demoBin, ".")
		build.Dir = filepath.Join("..", "..", "cmd", "mcpgen-demo", "full") // with -redis, -auth-issuer and the issuer
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "building mcpgen-demo:", err)
			return 1
		}
		return m.Run()
	}())
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// cluster is redis-server, three replicas and HAProxy, on loopback.
type cluster struct {
	t         testing.TB
	dir       string
	redisPort int
	redis     *exec.Cmd
	replicas  [3]*exec.Cmd
	ports     [3]int
	lbAddr    string
	toolset   string
	issuer    string // the loopback OAuth issuer's URL (auth.go)
	token     string // an access token of it for the cluster, with every scope
}

// startCluster starts a cluster serving the toolset (with the replicas'
// extra flags), and stops it at the end of the test.
func startCluster(t testing.TB, toolset string, flags ...string) *cluster {
	t.Helper()
	for _, p := range []string{"redis-server", "haproxy"} {
		if _, err := exec.LookPath(p); err != nil {
			if os.Getenv("MCPGEN_REQUIRE_CLUSTER") != "" {
				t.Fatalf("%s is not installed, and MCPGEN_REQUIRE_CLUSTER is set", p)
			}
			t.Skipf("%s is not installed (apt-get install redis-server haproxy); CI installs it", p)
		}
	}
	c := &cluster{t: t, dir: t.TempDir(), toolset: toolset, redisPort: freePort(t)}
	t.Cleanup(c.stop)
	c.startRedis()
	c.lbAddr = "127.0.0.1:" + strconv.Itoa(freePort(t))
	c.startIssuer()
	key := "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE=" // 32 bytes: one key for every replica
	for i := range c.replicas {
		c.ports[i] = freePort(t)
		cmd := exec.Command(demoBin, "-http", "127.0.0.1:"+strconv.Itoa(c.ports[i]), "-toolset", toolset,
			"-redis", c.redisURL(), "-data", filepath.Join(c.dir, "data"+strconv.Itoa(i)))
		cmd.Args = append(append(cmd.Args, c.authFlags()...), flags...)
		cmd.Env = append(os.Environ(), "MCPGEN_STATE_KEY="+key)
		c.logTo(cmd, fmt.Sprintf("replica%d.log", i+1))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		c.replicas[i] = cmd
	}
	lb := exec.Command("haproxy", "-f", "haproxy.cfg", "-db")
	lb.Env = append(os.Environ(), "MCPGEN_LB_ADDR="+c.lbAddr)
	for i, p := range c.ports {
		lb.Env = append(lb.Env, fmt.Sprintf("MCPGEN_REPLICA%d=127.0.0.1:%d", i+1, p))
	}
	c.logTo(lb, "haproxy.log")
	if err := lb.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = lb.Process.Kill(); _ = lb.Wait() })
	// Up when every replica answers its health check through HAProxy.
	served := map[string]bool{}
	deadline := time.Now().Add(20 * time.Second)
	for len(served) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("the cluster did not come up within 20s; replicas seen: %v (logs in %s)", served, c.dir)
		}
		if res, err := http.Get("http://" + c.lbAddr + "/healthz"); err == nil {
			if res.StatusCode == 200 {
				served[res.Header.Get("X-Served-By")] = true
			}
			res.Body.Close()
		}
		time.Sleep(50 * time.Millisecond)
	}
	return c
}

func (c *cluster) logTo(cmd *exec.Cmd, name string) {
	f, err := os.Create(filepath.Join(c.dir, name))
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { f.Close() })
	cmd.Stdout, cmd.Stderr = f, f
}

func (c *cluster) redisURL() string { return "redis://127.0.0.1:" + strconv.Itoa(c.redisPort) + "/0" }

func (c *cluster) startRedis() {
	c.redis = exec.Command("redis-server", "--port", strconv.Itoa(c.redisPort), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "yes", "--appendfsync", "everysec", "--dir", c.dir)
	c.logTo(c.redis, "redis.log")
	if err := c.redis.Start(); err != nil {
		c.t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(c.redisPort)); err == nil {
			conn.Close()
			return
		}
	}
	c.t.Fatal("redis-server did not start")
}

func (c *cluster) stopRedis() {
	if c.redis != nil {
		_ = c.redis.Process.Kill()
		_ = c.redis.Wait()
		c.redis = nil
	}
}

// kill SIGKILLs replica i (0-based).
func (c *cluster) kill(i int) {
	if r := c.replicas[i]; r != nil {
		_ = r.Process.Signal(syscall.SIGKILL)
		_ = r.Wait()
		c.replicas[i] = nil
	}
}

func (c *cluster) stop() {
	for i := range c.replicas {
		c.kill(i)
	}
	c.stopRedis()
}

func (c *cluster) url() string { return "http://" + c.lbAddr + "/mcp" }

// servedBy counts the replicas (HAProxy's X-Served-By) that answered.
type servedBy struct {
	mu   sync.Mutex
	n    map[string]int
	last string
}

func (s *servedBy) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := http.DefaultTransport.RoundTrip(r)
	if err == nil {
		s.mu.Lock()
		if s.n == nil {
			s.n = map[string]int{}
		}
		s.last = res.Header.Get("X-Served-By")
		s.n[s.last]++
		s.mu.Unlock()
	}
	return res, err
}

func (s *servedBy) counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.n {
		out[k] = v
	}
	return out
}

func (s *servedBy) lastServer() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// connect opens a go-sdk client session through the load balancer, in the
// protocol version given ("" is the client's newest, 2026-07-28).
func (c *cluster) connect(t testing.TB, version string, sb *servedBy, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "cluster-test", Version: "1.0.0"}, copts)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: c.url(), HTTPClient: c.httpClient(sb)},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect through the load balancer: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// httpClient returns a client that sends the cluster's token and counts
// the replicas answering in sb (nil: counts nothing).
func (c *cluster) httpClient(sb *servedBy) *http.Client {
	var next http.RoundTripper = http.DefaultTransport
	if sb != nil {
		next = sb
	}
	return &http.Client{Transport: bearer{c.token, next}}
}

func text(res *mcp.CallToolResult) string {
	if res == nil || len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return fmt.Sprintf("%T", res.Content[0])
}

// redisCLI runs redis-cli against the cluster's Redis.
func redisCLI(c *cluster, args ...string) (string, error) {
	out, err := exec.Command("redis-cli", append([]string{"-p", strconv.Itoa(c.redisPort)}, args...)...).CombinedOutput()
	return string(out), err
}

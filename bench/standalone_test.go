package bench

// BenchmarkStandalone: requests per second of two minimal servers, each
// its own process (internal/standalone/mcpgen and internal/standalone/gosdk),
// under the same bounded load on loopback: a bare client (net/http, no MCP
// library) keeps standaloneConcurrency tools/call requests of protocol
// 2026-07-28 in flight until b.N have been answered.
//
//	stack=mcpgen  mcptool.Add + Registry.Server + Server.Handler
//	stack=gosdk   mcp.AddTool + mcp.NewStreamableHTTPHandler (Stateless)
//
// ns/op is wall time per request (1e9 / requests per second); req/s is the
// same as a rate. server-cpu-ns/op is the CPU time the server process used
// per request (Linux /proc; 10 ms ticks), which depends less on what else
// runs on the machine than the rate does. B/op and allocs/op are the client's, not the server's.
// startheap-B and startheap-objs are the server's live heap after a full GC
// once it is ready to serve: what its dependencies' package setup and its
// own registration leave behind, which the garbage collector re-marks in
// every cycle.
//
// The binaries are built once per process by `go build` (run.sh builds them
// beforehand and names their directory in STANDALONE_BIN).

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// standaloneConcurrency is the number of requests in flight.
const standaloneConcurrency = 8

var standaloneStacks = []string{"mcpgen", "gosdk"}

var (
	standaloneOnce sync.Once
	standaloneDir  string
	standaloneErr  error
)

// standaloneBin returns the path of a stack's server binary, building both
// the first time.
func standaloneBin(tb testing.TB, stack string) string {
	tb.Helper()
	standaloneOnce.Do(func() {
		if dir := os.Getenv("STANDALONE_BIN"); dir != "" {
			standaloneDir = dir
			return
		}
		standaloneDir, standaloneErr = os.MkdirTemp("", "standalone")
		if standaloneErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", standaloneDir+string(os.PathSeparator), "./internal/standalone/mcpgen", "./internal/standalone/gosdk")
		if out, err := cmd.CombinedOutput(); err != nil {
			standaloneErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if standaloneErr != nil {
		tb.Fatal(standaloneErr)
	}
	return filepath.Join(standaloneDir, stack)
}

// standaloneServer is one running server process.
type standaloneServer struct {
	url        string
	pid        int
	heap, objs float64
}

// startStandalone runs a stack's server until the test ends.
func startStandalone(tb testing.TB, stack string) standaloneServer {
	tb.Helper()
	cmd := exec.Command(standaloneBin(tb, stack))
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- l
	}()
	var l string
	select {
	case l = <-line:
	case <-time.After(30 * time.Second):
		tb.Fatalf("%s: no ready line within 30s", stack)
	}
	f := strings.Fields(l)
	if len(f) != 3 {
		tb.Fatalf("%s: ready line %q", stack, l)
	}
	s := standaloneServer{url: "http://" + f[0] + "/", pid: cmd.Process.Pid}
	s.heap, _ = strconv.ParseFloat(f[1], 64)
	s.objs, _ = strconv.ParseFloat(f[2], 64)
	return s
}

const standaloneCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo",` +
	`"arguments":{"text":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"bench-client","version":"1.0.0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{}}}}`

// cpuTime returns the CPU time (user + system) the process has used so far,
// from /proc (Linux), or false where there is none. Its unit is the clock
// tick, 10 ms: over a benchmark of a few thousand requests that is fine
// enough.
func cpuTime(pid int) (time.Duration, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The fields after the command name, which is in parentheses.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, true
}

// standaloneWant is the result both servers send (after "data: ").
const standaloneWant = `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":` +
	`{"name":"standalone","version":"1"}},"content":[{"type":"text","text":"{\"text\":\"hello\"}"}],` +
	`"structuredContent":{"text":"hello"},"resultType":"complete"}}`

func standaloneClient() *http.Client {
	return &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: standaloneConcurrency, MaxConnsPerHost: standaloneConcurrency},
	}
}

// standalonePost sends one tools/call and returns the JSON-RPC response.
func standalonePost(c *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(standaloneCall))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "echo")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", resp.Status, data)
	}
	if i := bytes.Index(data, []byte("data: ")); i >= 0 {
		data, _, _ = bytes.Cut(data[i+len("data: "):], []byte("\n"))
	}
	return data, nil
}

// standaloneHeapBound is what the mcpgen server may keep live after start-up:
// 1,051 KiB measured at issue 29 (go-sdk's server: 255 KiB), almost all of
// it validator/v10's and santhosh-tekuri/jsonschema's package setup (see
// README.md, "This round"), plus a margin. Exceeding it means something now
// builds at package setup or registration what it could build lazily.
const standaloneHeapBound = 1280 << 10

// TestStandalone checks that both servers answer the benchmark's call with
// the same bytes, under the benchmark's concurrency, and that the mcpgen
// server's start-up heap stays within standaloneHeapBound (what package
// setup of the core's dependencies leaves is the cost this row is about).
func TestStandalone(t *testing.T) {
	for _, stack := range standaloneStacks {
		t.Run(stack, func(t *testing.T) {
			s := startStandalone(t, stack)
			c := standaloneClient()
			var wg sync.WaitGroup
			errs := make(chan error, standaloneConcurrency)
			for range standaloneConcurrency {
				wg.Go(func() {
					for range 5 {
						got, err := standalonePost(c, s.url)
						if err == nil && string(got) != standaloneWant {
							err = fmt.Errorf("got %s, want %s", got, standaloneWant)
						}
						if err != nil {
							errs <- err
							return
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			t.Logf("start-up heap: %.0f bytes, %.0f objects", s.heap, s.objs)
			if stack == "mcpgen" && s.heap > standaloneHeapBound {
				t.Errorf("the mcpgen server keeps %.0f bytes live after start-up, over %d", s.heap, standaloneHeapBound)
			}
		})
	}
}

func BenchmarkStandalone(b *testing.B) {
	for _, stack := range standaloneStacks {
		b.Run("stack="+stack, func(b *testing.B) {
			s := startStandalone(b, stack)
			c := standaloneClient()
			// Warm the connections and the server.
			for range 2 * standaloneConcurrency {
				if _, err := standalonePost(c, s.url); err != nil {
					b.Fatal(err)
				}
			}
			var left atomic.Int64
			left.Store(int64(b.N))
			var failed atomic.Pointer[error]
			var wg sync.WaitGroup
			b.ReportAllocs()
			cpu0, cpuOK := cpuTime(s.pid)
			b.ResetTimer()
			start := time.Now()
			for range standaloneConcurrency {
				wg.Go(func() {
					for left.Add(-1) >= 0 {
						got, err := standalonePost(c, s.url)
						if err == nil && !bytes.Equal(got, []byte(standaloneWant)) {
							err = fmt.Errorf("got %s", got)
						}
						if err != nil {
							failed.CompareAndSwap(nil, &err)
							return
						}
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			if err := failed.Load(); err != nil {
				b.Fatal(*err)
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
			if cpu1, ok := cpuTime(s.pid); ok && cpuOK {
				b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "server-cpu-ns/op")
			}
			b.ReportMetric(s.heap, "startheap-B")
			b.ReportMetric(s.objs, "startheap-objs")
		})
	}
}

package cluster_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMeasure prints the figures of docs/deploy.md: throughput and p50/p99
// latency of 2026-07-28 calls to one replica directly, and to three
// replicas behind HAProxy, in one run on one machine. It runs only with
// MCPGEN_MEASURE=1 (it is a measurement, not a check):
//
//	cd examples/cluster && MCPGEN_MEASURE=1 go test -run Measure -v
func TestMeasure(t *testing.T) {
	if os.Getenv("MCPGEN_MEASURE") == "" {
		t.Skip("a measurement: set MCPGEN_MEASURE=1")
	}
	// The three replicas share this machine's cores, so each gets its share
	// (GOMAXPROCS), as a container's CPU limit gives it (docs/deploy.md);
	// the direct replica, started alone, has the whole machine.
	t.Setenv("GOMAXPROCS", strconv.Itoa(max(1, runtime.NumCPU()/3)))
	c := startCluster(t, "conformance")
	direct := c.startSolo(t)
	const clients, dur = 16, 5 * time.Second
	// Alternate, so that background load on the machine hits both alike.
	for round := 1; round <= 3; round++ {
		for _, target := range []struct{ name, url string }{{"1 replica, direct", direct}, {"3 replicas, HAProxy", c.url()}} {
			n, p50, p99 := measure(t, c.httpClient(nil), target.url, clients, dur)
			t.Logf("round %d  %-20s %6.0f calls/s  p50 %6.2f ms  p99 %6.2f ms", round, target.name,
				float64(n)/dur.Seconds(), ms(p50), ms(p99))
		}
	}
}

// startSolo starts one more replica, outside the load balancer and with the
// environment the test started with (no GOMAXPROCS of the cluster's), and
// returns its endpoint.
func (c *cluster) startSolo(t *testing.T) string {
	port := freePort(t)
	cmd := exec.Command(demoBin, "-http", "127.0.0.1:"+strconv.Itoa(port), "-toolset", c.toolset,
		"-redis", c.redisURL(), "-data", filepath.Join(c.dir, "data-solo"))
	cmd.Args = append(cmd.Args, c.authFlags()...) // tokens for the cluster's audience work here too
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GOMAXPROCS=") })
	c.logTo(cmd, "solo.log")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/healthz", port))
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the solo replica did not come up within 20s (log in %s)", c.dir)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// measure runs clients go-sdk clients calling test_simple_text for dur and
// returns the calls made and their latency percentiles.
func measure(t *testing.T, hc *http.Client, url string, clients int, dur time.Duration) (int, time.Duration, time.Duration) {
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), dur)
	defer cancel()
	for range clients {
		client := mcp.NewClient(&mcp.Implementation{Name: "measure", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer cs.Close()
			var mine []time.Duration
			for ctx.Err() == nil {
				start := time.Now()
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_simple_text"})
				if ctx.Err() != nil {
					break
				}
				if err != nil || res.IsError {
					t.Errorf("call: %v", err)
					return
				}
				mine = append(mine, time.Since(start))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	slices.Sort(lat)
	if len(lat) == 0 {
		t.Fatal("no calls")
	}
	return len(lat), lat[len(lat)/2], lat[len(lat)*99/100]
}

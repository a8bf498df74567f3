package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mcpgen/mcpgen/bench/internal/standalone"
)

// call is the stateless wire's request: a 2026-07-28 tools/call, its
// protocol revision and client in _meta.
const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"calculate_sum",` +
	`"arguments":{"a":1,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
	`"io.modelcontextprotocol/clientInfo":{"name":"series","version":"1.0.0"},` +
	`"io.modelcontextprotocol/clientCapabilities":{}}}}`

// want is in every answer, on every wire.
const want = `"structuredContent":{"sum":3}`

// httpServer is a running HTTP server process.
type httpServer struct {
	cmd *exec.Cmd
	url string
}

// startHTTP starts the server bin serving wire and waits for its ready
// line (standalone.Ready).
func startHTTP(bin, wire string) (*httpServer, error) {
	cmd := exec.Command(bin, "-wire", wire)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("no ready line: %v", err)
	}
	return &httpServer{cmd: cmd, url: "http://" + strings.Fields(line)[0] + "/"}, nil
}

func (s *httpServer) stop() { end(s.cmd) }

// end ends the server process cmd: killed, or, when the servers profile
// themselves (standalone.ProfileEnv), stopped by SIGTERM so that they
// write their profiles.
func end(cmd *exec.Cmd) {
	if os.Getenv(standalone.ProfileEnv) != "" {
		_ = cmd.Process.Signal(syscall.SIGTERM)
	} else {
		_ = cmd.Process.Kill()
	}
	_ = cmd.Wait()
}

// httpClient keeps c connections to the server.
func httpClient(c int) *http.Client {
	return &http.Client{
		Timeout:   10 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: c, MaxConnsPerHost: c},
	}
}

// measureStateless starts the server bin, loads it with c workers for d,
// and stops it.
func measureStateless(bin string, c int, d time.Duration) (result, error) {
	srv, err := startHTTP(bin, "stateless")
	if err != nil {
		return result{}, err
	}
	defer srv.stop()
	client := httpClient(c)
	defer client.CloseIdleConnections()
	return closedLoop(srv.cmd.Process.Pid, c, d, func(int) func() error {
		return func() error { _, err := post(client, srv.url); return err }
	})
}

// closedLoop warms the server with 20 requests per worker, then has c
// workers each send a request and wait for its answer, again and again,
// for d, and measures. worker(w) is worker w's request.
func closedLoop(pid, c int, d time.Duration, worker func(w int) func() error) (result, error) {
	reqs := make([]func() error, c)
	for w := range c {
		reqs[w] = worker(w)
	}
	var wg sync.WaitGroup
	errs := make([]error, c)
	for w := range c {
		wg.Go(func() {
			for range 20 {
				if err := reqs[w](); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return result{}, err
	}
	cpu0, err := cpuTime(pid)
	if err != nil {
		return result{}, err
	}
	lat := make([][]time.Duration, c)
	start := time.Now()
	end := start.Add(d)
	for w := range c {
		wg.Go(func() {
			for time.Now().Before(end) {
				t := time.Now()
				if err := reqs[w](); err != nil {
					errs[w] = err
					return
				}
				lat[w] = append(lat[w], time.Since(t))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu1, err := cpuTime(pid)
	if err != nil {
		return result{}, err
	}
	if err := errors.Join(errs...); err != nil {
		return result{}, err
	}
	return summarize(slices.Concat(lat...), elapsed, cpu1-cpu0)
}

// summarize is the result of the answered requests' latencies lat over
// elapsed, with cpu the server's CPU time meanwhile.
func summarize(lat []time.Duration, elapsed, cpu time.Duration) (result, error) {
	if len(lat) == 0 {
		return result{}, errors.New("no request answered")
	}
	slices.Sort(lat)
	return result{
		rate: float64(len(lat)) / elapsed.Seconds(),
		p50:  lat[len(lat)/2],
		p99:  lat[len(lat)*99/100],
		cpu:  float64(cpu) / float64(time.Microsecond) / float64(len(lat)),
	}, nil
}

// post sends the call and checks the answer.
func post(c *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(call))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "calculate_sum")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(data, []byte(want)) {
		return nil, fmt.Errorf("%s: %s", resp.Status, data)
	}
	return data, nil
}

package server

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// httpDemo runs the built demo with -http on a free loopback port and
// returns its endpoint and process.
func httpDemo(t *testing.T, bin string, args ...string) (url string, proc *os.Process) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-http", "127.0.0.1:0", "-data", filepath.Join(t.TempDir(), "data")}, args...)...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	found := make(chan string, 1)
	go func() {
		re := regexp.MustCompile(`url=(http://\S+)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case url = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("the demo did not report its URL within 30s")
	}
	return url, cmd.Process
}

// peakRSS returns the process's peak resident set size in bytes (VmHWM).
func peakRSS(t *testing.T, p *os.Process) int64 {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.Pid))
	if err != nil {
		t.Skip("no /proc: ", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Skip("no VmHWM in /proc status")
	return 0
}

// TestHTTPTrickledBody: the demo cuts off a body trickled at 1 byte per
// 500 ms after -body-timeout with 408, instead of holding the connection
// and its goroutine as long as the client likes.
func TestHTTPTrickledBody(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo binary")
	}
	url, _ := httpDemo(t, buildDemo(t), "-body-timeout", "1s")
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	conn, err := net.Dial("tcp", host)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n", host)
	require.NoError(t, err)
	start := time.Now()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Millisecond):
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	})
	defer func() { close(stop); wg.Wait() }()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(10*time.Second)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "no answer within 10s")
	_ = resp.Body.Close()
	t.Logf("trickled body cut off after %v with %d", time.Since(start), resp.StatusCode)
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode)
	assert.Less(t, time.Since(start), 3*time.Second)
}

// TestHTTPLargeBodies measures the demo's peak RSS while 32 clients post
// bodies just under the 4 MiB limit at once; the handler's default
// MaxBodyBytesInFlight (128 MiB) counts each at what decoding it costs
// (32 times its size), so they are decoded one at a time, and the bodies
// that find no room in time are refused with 503.
func TestHTTPLargeBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the demo binary and sends 128 MiB")
	}
	url, proc := httpDemo(t, buildDemo(t))
	before := peakRSS(t, proc)
	const clients = 32
	const pad = 4<<20 - 1024
	var wg sync.WaitGroup
	codes := make(chan int, clients)
	for i := range clients {
		body := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}},"name":"calculate_sum","arguments":{"a":1,"b":2,"pad":"%s"}}}`, i, strings.Repeat("x", pad)))
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
			if err != nil {
				codes <- 0
				return
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", "calculate_sum")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				codes <- 0
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			codes <- resp.StatusCode
		})
	}
	wg.Wait()
	close(codes)
	byCode := map[int]int{}
	for c := range codes {
		byCode[c]++
	}
	after := peakRSS(t, proc)
	t.Logf("peak RSS %d MiB before, %d MiB after %d concurrent %d-byte bodies; statuses %v", before>>20, after>>20, clients, pad, byCode)
	assert.Equal(t, clients, byCode[http.StatusOK]+byCode[http.StatusServiceUnavailable], "every request answered, or refused as busy")
	assert.Less(t, after, int64(320<<20), "peak RSS (644 MiB before the bound)")
}

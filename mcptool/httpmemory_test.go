package mcptool_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	jsonwire "github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// The defaults of HTTPOptions.MaxBodyValues and MaxBodyDepth, which
// TestHTTPBodyCaps pins.
const defaultMaxBodyValues, defaultMaxBodyDepth = 50_000, 1000

// TestHTTPBodiesMemory: with Server.Handler's defaults, in a server
// process of its own (testdata/memserver), one request body of each shape
// (bulkShapes), as large as the defaults admit (4 MiB, MaxBodyValues,
// MaxBodyDepth), grows the peak RSS (VmHWM) by at most 48 MiB, and 48 of
// them sent at once by at most 256 MiB, wherever the bulk sits
// (arguments, _meta, an unknown params member), statelessly and in a
// 2025-11-25 session. The bound is MaxBodyBytesInFlight charging each body
// at what decoding it costs, counted by its structure. Each body is served
// or refused with 503 (under the burst, those that find no room in time;
// the server's BodyReadTimeout is 2s, to bound each burst's time).
// The peak is reset (/proc/PID/clear_refs) and the heap's free memory
// returned to the system before each measure.
func TestHTTPBodiesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process and sends it some GiB")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/PID/status")
	}
	bin := filepath.Join(t.TempDir(), "memserver")
	// Built apart, without -race: the server's memory is what is measured.
	out, err := exec.Command("go", "build", "-o", bin, "./testdata/memserver").CombinedOutput()
	require.NoError(t, err, "%s", out)
	const clients, size = 48, 4<<20 - 4<<10 // under MaxRequestBodyBytes
	url, pid := startMemoryServer(t, bin, "-body-timeout", "2s")
	measure := func(t *testing.T, session string, body []byte, n int) (growth int64, codes map[int]int) {
		resp, err := http.Get(url + "/free")
		require.NoError(t, err)
		_ = resp.Body.Close()
		require.NoError(t, os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0))
		before := procStatus(t, pid, "VmHWM:")
		codes = map[int]int{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				code, answer := memoryPost(t, url, session, body)
				if code == 0 {
					t.Logf("no answer: %s", answer)
				}
				mu.Lock()
				codes[code]++
				mu.Unlock()
			})
		}
		wg.Wait()
		return procStatus(t, pid, "VmHWM:") - before, codes
	}
	served := 0 // bodies answered 200 under the burst, in all cases
	for _, era := range []string{"2026-07-28", "2025-11-25"} {
		session := ""
		if era == "2025-11-25" {
			session = openMemorySession(t, url)
		}
		for _, p := range bulkPlacements {
			for _, shape := range bulkShapes {
				name := fmt.Sprintf("%s/%s in %s", era, shape.name, p.name)
				t.Run(name, func(t *testing.T) {
					body := admitted(t, shape, size, func(bulk string) string {
						if era == "2025-11-25" {
							return sessionCall(p.call(bulk))
						}
						return p.call(bulk)
					})
					start := time.Now()
					one, codes := measure(t, session, body, 1)
					require.Equal(t, map[int]int{http.StatusOK: 1}, codes)
					many, codes := measure(t, session, body, clients)
					t.Logf("%s: a body of %d KiB: peak RSS +%d MiB; %d at once: +%d MiB, answers %v (%v)",
						name, len(body)>>10, one>>20, clients, many>>20, codes, time.Since(start).Round(time.Millisecond))
					assert.LessOrEqual(t, one, int64(48<<20), "peak RSS growth for one body")
					assert.LessOrEqual(t, many, int64(256<<20), "peak RSS growth for %d bodies", clients)
					// A body refused before it was read closes its
					// connection: on a busy machine the close can reach the
					// client before the 503 it has not read yet (cutOff).
					// The server's BodyReadTimeout is 2s here, so a body
					// still arriving then gets 408 (or 400, when net/http
					// reports the connection cut at the deadline as an
					// unexpected EOF).
					assert.Equal(t, clients, codes[http.StatusOK]+codes[http.StatusServiceUnavailable]+codes[cutOff]+
						codes[http.StatusRequestTimeout]+codes[http.StatusBadRequest],
						"each is served or refused: %v", codes)
					served += codes[http.StatusOK]
				})
			}
		}
	}
	assert.Positive(t, served, "bodies served under the bursts")
}

// admitted is the tools/call that call makes of shape's bulk, as large as
// Server.Handler's defaults admit: at most size bytes, MaxBodyValues
// values and MaxBodyDepth levels.
func admitted(t *testing.T, shape bulkShape, size int, call func(bulk string) string) []byte {
	t.Helper()
	n := size - len(call(`""`))
	for {
		body := []byte(call(shape.make(n)))
		b, err := jsonwire.Scan(body, jsonwire.Limits{})
		require.NoError(t, err)
		require.LessOrEqual(t, b.Cost.MaxDepth, defaultMaxBodyDepth, "%s: too deep", shape.name)
		if b.Cost.Values <= defaultMaxBodyValues {
			return body
		}
		n = n * defaultMaxBodyValues / b.Cost.Values * 99 / 100
	}
}

// openMemorySession initializes a 2025-11-25 session on url and returns its
// id.
func openMemorySession(t *testing.T, url string) string {
	t.Helper()
	resp, err := rawPost(context.Background(), url, "", []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	id := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, id)
	code, answer := memoryPost(t, url, id, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	require.Equal(t, http.StatusAccepted, code, answer)
	return id
}

// startMemoryServer starts testdata/memserver, built as bin, and returns
// its URL and process ID; it stops when the test ends.
func startMemoryServer(t *testing.T, bin string, args ...string) (url string, pid int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = stdin.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "ADDR "); ok {
				found <- a
			}
		}
	}()
	select {
	case url = <-found:
	case <-time.After(30 * time.Second):
		t.Fatal("the server process did not start within 30s")
	}
	return url, cmd.Process.Pid
}

// cutOff is memoryPost's code for a request whose connection the server
// closed before the client read an answer.
const cutOff = -1

// memoryPost sends body, a 2026-07-28 tools/call, or a request of session
// when not "", and returns the status code and the answer: code 0 and the
// error when there is none, cutOff when the server closed the connection
// first.
func memoryPost(t *testing.T, url, session string, body []byte) (int, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	} else {
		req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "size")
	}
	resp, err := http.DefaultClient.Do(req)
	if errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return cutOff, err.Error()
	}
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err.Error()
	}
	return resp.StatusCode, string(b)
}

// procStatus is a field of process pid's /proc status, in bytes.
func procStatus(t *testing.T, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

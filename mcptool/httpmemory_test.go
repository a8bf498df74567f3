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
)

// TestHTTPBodiesMemory: 64 clients each send a ~4 MiB tools/call at once,
// over loopback, to a server with NewHTTPHandler's defaults, in a process
// of its own (testdata/memserver); its peak RSS (VmHWM) grows by less than 256 MiB wherever the
// bulk of the body sits. NewHTTPHandler hands go-sdk every body as it came:
// the bound is MaxBodyBytesInFlight counting each body at what decoding it
// costs. Each body is served or refused with 503; under this burst most are
// refused (they arrive together, and each holds what it has received while
// it waits for room).
func TestHTTPBodiesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process per placement and sends 256 MiB to each")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/PID/status")
	}
	bin := filepath.Join(t.TempDir(), "memserver")
	// Built apart, without -race: the server's memory is what is measured.
	out, err := exec.Command("go", "build", "-o", bin, "./testdata/memserver").CombinedOutput()
	require.NoError(t, err, "%s", out)
	const clients, size = 64, 4<<20 - 4<<10 // under MaxRequestBodyBytes
	bulk := strings.Repeat("x", size)
	tiny := strings.Repeat("0,", size/2)
	tiny = "[" + tiny[:len(tiny)-1] + "]" // 2 million values
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}%s}`
	call := func(params string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + params + `}}`)
	}
	served := 0 // bodies answered 200, in all placements
	defer func() {
		// Under this burst most bodies find no room in time (each holds
		// what it has received while it waits), but not all.
		assert.Positive(t, served, "bodies served in all")
	}()
	for _, tc := range []struct {
		name string
		body []byte
		ok   bool // the call succeeds when served
	}{
		{"arguments", call(fmt.Sprintf(meta, "") + `,"name":"size","arguments":{"s":"` + bulk + `"}`), false}, // over maxArgBytes
		{"_meta", call(fmt.Sprintf(meta, `,"bulk":"`+bulk+`"`) + `,"name":"size","arguments":{"s":"a"}`), true},
		{"unknown param", call(fmt.Sprintf(meta, "") + `,"name":"size","arguments":{"s":"a"},"bulk":"` + bulk + `"`), true},
		{"one string", []byte(`{"jsonrpc":"2.0","id":"` + bulk + `","method":"tools/call","params":{` + fmt.Sprintf(meta, "") + `,"name":"size","arguments":{"s":"a"}}}`), true}, // the id
		{"tiny values", call(fmt.Sprintf(meta, `,"bulk":`+tiny) + `,"name":"size","arguments":{"s":"a"}`), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, pid := startMemoryServer(t, bin)
			small := call(fmt.Sprintf(meta, "") + `,"name":"size","arguments":{"s":"abc"}`)
			for range 3 { // warm up
				code, body := memoryPost(t, url, small)
				require.Equal(t, http.StatusOK, code, body)
				require.Contains(t, body, `"structuredContent":{"result":3}`)
			}
			before := procStatus(t, pid, "VmHWM:")
			codes := map[int]int{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			start := time.Now()
			for range clients {
				wg.Go(func() {
					code, body := memoryPost(t, url, tc.body)
					if code == 0 {
						t.Logf("no answer: %s", body)
					}
					if code == http.StatusOK && tc.ok {
						assert.Contains(t, body, `"structuredContent":{"result":1}`)
					}
					mu.Lock()
					codes[code]++
					mu.Unlock()
				})
			}
			wg.Wait()
			growth := procStatus(t, pid, "VmHWM:") - before
			t.Logf("%s: %d bodies of %d KiB in %v: answers %v; peak RSS %d MiB before, grew by %d MiB",
				tc.name, clients, len(tc.body)>>10, time.Since(start).Round(time.Millisecond), codes, before>>20, growth>>20)
			assert.Less(t, growth, int64(256<<20), "peak RSS growth")
			served += codes[http.StatusOK]
			// A body refused before it was read closes its connection: on a
			// busy machine the close can reach the client before the 503 it
			// has not read yet (cutOff).
			assert.Equal(t, clients, codes[http.StatusOK]+codes[http.StatusServiceUnavailable]+codes[cutOff],
				"each is served or refused as busy: %v", codes)
		})
	}
}

// startMemoryServer starts testdata/memserver, built as bin, and returns
// its URL and process ID; it stops when the test ends.
func startMemoryServer(t *testing.T, bin string) (url string, pid int) {
	t.Helper()
	cmd := exec.Command(bin)
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

// memoryPost sends body and returns the status code and the answer: code
// 0 and the error when there is none, cutOff when the server closed the
// connection first.
func memoryPost(t *testing.T, url string, body []byte) (int, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "size")
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

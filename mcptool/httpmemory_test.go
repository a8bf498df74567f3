package mcptool_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// memoryServerEnv makes the test binary a server for TestHTTPBodiesMemory.
const memoryServerEnv = "MCPTOOL_MEMORY_SERVER"

// TestHTTPBodiesMemory: 64 clients each send a ~4 MiB tools/call at once,
// over loopback, to a server with NewHTTPHandler's defaults, in a process
// of its own; its peak RSS (VmHWM) grows by less than 256 MiB wherever the
// bulk of the body sits. NewHTTPHandler hands go-sdk every body as it came:
// the bound is MaxBodyBytesInFlight counting each body at what decoding it
// costs.
func TestHTTPBodiesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process per placement and sends 256 MiB to each")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/PID/status")
	}
	const clients, size = 64, 4<<20 - 4<<10 // under MaxRequestBodyBytes
	bulk := strings.Repeat("x", size)
	tiny := strings.Repeat("0,", size/2)
	tiny = "[" + tiny[:len(tiny)-1] + "]" // 2 million values
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}%s}`
	call := func(params string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + params + `}}`)
	}
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
			url, pid := startMemoryServer(t)
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
			assert.Positive(t, codes[http.StatusOK], "some bodies are served")
			assert.Equal(t, clients, codes[http.StatusOK]+codes[http.StatusServiceUnavailable], "each is served or refused as busy: %v", codes)
		})
	}
}

// TestHTTPMemoryServer is the server of TestHTTPBodiesMemory, in a process
// of its own; run by itself it does nothing.
func TestHTTPMemoryServer(t *testing.T) {
	if os.Getenv(memoryServerEnv) == "" {
		t.Skip("the server process of TestHTTPBodiesMemory")
	}
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)))
	require.NoError(t, mcptool.Add(reg, "size", func(_ context.Context, in struct {
		S string `json:"s"`
	}) (int, error) {
		return len(in.S), nil
	}, mcptool.Description("Measure s.")))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	hs := &http.Server{
		Handler:           mcptool.NewHTTPHandler(reg.Server(&mcp.Implementation{Name: "m", Version: "1"}, nil), mcptool.Logger(slog.New(slog.DiscardHandler))),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() { _ = hs.Serve(ln) }()
	fmt.Printf("ADDR http://%s\n", ln.Addr())
	// Serve until the test closes stdin (or a minute passes).
	done := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, os.Stdin); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
	}
	_ = hs.Close()
}

func startMemoryServer(t *testing.T) (url string, pid int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHTTPMemoryServer$", "-test.count=1")
	cmd.Env = append(os.Environ(), memoryServerEnv+"=1")
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

func memoryPost(t *testing.T, url string, body []byte) (int, string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "size")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
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

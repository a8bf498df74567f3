package mcptool_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// listBatch is a JSON-RPC batch of n tools/list, ids from+1 to from+n:
// with n = 12,000, the body of the third attack round's finding 1 (601
// KB, 48,001 JSON values, under MaxBodyValues).
func listBatch(from, n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := from + 1; i <= from+n; i++ {
		if i > from+1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// legacyPost builds a POST of body with the 2025-03-26 protocol version
// header, in session when not "".
func legacyPost(ctx context.Context, url, session string, body []byte) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-03-26")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	return req
}

const legacyInit = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// TestHTTPBatchBound: a JSON-RPC batch (2025-03-26, which go-sdk serves
// batched) of more than 16 messages gets 413 before anything decodes it —
// the 12,000 tools/list of the third attack round among them — in a
// session and with Stateless; one of 16 is served, each call answered.
func TestHTTPBatchBound(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, mcptool.Add(reg, "size", func(_ context.Context, in struct {
		S string `json:"s"`
	}) (int, error) {
		return len(in.S), nil
	}, mcptool.Description("Measure s.")))
	srv := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless %v", stateless), func(t *testing.T) {
			h := srv.Handler(&mcptool.HTTPOptions{Stateless: stateless})
			serve := func(body []byte, session string) *httptest.ResponseRecorder {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, legacyPost(context.Background(), "/mcp", session, body))
				return rec
			}
			session := ""
			if !stateless {
				rec := serve([]byte(legacyInit), "")
				require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
				session = rec.Header().Get("Mcp-Session-Id")
				require.Equal(t, http.StatusAccepted, serve([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), session).Code)
			}
			for _, n := range []int{12_000, 17} {
				rec := serve(listBatch(0, n), session)
				assert.Equal(t, http.StatusRequestEntityTooLarge, rec.Code, "a batch of %d: %.300s", n, rec.Body.String())
				assert.Equal(t, "request body batches more than 16 JSON-RPC messages\n", rec.Body.String())
			}
			rec := serve(listBatch(0, 16), session)
			require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
			assert.Equal(t, 16, strings.Count(rec.Body.String(), `"tools":[`), "each call answered: %.500s", rec.Body.String())
		})
	}
}

// TestHTTPBatchMemory: in a server process of its own (testdata/memserver,
// with 40 tools more: each tools/list answer about 75 KB), the third
// attack round's batch of 12,000 tools/list grows the peak RSS by at most
// 48 MiB (it grew it by 838 MiB), and 48 batches of 16 tools/list, the
// most a batch may hold, sent at once by at most 256 MiB: in a 2025-03-26
// session and with Stateless. Each batch is served or refused (413 for
// the large one; 503 under the burst for those that find no room in the
// budget in time, the server's BodyReadTimeout being 2s).
func TestHTTPBatchMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/PID/status")
	}
	bin := filepath.Join(t.TempDir(), "memserver")
	out, err := exec.Command("go", "build", "-o", bin, "./testdata/memserver").CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, stateless := range []bool{false, true} {
		t.Run(fmt.Sprintf("stateless %v", stateless), func(t *testing.T) {
			args := []string{"-body-timeout", "2s", "-tools", "40"}
			if stateless {
				args = append(args, "-stateless")
			}
			url, pid := startMemoryServer(t, bin, args...)
			session := ""
			if !stateless {
				resp, err := http.DefaultClient.Do(legacyPost(context.Background(), url, "", []byte(legacyInit)))
				require.NoError(t, err)
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				require.Equal(t, http.StatusOK, resp.StatusCode)
				session = resp.Header.Get("Mcp-Session-Id")
				require.NotEmpty(t, session)
				code, answer := batchPost(t, url, session, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
				require.Equal(t, http.StatusAccepted, code, answer)
			}
			// The batches at once each have their own ids: a session
			// refuses an id already in flight.
			measure := func(body func(k int) []byte, n int) (growth int64, codes map[int]int) {
				resp, err := http.Get(url + "/free")
				require.NoError(t, err)
				_ = resp.Body.Close()
				require.NoError(t, os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0))
				before := procStatus(t, pid, "VmHWM:")
				codes = map[int]int{}
				var mu sync.Mutex
				var wg sync.WaitGroup
				for k := range n {
					wg.Go(func() {
						code, answer := batchPost(t, url, session, body(k))
						if code == http.StatusOK {
							assert.Equal(t, 16, strings.Count(answer, `"tools":[`), "each call answered")
						}
						mu.Lock()
						codes[code]++
						mu.Unlock()
					})
				}
				wg.Wait()
				return procStatus(t, pid, "VmHWM:") - before, codes
			}
			huge := func(int) []byte { return listBatch(0, 12_000) }
			full := func(k int) []byte { return listBatch(16*k, 16) }
			one, codes := measure(huge, 1)
			t.Logf("12,000 tools/list in one batch: peak RSS +%d MiB, answers %v", one>>20, codes)
			assert.Equal(t, map[int]int{http.StatusRequestEntityTooLarge: 1}, codes)
			assert.LessOrEqual(t, one, int64(48<<20), "peak RSS growth for the batch of 12,000")

			one, codes = measure(full, 1)
			require.Equal(t, map[int]int{http.StatusOK: 1}, codes)
			const clients = 48
			many, codes := measure(full, clients)
			t.Logf("16 tools/list in one batch: peak RSS +%d MiB; %d at once: +%d MiB, answers %v", one>>20, clients, many>>20, codes)
			assert.LessOrEqual(t, one, int64(48<<20), "peak RSS growth for one batch")
			assert.LessOrEqual(t, many, int64(256<<20), "peak RSS growth for %d batches", clients)
			assert.Positive(t, codes[http.StatusOK], "batches served under the burst")
			assert.Equal(t, clients, codes[http.StatusOK]+codes[http.StatusServiceUnavailable]+codes[cutOff],
				"each is served or refused: %v", codes)
		})
	}
}

// batchPost sends body with the 2025-03-26 header (in session when not
// "") and returns the status code and the answer, as memoryPost does.
func batchPost(t *testing.T, url, session string, body []byte) (int, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	resp, err := http.DefaultClient.Do(legacyPost(ctx, url, session, body))
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

package mcptool

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// batchRegistry is a registry of n search tools, of about 1.5 KiB each
// listed, and one tool with a view (its page a resource).
func batchRegistry(t testing.TB, n int) *Registry {
	t.Helper()
	reg := NewRegistry()
	type query struct {
		Query string `json:"query" jsonschema:"description=What to look for in words."`
		Limit int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,description=How many at most."`
	}
	for i := range n {
		require.NoError(t, Add(reg, fmt.Sprintf("tool_%03d", i), func(_ context.Context, in query) (string, error) {
			return in.Query, nil
		}, Description(strings.Repeat("Finds the records that match a query. ", 30))))
	}
	type forecast struct {
		City  string  `json:"city"`
		TempC float64 `json:"tempC"`
	}
	require.NoError(t, Add(reg, "weather", func(_ context.Context, in struct {
		_    struct{} `mcp:"readOnly,view"`
		City string   `json:"city"`
	}) (forecast, error) {
		return forecast{City: in.City, TempC: 21}, nil
	}, Description("The weather in a city.")))
	return reg
}

// batchOf is a JSON-RPC batch of n copies of call, each with its own id.
func batchOf(call string, n int) string {
	msgs := make([]string, n)
	for i := range msgs {
		msgs[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,%s}`, i+1, call)
	}
	return "[" + strings.Join(msgs, ",") + "]"
}

// legacyRequest is a POST of body with a 2025-03-26 protocol version
// header (in session, when not "").
func legacyRequest(body, session string) *http.Request {
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-03-26")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	return req
}

// legacySession initializes a 2025-03-26 session on h, whose client
// declares the MCP Apps extension, and returns its id.
func legacySession(t testing.TB, h http.Handler) string {
	t.Helper()
	rec := httptest.NewRecorder()
	init := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}},"clientInfo":{"name":"raw","version":"1"}}}`
	req := legacyRequest(init, "")
	req.Header.Del("Mcp-Protocol-Version")
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	session := rec.Header().Get("Mcp-Session-Id")
	require.NotEmpty(t, session)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, legacyRequest(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session))
	require.Equal(t, http.StatusAccepted, rec.Code, rec.Body.String())
	return session
}

func heapAllocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestBatchChargeCoversAnswers: what the in-flight budget charges a batch
// of maxBatch calls for (its decoding, wire.Cost.Charge, and its answers,
// batchCharge) is no less than the heap serving it allocates, for
// tools/list of small and large catalogues, resources/read of a view's
// page and tools/call, in a 2025-03-26 session and statelessly.
func TestBatchChargeCoversAnswers(t *testing.T) {
	if raceDetector {
		t.Skip("the race detector's instrumentation changes what serving allocates")
	}
	for _, tools := range []int{10, 200} {
		reg := batchRegistry(t, tools)
		srv := reg.Server(&mcp.Implementation{Name: "batch", Version: "1"}, nil)
		for _, stateless := range []bool{false, true} {
			h := newHTTPHandler(srv, &HTTPOptions{Stateless: stateless}, true)
			session := ""
			if !stateless {
				session = legacySession(t, h)
			}
			for _, call := range []string{
				`"method":"tools/list"`,
				`"method":"resources/read","params":{"uri":"ui://mcpgen/weather.html"}`,
				`"method":"tools/call","params":{"name":"weather","arguments":{"city":"Oslo"}}`,
			} {
				if stateless && strings.Contains(call, "resources/read") {
					continue // a page is read by a client that declared the extension, in its initialize
				}
				body := batchOf(call, maxBatch)
				scanned, err := wire.Scan([]byte(body), wire.Limits{})
				require.NoError(t, err)
				serve := func() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, legacyRequest(body, session))
					require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
					require.Equal(t, maxBatch, strings.Count(rec.Body.String(), `"result":`), "%.500s", rec.Body.String())
				}
				serve()
				runtime.GC()
				before := heapAllocated()
				const rounds = 3
				for range rounds {
					serve()
				}
				allocated := int64(heapAllocated()-before) / rounds
				charge := scanned.Cost.Charge() + batchCharge(reg.snapshot(), &scanned)
				name := fmt.Sprintf("%d tools, stateless %v, %.20s", tools, stateless, call)
				t.Logf("%s: %d KiB allocated, charged %d KiB (%.2f)", name, allocated>>10, charge>>10, float64(charge)/float64(allocated))
				assert.GreaterOrEqual(t, charge, allocated, "%s: charge below what serving allocates", name)
			}
		}
	}
}

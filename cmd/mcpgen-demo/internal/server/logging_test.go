package server

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRequestLogging: by default a stateless request go-sdk serves (here
// server/discover; mcpgen answers tools/list itself, without a session)
// logs nothing (go-sdk's three session lines are dropped), with -v it logs
// them, and go-sdk's warnings get through either way.
func TestRequestLogging(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		var buf bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
		args := []string{"-toolset", "conformance"}
		if verbose {
			args = append(args, "-v")
		}
		cfg, err := parseFlags(full(), args, io.Discard)
		require.NoError(t, err)
		a, err := newApp(cfg, logger)
		require.NoError(t, err)
		t.Cleanup(func() { _ = a.close() })
		ts := httptest.NewServer(a.srv.Handler(nil))
		t.Cleanup(ts.Close)
		buf.Reset()
		for range 3 {
			req, err := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{`+
				`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},`+
				`"io.modelcontextprotocol/clientCapabilities":{}}}}`))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "server/discover") // go-sdk's: a session per request
			resp, err := ts.Client().Do(req)
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
			require.Contains(t, string(body), `"supportedVersions":[`)
		}
		lines := strings.Count(buf.String(), "\n")
		if verbose {
			assert.Equal(t, 9, lines, "-v: go-sdk's three session lines per request\n%s", buf.String())
			assert.Contains(t, buf.String(), "server session connected")
		} else {
			assert.Zero(t, lines, "quiet by default\n%s", buf.String())
		}
		sl := sessionLogger(logger, verbose)
		assert.True(t, sl.With("k", "v").WithGroup("g").Enabled(t.Context(), slog.LevelWarn), "warnings always")
		assert.Equal(t, verbose, sl.With("k", "v").WithGroup("g").Enabled(t.Context(), slog.LevelInfo))
	}
}

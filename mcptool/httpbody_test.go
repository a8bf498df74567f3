package mcptool_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// sizeServer returns a server of a registry with the tool "size".
func sizeServer(t *testing.T) *mcptool.Server {
	t.Helper()
	reg := mcptool.NewRegistry()
	require.NoError(t, mcptool.Add(reg, "size", func(_ context.Context, in struct {
		S string `json:"s"`
	}) (int, error) {
		return len(in.S), nil
	}, mcptool.Description("Measure s.")))
	return reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
}

// trickle opens a connection that declares a body of size bytes, sends
// head of it at once and then a byte every 100ms until stop is closed.
func trickle(t *testing.T, addr string, size, head int, stop <-chan struct{}, wg *sync.WaitGroup) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	_, err = fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", addr, size, strings.Repeat(" ", head))
	require.NoError(t, err)
	wg.Go(func() {
		defer conn.Close()
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	})
}

// Clients trickling large bodies hold only what they have sent of the
// in-flight budget: a normal call is served meanwhile, at once.
func TestHTTPTrickledBodiesDoNotStarve(t *testing.T) {
	const declared = 1 << 20
	srv := sizeServer(t)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{Logger: slog.New(slog.DiscardHandler), MaxRequestBodyBytes: declared, MaxBodyBytesInFlight: 2 * declared, BodyReadTimeout: 5 * time.Second}))
	defer hs.Close()
	s := openRawSession(t, hs.URL)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { close(stop); wg.Wait() }()
	for range 16 { // declaring 16 MiB, eight times the budget
		trickle(t, hs.Listener.Addr().String(), declared, 16<<10, stop, &wg)
	}
	time.Sleep(300 * time.Millisecond) // their heads are read
	start := time.Now()
	resp, err := rawPost(context.Background(), s.url, s.id, bigCall(1, 100<<10))
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	elapsed := time.Since(start)
	t.Logf("a 100 KiB call among 16 trickled 1 MiB bodies: %d after %v", resp.StatusCode, elapsed)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	assert.Contains(t, string(body), fmt.Sprintf(`{"result":%d}`, 100<<10))
	assert.Less(t, elapsed, 3*time.Second, "the call waited for the trickling bodies")
}

// Refusals are logged with their status, reason and remote address, never
// the body.
func TestHTTPRefusalsLogged(t *testing.T) {
	var log syncBuffer
	srv := sizeServer(t)
	hs := httptest.NewServer(srv.Handler(&mcptool.HTTPOptions{Logger: slog.New(slog.NewTextHandler(&log, nil)), MaxRequestBodyBytes: 1 << 10, BodyReadTimeout: 300 * time.Millisecond}))
	defer hs.Close()
	const secret = "SECRET-BODY-CONTENT"

	// 413: a body larger than allowed.
	resp, err := rawPost(context.Background(), hs.URL, "", []byte(secret+strings.Repeat("x", 2<<10)))
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)

	// 403: a cross-origin browser request.
	req, err := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(secret))
	require.NoError(t, err)
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	// 408: a body that does not arrive in time.
	conn, err := net.Dial("tcp", hs.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n%s", hs.Listener.Addr(), secret)
	require.NoError(t, err)
	resp, err = http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode)

	out := log.String()
	for _, want := range []string{
		`status=413 reason="declared body larger than MaxRequestBodyBytes" remote=127.0.0.1:`,
		`status=403 reason="cross-origin request from an untrusted origin https://evil.example" remote=127.0.0.1:`,
		`status=408 reason="body not received within BodyReadTimeout" remote=127.0.0.1:`,
	} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, secret)
}

// Option misuse is no panic and not silent: the handler logs the error when
// built and answers every request with 500, without the details. So is a
// server the registry no longer serves: one unmounted, whether mounted or
// built by Registry.Server.
func TestHTTPMisconfigured(t *testing.T) {
	const notServed = "the registry does not serve the server: build it with Registry.Server, or mount the registry on it with Registry.Mount"
	impl := &mcp.Implementation{Name: "s", Version: "1"}
	reg := mcptool.NewRegistry()
	unmounted := reg.Mount(mcp.NewServer(impl, nil))
	unmounted.Unmount()
	built := reg.Server(impl, nil)
	built.Unmount()
	for _, tc := range []struct {
		name string
		opts mcptool.HTTPOptions
		log  string
		srv  *mcptool.Server // nil: one reg built
	}{
		{name: "a server no longer mounted", srv: unmounted, log: notServed},
		{name: "a built server unmounted", srv: built, log: notServed},
		{name: "origin", opts: mcptool.HTTPOptions{TrustedOrigins: []string{"not an origin"}}, log: "TrustedOrigins"},
		{name: "metadata without verifier", opts: mcptool.HTTPOptions{ResourceMetadata: &oauthex.ProtectedResourceMetadata{
			Resource: "https://mcp.example/mcp", AuthorizationServers: []string{"https://issuer.example"}}}, log: "needs both TokenVerifier and ResourceMetadata"},
		{name: "verifier without metadata", opts: mcptool.HTTPOptions{TokenVerifier: testTokens.verify}, log: "needs both TokenVerifier and ResourceMetadata"},
		{name: "relative resource", opts: mcptool.HTTPOptions{TokenVerifier: testTokens.verify, ResourceMetadata: &oauthex.ProtectedResourceMetadata{
			Resource: "/mcp", AuthorizationServers: []string{"https://issuer.example"}}}, log: "must be an absolute URL"},
		{name: "no authorization server", opts: mcptool.HTTPOptions{TokenVerifier: testTokens.verify, ResourceMetadata: &oauthex.ProtectedResourceMetadata{
			Resource: "https://mcp.example/mcp"}}, log: "at least one authorization server"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var log syncBuffer
			var h http.Handler
			srv := tc.srv
			if srv == nil {
				srv = reg.Server(impl, nil)
			}
			require.NotPanics(t, func() {
				tc.opts.Logger = slog.New(slog.NewTextHandler(&log, nil))
				h = srv.Handler(&tc.opts)
			})
			assert.Contains(t, log.String(), "misconfigured", "logged when built")
			assert.Contains(t, log.String(), tc.log)
			hs := httptest.NewServer(h)
			defer hs.Close()
			resp, err := rawPost(context.Background(), hs.URL, "", []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			require.NoError(t, err)
			body, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			assert.Equal(t, http.StatusInternalServerError, resp.StatusCode)
			assert.Contains(t, string(body), "misconfigured")
			assert.NotContains(t, string(body), tc.log, "the details stay in the log")
		})
	}
}

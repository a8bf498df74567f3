//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them in both eras.

package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/mcpgen/mcpgen/mcptool"
)

// Conn is a go-sdk client connected to a server under test. Its methods
// report failures to the test it was made for and are safe for concurrent
// use.
type Conn struct {
	// Session is the go-sdk client session, for requests Conn has no helper
	// for (and for calls expected to fail with a protocol error).
	Session *mcp.ClientSession

	t        testing.TB
	cfg      *config
	timeout  time.Duration
	level    mcp.LoggingLevel
	modern   bool
	tasks    bool
	seq      atomic.Int64
	close    sync.Once
	closeErr error

	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
	logs     []*mcp.LoggingMessageParams
}

// Client connects a real go-sdk client to reg's tools, over in-memory
// transports unless [HTTP] or [Command] says otherwise, and closes it when
// the test ends. Setup failures end the test (Fatalf).
func Client(t testing.TB, reg *mcptool.Registry, opts ...Option) *Conn {
	t.Helper()
	return connect(t, reg, newConfig(opts))
}

func connect(t testing.TB, reg *mcptool.Registry, cfg *config) *Conn {
	t.Helper()
	var leakOpts []goleak.Option
	if cfg.leaks {
		leakOpts = append(leakOpts, goleak.IgnoreCurrent())
	}
	c := &Conn{t: t, cfg: cfg, timeout: cfg.timeout, level: cfg.logLevel}
	client := mcp.NewClient(&mcp.Implementation{Name: "mcptest", Version: "1"}, c.clientOptions(cfg))
	if len(cfg.roots) > 0 {
		client.AddRoots(cfg.roots...)
	}
	if cfg.tasks {
		c.tasks = true
		err := mcp.AddSendingCustomMethod[*taskGetParams, *taskState](client, "tasks/get")
		if err == nil {
			err = mcp.AddSendingCustomMethod[*taskUpdateParams, *taskAck](client, "tasks/update")
		}
		if err != nil {
			t.Fatalf("mcptest: %v", err)
			return c
		}
	}
	transport, stop, err := dial(t, reg, cfg)
	if err != nil {
		t.Fatalf("mcptest: %v", err)
		return c // no session: its methods fail the test, see Call
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: cfg.version})
	if err != nil {
		stop()
		t.Fatalf("mcptest: connecting the client: %v", err)
		return c
	}
	c.Session = cs
	c.modern = cs.InitializeResult().ProtocolVersion >= "2026-07-28"
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Logf("mcptest: closing the client: %v", err)
		}
		stop()
		if cfg.leaks {
			if err := goleak.Find(leakOpts...); err != nil {
				t.Errorf("mcptest: goroutines still running after the client closed: %v", err)
			}
		}
	})
	if c.level != "" && !c.modern {
		if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: c.level}); err != nil {
			t.Fatalf("mcptest: logging/setLevel: %v", err)
			return c
		}
	}
	return c
}

// clientOptions are cfg's client options with the test's handlers and the
// collection of notifications.
func (c *Conn) clientOptions(cfg *config) *mcp.ClientOptions {
	o := cfg.copts
	if cfg.tasks {
		declareTasks(&o)
	}
	if cfg.elicit != nil {
		o.ElicitationHandler = cfg.elicit
	}
	if cfg.sample != nil {
		o.CreateMessageHandler, o.CreateMessageWithToolsHandler = cfg.sample, nil
	}
	userProgress, userLog := o.ProgressNotificationHandler, o.LoggingMessageHandler
	o.ProgressNotificationHandler = func(ctx context.Context, r *mcp.ProgressNotificationClientRequest) {
		c.mu.Lock()
		c.progress = append(c.progress, r.Params)
		c.mu.Unlock()
		if userProgress != nil {
			userProgress(ctx, r)
		}
	}
	o.LoggingMessageHandler = func(ctx context.Context, r *mcp.LoggingMessageRequest) {
		c.mu.Lock()
		c.logs = append(c.logs, r.Params)
		c.mu.Unlock()
		if userLog != nil {
			userLog(ctx, r)
		}
	}
	return &o
}

// dial makes the client's transport, starting the server end, and the
// function that stops it.
func dial(t testing.TB, reg *mcptool.Registry, cfg *config) (mcp.Transport, func(), error) {
	if cfg.cmd != nil {
		return &mcp.CommandTransport{Command: cfg.cmd, TerminateDuration: 5 * time.Second}, func() {}, nil
	}
	srv := cfg.srv
	if srv == nil {
		if reg == nil {
			return nil, nil, fmt.Errorf("no registry: pass one, or the Server or Command option")
		}
		srv = reg.Server(&mcp.Implementation{Name: "mcptest-server", Version: "1"}, nil)
	}
	if cfg.http {
		hs := httptest.NewServer(srv.Handler(cfg.httpOpts))
		hc := hs.Client()
		if cfg.header != nil {
			hc = &http.Client{Transport: headerTransport{cfg.header, hc.Transport}}
		}
		return &mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: hc}, hs.Close, nil
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithTimeout(context.Background(), cfg.timeout)
	defer cancel()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("connecting the server: %w", err)
	}
	return ct, func() { _ = ss.Close() }, nil
}

// headerTransport adds headers to every request.
type headerTransport struct {
	header http.Header
	next   http.RoundTripper
}

func (t headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, vs := range t.header {
		req.Header[k] = append([]string(nil), vs...)
	}
	return t.next.RoundTrip(req)
}

// errNoSession is what the methods of a Conn whose setup failed report
// (with a testing.TB whose Fatalf does not stop the test).
var errNoSession = errors.New("the client is not connected: its setup failed")

// Close closes the client session (and with it the subprocess of
// [Command], waiting for it to exit) and returns the error of closing, the
// same on every call. It is called when the test ends; call it earlier to
// check that the server shuts down cleanly, or what happens after a client
// leaves.
func (c *Conn) Close() error {
	c.close.Do(func() {
		if c.Session != nil {
			c.closeErr = c.Session.Close()
		}
	})
	return c.closeErr
}

// Call calls the named tool with args (anything that marshals to a JSON
// object; a json.RawMessage is sent as it is). A protocol error ends the
// test; to expect one, call c.Session.CallTool. Each call carries a progress
// token, so the tool's progress reaches [Conn.Progress].
func (c *Conn) Call(name string, args any) *Result {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	res, err := c.call(ctx, name, args)
	if err != nil {
		c.t.Fatalf("mcptest: calling %s: %v", name, err)
		return &Result{CallToolResult: &mcp.CallToolResult{}, t: c.t, name: name}
	}
	return &Result{CallToolResult: res, t: c.t, name: name, conn: c}
}

func (c *Conn) call(ctx context.Context, name string, args any) (*mcp.CallToolResult, error) {
	if c.Session == nil {
		return nil, errNoSession
	}
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	if c.level != "" && c.modern {
		params.Meta = mcp.Meta{mcp.MetaKeyLogLevel: string(c.level)}
	}
	params.SetProgressToken(fmt.Sprintf("%s-%d", name, c.seq.Add(1)))
	res, err := c.Session.CallTool(ctx, params)
	if id := taskID(res); err == nil && c.tasks && id != "" {
		return c.await(ctx, id)
	}
	return res, err
}

// Tools lists the server's tools (every page).
func (c *Conn) Tools() []*mcp.Tool {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	if c.Session == nil {
		c.t.Fatalf("mcptest: tools/list: %v", errNoSession)
		return nil
	}
	var tools []*mcp.Tool
	for tool, err := range c.Session.Tools(ctx, nil) {
		if err != nil {
			c.t.Fatalf("mcptest: tools/list: %v", err)
			return nil
		}
		tools = append(tools, tool)
	}
	return tools
}

// Progress waits until at least n progress notifications have arrived (at
// most the client's timeout), then returns all that have, in order. Each
// [Conn.Call] sends the token "<tool>-<sequence number>". Notifications may
// still be arriving when a call has returned: wait for the number you
// expect, then check there are no more.
func (c *Conn) Progress(n int) []*mcp.ProgressNotificationParams {
	c.t.Helper()
	return waitFor(c, &c.progress, n, "progress notifications")
}

// Logs waits until at least n log notifications (notifications/message)
// have arrived (at most the client's timeout), then returns all that have,
// in order. See [LogLevel].
func (c *Conn) Logs(n int) []*mcp.LoggingMessageParams {
	c.t.Helper()
	return waitFor(c, &c.logs, n, "log notifications")
}

func waitFor[T any](c *Conn, list *[]T, n int, what string) []T {
	c.t.Helper()
	deadline := time.Now().Add(c.timeout)
	for {
		c.mu.Lock()
		got := append([]T(nil), *list...)
		c.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			c.t.Errorf("mcptest: want %d %s, %d arrived within %v", n, what, len(got), c.timeout)
			return got
		}
		time.Sleep(time.Millisecond)
	}
}

// Result is the result of one [Conn.Call]: the go-sdk result (Content,
// StructuredContent, IsError, ...) with helpers that read it.
type Result struct {
	*mcp.CallToolResult
	t    testing.TB
	name string
	conn *Conn // for the tool's published output schema
}

// Text returns the text of the result's text blocks, joined by newlines.
func (r *Result) Text() string {
	var parts []string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// Decode decodes the result's structuredContent into v, a pointer to the
// tool's own result type. A result that is not a JSON object (a slice, a
// number, a string-typed value, ...) is sent as {"result": value}, and its
// published output schema says so: Decode reads that schema (tools/list) and
// decodes the wrapped value, so
//
//	var notes []Note
//	c.Call("list_notes", nil).Decode(&notes)
//
// works. A map, or a struct with a field named "result", still receives
// the object as sent. Decode fails the test when the result is an error or
// has no structured content.
func (r *Result) Decode(v any) {
	r.t.Helper()
	if r.IsError {
		r.t.Errorf("mcptest: %s: want a result, got isError: %s", r.name, r.Text())
		return
	}
	if r.StructuredContent == nil {
		r.t.Errorf("mcptest: %s: the result has no structuredContent: %s", r.name, r.Text())
		return
	}
	raw, err := json.Marshal(r.StructuredContent)
	if err == nil && !holdsWrapper(v) && r.conn.wrapped(r.name) {
		var w struct {
			Result json.RawMessage `json:"result"`
		}
		if err = json.Unmarshal(raw, &w); err == nil {
			raw = w.Result
		}
	}
	if err == nil {
		err = json.Unmarshal(raw, v)
	}
	if err != nil {
		r.t.Errorf("mcptest: %s: decoding structuredContent into %T: %v", r.name, v, err)
	}
}

// wrapped reports whether the named tool's published output schema is
// mcpgen's wrapper of a result that is not an object: an object with the
// one required property "result" and no others.
func (c *Conn) wrapped(name string) bool {
	if c == nil || c.Session == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
	defer cancel()
	for tool, err := range c.Session.Tools(ctx, nil) {
		if err != nil {
			c.t.Errorf("mcptest: tools/list, to read %s's output schema: %v", name, err)
			return false
		}
		if tool.Name == name {
			return isWrapperSchema(tool.OutputSchema)
		}
	}
	return false
}

// isWrapperSchema reports whether schema (as a client decodes it) is
// {"type": "object", "properties": {"result": …}, "required": ["result"],
// "additionalProperties": false}.
func isWrapperSchema(schema any) bool {
	raw, err := json.Marshal(schema)
	if err != nil {
		return false
	}
	var s struct {
		Type                 any                        `json:"type"`
		Properties           map[string]json.RawMessage `json:"properties"`
		Required             []string                   `json:"required"`
		AdditionalProperties *bool                      `json:"additionalProperties"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return false
	}
	_, ok := s.Properties["result"]
	return s.Type == "object" && ok && len(s.Properties) == 1 &&
		len(s.Required) == 1 && s.Required[0] == "result" &&
		s.AdditionalProperties != nil && !*s.AdditionalProperties
}

// holdsWrapper reports whether v points to a map, or to a struct with a
// JSON field named "result": a type that takes the wrapper object itself.
func holdsWrapper(v any) bool {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Map:
		return true
	case reflect.Struct:
		for f := range t.Fields() {
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" {
				name = f.Name
			}
			if strings.EqualFold(name, "result") {
				return true
			}
		}
	}
	return false
}

// ErrorText returns the text of an isError result: what the model reads
// about what went wrong. It fails the test when the result is not an error.
func (r *Result) ErrorText() string {
	r.t.Helper()
	if !r.IsError {
		r.t.Errorf("mcptest: %s: want an isError result, got %s", r.name, r.Text())
	}
	return r.Text()
}

// Binary builds the Go program pkg (an import path, or a directory such as
// "./cmd/server" relative to the test's package) into the test's temporary
// directory and returns the executable's path, for [Command].
func Binary(t testing.TB, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "server")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	// go test puts its own toolchain first on the PATH of the test binary.
	out, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("mcptest: go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

package mcptool

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// The differential test of mcpgen's own 2026-07-28 path (httpmodern.go):
// the same requests go to Server.Handler as built (own) and to the same
// handler with the path off (ref), where go-sdk's own stateless handler
// answers every request past the same front (body reading, authorization):
// the JSON-RPC answers, the HTTP statuses and the headers that matter are
// the same, byte for byte once what is random by design (task IDs, sealed
// requestStates, times, internal error references) is masked.
//
// Intended differences, each a case of TestModernDifferentialDiffers:
//
//   - A number beyond float64 in the arguments: go-sdk v1.8.0's Mcp-Name
//     check decodes the arguments as float64, fails, and answers -32020
//     (header mismatch) though the headers match the body; the new path
//     answers as Registry.Call does, an isError result naming the argument.
//     The headers do match, which is all -32020 is for (2026-07-28 basic
//     transports, "Standard MCP Request Headers": a server rejects a request
//     whose header value does not match the body); and the tools spec says
//     argument validation errors are tool execution errors (isError), which
//     the model can read and correct (server/tools, "Error Handling").

// diffPair serves one registry's server twice.
type diffPair struct {
	own, ref http.Handler
	m        *modern
}

// answers reports whether the new path answers a request itself.
func (p diffPair) answers(hdr map[string]string, body string) bool {
	req := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(body))
	for k, v := range hdr {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	b, err := wire.Scan([]byte(body), wire.Limits{})
	if err != nil {
		return false
	}
	msg, ok := p.m.owns(req, &b)
	if !ok {
		return false
	}
	f := &frame{extra: mcp.RequestExtra{Header: req.Header}}
	_, _, ok = p.m.request(msg, f)
	return ok
}

func newDiffPair(t *testing.T, reg *Registry, opts *HTTPOptions) diffPair {
	t.Helper()
	srv := reg.Server(&mcp.Implementation{Name: "diff", Version: "1"}, nil)
	own := newHTTPHandler(srv, opts, true)
	ref := newHTTPHandler(srv, opts, false)
	return diffPair{own: own, ref: ref, m: newModern(srv.d)}
}

// diffAnswer is what is compared of a response.
type diffAnswer struct {
	Status  int
	Headers map[string]string
	Body    string
}

var diffHeaders = []string{"Content-Type", "Cache-Control", "WWW-Authenticate", "Allow"}

var diffMasks = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`"requestState":"[^"]*"`), `"requestState":"<state>"`},
	{regexp.MustCompile(`"taskId":"[^"]*"`), `"taskId":"<task>"`},
	{regexp.MustCompile(`"(createdAt|lastUpdatedAt)":"[^"]*"`), `"$1":"<time>"`},
	{regexp.MustCompile(`ref [0-9a-f]{12}`), `ref <ref>`},
	{regexp.MustCompile(`"time":"[^"]*"`), `"time":"<time>"`},
}

func send(h http.Handler, hdr map[string]string, body string) (diffAnswer, string) {
	req := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(body))
	for k, v := range hdr {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	raw, _ := io.ReadAll(rec.Result().Body)
	a := diffAnswer{Status: rec.Code, Headers: map[string]string{}}
	for _, k := range diffHeaders {
		if v := rec.Header().Get(k); v != "" {
			a.Headers[k] = v
		}
	}
	masked := string(raw)
	for _, m := range diffMasks {
		masked = m.re.ReplaceAllString(masked, m.with)
	}
	a.Body = masked
	return a, string(raw)
}

// modernHeaders are the headers of a well-formed 2026-07-28 request.
func modernHeaders(method, name string) map[string]string {
	return map[string]string{
		"Content-Type":         "application/json",
		"Accept":               "application/json, text/event-stream",
		"Mcp-Protocol-Version": "2026-07-28",
		"Mcp-Method":           method,
		"Mcp-Name":             name,
	}
}

const diffMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`

const diffTaskMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`

func callBody(id, name, args, extra string) string {
	if extra != "" {
		extra = "," + extra
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":%q,"arguments":%s,%s%s}}`, id, name, args, diffMeta, extra)
}

func diffRegistry(t *testing.T) *Registry {
	t.Helper()
	reg := NewRegistry(Tasks(TaskSettings{Wait: -1}))
	type addIn struct {
		A int `json:"a" jsonschema:"minimum=0"`
		B int `json:"b"`
	}
	require.NoError(t, Add(reg, "add", func(_ context.Context, in addIn) (int, error) { return in.A + in.B, nil }, Description("Adds.")))
	require.NoError(t, reg.Add("ask", func(ctx context.Context) (string, error) {
		res, err := Elicit(ctx, "name", &mcp.ElicitParams{Message: "Your name?", RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
		if err != nil {
			return "", err
		}
		return fmt.Sprint("hello ", res.Content["name"]), nil
	}, Description("Asks.")))
	require.NoError(t, reg.Add("progress", func(ctx context.Context) (string, error) {
		Progress(ctx, 1, 2, "half")
		return "done", nil
	}, Description("Reports progress.")))
	require.NoError(t, reg.Add("log", func(ctx context.Context) (string, error) {
		Log(ctx).Warn("careful", "n", 1)
		return "logged", nil
	}, Description("Logs.")))
	require.NoError(t, reg.Add("fail", func(ctx context.Context) (string, error) {
		return "", fmt.Errorf("boom")
	}, Description("Fails.")))
	require.NoError(t, reg.Add("job", func(ctx context.Context) (string, error) {
		return "job done", nil
	}, Description("A task."), TaskRequired()))
	require.NoError(t, reg.Add("scoped", func(ctx context.Context) (string, error) {
		return "ok", nil
	}, Description("Needs a scope."), Scopes("s:write")))
	return reg
}

func TestModernDifferential(t *testing.T) {
	p := newDiffPair(t, diffRegistry(t), &HTTPOptions{MaxRequestBodyBytes: 4096})
	list := func(extra string) string {
		return `{"jsonrpc":"2.0","id":"l","method":"tools/list","params":{` + diffMeta + extra + `}}`
	}
	with := func(h map[string]string, k, v string) map[string]string {
		c := map[string]string{}
		for kk, vv := range h {
			c[kk] = vv
		}
		c[k] = v
		return c
	}
	cases := []struct {
		name string
		hdr  map[string]string
		body string
		own  bool // the new path answers it (else go-sdk on both)
	}{
		{"tools/list", modernHeaders("tools/list", ""), list(""), true},
		{"tools/list bad cursor", modernHeaders("tools/list", ""), list(`,"cursor":"!!"`), true},
		{"tools/list cursor", modernHeaders("tools/list", ""), list(`,"cursor":"YWRk"`), true},
		{"call", modernHeaders("tools/call", "add"), callBody("1", "add", `{"a":1,"b":2}`, ""), true},
		{"call string id", modernHeaders("tools/call", "add"), callBody(`"x"`, "add", `{"a":1,"b":2}`, ""), true},
		{"call no arguments", modernHeaders("tools/call", "progress"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"progress",` + diffMeta + `}}`, true},
		{"invalid arguments", modernHeaders("tools/call", "add"), callBody("2", "add", `{"a":-1,"b":"x"}`, ""), true},
		{"malformed arguments", modernHeaders("tools/call", "add"), callBody("2", "add", `[1]`, ""), true},
		{"tool error", modernHeaders("tools/call", "fail"), callBody("3", "fail", `{}`, ""), true},
		{"progress", modernHeaders("tools/call", "progress"), `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":"p1","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, true},
		{"log", modernHeaders("tools/call", "log"), callBody("4", "log", `{}`, ""), true},
		{"log level asked", modernHeaders("tools/call", "log"), strings.Replace(callBody("4", "log", `{}`, ""), `"_meta":{`, `"_meta":{"io.modelcontextprotocol/logLevel":"info",`, 1), false},
		{"input required", modernHeaders("tools/call", "ask"), callBody("5", "ask", `{}`, ""), true},
		{"invalid requestState", modernHeaders("tools/call", "ask"), callBody("6", "ask", `{}`, `"requestState":"bogus","inputResponses":{}`), true},
		{"task required without capability", modernHeaders("tools/call", "job"), callBody("7", "job", `{}`, ""), true},
		{"task", modernHeaders("tools/call", "job"), `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"job","arguments":{},` + diffTaskMeta + `}}`, true},
		{"tasks/get unknown", modernHeaders("tasks/get", ""), `{"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"taskId":"nope",` + diffTaskMeta + `}}`, true},
		{"tasks/cancel unknown", modernHeaders("tasks/cancel", ""), `{"jsonrpc":"2.0","id":9,"method":"tasks/cancel","params":{"taskId":"nope",` + diffTaskMeta + `}}`, true},
		{"tasks/get without capability", modernHeaders("tasks/get", ""), `{"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"taskId":"nope",` + diffMeta + `}}`, true},
		{"tasks/get name mismatch", modernHeaders("tasks/get", "other"), `{"jsonrpc":"2.0","id":9,"method":"tasks/get","params":{"taskId":"nope",` + diffTaskMeta + `}}`, true},
		{"tasks/list", modernHeaders("tasks/list", ""), `{"jsonrpc":"2.0","id":9,"method":"tasks/list","params":{` + diffTaskMeta + `}}`, false},
		{"tasks/result", modernHeaders("tasks/result", ""), `{"jsonrpc":"2.0","id":9,"method":"tasks/result","params":{"taskId":"nope",` + diffTaskMeta + `}}`, false},
		{"unknown tool", modernHeaders("tools/call", "nope"), callBody("10", "nope", `{}`, ""), false},
		{"malformed JSON", modernHeaders("tools/call", "add"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{`, false},
		{"unknown method", modernHeaders("foo/bar", ""), `{"jsonrpc":"2.0","id":1,"method":"foo/bar","params":{` + diffMeta + `}}`, false},
		{"Mcp-Method mismatch", modernHeaders("tools/list", "add"), callBody("1", "add", `{}`, ""), false},
		{"Mcp-Method missing", modernHeaders("", "add"), callBody("1", "add", `{}`, ""), false},
		{"Mcp-Name mismatch", modernHeaders("tools/call", "other"), callBody("1", "add", `{}`, ""), false},
		{"Mcp-Name missing", modernHeaders("tools/call", ""), callBody("1", "add", `{}`, ""), false},
		{"version header vs _meta", with(modernHeaders("tools/call", "add"), "Mcp-Protocol-Version", "2025-11-25"), callBody("1", "add", `{}`, ""), false},
		{"version header missing", with(modernHeaders("tools/call", "add"), "Mcp-Protocol-Version", ""), callBody("1", "add", `{}`, ""), false},
		{"_meta version missing", modernHeaders("tools/call", "add"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{}}}`, false},
		{"unsupported version", with(modernHeaders("tools/call", "add"), "Mcp-Protocol-Version", "2099-01-01"), strings.ReplaceAll(callBody("1", "add", `{}`, ""), "2026-07-28", "2099-01-01"), false},
		{"unknown old version", with(modernHeaders("tools/call", "add"), "Mcp-Protocol-Version", "2024-01-01"), callBody("1", "add", `{}`, ""), false},
		{"capabilities missing", modernHeaders("tools/call", "add"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, false},
		{"client info invalid", modernHeaders("tools/call", "add"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":3}}}`, false},
		{"batch", modernHeaders("tools/call", "add"), "[" + callBody("1", "add", `{"a":1,"b":2}`, "") + "," + callBody("2", "add", `{"a":1,"b":2}`, "") + "]", false},
		{"notification", modernHeaders("notifications/cancelled", ""), `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, false},
		{"oversize", modernHeaders("tools/call", "add"), callBody("1", "add", `{"a":1,"b":2,"pad":"`+strings.Repeat("x", 5000)+`"}`, ""), true}, // refused by readBody before either path
		{"wrong content type", with(modernHeaders("tools/call", "add"), "Content-Type", "text/plain"), callBody("1", "add", `{}`, ""), false},
		{"accept json only", with(modernHeaders("tools/call", "add"), "Accept", "application/json"), callBody("1", "add", `{}`, ""), false},
		{"content type with parameters", with(modernHeaders("tools/call", "add"), "Content-Type", "Application/JSON; charset=utf-8"), callBody("1", "add", `{"a":1,"b":2}`, ""), true},
		{"accept in parts", with(modernHeaders("tools/call", "add"), "Accept", "text/event-stream;q=0.9 , application/json,"), callBody("1", "add", `{"a":1,"b":2}`, ""), true},
		{"accept any", with(modernHeaders("tools/call", "add"), "Accept", "*/*"), callBody("1", "add", `{"a":1,"b":2}`, ""), true},
		{"accept stream only", with(modernHeaders("tools/call", "add"), "Accept", "text/event-stream, text/plain"), callBody("1", "add", `{}`, ""), false},
		{"resumption", with(modernHeaders("tools/call", "add"), "Last-Event-ID", "1"), callBody("1", "add", `{}`, ""), false},
		{"nesting beyond go-sdk's limit", modernHeaders("tools/call", "add"), callBody("1", "add", `{"a":`+strings.Repeat("[", 1001)+strings.Repeat("]", 1001)+`}`, ""), false},
		{"arguments null", modernHeaders("tools/call", "add"), callBody("1", "add", `null`, ""), true},
		{"name not a string", modernHeaders("tools/call", "add"), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":5,"arguments":{},` + diffMeta + `}}`, false},
		// Not JSON-RPC 2.0: go-sdk refuses it, and nothing runs.
		{"jsonrpc missing", modernHeaders("tools/call", "add"), strings.Replace(callBody("1", "add", `{"a":1,"b":2}`, ""), `"jsonrpc":"2.0",`, "", 1), false},
		{"jsonrpc 1.0", modernHeaders("tools/call", "add"), strings.Replace(callBody("1", "add", `{"a":1,"b":2}`, ""), `"2.0"`, `"1.0"`, 1), false},
		{"jsonrpc a number", modernHeaders("tools/call", "add"), strings.Replace(callBody("1", "add", `{"a":1,"b":2}`, ""), `"2.0"`, `2`, 1), false},
		{"jsonrpc null", modernHeaders("tools/call", "add"), strings.Replace(callBody("1", "add", `{"a":1,"b":2}`, ""), `"2.0"`, `null`, 1), false},
		{"jsonrpc repeated, last 1.0", modernHeaders("tools/call", "add"), strings.Replace(callBody("1", "add", `{"a":1,"b":2}`, ""), `"jsonrpc":"2.0",`, `"jsonrpc":"2.0","jsonrpc":"1.0",`, 1), false},
		{"tools/list jsonrpc 1.0", modernHeaders("tools/list", ""), strings.Replace(list(""), `"2.0"`, `"1.0"`, 1), false},
		{"jsonrpc escaped", modernHeaders("tools/call", "add"), strings.Replace(callBody("1", "add", `{"a":1,"b":2}`, ""), `"2.0"`, `"2\u002e0"`, 1), true},
		// Anything after the message: refused whole before either path.
		{"trailing byte", modernHeaders("tools/call", "add"), callBody("1", "add", `{"a":1,"b":2}`, "") + "x", false},
		{"trailing brace", modernHeaders("tools/call", "add"), callBody("1", "add", `{"a":1,"b":2}`, "") + "}", false},
		{"trailing value", modernHeaders("tools/call", "add"), callBody("1", "add", `{"a":1,"b":2}`, "") + " 1", false},
		{"trailing space", modernHeaders("tools/call", "add"), callBody("1", "add", `{"a":1,"b":2}`, "") + " \r\n\t", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.own, p.answers(c.hdr, c.body), "answered by the new path")
			own, _ := send(p.own, c.hdr, c.body)
			ref, _ := send(p.ref, c.hdr, c.body)
			assert.Equal(t, ref, own)
		})
	}
}

func TestModernDifferentialDiffers(t *testing.T) {
	p := newDiffPair(t, diffRegistry(t), nil)
	hdr := modernHeaders("tools/call", "add")
	body := callBody("1", "add", `{"a":1e999,"b":2}`, "")
	require.True(t, p.answers(hdr, body))
	own, _ := send(p.own, hdr, body)
	ref, _ := send(p.ref, hdr, body)
	assert.Equal(t, http.StatusBadRequest, ref.Status)
	assert.Contains(t, ref.Body, `"code":-32020`)
	assert.Equal(t, http.StatusOK, own.Status)
	assert.Equal(t, "event: message\ndata: "+
		`{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"diff","version":"1"}},`+
		`"content":[{"type":"text","text":"invalid arguments:\n- a: must be at most 9223372036854775807, got 1e999 (maximum)"}],"isError":true,"resultType":"complete"}}`+"\n\n", own.Body)
}

// An input-required round, then the retry with each side's own
// requestState: the same answers; a state presented again is asked again.
func TestModernDifferentialInputRounds(t *testing.T) {
	p := newDiffPair(t, diffRegistry(t), nil)
	hdr := modernHeaders("tools/call", "ask")
	body := func(id, extra string) string {
		return strings.Replace(callBody(id, "ask", `{}`, extra), `Capabilities":{}`, `Capabilities":{"elicitation":{}}`, 1)
	}
	round := func(h http.Handler) (first, second, again diffAnswer) {
		first, raw := send(h, hdr, body("1", ""))
		state := regexp.MustCompile(`"requestState":"([^"]*)"`).FindStringSubmatch(raw)
		require.Len(t, state, 2, raw)
		retry := body("2", `"requestState":"`+state[1]+`","inputResponses":{"name":{"action":"accept","content":{"name":"Ada"}}}`)
		second, _ = send(h, hdr, retry)
		again, _ = send(h, hdr, retry)
		return first, second, again
	}
	o1, o2, o3 := round(p.own)
	r1, r2, r3 := round(p.ref)
	assert.Equal(t, r1, o1)
	assert.Equal(t, r2, o2)
	assert.Equal(t, r3, o3)
	assert.Contains(t, o2.Body, "hello Ada")
	assert.Contains(t, o3.Body, `"resultType":"input_required"`)
}

// A task created on each side is read, cancelled and read again there:
// the same answers.
func TestModernDifferentialTasks(t *testing.T) {
	reg := NewRegistry(Tasks(TaskSettings{Wait: -1}))
	release := make(chan struct{})
	defer close(release)
	require.NoError(t, reg.Add("job", func(ctx context.Context) (string, error) {
		select {
		case <-release:
		case <-ctx.Done():
		}
		return "job done", nil
	}, Description("A task."), Task()))
	p := newDiffPair(t, reg, nil)
	taskReq := func(method, id string, extra string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":{"taskId":"` + id + `",` + diffTaskMeta + extra + `}}`
	}
	run := func(h http.Handler) []diffAnswer {
		created, raw := send(h, modernHeaders("tools/call", "job"), `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"job","arguments":{},`+diffTaskMeta+`}}`)
		m := regexp.MustCompile(`"taskId":"([^"]*)"`).FindStringSubmatch(raw)
		require.Len(t, m, 2, raw)
		id := m[1]
		got, _ := send(h, modernHeaders("tasks/get", id), taskReq("tasks/get", id, ""))
		upd, _ := send(h, modernHeaders("tasks/update", id), taskReq("tasks/update", id, `,"inputResponses":{"k":{"action":"accept"}}`))
		cancel, _ := send(h, modernHeaders("tasks/cancel", id), taskReq("tasks/cancel", id, ""))
		var after diffAnswer
		for range 500 {
			if after, _ = send(h, modernHeaders("tasks/get", id), taskReq("tasks/get", id, "")); strings.Contains(after.Body, `"cancelled"`) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		return []diffAnswer{created, got, upd, cancel, after}
	}
	own, ref := run(p.own), run(p.ref)
	assert.Equal(t, ref, own)
	assert.Contains(t, own[4].Body, `"status":"cancelled"`)
}

// With authorization on: 401 without a token, 403 for a token without the
// tool's scopes, the call with one: the same on both.
func TestModernDifferentialAuth(t *testing.T) {
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		switch token {
		case "reader":
			return &auth.TokenInfo{UserID: "ada", Scopes: []string{"s:read"}, Expiration: time.Now().Add(time.Hour)}, nil
		case "writer":
			return &auth.TokenInfo{UserID: "ada", Scopes: []string{"s:write"}, Expiration: time.Now().Add(time.Hour)}, nil
		}
		return nil, auth.ErrInvalidToken
	}
	p := newDiffPair(t, diffRegistry(t), &HTTPOptions{TokenVerifier: verify, ResourceMetadata: &oauthex.ProtectedResourceMetadata{
		Resource: "http://localhost/mcp", AuthorizationServers: []string{"https://auth.example.com"},
	}})
	for _, c := range []struct{ name, token, tool string }{
		{"no token", "", "scoped"}, {"bad token", "nope", "scoped"}, {"403", "reader", "scoped"},
		{"allowed", "writer", "scoped"}, {"list", "reader", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			hdr := modernHeaders("tools/call", c.tool)
			body := callBody("1", c.tool, `{}`, "")
			if c.tool == "" {
				hdr = modernHeaders("tools/list", "")
				body = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + diffMeta + `}}`
			}
			if c.token != "" {
				hdr["Authorization"] = "Bearer " + c.token
			}
			own, _ := send(p.own, hdr, body)
			ref, _ := send(p.ref, hdr, body)
			assert.Equal(t, ref, own)
		})
	}
}

// A server the registry is mounted on is served wholly by go-sdk: its own
// tools and its middleware see 2026-07-28 requests; a server built by
// Registry.Server is served by mcpgen's path.
func TestModernOnlyForRegistryServer(t *testing.T) {
	reg := diffRegistry(t)
	built := reg.Server(&mcp.Implementation{Name: "a", Version: "1"}, nil)
	assert.NotNil(t, newModern(built.d))
	mounted := mcp.NewServer(&mcp.Implementation{Name: "b", Version: "1"}, nil)
	served := reg.Mount(mounted)
	assert.Nil(t, newModern(served.d))
	seen := 0
	mounted.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				seen++
			}
			return next(ctx, method, req)
		}
	})
	a, _ := send(served.Handler(nil), modernHeaders("tools/call", "add"), callBody("1", "add", `{"a":1,"b":2}`, ""))
	assert.Equal(t, http.StatusOK, a.Status)
	assert.Contains(t, a.Body, `"structuredContent":{"result":3}`)
	assert.Equal(t, 1, seen)
	var v map[string]any
	assert.Error(t, json.Unmarshal([]byte(a.Body), &v)) // an SSE event, not JSON
}

// BenchmarkStatelessCall serves one 2026-07-28 tools/call (and tools/list)
// through Server.Handler in process, on mcpgen's own path (path=own) and
// with go-sdk's stateless handler answering it (path=gosdk): the
// allocations per request; path=none is a handler doing nothing, what the
// benchmark itself allocates (the request, its headers, the recorder). loopback=1 sends them over a loopback TCP
// server from parallel clients: 1e9 / ns/op is requests per second.
func BenchmarkStatelessCall(b *testing.B) {
	reg := NewRegistry()
	type sumIn struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	if err := Add(reg, "calculate_sum", func(_ context.Context, in sumIn) (float64, error) { return in.A + in.B, nil }, Description("Adds.")); err != nil {
		b.Fatal(err)
	}
	srv := reg.Server(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	call := callBody("1", "calculate_sum", `{"a":1,"b":2}`, "")
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + diffMeta + `}}`
	for _, path := range []string{"own", "gosdk", "none"} {
		var h http.Handler = http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}) // none: the benchmark's own allocations
		if path != "none" {
			h = newHTTPHandler(srv, nil, path == "own")
		}
		for _, c := range []struct{ method, name, body string }{{"tools/call", "calculate_sum", call}, {"tools/list", "", list}} {
			hdr := modernHeaders(c.method, c.name)
			b.Run("method="+c.method+"/path="+path, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					req := httptest.NewRequest(http.MethodPost, "http://localhost/mcp", strings.NewReader(c.body))
					for k, v := range hdr {
						if v != "" {
							req.Header.Set(k, v)
						}
					}
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK {
						b.Fatal(rec.Code, rec.Body.String())
					}
				}
			})
		}
		if path == "none" {
			continue
		}
		b.Run("method=tools/call/path="+path+"/loopback=1", func(b *testing.B) {
			hs := httptest.NewServer(h)
			defer hs.Close()
			hdr := modernHeaders("tools/call", "calculate_sum")
			b.SetParallelism(4)
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
				for pb.Next() {
					req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(call))
					for k, v := range hdr {
						if v != "" {
							req.Header.Set(k, v)
						}
					}
					resp, err := client.Do(req)
					if err != nil {
						b.Error(err)
						return
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
				}
			})
		})
	}
}

// TestModernResponseEncoding: the response the direct path encodes (the
// server's identity spliced into a tools/call result, set in the _meta of
// any other) is byte for byte what jsonrpc.EncodeMessage writes for the
// result with the identity set in its _meta.
func TestModernResponseEncoding(t *testing.T) {
	impl := &mcp.Implementation{Name: "srv", Version: "2"}
	info, err := marshalWire(map[string]any{mcp.MetaKeyServerInfo: impl})
	require.NoError(t, err)
	info = append([]byte(`"_meta":`), info...)
	results := map[string]func() mcp.Result{
		"call":       func() mcp.Result { return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "<3>"}}} },
		"call error": func() mcp.Result { return &mcp.CallToolResult{IsError: true} },
		"call meta":  func() mcp.Result { return &mcp.CallToolResult{Meta: mcp.Meta{"k": 1}} },
		"call structured": func() mcp.Result {
			return sdkpatch.WithResultType(&mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: `{"a":"<&>"}`}},
				StructuredContent: json.RawMessage("{\"a\": \"<&>\u2028\"}"),
			}, false)
		},
		"list": func() mcp.Result { return &mcp.ListToolsResult{Tools: []*mcp.Tool{}} },
	}
	for name, res := range results {
		for _, id := range []any{float64(7), "a<b"} {
			jid, err := jsonrpc.MakeID(id)
			require.NoError(t, err)
			want := res()
			meta := want.GetMeta()
			if meta == nil {
				meta = map[string]any{}
			}
			meta[mcp.MetaKeyServerInfo] = impl
			want.SetMeta(meta)
			raw, err := marshalWire(want)
			require.NoError(t, err)
			wantMsg, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: jid, Result: raw})
			require.NoError(t, err)

			e := newEncoder()
			require.NoError(t, e.response(jid, res(), impl, info))
			assert.Equal(t, string(wantMsg), e.buf.String(), "%s, id %v", name, id)
		}
	}
}

// A tools/call whose tool is removed before the registry's middleware
// looks it up (behind a user's middleware: a registry changing under
// load) gets the unknown tool error go-sdk gives a tool it does not hold.
func TestModernCallOfToolRemovedMeanwhile(t *testing.T) {
	reg := diffRegistry(t)
	srv := reg.Server(&mcp.Implementation{Name: "a", Version: "1"}, nil)
	m := newModern(srv.d)
	require.NotNil(t, m)
	_, err := m.d.serve(context.Background(), "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: "removed", Arguments: json.RawMessage(`{}`)}, Extra: &mcp.RequestExtra{}}, nil)
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
	assert.Equal(t, `unknown tool "removed"`, je.Message)
}

//lint:file-ignore SA1019 the conformance suite exercises sampling, roots and logging, deprecated by the 2026-07-28 revision (SEP-2577) but still in the protocol.

package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

const (
	legacyVersion = "2025-11-25"
	modernVersion = "2026-07-28"
)

// newConformance builds the conformance toolset: its registry and server.
func newConformance(t *testing.T) *app {
	t.Helper()
	a, err := newApp(config{toolset: "conformance"}, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, a.close()) })
	return a
}

// connect serves the conformance toolset to a go-sdk client (mcptest's) over
// in-memory transports. version "" lets the client pick (2026-07-28 in
// memory); the session must end up on want.
func connect(t *testing.T, opts *mcp.ClientOptions, version, want string, more ...mcptest.Option) *mcptest.Conn {
	t.Helper()
	a := newConformance(t)
	c := mcptest.Client(t, a.reg, append([]mcptest.Option{mcptest.Server(a.srv),
		mcptest.ClientOptions(opts), mcptest.Version(version)}, more...)...)
	require.Equal(t, want, c.Session.InitializeResult().ProtocolVersion, "negotiated protocol version")
	return c
}

func call(t *testing.T, cs *mcptest.Conn, name string, args any) *mcp.CallToolResult {
	t.Helper()
	return cs.Call(name, args).CallToolResult
}

func text(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.False(t, res.IsError, "isError result: %s", contentText(res))
	return contentText(res)
}

func contentText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// elicitor answers elicitations by the property they ask for, and counts them.
type elicitor struct {
	mu       sync.Mutex
	messages []string
}

func (e *elicitor) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	e.mu.Lock()
	e.messages = append(e.messages, req.Params.Message)
	e.mu.Unlock()
	raw, err := json.Marshal(req.Params.RequestedSchema)
	if err != nil {
		return nil, err
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, err
	}
	answers := map[string]any{"name": "Alice", "color": "blue", "username": "testuser", "ok": true}
	content := map[string]any{}
	for p := range schema.Properties {
		if v, ok := answers[p]; ok {
			content[p] = v
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

func (e *elicitor) asked() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.messages...)
}

func sampler(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	prompt := ""
	if len(req.Params.Messages) > 0 {
		if tc, ok := req.Params.Messages[0].Content.(*mcp.TextContent); ok {
			prompt = tc.Text
		}
	}
	return &mcp.CreateMessageResult{Role: "assistant", Model: "test-model", StopReason: "endTurn",
		Content: &mcp.TextContent{Text: "answer to " + prompt}}, nil
}

// TestInputBothEras calls the tools that ask the client for input in both
// protocol eras: on 2025-11-25 mcpgen sends the client requests and waits; on
// 2026-07-28 it answers with input-required results, which the go-sdk client
// fulfils and retries. The tools are the same code either way.
func TestInputBothEras(t *testing.T) {
	for _, era := range []struct{ name, version, want string }{
		{"legacy", legacyVersion, legacyVersion},
		{"modern", "", modernVersion},
	} {
		t.Run(era.name, func(t *testing.T) {
			el := &elicitor{}
			opts := &mcp.ClientOptions{ElicitationHandler: el.handle, CreateMessageHandler: sampler}
			cs := connect(t, opts, era.version, era.want)

			assert.Equal(t, "Multi-round complete: Alice likes blue",
				text(t, call(t, cs, "test_input_required_result_multi_round", map[string]any{})))
			assert.Equal(t, []string{"Step 1: What is your name?", "Step 2: What is your favorite color?"}, el.asked())

			assert.Equal(t, "LLM response: answer to 2+2?",
				text(t, call(t, cs, "test_sampling", map[string]any{"prompt": "2+2?"})))
			assert.Equal(t, "Elicitation result: action=accept, content=map[username:testuser]",
				text(t, call(t, cs, "test_elicitation", map[string]any{"message": "Pick a username"})))
			assert.Contains(t, text(t, call(t, cs, "test_input_required_result_request_state", map[string]any{})), "state-ok")
			// The go-sdk client fills in the defaults of SEP-1034.
			assert.Equal(t, "Elicitation result: action=accept, content=map[age:30 name:Alice score:95.5 status:active verified:true]",
				text(t, call(t, cs, "test_elicitation_sep1034_defaults", map[string]any{})))
			assert.Equal(t, "Elicitation result: action=accept, content=map[]",
				text(t, call(t, cs, "test_elicitation_sep1330_enums", map[string]any{})))
			// The arguments are checked before the tool runs.
			res := call(t, cs, "test_sampling", map[string]any{})
			assert.True(t, res.IsError, "test_sampling without a prompt: %s", contentText(res))
		})
	}
}

// TestMultipleInputsModern asks for elicitation, sampling and roots in one
// round of a 2026-07-28 call.
func TestMultipleInputsModern(t *testing.T) {
	el := &elicitor{}
	cs := connect(t, nil, "", modernVersion, mcptest.Elicit(el.handle), mcptest.Sample(sampler),
		mcptest.Roots(&mcp.Root{URI: "file:///work", Name: "work"}))
	assert.Equal(t, "answer to Generate a greeting Alice: 1 root(s) visible",
		text(t, call(t, cs, "test_input_required_result_multiple_inputs", map[string]any{})))
	assert.Equal(t, "Client exposed 1 root(s): file:///work",
		text(t, call(t, cs, "test_input_required_result_list_roots", map[string]any{})))
}

// TestToolError checks that test_error_handling's error reaches the model as
// an isError result with its text.
func TestToolError(t *testing.T) {
	cs := connect(t, nil, "", modernVersion)
	res := call(t, cs, "test_error_handling", map[string]any{})
	assert.True(t, res.IsError)
	assert.Equal(t, "this tool intentionally returns an error for testing", contentText(res))
}

// TestMissingCapability checks that a tool's *jsonrpc.Error reaches the client
// as that protocol error, with its data.
func TestMissingCapability(t *testing.T) {
	for _, era := range []struct{ version, want string }{{legacyVersion, legacyVersion}, {"", modernVersion}} {
		cs := connect(t, nil, era.version, era.want)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := cs.Session.CallTool(ctx, &mcp.CallToolParams{Name: "test_missing_capability", Arguments: map[string]any{}})
		cancel()
		var je *jsonrpc.Error
		require.ErrorAs(t, err, &je, era.want)
		assert.Equal(t, int64(mcp.CodeMissingRequiredClientCapabilities), je.Code, era.want)
		assert.JSONEq(t, `{"requiredCapabilities":{"sampling":{}}}`, string(je.Data), era.want)
	}
	cs := connect(t, &mcp.ClientOptions{CreateMessageHandler: sampler}, "", modernVersion)
	assert.Contains(t, text(t, call(t, cs, "test_missing_capability", map[string]any{})), "tool executed")
}

// TestNotificationsLegacy checks progress and logging on a 2025-11-25 session.
func TestNotificationsLegacy(t *testing.T) {
	cs := connect(t, nil, legacyVersion, legacyVersion, mcptest.LogLevel("debug"))
	text(t, call(t, cs, "test_tool_with_logging", map[string]any{}))
	res := call(t, cs, "test_tool_with_progress", map[string]any{})
	assert.Len(t, cs.Logs(3), 3, "want 3 log notifications")
	progress := cs.Progress(3)
	require.Len(t, progress, 3, "want 3 progress notifications")
	assert.Equal(t, progress[0].ProgressToken, text(t, res), "the progress tool returns the token")
}

// TestJSONSchema202012 checks the schema json_schema_2020_12_tool publishes,
// and that mcpgen enforces its allOf/if-then-else rules.
func TestJSONSchema202012(t *testing.T) {
	cs := connect(t, nil, "", modernVersion)
	var schema map[string]any
	for _, tool := range cs.Tools() {
		assert.NotEmpty(t, tool.Description, "tool %s has no description", tool.Name)
		if tool.Name == "json_schema_2020_12_tool" {
			raw, err := json.Marshal(tool.InputSchema)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &schema))
		}
	}
	require.NotNil(t, schema, "json_schema_2020_12_tool not listed")
	defs, _ := schema["$defs"].(map[string]any)
	addr, _ := defs["address"].(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	ref, _ := props["address"].(map[string]any)
	for what, ok := range map[string]bool{
		"$schema":               schema["$schema"] == "https://json-schema.org/draft/2020-12/schema",
		"$defs.address.$anchor": addr["$anchor"] == "addressDef",
		"address $ref":          ref["$ref"] == "#/$defs/address",
		"additionalProperties":  schema["additionalProperties"] == false,
		"allOf":                 schema["allOf"] != nil,
		"if/then/else":          schema["if"] != nil && schema["then"] != nil && schema["else"] != nil,
	} {
		assert.True(t, ok, "inputSchema: %s missing or wrong: %v", what, schema)
	}
	for _, c := range []struct {
		args map[string]any
		ok   bool
	}{
		{map[string]any{"email": "a@example.com"}, true},
		{map[string]any{"contactMethod": "phone", "phone": "555", "address": map[string]any{"city": "Paris"}}, true},
		{map[string]any{}, false}, // neither phone nor email
		{map[string]any{"contactMethod": "phone", "email": "a@example.com"}, false}, // phone chosen, none given
		{map[string]any{"email": "a@example.com", "fax": "1"}, false},               // unknown property
	} {
		res := call(t, cs, "json_schema_2020_12_tool", c.args)
		assert.Equal(t, !c.ok, res.IsError, "%v: %s", c.args, contentText(res))
	}
}

// TestTriggerToolChange checks that the transient tool comes and goes through
// the registry, and clients are told.
func TestTriggerToolChange(t *testing.T) {
	changed := make(chan struct{}, 8)
	cs := connect(t, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	}, legacyVersion, legacyVersion)
	text(t, call(t, cs, "test_trigger_tool_change", map[string]any{}))
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
	assert.Equal(t, "transient", text(t, call(t, cs, transientTool, map[string]any{})))
}

// TestTamperedState drives test_input_required_result_tampered_state over
// HTTP on the 2026-07-28 wire: mcpgen seals requestState with AES-GCM, so an
// altered state is refused before the tool runs, and the real one completes.
func TestTamperedState(t *testing.T) {
	a := newConformance(t)
	hs := httptest.NewServer(a.srv.Handler(nil))
	defer hs.Close()
	const tool = "test_input_required_result_tampered_state"
	post := func(params map[string]any) (int, map[string]any) {
		t.Helper()
		params["name"] = tool
		params["arguments"] = map[string]any{}
		params["_meta"] = map[string]any{
			mcp.MetaKeyProtocolVersion:    modernVersion,
			mcp.MetaKeyClientCapabilities: map[string]any{"elicitation": map[string]any{}},
			mcp.MetaKeyClientInfo:         map[string]any{"name": "raw", "version": "1"},
		}
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
		req, _ := http.NewRequest(http.MethodPost, hs.URL, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", modernVersion)
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", tool)
		resp, err := hs.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		msg := readMessage(t, resp)
		return resp.StatusCode, msg
	}

	_, first := post(map[string]any{})
	result, _ := first["result"].(map[string]any)
	state, _ := result["requestState"].(string)
	require.Equal(t, "input_required", result["resultType"], "first call: %v", first)
	require.NotEmpty(t, state, "first call: %v", first)
	answer := map[string]any{"confirm": map[string]any{"action": "accept", "content": map[string]any{"ok": true}}}

	status, tampered := post(map[string]any{"inputResponses": answer, "requestState": state + "-TAMPERED"})
	errObj, _ := tampered["error"].(map[string]any)
	assert.Equal(t, http.StatusBadRequest, status, "tampered state: %v", tampered)
	if assert.NotNil(t, errObj, "tampered state: %v", tampered) {
		assert.EqualValues(t, jsonrpc.CodeInvalidParams, errObj["code"])
	}

	_, done := post(map[string]any{"inputResponses": answer, "requestState": state})
	result, _ = done["result"].(map[string]any)
	require.NotNil(t, result, "genuine state: %v", done)
	assert.NotEqual(t, "input_required", result["resultType"])
	assert.Contains(t, toJSON(result["content"]), "state-ok")
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// readMessage reads the JSON-RPC response of a POST, sent as JSON or as the
// last data event of an SSE stream.
func readMessage(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	var raw []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok && strings.Contains(d, `"id"`) {
				raw = []byte(d)
			}
		}
	} else {
		var err error
		raw, err = io.ReadAll(resp.Body)
		require.NoError(t, err)
	}
	var msg map[string]any
	require.NoError(t, json.Unmarshal(raw, &msg), "HTTP %d: not a JSON-RPC message: %q", resp.StatusCode, raw)
	return msg
}

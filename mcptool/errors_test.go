package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// regRefRe matches the text of an internal-error result.
var regRefRe = regexp.MustCompile(`^internal error \(ref ([0-9a-f]{12})\)$`)

func TestCodeString(t *testing.T) {
	assert.Equal(t, "unknown_tool", mcptool.CodeUnknownTool.String())
	assert.Equal(t, "malformed_arguments", mcptool.CodeMalformedArguments.String())
	assert.Equal(t, "invalid_name", mcptool.CodeInvalidName.String())
	assert.Equal(t, "duplicate", mcptool.CodeDuplicate.String())
	assert.Equal(t, "invalid_definition", mcptool.CodeInvalidDefinition.String())
	assert.Equal(t, "code(0)", mcptool.Code(0).String())
	assert.Equal(t, "code(42)", mcptool.Code(42).String())
	assert.Equal(t, "duplicate", fmt.Sprint(mcptool.CodeDuplicate), "Code is a Stringer")

	codes := []mcptool.Code{mcptool.CodeUnknownTool, mcptool.CodeMalformedArguments, mcptool.CodeInvalidName,
		mcptool.CodeDuplicate, mcptool.CodeInvalidDefinition}
	seen := map[mcptool.Code]bool{}
	for _, c := range codes {
		assert.NotZero(t, c, "0 means no code: CodeOf returns it for other errors")
		assert.False(t, seen[c], "codes are distinct")
		seen[c] = true
	}
}

func TestErrorFormatting(t *testing.T) {
	inner := errors.New("boom")
	e := &mcptool.Error{Code: mcptool.CodeDuplicate, Tool: "t", Err: inner}
	assert.Equal(t, `mcptool: tool "t": duplicate: boom`, e.Error())
	assert.Same(t, inner, e.Unwrap())
	assert.ErrorIs(t, e, inner)

	e = &mcptool.Error{Code: mcptool.CodeInvalidName, Err: inner}
	assert.Equal(t, `mcptool: invalid_name: boom`, e.Error(), "no tool name: no tool part")
}

func TestCodeOf(t *testing.T) {
	assert.Equal(t, mcptool.Code(0), mcptool.CodeOf(nil))
	assert.Equal(t, mcptool.Code(0), mcptool.CodeOf(errors.New("plain")))
	e := &mcptool.Error{Code: mcptool.CodeUnknownTool, Tool: "x"}
	assert.Equal(t, mcptool.CodeUnknownTool, mcptool.CodeOf(e))
	wrapped := fmt.Errorf("serving: %w", e)
	assert.Equal(t, mcptool.CodeUnknownTool, mcptool.CodeOf(wrapped))
	assert.Equal(t, mcptool.CodeUnknownTool, mcptool.CodeOf(errors.Join(errors.New("a"), wrapped)))
	assert.Equal(t, mcptool.Code(0), mcptool.CodeOf(fmt.Errorf("%w", errors.New("x"))))
}

func TestErrorJSONRPC(t *testing.T) {
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("echo", func(in shapeArgs) (string, error) { return in.X, nil }))

	_, err := r.Call(context.Background(), "nope", nil)
	var e *mcptool.Error
	require.ErrorAs(t, err, &e)
	je := e.JSONRPC()
	assert.Equal(t, int64(-32602), je.Code, "invalid params")
	assert.EqualValues(t, jsonrpc.CodeInvalidParams, je.Code)
	assert.Equal(t, `unknown tool "nope"`, je.Message)

	_, err = r.Call(context.Background(), "echo", json.RawMessage(`{"x":`))
	require.ErrorAs(t, err, &e)
	je = e.JSONRPC()
	assert.Equal(t, int64(-32602), je.Code)
	assert.True(t, strings.HasPrefix(je.Message, `tool "echo": malformed JSON arguments at offset `), je.Message)
	assert.NotContains(t, je.Message, "mcptool:", "the public message drops the Go package prefix")

	// Other codes carry the whole error.
	e = &mcptool.Error{Code: mcptool.CodeDuplicate, Tool: "d", Err: errors.New("twice")}
	assert.Equal(t, e.Error(), e.JSONRPC().Message)
}

func TestCallUnknownTool(t *testing.T) {
	r := mcptool.NewRegistry()
	for _, name := range []string{"missing", "", "has space"} {
		res, err := r.Call(context.Background(), name, json.RawMessage(`{}`))
		assert.Nil(t, res)
		require.Error(t, err)
		assert.Equal(t, mcptool.CodeUnknownTool, mcptool.CodeOf(err))
		var e *mcptool.Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, name, e.Tool)
	}
	require.NoError(t, r.Add("Known", func() error { return nil }))
	_, err := r.Call(context.Background(), "known", nil)
	assert.Equal(t, mcptool.CodeUnknownTool, mcptool.CodeOf(err), "names are case-sensitive")
}

func TestCallMalformedArguments(t *testing.T) {
	type In struct {
		A int    `json:"a,omitempty"`
		S string `json:"s,omitempty"`
	}
	ran := false
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("t", func(In) error { ran = true; return nil }))
	require.NoError(t, mcptool.Add(r, "g", func(context.Context, In) (string, error) { ran = true; return "", nil }))
	require.NoError(t, r.Add("none", func() error { ran = true; return nil }))

	malformed := []string{
		`{`,
		`{"a":}`,
		`{"a":1,}`,
		`{"a" 1}`,
		`{a:1}`,
		`{"a":1}}`,
		`{"a":1} {"a":2}`,
		`{"s":"unterminated}`,
		`{"s":"bad \x escape"}`,
		`nul`,
		`tru`,
		`{"a":01}`,
		`{"a":1.}`,
		`{'a':1}`,
		"\x00",
		`]`,
	}
	for _, name := range []string{"t", "g", "none"} {
		for _, args := range malformed {
			ran = false
			res, err := r.Call(context.Background(), name, json.RawMessage(args))
			assert.Nil(t, res, "%s %q", name, args)
			require.Error(t, err, "%s %q", name, args)
			assert.Equal(t, mcptool.CodeMalformedArguments, mcptool.CodeOf(err), "%s %q: %v", name, args, err)
			var e *mcptool.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, name, e.Tool)
			assert.Contains(t, err.Error(), "malformed JSON arguments at offset")
			assert.False(t, ran, "the function does not run")
		}
	}

	// Well-formed JSON of the wrong shape is the model's to fix: an isError result.
	for _, args := range []string{`[]`, `"str"`, `1`, `true`, `[{"a":1}]`} {
		msg := regFail(t, r, "t", args)
		assert.Contains(t, msg, "(arguments): must be an object", args)
	}
	// Empty and null arguments mean none.
	for _, args := range []string{"", "null", " {} ", "\n{\n}\n"} {
		ran = false
		res := regCall(t, r, "t", args)
		assert.False(t, res.IsError, "%q", args)
		assert.True(t, ran)
	}
}

func TestCallInvalidArgumentsAllAtOnce(t *testing.T) {
	type Range struct {
		From int `json:"from" validate:"min=0"`
		To   int `json:"to" validate:"max=100"`
	}
	type In struct {
		Name    string   `json:"name" validate:"min=3"`
		Filters []Range  `json:"filters,omitempty" validate:"omitempty,max=5"`
		Tags    []string `json:"tags,omitempty" validate:"omitempty,dive,oneof=a b"`
		Mode    string   `json:"mode,omitempty" validate:"omitempty,oneof=fast slow"`
		Email   string   `json:"email,omitempty" validate:"omitempty,email"`
	}
	called := false
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("filter", func(in In) error { called = true; return nil }))

	msg := regFail(t, r, "filter", `{
		"name": "ab",
		"filters": [{"from":1,"to":2},{"from":0,"to":100},{"from":-1,"to":101},{"from":"x","to":1},{"to":1}],
		"tags": ["a","c"],
		"mode": "warp",
		"email": "not-an-email",
		"color": "red"
	}`)
	assert.False(t, called)
	assert.True(t, strings.HasPrefix(msg, "invalid arguments:\n- "), msg)
	want := []struct{ path, rule string }{
		{"name", "minLength"},
		{"filters[2].from", "minimum"},
		{"filters[2].to", "maximum"},
		{"filters[3].from", "type"},
		{"filters[4].from", "required"},
		{"tags[1]", "enum"},
		{"mode", "enum"},
		{"email", "format"},
		{"color", "additionalProperties"},
	}
	lines := strings.Split(strings.TrimPrefix(msg, "invalid arguments:\n"), "\n")
	require.Len(t, lines, len(want), msg)
	for _, w := range want {
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, "- "+w.path+": ") && strings.HasSuffix(l, "("+w.rule+")") {
				found = true
			}
		}
		assert.True(t, found, "no line for %s (%s) in:\n%s", w.path, w.rule, msg)
	}
	assert.Contains(t, msg, "- filters[2].from: must be at least 0, got -1 (minimum)")
	assert.NotContains(t, msg, "filters[0]")
	assert.NotContains(t, msg, "filters[1]", "the bounds themselves are valid")

	// Fixing every problem makes the call go through.
	res := regCall(t, r, "filter", `{"name":"abc","filters":[{"from":0,"to":100}],"tags":["a","b"],"mode":"fast","email":"a@example.com"}`)
	assert.False(t, res.IsError, regMarshal(t, res))
	assert.True(t, called)
}

func TestCallDefaultsAndExplicitZero(t *testing.T) {
	type In struct {
		Limit   int     `json:"limit,omitempty" jsonschema:"default=10"`
		Verbose bool    `json:"verbose,omitempty" jsonschema:"default=true"`
		Name    string  `json:"name,omitempty" jsonschema:"default=anon"`
		Ratio   float64 `json:"ratio,omitempty" jsonschema:"default=0.5"`
		Plain   int     `json:"plain,omitempty"`
		Ptr     *int    `json:"ptr,omitempty"`
	}
	var got In
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("d", func(in In) error { got = in; return nil }))

	props := regTool(t, r, "d")["inputSchema"].(map[string]any)["properties"].(map[string]any)
	assert.Equal(t, float64(10), regPath(t, props, "limit", "default"))
	assert.Equal(t, true, regPath(t, props, "verbose", "default"))
	assert.Equal(t, "anon", regPath(t, props, "name", "default"))
	assert.Equal(t, 0.5, regPath(t, props, "ratio", "default"))

	regCall(t, r, "d", `{}`)
	assert.Equal(t, In{Limit: 10, Verbose: true, Name: "anon", Ratio: 0.5}, got, "absent optional properties take their defaults")

	got = In{}
	regCall(t, r, "d", ``)
	assert.Equal(t, In{Limit: 10, Verbose: true, Name: "anon", Ratio: 0.5}, got, "no arguments at all: defaults too")

	zero := 0
	regCall(t, r, "d", `{"limit":0,"verbose":false,"name":"","ratio":0,"plain":0,"ptr":0}`)
	assert.Equal(t, In{Ptr: &zero}, got, "explicit zero values are kept, not replaced by defaults")

	regCall(t, r, "d", `{"limit":3}`)
	assert.Equal(t, In{Limit: 3, Verbose: true, Name: "anon", Ratio: 0.5}, got, "defaults fill only what is absent")
	assert.Nil(t, got.Ptr, "an absent pointer stays nil")
}

func TestCallToolError(t *testing.T) {
	r := mcptool.NewRegistry()
	sentinel := errors.New("quota exceeded")
	require.NoError(t, r.Add("fails", func(ctx context.Context, in shapeArgs) (string, error) {
		return "ignored", mcptool.Errorf("search %q: %w", in.X, sentinel)
	}))
	require.NoError(t, r.Add("fails_struct", func() (resultPoint, error) { return resultPoint{X: 1}, mcptool.Errorf("bad point") }))
	require.NoError(t, mcptool.Add(r, "fails_generic", func(ctx context.Context, in shapeArgs) (int, error) {
		return 0, mcptool.UserError(errors.New("generic failure"))
	}))
	require.NoError(t, r.Add("fails_multiline", func() error { return mcptool.Errorf("line one\nline two") }))

	res := regCall(t, r, "fails", `{"x":"cats"}`)
	assert.True(t, res.IsError)
	assert.Equal(t, `search "cats": quota exceeded`, regText(t, res))
	assert.JSONEq(t, `{"content":[{"type":"text","text":"search \"cats\": quota exceeded"}],"isError":true}`, regMarshal(t, res))

	assert.Equal(t, "bad point", regFail(t, r, "fails_struct", ""))
	assert.Equal(t, "generic failure", regFail(t, r, "fails_generic", `{"x":""}`))
	assert.Equal(t, "line one\nline two", regFail(t, r, "fails_multiline", ""))
}

func TestCallToolErrorMasking(t *testing.T) {
	secret := errors.New("dial tcp 10.0.0.7:5432: connection refused")
	fns := map[string]func() error{
		"plain":        func() error { return secret },
		"wrapped":      func() error { return fmt.Errorf("load user: %w", secret) },
		"user":         func() error { return mcptool.UserError(errors.New("user 7 does not exist")) },
		"errorf":       func() error { return mcptool.Errorf("user %d does not exist: %w", 7, secret) },
		"user_wrapped": func() error { return fmt.Errorf("lookup: %w", mcptool.Errorf("no such user")) },
	}
	build := func(logs *regLockedBuffer, opts ...mcptool.RegistryOption) *mcptool.Registry {
		opts = append(opts, mcptool.Logger(slog.New(slog.NewTextHandler(logs, nil))))
		r := mcptool.NewRegistry(opts...)
		for name, fn := range fns {
			require.NoError(t, r.Add(name, fn))
		}
		return r
	}

	var logs regLockedBuffer
	r := build(&logs)
	// Errors not meant for the model are masked and logged under a reference.
	for _, name := range []string{"plain", "wrapped"} {
		text := regFail(t, r, name, "")
		m := regRefRe.FindStringSubmatch(text)
		require.NotNil(t, m, "%s: %q", name, text)
		assert.NotContains(t, text, "10.0.0.7")
		assert.Contains(t, logs.String(), "ref="+m[1])
	}
	assert.Contains(t, logs.String(), "10.0.0.7:5432")
	// Errors meant for the model are shown, also when wrapped.
	assert.Equal(t, "user 7 does not exist", regFail(t, r, "user", ""))
	assert.Equal(t, "user 7 does not exist: dial tcp 10.0.0.7:5432: connection refused", regFail(t, r, "errorf", ""))
	assert.Equal(t, "lookup: no such user", regFail(t, r, "user_wrapped", ""))

	// ExposeErrors shows every error's text.
	r = build(&logs, mcptool.ExposeErrors())
	assert.Equal(t, secret.Error(), regFail(t, r, "plain", ""))
	assert.Equal(t, "load user: "+secret.Error(), regFail(t, r, "wrapped", ""))
	assert.Equal(t, "user 7 does not exist", regFail(t, r, "user", ""))
}

func TestUserErrorHelpers(t *testing.T) {
	assert.NoError(t, mcptool.UserError(nil), "UserError(nil) is nil")
	base := errors.New("base")
	ue := mcptool.UserError(base)
	assert.Equal(t, "base", ue.Error())
	assert.ErrorIs(t, ue, base, "UserError keeps the chain")
	assert.True(t, mcptool.IsUserError(ue))
	assert.True(t, mcptool.IsUserError(fmt.Errorf("ctx: %w", ue)), "wrapping keeps the mark")
	assert.False(t, mcptool.IsUserError(base))
	assert.False(t, mcptool.IsUserError(nil))
	assert.False(t, mcptool.IsUserError(fmt.Errorf("ctx: %v", ue)), "%v drops the mark")

	ef := mcptool.Errorf("n=%d: %w", 3, base)
	assert.Equal(t, "n=3: base", ef.Error())
	assert.ErrorIs(t, ef, base, "%w works in Errorf")
	assert.True(t, mcptool.IsUserError(ef))
}

// regLockedBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type regLockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *regLockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *regLockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestCallPanic(t *testing.T) {
	var logs regLockedBuffer
	r := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.NewJSONHandler(&logs, nil))))
	type In struct {
		Mode string `json:"mode"`
	}
	explode := func(mode string) (string, error) {
		switch mode {
		case "string":
			panic("kaboom: secret detail")
		case "error":
			panic(fmt.Errorf("wrapped %w", io.ErrUnexpectedEOF))
		case "nil map":
			var m map[string]int
			//lint:ignore SA5000 the test panics on purpose
			m["x"] = 1
		case "index":
			var s []int
			_ = s[3]
		}
		return "fine:" + mode, nil
	}
	require.NoError(t, r.Add("boom", func(ctx context.Context, in In) (string, error) { return explode(in.Mode) }))
	require.NoError(t, mcptool.Add(r, "boom_generic", func(ctx context.Context, in In) (string, error) { return explode(in.Mode) }))
	require.NoError(t, r.Add("other", func() (string, error) { return "still here", nil }))

	tests := []struct{ mode, logPart string }{
		{"string", "panic: kaboom: secret detail"},
		{"error", "panic: wrapped unexpected EOF"},
		{"nil map", "panic: assignment to entry in nil map"},
		{"index", "index out of range"},
	}
	refs := map[string]bool{}
	for _, tool := range []string{"boom", "boom_generic"} {
		for _, tt := range tests {
			t.Run(tool+"/"+tt.mode, func(t *testing.T) {
				before := len(logs.String())
				res, err := r.Call(context.Background(), tool, json.RawMessage(`{"mode":"`+tt.mode+`"}`))
				require.NoError(t, err, "a panic is not a protocol error")
				require.True(t, res.IsError)
				text := regText(t, res)
				m := regRefRe.FindStringSubmatch(text)
				require.NotNil(t, m, "result text %q", text)
				ref := m[1]
				assert.False(t, refs[ref], "references are unique")
				refs[ref] = true
				assert.NotContains(t, text, "kaboom", "panic details never reach the model")
				assert.Nil(t, res.StructuredContent)

				// The log has one record with the same reference, the panic and a stack.
				entry := logs.String()[before:]
				require.Equal(t, 1, strings.Count(entry, "\n"), entry)
				var rec map[string]any
				require.NoError(t, json.Unmarshal([]byte(entry), &rec))
				assert.Equal(t, "ERROR", rec["level"])
				assert.Equal(t, ref, rec["ref"])
				assert.Equal(t, tool, rec["tool"])
				assert.Contains(t, rec["err"], tt.logPart)
				stack, _ := rec["stack"].(string)
				assert.Contains(t, stack, "goroutine ")
				assert.Contains(t, stack, "mcptool_test.", "the stack reaches the tool function")
			})
		}
	}

	// The registry keeps working after panics.
	assert.Equal(t, "still here", regOK(t, r, "other", ""))
	assert.Equal(t, "fine:ok", regOK(t, r, "boom", `{"mode":"ok"}`))
	assert.Equal(t, "fine:ok", regOK(t, r, "boom_generic", `{"mode":"ok"}`))

	// And under concurrent panics.
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mode := "string"
			if i%2 == 0 {
				mode = "ok"
			}
			res, err := r.Call(context.Background(), "boom", json.RawMessage(`{"mode":"`+mode+`"}`))
			if err != nil {
				t.Error(err)
				return
			}
			if res.IsError != (mode != "ok") {
				t.Errorf("mode %s: isError=%v", mode, res.IsError)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, "still here", regOK(t, r, "other", ""))
}

func TestCallPanicDefaultLogger(t *testing.T) {
	// Without Logger, internal errors go to slog.Default().
	var logs regLockedBuffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	defer slog.SetDefault(old)

	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("p", func() error { panic("default logger") }))
	m := regRefRe.FindStringSubmatch(regFail(t, r, "p", ""))
	require.NotNil(t, m)
	assert.Contains(t, logs.String(), "ref="+m[1])
	assert.Contains(t, logs.String(), "default logger")
}

func TestErrorResult(t *testing.T) {
	res := mcptool.ErrorResult("try a shorter query")
	assert.True(t, res.IsError)
	require.Len(t, res.Content, 1)
	assert.Equal(t, "try a shorter query", res.Content[0].(*mcp.TextContent).Text)
	assert.Nil(t, res.StructuredContent)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"try a shorter query"}],"isError":true}`, regMarshal(t, res))

	assert.NotSame(t, mcptool.ErrorResult("x"), mcptool.ErrorResult("x"), "a fresh result each time")

	// A tool may return one to report its own error with structure of its choosing.
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("t", func() (*mcp.CallToolResult, error) { return mcptool.ErrorResult("nope"), nil }))
	assert.Equal(t, "nope", regFail(t, r, "t", ""))
}

func TestCodeOfTypedNil(t *testing.T) {
	var e *mcptool.Error
	assert.Equal(t, mcptool.Code(0), mcptool.CodeOf(e))
}

func TestGenericAddRejectsErrorResult(t *testing.T) {
	err := mcptool.Add(mcptool.NewRegistry(), "t", func(context.Context, struct{}) (error, error) { return nil, nil })
	require.Error(t, err)
	assert.Equal(t, mcptool.CodeInvalidDefinition, mcptool.CodeOf(err))
	assert.Contains(t, err.Error(), "the first result must not be error")
}

package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

func quiet() mcptool.RegistryOption { return mcptool.Logger(slog.New(slog.DiscardHandler)) }

func call(t *testing.T, reg *mcptool.Registry, name, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := reg.Call(context.Background(), name, json.RawMessage(args))
	require.NoError(t, err)
	return res
}

func textOf(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }

type stubbornArgs struct {
	_ struct{} `mcp:"timeout=50ms"`
}

func TestTimeoutEvenIfToolIgnoresContext(t *testing.T) {
	reg := mcptool.NewRegistry(quiet())
	release := make(chan struct{})
	defer close(release)
	require.NoError(t, reg.Add("stubborn", func(context.Context, stubbornArgs) (string, error) {
		<-release // ignores ctx
		return "late", nil
	}))
	start := time.Now()
	res := call(t, reg, "stubborn", `{}`)
	elapsed := time.Since(start)
	require.True(t, res.IsError)
	assert.Equal(t, "tool stubborn timed out after 50ms", textOf(res))
	assert.Less(t, elapsed, 50*time.Millisecond+200*time.Millisecond)

	// The option overrides the tag, and the tool sees its context cancelled.
	var sawCancel atomic.Bool
	require.NoError(t, reg.Add("polite", func(ctx context.Context, _ stubbornArgs) (string, error) {
		<-ctx.Done()
		sawCancel.Store(true)
		return "", ctx.Err()
	}, mcptool.Timeout(20*time.Millisecond)))
	res = call(t, reg, "polite", `{}`)
	assert.Equal(t, "tool polite timed out after 20ms", textOf(res))
	require.Eventually(t, sawCancel.Load, time.Second, time.Millisecond)

	// A panic in a timed tool is still an internal error, not a crash.
	require.NoError(t, reg.Add("panicky", func(context.Context, stubbornArgs) (string, error) { panic("oops") }))
	assert.Contains(t, textOf(call(t, reg, "panicky", `{}`)), "internal error (ref ")
}

type limitedArgs struct {
	_ struct{} `mcp:"rate=2/s,burst=2"`
}

func TestRateLimit(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("limited", func(context.Context, limitedArgs) (string, error) { return "ok", nil }))
	assert.False(t, call(t, reg, "limited", `{}`).IsError)
	assert.False(t, call(t, reg, "limited", `{}`).IsError)
	res := call(t, reg, "limited", `{}`)
	require.True(t, res.IsError)
	assert.Regexp(t, `^rate limit exceeded for tool limited: retry in \d+ms$`, textOf(res))
}

func TestSessionRateLimit(t *testing.T) {
	ctx := context.Background()
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("chat", func() (string, error) { return "ok", nil }, mcptool.SessionRateLimit(0.001, 1)))
	a := connect(t, inMemory, reg, "2025-11-25", nil, nil)
	b := connect(t, inMemory, reg, "2025-11-25", nil, nil)
	r1, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "chat"})
	require.NoError(t, err)
	assert.False(t, r1.IsError)
	r2, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "chat"})
	require.NoError(t, err)
	require.True(t, r2.IsError)
	assert.Contains(t, textOf(r2), "rate limit exceeded for tool chat in this session")
	r3, err := b.CallTool(ctx, &mcp.CallToolParams{Name: "chat"})
	require.NoError(t, err)
	assert.False(t, r3.IsError, "another session has its own budget")
}

func TestMaxConcurrency(t *testing.T) {
	reg := mcptool.NewRegistry()
	entered := make(chan struct{})
	release := make(chan struct{})
	require.NoError(t, reg.Add("single", func(context.Context) (string, error) {
		entered <- struct{}{}
		<-release
		return "ok", nil
	}, mcptool.MaxConcurrency(1)))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); assert.False(t, call(t, reg, "single", `{}`).IsError) }()
	<-entered
	res := call(t, reg, "single", `{}`)
	require.True(t, res.IsError)
	assert.Equal(t, "tool single is already running 1 calls: retry in a moment", textOf(res))
	close(release)
	wg.Wait()
}

type smallArgs struct {
	_    struct{} `mcp:"maxArgBytes=32,maxDepth=3"`
	Data any      `json:"data,omitempty" jsonschema:"type=object"`
}

func TestArgumentLimits(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("small", func(context.Context, smallArgs) (string, error) { return "ok", nil }))
	big := `{"data":{"x":"` + strings.Repeat("a", 40) + `"}}`
	res := call(t, reg, "small", big)
	require.True(t, res.IsError)
	assert.Equal(t, fmt.Sprintf("invalid arguments: they are %d bytes, more than the 32 allowed", len(big)), textOf(res))
	res = call(t, reg, "small", `{"data":{"a":{"b":{}}}}`)
	require.True(t, res.IsError)
	assert.Contains(t, textOf(res), "is nested more than 3 levels deep (maxDepth)")
	assert.False(t, call(t, reg, "small", `{"data":{"a":1}}`).IsError)

	// The generic Add honours the limits too.
	require.NoError(t, mcptool.Add(reg, "small_generic", func(context.Context, smallArgs) (string, error) { return "ok", nil }))
	require.NoError(t, mcptool.Add(reg, "small_generic_ptr", func(context.Context, *smallArgs) (string, error) { return "ok", nil }))
	for _, name := range []string{"small_generic", "small_generic_ptr"} {
		res = call(t, reg, name, `{"data":{"a":{"b":{}}}}`)
		require.True(t, res.IsError, name)
		assert.Contains(t, textOf(res), "is nested more than 3 levels deep (maxDepth)", name)
		assert.False(t, call(t, reg, name, `{"data":{"a":1}}`).IsError, name)
	}

	// Registry-wide defaults apply to every tool; the tool's option wins.
	reg = mcptool.NewRegistry(mcptool.MaxArgBytes(10))
	require.NoError(t, reg.Add("t", func() (string, error) { return "ok", nil }))
	require.NoError(t, reg.Add("roomy", func() (string, error) { return "ok", nil }, mcptool.MaxArgBytes(100)))
	assert.True(t, call(t, reg, "t", `{"padding":   1}`).IsError)
	assert.Contains(t, textOf(call(t, reg, "roomy", `{"padding":   1}`)), "padding: is not a known argument")
}

func TestErrorMasking(t *testing.T) {
	var logs bytes.Buffer
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.NewTextHandler(&logs, nil))))
	secret := errors.New("pq: password authentication failed for user \"admin\"")
	require.NoError(t, reg.Add("internal", func() error { return secret }))
	require.NoError(t, reg.Add("user", func() error { return mcptool.Errorf("no page %q", "x") }))
	require.NoError(t, reg.Add("wrapped", func() error { return errors.Join(errors.New("ctx"), mcptool.UserError(errors.New("quota used up"))) }))
	res := call(t, reg, "internal", `{}`)
	require.True(t, res.IsError)
	assert.NotContains(t, textOf(res), "password")
	ref := strings.TrimSuffix(strings.TrimPrefix(textOf(res), "internal error (ref "), ")")
	assert.Len(t, ref, 12)
	assert.Contains(t, logs.String(), "ref="+ref)
	assert.Contains(t, logs.String(), "password authentication failed")
	assert.Equal(t, `no page "x"`, textOf(call(t, reg, "user", `{}`)))
	assert.Equal(t, "ctx\nquota used up", textOf(call(t, reg, "wrapped", `{}`)))
	assert.True(t, mcptool.IsUserError(mcptool.Errorf("x: %w", secret)))
	assert.True(t, errors.Is(mcptool.Errorf("x: %w", secret), secret))
	assert.Nil(t, mcptool.UserError(nil))

	exposed := mcptool.NewRegistry(mcptool.ExposeErrors())
	require.NoError(t, exposed.Add("internal", func() error { return secret }))
	assert.Contains(t, textOf(call(t, exposed, "internal", `{}`)), "password authentication failed")
}

func TestMiddlewareOrder(t *testing.T) {
	var order []string
	mw := func(name string) mcptool.Middleware {
		return func(next mcptool.Handler) mcptool.Handler {
			return func(ctx context.Context, c *mcptool.Call) (*mcp.CallToolResult, error) {
				order = append(order, name+">")
				res, err := next(ctx, c)
				order = append(order, "<"+name)
				return res, err
			}
		}
	}
	deny := func(next mcptool.Handler) mcptool.Handler {
		return func(ctx context.Context, c *mcptool.Call) (*mcp.CallToolResult, error) {
			if strings.Contains(string(c.Arguments), "forbidden") {
				return mcptool.ErrorResult("not allowed"), nil
			}
			return next(ctx, c)
		}
	}
	reg := mcptool.NewRegistry(mcptool.Use(mw("reg1"), mw("reg2")))
	require.NoError(t, reg.Add("t", func(context.Context) (string, error) { order = append(order, "tool"); return "ok", nil },
		mcptool.Use(mw("tool"), deny)))
	call(t, reg, "t", `{}`)
	assert.Equal(t, []string{"reg1>", "reg2>", "tool>", "tool", "<tool", "<reg2", "<reg1"}, order)
	assert.Equal(t, "not allowed", textOf(call(t, reg, "t", `{"forbidden":1}`)))
}

type loginArgs struct {
	User     string `json:"user"`
	Password string `json:"password" jsonschema:"writeOnly"`
	Nested   struct {
		Token string `json:"token" jsonschema:"writeOnly"`
		Keep  string `json:"keep"`
	} `json:"nested"`
}

func TestAudit(t *testing.T) {
	var buf bytes.Buffer
	audit := slog.New(slog.NewJSONHandler(&buf, nil))
	reg := mcptool.NewRegistry(mcptool.Audit(audit, true), quiet())
	require.NoError(t, reg.Add("login", func(context.Context, loginArgs) (string, error) { return "ok", nil }))
	require.NoError(t, reg.Add("broken", func() error { return errors.New("x") }))
	args := `{"user":"ada","password":"hunter2","nested":{"token":"t0k","keep":"k"}}`
	call(t, reg, "login", args)
	call(t, reg, "login", `{"user":1}`)
	call(t, reg, "broken", `{}`)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 3)
	var rec map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &rec))
	assert.Equal(t, "mcp tool call", rec["msg"])
	assert.Equal(t, "login", rec["tool"])
	assert.Equal(t, "ok", rec["outcome"])
	assert.EqualValues(t, len(args), rec["arg_bytes"])
	assert.Equal(t, map[string]any{"user": "ada", "password": "[REDACTED]", "nested": map[string]any{"token": "[REDACTED]", "keep": "k"}}, rec["arguments"])
	assert.NotContains(t, buf.String(), "hunter2")
	assert.NotContains(t, buf.String(), "t0k")
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &rec))
	assert.Equal(t, "invalid_arguments", rec["outcome"])
	require.NoError(t, json.Unmarshal([]byte(lines[2]), &rec))
	assert.Equal(t, "internal_error", rec["outcome"])
}

type deleteArgs struct {
	_    struct{} `mcp:"destructive,confirm"`
	Path string   `json:"path"`
}

func TestConfirm(t *testing.T) {
	for _, v := range eras {
		for _, answer := range []string{"yes", "no", "decline", "accept-empty"} {
			t.Run(eraName(v)+"/"+answer, func(t *testing.T) {
				reg := mcptool.NewRegistry()
				var ran atomic.Int32
				require.NoError(t, reg.Add("delete_file", func(_ context.Context, in deleteArgs) (string, error) {
					ran.Add(1)
					return "deleted " + in.Path, nil
				}))
				var asked string
				var asks atomic.Int32
				cs := connect(t, inMemory, reg, v, &mcp.ClientOptions{
					ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						asks.Add(1)
						asked = r.Params.Message
						switch answer {
						case "yes":
							return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
						case "no":
							return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": false}}, nil
						case "accept-empty":
							// An accept without the answer confirm asks for: no
							// confirmation, refused at once in both eras (not
							// asked again on 2026-07-28, until the client gives up).
							return &mcp.ElicitResult{Action: "accept"}, nil
						}
						return &mcp.ElicitResult{Action: "decline"}, nil
					},
				}, nil)
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "delete_file", Arguments: map[string]any{"path": "a.txt"}})
				require.NoError(t, err)
				assert.Contains(t, asked, `Allow "delete_file" to run?`)
				assert.Contains(t, asked, `{"path":"a.txt"}`)
				if answer == "yes" {
					require.False(t, res.IsError, textOf(res))
					assert.Equal(t, "deleted a.txt", textOf(res))
					assert.EqualValues(t, 1, ran.Load())
					return
				}
				require.True(t, res.IsError)
				action := "accept"
				if answer == "decline" {
					action = "decline"
				}
				assert.Equal(t, "the user did not confirm ("+action+"); delete_file was not run", textOf(res))
				assert.EqualValues(t, 0, ran.Load(), "declined: the tool must not run")
				assert.EqualValues(t, 1, asks.Load(), "the user is asked once")
			})
		}
	}
	// Without elicitation support the tool refuses, and does not run.
	reg := mcptool.NewRegistry()
	ran := false
	require.NoError(t, reg.Add("delete_file", func(context.Context, deleteArgs) (string, error) { ran = true; return "", nil }))
	res := call(t, reg, "delete_file", `{"path":"a"}`)
	require.True(t, res.IsError)
	assert.Contains(t, textOf(res), "needs the user's confirmation before it runs, and this client cannot ask the user")
	assert.False(t, ran)
}

// The user is asked to confirm only a call whose arguments are valid: an
// invalid call to a confirm tool is refused with its violations, and nobody
// is asked.
func TestConfirmOnlyValidCalls(t *testing.T) {
	type wipeArgs struct {
		_    struct{} `mcp:"destructive,confirm"`
		Path string   `json:"path" validate:"required,min=2"`
	}
	for _, v := range eras {
		t.Run(eraName(v), func(t *testing.T) {
			reg := mcptool.NewRegistry()
			var ran, asked atomic.Int32
			require.NoError(t, reg.Add("wipe", func(_ context.Context, in wipeArgs) (string, error) {
				ran.Add(1)
				return "wiped " + in.Path, nil
			}))
			cs := connect(t, inMemory, reg, v, &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked.Add(1)
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
				},
			}, nil)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{"path": "a", "force": true}})
			require.NoError(t, err)
			require.True(t, res.IsError)
			assert.Contains(t, textOf(res), "path")
			assert.Contains(t, textOf(res), "force")
			assert.EqualValues(t, 0, asked.Load(), "an invalid call must not be put to the user")
			assert.EqualValues(t, 0, ran.Load())

			res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{"path": "ab"}})
			require.NoError(t, err)
			require.False(t, res.IsError, textOf(res))
			assert.Equal(t, "wiped ab", textOf(res))
			assert.EqualValues(t, 1, asked.Load())
			assert.EqualValues(t, 1, ran.Load())
		})
	}
}

func TestPolicyDefinitionErrors(t *testing.T) {
	type badTimeout struct {
		_ struct{} `mcp:"timeout=soon"`
	}
	type badRate struct {
		_ struct{} `mcp:"rate=10/day"`
	}
	type confirmRead struct {
		_ struct{} `mcp:"readOnly,confirm"`
	}
	type badConc struct {
		_ struct{} `mcp:"concurrency=0"`
	}
	for _, c := range []struct {
		fn   any
		want string
	}{
		{func(context.Context, badTimeout) error { return nil }, `mcptool_test.badTimeout._: tag mcp:"timeout=soon": timeout must be a positive duration such as 5s or 250ms`},
		{func(context.Context, badRate) error { return nil }, `mcptool_test.badRate._: tag mcp:"rate=10/day": rate "10/day": the unit must be s, m or h`},
		{func(context.Context, confirmRead) error { return nil }, `mcptool_test.confirmRead._: tag mcp:"readOnly,confirm": meaningless hint combination: confirm on a readOnly tool`},
		{func(context.Context, badConc) error { return nil }, `mcptool_test.badConc._: tag mcp:"concurrency=0": concurrency must be a positive integer`},
	} {
		err := mcptool.NewRegistry().Add("t", c.fn)
		require.Error(t, err)
		assert.Contains(t, err.Error(), c.want)
		assert.Equal(t, mcptool.CodeInvalidDefinition, mcptool.CodeOf(err))
	}
}

// Every wrong item of an mcp tag is reported at once, each naming the type,
// the field and the tag.
func TestPolicyDefinitionErrorsAllReported(t *testing.T) {
	type many struct {
		_ struct{} `mcp:"timeout=soon,rate=3/day,readonly,concurrency=0"`
	}
	err := mcptool.NewRegistry().Add("t", func(context.Context, many) error { return nil })
	require.Error(t, err)
	const tag = `mcptool_test.many._: tag mcp:"timeout=soon,rate=3/day,readonly,concurrency=0": `
	for _, want := range []string{
		tag + "timeout must be a positive duration such as 5s or 250ms",
		tag + `rate "3/day": the unit must be s, m or h`,
		tag + `unknown key "readonly" (did you mean "readOnly"?)`,
		tag + "concurrency must be a positive integer",
	} {
		assert.Contains(t, err.Error(), want)
	}
	var de *mcpreflect.DefinitionError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "timeout must be a positive duration such as 5s or 250ms", de.Msg, "errors.As finds the first")
}

// Options win over the tag, and the tag over the registry's defaults.
func TestPolicyOptionsOverrideTag(t *testing.T) {
	type slowArgs struct {
		_ struct{} `mcp:"timeout=20ms,maxArgBytes=16"`
		S string   `json:"s,omitempty"`
	}
	reg := mcptool.NewRegistry(mcptool.Timeout(time.Hour), mcptool.MaxArgBytes(8))
	wait := func(ctx context.Context, _ slowArgs) (string, error) {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(200 * time.Millisecond):
			return "done", nil
		}
	}
	require.NoError(t, reg.Add("tagged", wait))
	require.NoError(t, reg.Add("optioned", wait, mcptool.Timeout(time.Second), mcptool.MaxArgBytes(64)))
	assert.Equal(t, "tool tagged timed out after 20ms", textOf(call(t, reg, "tagged", `{}`)), "the tag wins over the registry")
	assert.Contains(t, textOf(call(t, reg, "tagged", `{"s":"0123456789"}`)), "more than the 16 allowed")
	assert.Equal(t, "done", textOf(call(t, reg, "optioned", `{"s":"0123456789"}`)), "the options win over the tag")

	// A combination of tag and options can be meaningless too.
	type readArgs struct {
		_ struct{} `mcp:"readOnly"`
	}
	err := reg.Add("confirm_read", func(context.Context, readArgs) error { return nil }, mcptool.Confirm())
	require.Error(t, err)
	assert.ErrorIs(t, err, annotations.ErrMeaningless)
	assert.Contains(t, err.Error(), "annotation options: meaningless hint combination: confirm on a readOnly tool")
	err = reg.Add("negative", func(context.Context, slowArgs) error { return nil }, mcptool.Timeout(-time.Second))
	assert.ErrorContains(t, err, "annotation options: timeout must not be negative")
}

func TestRegistryDefaultTimeout(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Timeout(30 * time.Millisecond))
	require.NoError(t, reg.Add("slow", func(ctx context.Context) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}))
	require.NoError(t, reg.Add("patient", func(ctx context.Context, _ stubbornArgs) (string, error) {
		return "done", nil
	}, mcptool.Timeout(time.Second)))
	assert.Equal(t, "tool slow timed out after 30ms", textOf(call(t, reg, "slow", `{}`)))
	assert.Equal(t, "done", textOf(call(t, reg, "patient", `{}`)), "a tool's own timeout wins")
}

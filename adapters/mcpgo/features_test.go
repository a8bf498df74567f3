//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them.

package mcpgo_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
	"weak"

	gomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/adapters/mcpgo"
	"github.com/mcpgen/mcpgen/mcptool"
)

// notifiable are the transports whose mcp-go client delivers server
// notifications: all of them since mcp-go v1 (v0.47's in-process client
// dropped them).
var notifiable = bothEras(inProcess, stdio, streamable)

// notes records the notifications a client received.
type notes struct {
	mu   sync.Mutex
	list []gomcp.JSONRPCNotification
}

func (n *notes) add(x gomcp.JSONRPCNotification) {
	// The in-process transport hands over Go values: see them as JSON, as
	// the other transports do.
	if b, err := json.Marshal(x.Params.AdditionalFields); err == nil {
		var m map[string]any
		if json.Unmarshal(b, &m) == nil {
			x.Params.AdditionalFields = m
		}
	}
	n.mu.Lock()
	n.list = append(n.list, x)
	n.mu.Unlock()
}

// of returns the params of the notifications of method.
func (n *notes) of(method string) []map[string]any {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []map[string]any
	for _, x := range n.list {
		if x.Method == method {
			out = append(out, x.Params.AdditionalFields)
		}
	}
	return out
}

func (n *notes) reset() {
	n.mu.Lock()
	n.list = nil
	n.mu.Unlock()
}

func eventually(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	require.Eventually(t, cond, 3*time.Second, 5*time.Millisecond, msg)
}

// settle is how long the test tools wait after their last notification on
// streamable HTTP. mcp-go's streamable HTTP server (v0.47 to v1.2.1 at least) drops a
// notification that its request's response overtakes, and sends
// notifications on the GET stream and the POST response in no fixed order
// (see docs/mcp-go.md); tests wait, and compare HTTP notifications as sets.
func settle(ctx context.Context) {
	if d, ok := ctx.Value(settleKey{}).(time.Duration); ok {
		time.Sleep(d)
	}
}

type settleKey struct{}

// settleFor returns server options that make the test tools settle on kind.
func settleFor(kind transportKind) []server.ServerOption {
	if kind.base() != streamable {
		return nil
	}
	return []server.ServerOption{server.WithToolHandlerMiddleware(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req gomcp.CallToolRequest) (*gomcp.CallToolResult, error) {
			return next(context.WithValue(ctx, settleKey{}, 100*time.Millisecond), req)
		}
	})}
}

// progress is one notifications/progress, as both clients see it.
type progress struct {
	Token   any
	Value   float64
	Total   float64
	Message string
}

func progressRegistry(t *testing.T) *mcptool.Registry {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("work", func(ctx context.Context) (string, error) {
		for _, p := range []float64{1, 0.5, 2, 2, 3} { // 0.5 and the second 2 are dropped
			mcptool.Progress(ctx, p, 3, fmt.Sprintf("step %v", p))
		}
		mcptool.Progress(ctx, 4, 0, "") // no total, no message
		settle(ctx)
		return "done", nil
	}, mcptool.Description("Works.")))
	return reg
}

func TestProgress(t *testing.T) {
	// The go-sdk path, for reference.
	var mu sync.Mutex
	var want []progress
	sdk := connectSDK(t, progressRegistry(t), "2025-11-25", &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			want = append(want, progress{r.Params.ProgressToken, r.Params.Progress, r.Params.Total, r.Params.Message})
			mu.Unlock()
		},
	})
	params := &mcp.CallToolParams{Name: "work"}
	params.SetProgressToken("tok-1")
	_, err := sdk.cs.CallTool(context.Background(), params)
	require.NoError(t, err)
	eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(want) == 4 }, "go-sdk progress")
	assert.Equal(t, []progress{{"tok-1", 1, 3, "step 1"}, {"tok-1", 2, 3, "step 2"}, {"tok-1", 3, 3, "step 3"}, {"tok-1", 4, 0, ""}}, want)

	for _, k := range notifiable {
		t.Run(string(k), func(t *testing.T) {
			var n notes
			gc := connectGoServer(t, k, mcpgo.NewServer(progressRegistry(t), "p", "1", settleFor(k)...), goHandlers{}, n.add)
			o := gc.callWith(t, "work", nil, &gomcp.Meta{ProgressToken: "tok-1"})
			assert.Equal(t, "done", o.text())
			eventually(t, func() bool { return len(n.of("notifications/progress")) == 4 }, "mcp-go progress")
			var got []progress
			for _, p := range n.of("notifications/progress") {
				total, _ := p["total"].(float64)
				msg, _ := p["message"].(string)
				got = append(got, progress{p["progressToken"], p["progress"].(float64), total, msg})
				if total == 0 {
					assert.NotContains(t, p, "total", "total is left out when unknown, as go-sdk does")
					assert.NotContains(t, p, "message")
				}
			}
			if k.base() == streamable {
				slices.SortFunc(got, func(a, b progress) int { return cmp.Compare(a.Value, b.Value) })
			}
			assert.Equal(t, want, got)

			// A numeric token comes back as the same number.
			n.reset()
			gc.callWith(t, "work", nil, &gomcp.Meta{ProgressToken: 7})
			eventually(t, func() bool { return len(n.of("notifications/progress")) == 4 }, "numeric token")
			assert.EqualValues(t, 7, n.of("notifications/progress")[0]["progressToken"])

			// Without a token, Progress is a no-op.
			n.reset()
			gc.call(t, "work", nil)
			time.Sleep(50 * time.Millisecond)
			assert.Empty(t, n.of("notifications/progress"))
		})
	}
}

func chattyRegistry(t *testing.T) *mcptool.Registry {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("chatty", func(ctx context.Context) (string, error) {
		log := mcptool.Log(ctx)
		log.Debug("too detailed")
		log.Info("starting", "step", 1)
		log.With("job", "j1").WithGroup("g").Warn("careful", "n", 2)
		log.Error("failed", "err", "disk full")
		settle(ctx)
		return "ok", nil
	}, mcptool.Description("Logs.")))
	return reg
}

// logRecord is one notifications/message without its time.
type logRecord struct {
	Level  string
	Logger string
	Data   map[string]any
}

func toRecord(t *testing.T, level, logger string, data any) logRecord {
	raw, err := json.Marshal(data)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	assert.Contains(t, m, "time")
	delete(m, "time")
	return logRecord{level, logger, m}
}

func TestLogging(t *testing.T) {
	var mu sync.Mutex
	var want []logRecord
	sdk := connectSDK(t, chattyRegistry(t), "2025-11-25", &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			mu.Lock()
			want = append(want, toRecord(t, string(r.Params.Level), r.Params.Logger, r.Params.Data))
			mu.Unlock()
		},
	})
	require.NoError(t, sdk.cs.SetLoggingLevel(context.Background(), &mcp.SetLoggingLevelParams{Level: "info"}))
	sdk.call(t, "chatty", nil)
	eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(want) == 3 }, "go-sdk logs")
	assert.Equal(t, []logRecord{
		{"info", "chatty", map[string]any{"msg": "starting", "step": 1.0}},
		{"warning", "chatty", map[string]any{"msg": "careful", "job": "j1", "g": map[string]any{"n": 2.0}}},
		{"error", "chatty", map[string]any{"msg": "failed", "err": "disk full"}},
	}, want)

	for _, k := range notifiable {
		t.Run(string(k), func(t *testing.T) {
			var n notes
			gc := connectGoServer(t, k, mcpgo.NewServer(chattyRegistry(t), "c", "1", settleFor(k)...), goHandlers{}, n.add)
			records := func() []logRecord {
				var out []logRecord
				for _, p := range n.of("notifications/message") {
					out = append(out, toRecord(t, p["level"].(string), p["logger"].(string), p["data"]))
				}
				if k.base() == streamable {
					order := map[string]int{"info": 0, "warning": 1, "error": 2}
					slices.SortFunc(out, func(a, b logRecord) int { return cmp.Compare(order[a.Level], order[b.Level]) })
				}
				return out
			}

			gc.call(t, "chatty", nil)
			if k.modern() {
				// A 2026-07-28 request without a log level in its _meta
				// gets no records, as on go-sdk.
				time.Sleep(50 * time.Millisecond)
				assert.Empty(t, records(), "no level asked for")
			} else {
				// Before the client sets a level, mcp-go sessions are at
				// "error": only error and above reach the client (go-sdk
				// sends nothing until the client asks).
				eventually(t, func() bool { return len(records()) == 1 }, "error before setLevel")
				time.Sleep(30 * time.Millisecond)
				assert.Equal(t, want[2:], records())
			}

			// On 2026-07-28, mcp-go's client sends the level with every
			// request; on 2025-11-25 it sets the session's.
			n.reset()
			require.NoError(t, gc.c.SetLevel(context.Background(), gomcp.SetLevelRequest{Params: gomcp.SetLevelParams{Level: gomcp.LoggingLevelInfo}}))
			gc.call(t, "chatty", nil)
			eventually(t, func() bool { return len(records()) == 3 }, "records at info and above")
			time.Sleep(30 * time.Millisecond)
			assert.Equal(t, want, records(), "the same records as on the go-sdk path")
		})
	}
}

type greetArgs struct {
	Greeting string `json:"greeting" validate:"oneof=hello hi"`
}

var nameSchema = map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}, "title": map[string]any{"type": "string", "default": "Dr"}}, "required": []any{"name"}}

func greetRegistry(t *testing.T) *mcptool.Registry {
	reg := mcptool.NewRegistry(mcptool.ExposeErrors())
	require.NoError(t, reg.Add("greet", func(ctx context.Context, in greetArgs) (string, error) {
		first, err := mcptool.Elicit(ctx, "first", &mcp.ElicitParams{Message: "First name?", RequestedSchema: nameSchema})
		if err != nil {
			return "", err
		}
		if first.Action != "accept" {
			return "no answer: " + first.Action, nil
		}
		last, err := mcptool.Elicit(ctx, "last", &mcp.ElicitParams{Message: "Last name?", RequestedSchema: nameSchema})
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s, %v %v %v!", in.Greeting, first.Content["title"], first.Content["name"], last.Content["name"]), nil
	}, mcptool.Description("Greets after asking.")))
	require.NoError(t, reg.Add("confirm", func(ctx context.Context) (string, error) {
		if _, err := mcptool.Elicit(ctx, "ok", &mcp.ElicitParams{Message: "Sure?"}); err != nil {
			return "", err
		}
		return "done", nil
	}, mcptool.Description("Confirms, without a schema.")))
	return reg
}

func TestElicitation(t *testing.T) {
	answers := map[string]map[string]any{
		"First name?": {"name": "Ada"},
		"Last name?":  {"name": "Lovelace"},
	}
	for _, mode := range []string{"accept", "decline", "bad content"} {
		t.Run(mode, func(t *testing.T) {
			var sdkAsked []string
			sdk := connectSDK(t, greetRegistry(t), "2025-11-25", &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					sdkAsked = append(sdkAsked, r.Params.Message)
					switch mode {
					case "decline":
						return &mcp.ElicitResult{Action: "decline"}, nil
					case "bad content":
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": 5}}, nil
					}
					return &mcp.ElicitResult{Action: "accept", Content: answers[r.Params.Message]}, nil
				},
			})
			want := sdk.call(t, "greet", json.RawMessage(`{"greeting":"hello"}`))
			switch mode {
			case "accept":
				assert.Equal(t, "hello, Dr Ada Lovelace!", want.text(), "defaults of the schema applied")
			case "decline":
				assert.Equal(t, "no answer: decline", want.text())
			case "bad content":
				// go-sdk's client checks the content itself and answers
				// with a JSON-RPC error, which fails the call; mcp-go's
				// client does not, and the server's check (go-sdk's
				// server makes the same) fails the Elicit call.
				assert.Equal(t, "invalid_params", want.ProtocolError)
			}
			for _, k := range transports {
				t.Run(string(k), func(t *testing.T) {
					var mu sync.Mutex
					var asked []string
					var schemas []any
					gc := connectGo(t, k, greetRegistry(t), goHandlers{elicit: func(_ context.Context, r gomcp.ElicitationRequest) (*gomcp.ElicitationResult, error) {
						mu.Lock()
						asked = append(asked, r.Params.Message)
						schemas = append(schemas, r.Params.RequestedSchema)
						mu.Unlock()
						res := &gomcp.ElicitationResult{}
						switch mode {
						case "decline":
							res.Action = gomcp.ElicitationResponseActionDecline
						case "bad content":
							res.Action, res.Content = gomcp.ElicitationResponseActionAccept, map[string]any{"name": 5}
						default:
							res.Action, res.Content = gomcp.ElicitationResponseActionAccept, answers[r.Params.Message]
						}
						return res, nil
					}}, nil)
					if mode == "bad content" && k.modern() {
						// On 2026-07-28 mcpgen asks again for content that
						// does not match the schema (as on go-sdk), until
						// mcp-go's client gives up.
						req := gomcp.CallToolRequest{}
						req.Params.Name, req.Params.Arguments = "greet", json.RawMessage(`{"greeting":"hello"}`)
						_, err := gc.c.CallTool(context.Background(), req)
						require.Error(t, err)
						assert.Contains(t, err.Error(), "exceeded maximum retries")
						mu.Lock()
						defer mu.Unlock()
						assert.Greater(t, len(asked), 5)
						for _, q := range asked {
							assert.Equal(t, "First name?", q, "asked again, never further")
						}
						return
					}
					got := gc.call(t, "greet", json.RawMessage(`{"greeting":"hello"}`))
					mu.Lock()
					defer mu.Unlock()
					assert.Equal(t, sdkAsked, asked)
					assert.JSONEq(t, mustJSON(t, nameSchema), mustJSON(t, schemas[0]))
					if mode == "bad content" {
						assert.True(t, got.IsError)
						assert.Equal(t, `mcptool: input request "first": elicitation result content does not match requested schema: `+
							`validating root: validating /properties/name: type: 5 has type "integer", want "string"`, got.text())
						return
					}
					assert.Equal(t, want, got)
				})
			}
		})
	}

	// An elicitation without a schema: mcp-go needs one in form mode, and
	// gets an empty object schema.
	for _, k := range transports {
		t.Run("no schema/"+string(k), func(t *testing.T) {
			var schema any
			gc := connectGo(t, k, greetRegistry(t), goHandlers{elicit: func(_ context.Context, r gomcp.ElicitationRequest) (*gomcp.ElicitationResult, error) {
				schema = r.Params.RequestedSchema
				assert.Equal(t, "form", r.Params.Mode)
				return &gomcp.ElicitationResult{ElicitationResponse: gomcp.ElicitationResponse{Action: gomcp.ElicitationResponseActionAccept}}, nil
			}}, nil)
			assert.Equal(t, "done", gc.call(t, "confirm", nil).text())
			assert.JSONEq(t, `{"type":"object","properties":{}}`, mustJSON(t, schema))
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

type deleteArgs struct {
	_    struct{} `mcp:"destructive,confirm"`
	Path string   `json:"path"`
}

// TestConfirmPolicy runs the confirm policy's elicitation through mcp-go.
func TestConfirmPolicy(t *testing.T) {
	newReg := func(ran *int) *mcptool.Registry {
		reg := mcptool.NewRegistry()
		require.NoError(t, reg.Add("delete_file", func(_ context.Context, in deleteArgs) (string, error) {
			*ran++
			return "deleted " + in.Path, nil
		}))
		return reg
	}
	for _, answer := range []string{"yes", "no", "decline"} {
		reply := func() (string, map[string]any) {
			switch answer {
			case "yes":
				return "accept", map[string]any{"confirm": true}
			case "no":
				return "accept", map[string]any{"confirm": false}
			}
			return "decline", nil
		}
		t.Run(answer, func(t *testing.T) {
			var sdkRan int
			sdk := connectSDK(t, newReg(&sdkRan), "2025-11-25", &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					a, c := reply()
					return &mcp.ElicitResult{Action: a, Content: c}, nil
				},
			})
			want := sdk.call(t, "delete_file", json.RawMessage(`{"path":"a.txt"}`))
			for _, k := range transports {
				t.Run(string(k), func(t *testing.T) {
					var ran int
					var asked string
					gc := connectGo(t, k, newReg(&ran), goHandlers{elicit: func(_ context.Context, r gomcp.ElicitationRequest) (*gomcp.ElicitationResult, error) {
						asked = r.Params.Message
						a, c := reply()
						res := &gomcp.ElicitationResult{}
						res.Action, res.Content = gomcp.ElicitationResponseAction(a), c
						return res, nil
					}}, nil)
					got := gc.call(t, "delete_file", json.RawMessage(`{"path":"a.txt"}`))
					assert.Equal(t, want, got)
					assert.Equal(t, sdkRan, ran)
					assert.Contains(t, asked, `Allow "delete_file" to run?`)
				})
			}
		})
	}
}

func askModelRegistry(t *testing.T) *mcptool.Registry {
	reg := mcptool.NewRegistry(mcptool.ExposeErrors())
	require.NoError(t, reg.Add("ask_model", func(ctx context.Context) (string, error) {
		out, err := mcptool.Ask(ctx, mcp.InputRequestMap{
			"capital": &mcp.CreateMessageParams{Messages: []*mcp.SamplingMessage{{Role: "user", Content: mcptool.Text("Capital of France?")}}, MaxTokens: 20, SystemPrompt: "Be brief."},
			"roots":   &mcp.ListRootsParams{},
		})
		if err != nil {
			return "", err
		}
		roots := out["roots"].(*mcp.ListRootsResult)
		return out["capital"].(*mcp.CreateMessageWithToolsResult).Content[0].(*mcp.TextContent).Text + " / " + roots.Roots[0].URI + " (" + roots.Roots[0].Name + ")", nil
	}, mcptool.Description("Asks the model.")))
	require.NoError(t, reg.Add("ask_with_tools", func(ctx context.Context) (string, error) {
		_, err := mcptool.Ask(ctx, mcp.InputRequestMap{"x": &mcp.CreateMessageWithToolsParams{
			Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{mcptool.Text("hi")}}}, MaxTokens: 5,
			Tools: []*mcp.Tool{{Name: "t", InputSchema: map[string]any{"type": "object"}}},
		}})
		return "", err
	}, mcptool.Description("Samples with tools.")))
	return reg
}

func TestSamplingAndRoots(t *testing.T) {
	for _, k := range transports {
		t.Run(string(k), func(t *testing.T) {
			var mu sync.Mutex
			var got gomcp.CreateMessageRequest
			gc := connectGo(t, k, askModelRegistry(t), goHandlers{
				sample: func(_ context.Context, r gomcp.CreateMessageRequest) (*gomcp.CreateMessageResult, error) {
					mu.Lock()
					got = r
					mu.Unlock()
					return &gomcp.CreateMessageResult{
						SamplingMessage: gomcp.SamplingMessage{Role: gomcp.RoleAssistant, Content: gomcp.NewTextContent("Paris")},
						Model:           "m", StopReason: "endTurn",
					}, nil
				},
				roots: func(context.Context, gomcp.ListRootsRequest) (*gomcp.ListRootsResult, error) {
					return &gomcp.ListRootsResult{Roots: []gomcp.Root{{URI: "file:///work", Name: "work"}}}, nil
				},
			}, nil)
			o := gc.call(t, "ask_model", nil)
			require.False(t, o.IsError, "%v", o.Content)
			assert.Equal(t, "Paris / file:///work (work)", o.text())
			mu.Lock()
			defer mu.Unlock()
			require.Len(t, got.Messages, 1)
			assert.Equal(t, gomcp.RoleUser, got.Messages[0].Role)
			if k.modern() {
				// mcp-go's client decodes the content of sampling input
				// requests (2026-07-28) as plain JSON, not into its types.
				assert.Equal(t, map[string]any{"type": "text", "text": "Capital of France?"}, got.Messages[0].Content)
			} else {
				text, ok := gomcp.AsTextContent(got.Messages[0].Content)
				require.True(t, ok, "the client's handler gets mcp-go content: %T", got.Messages[0].Content)
				assert.Equal(t, "Capital of France?", text.Text)
			}
			assert.Equal(t, 20, got.MaxTokens)
			assert.Equal(t, "Be brief.", got.SystemPrompt)

			mu.Unlock()
			o = gc.call(t, "ask_with_tools", nil)
			mu.Lock()
			if k.modern() {
				// On 2026-07-28 the request travels as JSON in an
				// input-required result, tools and all.
				assert.False(t, o.IsError, "%v", o.Content)
			} else {
				assert.True(t, o.IsError)
				assert.Contains(t, o.text(), "mcp-go cannot send sampling requests with tools")
			}
		})
	}
}

func TestInputUnsupported(t *testing.T) {
	// A client without the capability gets the go-sdk path's isError text.
	want := connectSDK(t, greetRegistry(t), "2025-11-25", nil).call(t, "confirm", nil)
	require.True(t, want.IsError)
	assert.Contains(t, want.text(), "did not declare the elicitation capability")
	for _, k := range transports {
		t.Run(string(k), func(t *testing.T) {
			gc := connectGo(t, k, greetRegistry(t), goHandlers{}, nil)
			assert.Equal(t, want, gc.call(t, "confirm", nil))
		})
		t.Run("sampling and roots/"+string(k), func(t *testing.T) {
			gc := connectGo(t, k, askModelRegistry(t), goHandlers{roots: func(context.Context, gomcp.ListRootsRequest) (*gomcp.ListRootsResult, error) {
				return &gomcp.ListRootsResult{}, nil
			}}, nil)
			o := gc.call(t, "ask_model", nil)
			assert.True(t, o.IsError)
			assert.Contains(t, o.text(), "did not declare the sampling capability (capital)")
		})
	}
}

func TestListChanged(t *testing.T) {
	for _, k := range notifiable {
		t.Run(string(k), func(t *testing.T) {
			reg := mcptool.NewRegistry()
			require.NoError(t, reg.Add("a", func() (string, error) { return "a", nil }, mcptool.Description("A.")))
			var n notes
			gc := connectGo(t, k, reg, goHandlers{}, n.add)
			if k.base() == streamable && k.modern() {
				// 2026-07-28 HTTP clients ask for list_changed with
				// subscriptions/listen.
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan struct{})
				go func() {
					defer close(done)
					_ = gc.c.Listen(ctx, gomcp.SubscriptionFilter{ToolsListChanged: true})
				}()
				t.Cleanup(func() { cancel(); <-done })
				time.Sleep(100 * time.Millisecond) // the stream is opened in the background
			}
			names := func() []string {
				var out []string
				for _, x := range gc.tools(t) {
					out = append(out, x.Name)
				}
				return out
			}
			changes := func() int { return len(n.of("notifications/tools/list_changed")) }
			assert.Equal(t, []string{"a"}, names())

			require.NoError(t, reg.Add("b", func() (string, error) { return "b", nil }, mcptool.Description("B.")))
			eventually(t, func() bool { return changes() == 1 }, "list_changed after Add")
			assert.Equal(t, []string{"a", "b"}, names())
			assert.Equal(t, "b", gc.call(t, "b", nil).text())

			reg.Remove("a")
			eventually(t, func() bool { return changes() == 2 }, "list_changed after Remove")
			assert.Equal(t, []string{"b"}, names())
			assert.Equal(t, "invalid_params", gc.call(t, "a", nil).ProtocolError)

			// Removed and added again under the same name: the new tool is served.
			reg.Remove("b")
			require.NoError(t, reg.Add("b", func() (string, error) { return "b2", nil }, mcptool.Description("B again.")))
			eventually(t, func() bool { return changes() == 4 }, "list_changed after Remove and Add")
			assert.Equal(t, "b2", gc.call(t, "b", nil).text())
			assert.Equal(t, "B again.", gc.tools(t)[0].Description)
		})
	}
}

func TestCancellation(t *testing.T) {
	for _, k := range bothEras(inProcess, streamable) {
		t.Run(string(k), func(t *testing.T) {
			reg := mcptool.NewRegistry()
			started := make(chan struct{})
			cancelled := make(chan struct{})
			require.NoError(t, reg.Add("slow", func(ctx context.Context) (string, error) {
				close(started)
				select {
				case <-ctx.Done():
					close(cancelled)
					return "", ctx.Err()
				case <-time.After(10 * time.Second):
					return "finished", nil
				}
			}, mcptool.Description("Slow.")))
			gc := connectGo(t, k, reg, goHandlers{}, nil)
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				req := gomcp.CallToolRequest{}
				req.Params.Name = "slow"
				_, err := gc.c.CallTool(ctx, req)
				errc <- err
			}()
			<-started
			cancel()
			select {
			case <-cancelled:
			case <-time.After(3 * time.Second):
				t.Fatal("the tool's context was not cancelled")
			}
			err := <-errc
			if k.base() == streamable {
				require.Error(t, err, "the HTTP request was abandoned")
			}
		})
	}
}

func TestSessionRateLimit(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("chat", func() (string, error) { return "ok", nil }, mcptool.SessionRateLimit(0.001, 1)))
	// Sessions exist in the 2025 era only: 2026-07-28 calls have no
	// session, and only per-tool limits apply to them (as on go-sdk).
	srv := mcpgo.NewServer(reg, "s", "1")
	a := connectGoServer(t, legacy(streamable), srv, goHandlers{}, nil)
	b := connectGoServer(t, legacy(streamable), srv, goHandlers{}, nil)
	assert.False(t, a.call(t, "chat", nil).IsError)
	r2 := a.call(t, "chat", nil)
	require.True(t, r2.IsError)
	assert.Contains(t, r2.text(), "rate limit exceeded for tool chat in this session")
	assert.False(t, b.call(t, "chat", nil).IsError, "another session has its own budget")
}

func TestProtocolErrors(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("strict", func() (string, error) {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "cursor expired"}
	}, mcptool.Description("Protocol error.")))

	// go-sdk sends the tool's code; mcp-go sends -32603 for every handler
	// error, with the same message.
	_, err := connectSDK(t, reg, "2025-11-25", nil).cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "strict"})
	var je *jsonrpc.Error
	require.ErrorAs(t, err, &je)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), je.Code)
	assert.Equal(t, "cursor expired", je.Message)
	for _, k := range transports {
		t.Run(string(k), func(t *testing.T) {
			gc := connectGo(t, k, reg, goHandlers{}, nil)
			req := gomcp.CallToolRequest{}
			req.Params.Name = "strict"
			_, err := gc.c.CallTool(context.Background(), req)
			require.ErrorIs(t, err, gomcp.ErrInternalError)
			assert.Contains(t, err.Error(), "cursor expired")

			req.Params.Name = "nope"
			_, err = gc.c.CallTool(context.Background(), req)
			require.ErrorIs(t, err, gomcp.ErrInvalidParams, "an unknown tool is invalid params, as on the go-sdk path")
		})
	}
}

func TestMountOnExistingServer(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("shared", func() (string, error) { return "from mcpgen", nil }, mcptool.Description("Mine.")))
	s := server.NewMCPServer("s", "1", server.WithToolCapabilities(true))
	own := func(text string) server.ToolHandlerFunc {
		return func(context.Context, gomcp.CallToolRequest) (*gomcp.CallToolResult, error) {
			return gomcp.NewToolResultText(text), nil
		}
	}
	s.AddTool(gomcp.NewTool("native", gomcp.WithDescription("Native.")), own("native"))
	s.AddTool(gomcp.NewTool("shared", gomcp.WithDescription("Theirs.")), own("theirs"))
	unmount := mcpgo.Mount(reg, s)
	gc := connectGoServer(t, inProcess, s, goHandlers{}, nil)
	assert.Equal(t, "from mcpgen", gc.call(t, "shared", nil).text(), "a registry tool replaces the server's tool of that name")
	assert.Equal(t, "native", gc.call(t, "native", nil).text())

	unmount()
	unmount() // twice is fine
	assert.Nil(t, s.GetTool("shared"), "unmount deletes the registry's tools")
	assert.NotNil(t, s.GetTool("native"), "and leaves the server's own")
	require.NoError(t, reg.Add("later", func() (string, error) { return "", nil }))
	assert.Nil(t, s.GetTool("later"), "an unmounted server no longer follows the registry")

	// Mounted twice on two servers, one registry feeds both.
	s1, s2 := mcpgo.NewServer(reg, "1", "1"), mcpgo.NewServer(reg, "2", "1")
	require.NoError(t, reg.Add("both", func() (string, error) { return "", nil }))
	assert.NotNil(t, s1.GetTool("both"))
	assert.NotNil(t, s2.GetTool("both"))
}

// A server nobody references is collected: the registry does not keep it.
func TestServerCollected(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("a", func() (string, error) { return "a", nil }))
	var ptrs []weak.Pointer[server.MCPServer]
	for range 20 {
		ptrs = append(ptrs, weak.Make(mcpgo.NewServer(reg, "s", "1")))
	}
	alive := func() int {
		n := 0
		for _, p := range ptrs {
			if p.Value() != nil {
				n++
			}
		}
		return n
	}
	deadline := time.Now().Add(5 * time.Second)
	for alive() > 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	assert.Zero(t, alive())
	// The registry still works, and changes reach no collected server.
	require.NoError(t, reg.Add("b", func() (string, error) { return "b", nil }))
	reg.Remove("a")
}

// TestConcurrentChanges adds and removes tools while clients list and call
// them: the server settles on the registry's tools.
func TestConcurrentChanges(t *testing.T) {
	reg := mcptool.NewRegistry()
	s := mcpgo.NewServer(reg, "s", "1")
	gc := connectGoServer(t, inProcess, s, goHandlers{}, nil)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 25 {
				name := fmt.Sprintf("t%d_%d", w, i)
				_ = reg.Add(name, func() (string, error) { return name, nil })
				if i%2 == 0 {
					reg.Remove(name)
				}
			}
		})
	}
	wg.Go(func() {
		for range 20 {
			req := gomcp.CallToolRequest{}
			req.Params.Name = "t0_1"
			_, _ = gc.c.CallTool(context.Background(), req)
			_, _ = gc.c.ListTools(context.Background(), gomcp.ListToolsRequest{})
		}
	})
	wg.Wait()
	var want, got []string
	for _, d := range reg.Tools() {
		want = append(want, d.Name)
	}
	for name := range s.ListTools() {
		got = append(got, name)
	}
	slices.Sort(got)
	assert.Equal(t, want, got)
	assert.Len(t, got, 4*12)
}

func TestRequestAccessor(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("who", func(ctx context.Context) (string, error) {
		r := mcpgo.Request(ctx)
		if r == nil {
			return "no request", nil
		}
		sdkReq := "nil"
		if mcptool.Request(ctx) != nil {
			sdkReq = "set"
		}
		return fmt.Sprintf("%s %v go-sdk request: %s", r.Params.Name, r.Params.Meta.AdditionalFields["trace"], sdkReq), nil
	}))
	// On 2026-07-28, mcptool.Request is the call in go-sdk's form (its _meta,
	// arguments and answers; no session, no HTTP headers).
	for k, want := range map[transportKind]string{streamable: "set", legacy(streamable): "nil"} {
		gc := connectGo(t, k, reg, goHandlers{}, nil)
		o := gc.callWith(t, "who", nil, &gomcp.Meta{AdditionalFields: map[string]any{"trace": "t-9"}})
		assert.Equal(t, "who t-9 go-sdk request: "+want, o.text(), string(k))
	}
	res, err := reg.Call(context.Background(), "who", nil)
	require.NoError(t, err)
	assert.Equal(t, "no request", res.Content[0].(*mcp.TextContent).Text)
}

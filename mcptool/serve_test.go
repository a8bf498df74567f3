//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them in both eras.

package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"log/slog"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// eras are the protocol versions the go-sdk client asks for: "" lets it use
// the newest (2026-07-28, stateless per-request wire); 2025-11-25 uses
// initialize and a session.
var eras = []string{"2025-11-25", ""}

func eraName(v string) string {
	if v == "" {
		return "2026-07-28"
	}
	return v
}

type transportKind int

const (
	inMemory transportKind = iota
	overHTTP
)

func (k transportKind) String() string { return [...]string{"memory", "http"}[k] }

// connect serves reg and connects a go-sdk client to it.
func connect(t *testing.T, kind transportKind, reg *mcptool.Registry, version string, copts *mcp.ClientOptions, sopts *mcp.ServerOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, sopts)
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, copts)
	var transport mcp.Transport
	switch kind {
	case inMemory:
		st, ct := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = ss.Close() })
		transport = ct
	case overHTTP:
		hs := httptest.NewServer(srv.Handler(nil))
		t.Cleanup(hs.Close)
		transport = &mcp.StreamableClientTransport{Endpoint: hs.URL}
	}
	cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// forEach runs f for every transport and protocol era.
func forEach(t *testing.T, f func(t *testing.T, kind transportKind, version string)) {
	for _, kind := range []transportKind{inMemory, overHTTP} {
		for _, v := range eras {
			t.Run(kind.String()+"/"+eraName(v), func(t *testing.T) { f(t, kind, v) })
		}
	}
}

type searchArgs struct {
	_     struct{} `mcp:"title=Search pages,readOnly,openWorld"`
	Query string   `json:"query" jsonschema_description:"Search query" validate:"required,min=2"`
	Limit int      `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
}

type page struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

func contentTypesRegistry(t *testing.T) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.DiscardHandler)))
	require.NoError(t, reg.Add("search", func(_ context.Context, in searchArgs) ([]page, error) {
		return []page{{ID: "1", Title: fmt.Sprintf("%s x%d", in.Query, in.Limit)}}, nil
	}, mcptool.Description("Search pages.")))
	require.NoError(t, reg.Add("text", func() (string, error) { return "hello", nil }, mcptool.Description("Text.")))
	require.NoError(t, reg.Add("picture", func() (image.Image, error) {
		img := image.NewRGBA(image.Rect(0, 0, 2, 1))
		img.Set(1, 0, color.RGBA{R: 255, A: 255})
		return img, nil
	}, mcptool.Description("A picture.")))
	require.NoError(t, reg.Add("sound", func() (mcp.Content, error) {
		return mcptool.Audio([]byte("RIFF"), "audio/wav"), nil
	}, mcptool.Description("A sound.")))
	require.NoError(t, reg.Add("mixed", func() ([]mcp.Content, error) {
		return []mcp.Content{
			mcptool.Text("see"),
			mcptool.ResourceLink("file:///a.txt", "a.txt", "text/plain"),
			mcptool.EmbeddedText("test://doc", "text/plain", "embedded"),
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://bin", MIMEType: "application/octet-stream", Blob: []byte{1, 2, 3}}},
		}, nil
	}, mcptool.Description("Mixed content.")))
	require.NoError(t, reg.Add("fail", func(context.Context) error { return mcptool.Errorf("the disk is full") }, mcptool.Description("Fails.")))
	require.NoError(t, reg.Add("leak", func(context.Context) error { return errors.New("dial tcp 10.0.0.7:5432: connection refused") }, mcptool.Description("Fails inside.")))
	require.NoError(t, reg.Add("boom", func(context.Context) error { panic("kaboom") }, mcptool.Description("Panics.")))
	return reg
}

func TestServeToolsAndContent(t *testing.T) {
	forEach(t, func(t *testing.T, kind transportKind, version string) {
		ctx := context.Background()
		reg := contentTypesRegistry(t)
		cs := connect(t, kind, reg, version, nil, nil)

		lt, err := cs.ListTools(ctx, nil)
		require.NoError(t, err)
		var names []string
		for _, tl := range lt.Tools {
			names = append(names, tl.Name)
		}
		assert.Equal(t, []string{"boom", "fail", "leak", "mixed", "picture", "search", "sound", "text"}, names)
		search := lt.Tools[slices.IndexFunc(lt.Tools, func(x *mcp.Tool) bool { return x.Name == "search" })]
		in := search.InputSchema.(map[string]any)
		assert.Equal(t, false, in["additionalProperties"])
		assert.Equal(t, []any{"query"}, in["required"])
		assert.Equal(t, "Search pages", search.Annotations.Title)
		assert.True(t, search.Annotations.ReadOnlyHint)
		require.NotNil(t, search.OutputSchema)

		// structured content, default applied
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "go"}})
		require.NoError(t, err)
		require.False(t, res.IsError, "%v", res.Content)
		assert.Equal(t, map[string]any{"result": []any{map[string]any{"id": "1", "title": "go x10"}}}, res.StructuredContent)
		assert.JSONEq(t, `{"result":[{"id":"1","title":"go x10"}]}`, res.Content[0].(*mcp.TextContent).Text)

		// invalid arguments: every violation at once, isError
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "g", "limit": 500, "extra": true}})
		require.NoError(t, err)
		require.True(t, res.IsError)
		text := res.Content[0].(*mcp.TextContent).Text
		assert.Contains(t, text, "query: must be at least 2 characters long, got 1 (minLength)")
		assert.Contains(t, text, "limit: must be at most 100, got 500 (maximum)")
		assert.Contains(t, text, "extra: is not a known argument")

		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "text"})
		require.NoError(t, err)
		assert.Equal(t, "hello", res.Content[0].(*mcp.TextContent).Text)

		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "picture"})
		require.NoError(t, err)
		img := res.Content[0].(*mcp.ImageContent)
		assert.Equal(t, "image/png", img.MIMEType)
		assert.Equal(t, []byte("\x89PNG"), img.Data[:4])

		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "sound"})
		require.NoError(t, err)
		au := res.Content[0].(*mcp.AudioContent)
		assert.Equal(t, "audio/wav", au.MIMEType)
		assert.Equal(t, []byte("RIFF"), au.Data)

		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "mixed"})
		require.NoError(t, err)
		require.Len(t, res.Content, 4)
		assert.Equal(t, "file:///a.txt", res.Content[1].(*mcp.ResourceLink).URI)
		assert.Equal(t, "embedded", res.Content[2].(*mcp.EmbeddedResource).Resource.Text)
		assert.Equal(t, []byte{1, 2, 3}, res.Content[3].(*mcp.EmbeddedResource).Resource.Blob)

		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "fail"})
		require.NoError(t, err)
		assert.True(t, res.IsError)
		assert.Equal(t, "the disk is full", res.Content[0].(*mcp.TextContent).Text)

		// an error not meant for the model is masked
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "leak"})
		require.NoError(t, err)
		assert.True(t, res.IsError)
		assert.Regexp(t, `^internal error \(ref [0-9a-f]{12}\)$`, res.Content[0].(*mcp.TextContent).Text)

		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom"})
		require.NoError(t, err)
		assert.True(t, res.IsError)
		assert.Regexp(t, `^internal error \(ref [0-9a-f]{12}\)$`, res.Content[0].(*mcp.TextContent).Text)
		assert.NotContains(t, res.Content[0].(*mcp.TextContent).Text, "kaboom")

		// the server still serves after a panic
		res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "text"})
		require.NoError(t, err)
		assert.False(t, res.IsError)

		// unknown tool: a protocol error, not a result
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope"})
		require.Error(t, err)
	})
}

func TestServeProgress(t *testing.T) {
	forEach(t, func(t *testing.T, kind transportKind, version string) {
		ctx := context.Background()
		reg := mcptool.NewRegistry()
		require.NoError(t, reg.Add("work", func(ctx context.Context) (string, error) {
			for _, p := range []float64{1, 0.5, 2, 2, 3} { // 0.5 and the second 2 must be dropped
				mcptool.Progress(ctx, p, 3, fmt.Sprintf("step %v", p))
			}
			return "done", nil
		}, mcptool.Description("Works.")))
		var mu sync.Mutex
		var got []float64
		var tokens []any
		cs := connect(t, kind, reg, version, &mcp.ClientOptions{
			ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
				mu.Lock()
				got = append(got, r.Params.Progress)
				tokens = append(tokens, r.Params.ProgressToken)
				mu.Unlock()
			},
		}, nil)
		params := &mcp.CallToolParams{Name: "work"}
		params.SetProgressToken("tok-1")
		res, err := cs.CallTool(ctx, params)
		require.NoError(t, err)
		require.False(t, res.IsError)
		require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(got) == 3 }, 2*time.Second, 5*time.Millisecond)
		mu.Lock()
		assert.Equal(t, []float64{1, 2, 3}, got)
		assert.Equal(t, []any{"tok-1", "tok-1", "tok-1"}, tokens)
		mu.Unlock()

		// Without a token, Progress is a no-op.
		mu.Lock()
		got = nil
		mu.Unlock()
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "work"})
		require.NoError(t, err)
		time.Sleep(50 * time.Millisecond)
		mu.Lock()
		assert.Empty(t, got)
		mu.Unlock()
	})
}

func TestServeLogging(t *testing.T) {
	forEach(t, func(t *testing.T, kind transportKind, version string) {
		ctx := context.Background()
		reg := mcptool.NewRegistry()
		require.NoError(t, reg.Add("chatty", func(ctx context.Context) (string, error) {
			log := mcptool.Log(ctx)
			log.Debug("too detailed")
			log.Info("starting", "step", 1)
			log.Warn("careful")
			return "ok", nil
		}, mcptool.Description("Logs.")))
		var mu sync.Mutex
		var msgs []*mcp.LoggingMessageParams
		cs := connect(t, kind, reg, version, &mcp.ClientOptions{
			LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
				mu.Lock()
				msgs = append(msgs, r.Params)
				mu.Unlock()
			},
		}, nil)
		params := &mcp.CallToolParams{Name: "chatty"}
		if version == "" {
			params.Meta = mcp.Meta{mcp.MetaKeyLogLevel: "info"}
		} else {
			require.NoError(t, cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}))
		}
		_, err := cs.CallTool(ctx, params)
		require.NoError(t, err)
		require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(msgs) == 2 }, 2*time.Second, 5*time.Millisecond)
		time.Sleep(30 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		require.Len(t, msgs, 2, "debug is below the level the client asked for")
		assert.Equal(t, mcp.LoggingLevel("info"), msgs[0].Level)
		assert.Equal(t, "chatty", msgs[0].Logger)
		data, _ := json.Marshal(msgs[0].Data)
		assert.Contains(t, string(data), `"msg":"starting"`)
		assert.Contains(t, string(data), `"step":1`)
		assert.Equal(t, mcp.LoggingLevel("warning"), msgs[1].Level)
	})
}

func TestServeCancellation(t *testing.T) {
	// In memory and on stateful HTTP the client's notifications/cancelled
	// cancels the tool; on the 2026-07-28 stateless wire the closed HTTP
	// request does.
	forEach(t, func(t *testing.T, kind transportKind, v string) {
		{
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
			cs := connect(t, kind, reg, v, nil, nil)
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow"})
				errc <- err
			}()
			<-started
			cancel()
			select {
			case <-cancelled:
			case <-time.After(3 * time.Second):
				t.Fatal("the tool's context was not cancelled")
			}
			require.Error(t, <-errc)
		}
	})
}

// The list changes only when a tool is added or removed, and then every
// client hears of it, on every transport and era: what lets ListTTL's
// ttlMs be more than 0 (issue 35.6).
func TestServeListChanged(t *testing.T) {
	forEach(t, func(t *testing.T, kind transportKind, v string) {
		ctx := context.Background()
		reg := mcptool.NewRegistry()
		require.NoError(t, reg.Add("a", func() (string, error) { return "a", nil }, mcptool.Description("A.")))
		changed := make(chan struct{}, 10)
		cs := connect(t, kind, reg, v, &mcp.ClientOptions{
			ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
		}, nil)
		names := func() []string {
			lt, err := cs.ListTools(ctx, nil)
			require.NoError(t, err)
			var out []string
			for _, x := range lt.Tools {
				out = append(out, x.Name)
			}
			return out
		}
		assert.Equal(t, []string{"a"}, names())
		require.NoError(t, reg.Add("b", func() (string, error) { return "b", nil }, mcptool.Description("B.")))
		select {
		case <-changed:
		case <-time.After(3 * time.Second):
			t.Fatal("no list_changed after Add")
		}
		assert.Equal(t, []string{"a", "b"}, names())
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "b"})
		require.NoError(t, err)
		assert.Equal(t, "b", res.Content[0].(*mcp.TextContent).Text)

		reg.Remove("a")
		select {
		case <-changed:
		case <-time.After(3 * time.Second):
			t.Fatal("no list_changed after Remove")
		}
		assert.Equal(t, []string{"b"}, names())
		_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "a"})
		require.Error(t, err)
	})
}

func TestServePagination(t *testing.T) {
	ctx := context.Background()
	reg := mcptool.NewRegistry()
	const n = 2500
	for i := range n {
		require.NoError(t, reg.Add(fmt.Sprintf("tool_%04d", i), func() (string, error) { return "x", nil }, mcptool.Description("T.")))
	}
	cs := connect(t, inMemory, reg, "", nil, &mcp.ServerOptions{PageSize: 100})
	pages := 0
	var names []string
	var cursor string
	for {
		lt, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		require.NoError(t, err)
		pages++
		require.LessOrEqual(t, len(lt.Tools), 100)
		for _, x := range lt.Tools {
			names = append(names, x.Name)
		}
		if lt.NextCursor == "" {
			break
		}
		cursor = lt.NextCursor
	}
	assert.Equal(t, n/100, pages)
	require.Len(t, names, n)
	assert.True(t, slices.IsSorted(names))
	assert.Equal(t, "tool_0000", names[0])
	assert.Equal(t, "tool_2499", names[n-1])
}

type greetArgs struct {
	Greeting string `json:"greeting" validate:"oneof=hello hi"`
}

func TestServeElicitation(t *testing.T) {
	forEach(t, func(t *testing.T, kind transportKind, version string) {
		ctx := context.Background()
		reg := mcptool.NewRegistry()
		var runs int
		var mu sync.Mutex
		nameSchema := map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []string{"name"}}
		require.NoError(t, reg.Add("greet", func(ctx context.Context, in greetArgs) (string, error) {
			mu.Lock()
			runs++
			mu.Unlock()
			first, err := mcptool.Elicit(ctx, "first", &mcp.ElicitParams{Message: "First name?", RequestedSchema: nameSchema})
			if err != nil {
				return "", err
			}
			last, err := mcptool.Elicit(ctx, "last", &mcp.ElicitParams{Message: "Last name?", RequestedSchema: nameSchema})
			if err != nil {
				return "", err
			}
			return fmt.Sprintf("%s, %v %v!", in.Greeting, first.Content["name"], last.Content["name"]), nil
		}, mcptool.Description("Greets after asking.")))
		var asked []string
		cs := connect(t, kind, reg, version, &mcp.ClientOptions{
			ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				mu.Lock()
				asked = append(asked, r.Params.Message)
				mu.Unlock()
				name := map[string]string{"First name?": "Ada", "Last name?": "Lovelace"}[r.Params.Message]
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": name}}, nil
			},
		}, nil)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"greeting": "hello"}})
		require.NoError(t, err)
		require.False(t, res.IsError, "%v", res.Content)
		assert.Equal(t, "hello, Ada Lovelace!", res.Content[0].(*mcp.TextContent).Text)
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, []string{"First name?", "Last name?"}, asked)
		if version == "" {
			assert.Equal(t, 3, runs, "2026-07-28: one run per round, answers replayed")
		} else {
			assert.Equal(t, 1, runs, "2025-11-25: the session request blocks")
		}
	})
}

func TestServeSamplingAndRoots(t *testing.T) {
	for _, v := range eras {
		t.Run(eraName(v), func(t *testing.T) {
			ctx := context.Background()
			reg := mcptool.NewRegistry()
			require.NoError(t, reg.Add("ask_model", func(ctx context.Context) (string, error) {
				out, err := mcptool.Ask(ctx, mcp.InputRequestMap{
					"capital": &mcp.CreateMessageParams{Messages: []*mcp.SamplingMessage{{Role: "user", Content: mcptool.Text("Capital of France?")}}, MaxTokens: 20},
					"roots":   &mcp.ListRootsParams{},
				})
				if err != nil {
					return "", err
				}
				roots := out["roots"].(*mcp.ListRootsResult)
				return sampleText(out["capital"].(*mcp.CreateMessageWithToolsResult)) + " / " + roots.Roots[0].URI, nil
			}, mcptool.Description("Asks the model.")))
			client := &mcp.ClientOptions{
				CreateMessageWithToolsHandler: func(context.Context, *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
					return &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "m", Content: []mcp.Content{mcptool.Text("Paris")}}, nil
				},
			}
			srv := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil)
			c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, client)
			c.AddRoots(&mcp.Root{URI: "file:///work", Name: "work"})
			st, ct := mcp.NewInMemoryTransports()
			ss, err := srv.Connect(ctx, st, nil)
			require.NoError(t, err)
			defer ss.Close()
			cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: v})
			require.NoError(t, err)
			defer cs.Close()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask_model"})
			require.NoError(t, err)
			require.False(t, res.IsError, "%v", res.Content)
			assert.Equal(t, "Paris / file:///work", res.Content[0].(*mcp.TextContent).Text)
		})
	}
}

func TestServeInputUnsupported(t *testing.T) {
	// A client without the elicitation capability gets a clear isError result.
	for _, v := range eras {
		t.Run(eraName(v), func(t *testing.T) {
			reg := mcptool.NewRegistry()
			require.NoError(t, reg.Add("confirm", func(ctx context.Context) (string, error) {
				if _, err := mcptool.Elicit(ctx, "ok", &mcp.ElicitParams{Message: "Sure?"}); err != nil {
					return "", err
				}
				return "done", nil
			}, mcptool.Description("Confirms.")))
			cs := connect(t, inMemory, reg, v, nil, nil) // no ElicitationHandler: no capability
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "confirm"})
			require.NoError(t, err)
			require.True(t, res.IsError)
			assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "did not declare the elicitation capability")
		})
	}
}

func TestServeTamperedRequestState(t *testing.T) {
	ctx := context.Background()
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("confirm", func(ctx context.Context) (string, error) {
		r, err := mcptool.Elicit(ctx, "ok", &mcp.ElicitParams{Message: "Sure?"})
		if err != nil {
			return "", err
		}
		return "answer: " + r.Action, nil
	}, mcptool.Description("Confirms.")))
	cs := connect(t, inMemory, reg, "", &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	}, nil)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm"})
	require.NoError(t, err)
	require.True(t, res.NeedsInput())
	require.Contains(t, res.InputRequests, "ok")
	require.NotEmpty(t, res.RequestState)

	answer := mcp.InputResponseMap{"ok": &mcp.ElicitResult{Action: "decline"}}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm", InputResponses: answer, RequestState: res.RequestState + "-TAMPERED"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid requestState")

	// The state is bound to the call's arguments.
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm", Arguments: map[string]any{"x": 1}, InputResponses: answer, RequestState: res.RequestState})
	require.Error(t, err)

	final, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "confirm", InputResponses: answer, RequestState: res.RequestState})
	require.NoError(t, err)
	assert.Equal(t, "answer: decline", final.Content[0].(*mcp.TextContent).Text)
}

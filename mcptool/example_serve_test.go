//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them in both eras.

package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// The examples in this file serve a registry with go-sdk and talk to it with
// a real go-sdk client. Most use an in-memory connection on the 2025-11-25
// protocol (initialize, then a session that can carry requests from server to
// client); exampleServeLatest is the newest revision, 2026-07-28, where every
// request stands alone.
const (
	exampleServe2025   = "2025-11-25"
	exampleServeLatest = "" // the go-sdk client's newest version: 2026-07-28
)

// exampleServeDial connects client to srv in memory, speaking the protocol
// version given. Setup failures are not what the examples show: they panic.
func exampleServeDial(srv *mcptool.Server, client *mcp.Client, version string) (cs *mcp.ClientSession, closeAll func()) {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		panic(err)
	}
	cs, err = client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		panic(err)
	}
	return cs, func() { _ = cs.Close(); _ = ss.Close() }
}

// exampleServeConnect serves reg and connects a go-sdk client with the
// handlers in copts to it.
func exampleServeConnect(reg *mcptool.Registry, version string, copts *mcp.ClientOptions) (*mcp.ClientSession, func()) {
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "1.0.0"}, copts)
	return exampleServeDial(srv, client, version)
}

// exampleServeText returns the text of a result's first block, or the error.
func exampleServeText(res *mcp.CallToolResult, err error) string {
	switch {
	case err != nil:
		return "error: " + err.Error()
	case len(res.Content) == 0:
		return "(no content)"
	}
	if t, ok := res.Content[0].(*mcp.TextContent); ok {
		if res.IsError {
			return "isError: " + t.Text
		}
		return t.Text
	}
	return fmt.Sprintf("%T", res.Content[0])
}

// exampleServeLines collects what a client's notification handlers see.
// Notifications are handled on the client's own goroutine, in the order they
// were sent, and may still be arriving when CallTool has returned.
type exampleServeLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *exampleServeLines) add(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

// print waits until n lines have arrived (at most five seconds), then prints
// them all.
func (l *exampleServeLines) print(n int) {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		l.mu.Lock()
		got := len(l.lines)
		l.mu.Unlock()
		if got >= n {
			break
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.lines {
		fmt.Println(s)
	}
	l.lines = nil
}

// A tool reports progress with Progress; the client sees
// notifications/progress carrying the token it sent with the call. Values
// that do not increase are dropped, and without a token Progress does
// nothing. It works the same on both protocol eras.
func ExampleProgress() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("reindex", func(ctx context.Context) (string, error) {
		mcptool.Progress(ctx, 1, 3, "scan")
		mcptool.Progress(ctx, 2, 3, "parse")
		mcptool.Progress(ctx, 1.5, 3, "late update") // not greater than 2: dropped
		mcptool.Progress(ctx, 3, 3, "write")
		return "reindexed", nil
	})

	var seen exampleServeLines
	cs, closeAll := exampleServeConnect(reg, exampleServe2025, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			p := r.Params
			seen.add("progress %v: %v/%v %s", p.ProgressToken, p.Progress, p.Total, p.Message)
		},
	})
	defer closeAll()

	params := &mcp.CallToolParams{Name: "reindex"}
	params.SetProgressToken("job-1")
	fmt.Println(exampleServeText(cs.CallTool(context.Background(), params)))
	seen.print(3)
	// Output:
	// reindexed
	// progress job-1: 1/3 scan
	// progress job-1: 2/3 parse
	// progress job-1: 3/3 write
}

// Log gives a tool a *slog.Logger whose records reach the client as
// notifications/message, named after the tool, at or above the level the
// client asked for. A 2025-11-25 client sets the level for its session with
// logging/setLevel, as here; a 2026-07-28 client sends it with each request,
// in _meta under mcp.MetaKeyLogLevel. Called through Registry.Call, Log is
// the registry's logger.
func ExampleLog() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("sync_calendar", func(ctx context.Context) (string, error) {
		log := mcptool.Log(ctx)
		log.Debug("fetched page", "page", 1) // below the client's level: not sent
		log.Info("synced", "events", 12)
		log.Warn("skipped an event", "reason", "no start time")
		return "done", nil
	})

	var seen exampleServeLines
	cs, closeAll := exampleServeConnect(reg, exampleServe2025, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			rec, _ := r.Params.Data.(map[string]any) // the slog record, as JSON
			delete(rec, "time")
			b, _ := json.Marshal(rec)
			seen.add("%s [%s] %s", r.Params.Logger, r.Params.Level, b)
		},
	})
	defer closeAll()

	ctx := context.Background()
	_ = cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"})
	fmt.Println(exampleServeText(cs.CallTool(ctx, &mcp.CallToolParams{Name: "sync_calendar"})))
	seen.print(2)
	// Output:
	// done
	// sync_calendar [info] {"events":12,"msg":"synced"}
	// sync_calendar [warning] {"msg":"skipped an event","reason":"no start time"}
}

// Request returns the go-sdk request of the call: the protocol version, the
// client's name and capabilities (from initialize on a 2025-era session, from
// the request's own _meta on 2026-07-28), and over HTTP the headers and token
// info in Extra. It is nil when the tool is called directly.
func ExampleRequest() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("whoami", func(ctx context.Context) (string, error) {
		req := mcptool.Request(ctx)
		if req == nil {
			return "called directly", nil
		}
		caps := req.ClientCapabilities()
		return fmt.Sprintf("%s on %s, can elicit: %v",
			req.ClientInfo().Name, req.ProtocolVersion(), caps != nil && caps.Elicitation != nil), nil
	})

	elicit := &mcp.ClientOptions{ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "decline"}, nil
	}}
	for _, version := range []string{exampleServe2025, exampleServeLatest} {
		cs, closeAll := exampleServeConnect(reg, version, elicit)
		fmt.Println(exampleServeText(cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "whoami"})))
		closeAll()
	}
	fmt.Println(exampleServeText(reg.Call(context.Background(), "whoami", nil)))
	// Output:
	// example-client on 2025-11-25, can elicit: true
	// example-client on 2026-07-28, can elicit: true
	// called directly
}

// The request's Session is the go-sdk session of the call; there is no
// request when the tool is called directly. On stdio, in memory and 2025-era
// HTTP sessions the session lives as long as the client's connection, so it
// can key per-client state, as here. (On the stateless 2026-07-28 HTTP wire
// every request gets a throw-away session: key such state on something the
// client sends, such as a header or its token.)
func ExampleRequest_session() {
	var mu sync.Mutex
	calls := map[*mcp.ServerSession]int{}
	reg := mcptool.NewRegistry()
	_ = reg.Add("count", func(ctx context.Context) (string, error) {
		req := mcptool.Request(ctx)
		if req == nil || req.Session == nil {
			return "no session", nil
		}
		ss := req.Session
		mu.Lock()
		defer mu.Unlock()
		calls[ss]++
		return fmt.Sprintf("call %d on this session", calls[ss]), nil
	})

	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	alice, closeAlice := exampleServeDial(srv, mcp.NewClient(&mcp.Implementation{Name: "alice"}, nil), exampleServe2025)
	defer closeAlice()
	bob, closeBob := exampleServeDial(srv, mcp.NewClient(&mcp.Implementation{Name: "bob"}, nil), exampleServe2025)
	defer closeBob()

	ctx := context.Background()
	count := &mcp.CallToolParams{Name: "count"}
	fmt.Println("alice:", exampleServeText(alice.CallTool(ctx, count)))
	fmt.Println("alice:", exampleServeText(alice.CallTool(ctx, count)))
	fmt.Println("bob:  ", exampleServeText(bob.CallTool(ctx, count)))
	fmt.Println("direct:", exampleServeText(reg.Call(ctx, "count", nil)))
	// Output:
	// alice: call 1 on this session
	// alice: call 2 on this session
	// bob:   call 1 on this session
	// direct: no session
}

// Ask sends one round of input requests, each under a key of the tool's
// choosing, and returns the answers under the same keys. On a 2025-11-25
// session, as here, the requests go to the client one by one, in key order,
// and Ask waits for each answer. On 2026-07-28 the same call site makes the
// call end with an input-required result and returns the answers when the
// client calls again (see ErrInputRequired).
func ExampleAsk() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("plan_trip", func(ctx context.Context) (string, error) {
		out, err := mcptool.Ask(ctx, mcp.InputRequestMap{
			"city": &mcp.ElicitParams{
				Message: "Which city?",
				RequestedSchema: map[string]any{
					"type":       "object",
					"properties": map[string]any{"city": map[string]any{"type": "string"}},
					"required":   []string{"city"},
				},
			},
			"tip": &mcp.CreateMessageParams{
				Messages:  []*mcp.SamplingMessage{{Role: "user", Content: mcptool.Text("One travel tip, please.")}},
				MaxTokens: 50,
			},
		})
		if err != nil {
			return "", err
		}
		city := out["city"].(*mcp.ElicitResult).Content["city"]
		tip := sampleText(out["tip"].(*mcp.CreateMessageWithToolsResult))
		return fmt.Sprintf("Trip to %v. Tip: %s", city, tip), nil
	})

	cs, closeAll := exampleServeConnect(reg, exampleServe2025, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			fmt.Println("client asked:", r.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"city": "Lisbon"}}, nil
		},
		CreateMessageHandler: func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			fmt.Println("model asked:", r.Params.Messages[0].Content.(*mcp.TextContent).Text)
			return &mcp.CreateMessageResult{Role: "assistant", Model: "example-model", Content: mcptool.Text("Walk everywhere.")}, nil
		},
	})
	defer closeAll()
	fmt.Println(exampleServeText(cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "plan_trip"})))
	// Output:
	// client asked: Which city?
	// model asked: One travel tip, please.
	// Trip to Lisbon. Tip: Walk everywhere.
}

// Elicit asks the user, through the client, for input matching a schema. The
// answer's Action says whether the user accepted, declined or cancelled;
// accepted Content that does not match the schema is asked for again. Shown on
// a 2025-11-25 session; on 2026-07-28 the same code runs as an input-required
// round trip (see ErrInputRequired).
func ExampleElicit() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("delete_drafts", func(ctx context.Context) (string, error) {
		answer, err := mcptool.Elicit(ctx, "confirm", &mcp.ElicitParams{
			Message: "Delete 3 drafts?",
			RequestedSchema: map[string]any{
				"type":       "object",
				"properties": map[string]any{"really": map[string]any{"type": "boolean"}},
				"required":   []string{"really"},
			},
		})
		if err != nil {
			return "", err
		}
		if answer.Action != "accept" || answer.Content["really"] != true {
			return "kept the drafts (" + answer.Action + ")", nil
		}
		return "deleted 3 drafts", nil
	})

	for _, action := range []string{"accept", "decline"} {
		cs, closeAll := exampleServeConnect(reg, exampleServe2025, &mcp.ClientOptions{
			ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				fmt.Printf("user sees %q and chooses %s\n", r.Params.Message, action)
				if action != "accept" {
					return &mcp.ElicitResult{Action: action}, nil
				}
				return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"really": true}}, nil
			},
		})
		fmt.Println(exampleServeText(cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "delete_drafts"})))
		closeAll()
	}
	// Output:
	// user sees "Delete 3 drafts?" and chooses accept
	// deleted 3 drafts
	// user sees "Delete 3 drafts?" and chooses decline
	// kept the drafts (decline)
}

// Sample asks the client's model for a message (sampling/createMessage), so a
// tool can use the model without an API key of its own; the answer's text is
// its first text block. Shown on a 2025-11-25 session; on 2026-07-28 the
// same code runs as an input-required round trip (see ErrInputRequired).
func ExampleSample() {
	type SummarizeArgs struct {
		Text string `json:"text" validate:"required"`
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("summarize", func(ctx context.Context, in SummarizeArgs) (string, error) {
		res, err := mcptool.Sample(ctx, "summary", &mcp.CreateMessageParams{
			SystemPrompt: "Summarize in five words or fewer.",
			Messages:     []*mcp.SamplingMessage{{Role: "user", Content: mcptool.Text(in.Text)}},
			MaxTokens:    20,
		})
		if err != nil {
			return "", err
		}
		summary := ""
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				summary = t.Text
				break
			}
		}
		return fmt.Sprintf("%s (by %s)", summary, res.Model), nil
	})

	cs, closeAll := exampleServeConnect(reg, exampleServe2025, &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			fmt.Printf("model prompted: %s / %s\n", r.Params.SystemPrompt, r.Params.Messages[0].Content.(*mcp.TextContent).Text)
			return &mcp.CreateMessageResult{Role: "assistant", Model: "example-model", Content: mcptool.Text("Release ships on Friday.")}, nil
		},
	})
	defer closeAll()
	fmt.Println(exampleServeText(cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name:      "summarize",
		Arguments: map[string]any{"text": "After the last review, the team agreed the release will ship on Friday."},
	})))
	// Output:
	// model prompted: Summarize in five words or fewer. / After the last review, the team agreed the release will ship on Friday.
	// Release ships on Friday. (by example-model)
}

// sampleText is the text of a sampling answer's first text block, "" when
// there is none.
func sampleText(r *mcp.CreateMessageWithToolsResult) string {
	if r == nil {
		return ""
	}
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

// ListRoots asks the client for its roots: the directories or other URIs the
// user has opened, which a tool should confine itself to. Shown on a
// 2025-11-25 session; on 2026-07-28 the same code runs as an input-required
// round trip (see ErrInputRequired).
func ExampleListRoots() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("workspaces", func(ctx context.Context) ([]string, error) {
		res, err := mcptool.ListRoots(ctx, "roots")
		if err != nil {
			return nil, err
		}
		var out []string
		for _, r := range res.Roots {
			out = append(out, r.Name+" = "+r.URI)
		}
		return out, nil
	})

	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	client := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "1.0.0"}, nil)
	client.AddRoots(
		&mcp.Root{URI: "file:///home/ada/api", Name: "api"},
		&mcp.Root{URI: "file:///home/ada/web", Name: "web"},
	)
	cs, closeAll := exampleServeDial(srv, client, exampleServe2025)
	defer closeAll()
	examplePrintResult(cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "workspaces"}))
	// Output:
	// isError: false
	// text: {"result":["api = file:///home/ada/api","web = file:///home/ada/web"]}
	// structuredContent: {"result":["api = file:///home/ada/api","web = file:///home/ada/web"]}
}

// ErrInputRequired is how Ask, Elicit, Sample and ListRoots work on the
// 2026-07-28 protocol, which has no server-to-client requests: the tool
// returns the error, the call ends with an input-required result and a sealed
// requestState, and the client calls again with its answers. The tool then
// runs again from the start, and the same Elicit call returns the answer.
// The go-sdk client does this loop by itself; here it is turned off to show
// the two rounds.
func ExampleErrInputRequired() {
	var mu sync.Mutex
	runs := 0
	reg := mcptool.NewRegistry()
	_ = reg.Add("rename_project", func(ctx context.Context) (string, error) {
		mu.Lock()
		runs++ // code before the question runs again on the retry: keep real work there free of side effects
		mu.Unlock()
		answer, err := mcptool.Elicit(ctx, "name", &mcp.ElicitParams{
			Message: "New name?",
			RequestedSchema: map[string]any{
				"type":       "object",
				"properties": map[string]any{"name": map[string]any{"type": "string"}},
			},
		})
		if err != nil {
			// ErrInputRequired until the client has answered: return it as it
			// is, and mcpgen ends the call with an input-required result.
			return "", err
		}
		return fmt.Sprintf("renamed to %v", answer.Content["name"]), nil
	})

	cs, closeAll := exampleServeConnect(reg, exampleServeLatest, &mcp.ClientOptions{
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		// The handler declares the elicitation capability; with the loop
		// turned off, the client does not call it.
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	})
	defer closeAll()

	ctx := context.Background()
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "rename_project"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("needs input:", first.NeedsInput())
	for key, req := range first.InputRequests {
		fmt.Printf("  %s: %q\n", key, req.(*mcp.ElicitParams).Message)
	}
	fmt.Println("has requestState:", first.RequestState != "")

	final, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Name:           "rename_project",
		InputResponses: mcp.InputResponseMap{"name": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Atlas"}}},
		RequestState:   first.RequestState,
	})
	fmt.Println(exampleServeText(final, err))
	mu.Lock()
	fmt.Println("runs:", runs)
	mu.Unlock()
	// Output:
	// needs input: true
	//   name: "New name?"
	// has requestState: true
	// renamed to Atlas
	// runs: 2
}

// ErrInputUnsupported is what Ask, Elicit, Sample and ListRoots return when
// the client cannot answer: it did not declare the capability, the tool was
// called directly, or the session is a stateless 2025-era one. A tool can
// test for it and fall back; returned as it is, the model gets an isError
// result saying why.
func ExampleErrInputUnsupported() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("cleanup", func(ctx context.Context) (string, error) {
		answer, err := mcptool.Elicit(ctx, "confirm", &mcp.ElicitParams{Message: "Remove 12 stale branches?"})
		if errors.Is(err, mcptool.ErrInputUnsupported) {
			return "dry run: would remove 12 stale branches", nil
		} else if err != nil {
			return "", err
		}
		return "answer: " + answer.Action, nil
	})

	// A client with no ElicitationHandler declares no elicitation capability.
	cs, closeAll := exampleServeConnect(reg, exampleServe2025, nil)
	defer closeAll()
	fmt.Println(exampleServeText(cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "cleanup"})))
	fmt.Println(exampleServeText(reg.Call(context.Background(), "cleanup", nil)))
	// Output:
	// dry run: would remove 12 stale branches
	// dry run: would remove 12 stale branches
}

// StateKey sets the key that seals the requestState of input-required
// results (2026-07-28). The client sends the state back with its answers,
// possibly to another replica behind the load balancer: replicas must share
// the key. Each registry otherwise makes a random key of its own, and a
// replica with another key refuses the state.
func ExampleStateKey() {
	sharedKey := bytes.Repeat([]byte{0x42}, 32) // in production: a 32-byte secret from your secret store
	newReplica := func(key []byte) *mcptool.Registry {
		var opts []mcptool.RegistryOption
		if key != nil {
			opts = append(opts, mcptool.StateKey(key))
		}
		reg := mcptool.NewRegistry(opts...)
		_ = reg.Add("publish", func(ctx context.Context) (string, error) {
			answer, err := mcptool.Elicit(ctx, "confirm", &mcp.ElicitParams{Message: "Publish now?"})
			if err != nil {
				return "", err
			}
			return "publish: " + answer.Action, nil
		})
		return reg
	}
	copts := &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true}, // show the rounds
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
	}
	ctx := context.Background()

	// The first round reaches replica A...
	a, closeA := exampleServeConnect(newReplica(sharedKey), exampleServeLatest, copts)
	defer closeA()
	first, err := a.CallTool(ctx, &mcp.CallToolParams{Name: "publish"})
	if err != nil || !first.NeedsInput() {
		fmt.Println("unexpected:", exampleServeText(first, err))
		return
	}

	// ...and the answer a replica with the same key, or one without it.
	retry := &mcp.CallToolParams{
		Name:           "publish",
		InputResponses: mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}},
		RequestState:   first.RequestState,
	}
	b, closeB := exampleServeConnect(newReplica(sharedKey), exampleServeLatest, copts)
	defer closeB()
	fmt.Println("same key:   ", exampleServeText(b.CallTool(ctx, retry)))
	c, closeC := exampleServeConnect(newReplica(nil), exampleServeLatest, copts)
	defer closeC()
	fmt.Println("another key:", exampleServeText(c.CallTool(ctx, retry)))
	// Output:
	// same key:    publish: accept
	// another key: error: calling "tools/call": invalid requestState: not issued by this server, or altered
}

// Registry.Server returns a go-sdk server that follows the registry: a tool
// added or removed later appears on (or disappears from) the server, and
// connected clients get notifications/tools/list_changed. Serve it with
// srv.Run(ctx, &mcptool.StdioTransport{}) for stdio, or srv.Handler for
// HTTP.
func ExampleRegistry_Server() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("ping", func() (string, error) { return "pong", nil })
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)

	changed := make(chan struct{}, 1)
	client := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "1.0.0"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	cs, closeAll := exampleServeDial(srv, client, exampleServe2025)
	defer closeAll()
	ctx := context.Background()
	listTools := func() {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		var names []string
		for _, t := range res.Tools {
			names = append(names, t.Name)
		}
		fmt.Println("tools:", names)
	}

	listTools()
	fmt.Println(exampleServeText(cs.CallTool(ctx, &mcp.CallToolParams{Name: "ping"})))

	_ = reg.Add("echo", func(in struct {
		Text string `json:"text"`
	}) (string, error) {
		return in.Text, nil
	})
	select {
	case <-changed:
		fmt.Println("notified: tools/list_changed")
	case <-time.After(5 * time.Second):
		fmt.Println("no notification")
	}
	listTools()
	fmt.Println(exampleServeText(cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})))
	// Output:
	// tools: [ping]
	// pong
	// notified: tools/list_changed
	// tools: [echo ping]
	// hi
}

// Mount serves a registry's tools on a go-sdk server you already have, next
// to the server's own tools and features, and keeps them in sync until
// Unmount is called.
func ExampleRegistry_Mount() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "version", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{mcptool.Text("1.0.0")}}, nil
		})

	reg := mcptool.NewRegistry()
	_ = reg.Add("greet", func(in struct {
		Name string `json:"name"`
	}) (string, error) {
		return "hello " + in.Name, nil
	})
	mounted := reg.Mount(srv)

	cs, closeAll := exampleServeDial(mounted, mcp.NewClient(&mcp.Implementation{Name: "example-client"}, nil), exampleServe2025)
	defer closeAll()
	ctx := context.Background()
	listTools := func() {
		res, _ := cs.ListTools(ctx, nil)
		var names []string
		for _, t := range res.Tools {
			names = append(names, t.Name)
		}
		fmt.Println("tools:", names)
	}

	listTools()
	fmt.Println(exampleServeText(cs.CallTool(ctx, &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "Ada"}})))
	mounted.Unmount()
	listTools()
	// Output:
	// tools: [greet version]
	// hello Ada
	// tools: [version]
}

// Server.Handler serves a server over streamable HTTP on one endpoint, for
// clients of both protocol eras: a 2025-11-25 client gets a session (with an
// Mcp-Session-Id), a 2026-07-28 client is served statelessly, each request on
// its own.
func ExampleServer_Handler() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("hello", func(ctx context.Context) (string, error) {
		req := mcptool.Request(ctx)
		return fmt.Sprintf("hello over %s, session id: %v, Mcp-Protocol-Version header: %q",
			req.ProtocolVersion(), req.Session != nil && req.Session.ID() != "", req.Extra.Header.Get("Mcp-Protocol-Version")), nil
	})
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)

	// In a program: http.Handle("/mcp", srv.Handler(nil)).
	hs := httptest.NewServer(srv.Handler(nil))
	defer hs.Close()

	ctx := context.Background()
	for _, version := range []string{exampleServe2025, exampleServeLatest} {
		client := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "1.0.0"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(exampleServeText(cs.CallTool(ctx, &mcp.CallToolParams{Name: "hello"})))
		_ = cs.Close()
	}
	// Output:
	// hello over 2025-11-25, session id: true, Mcp-Protocol-Version header: "2025-11-25"
	// hello over 2026-07-28, session id: false, Mcp-Protocol-Version header: "2026-07-28"
}

// Server.Run serves one session over stdio: a real server passes
// &mcptool.StdioTransport{} (stdin and stdout) and returns when the client
// closes its input.
func ExampleServer_Run() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("greet", func(in struct {
		Name string `json:"name"`
	}) (string, error) {
		return "hello " + in.Name, nil
	}, mcptool.Description("Greet someone."))
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)

	input := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{"name":"Ada"}}}
`)
	var out strings.Builder
	err := srv.Run(context.Background(), &mcptool.StdioTransport{Reader: input, Writer: &out})
	fmt.Println("Run:", err)
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if strings.Contains(line, `"id":2,`) {
			fmt.Println(line)
		}
	}
	// Output:
	// Run: <nil>
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hello Ada"}]}}
}

// Server.Connect starts one session over a transport and returns at once:
// here an in-memory one a go-sdk client talks to; ServerSession.Wait
// waits for its end.
func ExampleServer_Connect() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("ping", func() (string, error) { return "pong", nil }, mcptool.Description("Answer pong."))
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)

	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "1.0.0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(exampleServeText(cs.CallTool(ctx, &mcp.CallToolParams{Name: "ping"})))
	_ = cs.Close()
	fmt.Println("session ended:", ss.Wait())
	// Output:
	// pong
	// session ended: <nil>
}

// Server.AddReceivingMiddleware wraps every request the server receives,
// the tools/call and tools/list that mcpgen answers from the registry
// included, on every wire: here over stdio and over HTTP.
func ExampleServer_AddReceivingMiddleware() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("ping", func() (string, error) { return "pong", nil }, mcptool.Description("Answer pong."))
	srv := reg.Server(&mcp.Implementation{Name: "example-server", Version: "1.0.0"}, nil)
	var mu sync.Mutex
	var seen []string
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok {
				mu.Lock()
				seen = append(seen, method+" "+call.Params.Name)
				mu.Unlock()
			}
			return next(ctx, method, req)
		}
	})

	input := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ping"}}
`)
	var out strings.Builder
	_ = srv.Run(context.Background(), &mcptool.StdioTransport{Reader: input, Writer: &out})
	mu.Lock()
	fmt.Println("stdio:", seen, strings.Contains(out.String(), `"text":"pong"`))
	seen = nil
	mu.Unlock()

	hs := httptest.NewServer(srv.Handler(nil))
	defer hs.Close()
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: exampleServeLatest})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	text := exampleServeText(cs.CallTool(ctx, &mcp.CallToolParams{Name: "ping"}))
	mu.Lock()
	defer mu.Unlock()
	fmt.Println("http:", seen, text)
	// Output:
	// stdio: [tools/call ping] true
	// http: [tools/call ping] pong
}

// Registry.Watch calls a function after every change of the registry's
// tools, synchronously, with the names the change touched, until stopped:
// an adapter for another MCP library looks each one up to update its tool
// list and send notifications/tools/list_changed.
func ExampleRegistry_Watch() {
	reg := mcptool.NewRegistry()
	stop := reg.Watch(func(changed []string) {
		for _, name := range changed {
			_, ok := reg.Tool(name)
			fmt.Println("tool changed:", name, "registered:", ok)
		}
	})
	_ = reg.Add("a", func() error { return nil })
	_ = reg.Add("b", func() error { return nil })
	reg.Remove("a")
	reg.Remove("a") // nothing removed: no call
	stop()
	_ = reg.Add("c", func() error { return nil }) // stopped: no call
	fmt.Println("tools registered:", len(reg.Tools()))
	// Output:
	// tool changed: a registered: true
	// tool changed: b registered: true
	// tool changed: a registered: false
	// tools registered: 2
}

// A registry whose tools change only at start-up can let clients keep its
// list for a while; Add and Remove still tell every client at once
// (notifications/tools/list_changed). A list filtered by the caller's
// token is marked "private" (mcptool.Authenticated here stands for a
// verified token).
func ExampleListTTL() {
	reg := mcptool.NewRegistry(mcptool.ListTTL(10 * time.Minute))
	_ = reg.Add("ping", func() (string, error) { return "pong", nil })
	for _, ctx := range []context.Context{
		context.Background(),
		mcptool.Authenticated(context.Background(), &auth.TokenInfo{UserID: "ada"}),
	} {
		st, ct := mcp.NewInMemoryTransports()
		ss, _ := reg.Server(&mcp.Implementation{Name: "s", Version: "1"}, nil).Connect(ctx, st, nil)
		cs, _ := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
		lr, _ := cs.ListTools(context.Background(), nil)
		fmt.Println(lr.TTLMs, lr.CacheScope)
		_ = cs.Close()
		_ = ss.Close()
	}
	// Output:
	// 600000 public
	// 600000 private
}

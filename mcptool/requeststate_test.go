//lint:file-ignore SA1019 sampling is deprecated by the 2026-07-28 revision (SEP-2577) but remains in the protocol; its answers must be bound to their requestState too.

package mcptool_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
)

// confirmKey is the input key of the confirm policy's question.
const confirmKey = "mcpgen.confirm"

var accept = mcp.InputResponseMap{confirmKey: &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}}

type pathArgs struct {
	Path string `json:"path"`
}

// confirmRegistry has two tools that ask for confirmation, counting their
// runs: delete_file and erase_file.
func confirmRegistry(t *testing.T, runs *atomic.Int32, opts ...mcptool.RegistryOption) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry(opts...)
	for _, name := range []string{"delete_file", "erase_file"} {
		require.NoError(t, mcptool.Add(reg, name, func(ctx context.Context, a pathArgs) (string, error) {
			runs.Add(1)
			return "deleted " + a.Path, nil
		}, mcptool.Description("Deletes a file."), mcptool.Confirm()))
	}
	return reg
}

// manualClient is a 2026-07-28 client that answers input requests itself,
// call by call, and declares elicitation and sampling.
func manualClient(t *testing.T, reg *mcptool.Registry) *mcp.ClientSession {
	return connect(t, inMemory, reg, "", &mcp.ClientOptions{
		MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
		CreateMessageWithToolsHandler: func(context.Context, *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
			return nil, nil
		},
	}, nil)
}

func callWith(t *testing.T, cs *mcp.ClientSession, name, path, state string, answers mcp.InputResponseMap) (*mcp.CallToolResult, error) {
	t.Helper()
	return cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name: name, Arguments: map[string]any{"path": path}, RequestState: state, InputResponses: answers,
	})
}

// askedFirst makes the first call of name and returns its requestState.
func askedFirst(t *testing.T, cs *mcp.ClientSession, name, path string) string {
	t.Helper()
	res, err := callWith(t, cs, name, path, "", nil)
	require.NoError(t, err)
	require.True(t, res.NeedsInput(), "%+v", res)
	require.Contains(t, res.InputRequests, confirmKey)
	require.NotEmpty(t, res.RequestState)
	return res.RequestState
}

// TestConfirmAnswerShapes: on 2026-07-28 an accept whose content is not
// {"confirm": true} — none, another shape, another type — is refused at
// once with the words of 2025-11-25, not asked again until the client gives
// up; only {"confirm": true} runs the tool.
func TestConfirmAnswerShapes(t *testing.T) {
	for _, content := range []map[string]any{nil, {}, {"confirm": false}, {"confirm": "true"}, {"ok": true}} {
		t.Run(fmt.Sprint(content), func(t *testing.T) {
			var runs atomic.Int32
			cs := manualClient(t, confirmRegistry(t, &runs))
			state := askedFirst(t, cs, "delete_file", "a.txt")
			res, err := callWith(t, cs, "delete_file", "a.txt", state,
				mcp.InputResponseMap{confirmKey: &mcp.ElicitResult{Action: "accept", Content: content}})
			require.NoError(t, err)
			require.False(t, res.NeedsInput(), "asked again: %+v", res)
			require.True(t, res.IsError)
			assert.Equal(t, "the user did not confirm (accept); delete_file was not run", textOf(res))
			assert.Zero(t, runs.Load())
		})
	}
}

func TestRequestStateForgedAnswerAsksAgain(t *testing.T) {
	var runs atomic.Int32
	cs := manualClient(t, confirmRegistry(t, &runs))
	// An accepting answer the server never asked for: no requestState.
	res, err := callWith(t, cs, "delete_file", "a.txt", "", accept)
	require.NoError(t, err)
	assert.True(t, res.NeedsInput(), "a forged confirmation must be asked again: %+v", res)
	assert.Contains(t, res.InputRequests, confirmKey)
	assert.NotEmpty(t, res.RequestState)
	assert.Zero(t, runs.Load(), "the tool ran on a forged confirmation")
}

func TestRequestStateReplayAsksAgain(t *testing.T) {
	var runs atomic.Int32
	cs := manualClient(t, confirmRegistry(t, &runs))
	state := askedFirst(t, cs, "delete_file", "a.txt")
	res, err := callWith(t, cs, "delete_file", "a.txt", state, accept)
	require.NoError(t, err)
	require.False(t, res.IsError, "%v", res.Content)
	require.False(t, res.NeedsInput())
	require.EqualValues(t, 1, runs.Load())

	// The same request again: the state is spent.
	again, err := callWith(t, cs, "delete_file", "a.txt", state, accept)
	require.NoError(t, err)
	assert.True(t, again.NeedsInput(), "a replayed confirmation must be asked again: %+v", again)
	assert.NotEqual(t, state, again.RequestState)
	assert.EqualValues(t, 1, runs.Load(), "the tool ran again on a replayed confirmation")

	// The fresh state works, once.
	res, err = callWith(t, cs, "delete_file", "a.txt", again.RequestState, accept)
	require.NoError(t, err)
	require.False(t, res.NeedsInput())
	assert.EqualValues(t, 2, runs.Load())
}

// A replay racing the first answer: exactly one of them runs.
func TestRequestStateConcurrentReplayRunsOnce(t *testing.T) {
	var runs atomic.Int32
	cs := manualClient(t, confirmRegistry(t, &runs))
	state := askedFirst(t, cs, "delete_file", "a.txt")
	var wg sync.WaitGroup
	var asked atomic.Int32
	for range 8 {
		wg.Go(func() {
			res, err := callWith(t, cs, "delete_file", "a.txt", state, accept)
			if assert.NoError(t, err) && res.NeedsInput() {
				asked.Add(1)
			}
		})
	}
	wg.Wait()
	assert.EqualValues(t, 1, runs.Load())
	assert.EqualValues(t, 7, asked.Load())
}

func TestRequestStateOtherArgumentsOrTool(t *testing.T) {
	var runs atomic.Int32
	cs := manualClient(t, confirmRegistry(t, &runs))
	state := askedFirst(t, cs, "delete_file", "a.txt")

	_, err := callWith(t, cs, "delete_file", "b.txt", state, accept)
	require.Error(t, err, "a state issued for other arguments")
	assert.Contains(t, err.Error(), "invalid requestState")

	_, err = callWith(t, cs, "erase_file", "a.txt", state, accept)
	require.Error(t, err, "a state issued for another tool")
	assert.Contains(t, err.Error(), "invalid requestState")
	assert.Zero(t, runs.Load())

	// Refused presentations do not spend the state of its own call.
	res, err := callWith(t, cs, "delete_file", "a.txt", state, accept)
	require.NoError(t, err)
	assert.False(t, res.NeedsInput())
	assert.EqualValues(t, 1, runs.Load())
}

// An answer to a key the state did not ask is no answer: here the tool's
// own question, answered in advance along with the confirmation.
func TestRequestStateKeysNotAskedIgnored(t *testing.T) {
	var runs atomic.Int32
	reg := mcptool.NewRegistry()
	require.NoError(t, mcptool.Add(reg, "rename", func(ctx context.Context, a pathArgs) (string, error) {
		r, err := mcptool.Elicit(ctx, "name", &mcp.ElicitParams{Message: "New name?"})
		if err != nil {
			return "", err
		}
		runs.Add(1)
		return "renamed to " + r.Content["name"].(string), nil
	}, mcptool.Description("Renames."), mcptool.Confirm()))
	cs := manualClient(t, reg)
	state := askedFirst(t, cs, "rename", "a.txt")
	answers := mcp.InputResponseMap{
		confirmKey: accept[confirmKey],
		"name":     &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "forged"}},
	}
	res, err := callWith(t, cs, "rename", "a.txt", state, answers)
	require.NoError(t, err)
	require.True(t, res.NeedsInput(), "an answer to a key not asked was taken: %+v", res)
	assert.Contains(t, res.InputRequests, "name")
	assert.NotContains(t, res.InputRequests, confirmKey, "the confirmation was asked and answered")
	assert.Zero(t, runs.Load())

	res, err = callWith(t, cs, "rename", "a.txt", res.RequestState, mcp.InputResponseMap{
		"name": &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "b.txt"}},
	})
	require.NoError(t, err)
	require.False(t, res.NeedsInput())
	assert.Equal(t, "renamed to b.txt", res.Content[0].(*mcp.TextContent).Text)
}

// Every input request, not only the confirmation: a sampling answer
// replayed is asked again.
func TestRequestStateReplayedSampleAsksAgain(t *testing.T) {
	var runs atomic.Int32
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("summarize", func(ctx context.Context) (string, error) {
		r, err := mcptool.Sample(ctx, "summary", &mcp.CreateMessageParams{Messages: []*mcp.SamplingMessage{{Role: "user", Content: mcptool.Text("Summarize.")}}, MaxTokens: 20})
		if err != nil {
			return "", err
		}
		runs.Add(1)
		return sampleText(r), nil
	}, mcptool.Description("Summarizes.")))
	cs := manualClient(t, reg)
	first, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "summarize"})
	require.NoError(t, err)
	require.True(t, first.NeedsInput())
	answer := mcp.InputResponseMap{"summary": &mcp.CreateMessageWithToolsResult{Role: "assistant", Model: "m", Content: []mcp.Content{mcptool.Text("short")}}}
	for i, wantRuns := range []int32{1, 1} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "summarize", RequestState: first.RequestState, InputResponses: answer})
		require.NoError(t, err)
		assert.Equal(t, i == 1, res.NeedsInput(), "call %d", i)
		assert.Equal(t, wantRuns, runs.Load(), "call %d", i)
	}
	// Without a state at all.
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "summarize", InputResponses: answer})
	require.NoError(t, err)
	assert.True(t, res.NeedsInput())
	assert.EqualValues(t, 1, runs.Load())
}

// sharedSpent is a SpentStore two registries share, as replicas share
// Redis.
type sharedSpent struct {
	mu  sync.Mutex
	ids map[string]time.Time
}

func (s *sharedSpent) Spend(_ context.Context, id string, expires time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.ids[id]; ok {
		return false, nil
	}
	s.ids[id] = expires
	return true, nil
}

func TestRequestStateReplayOnAnotherReplica(t *testing.T) {
	key := make([]byte, 32)
	spent := &sharedSpent{ids: map[string]time.Time{}}
	var runsA, runsB atomic.Int32
	a := manualClient(t, confirmRegistry(t, &runsA, mcptool.StateKey(key), mcptool.SpentStates(spent)))
	b := manualClient(t, confirmRegistry(t, &runsB, mcptool.StateKey(key), mcptool.SpentStates(spent)))
	state := askedFirst(t, a, "delete_file", "a.txt")
	res, err := callWith(t, a, "delete_file", "a.txt", state, accept)
	require.NoError(t, err)
	require.False(t, res.NeedsInput())
	require.EqualValues(t, 1, runsA.Load())

	res, err = callWith(t, b, "delete_file", "a.txt", state, accept)
	require.NoError(t, err)
	assert.True(t, res.NeedsInput(), "replayed on another replica: %+v", res)
	assert.Zero(t, runsB.Load())
	assert.Len(t, spent.ids, 1)
}

// A store that fails: the call fails, and the tool does not run.
type failingSpent struct{}

func (failingSpent) Spend(context.Context, string, time.Time) (bool, error) {
	return false, assert.AnError
}

func TestRequestStateSpentStoreDown(t *testing.T) {
	var runs atomic.Int32
	cs := manualClient(t, confirmRegistry(t, &runs, mcptool.SpentStates(failingSpent{})))
	state := askedFirst(t, cs, "delete_file", "a.txt")
	_, err := callWith(t, cs, "delete_file", "a.txt", state, accept)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "internal error (ref ")
	assert.NotContains(t, err.Error(), assert.AnError.Error())
	assert.Zero(t, runs.Load())
}

// tasks/update takes answers only to the task's outstanding keys, each
// once: an answer replayed when the task asks the same question again
// (under a fresh key) does not answer it.
func TestTaskUpdateAnswersOnce(t *testing.T) {
	reg := mcptool.NewRegistry()
	var steps atomic.Int32
	require.NoError(t, reg.Add("two_steps", func(ctx context.Context) (string, error) {
		for range 2 {
			r, err := mcptool.Elicit(ctx, "step", &mcp.ElicitParams{Message: "Go on?"})
			if err != nil {
				return "", err
			}
			if r.Action != "accept" {
				return "stopped", nil
			}
			steps.Add(1)
		}
		return "both steps", nil
	}, mcptool.Description("Two steps."), mcptool.Task(mcptool.TaskSettings{Wait: -1}))) // a task at once
	w := newWire(t, reg, true)
	id := w.callTool("two_steps", nil)["taskId"].(string)
	first := w.until(id, "input_required")["inputRequests"].(map[string]any)
	require.Contains(t, first, "step")
	yes := map[string]any{"action": "accept"}
	w.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"step": yes}})
	// The second question, under a key of its own.
	var second map[string]any
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		got := w.get(id)
		if r, _ := got["inputRequests"].(map[string]any); got["status"] == "input_required" && r["step"] == nil && len(r) == 1 {
			second = r
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	require.Len(t, second, 1)
	require.EqualValues(t, 1, steps.Load())
	// The first answer again, and an answer to a key never asked.
	w.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"step": yes, "other": yes}})
	time.Sleep(50 * time.Millisecond)
	got := w.get(id)
	assert.Equal(t, "input_required", got["status"])
	assert.Equal(t, second, got["inputRequests"])
	assert.EqualValues(t, 1, steps.Load(), "a replayed answer answered the second question")
	for k := range second {
		w.ok("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{k: yes}})
	}
	assert.Equal(t, "both steps", resultText(w.until(id, "completed")["result"].(map[string]any)))
}

// A requestState is the verified caller's it was issued to: another
// principal presenting it (with an accepting answer) is refused, and the
// tool does not run; its own caller's answer still counts.
func TestRequestStateIsItsCallers(t *testing.T) {
	var runs atomic.Int32
	reg := confirmRegistry(t, &runs)
	srv := reg.Server(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	hs := httptest.NewUnstartedServer(nil)
	hs.Start()
	t.Cleanup(hs.Close)
	hs.Config.Handler = srv.Handler(&mcptool.HTTPOptions{TokenVerifier: testTokens.verify, ResourceMetadata: &oauthex.ProtectedResourceMetadata{
		Resource: hs.URL, AuthorizationServers: []string{"https://auth.example.com"},
	}})
	client := func(token string) *mcp.ClientSession {
		c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
			MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
			ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
		})
		cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: bearerClient(token)}, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	ada, bob := client("reader"), client("writer")
	state := askedFirst(t, ada, "delete_file", "a.txt")

	_, err := callWith(t, bob, "delete_file", "a.txt", state, accept)
	require.Error(t, err, "another principal's requestState")
	assert.Contains(t, err.Error(), "issued to another caller")
	assert.Zero(t, runs.Load())

	res, err := callWith(t, ada, "delete_file", "a.txt", state, accept)
	require.NoError(t, err)
	require.False(t, res.NeedsInput(), "%+v", res)
	assert.EqualValues(t, 1, runs.Load())
}

// TestRequestStateExactArguments: the third attack round's finding 5. The
// state was bound to the arguments as float64 read them, so a confirmation
// of delete_page 2^53 ran delete_page 2^53+1, which the tool's int64 tells
// apart. A state presented with other arguments is the documented protocol
// error, on every path, and the tool does not run.
func TestRequestStateExactArguments(t *testing.T) {
	type pageID struct {
		ID int64 `json:"id"`
	}
	for _, kind := range []transportKind{inMemory, overHTTP} {
		t.Run(kind.String(), func(t *testing.T) {
			var ran []int64
			var mu sync.Mutex
			reg := mcptool.NewRegistry()
			require.NoError(t, mcptool.Add(reg, "delete_page", func(ctx context.Context, a pageID) (string, error) {
				mu.Lock()
				ran = append(ran, a.ID)
				mu.Unlock()
				return "deleted", nil
			}, mcptool.Description("Deletes a page."), mcptool.Confirm()))
			cs := connect(t, kind, reg, "", &mcp.ClientOptions{
				MultiRoundTrip:     &mcp.MultiRoundTripOptions{Disabled: true},
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return nil, nil },
			}, nil)
			call := func(id int64, state string, answers mcp.InputResponseMap) (*mcp.CallToolResult, error) {
				return cs.CallTool(context.Background(), &mcp.CallToolParams{
					Name: "delete_page", Arguments: map[string]any{"id": id}, RequestState: state, InputResponses: answers,
				})
			}
			first, err := call(1<<53, "", nil)
			require.NoError(t, err)
			require.True(t, first.NeedsInput(), "%+v", first)

			_, err = call(1<<53+1, first.RequestState, accept)
			require.Error(t, err, "a state issued for id 2^53 presented with 2^53+1")
			assert.Contains(t, err.Error(), "invalid requestState: issued for another call")
			mu.Lock()
			assert.Empty(t, ran, "the tool ran for another id")
			mu.Unlock()

			// The state still confirms the call it was issued for.
			res, err := call(1<<53, first.RequestState, accept)
			require.NoError(t, err)
			require.False(t, res.IsError, "%v", res.Content)
			mu.Lock()
			assert.Equal(t, []int64{1 << 53}, ran)
			mu.Unlock()
		})
	}
}

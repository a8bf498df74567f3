//lint:file-ignore SA1019 sampling and roots are deprecated by the 2026-07-28 revision but remain in the protocol.

package mcptool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/adapter"
)

// fakePeer records what a tool sent to the client.
type fakePeer struct {
	mu       sync.Mutex
	progress []float64
	logs     []string
	asked    []mcp.InputRequest
}

func (p *fakePeer) SessionID() string  { return "s1" }
func (p *fakePeer) ProgressToken() any { return "tok" }
func (p *fakePeer) NotifyProgress(_ context.Context, tok any, progress, _ float64, _ string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if tok != "tok" {
		return fmt.Errorf("wrong token %v", tok)
	}
	p.progress = append(p.progress, progress)
	return nil
}
func (p *fakePeer) LogHandler(_ context.Context, name string) slog.Handler {
	return recordHandler{p: p, name: name}
}
func (p *fakePeer) Ask(_ context.Context, r mcp.InputRequest) (mcp.InputResponse, error) {
	p.mu.Lock()
	p.asked = append(p.asked, r)
	p.mu.Unlock()
	if _, ok := r.(*mcp.ElicitParams); ok {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
	}
	return nil, fmt.Errorf("%w: only elicitation", mcptool.ErrInputUnsupported)
}

type recordHandler struct {
	p    *fakePeer
	name string
}

func (h recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h recordHandler) Handle(_ context.Context, r slog.Record) error {
	h.p.mu.Lock()
	defer h.p.mu.Unlock()
	h.p.logs = append(h.p.logs, h.name+": "+r.Message)
	return nil
}
func (h recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h recordHandler) WithGroup(string) slog.Handler      { return h }

type wipeArgs struct {
	_ struct{} `mcp:"destructive,confirm"`
}

func TestInvokeWithPeer(t *testing.T) {
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("wipe", func(ctx context.Context, _ wipeArgs) (string, error) {
		mcptool.Progress(ctx, 1, 2, "half")
		mcptool.Progress(ctx, 2, 2, "done")
		mcptool.Log(ctx).Info("wiped")
		_, err := mcptool.Sample(ctx, "s", &mcp.CreateMessageParams{MaxTokens: 1})
		return "sampling: " + err.Error(), nil
	}))
	p := &fakePeer{}
	res, err := adapter.Invoke(context.Background(), reg, "wipe", json.RawMessage(`{}`), p)
	require.NoError(t, err)
	require.False(t, res.IsError, textOf(res))
	assert.Equal(t, "sampling: mcptool: the client cannot answer this input request: only elicitation (s)", textOf(res))
	assert.Equal(t, []float64{1, 2}, p.progress)
	assert.Equal(t, []string{"wipe: wiped"}, p.logs)
	require.Len(t, p.asked, 2, "the confirmation, then the sampling request")
	assert.Contains(t, p.asked[0].(*mcp.ElicitParams).Message, `Allow "wipe" to run?`)

	_, err = adapter.Invoke(context.Background(), reg, "nope", nil, p)
	assert.Equal(t, mcptool.CodeUnknownTool, mcptool.CodeOf(err))
}

func TestWatch(t *testing.T) {
	reg := mcptool.NewRegistry()
	var calls [][]string
	var mu sync.Mutex
	stop := reg.Watch(func(changed []string) { mu.Lock(); calls = append(calls, changed); mu.Unlock() })
	require.NoError(t, reg.Add("a", func() (string, error) { return "", nil }))
	require.NoError(t, reg.Add("c", func() (string, error) { return "", nil }))
	reg.Remove("a", "c", "x")
	reg.Remove("a") // no change, no call
	stop()
	require.NoError(t, reg.Add("b", func() (string, error) { return "", nil }))
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, [][]string{{"a"}, {"c"}, {"a", "c"}}, calls)
}

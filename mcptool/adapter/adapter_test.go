package adapter_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/adapter"
)

// countingPeer counts the progress notifications it was sent.
type countingPeer struct{ progress []string }

func (p *countingPeer) SessionID() string  { return "s" }
func (p *countingPeer) ProgressToken() any { return "tok" }
func (p *countingPeer) NotifyProgress(_ context.Context, _ any, _, _ float64, msg string) error {
	p.progress = append(p.progress, msg)
	return nil
}
func (p *countingPeer) LogHandler(context.Context, string) slog.Handler { return nil }
func (p *countingPeer) Ask(context.Context, mcp.InputRequest) (mcp.InputResponse, error) {
	return &mcp.ElicitResult{Action: "accept"}, nil
}

// The peer reaches the call it was handed to, not a call its tool makes
// in turn: that one is a direct call, without a client to ask.
func TestInvokePeerReachesOnlyItsCall(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.NoDescription())
	var innerAsk error
	if err := reg.Add("inner", func(ctx context.Context) error {
		mcptool.Progress(ctx, 1, 1, "inner")
		_, innerAsk = mcptool.Elicit(ctx, "k", &mcp.ElicitParams{Message: "?"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := reg.Add("outer", func(ctx context.Context) (string, error) {
		mcptool.Progress(ctx, 1, 2, "outer")
		if _, err := reg.Call(ctx, "inner", nil); err != nil {
			return "", err
		}
		mcptool.Progress(ctx, 2, 2, "outer again")
		return "ok", nil
	}); err != nil {
		t.Fatal(err)
	}
	p := &countingPeer{}
	res, err := adapter.Invoke(t.Context(), reg, "outer", nil, p)
	if err != nil || res.IsError {
		t.Fatalf("Invoke: %v %v", res, err)
	}
	if want := []string{"outer", "outer again"}; len(p.progress) != 2 || p.progress[0] != want[0] || p.progress[1] != want[1] {
		t.Errorf("progress sent to the peer: %q, want %q", p.progress, want)
	}
	if !errors.Is(innerAsk, mcptool.ErrInputUnsupported) {
		t.Errorf("the inner call asked its client: %v, want ErrInputUnsupported", innerAsk)
	}
	if _, err := adapter.Invoke(t.Context(), reg, "nope", nil, p); mcptool.CodeOf(err) != mcptool.CodeUnknownTool {
		t.Errorf("unknown tool: %v", err)
	}
	if res, err := adapter.Invoke(t.Context(), reg, "outer", nil, nil); err != nil || res.IsError {
		t.Errorf("Invoke without a peer, as Call: %v %v", res, err)
	}
}

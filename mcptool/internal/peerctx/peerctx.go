// Package peerctx holds what mcptool and mcptool/adapter share about the
// client end of a call: the Peer interface, and the context key under which
// adapter.Invoke hands a peer to Registry.Call. mcptool stores each call's
// own state under the same key, so the peer reaches only the call it was
// given to, never a call the tool makes in turn.
package peerctx

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Peer is the client end of one tool call, as a transport sees it: see
// adapter.Peer.
type Peer interface {
	SessionID() string
	ProgressToken() any
	NotifyProgress(ctx context.Context, token any, progress, total float64, message string) error
	LogHandler(ctx context.Context, name string) slog.Handler
	Ask(ctx context.Context, req mcp.InputRequest) (mcp.InputResponse, error)
}

// Key is the context key of a call's client end: a Peer handed to
// Registry.Call, or inside the call mcptool's own state.
type Key struct{}

// With returns ctx whose next Registry.Call has p as its client end.
func With(ctx context.Context, p Peer) context.Context { return context.WithValue(ctx, Key{}, p) }

// From returns the Peer handed to the call ctx is for, nil for none.
func From(ctx context.Context) Peer {
	p, _ := ctx.Value(Key{}).(Peer)
	return p
}

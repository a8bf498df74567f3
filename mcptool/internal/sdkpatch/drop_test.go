package sdkpatch

import (
	"context"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Pins what Drop relies on: go-sdk sends notifications/resources/list_changed
// through the sending middleware, once per session, on a 2025-11-25 session
// and on a 2026-07-28 listen alike, and one the middleware drops reaches
// that session only: the others still get theirs.
func TestDropKeepsANotification(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			ctx := context.Background()
			srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
			read := func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{}, nil
			}
			srv.AddResource(&mcp.Resource{URI: "file:///a", Name: "a"}, read)
			acked := make(chan struct{}, 10) // a 2026-07-28 listen is open
			srv.AddSendingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
				return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
					res, err := next(ctx, method, req)
					if method == "notifications/subscriptions/acknowledged" {
						acked <- struct{}{}
					}
					return res, err
				}
			})
			srv.AddSendingMiddleware(Drop("notifications/resources/list_changed", func(_ context.Context, ss *mcp.ServerSession) bool {
				return ss.InitializeParams().ClientInfo.Name == "muted"
			}))
			got := map[string]chan struct{}{}
			for _, name := range []string{"muted", "told"} {
				ch := make(chan struct{}, 10)
				got[name] = ch
				st, ct := mcp.NewInMemoryTransports()
				ss, err := srv.Connect(ctx, st, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer ss.Close()
				c := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, &mcp.ClientOptions{
					ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { ch <- struct{}{} },
				})
				cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
			}
			if version == "2026-07-28" {
				for range 2 {
					select {
					case <-acked:
					case <-time.After(5 * time.Second):
						t.Fatal("a listen was not acknowledged")
					}
				}
			}
			srv.AddResource(&mcp.Resource{URI: "file:///b", Name: "b"}, read)
			select {
			case <-got["told"]:
			case <-time.After(5 * time.Second):
				t.Fatal("no notifications/resources/list_changed for the session the middleware keeps")
			}
			select {
			case <-got["muted"]:
				t.Error("the dropped notification reached its session")
			case <-time.After(300 * time.Millisecond):
			}
		})
	}
}

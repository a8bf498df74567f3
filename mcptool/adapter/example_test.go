//lint:file-ignore SA1019 sampling is deprecated by the 2026-07-28 revision but remains in the protocol.

package adapter_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/adapter"
)

// consolePeer is a Peer that prints what a tool sends to the
// client, the way an adapter for another MCP library would forward it.
type consolePeer struct{}

func (consolePeer) SessionID() string  { return "console" }
func (consolePeer) ProgressToken() any { return "tok" }
func (consolePeer) NotifyProgress(_ context.Context, _ any, progress, total float64, message string) error {
	fmt.Printf("progress %v/%v: %s\n", progress, total, message)
	return nil
}
func (consolePeer) LogHandler(_ context.Context, name string) slog.Handler {
	h := slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}})
	return h.WithAttrs([]slog.Attr{slog.String("logger", name)})
}
func (consolePeer) Ask(_ context.Context, r mcp.InputRequest) (mcp.InputResponse, error) {
	if p, ok := r.(*mcp.ElicitParams); ok {
		fmt.Println("asked:", p.Message)
		return &mcp.ElicitResult{Action: "accept"}, nil
	}
	return nil, fmt.Errorf("%w: only elicitation", mcptool.ErrInputUnsupported)
}

// Invoke is for serving a registry on another MCP library: the adapter
// passes the call with a Peer, its end of the connection, and the context
// helpers (Progress, Log, Ask, ...) reach the client through it. Decoding,
// validation, policies and results are the registry's, as with
// Registry.Call.
func ExampleInvoke() {
	type ImportArgs struct {
		Files []string `json:"files" validate:"min=1"`
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("import", func(ctx context.Context, in ImportArgs) (string, error) {
		for i, f := range in.Files {
			mcptool.Progress(ctx, float64(i+1), float64(len(in.Files)), f)
		}
		mcptool.Log(ctx).Info("imported", "files", len(in.Files))
		if _, err := mcptool.Elicit(ctx, "publish", &mcp.ElicitParams{Message: "Publish the import?"}); err != nil {
			return "", err
		}
		_, err := mcptool.Sample(ctx, "title", &mcp.CreateMessageParams{MaxTokens: 10})
		return fmt.Sprintf("imported %d files; sampling: %v", len(in.Files), errors.Is(err, mcptool.ErrInputUnsupported)), nil
	})

	peer := consolePeer{}
	printResult(adapter.Invoke(context.Background(), reg, "import", json.RawMessage(`{"files":["a.csv","b.csv"]}`), peer))
	printResult(adapter.Invoke(context.Background(), reg, "import", json.RawMessage(`{"files":[]}`), peer))
	// Output:
	// progress 1/2: a.csv
	// progress 2/2: b.csv
	// level=INFO msg=imported logger=import files=2
	// asked: Publish the import?
	// isError: false
	// text: imported 2 files; sampling: true
	// isError: true
	// text: invalid arguments:
	// - files: must have at least 1 item, got 0 (minItems)
}

func printResult(res *mcp.CallToolResult, err error) {
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println("isError:", res.IsError)
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			fmt.Println("text:", t.Text)
		}
	}
}

// An adapter hands its tools the request's headers without the client's
// credentials.
func ExampleVisibleHeader() {
	h := http.Header{"Authorization": {"Bearer secret"}, "Cookie": {"s=1"}, "X-Trace": {"t-1"}}
	fmt.Println(adapter.VisibleHeader(h))
	// Output:
	// map[X-Trace:[t-1]]
}

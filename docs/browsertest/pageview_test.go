package browsertest

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

// notePage is a page of one's own: an inline style, an inline script with
// CRLF line endings (which the browser hashes as LF), and an inline event
// handler, which the policy must not run.
const notePage = "<!doctype html>\r\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Note</title>\r\n" +
	"<style>#out { color: rgb(0, 128, 128) }</style>\r\n" +
	"</head><body><main><h1>Note</h1><p id=\"out\"></p>" +
	"<button id=\"inline\" onclick=\"document.title = 'handler ran'\">inline handler</button></main>\r\n" +
	"<script>\r\nmcpgenView.onResult(function (r) {\r\n  document.getElementById(\"out\").textContent = r.structuredContent.text;\r\n});\r\n</script>\r\n" +
	"</body></html>\r\n"

type noteArgs struct {
	ID string `json:"id"`
}

type note struct {
	Text string `json:"text"`
}

// TestPageView runs a view.Page in the host: under the policy mcpgen puts
// first in its head, its own inline script and style run (their hashes are
// the browser's), with no violation reported; its inline event handler
// does not run, and the browser reports that.
func TestPageView(t *testing.T) {
	chromium(t)
	bundle := need(t, "the view tests' host script", filepath.Join("node_modules", ".mcpgen", "host.js"), "ci.sh bundles host/host.js with esbuild")
	ctx := context.Background()
	reg := mcptool.NewRegistry()
	require.NoError(t, reg.Add("note", func(_ context.Context, in noteArgs) (note, error) { return note{Text: "note " + in.ID}, nil },
		mcptool.Description("Shows a note."), mcptool.View(view.Page(fstest.MapFS{"note.html": {Data: []byte(notePage)}}, "note.html"))))
	st, ct := mcp.NewInMemoryTransports()
	ss, err := reg.Server(&mcp.Implementation{Name: "notes", Version: "1"}, nil).Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpgen-browsertest", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{Extensions: map[string]any{uiExtension: map[string]any{"mimeTypes": []string{uiMIMEType}}}},
	})
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	lr, err := cs.ListTools(ctx, nil)
	require.NoError(t, err)
	tools := map[string]*mcp.Tool{}
	for _, tl := range lr.Tools {
		tools[tl.Name] = tl
	}
	v := loadView(t, cs, tools, "note", map[string]any{"id": "n1"})

	h := openHost(t, serveHost(t, bundle, cs))
	h.mount(t, v, "light")
	viewPoll(t, h, `document.getElementById("out").textContent === "note n1"`)
	assert.Equal(t, "rgb(0, 128, 128)", inView[string](t, h, `getComputedStyle(document.getElementById("out")).color`), "the page's own style applies")
	h.mu.Lock()
	// Some Chromium releases report the refused handler when the page loads,
	// others only when it would run: that report is the one allowed.
	assert.Empty(t, otherThanHandler(h.security), "the page's own script and style ran without a policy violation")
	assert.Empty(t, h.exceptions)
	h.mu.Unlock()

	inView[bool](t, h, `(document.getElementById("inline").click(), true)`)
	h.poll(t, `true`)
	assert.Equal(t, "Note", inView[string](t, h, `document.title`), "the inline event handler did not run")
	h.mu.Lock()
	assert.NotEmpty(t, h.security, "the browser reported the refused handler")
	assert.Empty(t, otherThanHandler(h.security), "no other violation")
	h.mu.Unlock()
}

// otherThanHandler is the browser's security reports less those of an inline
// event handler refused by the policy.
func otherThanHandler(reports []string) []string {
	var other []string
	for _, r := range reports {
		if !strings.Contains(r, "inline event handler") {
			other = append(other, r)
		}
	}
	return other
}

package mcpopenapi_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpopenapi "github.com/mcpgen/mcpgen/adapters/openapi"
	"github.com/mcpgen/mcpgen/mcptool"
)

// TestRefusals: what cannot be said exactly is refused at registration,
// every operation and reason at once, and nothing is registered.
func TestRefusals(t *testing.T) {
	reg := mcptool.NewRegistry(mcpopenapi.Types())
	err := mcpopenapi.Add(reg, load(t, "testdata/shapes.yaml"), mcpopenapi.Options{})
	var e *mcpopenapi.Error
	if !errors.As(err, &e) || len(e.Operations) != 1 || e.Operations[0].Operation != "uploadShape" ||
		!strings.Contains(err.Error(), "uploadShape: request body: only JSON bodies are sent, and this one is application/octet-stream") {
		t.Fatalf("err = %v", err)
	}
	if n := len(reg.Tools()); n != 0 {
		t.Errorf("%d tools registered", n)
	}
	// Partial registers the rest, and says what it left out.
	err = mcpopenapi.Add(reg, load(t, "testdata/shapes.yaml"), mcpopenapi.Options{Partial: true})
	if !errors.As(err, &e) || e.Registered != 6 || len(reg.Tools()) != 6 {
		t.Errorf("partial: %v, %d tools", err, len(reg.Tools()))
	}
	// Excluded, it is no refusal.
	reg = mcptool.NewRegistry(mcpopenapi.Types())
	if err := mcpopenapi.Add(reg, load(t, "testdata/shapes.yaml"), mcpopenapi.Options{Exclude: []string{"uploadShape"}}); err != nil {
		t.Error(err)
	}

	file := writeSpec(t, `
  /a:
    get:
      operationId: getThing
      x-mcp-rate: fast
      x-mcp-colour: red
      responses: {'200': {description: ok}}
  /b:
    get:
      operationId: get_thing
      responses: {'200': {description: ok}}
  /c:
    get:
      operationId: cookies
      parameters:
        - {name: session, in: cookie, required: true, schema: {type: string}}
        - {name: mode, in: query, style: pipeDelimited, explode: true, schema: {type: array, items: {type: string}}}
      responses: {'200': {description: ok}}
`)
	err = mcpopenapi.Add(mcptool.NewRegistry(mcpopenapi.Types()), load(t, file), mcpopenapi.Options{})
	for _, want := range []string{
		`getThing: x-mcp-colour: not an mcpgen extension`,
		`x-mcp-rate: want a number, got fast`,
		`cookies: (1) parameter session (cookie): cookie parameters are not sent (2) parameter mode (query): style "pipeDelimited" (explode true) in query is not supported`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant %q", err, want)
		}
	}
	// Two operations, one name.
	file = writeSpec(t, `
  /a:
    get:
      operationId: getThing
      responses: {'200': {description: ok}}
  /b:
    get:
      operationId: get_thing
      responses: {'200': {description: ok}}
`)
	err = mcpopenapi.Add(mcptool.NewRegistry(mcpopenapi.Types()), load(t, file), mcpopenapi.Options{})
	if err == nil || !strings.Contains(err.Error(), `get_thing: tool name "get_thing" is also getThing's`) {
		t.Errorf("collision: %v", err)
	}
	if err := mcpopenapi.Add(mcptool.NewRegistry(mcpopenapi.Types()), load(t, file), mcpopenapi.Options{Names: map[string]string{"get_thing": "get_other"}}); err != nil {
		t.Errorf("renamed: %v", err)
	}
	// A registry without Types.
	err = mcpopenapi.Add(mcptool.NewRegistry(), load(t, "testdata/petstore.yaml"), mcpopenapi.Options{})
	if err == nil || !strings.Contains(err.Error(), "the registry was not made with mcpopenapi.Types()") {
		t.Errorf("without Types: %v", err)
	}
}

func writeSpec(t *testing.T, paths string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "api.yaml")
	spec := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\nservers: [{url: 'http://127.0.0.1:1/api'}]\npaths:" + paths
	if err := os.WriteFile(f, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestPolicies: hints from the method, groups from tags, scopes from the
// security requirements, and x-mcp-* and Go overrides.
func TestPolicies(t *testing.T) {
	up := newPetstore(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"kind":"Square","side":1}`)
	})
	reg := front(t, "testdata/shapes.yaml", up, mcpopenapi.Options{
		Scopes:     true,
		Operations: map[string][]mcptool.Option{"getNote": {mcptool.Title("The note"), mcptool.ReadOnly(false)}},
	})
	ann := func(name string) *mcp.ToolAnnotations {
		tl, ok := reg.Tool(name)
		if !ok {
			t.Fatalf("no tool %s", name)
		}
		return tl.Annotations
	}
	if a := ann("get_shape"); !a.ReadOnlyHint {
		t.Errorf("get_shape: %+v", a)
	}
	if a := ann("remove_shape"); a.ReadOnlyHint || !*a.DestructiveHint || !a.IdempotentHint {
		t.Errorf("remove_shape (x-mcp-name, DELETE): %+v", a)
	}
	if a := ann("put_shape"); a.ReadOnlyHint || !a.IdempotentHint {
		t.Errorf("put_shape: %+v", a)
	}
	if a := ann("get_note"); a.ReadOnlyHint || a.Title != "The note" {
		t.Errorf("get_note (Go options): %+v", a)
	}
	cat, err := reg.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	_ = cat
	// Scopes: a verified caller must hold the operation's OAuth scopes.
	ctx := mcptool.Authenticated(context.Background(), &auth.TokenInfo{Scopes: []string{"shapes.read"}})
	if _, err := reg.Call(ctx, "get_shape", []byte(`{"id":"1"}`)); err != nil {
		t.Errorf("get_shape with shapes.read: %v", err)
	}
	if _, err := reg.Call(ctx, "put_shape", []byte(`{"id":"1","body":{"kind":"Square","side":1}}`)); err == nil || !strings.Contains(err.Error(), "shapes.write") {
		t.Errorf("put_shape without shapes.write: %v", err)
	}
	// x-mcp-confirm: a client that cannot confirm is refused.
	r := call(t, reg, "put_shape", `{"id":"1","body":{"kind":"Square","side":1}}`)
	if !r.IsError {
		t.Errorf("put_shape without confirmation: %s", text(r))
	}
	t.Logf("put_shape: %s", text(r))
}

// TestContent: a response that is not JSON is content of its media type.
func TestContent(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n")
	up := newPetstore(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/picture"):
			w.Header().Set("Content-Type", "image/png")
			w.Write(png)
		case strings.HasSuffix(r.URL.Path, "/note"):
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			io.WriteString(w, "a note")
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	reg := front(t, "testdata/shapes.yaml", up, mcpopenapi.Options{})
	if r := call(t, reg, "get_picture", `{"id":"1"}`); len(r.Content) != 1 || r.Content[0].(*mcp.ImageContent).MIMEType != "image/png" || string(r.Content[0].(*mcp.ImageContent).Data) != string(png) {
		t.Errorf("get_picture: %#v", r.Content)
	}
	if r := call(t, reg, "get_note", `{"id":"1"}`); text(r) != "a note" || r.StructuredContent != nil {
		t.Errorf("get_note: %s", text(r))
	}
	if r := call(t, reg, "remove_shape", `{"id":"1"}`); r.IsError || text(r) != "the API answered 204 No Content without content" || up.lastRequest() != "DELETE /v1/shapes/1 " {
		t.Errorf("remove_shape: %s; upstream saw %q", text(r), up.lastRequest())
	}
}

package mcpopenapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpopenapi "github.com/mcpgen/mcpgen/adapters/openapi"
	"github.com/mcpgen/mcpgen/mcptool"
)

// petstore is an upstream that records what reaches it.
type petstore struct {
	*httptest.Server
	hits atomic.Int64
	last atomic.Pointer[string] // "METHOD URI body"
}

func newPetstore(t *testing.T, h http.HandlerFunc) *petstore {
	t.Helper()
	p := &petstore{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.hits.Add(1)
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		s := r.Method + " " + r.URL.RequestURI() + " " + string(b)
		p.last.Store(&s)
		h(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *petstore) lastRequest() string {
	if s := p.last.Load(); s != nil {
		return *s
	}
	return ""
}

func load(t *testing.T, file string) *mcpopenapi.Description {
	t.Helper()
	d, err := mcpopenapi.Load(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

func call(t *testing.T, reg *mcptool.Registry, name, args string) *mcp.CallToolResult {
	t.Helper()
	r, err := reg.Call(context.Background(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s(%s): %v", name, args, err)
	}
	return r
}

func TestPetstore(t *testing.T) {
	up := newPetstore(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == "GET" && r.URL.Path == "/v1/pets":
			io.WriteString(w, `[{"id":1,"name":"Rex"}]`)
		case r.Method == "GET" && strings.HasPrefix(r.URL.Path, "/v1/pets/"):
			if r.URL.Path == "/v1/pets/404" {
				w.WriteHeader(404)
				io.WriteString(w, `{"code":404,"message":"no pet 404"}`)
				return
			}
			io.WriteString(w, `{"id":7,"name":"Tom","tag":"cat"}`)
		case r.Method == "POST":
			w.WriteHeader(201)
		}
	})
	reg := mcptool.NewRegistry(mcpopenapi.Types())
	if err := mcpopenapi.Add(reg, load(t, "testdata/petstore.yaml"), mcpopenapi.Options{BaseURL: up.URL + "/v1"}); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range reg.Tools() {
		names = append(names, tl.Name)
		b, _ := json.Marshal(tl)
		t.Logf("%s", b)
	}
	if got := strings.Join(names, " "); got != "create_pets list_pets show_pet_by_id" {
		t.Errorf("tools: %s", got)
	}
	r := call(t, reg, "list_pets", `{"limit":5}`)
	if r.IsError || up.lastRequest() != "GET /v1/pets?limit=5 " {
		t.Errorf("list_pets: %s, upstream saw %q", text(r), up.lastRequest())
	}
	if b, _ := json.Marshal(r.StructuredContent); string(b) != `{"result":[{"id":1,"name":"Rex"}]}` {
		t.Errorf("structuredContent %s", b)
	}
	r = call(t, reg, "show_pet_by_id", `{"petId":"a/../b?c#d"}`)
	if r.IsError || up.lastRequest() != "GET /v1/pets/a%2F..%2Fb%3Fc%23d " {
		t.Errorf("show_pet_by_id: %s, upstream saw %q", text(r), up.lastRequest())
	}
	r = call(t, reg, "show_pet_by_id", `{"petId":"404"}`)
	if !r.IsError || text(r) != "the API answered 404 Not Found: no pet 404" {
		t.Errorf("404: %v %s", r.IsError, text(r))
	}
	r = call(t, reg, "create_pets", `{"body":{"id":3,"name":"Kit"}}`)
	if r.IsError || up.lastRequest() != `POST /v1/pets {"id":3,"name":"Kit"}` {
		t.Errorf("create_pets: %s, upstream saw %q", text(r), up.lastRequest())
	}
	before := up.hits.Load()
	for _, bad := range []string{`{"limit":101}`, `{"limit":"5"}`, `{"limit":2147483648}`, `{"other":1}`} {
		r = call(t, reg, "list_pets", bad)
		if !r.IsError {
			t.Errorf("list_pets(%s) was not refused", bad)
		}
		t.Logf("list_pets(%s): %s", bad, text(r))
	}
	r = call(t, reg, "create_pets", `{"body":{"id":1.5}}`)
	t.Logf("create_pets: %s", text(r))
	if up.hits.Load() != before {
		t.Errorf("invalid arguments reached the upstream")
	}
}

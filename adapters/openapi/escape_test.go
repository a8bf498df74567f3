package mcpopenapi_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpopenapi "github.com/mcpgen/mcpgen/adapters/openapi"
	"github.com/mcpgen/mcpgen/mcptool"
)

// front registers file's operations, sent to up, on a new registry.
func front(t *testing.T, file string, up *petstore, opts mcpopenapi.Options) *mcptool.Registry {
	t.Helper()
	reg := mcptool.NewRegistry(mcpopenapi.Types(), mcptool.Logger(slog.New(slog.DiscardHandler)))
	opts.BaseURL = up.URL + "/v1"
	opts.Partial = true
	err := mcpopenapi.Add(reg, load(t, file), opts)
	if _, partial := err.(*mcpopenapi.Error); err != nil && !partial {
		t.Fatal(err)
	}
	return reg
}

// TestEscapes: every argument that would make a request leave the
// operation, or the base URL, is refused before anything is sent.
func TestEscapes(t *testing.T) {
	up := newPetstore(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/search" {
			io.WriteString(w, `[]`)
			return
		}
		io.WriteString(w, `{"kind":"Square","side":1}`)
	})
	reg := front(t, "testdata/shapes.yaml", up, mcpopenapi.Options{})
	for _, c := range []struct{ name, args, want string }{
		{"get_shape", `{"id":".."}`, `id: must not be "", "." or ".." (not)`},
		{"get_shape", `{"id":"."}`, `id: must not be "", "." or ".." (not)`},
		{"get_shape", `{"id":""}`, `id: must not be "", "." or ".." (not)`},
		{"get_shape", `{"id":"1","X-Trace":"a\r\nX-Evil: 1"}`, `X-Trace: a header value cannot hold a line break`},
		{"get_shape", `{"id":"1","X-Trace":"a\nb"}`, `line break`},
		{"get_shape", `{"id":"1","extra":"x"}`, `extra: is not a known argument`},
		{"get_shape", `{"id":1}`, `id: must be a string, got number`},
		{"put_shape", `{"id":"1","body":{"kind":"Circle","side":1}}`, `body.radius: is required`},
		{"put_shape", `{"id":"1","body":{"kind":"Circle","radius":0}}`, `must be greater than 0`},
		{"put_shape", `{"id":"1","body":{"kind":"Circle","radius":1,"data":"not base64!"}}`, `body.data`},
		{"put_shape", `{"id":"1","body":{"kind":"Square","side":2147483648}}`, `must be at most 2147483647`},
		{"put_shape", `{"id":"1","body":{"kind":"Triangle","side":1}}`, `body.kind`},
		{"search_shapes", `{"size":10}`, `size: must be less than 10`},
		{"search_shapes", `{"size":0}`, `size: must be greater than 0`},
	} {
		r := call(t, reg, c.name, c.args)
		if !r.IsError || !strings.Contains(text(r), c.want) {
			t.Errorf("%s(%s) = %v %q, want an error with %q", c.name, c.args, r.IsError, text(r), c.want)
		}
	}
	if n := up.hits.Load(); n != 0 {
		t.Errorf("%d refused calls reached the upstream; last %q", n, up.lastRequest())
	}
	// What is allowed is sent encoded, within the base URL's path.
	for _, c := range []struct{ args, want string }{
		{`{"id":"../../admin"}`, "GET /v1/shapes/..%2F..%2Fadmin "},
		{`{"id":"a?b=c#d"}`, "GET /v1/shapes/a%3Fb=c%23d "},
		{`{"id":"%2e%2e"}`, "GET /v1/shapes/%252e%252e "},
		{`{"id":"x","fields":["a,b","c"]}`, "GET /v1/shapes/x?fields=a%2Cb,c "},
	} {
		r := call(t, reg, "get_shape", c.args)
		if r.IsError || up.lastRequest() != c.want {
			t.Errorf("get_shape(%s): %s; upstream saw %q, want %q", c.args, text(r), up.lastRequest(), c.want)
		}
	}
	r := call(t, reg, "search_shapes", `{"filter":{"kind":"a&b=c","min":1.50},"q":null}`)
	if r.IsError || up.lastRequest() != "GET /v1/search?filter%5Bkind%5D=a%26b%3Dc&filter%5Bmin%5D=1.50&q= " {
		t.Errorf("search_shapes: %s; upstream saw %q", text(r), up.lastRequest())
	}
}

// TestRedirects: a redirect within the base URL's origin is followed, one
// to another origin never.
func TestRedirects(t *testing.T) {
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	var up *petstore
	up = newPetstore(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/pets/away":
			http.Redirect(w, r, other.URL+"/v1/pets/1", http.StatusFound)
		case "/v1/pets/moved":
			http.Redirect(w, r, up.URL+"/v1/pets/1", http.StatusMovedPermanently)
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":1,"name":"Rex"}`)
		}
	})
	reg := front(t, "testdata/petstore.yaml", up, mcpopenapi.Options{})
	if r := call(t, reg, "show_pet_by_id", `{"petId":"moved"}`); r.IsError {
		t.Errorf("same-origin redirect: %s", text(r))
	}
	r := call(t, reg, "show_pet_by_id", `{"petId":"away"}`)
	if !r.IsError || !strings.Contains(text(r), "redirects are followed only within "+up.URL) {
		t.Errorf("redirect away: %v %s", r.IsError, text(r))
	}
	if elsewhere.Load() != 0 {
		t.Error("the redirect to another origin was followed")
	}
}

// TestBounds: the response size, the timeout and the calls in flight are
// bounded, each refusal naming its bound; 5xx and network errors are
// masked, 4xx shown with the API's message.
func TestBounds(t *testing.T) {
	release := make(chan struct{})
	up := newPetstore(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/pets/big":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":1,"name":"`+strings.Repeat("x", 2000)+`"}`)
		case "/v1/pets/slow":
			select {
			case <-release:
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		case "/v1/pets/boom":
			w.WriteHeader(500)
			io.WriteString(w, "stack trace with secrets")
		case "/v1/pets/problem":
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(409)
			io.WriteString(w, `{"type":"about:blank","title":"Conflict","detail":"pet 7 is being adopted"}`)
		default:
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"id":1,"name":"Rex"}`)
		}
	})
	defer close(release)
	reg := front(t, "testdata/petstore.yaml", up, mcpopenapi.Options{MaxResponseBytes: 1000, Timeout: 100 * time.Millisecond, MaxConcurrent: -1})
	if r := call(t, reg, "show_pet_by_id", `{"petId":"big"}`); !r.IsError || !strings.Contains(text(r), "larger than 1000 bytes (MaxResponseBytes)") {
		t.Errorf("big: %s", text(r))
	}
	if r := call(t, reg, "show_pet_by_id", `{"petId":"slow"}`); !r.IsError || !strings.Contains(text(r), "timed out after 100ms") {
		t.Errorf("slow: %s", text(r))
	}
	if r := call(t, reg, "show_pet_by_id", `{"petId":"boom"}`); !r.IsError || !strings.HasPrefix(text(r), "internal error (ref ") || strings.Contains(text(r), "secrets") {
		t.Errorf("500: %s", text(r))
	}
	if r := call(t, reg, "show_pet_by_id", `{"petId":"problem"}`); !r.IsError || text(r) != "the API answered 409 Conflict: Conflict: pet 7 is being adopted" {
		t.Errorf("409: %s", text(r))
	}

	// One call in flight holds the only slot.
	reg = front(t, "testdata/petstore.yaml", up, mcpopenapi.Options{MaxConcurrent: 1})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = reg.Call(context.Background(), "show_pet_by_id", []byte(`{"petId":"slow"}`))
	}()
	deadline := time.Now().Add(5 * time.Second)
	for up.lastRequest() != "GET /v1/pets/slow " && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if r := call(t, reg, "show_pet_by_id", `{"petId":"1"}`); !r.IsError || !strings.Contains(text(r), "1 calls to 127.0.0.1") || !strings.Contains(text(r), "(MaxConcurrent)") {
		t.Errorf("busy: %s", text(r))
	}
	release <- struct{}{}
	<-done

	up.Close()
	if r := call(t, reg, "show_pet_by_id", `{"petId":"1"}`); !r.IsError || !strings.HasPrefix(text(r), "internal error (ref ") {
		t.Errorf("network error: %s", text(r))
	}
}

// TestCredentials: the API gets the server's own credentials, from
// Authorize, and nothing else of the MCP request.
func TestCredentials(t *testing.T) {
	var got atomic.Pointer[http.Header]
	up := newPetstore(t, func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Clone()
		got.Store(&h)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":1,"name":"Rex"}`)
	})
	reg := front(t, "testdata/petstore.yaml", up, mcpopenapi.Options{Authorize: func(r *http.Request) error {
		r.Header.Set("Authorization", "Bearer server-own-token")
		return nil
	}})
	if r := call(t, reg, "show_pet_by_id", `{"petId":"1"}`); r.IsError {
		t.Fatal(text(r))
	}
	h := *got.Load()
	if h.Get("Authorization") != "Bearer server-own-token" || h.Get("Accept") != "application/json" || h.Get("Cookie") != "" {
		t.Errorf("headers the API saw: %v", h)
	}
}

// TestViolationText: a decimal bound is written as the description has it.
func TestViolationText(t *testing.T) {
	up := newPetstore(t, func(w http.ResponseWriter, r *http.Request) {})
	reg := front(t, "testdata/shapes.yaml", up, mcpopenapi.Options{})
	r := call(t, reg, "search_shapes", `{"size":10.5}`)
	if want := "size: must be less than 10, got 10.5 (exclusiveMaximum)"; !strings.Contains(text(r), want) {
		t.Errorf("got %q, want %q", text(r), want)
	}
}

// TestAnswerChecked: a 2xx answer that does not match the description's
// output schema is an internal error (logged with every mismatch), never
// structuredContent that breaks the published schema.
func TestAnswerChecked(t *testing.T) {
	up := newPetstore(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"seven"}`)
	})
	var logs strings.Builder
	reg := mcptool.NewRegistry(mcpopenapi.Types(), mcptool.Logger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err := mcpopenapi.Add(reg, load(t, "testdata/petstore.yaml"), mcpopenapi.Options{BaseURL: up.URL + "/v1"}); err != nil {
		t.Fatal(err)
	}
	r := call(t, reg, "show_pet_by_id", `{"petId":"7"}`)
	if !r.IsError || !strings.HasPrefix(text(r), "internal error (ref ") || r.StructuredContent != nil {
		t.Errorf("%s", text(r))
	}
	if !strings.Contains(logs.String(), "showPetById: the API answered 200: an answer that does not match its description") || !strings.Contains(logs.String(), "name: is required") {
		t.Errorf("log: %s", logs.String())
	}
}

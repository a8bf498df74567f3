package server

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestOpenAPIFlag: -openapi adds a description's operations beside the
// toolset's tools, sent to -openapi-base.
func TestOpenAPIFlag(t *testing.T) {
	var got string
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Method + " " + r.URL.RequestURI() + " " + r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"id":1,"name":"Rex"}]`)
	}))
	defer up.Close()
	t.Setenv("MCPGEN_OPENAPI_TOKEN", "server-token")
	cfg, err := parseFlags(full(), []string{"-toolset", "conformance", "-openapi", "../../../../adapters/openapi/testdata/petstore.yaml", "-openapi-base", up.URL + "/v1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	a, err := newApp(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.close()
	if _, ok := a.reg.Tool("list_pets"); !ok {
		t.Fatal("no list_pets")
	}
	res, err := a.reg.Call(context.Background(), "list_pets", []byte(`{"limit":2}`))
	if err != nil || res.IsError || got != "GET /v1/pets?limit=2 Bearer server-token" {
		t.Errorf("list_pets: %v %+v; upstream saw %q", err, res, got)
	}
	cfg.openapi = "testdata/missing.yaml"
	if _, err := newApp(cfg, slog.New(slog.DiscardHandler)); err == nil || !strings.Contains(err.Error(), "-openapi testdata/missing.yaml") {
		t.Errorf("missing description: %v", err)
	}
}

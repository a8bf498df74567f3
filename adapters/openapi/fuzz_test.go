package mcpopenapi_test

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpopenapi "github.com/mcpgen/mcpgen/adapters/openapi"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// TestFuzzShapes: every tool of the 3.0 description with nullable,
// boolean exclusive bounds, a discriminator, byte, int32 and every
// parameter style keeps mcpgen's contract for the documents mcptest.Fuzz
// derives from its published schema, an independent 2020-12 validator
// deciding which are valid: the valid ones run, the invalid ones are
// refused, naming where, before any request.
func TestFuzzShapes(t *testing.T) {
	up := newPetstore(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/v1/search" {
			io.WriteString(w, `[{"kind":"Square","side":1}]`)
			return
		}
		io.WriteString(w, `{"kind":"Square","side":1}`)
	})
	reg := front(t, "testdata/shapes.yaml", up, mcpopenapi.Options{MaxConcurrent: -1})
	accept := mcptest.Elicit(func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept"}, nil
	})
	for _, tl := range reg.Tools() {
		mcptest.Fuzz(t, reg, tl.Name, accept)
	}
}

package mcpopenapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	mcpopenapi "github.com/mcpgen/mcpgen/adapters/openapi"
	"github.com/mcpgen/mcpgen/mcptool"
)

// Front the Petstore: each operation of the description becomes a tool
// that calls the API.
func ExampleAdd() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":7,"name":"Tom"}`)
	}))
	defer api.Close()

	ctx := context.Background()
	d, err := mcpopenapi.Load(ctx, "testdata/petstore.yaml")
	if err != nil {
		panic(err)
	}
	reg := mcptool.NewRegistry(mcpopenapi.Types())
	if err := mcpopenapi.Add(reg, d, mcpopenapi.Options{BaseURL: api.URL + "/v1"}); err != nil {
		panic(err)
	}
	for _, t := range reg.Tools() {
		fmt.Println(t.Name, "read-only:", t.Annotations.ReadOnlyHint)
	}
	res, _ := reg.Call(ctx, "show_pet_by_id", []byte(`{"petId":"7"}`))
	fmt.Println(!res.IsError, string(must(res.StructuredContent)))
	res, _ = reg.Call(ctx, "list_pets", []byte(`{"limit":500}`))
	fmt.Println(res.IsError)
	// Output:
	// create_pets read-only: false
	// list_pets read-only: true
	// show_pet_by_id read-only: true
	// true {"id":7,"name":"Tom"}
	// true
}

// Load reads a description from a file or a URL, with its relative $refs.
func ExampleLoad() {
	d, err := mcpopenapi.Load(context.Background(), "testdata/shapes.yaml") // $refs shapes/shape.yaml
	fmt.Println(d != nil, err)
	// Output: true <nil>
}

// Types is the registry option Add needs.
func ExampleTypes() {
	reg := mcptool.NewRegistry(mcpopenapi.Types())
	d, _ := mcpopenapi.Load(context.Background(), "testdata/petstore-3.1.yaml")
	err := mcpopenapi.Add(reg, d, mcpopenapi.Options{BaseURL: "https://petstore.example/v1"})
	fmt.Println(len(reg.Tools()), err)
	// Output: 3 <nil>
}

func must(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

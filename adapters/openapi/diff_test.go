package mcpopenapi_test

import (
	"bytes"
	"testing"

	mcpopenapi "github.com/mcpgen/mcpgen/adapters/openapi"
	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

// TestDiff: the catalogues of two versions of a description diff into
// the breaking and security-relevant changes, as Go tools' do (mcpgen
// diff compares the same catalogues).
func TestDiff(t *testing.T) {
	cat := func(file string) *catalog.Catalog {
		reg := mcptool.NewRegistry(mcpopenapi.Types())
		if err := mcpopenapi.Add(reg, load(t, file), mcpopenapi.Options{BaseURL: "https://petstore.example/v1", Scopes: true}); err != nil {
			t.Fatal(err)
		}
		c, err := reg.Catalog()
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	r := catalog.Compare(cat("testdata/petstore.yaml"), cat("testdata/petstore-v2.yaml"))
	var b bytes.Buffer
	if err := r.Write(&b, "markdown"); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", b.String())
	want := map[string]catalog.Class{"list_pets/arguments.owner": catalog.Breaking, "list_pets/arguments.limit": catalog.Breaking}
	for _, c := range r.Changes {
		if cl, ok := want[c.Tool+"/"+c.Where]; ok && cl == c.Class {
			delete(want, c.Tool+"/"+c.Where)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing changes: %v", want)
	}
	if len(r.Added) != 1 || r.Added[0] != "delete_pet" || !r.Has(catalog.Breaking) {
		t.Errorf("added %v", r.Added)
	}
	found := false
	for _, c := range r.Changes {
		if c.Tool == "create_pets" && c.Where == "scopes" {
			found = true
		}
	}
	if !found {
		t.Error("the new scope of create_pets is not reported")
	}
}

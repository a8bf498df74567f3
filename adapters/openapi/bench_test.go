package mcpopenapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	mcpopenapi "github.com/mcpgen/mcpgen/adapters/openapi"
	"github.com/mcpgen/mcpgen/mcptool"
)

// BenchmarkCall: one call of show_pet_by_id against a loopback upstream,
// fronted from the description, against the same tool written by hand
// with net/http (mcptool.Add), and the bare net/http request.
func BenchmarkCall(b *testing.B) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":7,"name":"Tom","tag":"cat"}`)
	}))
	defer up.Close()
	ctx := context.Background()
	client := &http.Client{}
	args := json.RawMessage(`{"petId":"7"}`)

	d, err := mcpopenapi.Load(ctx, "testdata/petstore.yaml")
	if err != nil {
		b.Fatal(err)
	}
	fronted := mcptool.NewRegistry(mcpopenapi.Types())
	if err := mcpopenapi.Add(fronted, d, mcpopenapi.Options{BaseURL: up.URL + "/v1", Client: client}); err != nil {
		b.Fatal(err)
	}

	type petID struct {
		PetID string `json:"petId"`
	}
	type pet struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
		Tag  string `json:"tag,omitempty"`
	}
	get := func(ctx context.Context, in petID) (*pet, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, up.URL+"/v1/pets/"+url.PathEscape(in.PetID), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("status %d", resp.StatusCode)
		}
		var p pet
		if err := json.NewDecoder(io.LimitReader(resp.Body, 4<<20)).Decode(&p); err != nil {
			return nil, err
		}
		return &p, nil
	}
	hand := mcptool.NewRegistry()
	if err := mcptool.Add(hand, "show_pet_by_id", get, mcptool.Description("Info for a specific pet"), mcptool.ReadOnly(true), mcptool.Timeout(30*time.Second)); err != nil {
		b.Fatal(err)
	}

	for _, c := range []struct {
		name string
		reg  *mcptool.Registry
	}{{"fronted", fronted}, {"handwritten", hand}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := c.reg.Call(ctx, "show_pet_by_id", args)
				if err != nil || r.IsError {
					b.Fatal(err, r)
				}
			}
		})
	}
	b.Run("nethttp", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := get(ctx, petID{PetID: "7"}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRegisterPetstore: Load and Add of the Petstore.
func BenchmarkRegisterPetstore(b *testing.B) {
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		d, err := mcpopenapi.Load(ctx, "testdata/petstore-expanded.yaml")
		if err != nil {
			b.Fatal(err)
		}
		if err := mcpopenapi.Add(mcptool.NewRegistry(mcpopenapi.Types()), d, mcpopenapi.Options{BaseURL: "http://127.0.0.1:1"}); err != nil {
			b.Fatal(err)
		}
	}
}

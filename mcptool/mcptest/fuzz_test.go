package mcptest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// Address is a nested type, kept in $defs with KeepDefs.
type Address struct {
	Street string `json:"street" validate:"required,max=40"`
	Zip    string `json:"zip" jsonschema:"pattern=^[0-9]{5}$"`
}

// OrderArgs use most keywords mcpgen publishes.
type OrderArgs struct {
	Customer string    `json:"customer" validate:"required,min=2,max=20"`
	Email    string    `json:"email" validate:"required,email"`
	Site     string    `json:"site,omitempty" validate:"omitempty,url"`
	ID       string    `json:"id,omitempty" validate:"omitempty,uuid"`
	IP       string    `json:"ip,omitempty" validate:"omitempty,ipv4"`
	When     time.Time `json:"when,omitzero"`
	Quantity int       `json:"quantity" validate:"min=1,max=50"`
	Price    float64   `json:"price" validate:"gt=0,lte=1000"`
	Kind     string    `json:"kind" validate:"oneof=retail wholesale"`
	Tags     []string  `json:"tags,omitempty" validate:"omitempty,max=3,unique,dive,min=1"`
	Ship     *Address  `json:"ship,omitempty"`
	Bill     Address   `json:"bill"`
	Note     *string   `json:"note,omitempty"`
}

func orderRegistry(t testing.TB, tool func(context.Context, OrderArgs) (string, error)) *mcptool.Registry {
	reg := mcptool.NewRegistry(mcptool.KeepDefs(), mcptool.Logger(discard))
	if err := mcptool.Add(reg, "order", tool, mcptool.Description("Places an order.")); err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestFuzzKeepsContract fuzzes a careful tool: every document keeps the
// contract, and both valid and invalid documents are tried.
func TestFuzzKeepsContract(t *testing.T) {
	var calls int
	reg := orderRegistry(t, func(_ context.Context, in OrderArgs) (string, error) {
		calls++
		if in.Quantity > 40 {
			return "", mcptool.Errorf("at most 40 per order, got %d", in.Quantity) // a tool error is fine
		}
		return "ordered", nil
	})
	r := &recorder{}
	mcptest.Fuzz(r, reg, "order")
	r.finish()
	if f := r.failures(); f != "" {
		t.Fatal(f)
	}
	if len(r.logs) != 1 || !strings.Contains(r.logs[0], "contract kept") {
		t.Fatalf("logs: %q", r.logs)
	}
	var docs, valid, invalid int
	if _, err := fmt.Sscanf(r.logs[0], "mcptest: fuzz order (seed 1): %d documents, %d valid, %d invalid", &docs, &valid, &invalid); err != nil {
		t.Fatal(err)
	}
	if valid < 20 || invalid < 50 {
		t.Errorf("%d valid and %d invalid documents: too few of either", valid, invalid)
	}
	if calls != valid {
		t.Errorf("the tool ran %d times for %d valid documents", calls, valid)
	}
	t.Log(r.logs[0])
}

// TestFuzzFindsBoundaryPanic checks that Fuzz reports a panic on the
// largest valid value, with the document.
func TestFuzzFindsBoundaryPanic(t *testing.T) {
	reg := orderRegistry(t, func(_ context.Context, in OrderArgs) (string, error) {
		discounts := make([]int, 50)
		return "discount " + string(rune('0'+discounts[in.Quantity]%10)), nil // 50 is out of range
	})
	r := &recorder{}
	mcptest.Fuzz(r, reg, "order")
	r.finish()
	got := r.failures()
	if !strings.Contains(got, "an internal error for a valid document (") || !strings.Contains(got, `"quantity":50`) {
		t.Errorf("Fuzz did not report the panic at quantity 50:\n%s", got)
	}
	if strings.Contains(got, `"quantity":49`) {
		t.Errorf("Fuzz reported a document that works:\n%s", got)
	}
}

// TestFuzzFindsSchemaMismatch serves, under the registry's published
// schema, a tool that checks nothing: Fuzz reports that the tool ran on
// invalid documents.
func TestFuzzFindsSchemaMismatch(t *testing.T) {
	reg := orderRegistry(t, func(context.Context, OrderArgs) (string, error) { return "ok", nil })
	def, _ := reg.Tool("order")
	srv := mcp.NewServer(&mcp.Implementation{Name: "lax"}, nil)
	srv.AddTool(def, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{mcptool.Text("ran")}}, nil
	})
	r := &recorder{}
	mcptest.Fuzz(r, reg, "order", mcptest.Server(mcptool.NewRegistry().Mount(srv)))
	r.finish()
	if got := r.failures(); !strings.Contains(got, "a document the published schema refuses was not refused for its arguments") {
		t.Errorf("Fuzz did not report the lax tool:\n%s", got)
	}
}

// TestFuzzFindsWrongRefusals serves a tool that refuses everything, naming
// a path that does not exist: Fuzz reports valid documents refused and
// invalid ones refused for the wrong path.
func TestFuzzFindsWrongRefusals(t *testing.T) {
	reg := orderRegistry(t, func(context.Context, OrderArgs) (string, error) { return "ok", nil })
	def, _ := reg.Tool("order")
	srv := mcp.NewServer(&mcp.Implementation{Name: "strict"}, nil)
	srv.AddTool(def, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcptool.ErrorResult("invalid arguments:\n- nowhere.at_all: is wrong (type)"), nil
	})
	r := &recorder{}
	mcptest.Fuzz(r, reg, "order", mcptest.Server(mcptool.NewRegistry().Mount(srv)))
	r.finish()
	got := r.failures()
	for _, want := range []string{"refused a document the published schema accepts", "refused, but names none of the paths"} {
		if !strings.Contains(got, want) {
			t.Errorf("Fuzz did not report %q:\n%s", want, got)
		}
	}
}

// TestFuzzSetupErrors checks that Fuzz reports what keeps it from running.
func TestFuzzSetupErrors(t *testing.T) {
	r := &recorder{}
	mcptest.Fuzz(r, sumRegistry(), "nope")
	r.finish()
	if got := r.failures(); !strings.Contains(got, `no tool named "nope"`) {
		t.Errorf("failures: %s", got)
	}
}

// FuzzOrder runs the seed documents under go test, and explores from them
// under go test -fuzz FuzzOrder.
func FuzzOrder(f *testing.F) {
	reg := orderRegistry(f, func(_ context.Context, in OrderArgs) (string, error) {
		b, err := json.Marshal(in)
		return string(b), err
	})
	mcptest.FuzzF(f, reg, "order")
}

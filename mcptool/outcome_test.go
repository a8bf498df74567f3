package mcptool_test

import (
	"context"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// A middleware reads how each call ended once next has returned.
func TestCallOutcome(t *testing.T) {
	var seen []string
	record := func(next mcptool.Handler) mcptool.Handler {
		return func(ctx context.Context, call *mcptool.Call) (*mcp.CallToolResult, error) {
			before := call.Outcome()
			res, err := next(ctx, call)
			seen = append(seen, before+"|"+call.Outcome())
			return res, err
		}
	}
	reg := mcptool.NewRegistry(mcptool.Use(record))
	type in struct {
		N int `json:"n"`
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(reg.Add("ok", func(_ context.Context, a in) (int, error) { return a.N, nil }))
	must(reg.Add("fails", func(context.Context) error { return mcptool.Errorf("no") }))
	must(reg.Add("crashes", func(context.Context) error { return errors.New("disk on fire") }))
	must(reg.Add("limited", func(context.Context) error { return nil }, mcptool.RateLimit(0.001, 1)))
	ctx := context.Background()
	for _, c := range []struct{ name, args string }{
		{"ok", `{"n":1}`}, {"ok", `{"n":"x"}`}, {"fails", ``}, {"crashes", ``}, {"limited", ``}, {"limited", ``},
	} {
		if _, err := reg.Call(ctx, c.name, []byte(c.args)); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"|ok", "|invalid_arguments", "|tool_error", "|internal_error", "|ok", "|rate_limited"}
	if len(seen) != len(want) {
		t.Fatalf("seen %v", seen)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Errorf("call %d: before|after = %q, want %q", i, seen[i], want[i])
		}
	}
}

// A middleware that refuses a call answers with ErrorResult: an isError
// result the model reads. An error it returns, even one meant for the
// model (Errorf), is a protocol error, unlike a tool's own: the two are not
// one way to do the same thing, which is why ErrorResult stays.
func TestMiddlewareRefusal(t *testing.T) {
	refuse := func(asError bool) mcptool.Middleware {
		return func(mcptool.Handler) mcptool.Handler {
			return func(ctx context.Context, call *mcptool.Call) (*mcp.CallToolResult, error) {
				if asError {
					return nil, mcptool.Errorf("not today")
				}
				return mcptool.ErrorResult("not today"), nil
			}
		}
	}
	for _, asError := range []bool{false, true} {
		reg := mcptool.NewRegistry(mcptool.NoDescription(), mcptool.Use(refuse(asError)))
		if err := reg.Add("t", func(context.Context) (string, error) { return "ran", nil }); err != nil {
			t.Fatal(err)
		}
		res, err := reg.Call(context.Background(), "t", nil)
		if !asError {
			if err != nil || res == nil || !res.IsError || res.Content[0].(*mcp.TextContent).Text != "not today" {
				t.Errorf("ErrorResult: %v %v, want an isError result", res, err)
			}
			continue
		}
		if res != nil || err == nil || !mcptool.IsUserError(err) {
			t.Errorf("Errorf from middleware: %v %v, want the error itself, no result", res, err)
		}
	}
}

//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them in both eras.

package mcptest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// PlanArgs are the arguments of the plan tool.
type PlanArgs struct {
	City string `json:"city" validate:"required"`
}

// Plan is the plan tool's result.
type Plan struct {
	City  string `json:"city"`
	Ok    bool   `json:"ok"`
	Tip   string `json:"tip"`
	Roots int    `json:"roots"`
}

// planRegistry has a tool that uses every client feature: elicitation,
// sampling, roots, progress and logs.
func planRegistry(opts ...mcptool.Option) *mcptool.Registry {
	reg := mcptool.NewRegistry()
	_ = mcptool.Add(reg, "plan", func(ctx context.Context, in PlanArgs) (Plan, error) {
		mcptool.Progress(ctx, 1, 2, "asking")
		out, err := mcptool.Ask(ctx, mcp.InputRequestMap{
			"ok":    &mcp.ElicitParams{Message: "Plan a trip to " + in.City + "?"},
			"tip":   &mcp.CreateMessageParams{Messages: []*mcp.SamplingMessage{{Role: "user", Content: mcptool.Text("tip")}}, MaxTokens: 5},
			"roots": &mcp.ListRootsParams{},
		})
		if err != nil {
			return Plan{}, err
		}
		mcptool.Progress(ctx, 2, 2, "planned")
		mcptool.Log(ctx).Info("planned", "city", in.City)
		return Plan{
			City:  in.City,
			Ok:    out["ok"].(*mcp.ElicitResult).Action == "accept",
			Tip:   out["tip"].(*mcp.CreateMessageWithToolsResult).Content[0].(*mcp.TextContent).Text,
			Roots: len(out["roots"].(*mcp.ListRootsResult).Roots),
		}, nil
	}, append([]mcptool.Option{mcptool.Description("Plans a trip to a city.")}, opts...)...)
	return reg
}

// TestClientFeatures runs the client on both eras over both in-process
// transports and checks every helper against the plan tool.
func TestClientFeatures(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for _, transport := range []string{"memory", "http"} {
			t.Run(version+"/"+transport, func(t *testing.T) {
				opts := []mcptest.Option{
					mcptest.Version(version),
					mcptest.Elicit(func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						if !strings.Contains(r.Params.Message, "Lisbon") {
							return nil, fmt.Errorf("unexpected question %q", r.Params.Message)
						}
						return &mcp.ElicitResult{Action: "accept"}, nil
					}),
					mcptest.Sample(func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
						return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: mcptool.Text("walk")}, nil
					}),
					mcptest.Roots(&mcp.Root{URI: "file:///a"}, &mcp.Root{URI: "file:///b"}),
				}
				if transport == "http" {
					opts = append(opts, mcptest.HTTP(nil))
				}
				c := mcptest.Client(t, planRegistry(), opts...)
				if got := c.Session.InitializeResult().ProtocolVersion; got != version {
					t.Errorf("protocol %s, want %s", got, version)
				}

				var p Plan
				res := c.Call("plan", map[string]any{"city": "Lisbon"})
				res.Decode(&p)
				if want := (Plan{City: "Lisbon", Ok: true, Tip: "walk", Roots: 2}); p != want {
					t.Errorf("Decode: %+v, want %+v", p, want)
				}
				var fromText Plan
				if err := json.Unmarshal([]byte(res.Text()), &fromText); err != nil || fromText != p {
					t.Errorf("Text: %q (%v), want the structured content's JSON", res.Text(), err)
				}

				// On 2026-07-28 the tool runs again once the answers are in:
				// what it did before asking happens twice.
				want := "plan-1 1/2 asking|plan-1 2/2 planned"
				if version == "2026-07-28" {
					want = "plan-1 1/2 asking|plan-1 1/2 asking|plan-1 2/2 planned"
				}
				progress := c.Progress(strings.Count(want, "|") + 1)
				var got []string
				for _, n := range progress {
					got = append(got, fmt.Sprintf("%v %v/%v %s", n.ProgressToken, n.Progress, n.Total, n.Message))
				}
				if strings.Join(got, "|") != want {
					t.Errorf("progress: %q, want %q", strings.Join(got, "|"), want)
				}
				logs := c.Logs(1)
				if len(logs) != 1 || logs[0].Logger != "plan" || logs[0].Level != "info" {
					t.Errorf("logs: %+v", logs)
				}

				if msg := c.Call("plan", map[string]any{}).ErrorText(); !strings.Contains(msg, "city: is required") {
					t.Errorf("ErrorText: %q", msg)
				}
			})
		}
	}
}

// TestResultHelpersFail checks that the helpers fail the test when the
// result is not what they read.
func TestResultHelpersFail(t *testing.T) {
	r := &recorder{}
	defer r.finish()
	c := mcptest.Client(r, sumRegistry())
	var out Sum
	c.Call("sum", map[string]any{"a": 1}).Decode(&out)
	c.Call("sum", map[string]any{"a": 1, "b": 2}).ErrorText()
	c.Call("no_such_tool", nil)
	var bad struct{ Sum string }
	c.Call("sum", map[string]any{"a": 1, "b": 2}).Decode(&bad)
	got := r.failures()
	for _, want := range []string{
		"sum: want a result, got isError: invalid arguments:",
		`sum: want an isError result, got {"sum":3}`,
		"calling no_such_tool:",
		"decoding structuredContent into *struct { Sum string }",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("failures lack %q:\n%s", want, got)
		}
	}
}

// TestLogLevel checks that LogLevel filters the records the client gets,
// on both eras.
func TestLogLevel(t *testing.T) {
	reg := mcptool.NewRegistry()
	_ = reg.Add("chatty", func(ctx context.Context) (string, error) {
		mcptool.Log(ctx).Debug("debug")
		mcptool.Log(ctx).Warn("warn")
		return "ok", nil
	}, mcptool.Description("Logs at two levels."))
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		c := mcptest.Client(t, reg, mcptest.Version(version), mcptest.LogLevel("warning"))
		c.Call("chatty", nil)
		c.Call("chatty", nil)
		logs := c.Logs(2)
		for _, l := range logs {
			if l.Level != "warning" {
				t.Errorf("%s: got a %s record", version, l.Level)
			}
		}
		if len(logs) != 2 {
			t.Errorf("%s: %d records, want 2", version, len(logs))
		}
	}
}

// TestClientSetupErrors checks that setup failures are reported.
func TestClientSetupErrors(t *testing.T) {
	r := &recorder{}
	mcptest.Client(r, nil)
	c := mcptest.Client(r, nil, mcptest.Command(exec.Command("/nonexistent/server")))
	// The Conn of a failed setup fails the test again instead of panicking.
	c.Call("anything", nil)
	c.Tools()
	if rep := c.Load(2, time.Second, func(int) (string, any) { return "x", nil }); rep.Failed != 2 {
		t.Errorf("load on a failed client: %s", rep)
	}
	r.finish()
	got := r.failures()
	for _, want := range []string{"no registry", "connecting the client", "calling anything: the client is not connected", "tools/list: the client is not connected"} {
		if !strings.Contains(got, want) {
			t.Errorf("failures lack %q:\n%s", want, got)
		}
	}
}

// TestStdio builds the test server and talks to it on stdio, on both eras,
// checking that nothing is left running.
func TestStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := mcptest.Binary(t, "./testdata/stdioserver")
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			var stderr strings.Builder
			cmd := exec.Command(bin)
			cmd.Stderr = &stderr
			c := mcptest.Client(t, nil, mcptest.Command(cmd), mcptest.Version(version), mcptest.CheckLeaks())
			if got := c.Call("shout", map[string]any{"text": "hey"}).Text(); got != "HEY!" {
				t.Errorf("shout: %q", got)
			}
			if tools := c.Tools(); len(tools) != 1 || tools[0].Description != "Shouts the text." {
				t.Errorf("tools: %+v", tools)
			}
			if err := c.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
			if !strings.Contains(stderr.String(), "serving on stdio") {
				t.Errorf("stderr: %q", stderr.String())
			}
		})
	}
}

// TestNoLeaks checks that the client and servers of mcptest itself leave
// nothing running, so CheckLeaks reports only the test's own goroutines.
func TestNoLeaks(t *testing.T) {
	for _, transport := range []mcptest.Option{mcptest.HTTP(nil), mcptest.Timeout(mcptest.DefaultTimeout)} {
		for _, version := range []string{"2025-11-25", "2026-07-28"} {
			r := &recorder{}
			c := mcptest.Client(r, planRegistry(), transport, mcptest.Version(version), mcptest.CheckLeaks(),
				mcptest.Elicit(func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "decline"}, nil
				}))
			c.Call("plan", map[string]any{"city": "Oslo"})
			r.finish()
			if f := r.failures(); f != "" {
				t.Errorf("%s: %s", version, f)
			}
		}
	}
}

// BenchmarkCall measures one tools/call through the in-memory client: the
// helpers take a testing.TB, so benchmarks use them too.
func BenchmarkCall(b *testing.B) {
	c := mcptest.Client(b, sumRegistry())
	args := map[string]any{"a": 1, "b": 2}
	for b.Loop() {
		if c.Call("sum", args).IsError {
			b.Fatal("isError")
		}
	}
}

// TestTasks calls task tools with and without the extension declared, and
// fuzzes one that only runs as a task.
func TestTasks(t *testing.T) {
	reg := mcptool.NewRegistry(mcptool.Logger(discard))
	_ = mcptool.Add(reg, "slow_sum", func(ctx context.Context, in SumArgs) (Sum, error) {
		time.Sleep(10 * time.Millisecond)
		if s := in.A + in.B; !math.IsInf(s, 0) {
			return Sum{s}, nil
		}
		return Sum{}, mcptool.Errorf("the sum overflows") // Fuzz finds it: both at the published maximum
	}, mcptool.TaskRequired(), mcptool.Description("Adds two numbers, slowly."))
	_ = reg.Add("fails", func(ctx context.Context) (string, error) {
		return "", mcptool.Errorf("no luck")
	}, mcptool.Task(), mcptool.Description("Always fails."))

	c := mcptest.Client(t, reg, mcptest.Tasks())
	var out Sum
	c.Call("slow_sum", map[string]any{"a": 1, "b": 2}).Decode(&out)
	if out.Sum != 3 {
		t.Errorf("slow_sum: %v", out.Sum)
	}
	if msg := c.Call("fails", nil).ErrorText(); msg != "no luck" {
		t.Errorf("fails: %q", msg)
	}
	mcptest.Fuzz(t, reg, "slow_sum", mcptest.Tasks())

	r := &recorder{}
	mcptest.Client(r, reg).Call("slow_sum", map[string]any{"a": 1, "b": 2})
	r.finish()
	if !strings.Contains(r.failures(), "calling slow_sum") {
		t.Errorf("a task-only tool called without the extension: %q", r.failures())
	}
}

// TestTaskInput runs the plan tool as a task: its questions (elicitation,
// sampling, roots in one round) are answered through tasks/update by the
// client's functions.
func TestTaskInput(t *testing.T) {
	var asked []string
	c := mcptest.Client(t, planRegistry(mcptool.TaskRequired()), mcptest.Tasks(),
		mcptest.Elicit(func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, r.Params.Message)
			return &mcp.ElicitResult{Action: "accept"}, nil
		}),
		mcptest.Sample(func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: mcptool.Text("walk")}, nil
		}),
		mcptest.Roots(&mcp.Root{URI: "file:///a"}))
	var p Plan
	c.Call("plan", map[string]any{"city": "Porto"}).Decode(&p)
	if want := (Plan{City: "Porto", Ok: true, Tip: "walk", Roots: 1}); p != want {
		t.Errorf("plan as a task: %+v, want %+v", p, want)
	}
	if len(asked) != 1 || asked[0] != "Plan a trip to Porto?" {
		t.Errorf("asked: %q", asked)
	}
}

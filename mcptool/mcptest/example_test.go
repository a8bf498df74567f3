//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them in both eras.

package mcptest_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
)

// The examples run the helpers with a recorder in place of the test's *T:
// in a test, pass t.

// SumArgs are the arguments of the examples' sum tool.
type SumArgs struct {
	_ struct{} `mcp:"title=Sum,readOnly"`
	A float64  `json:"a" jsonschema_description:"First addend"`
	B float64  `json:"b" jsonschema_description:"Second addend"`
}

// Sum is the examples' sum tool's result.
type Sum struct {
	Sum float64 `json:"sum"`
}

func sumRegistry() *mcptool.Registry {
	reg := mcptool.NewRegistry()
	_ = mcptool.Add(reg, "sum", func(_ context.Context, in SumArgs) (Sum, error) {
		return Sum{in.A + in.B}, nil
	}, mcptool.Description("Adds two numbers."))
	return reg
}

// Client connects a real go-sdk client to a registry in memory; Call
// returns the result, and its helpers read it: Decode the structured
// content, Text the text blocks, ErrorText what the model reads of an
// isError result.
func ExampleClient() {
	t := &recorder{print: true}
	defer t.finish()

	c := mcptest.Client(t, sumRegistry())
	var out Sum
	c.Call("sum", map[string]any{"a": 2, "b": 3.5}).Decode(&out)
	fmt.Println("sum:", out.Sum)
	fmt.Println("text:", c.Call("sum", map[string]any{"a": 1, "b": 1}).Text())
	fmt.Println(c.Call("sum", map[string]any{"a": "two"}).ErrorText())
	fmt.Println("protocol:", c.Session.InitializeResult().ProtocolVersion)
	// Output:
	// sum: 5.5
	// text: {"sum":2}
	// invalid arguments:
	// - a: must be a number, got string (type)
	// - b: is required but missing (required)
	// protocol: 2026-07-28
}

// Version picks the protocol revision. A helper fails the test it was given
// on what it checks: here Decode of an isError result.
func ExampleVersion() {
	t := &recorder{print: true}
	defer t.finish()

	c := mcptest.Client(t, sumRegistry(), mcptest.Version("2025-11-25"))
	fmt.Println("protocol:", c.Session.InitializeResult().ProtocolVersion)
	var out Sum
	c.Call("sum", map[string]any{"a": 1}).Decode(&out)
	// Output:
	// protocol: 2025-11-25
	// mcptest: sum: want a result, got isError: invalid arguments:
	// - b: is required but missing (required)
}

// Elicit answers the tool's questions to the user, on both protocol eras:
// on 2025-11-25 as elicitation requests, on 2026-07-28 as the input-required
// round trip the client completes.
func ExampleElicit() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("delete_drafts", func(ctx context.Context) (string, error) {
		answer, err := mcptool.Elicit(ctx, "confirm", &mcp.ElicitParams{Message: "Delete 3 drafts?"})
		if err != nil {
			return "", err
		}
		return "user said: " + answer.Action, nil
	}, mcptool.Description("Deletes the drafts after asking."))
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t := &recorder{print: true}
		c := mcptest.Client(t, reg, mcptest.Version(version),
			mcptest.Elicit(func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				fmt.Printf("%s: asked %q\n", version, r.Params.Message)
				return &mcp.ElicitResult{Action: "decline"}, nil
			}))
		fmt.Println(c.Call("delete_drafts", nil).Text())
		t.finish()
	}
	// Output:
	// 2025-11-25: asked "Delete 3 drafts?"
	// user said: decline
	// 2026-07-28: asked "Delete 3 drafts?"
	// user said: decline
}

// Elicit answers the question of a tool marked Confirm: it runs on
// {"confirm": true}; any other answer, an accept without it too, is a
// refusal, the same on both eras.
func ExampleElicit_confirm() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("delete_recipe", func(context.Context) (string, error) { return "deleted", nil },
		mcptool.Description("Deletes a recipe."), mcptool.Confirm())
	for _, content := range []map[string]any{{"confirm": true}, nil} {
		for _, version := range []string{"2025-11-25", "2026-07-28"} {
			t := &recorder{print: true}
			c := mcptest.Client(t, reg, mcptest.Version(version),
				mcptest.Elicit(func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept", Content: content}, nil
				}))
			res := c.Call("delete_recipe", nil)
			if res.IsError {
				fmt.Printf("%s %v: %s\n", version, content, res.ErrorText())
			} else {
				fmt.Printf("%s %v: %s\n", version, content, res.Text())
			}
			t.finish()
		}
	}
	// Output:
	// 2025-11-25 map[confirm:true]: deleted
	// 2026-07-28 map[confirm:true]: deleted
	// 2025-11-25 map[]: the user did not confirm (accept); delete_recipe was not run
	// 2026-07-28 map[]: the user did not confirm (accept); delete_recipe was not run
}

// Sample answers the tool's sampling requests with a model of the test's
// making.
func ExampleSample() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("title", func(ctx context.Context) (string, error) {
		res, err := mcptool.Sample(ctx, "title", &mcp.CreateMessageParams{
			Messages:  []*mcp.SamplingMessage{{Role: "user", Content: mcptool.Text("A title for my notes?")}},
			MaxTokens: 10,
		})
		if err != nil {
			return "", err
		}
		return "title: " + res.Content[0].(*mcp.TextContent).Text, nil
	}, mcptool.Description("Suggests a title."))
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, reg, mcptest.Sample(func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		return &mcp.CreateMessageResult{Role: "assistant", Model: "fake", Content: mcptool.Text("Field notes")}, nil
	}))
	fmt.Println(c.Call("title", nil).Text())
	// Output:
	// title: Field notes
}

// Roots sets the roots the client reports when a tool lists them.
func ExampleRoots() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("workspace", func(ctx context.Context) (string, error) {
		res, err := mcptool.ListRoots(ctx, "roots")
		if err != nil {
			return "", err
		}
		return "first root: " + res.Roots[0].URI, nil
	}, mcptool.Description("Names the first root."))
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, reg, mcptest.Roots(&mcp.Root{URI: "file:///home/ada/notes", Name: "notes"}))
	fmt.Println(c.Call("workspace", nil).Text())
	// Output:
	// first root: file:///home/ada/notes
}

// Progress and Logs return the notifications the tool sent, waiting for
// the number expected: they may still be arriving when Call returns.
func ExampleConn_Progress() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("reindex", func(ctx context.Context) (string, error) {
		for i := 1.0; i <= 3; i++ {
			mcptool.Progress(ctx, i, 3, "")
		}
		mcptool.Log(ctx).Info("reindexed", "pages", 12)
		return "done", nil
	}, mcptool.Description("Rebuilds the index."))
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, reg)
	fmt.Println(c.Call("reindex", nil).Text())
	for _, p := range c.Progress(3) {
		fmt.Printf("progress %v: %v/%v\n", p.ProgressToken, p.Progress, p.Total)
	}
	for _, l := range c.Logs(1) {
		fmt.Printf("log %s [%s] %v\n", l.Logger, l.Level, l.Data.(map[string]any)["msg"])
	}
	// Output:
	// done
	// progress reindex-1: 1/3
	// progress reindex-1: 2/3
	// progress reindex-1: 3/3
	// log reindex [info] reindexed
}

// HTTP runs the same client over streamable HTTP: an httptest server on
// loopback serving the server's handler (mcptool.Server.Handler).
func ExampleHTTP() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("where", func(ctx context.Context) (string, error) {
		return "over HTTP: " + fmt.Sprint(mcptool.Request(ctx).Extra != nil), nil
	}, mcptool.Description("Says how it was reached."))
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t := &recorder{print: true}
		c := mcptest.Client(t, reg, mcptest.HTTP(nil), mcptest.Version(version))
		fmt.Println(version, c.Call("where", nil).Text())
		t.finish()
	}
	// Output:
	// 2025-11-25 over HTTP: true
	// 2026-07-28 over HTTP: true
}

// Server connects to a go-sdk server of your own: the registry's tools
// served with your server options, or next to prompts and resources.
func ExampleServer() {
	reg := sumRegistry()
	srv := reg.Server(&mcp.Implementation{Name: "calc", Version: "2.0.0"}, &mcp.ServerOptions{Instructions: "Use sum to add."})
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, nil, mcptest.Server(srv))
	init := c.Session.InitializeResult()
	fmt.Println(init.ServerInfo.Name, init.ServerInfo.Version, "-", init.Instructions)
	fmt.Println(len(c.Tools()), "tool:", c.Tools()[0].Name)
	// Output:
	// calc 2.0.0 - Use sum to add.
	// 1 tool: sum
}

// Binary builds a program, and Command runs it and talks to it over stdio,
// as a desktop client would.
func ExampleBinary() {
	if testing.Short() {
		fmt.Println("SHOUT!") // building takes a few seconds
		return
	}
	t := &recorder{print: true}
	defer t.finish()
	bin := mcptest.Binary(t, "./testdata/stdioserver")
	c := mcptest.Client(t, nil, mcptest.Command(exec.Command(bin)))
	fmt.Println(c.Call("shout", map[string]any{"text": "shout"}).Text())
	// Output:
	// SHOUT!
}

// Command runs any program that serves MCP on stdio.
func ExampleCommand() {
	if _, err := exec.LookPath("go"); err != nil {
		fmt.Println("HI!")
		return
	}
	t := &recorder{print: true}
	defer t.finish()
	cmd := exec.Command("go", "run", "./testdata/stdioserver")
	c := mcptest.Client(t, nil, mcptest.Command(cmd))
	fmt.Println(c.Call("shout", map[string]any{"text": "hi"}).Text())
	// Output:
	// HI!
}

// Load makes many calls at once within a deadline. Failures (protocol
// errors, internal errors, calls without an answer) fail the test; tool
// errors, such as a concurrency cap's refusals, are counted.
func ExampleConn_Load() {
	var mu sync.Mutex
	inFlight, most, ran := 0, 0, 0
	reg := mcptool.NewRegistry()
	_ = reg.Add("slow", func(ctx context.Context) (string, error) {
		mu.Lock()
		inFlight, ran = inFlight+1, ran+1
		most = max(most, inFlight)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		inFlight--
		mu.Unlock()
		return "ok", nil
	}, mcptool.MaxConcurrency(4), mcptool.Description("Takes its time."))
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, reg)
	rep := c.Load(10, 10*time.Second, func(int) (string, any) { return "slow", nil })
	fmt.Printf("%d calls, %d failed; ran + refused by the cap = %d; at most 4 at once: %v\n",
		rep.Calls, rep.Failed, ran+rep.ToolErrors, most <= 4)
	// Output:
	// 10 calls, 0 failed; ran + refused by the cap = 10; at most 4 at once: true
}

// CheckLeaks fails the test when goroutines the test started outlive the
// client: here a tool that starts work and never stops it.
func ExampleCheckLeaks() {
	stop := make(chan struct{})
	defer close(stop)
	reg := mcptool.NewRegistry()
	_ = reg.Add("watch", func(ctx context.Context) (string, error) {
		go func() { <-stop }() // bound to nothing: outlives the call
		return "watching", nil
	}, mcptool.Description("Starts watching."))
	t := &recorder{}
	c := mcptest.Client(t, reg, mcptest.CheckLeaks())
	fmt.Println(c.Call("watch", nil).Text())
	t.finish() // the end of the test: close, then look for goroutines
	fmt.Println(firstLine(t.failures()))
	// Output:
	// watching
	// mcptest: goroutines still running after the client closed: found unexpected goroutines:
}

// DayArgs are the arguments of the weekday tool.
type DayArgs struct {
	Day int `json:"day" jsonschema_description:"Day of the week, 1 for Monday" validate:"min=1,max=7"`
}

// Fuzz finds the classic boundary bug: the schema promises day 1 to 7, and
// the tool indexes a 7-element array with day itself. The valid document
// {"day":7} makes it panic; mcpgen turns the panic into an internal error,
// and Fuzz reports it with the document to replay.
func ExampleFuzz() {
	names := [7]string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
	reg := mcptool.NewRegistry(mcptool.Logger(discard))
	_ = mcptool.Add(reg, "weekday", func(_ context.Context, in DayArgs) (string, error) {
		return names[in.Day], nil // off by one: day 7 panics
	}, mcptool.Description("Names a day of the week."))

	t := &recorder{print: true}
	defer t.finish()
	mcptest.Fuzz(t, reg, "weekday")
	// Output:
	// mcptest: fuzz weekday (seed 1): 1 of 34 documents broke the contract:
	// an internal error for a valid document (1):
	//   document: {"day":7}
	//   why:      a panic, or an error not meant for the model: the registry's logger has it under the ref
	//   result:   internal error (ref …)
	//   replay:   c.Call("weekday", json.RawMessage(`{"day":7}`))
}

// FuzzF runs the same checks under go test -fuzz, starting from Fuzz's
// documents:
//
//	func FuzzWeekday(f *testing.F) { mcptest.FuzzF(f, newRegistry(), "weekday") }
func ExampleFuzzF() {
	fmt.Println("go test -run '^$' -fuzz '^FuzzWeekday$' -fuzztime 30s")
	// Output:
	// go test -run '^$' -fuzz '^FuzzWeekday$' -fuzztime 30s
}

// Snapshot keeps what the model sees of every tool in a golden file that
// review shows; go test -update rewrites it. Here the description changed
// since the file was written.
func ExampleSnapshot() {
	reg := sumRegistry()
	t := &recorder{}
	mcptest.Snapshot(t, reg, "testdata/tools.golden.json")
	fmt.Println("matches:", t.failures() == "")

	changed := mcptool.NewRegistry()
	_ = mcptool.Add(changed, "sum", func(_ context.Context, in SumArgs) (Sum, error) {
		return Sum{in.A + in.B}, nil
	}, mcptool.Description("Adds two numbers exactly."))
	t = &recorder{}
	mcptest.Snapshot(t, changed, "testdata/tools.golden.json")
	fmt.Println(firstLine(t.failures()))
	fmt.Println(diffLines(t.failures(), "description"))
	// Output:
	// matches: true
	// mcptest: testdata/tools.golden.json is out of date (go test -update rewrites it):
	// -      "description": "Adds two numbers.",
	// +      "description": "Adds two numbers exactly.",
}

// Golden compares any generated text with a file, as Snapshot does for
// the catalogue: generated docs, a rendered template.
func ExampleGolden() {
	dir, _ := os.MkdirTemp("", "golden")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "tools.md")
	_ = os.WriteFile(path, []byte("# Tools\n- sum\n"), 0o644)

	t := &recorder{}
	mcptest.Golden(t, path, []byte("# Tools\n- sum\n- weekday\n"))
	fmt.Println(strings.ReplaceAll(t.failures(), dir, "testdata"))
	// Output:
	// mcptest: testdata/tools.md is out of date (go test -update rewrites it):
	// --- testdata/tools.md
	// +++ now
	// @@ -1,2 +1,3 @@
	//  # Tools
	//  - sum
	// +- weekday
}

// ClientOptions passes go-sdk client options the other options do not
// cover: here a handler for tools/list_changed.
func ExampleClientOptions() {
	reg := sumRegistry()
	changed := make(chan struct{}, 1)
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, reg, mcptest.Version("2025-11-25"), mcptest.ClientOptions(&mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	}))
	_ = reg.Add("ping", func() (string, error) { return "pong", nil }, mcptool.Description("Answers pong."))
	select {
	case <-changed:
		fmt.Println("tools changed:", len(c.Tools()), "tools")
	case <-time.After(5 * time.Second):
		fmt.Println("no notification")
	}
	// Output:
	// tools changed: 2 tools
}

// LogLevel sets the level from which the tool's log records reach the
// client; Logs returns them.
func ExampleLogLevel() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("sync", func(ctx context.Context) (string, error) {
		mcptool.Log(ctx).Info("fetched", "events", 12)
		mcptool.Log(ctx).Warn("skipped", "events", 1)
		return "synced", nil
	}, mcptool.Description("Syncs the calendar."))
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, reg, mcptest.LogLevel("warning"))
	fmt.Println(c.Call("sync", nil).Text())
	for _, l := range c.Logs(1) {
		fmt.Println(l.Level, l.Data.(map[string]any)["msg"])
	}
	// Output:
	// synced
	// warning skipped
}

// Timeout bounds each call: a tool that does not answer in time fails the
// test instead of hanging it.
func ExampleTimeout() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("hang", func(ctx context.Context) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}, mcptool.Description("Never answers."))
	t := &recorder{}
	defer t.finish()
	c := mcptest.Client(t, reg, mcptest.Timeout(50*time.Millisecond))
	c.Call("hang", nil)
	fmt.Println(strings.Contains(t.failures(), "calling hang: "), strings.Contains(t.failures(), "deadline exceeded"))
	// Output:
	// true true
}

// Seed changes Fuzz's random choices; the same seed gives the same
// documents, so a failure found with one seed is found again.
func ExampleSeed() {
	reg := mcptool.NewRegistry()
	_ = mcptool.Add(reg, "weekday", func(_ context.Context, in DayArgs) (string, error) {
		return fmt.Sprint(in.Day), nil
	}, mcptool.Description("Names a day of the week."))
	for _, seed := range []int64{1, 2} {
		t := &recorder{}
		mcptest.Fuzz(t, reg, "weekday", mcptest.Seed(seed))
		t.finish()
		fmt.Println(t.logs[0])
	}
	// Output:
	// mcptest: fuzz weekday (seed 1): 34 documents, 8 valid, 26 invalid: contract kept
	// mcptest: fuzz weekday (seed 2): 34 documents, 8 valid, 26 invalid: contract kept
}

// Header sends headers with every HTTP request: here the tenant a
// middleware of the registry checks before any tool runs. (Credentials —
// Authorization, Cookie, Proxy-Authorization — never reach tools or
// middleware: the server checks tokens with HTTPOptions.TokenVerifier, and
// tools read the caller with mcptool.Caller.)
func ExampleHeader() {
	requireTenant := func(next mcptool.Handler) mcptool.Handler {
		return func(ctx context.Context, call *mcptool.Call) (*mcp.CallToolResult, error) {
			if call.Request == nil || call.Request.Extra == nil || call.Request.Extra.Header.Get("X-Tenant") != "acme" {
				return mcptool.ErrorResult("unknown tenant: send X-Tenant"), nil
			}
			return next(ctx, call)
		}
	}
	reg := mcptool.NewRegistry(mcptool.Use(requireTenant))
	_ = reg.Add("balance", func() (string, error) { return "42 EUR", nil }, mcptool.Description("Shows the account balance."))

	for _, tenant := range []string{"other", "acme"} {
		t := &recorder{print: true}
		c := mcptest.Client(t, reg, mcptest.HTTP(nil), mcptest.Header(http.Header{"X-Tenant": {tenant}}))
		fmt.Printf("%s: %s\n", tenant, c.Call("balance", nil).Text())
		t.finish()
	}
	// Output:
	// other: unknown tenant: send X-Tenant
	// acme: 42 EUR
}

// Tasks declares the tasks extension: a tool that runs as a task answers
// with one, and Call waits for it and returns its result.
func ExampleTasks() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("report", func(ctx context.Context) (string, error) {
		time.Sleep(20 * time.Millisecond)
		return "report ready", nil
	}, mcptool.TaskRequired(), mcptool.Description("Builds the report."))
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, reg, mcptest.Tasks())
	fmt.Println(c.Call("report", nil).Text())
	// Output:
	// report ready
}

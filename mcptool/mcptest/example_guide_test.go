package mcptest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/mcptest"
	"github.com/mcpgen/mcpgen/mcptool/view"
)

// The examples of docs/testing.md, docs/discovery.md and docs/views.md:
// one for each helper example_test.go does not show on its own, and the
// guides' tests of discovery and views.

// Page is one hit of the examples' list_pages tool.
type Page struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// Decode reads a result into the tool's own type, also one sent as
// {"result": ...} because it is not a JSON object (here a slice).
func ExampleResult_Decode() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("list_pages", func(context.Context) ([]Page, error) {
		return []Page{{"p1", "Release plan"}, {"p2", "Retro"}}, nil
	}, mcptool.Description("Lists the pages."))
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, reg)

	var pages []Page // func (r *Result) Decode(v any)
	c.Call("list_pages", nil).Decode(&pages)
	fmt.Printf("%d pages, first %q\n", len(pages), pages[0].Title)
	// Output:
	// 2 pages, first "Release plan"
}

// Text joins the result's text blocks; ErrorText is what the model reads of
// an isError result, and fails the test when the result is not one.
func ExampleResult_Text() {
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, sumRegistry())
	res := c.Call("sum", map[string]any{"a": 1, "b": 2}) // func (c *Conn) Call(name string, args any) *Result
	fmt.Println(res.Text())                              // func (r *Result) Text() string
	// Output:
	// {"sum":3}
}

// ErrorText returns the text of an isError result: every bad argument at
// once, with the rule it breaks.
func ExampleResult_ErrorText() {
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, sumRegistry())
	fmt.Println(c.Call("sum", map[string]any{"a": "1", "c": 2}).ErrorText()) // func (r *Result) ErrorText() string
	// Output:
	// invalid arguments:
	// - a: must be a number, got string (type)
	// - b: is required but missing (required)
	// - c: is not a known argument (did you mean "a"?) (additionalProperties)
}

// Call sends anything that marshals to a JSON object; a json.RawMessage
// is sent as it is, to replay a document Fuzz printed.
func ExampleConn_Call() {
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, sumRegistry())
	fmt.Println(c.Call("sum", json.RawMessage(`{"a":1e3,"b":0.5}`)).Text())
	fmt.Println(c.Call("sum", SumArgs{A: 2, B: 2}).Text())
	// Output:
	// {"sum":1000.5}
	// {"sum":4}
}

// Tools lists what the client sees: names, descriptions, schemas, hints.
func ExampleConn_Tools() {
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, sumRegistry())
	for _, tool := range c.Tools() { // func (c *Conn) Tools() []*mcp.Tool
		fmt.Println(tool.Name, "-", tool.Description, "- read-only:", tool.Annotations.ReadOnlyHint)
	}
	// Output:
	// sum - Adds two numbers. - read-only: true
}

// Logs waits for the tool's log records (notifications/message) and
// returns them in order.
func ExampleConn_Logs() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("import_notes", func(ctx context.Context) (string, error) {
		mcptool.Log(ctx).Info("imported", "notes", 3)
		return "done", nil
	}, mcptool.Description("Imports notes."))
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, reg)
	c.Call("import_notes", nil)
	for _, l := range c.Logs(1) { // func (c *Conn) Logs(n int) []*mcp.LoggingMessageParams
		data := l.Data.(map[string]any)
		fmt.Println(l.Level, data["msg"], data["notes"])
	}
	// Output:
	// info imported 3
}

// Close ends the session before the test does, to check that the server
// shuts down cleanly or what a client that left gets; it returns the same
// error on every call.
func ExampleConn_Close() {
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, sumRegistry(), mcptest.Version("2025-11-25"))
	fmt.Println("close:", c.Close()) // func (c *Conn) Close() error
	fmt.Println("again:", c.Close())
	_, err := c.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: "sum", Arguments: map[string]any{"a": 1, "b": 2}})
	fmt.Println("a call after it fails:", err != nil)
	// Output:
	// close: <nil>
	// again: <nil>
	// a call after it fails: true
}

// Load's report prints on one line: calls, failures, tool errors and the
// latency percentiles.
func ExampleLoadReport_String() {
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, sumRegistry())
	rep := c.Load(20, 10*time.Second, func(i int) (string, any) {
		return "sum", map[string]any{"a": i, "b": 1}
	})
	line := rep.String() // func (r LoadReport) String() string
	fmt.Println(regexp.MustCompile(`[0-9.]+(µs|ms|s)`).ReplaceAllString(line, "…"))
	// Output:
	// 20 calls in …: 0 failed, 0 tool errors; latency p50 …, p90 …, p99 …, max …
}

// A form the tool asks the user to fill: Elicit's function receives the
// request (its message and the schema of the answer) and returns the
// user's answer, on either protocol era.
func ExampleElicit_form() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("share_note", func(ctx context.Context) (string, error) {
		res, err := mcptool.Elicit(ctx, "contact", &mcp.ElicitParams{
			Message:         "Share the note with whom?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"email": map[string]any{"type": "string", "format": "email"}}, "required": []string{"email"}},
		})
		if err != nil {
			return "", err
		}
		if res.Action != "accept" {
			return "not shared", nil
		}
		return fmt.Sprint("shared with ", res.Content["email"]), nil
	}, mcptool.Description("Shares a note."))

	// func Elicit(fn func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error)) Option
	answer := func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		fmt.Println("asked:", req.Params.Message)
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"email": "ada@example.com"}}, nil
	}
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, reg, mcptest.Elicit(answer))
	fmt.Println(c.Call("share_note", nil).Text())
	// Output:
	// asked: Share the note with whom?
	// shared with ada@example.com
}

// InvoiceArgs are the arguments of the discovery example's get_invoice.
type InvoiceArgs struct {
	_  struct{} `mcp:"readOnly,group=billing"`
	ID string   `json:"id" jsonschema:"minLength=1" jsonschema_description:"The invoice's ID, e.g. inv_42."`
}

// RefundArgs are the arguments of the discovery example's refund_invoice.
type RefundArgs struct {
	_  struct{} `mcp:"destructive,group=billing"`
	ID string   `json:"id" jsonschema:"minLength=1"`
}

// billing is the registry of docs/discovery.md: discovery mode, with
// get_invoice eager (listed as before).
func billing() *mcptool.Registry {
	reg := mcptool.NewRegistry(mcptool.Discovery("get_invoice"))
	_ = mcptool.Add(reg, "get_invoice", func(_ context.Context, in InvoiceArgs) (string, error) {
		return "invoice " + in.ID + ": 42 EUR, paid", nil
	}, mcptool.Description("Shows an invoice: its amount and status."))
	_ = mcptool.Add(reg, "refund_invoice", func(_ context.Context, in RefundArgs) (string, error) {
		return "refunded " + in.ID, nil
	}, mcptool.Description("Refunds a paid invoice to the customer."))
	_ = reg.Add("list_customers", func(context.Context) (string, error) { return "ada, grace", nil },
		mcptool.Description("Lists the customers."), mcptool.ReadOnly(true))
	return reg
}

// Discovery mode seen from a client: tools/list holds the eager tool and
// the three discovery tools; search_tools finds a tool by what it does;
// call_tool calls a read-only tool, call_write_tool any other.
func ExampleClient_discovery() {
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, billing())

	var listed []string
	for _, tool := range c.Tools() {
		listed = append(listed, tool.Name)
	}
	fmt.Println(strings.Join(listed, " "))

	var found struct{ Tools []*mcp.Tool }
	_ = json.Unmarshal([]byte(c.Call("search_tools", map[string]any{"query": "refund a paid invoice"}).Text()), &found)
	fmt.Println("found:", found.Tools[0].Name)

	fmt.Println(c.Call("call_tool", map[string]any{"name": "list_customers", "arguments": map[string]any{}}).Text())
	fmt.Println(c.Call("call_tool", map[string]any{"name": "refund_invoice", "arguments": map[string]any{"id": "inv_42"}}).ErrorText())
	fmt.Println(c.Call("call_write_tool", map[string]any{"name": "refund_invoice", "arguments": map[string]any{"id": "inv_42"}}).Text())
	fmt.Println(c.Call("call_write_tool", map[string]any{"name": "refund_invoice", "arguments": map[string]any{"id": ""}}).ErrorText())
	// Output:
	// call_tool call_write_tool get_invoice search_tools
	// found: refund_invoice
	// ada, grace
	// refund_invoice is not read-only: call it with call_write_tool
	// refunded inv_42
	// invalid arguments:
	// - id: must be at least 1 character long, got 0 (minLength)
}

// ForecastArgs are the arguments of the views example's forecast.
type ForecastArgs struct {
	_    struct{} `mcp:"readOnly,view"` // the default view, from the output schema
	City string   `json:"city"`
}

// Forecast is the views example's result.
type Forecast struct {
	City string  `json:"city"`
	Temp float64 `json:"temp" jsonschema_description:"Temperature in degrees Celsius"`
}

// forecasts is the registry of docs/views.md: a tool with the default view
// and one with a template.
func forecasts() *mcptool.Registry {
	reg := mcptool.NewRegistry()
	_ = mcptool.Add(reg, "forecast", func(_ context.Context, in ForecastArgs) (Forecast, error) {
		return Forecast{City: in.City, Temp: 21.5}, nil
	}, mcptool.Description("Forecast for a city."))
	tmpl := template.Must(template.New("t").Parse(`<p>{{.City}}: {{.Temp}} °C</p>`))
	_ = mcptool.Add(reg, "forecast_card", func(_ context.Context, in ForecastArgs) (Forecast, error) {
		return Forecast{City: in.City, Temp: 21.5}, nil
	}, mcptool.Description("Forecast for a city, as a card."), mcptool.View(view.Template(tmpl)))
	return reg
}

// A client that declares the MCP Apps extension (io.modelcontextprotocol/ui)
// sees each view's page: the tool names it in _meta.ui.resourceUri, and
// resources/read returns it. A template's HTML comes in the result's _meta.
func ExampleClientOptions_views() {
	ui := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{
		Extensions: map[string]any{view.Extension: map[string]any{"mimeTypes": []string{view.MIMEType}}},
	}}
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, forecasts(), mcptest.ClientOptions(ui))

	uri := c.Tools()[0].Meta["ui"].(map[string]any)["resourceUri"].(string)
	fmt.Println(c.Tools()[0].Name, uri)
	page, err := c.Session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(page.Contents[0].MIMEType, strings.Contains(page.Contents[0].Text, "Content-Security-Policy"))
	res := c.Call("forecast_card", map[string]any{"city": "Lyon"})
	fmt.Println(res.Meta[view.HTMLMeta])
	fmt.Println(res.Text()) // the text and structuredContent stay as they are
	// Output:
	// forecast ui://mcpgen/forecast.html
	// text/html;profile=mcp-app true
	// <p>Lyon: 21.5 °C</p>
	// {"city":"Lyon","temp":21.5}
}

// A client without the extension sees the tools as if they had no view:
// no _meta.ui, and resources/read of a page answers "Resource not found",
// as for any resource the server does not have.
func ExampleClient_viewsWithoutExtension() {
	t := &recorder{print: true}
	defer t.finish()
	c := mcptest.Client(t, forecasts())
	fmt.Println(c.Tools()[0].Name, c.Tools()[0].Meta == nil)
	_, err := c.Session.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "ui://mcpgen/forecast.html"})
	fmt.Println(err)
	// Output:
	// forecast true
	// calling "resources/read": Resource not found
}

// TestGuideNamesEveryHelper: each exported function, method and option of
// mcptest has a runnable example (ExampleName or ExampleType_Method, with
// an Output comment), and docs/testing.md names it with its example.
func TestGuideNamesEveryHelper(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files, tests []*ast.File
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(p, "_test.go") {
			tests = append(tests, f)
		} else {
			files = append(files, f)
		}
	}
	d, err := doc.NewFromFiles(fset, files, "github.com/mcpgen/mcpgen/mcptool/mcptest")
	if err != nil {
		t.Fatal(err)
	}
	var runnable []string // "Client", "Conn_Call", "Elicit_confirm", ...
	for _, ex := range doc.Examples(tests...) {
		if ex.Output != "" || ex.EmptyOutput {
			runnable = append(runnable, ex.Name)
		}
	}
	guide, err := os.ReadFile("../../docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range d.Funcs {
		names = append(names, f.Name)
	}
	for _, typ := range d.Types {
		for _, f := range typ.Funcs {
			names = append(names, f.Name)
		}
		for _, m := range typ.Methods {
			names = append(names, typ.Name+"_"+m.Name)
		}
	}
	if len(names) < 30 {
		t.Fatalf("found only %d helpers: %v", len(names), names)
	}
	for _, n := range names {
		// ExampleName, or ExampleName_suffix with a lower-case suffix.
		if !slices.ContainsFunc(runnable, func(ex string) bool {
			suffix, ok := strings.CutPrefix(ex, n+"_")
			return ex == n || ok && suffix != "" && unicode.IsLower(rune(suffix[0])) && !strings.Contains(suffix, "_")
		}) {
			t.Errorf("%s: no runnable example (func Example%s with an // Output: comment)", n, n)
		}
		if !strings.Contains(string(guide), "Example"+n) {
			t.Errorf("docs/testing.md does not name Example%s", n)
		}
	}
}

package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"os"
	"reflect"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// examplePrintJSON prints v as indented JSON.
func examplePrintJSON(v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(string(b))
}

// examplePrintResult prints a tool result's isError flag and content.
func examplePrintResult(res *mcp.CallToolResult, err error) {
	if err != nil {
		fmt.Println("protocol error:", err)
		return
	}
	fmt.Println("isError:", res.IsError)
	for _, c := range res.Content {
		switch c := c.(type) {
		case *mcp.TextContent:
			fmt.Println("text:", c.Text)
		default:
			b, _ := json.Marshal(c)
			fmt.Println("content:", string(b))
		}
	}
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		fmt.Println("structuredContent:", string(b))
	}
}

func ExampleNewRegistry() {
	reg := mcptool.NewRegistry(
		mcptool.Logger(slog.New(slog.NewTextHandler(os.Stderr, nil))), // where panics are reported
		mcptool.DeclareDialect(), // "$schema" on every tool's schemas
	)
	_ = reg.Add("ping", func(ctx context.Context) (string, error) { return "pong", nil })

	def, _ := reg.Tool("ping")
	fmt.Println(len(reg.Tools()), def.Name)
	examplePrintJSON(def.InputSchema)
	// Output:
	// 1 ping
	// {
	//   "$schema": "https://json-schema.org/draft/2020-12/schema",
	//   "additionalProperties": false,
	//   "type": "object"
	// }
}

func ExampleRegistry_Add() {
	type SearchArgs struct {
		_     struct{} `mcp:"title=Search pages,readOnly,openWorld"`
		Query string   `json:"query" jsonschema_description:"Search query, matched against title and content" validate:"required,min=2"`
		Limit int      `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
		Sort  string   `json:"sort,omitempty" validate:"omitempty,oneof=relevance date"`
	}
	type Page struct {
		ID    string `json:"id"`
		Title string `json:"title"`
		URL   string `json:"url"`
	}
	search := func(ctx context.Context, in SearchArgs) ([]Page, error) {
		return []Page{{ID: "1", Title: "Hello " + in.Query, URL: "https://example.com/1"}}, nil
	}

	reg := mcptool.NewRegistry()
	err := reg.Add("search_pages", search, mcptool.Description("Search pages by title or content."))
	if err != nil {
		fmt.Println(err)
		return
	}
	def, _ := reg.Tool("search_pages")
	examplePrintJSON(def)
	// Output:
	// {
	//   "annotations": {
	//     "idempotentHint": false,
	//     "openWorldHint": true,
	//     "readOnlyHint": true,
	//     "title": "Search pages"
	//   },
	//   "description": "Search pages by title or content.",
	//   "inputSchema": {
	//     "properties": {
	//       "query": {
	//         "type": "string",
	//         "minLength": 2,
	//         "description": "Search query, matched against title and content"
	//       },
	//       "limit": {
	//         "type": "integer",
	//         "maximum": 100,
	//         "minimum": 1,
	//         "default": 10
	//       },
	//       "sort": {
	//         "type": "string",
	//         "enum": [
	//           "relevance",
	//           "date"
	//         ]
	//       }
	//     },
	//     "additionalProperties": false,
	//     "type": "object",
	//     "required": [
	//       "query"
	//     ]
	//   },
	//   "name": "search_pages",
	//   "outputSchema": {
	//     "properties": {
	//       "result": {
	//         "items": {
	//           "properties": {
	//             "id": {
	//               "type": "string"
	//             },
	//             "title": {
	//               "type": "string"
	//             },
	//             "url": {
	//               "type": "string"
	//             }
	//           },
	//           "additionalProperties": false,
	//           "type": "object",
	//           "required": [
	//             "id",
	//             "title",
	//             "url"
	//           ]
	//         },
	//         "type": "array"
	//       }
	//     },
	//     "additionalProperties": false,
	//     "type": "object",
	//     "required": [
	//       "result"
	//     ]
	//   },
	//   "title": "Search pages"
	// }
}

func ExampleRegistry_Add_shapes() {
	type Args struct {
		Name string `json:"name"`
	}
	reg := mcptool.NewRegistry()
	// Every accepted shape: with or without ctx, argument struct (or a
	// pointer to one) and result.
	fmt.Println(reg.Add("full", func(ctx context.Context, in Args) (string, error) { return "hi " + in.Name, nil }))
	fmt.Println(reg.Add("pointer", func(in *Args) (string, error) { return "hi " + in.Name, nil }))
	fmt.Println(reg.Add("no_result", func(ctx context.Context, in Args) error { return nil }))
	fmt.Println(reg.Add("no_args", func() (string, error) { return "hi", nil }))
	fmt.Println(reg.Add("nothing", func() error { return nil }))

	// Anything else is an *Error wrapping a *DefinitionError.
	err := reg.Add("bad", func(name string) (string, error) { return name, nil })
	fmt.Println(mcptool.CodeOf(err))
	var de *mcpreflect.DefinitionError
	fmt.Println(errors.As(err, &de), de.Type)
	// Output:
	// <nil>
	// <nil>
	// <nil>
	// <nil>
	// <nil>
	// invalid_definition
	// true func(string) (string, error)
}

func ExampleAdd() {
	type AddArgs struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	type Sum struct {
		Sum int `json:"sum"`
	}
	reg := mcptool.NewRegistry()
	// The function's shape is checked by the compiler.
	err := mcptool.Add(reg, "add", func(ctx context.Context, in AddArgs) (Sum, error) {
		return Sum{Sum: in.A + in.B}, nil
	}, mcptool.Description("Adds two integers."))
	if err != nil {
		fmt.Println(err)
		return
	}
	examplePrintResult(reg.Call(context.Background(), "add", json.RawMessage(`{"a":2,"b":3}`)))
	// Output:
	// isError: false
	// text: {"sum":5}
	// structuredContent: {"sum":5}
}

func ExampleRegistry_Call() {
	type Filter struct {
		From int `json:"from" validate:"min=0"`
		To   int `json:"to" validate:"max=100"`
	}
	type QueryArgs struct {
		Table   string   `json:"table" validate:"oneof=users orders"`
		Filters []Filter `json:"filters,omitempty"`
		Limit   int      `json:"limit,omitempty" jsonschema:"default=10"`
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("query", func(ctx context.Context, in QueryArgs) (string, error) {
		if in.Table == "orders" {
			return "", mcptool.Errorf("orders are archived; query users")
		}
		return fmt.Sprintf("%d filters, limit %d", len(in.Filters), in.Limit), nil
	})
	ctx := context.Background()

	// A good call; the default limit applies.
	examplePrintResult(reg.Call(ctx, "query", json.RawMessage(`{"table":"users","filters":[{"from":1,"to":2}]}`)))
	// Invalid arguments: every problem at once, as a result the model can act on.
	examplePrintResult(reg.Call(ctx, "query", json.RawMessage(`{"table":"pets","filters":[{"from":0,"to":1},{"from":-1,"to":200}]}`)))
	// An error returned by the tool is a result too.
	examplePrintResult(reg.Call(ctx, "query", json.RawMessage(`{"table":"orders"}`)))
	// Protocol errors: an unknown tool, arguments that are not JSON.
	_, err := reg.Call(ctx, "drop_table", nil)
	fmt.Println(mcptool.CodeOf(err))
	_, err = reg.Call(ctx, "query", json.RawMessage(`{"table":`))
	fmt.Println(mcptool.CodeOf(err))
	// Output:
	// isError: false
	// text: 1 filters, limit 10
	// isError: true
	// text: invalid arguments:
	// - table: must be one of "users", "orders", got "pets" (enum)
	// - filters[1].from: must be at least 0, got -1 (minimum)
	// - filters[1].to: must be at most 100, got 200 (maximum)
	// isError: true
	// text: orders are archived; query users
	// unknown_tool
	// malformed_arguments
}

func ExampleRegistry_Tools() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("search", func() error { return nil }, mcptool.Title("Search"))
	_ = reg.Add("delete_page", func() error { return nil }, mcptool.Title("Delete page"))
	_ = reg.Add("create_page", func() error { return nil }, mcptool.Title("Create page"))
	for _, t := range reg.Tools() {
		fmt.Printf("%s (%s)\n", t.Name, t.Title)
	}
	// Output:
	// create_page (Create page)
	// delete_page (Delete page)
	// search (Search)
}

func ExampleRegistry_Tool() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("genGreet", func() (string, error) { return "hello", nil }, mcptool.Description("Says hello."))
	if def, ok := reg.Tool("genGreet"); ok {
		fmt.Println(def.Name, "-", def.Description)
	}
	_, ok := reg.Tool("missing")
	fmt.Println(ok)
	// Output:
	// genGreet - Says hello.
	// false
}

func ExampleRegistry_Remove() {
	reg := mcptool.NewRegistry()
	for _, name := range []string{"a", "b", "c"} {
		_ = reg.Add(name, func() error { return nil })
	}
	reg.Remove("a", "c", "unknown") // unknown names are ignored
	fmt.Println(len(reg.Tools()))
	_, err := reg.Call(context.Background(), "a", nil)
	fmt.Println(err)
	// Output:
	// 1
	// mcptool: tool "a": unknown_tool: no such tool
}

func ExampleDescription() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("weather", func() (string, error) { return "sunny", nil },
		mcptool.Description("Current weather at the user's location. Returns a one-word summary."))
	def, _ := reg.Tool("weather")
	fmt.Println(def.Description)
	// Output:
	// Current weather at the user's location. Returns a one-word summary.
}

func ExampleTitle() {
	type Args struct {
		_ struct{} `mcp:"title=From the tag"`
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("tagged", func(Args) error { return nil })
	_ = reg.Add("overridden", func(Args) error { return nil }, mcptool.Title("From the option"))
	for _, t := range reg.Tools() {
		fmt.Println(t.Name+":", t.Title, "/", t.Annotations.Title)
	}
	// Output:
	// overridden: From the option / From the option
	// tagged: From the tag / From the tag
}

// exampleAnnotations prints a tool's annotations as JSON.
func exampleAnnotations(reg *mcptool.Registry, name string) {
	def, ok := reg.Tool(name)
	if !ok {
		fmt.Println("no tool", name)
		return
	}
	b, _ := json.Marshal(def.Annotations)
	fmt.Println(string(b))
}

func ExampleReadOnly() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("list_files", func() ([]string, error) { return nil, nil }, mcptool.ReadOnly(true))
	exampleAnnotations(reg, "list_files")
	// Output:
	// {"idempotentHint":false,"openWorldHint":true,"readOnlyHint":true}
}

func ExampleDestructive() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("append_log", func() error { return nil }, mcptool.Destructive(false))
	exampleAnnotations(reg, "append_log")

	// Destructive means nothing on a read-only tool: registration fails.
	err := reg.Add("bad", func() error { return nil }, mcptool.ReadOnly(true), mcptool.Destructive(true))
	fmt.Println(err)
	// Output:
	// {"destructiveHint":false,"idempotentHint":false,"openWorldHint":true,"readOnlyHint":false}
	// mcptool: tool "bad": invalid_definition: annotation options: meaningless hint combination: destructive on a readOnly tool (a read-only tool modifies nothing)
}

func ExampleIdempotent() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("set_status", func() error { return nil }, mcptool.Idempotent(true))
	exampleAnnotations(reg, "set_status")
	// Output:
	// {"destructiveHint":true,"idempotentHint":true,"openWorldHint":true,"readOnlyHint":false}
}

func ExampleOpenWorld() {
	type Args struct {
		_ struct{} `mcp:"readOnly,openWorld"`
	}
	reg := mcptool.NewRegistry()
	// The option overrides the tag.
	_ = reg.Add("local_lookup", func(Args) error { return nil }, mcptool.OpenWorld(false))
	exampleAnnotations(reg, "local_lookup")
	// Output:
	// {"idempotentHint":false,"openWorldHint":false,"readOnlyHint":true}
}

func ExampleKeepDefs() {
	type Address struct {
		City string `json:"city"`
	}
	type Args struct {
		Home Address `json:"home"`
		Work Address `json:"work"`
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("inlined", func(Args) error { return nil })
	_ = reg.Add("with_defs", func(Args) error { return nil }, mcptool.KeepDefs())
	for _, name := range []string{"inlined", "with_defs"} {
		def, _ := reg.Tool(name)
		fmt.Printf("%s: %s\n", name, def.InputSchema)
	}
	// Output:
	// inlined: {"properties":{"home":{"properties":{"city":{"type":"string"}},"additionalProperties":false,"type":"object","required":["city"]},"work":{"properties":{"city":{"type":"string"}},"additionalProperties":false,"type":"object","required":["city"]}},"additionalProperties":false,"type":"object","required":["home","work"]}
	// with_defs: {"$defs":{"Address":{"properties":{"city":{"type":"string"}},"additionalProperties":false,"type":"object","required":["city"]}},"properties":{"home":{"$ref":"#/$defs/Address"},"work":{"$ref":"#/$defs/Address"}},"additionalProperties":false,"type":"object","required":["home","work"]}
}

func ExampleDeclareDialect() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("plain", func() error { return nil })
	_ = reg.Add("declared", func() error { return nil }, mcptool.DeclareDialect())
	for _, t := range reg.Tools() {
		fmt.Printf("%s: %s\n", t.Name, t.InputSchema)
	}
	// Output:
	// declared: {"$schema":"https://json-schema.org/draft/2020-12/schema","additionalProperties":false,"type":"object"}
	// plain: {"additionalProperties":false,"type":"object"}
}

func ExampleNoOutputSchema() {
	type Stats struct {
		Users int `json:"users"`
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("stats", func() (Stats, error) { return Stats{Users: 3}, nil }, mcptool.NoOutputSchema())
	_ = reg.Add("count", func() (int, error) { return 3, nil }, mcptool.NoOutputSchema())

	def, _ := reg.Tool("stats")
	fmt.Println("outputSchema:", def.OutputSchema)
	examplePrintResult(reg.Call(context.Background(), "stats", nil))
	examplePrintResult(reg.Call(context.Background(), "count", nil))
	// Output:
	// outputSchema: <nil>
	// isError: false
	// text: {"users":3}
	// isError: false
	// text: 3
}

// Tools defined by configuration: argument types made at run time, kept in a
// plan cache that goes with the registry when the configuration is
// reloaded, instead of in the process-wide one.
func ExamplePlanCache() {
	type toolSpec struct{ name, param, rule string }
	specs := []toolSpec{{"greet", "who", "required,min=2"}, {"shout", "text", "required,max=10"}}

	reg := mcptool.NewRegistry(mcptool.PlanCache(&mcpreflect.Cache{}))
	for _, spec := range specs {
		args := reflect.StructOf([]reflect.StructField{{
			Name: "Param", Type: reflect.TypeFor[string](),
			Tag: reflect.StructTag(fmt.Sprintf(`json:%q validate:%q`, spec.param, spec.rule)),
		}})
		fnType := reflect.FuncOf([]reflect.Type{args}, []reflect.Type{reflect.TypeFor[string](), reflect.TypeFor[error]()}, false)
		fn := reflect.MakeFunc(fnType, func(in []reflect.Value) []reflect.Value {
			text := spec.name + ": " + in[0].Field(0).String()
			return []reflect.Value{reflect.ValueOf(text), reflect.Zero(reflect.TypeFor[error]())}
		})
		if err := reg.Add(spec.name, fn.Interface()); err != nil {
			fmt.Println(err)
			return
		}
	}
	shout, _ := reg.Tool("shout")
	fmt.Println(string(shout.InputSchema.(json.RawMessage)))
	ctx := context.Background()
	examplePrintResult(reg.Call(ctx, "greet", json.RawMessage(`{"who":"Ada"}`)))
	examplePrintResult(reg.Call(ctx, "shout", json.RawMessage(`{"text":"far too long to shout"}`)))
	// Output:
	// {"properties":{"text":{"type":"string","maxLength":10,"minLength":1}},"additionalProperties":false,"type":"object","required":["text"]}
	// isError: false
	// text: greet: Ada
	// isError: true
	// text: invalid arguments:
	// - text: must be at most 10 characters long, got 21 (maxLength)
}

func ExampleLogger() {
	var logs bytes.Buffer
	reg := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.NewJSONHandler(&logs, nil))))
	_ = reg.Add("fragile", func() (string, error) { panic("database handle is nil") }, mcptool.Description("Reads the database."))

	// The model sees only a reference...
	res, _ := reg.Call(context.Background(), "fragile", nil)
	text := res.Content[0].(*mcp.TextContent).Text
	ref := regexp.MustCompile(`^internal error \(ref ([0-9a-f]+)\)$`).FindStringSubmatch(text)[1]
	fmt.Println(res.IsError, strings.Replace(text, ref, "<ref>", 1))

	// ...and the log has the details under the same reference.
	var rec struct {
		Msg, Tool, Ref, Err, Stack string
	}
	_ = json.Unmarshal(logs.Bytes(), &rec)
	fmt.Println(rec.Msg)
	fmt.Println(rec.Tool, rec.Ref == ref, rec.Err, strings.HasPrefix(rec.Stack, "goroutine "))
	// Output:
	// true internal error (ref <ref>)
	// mcptool: internal error
	// fragile true panic: database handle is nil true
}

func ExampleText() {
	b, _ := json.Marshal(mcptool.Text("Hello, world"))
	fmt.Println(string(b))
	// Output:
	// {"type":"text","text":"Hello, world"}
}

func ExampleImage() {
	gif := []byte("GIF89a")
	b, _ := json.Marshal(mcptool.Image(gif, "image/gif"))
	fmt.Println(string(b))
	// Output:
	// {"type":"image","mimeType":"image/gif","data":"R0lGODlh"}
}

// A tool returning an image.Image sends it as one image/png block; a tool
// that sends an image among other blocks encodes it and calls Image.
func ExampleImage_png() {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(1, 1, color.RGBA{R: 255, A: 255})

	reg := mcptool.NewRegistry()
	_ = reg.Add("chart", func() (image.Image, error) { return img, nil })
	_ = reg.Add("report", func() ([]mcp.Content, error) {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return nil, err
		}
		return []mcp.Content{mcptool.Text("Sales by month"), mcptool.Image(buf.Bytes(), "image/png")}, nil
	})

	res, _ := reg.Call(context.Background(), "chart", nil)
	block := res.Content[0].(*mcp.ImageContent)
	decoded, _ := png.Decode(bytes.NewReader(block.Data))
	fmt.Println(block.MIMEType, decoded.Bounds(), decoded.At(1, 1))

	res, _ = reg.Call(context.Background(), "report", nil)
	fmt.Println(len(res.Content), bytes.Equal(res.Content[1].(*mcp.ImageContent).Data, block.Data))
	// Output:
	// image/png (0,0)-(2,2) {255 0 0 255}
	// 2 true
}

func ExampleAudio() {
	b, _ := json.Marshal(mcptool.Audio([]byte("RIFF"), "audio/wav"))
	fmt.Println(string(b))
	// Output:
	// {"type":"audio","mimeType":"audio/wav","data":"UklGRg=="}
}

func ExampleResourceLink() {
	b, _ := json.Marshal(mcptool.ResourceLink("file:///project/README.md", "README.md", "text/markdown"))
	fmt.Println(string(b))
	// Output:
	// {"type":"resource_link","mimeType":"text/markdown","uri":"file:///project/README.md","name":"README.md"}
}

func ExampleEmbeddedText() {
	b, _ := json.Marshal(mcptool.EmbeddedText("memo://42", "text/plain", "Buy milk"))
	fmt.Println(string(b))
	// Output:
	// {"type":"resource","resource":{"uri":"memo://42","mimeType":"text/plain","text":"Buy milk"}}
}

func ExampleErrorResult() {
	type Args struct {
		City string `json:"city"`
	}
	reg := mcptool.NewRegistry()
	_ = reg.Add("forecast", func(in Args) (*mcp.CallToolResult, error) {
		if in.City != "Paris" {
			return mcptool.ErrorResult("no forecast for " + in.City + "; try Paris"), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{mcptool.Text("sunny")}}, nil
	})
	examplePrintResult(reg.Call(context.Background(), "forecast", json.RawMessage(`{"city":"Oslo"}`)))
	examplePrintResult(reg.Call(context.Background(), "forecast", json.RawMessage(`{"city":"Paris"}`)))
	// Output:
	// isError: true
	// text: no forecast for Oslo; try Paris
	// isError: false
	// text: sunny
}

func ExampleCodeOf() {
	reg := mcptool.NewRegistry()
	_ = reg.Add("t", func() error { return nil })

	errs := []error{
		reg.Add("t", func() error { return nil }),         // duplicate
		reg.Add("no spaces", func() error { return nil }), // invalid name
		reg.Add("u", "not a function"),                    // invalid definition
		func() error { _, err := reg.Call(context.Background(), "v", nil); return err }(),
		func() error { _, err := reg.Call(context.Background(), "t", json.RawMessage("{")); return err }(),
		fmt.Errorf("wrapped: %w", reg.Add("t", func() error { return nil })),
		errors.New("some other error"),
	}
	for _, err := range errs {
		switch code := mcptool.CodeOf(err); code {
		case 0:
			fmt.Println("not an mcptool error")
		default:
			fmt.Println(code)
		}
	}
	// Output:
	// duplicate
	// invalid_name
	// invalid_definition
	// unknown_tool
	// malformed_arguments
	// duplicate
	// not an mcptool error
}

func ExampleCode_String() {
	fmt.Println(mcptool.CodeUnknownTool, mcptool.CodeMalformedArguments, mcptool.CodeInvalidName,
		mcptool.CodeDuplicate, mcptool.CodeInvalidDefinition, mcptool.Code(99))
	// Output:
	// unknown_tool malformed_arguments invalid_name duplicate invalid_definition code(99)
}

func ExampleError() {
	reg := mcptool.NewRegistry()
	_, err := reg.Call(context.Background(), "missing", nil)
	var e *mcptool.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Tool)
	}
	// Output:
	// unknown_tool missing
}

func ExampleError_Error() {
	err := &mcptool.Error{Code: mcptool.CodeDuplicate, Tool: "search", Err: errors.New("already registered")}
	fmt.Println(err.Error())
	// Output:
	// mcptool: tool "search": duplicate: already registered
}

func ExampleError_Unwrap() {
	type Args struct {
		N int `json:"n" validate:"min=x"` // not a number
	}
	err := mcptool.NewRegistry().Add("bad", func(Args) error { return nil })
	var e *mcptool.Error
	if errors.As(err, &e) {
		fmt.Printf("%T\n", e.Unwrap())
	}
	// Output:
	// *mcpreflect.DefinitionError
}

func ExampleError_JSONRPC() {
	reg := mcptool.NewRegistry()
	_, err := reg.Call(context.Background(), "missing", nil)
	var e *mcptool.Error
	if errors.As(err, &e) {
		je := e.JSONRPC()
		fmt.Println(je.Code, je.Message)
	}
	// Output:
	// -32602 unknown tool "missing"
}

func ExampleDefinitionError() {
	type Args struct {
		Count int `json:"count" jsonschema:"minimun=1"`
	}
	err := mcptool.NewRegistry().Add("count", func(Args) error { return nil })
	var de *mcpreflect.DefinitionError
	if errors.As(err, &de) {
		fmt.Println("type: ", de.Type)
		fmt.Println("field:", de.Field)
		fmt.Println("tag:  ", de.Tag)
		fmt.Println("msg:  ", de.Msg)
	}
	// Output:
	// type:  mcptool_test.Args
	// field: Count
	// tag:   jsonschema:"minimun=1"
	// msg:   unknown key "minimun" (did you mean "minimum"?)
}

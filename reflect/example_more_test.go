package mcpreflect_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"reflect"
	"regexp"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// A tool returning an image.Image sends it as a PNG image content block.
func ExampleOutput_Result_image() {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})

	out, _ := mcpreflect.DefaultCache().Output(reflect.TypeFor[image.Image](), mcpreflect.Options{})
	res, err := out.Result(img)
	if err != nil {
		fmt.Println(err)
		return
	}
	c := res.Content[0].(*mcp.ImageContent)
	fmt.Println(c.MIMEType, string(c.Data[1:4]))
	// Output:
	// image/png PNG
}

type slugArgs struct {
	Slug string `json:"slug" validate:"required,example_slug"`
}

// Validator is where custom validator rules are registered. A rule JSON
// Schema cannot say runs after decoding, and a value that breaks it is a
// violation like any other. Register before the first plan that uses it.
func ExampleValidator() {
	slug := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	err := mcpreflect.Validator().RegisterValidation("example_slug", func(fl validator.FieldLevel) bool {
		return slug.MatchString(fl.Field().String())
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	plan, err := mcpreflect.DefaultCache().Plan(reflect.TypeFor[slugArgs](), mcpreflect.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var in slugArgs
	fmt.Println(plan.Decode([]byte(`{"slug":"hello-world"}`), &in, 0))
	fmt.Println(plan.Decode([]byte(`{"slug":"Hello World"}`), &in, 0))
	// Output:
	// <nil>
	// invalid arguments:
	// - slug: must satisfy example_slug (example_slug)
}

// noteStore stands for a type whose methods are tools.
type noteStore struct{ notes []string }

func (s *noteStore) Add(text string) { s.notes = append(s.notes, text) }

func listNotes() []string { return nil }

// registerNoteDocs registers doc comments for noteStore and listNotes, as
// the init function of a cmd/mcpgen file does for its package.
func registerNoteDocs() string {
	pkg := reflect.TypeFor[noteStore]().PkgPath()
	mcpreflect.RegisterGenerated(map[string]string{
		pkg + ".noteStore":        "noteStore keeps notes in memory.",
		pkg + ".(*noteStore).Add": "Add stores a note.",
		pkg + ".listNotes":        "listNotes returns every note.",
	})
	return pkg
}

// FuncDoc finds the doc comment of a function or method value, which is
// how a tool registered from a plain function gets its description.
func ExampleFuncDoc() {
	registerNoteDocs()

	s := &noteStore{}
	fmt.Println(mcpreflect.FuncDoc(listNotes))
	fmt.Println(mcpreflect.FuncDoc(s.Add))
	fmt.Printf("%q\n", mcpreflect.FuncDoc(strings.ToUpper)) // no generated data for package strings
	// Output:
	// listNotes returns every note.
	// Add stores a note.
	// ""
}

// MethodDoc finds a method's doc comment by type and name, whether the
// method has a pointer receiver or not and whether t is a pointer or not.
func ExampleMethodDoc() {
	registerNoteDocs()

	fmt.Println(mcpreflect.MethodDoc(reflect.TypeFor[*noteStore](), "Add"))
	fmt.Println(mcpreflect.MethodDoc(reflect.TypeFor[noteStore](), "Add"))
	fmt.Printf("%q\n", mcpreflect.MethodDoc(reflect.TypeFor[noteStore](), "Remove"))
	// Output:
	// Add stores a note.
	// Add stores a note.
	// ""
}

type weatherReport struct {
	City  string  `json:"city"`
	TempC float64 `json:"tempC"`
}

// Result maps what a tool function returned to a tool result, by the
// function's result type: a string is one text block; a struct is
// structuredContent plus its JSON as text; content blocks pass as they
// are; a function that returns only an error gives empty content.
func ExampleOutput_Result() {
	show := func(t reflect.Type, v any) {
		out, err := mcpreflect.DefaultCache().Output(t, mcpreflect.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := out.Result(v)
		if err != nil {
			fmt.Println(err)
			return
		}
		var kinds []string
		for _, c := range res.Content {
			kinds = append(kinds, fmt.Sprintf("%T", c))
		}
		fmt.Printf("structured=%v content=%v", (out.SchemaJSON != nil), kinds)
		if res.StructuredContent != nil {
			fmt.Printf(" structuredContent=%s", res.StructuredContent)
		}
		fmt.Println()
	}
	show(reflect.TypeFor[string](), "sunny")
	show(reflect.TypeFor[weatherReport](), weatherReport{City: "Oslo", TempC: -3.5})
	show(reflect.TypeFor[map[string]int](), map[string]int{"a": 1})
	show(reflect.TypeFor[int](), 42) // not an object: wrapped
	show(reflect.TypeFor[[]mcp.Content](), []mcp.Content{&mcp.TextContent{Text: "a"}, &mcp.ImageContent{MIMEType: "image/png"}})
	show(nil, nil)

	out, _ := mcpreflect.DefaultCache().Output(reflect.TypeFor[*weatherReport](), mcpreflect.Options{})
	_, err := out.Result((*weatherReport)(nil))
	fmt.Println(err)
	// Output:
	// structured=false content=[*mcp.TextContent]
	// structured=true content=[*mcp.TextContent] structuredContent={"city":"Oslo","tempC":-3.5}
	// structured=true content=[*mcp.TextContent] structuredContent={"a":1}
	// structured=true content=[*mcp.TextContent] structuredContent={"result":42}
	// structured=false content=[*mcp.TextContent *mcp.ImageContent]
	// structured=false content=[]
	// the tool returned a nil result and no error
}

type bookingArgs struct {
	Room   string `json:"room" validate:"required,oneof=red blue"`
	Nights int    `json:"nights" validate:"min=1,max=14"`
}

// ArgumentsError.Error is the text a model reads in the isError result:
// every violation, one per line.
func ExampleArgumentsError_Error() {
	plan, _ := mcpreflect.DefaultCache().Plan(reflect.TypeFor[bookingArgs](), mcpreflect.Options{})
	var in bookingArgs
	err := plan.Decode([]byte(`{"room":"green","nights":30}`), &in, 0)
	fmt.Println(err.Error())
	// Output:
	// invalid arguments:
	// - room: must be one of "red", "blue", got "green" (enum)
	// - nights: must be at most 14, got 30 (maximum)
}

// A Violation names the argument's JSON path, the message and the rule; a
// violation of the arguments object itself has an empty path.
func ExampleViolation_String() {
	plan, _ := mcpreflect.DefaultCache().Plan(reflect.TypeFor[bookingArgs](), mcpreflect.Options{})
	var in bookingArgs
	for _, args := range []string{`{"nights":2}`, `["red",2]`} {
		err := plan.Decode([]byte(args), &in, 0)
		var ae *mcpreflect.ArgumentsError
		if errors.As(err, &ae) {
			for _, v := range ae.Violations {
				fmt.Printf("path=%q rule=%s: %s\n", v.Path, v.Rule, v.String())
			}
		}
	}
	// Output:
	// path="room" rule=required: room: is required but missing (required)
	// path="" rule=type: (arguments): must be an object, got array (type)
}

// Malformed JSON is not an *ArgumentsError: a protocol error for the
// client, not something the model is asked to fix.
func ExamplePlan_Decode_malformed() {
	plan, _ := mcpreflect.DefaultCache().Plan(reflect.TypeFor[bookingArgs](), mcpreflect.Options{})
	var in bookingArgs
	err := plan.Decode([]byte(`{"room":"red",`), &in, 0)

	var ae *mcpreflect.ArgumentsError
	fmt.Println(errors.As(err, &ae))
	fmt.Println(err)
	// Output:
	// false
	// malformed JSON arguments at offset 14: unexpected end of input
}

// Decode's maxDepth bounds how deeply arguments may nest (0 means
// annotations.DefaultMaxDepth), so a deeply nested payload is rejected
// before it is read to the end.
func ExamplePlan_Decode_depth() {
	type gridArgs struct {
		Grid [][]int `json:"grid"`
	}
	plan, err := mcpreflect.DefaultCache().Plan(reflect.TypeFor[gridArgs](), mcpreflect.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var in gridArgs
	args := []byte(`{"grid":[[1,2],[3,4]]}`)
	fmt.Println(plan.Decode(args, &in, 3), in.Grid)
	fmt.Println(plan.Decode(args, &in, 2))
	// Output:
	// <nil> [[1 2] [3 4]]
	// invalid arguments:
	// - grid[0]: is nested more than 2 levels deep (maxDepth)
}

type geoPoint struct {
	Lat float64 `json:"lat"`
	Lon float64 `json:"lon"`
}

type routeArgs struct {
	From geoPoint `json:"from"`
	To   geoPoint `json:"to"`
}

// Options change the published schema: by default named structs are
// inlined; KeepDefs keeps them in $defs behind $ref, and DeclareDialect
// names the JSON Schema dialect at the root.
func ExampleOptions() {
	t := reflect.TypeFor[routeArgs]()
	for _, opts := range []mcpreflect.Options{
		{},
		{KeepDefs: true},
		{DeclareDialect: true},
	} {
		plan, err := mcpreflect.DefaultCache().Plan(t, opts)
		if err != nil {
			fmt.Println(err)
			return
		}
		var s map[string]any
		_ = json.Unmarshal(plan.SchemaJSON, &s)
		from, _ := json.Marshal(s["properties"].(map[string]any)["from"])
		_, hasDefs := s["$defs"]
		fmt.Printf("from=%s $defs=%v $schema=%v\n", from, hasDefs, s["$schema"])
	}
	// Output:
	// from={"additionalProperties":false,"properties":{"lat":{"type":"number"},"lon":{"type":"number"}},"required":["lat","lon"],"type":"object"} $defs=false $schema=<nil>
	// from={"$ref":"#/$defs/geoPoint"} $defs=true $schema=<nil>
	// from={"additionalProperties":false,"properties":{"lat":{"type":"number"},"lon":{"type":"number"}},"required":["lat","lon"],"type":"object"} $defs=false $schema=https://json-schema.org/draft/2020-12/schema
}

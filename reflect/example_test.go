package mcpreflect_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

type searchArgs struct {
	_     struct{} `mcp:"title=Search,readOnly"`
	Query string   `json:"query" jsonschema:"description=What to look for" validate:"required,min=2"`
	Limit int      `json:"limit,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
	Sort  string   `json:"sort,omitempty" validate:"omitempty,oneof=relevance date"`
}

type searchResult struct {
	Hits []string `json:"hits"`
}

// Plan derives a type's input schema and compiles the decoder that
// enforces it: the tags become keywords, the keywords become checks.
func ExampleCache_Plan() {
	plan, err := mcpreflect.DefaultCache().Plan(reflect.TypeFor[searchArgs](), mcpreflect.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(plan.SchemaJSON))
	fmt.Println(plan.Tool.Title, *plan.Tool.ReadOnly)
	// Output:
	// {"properties":{"query":{"type":"string","minLength":2,"description":"What to look for"},"limit":{"type":"integer","maximum":100,"minimum":1,"default":10},"sort":{"type":"string","enum":["relevance","date"]}},"additionalProperties":false,"type":"object","required":["query"]}
	// Search true
}

// Decode checks a call's arguments against the plan and fills the struct:
// defaults applied, every violation reported at once.
func ExamplePlan_Decode() {
	plan, _ := mcpreflect.DefaultCache().Plan(reflect.TypeFor[searchArgs](), mcpreflect.Options{})

	var in searchArgs
	err := plan.Decode([]byte(`{"query":"go"}`), &in, 0)
	fmt.Println(err, in.Query, in.Limit)

	err = plan.Decode([]byte(`{"query":"g","limit":500,"sort":"name","extra":1}`), &in, 0)
	var ae *mcpreflect.ArgumentsError
	if errors.As(err, &ae) {
		for _, v := range ae.Violations {
			fmt.Printf("%s (%s): %s\n", v.Path, v.Rule, v.Msg)
		}
	}
	// Output:
	// <nil> go 10
	// query (minLength): must be at least 2 characters long, got 1
	// limit (maximum): must be at most 100, got 500
	// sort (enum): must be one of "relevance", "date", got "name"
	// extra (additionalProperties): is not a known argument (known: query, limit, sort)
}

// A bad tag is an error at derivation that names the type, the field and
// the tag.
func ExampleCache_Plan_definitionError() {
	type bad struct {
		N int `json:"n" validate:"min=abc"`
	}
	_, err := mcpreflect.DefaultCache().Plan(reflect.TypeFor[bad](), mcpreflect.Options{})
	var de *mcpreflect.DefinitionError
	fmt.Println(errors.As(err, &de), de.Field, de.Tag)
	// Output:
	// true N validate:"min=abc"
}

// A Cache of one's own keeps plans apart from the process-wide cache; a nil
// *Cache derives every time.
func ExampleCache() {
	own := &mcpreflect.Cache{}
	t := reflect.TypeFor[searchArgs]()
	a, _ := own.Plan(t, mcpreflect.Options{})
	b, _ := own.Plan(t, mcpreflect.Options{})
	d, _ := mcpreflect.DefaultCache().Plan(t, mcpreflect.Options{})
	var none *mcpreflect.Cache
	n, _ := none.Plan(t, mcpreflect.Options{})
	fmt.Println(a == b, a == d, n == a, string(n.SchemaJSON) == string(a.SchemaJSON))
	// Output:
	// true false false true
}

// Output compiles a result type: its output schema (a non-object result
// is wrapped as {"result": ...}) and how a value becomes a tool result.
func ExampleCache_Output() {
	out, _ := mcpreflect.DefaultCache().Output(reflect.TypeFor[searchResult](), mcpreflect.Options{})
	fmt.Println(out.SchemaJSON != nil, string(out.SchemaJSON))
	res, _ := out.Result(searchResult{Hits: []string{"a", "b"}})
	fmt.Printf("%s\n", res.StructuredContent)

	list, _ := mcpreflect.DefaultCache().Output(reflect.TypeFor[[]int](), mcpreflect.Options{})
	fmt.Println(list.Wrapped, string(list.SchemaJSON))
	// Output:
	// true {"properties":{"hits":{"items":{"type":"string"},"type":"array"}},"additionalProperties":false,"type":"object","required":["hits"]}
	// {"hits":["a","b"]}
	// true {"properties":{"result":{"items":{"type":"integer"},"type":"array"}},"additionalProperties":false,"type":"object","required":["result"]}
}

// AnalyzeFunc checks a tool function's shape and calls it by reflection.
func ExampleAnalyzeFunc() {
	in, out, call, err := mcpreflect.AnalyzeFunc(func(ctx context.Context, in searchArgs) (searchResult, error) {
		return searchResult{Hits: []string{strings.ToUpper(in.Query)}}, nil
	})
	fmt.Println(err, in, out)
	res, err := call(context.Background(), reflect.ValueOf(&searchArgs{Query: "go"}))
	fmt.Println(res, err)

	_, _, _, err = mcpreflect.AnalyzeFunc(func(a, b int) int { return a + b })
	fmt.Println(err != nil)
	// Output:
	// <nil> mcpreflect_test.searchArgs mcpreflect_test.searchResult
	// {[GO]} <nil>
	// true
}

// RegisterGenerated is what the init function of a cmd/mcpgen file calls;
// doc comments registered there become descriptions, without their leading
// Go names.
func ExampleRegisterGenerated() {
	type noteArgs struct {
		Text string `json:"text"`
	}
	t := reflect.TypeFor[noteArgs]()
	pkg := t.PkgPath()
	mcpreflect.RegisterGenerated(map[string]string{
		pkg + ".noteArgs":      "noteArgs are the arguments of add_note. A note is kept for a day.",
		pkg + ".noteArgs.Text": "Text is the note.",
	})
	plan, _ := mcpreflect.DefaultCache().Plan(t, mcpreflect.Options{})
	fmt.Println(string(plan.SchemaJSON))
	// Output:
	// {"properties":{"text":{"type":"string","description":"The note."}},"additionalProperties":false,"type":"object","required":["text"],"description":"A note is kept for a day."}
}

// DumpGenerated writes what cmd/mcpgen embeds, as JSON with Go expressions.
func ExampleDumpGenerated() {
	var b strings.Builder
	err := mcpreflect.DumpGenerated(&b, []reflect.Type{reflect.TypeFor[searchArgs]()}, nil)
	fmt.Println(err, strings.Contains(b.String(), `"fingerprint"`), strings.Contains(b.String(), "mcpgen_mcpreflect.GeneratedStruct{"))
	// Output:
	// <nil> true true
}

// CheckGenerated reports generated data that is not current: here an
// mcpgen_gen.go written by an mcpgen from before generations were recorded,
// then the same file regenerated.
func ExampleCheckGenerated() {
	type labelArgs struct {
		Name string `json:"name"`
	}
	t := reflect.TypeFor[labelArgs]()
	mcpreflect.RegisterGenerated(nil, mcpreflect.GeneratedType{Type: t}) // no Generation: 0
	fmt.Println(mcpreflect.CheckGenerated())

	// go generate: what DumpGenerated derives now.
	var b strings.Builder
	_ = mcpreflect.DumpGenerated(&b, []reflect.Type{t}, nil)
	var dump []struct {
		Fingerprint string
		Generation  int
	}
	_ = json.Unmarshal([]byte(b.String()), &dump)
	mcpreflect.RegisterGenerated(nil, mcpreflect.GeneratedType{Type: t, Fingerprint: dump[0].Fingerprint, Generation: dump[0].Generation})
	fmt.Println(mcpreflect.CheckGenerated())
	// Output:
	// mcpgen: generated code is not current (run go generate):
	// mcpreflect_test.labelArgs: generated for schema generation 0, this mcpgen publishes 1
	// <nil>
}

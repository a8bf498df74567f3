package mcpreflect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"reflect"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/internal/schemaref"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type outKind int

const (
	outNone       outKind = iota // the function returns only error
	outText                      // string: one text block
	outResult                    // *mcp.CallToolResult: as is
	outContent                   // an mcp.Content: one block
	outContents                  // []mcp.Content (or a slice of one content type): those blocks
	outImage                     // image.Image: a PNG image block
	outDynamic                   // an interface: decided per value
	outStructured                // anything else: structuredContent plus its JSON as text
	outJSON                      // anything else, without an output schema: its JSON as text
	outHandled                   // a type a TypeHandler owns: its Encode
)

var (
	callToolResultType = reflect.TypeFor[*mcp.CallToolResult]()
	contentType        = reflect.TypeFor[mcp.Content]()
	imageType          = reflect.TypeFor[image.Image]()
)

// Output is the compiled form of a tool's result type.
type Output struct {
	// Type is the function's result type, nil when it returns only error.
	Type reflect.Type
	// Schema is the tool's output schema, nil when the result is not
	// structured. Do not modify it.
	Schema *jsonschema.Schema
	// SchemaJSON is Schema, marshaled once.
	SchemaJSON json.RawMessage
	// Wrapped reports that the result is not a JSON object, so it is sent as
	// {"result": value} (clients of the 2025-11-25 revision require an object).
	Wrapped bool

	kind     outKind
	noSchema bool        // Options.NoOutputSchema: never structuredContent
	handler  TypeHandler // owns Type, for outHandled
	empty    *emptier    // outStructured and outJSON: the nil slices and maps to send empty (nil: none)
}

// errNilResult is returned by [Output.Result] for a nil pointer result.
var errNilResult = errors.New("the tool returned a nil result and no error")

func buildOutput(t reflect.Type, opts Options) (*Output, error) {
	o := &Output{Type: t, noSchema: opts.NoOutputSchema}
	switch {
	case t == nil:
		o.kind = outNone
	case t.Kind() == reflect.String:
		o.kind = outText
	case t == callToolResultType:
		o.kind = outResult
	case t.Implements(contentType):
		o.kind = outContent
	case t.Kind() == reflect.Slice && t.Elem().Implements(contentType):
		o.kind = outContents
	case t.Implements(imageType):
		o.kind = outImage
	case t.Kind() == reflect.Interface:
		o.kind = outDynamic
	case opts.NoOutputSchema:
		o.kind = outJSON
		o.empty = emptierFor(t, false)
	default:
		o.kind = outStructured
		o.empty = emptierFor(t, false)
		if g, ok := generatedOutput(t, opts); ok {
			o.Schema, o.SchemaJSON, o.Wrapped = g.Output, json.RawMessage(g.OutputJSON), g.OutputWrapped
			return o, nil
		}
		if opts.comments == nil {
			opts.comments = generatedComments
		}
		b := newBuilder(baseType(t), opts, true)
		s, err := b.schemaFor(t)
		if err != nil {
			return nil, err
		}
		if s.Ref != "" {
			// A recursive root: inline its template.
			s = cloneSchema(schemaref.Typed(&jsonschema.Schema{Definitions: b.defs}, s))
		}
		if valueKind(s) != "object" {
			// 2025-11-25 clients require structuredContent to be an object.
			o.Wrapped = true
			w := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties(), Required: []string{"result"}, AdditionalProperties: jsonschema.FalseSchema}
			w.Properties.Set("result", s)
			s = w
		}
		o.Schema = b.finish(s)
		if o.SchemaJSON, err = marshalSchema(o.Schema); err != nil {
			return nil, fmt.Errorf("mcpreflect: marshal output schema of %s: %w", t, err)
		}
	}
	return o, nil
}

// Result turns a function's result into a tool result: content as it is,
// anything else as structuredContent (when the output has a schema) and its
// JSON as text.
func (o *Output) Result(v any) (*mcp.CallToolResult, error) {
	switch o.kind {
	case outNone:
		return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
	case outStructured:
		return o.structured(v)
	case outHandled:
		return o.handled(v)
	case outJSON:
		b, err := o.marshalResult(v)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	}
	res, err := contentResult(v)
	if o.noSchema && res != nil {
		res.StructuredContent = nil
	}
	return res, err
}

// contentResult maps a value to content by its dynamic type.
func contentResult(v any) (*mcp.CallToolResult, error) {
	switch x := v.(type) {
	case nil:
		return &mcp.CallToolResult{Content: []mcp.Content{}}, nil
	case *mcp.CallToolResult:
		if x == nil {
			return nil, errNilResult
		}
		if x.Content == nil {
			x.Content = []mcp.Content{}
		}
		return x, nil
	case mcp.Content:
		if isNilPointer(x) {
			return nil, errNilResult
		}
		return &mcp.CallToolResult{Content: []mcp.Content{x}}, nil
	case []mcp.Content:
		if x == nil {
			x = []mcp.Content{}
		}
		return &mcp.CallToolResult{Content: x}, nil
	case image.Image:
		c, err := pngContent(x)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{c}}, nil
	}
	rv := reflect.ValueOf(v)
	switch {
	case rv.Kind() == reflect.String:
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: rv.String()}}}, nil
	case rv.Kind() == reflect.Slice && rv.Type().Elem().Implements(contentType):
		out := make([]mcp.Content, rv.Len())
		for i := range out {
			out[i] = rv.Index(i).Interface().(mcp.Content)
		}
		return &mcp.CallToolResult{Content: out}, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}
	if len(b) > 0 && b[0] == '{' {
		res.StructuredContent = json.RawMessage(b)
	}
	return res, nil
}

func isNilPointer(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}

// marshalResult is the JSON of a structured result: encoding/json's, but
// that a nil slice is [] (a nil []byte "") and a nil map {}, at any depth,
// as the published output schema says ("array", not ["array", "null"],
// which some clients reject). A type with no slice, map or interface to
// encode is marshaled as it is.
func (o *Output) marshalResult(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || (rv.Kind() == reflect.Pointer && rv.IsNil()) {
		return nil, errNilResult
	}
	return marshalEmpty(o.empty, v)
}

func (o *Output) structured(v any) (*mcp.CallToolResult, error) {
	b, err := o.marshalResult(v)
	if err != nil {
		return nil, err
	}
	return o.structuredJSON(b), nil
}

// structuredJSON is the result of JSON b: structuredContent (wrapped when
// the output says so) and the same JSON as text.
func (o *Output) structuredJSON(b []byte) *mcp.CallToolResult {
	if o.Wrapped {
		w := make([]byte, 0, len(b)+11)
		w = append(w, `{"result":`...)
		w = append(w, b...)
		b = append(w, '}')
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		StructuredContent: json.RawMessage(b),
	}
}

// handled is the result of a type a TypeHandler owns: its JSON, as
// structuredContent unless the output publishes no schema.
func (o *Output) handled(v any) (*mcp.CallToolResult, error) {
	if v == nil || isNilPointer(v) {
		return nil, errNilResult
	}
	b, err := o.handler.Encode(v)
	if err != nil {
		return nil, err
	}
	if o.noSchema {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	}
	return o.structuredJSON(b), nil
}

// pngContent encodes an image as a PNG image content block.
func pngContent(img image.Image) (*mcp.ImageContent, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode PNG: %w", err)
	}
	return &mcp.ImageContent{Data: buf.Bytes(), MIMEType: "image/png"}, nil
}

package mcptool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Temperature belongs to a type system of its own: its field is unexported,
// and its JSON, {"celsius": number}, is its codec's business.
type Temperature struct{ kelvin float64 }

// temperatures is a [mcpreflect.TypeHandler] of Temperature.
type temperatures struct{}

var temperatureType = reflect.TypeFor[Temperature]()

func (temperatures) Schema(t reflect.Type) (*jsonschema.Schema, error) {
	if t != temperatureType && t != reflect.PointerTo(temperatureType) {
		return nil, nil // not ours: mcpgen reflects over it, or asks another handler
	}
	props := jsonschema.NewProperties()
	props.Set("celsius", &jsonschema.Schema{Type: "number", Minimum: "-273.15"})
	return &jsonschema.Schema{Type: "object", Properties: props, Required: []string{"celsius"}, AdditionalProperties: jsonschema.FalseSchema}, nil
}

func (temperatures) Decode(data []byte, dst any) error {
	var in struct {
		Celsius *float64 `json:"celsius"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return &mcpreflect.ArgumentsError{Violations: []mcpreflect.Violation{{Rule: "type", Msg: err.Error()}}}
	}
	switch {
	case in.Celsius == nil:
		return &mcpreflect.ArgumentsError{Violations: []mcpreflect.Violation{{Path: "celsius", Rule: "required", Msg: "is required"}}}
	case *in.Celsius < -273.15:
		return &mcpreflect.ArgumentsError{Violations: []mcpreflect.Violation{{Path: "celsius", Rule: "minimum", Msg: "must be at least -273.15"}}}
	}
	dst.(*Temperature).kelvin = *in.Celsius + 273.15
	return nil
}

func (temperatures) Encode(v any) ([]byte, error) {
	c := v.(*Temperature).kelvin - 273.15
	return []byte(`{"celsius":` + strconv.FormatFloat(c, 'f', -1, 64) + `}`), nil
}

// A type handler describes, decodes and encodes the types it owns: here a
// Temperature, as the protobuf adapter's mcpproto.Types() does every
// proto.Message.
func ExampleTypes() {
	reg := mcptool.NewRegistry(mcptool.Types(temperatures{}))
	warmer := func(_ context.Context, t *Temperature) (*Temperature, error) {
		return &Temperature{kelvin: t.kelvin + 10}, nil
	}
	if err := reg.Add("warmer", warmer, mcptool.Description("Adds ten degrees.")); err != nil {
		fmt.Println(err)
		return
	}
	tool, _ := reg.Tool("warmer")
	fmt.Println(string(tool.InputSchema.(json.RawMessage)))
	examplePrintResult(reg.Call(context.Background(), "warmer", json.RawMessage(`{"celsius":20.5}`)))
	examplePrintResult(reg.Call(context.Background(), "warmer", json.RawMessage(`{"celsius":-300}`)))
	// Output:
	// {"properties":{"celsius":{"type":"number","minimum":-273.15}},"additionalProperties":false,"type":"object","required":["celsius"]}
	// isError: false
	// text: {"celsius":30.5}
	// structuredContent: {"celsius":30.5}
	// isError: true
	// text: invalid arguments:
	// - celsius: must be at least -273.15 (minimum)
}

package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

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

// errOutOfRange is an error of the Temperature type system.
type errOutOfRange struct{ max float64 }

func (e errOutOfRange) Error() string { return fmt.Sprintf("above %g °C", e.max) }

// checkedTemperatures is temperatures that also says which errors of its
// type system the model reads: a [mcpreflect.ErrorTexter].
type checkedTemperatures struct{ temperatures }

func (checkedTemperatures) ErrorText(err error) (string, bool) {
	var e errOutOfRange
	if errors.As(err, &e) {
		return "out of range: " + e.Error(), true
	}
	return "", false // any other error stays internal
}

// A type handler that implements mcpreflect.ErrorTexter shows the errors it
// knows, of the tools whose argument it owns; others are internal errors, as
// ever. The protobuf adapter shows a gRPC status such as NotFound this way.
func ExampleTypes_errorText() {
	reg := mcptool.NewRegistry(mcptool.Types(checkedTemperatures{}), mcptool.Logger(slog.New(slog.DiscardHandler)))
	warmer := func(_ context.Context, t *Temperature) (*Temperature, error) {
		if t.kelvin > 373.15 {
			return nil, errOutOfRange{max: 100}
		}
		if t.kelvin < 200 {
			return nil, errors.New("sensor offline")
		}
		return &Temperature{kelvin: t.kelvin + 10}, nil
	}
	if err := reg.Add("warmer", warmer, mcptool.Description("Adds ten degrees.")); err != nil {
		fmt.Println(err)
		return
	}
	res, _ := reg.Call(context.Background(), "warmer", json.RawMessage(`{"celsius":150}`))
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	res, _ = reg.Call(context.Background(), "warmer", json.RawMessage(`{"celsius":-100}`))
	fmt.Println(strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "internal error (ref "))
	// Output:
	// out of range: above 100 °C
	// true
}

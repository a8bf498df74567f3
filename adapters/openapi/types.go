package mcpopenapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"sync"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Types is the registry option [Add] needs: it makes a registry describe,
// check and encode the arguments and results of fronted operations by the
// JSON Schemas translated from the description, which their Go types carry
// (no state is shared between registries).
//
//	reg := mcptool.NewRegistry(mcpopenapi.Types())
func Types() mcptool.RegistryOption { return mcptool.Types(&handler{}) }

// tagKey is the struct tag that carries an operation's schema on the Go
// type standing for its arguments or its result.
const tagKey = "mcpopenapi"

// Arguments holds one call's arguments, checked against the operation's
// input schema, as JSON. Its field C makes mcpgen's reflection refuse the
// type on a registry made without [Types], rather than describe it wrongly.
type arguments struct {
	args map[string]any // decoded once, numbers as json.Number
	C    chan struct{}  `json:"c"`
}

// body holds an operation's JSON response.
type body struct {
	raw json.RawMessage
	C   chan struct{} `json:"c"`
}

var (
	argumentsType = reflect.TypeFor[arguments]()
	bodyType      = reflect.TypeFor[body]()
)

// schemaType is the Go type standing for a value of schema s: a struct whose
// one field, of type field, carries s as JSON in its tag.
func schemaType(field reflect.Type, s []byte) reflect.Type {
	return reflect.StructOf([]reflect.StructField{{Name: "V", Type: field, Tag: reflect.StructTag(tagKey + ":" + strconv.Quote(string(s)))}})
}

// handler is the [mcpreflect.TypeHandler] of fronted operations.
type handler struct {
	compiled sync.Map // reflect.Type → *checker
}

func owned(t reflect.Type) ([]byte, reflect.Type, bool) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t.NumField() != 1 {
		return nil, nil, false
	}
	f := t.Field(0)
	if f.Type != argumentsType && f.Type != bodyType {
		return nil, nil, false
	}
	s, ok := f.Tag.Lookup(tagKey)
	return []byte(s), f.Type, ok
}

func (h *handler) Schema(t reflect.Type) (*jsonschema.Schema, error) {
	raw, _, ok := owned(t)
	if !ok {
		return nil, nil
	}
	return schemaOf(raw)
}

func (h *handler) Decode(data []byte, dst any) error {
	v := reflect.ValueOf(dst).Elem()
	c, err := h.checker(v.Type())
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(data)) == 0 || bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		data = []byte("{}")
	}
	inst, err := decodeJSON(data)
	if err != nil {
		return err
	}
	if vs := c.check(inst); len(vs) > 0 {
		return &mcpreflect.ArgumentsError{Violations: vs}
	}
	a := v.Field(0).Addr().Interface().(*arguments)
	a.args, _ = inst.(map[string]any) // the schema says it is an object
	return nil
}

func (h *handler) Encode(v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct || rv.NumField() == 0 || rv.Field(0).Type() != bodyType {
		return nil, errors.New("mcpopenapi: not a response body")
	}
	if f := rv.Field(0); f.CanAddr() {
		return f.Addr().Interface().(*body).raw, nil
	}
	return rv.Field(0).Interface().(body).raw, nil
}

// checker compiles, once per type, the schema that type t carries.
func (h *handler) checker(t reflect.Type) (*checker, error) {
	if c, ok := h.compiled.Load(t); ok {
		return c.(*checker), nil
	}
	raw, _, ok := owned(t)
	if !ok {
		return nil, fmt.Errorf("mcpopenapi: %s is not a fronted operation's arguments", t)
	}
	c, err := compile(raw)
	if err != nil {
		return nil, err
	}
	got, _ := h.compiled.LoadOrStore(t, c)
	return got.(*checker), nil
}

package mcpreflect

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// TypeHandler describes, decodes and encodes the Go types it owns, in place
// of mcpgen's reflection over struct tags. It is how a type system with its
// own JSON mapping joins mcpgen: the protobuf adapter
// (github.com/mcpgen/mcpgen/adapters/protobuf, mcpproto.Types) owns every
// proto.Message, and an Avro or Thrift adapter would own its generated types
// the same way. Handlers are given to a plan through [Options].Types (to a
// registry through mcptool.Types) and asked in order; the first whose Schema
// returns a schema owns the type.
//
// A handler owns a tool's argument type or result type as a whole: the
// argument of func(ctx, *pb.GetBookRequest) (*pb.Book, error) is
// pb.GetBookRequest, its result *pb.Book. Everything else of the call path
// stays mcpgen's: the size and nesting limits are checked before Decode,
// and a result's JSON becomes structuredContent (wrapped as {"result": …}
// when it is not an object) and a text block.
//
// Its methods must be safe for concurrent use; a handler that derives its
// schemas keeps its own cache (Schema is asked once per registration).
type TypeHandler interface {
	// Schema returns the JSON Schema (2020-12) of t's JSON, or nil and no
	// error when t is not the handler's. t is an argument's struct type
	// (without its pointer) or a result's type as the function declares
	// it. An error is a definition error, reported at registration.
	Schema(t reflect.Type) (*jsonschema.Schema, error)
	// Decode decodes the arguments of one call into dst, a pointer to a new
	// zero value of an owned argument type. The arguments are a JSON value
	// within the tool's limits (an absent or null one reads as {}).
	// Arguments that break the schema or the type's rules are reported all
	// at once as an [*ArgumentsError], each [Violation] named by its JSON
	// path; any other error means they are not JSON at all (a protocol
	// error).
	Decode(data []byte, dst any) error
	// Encode returns the JSON of v, a non-nil result of an owned type, as
	// the Schema given for that type describes it.
	Encode(v any) ([]byte, error)
}

// ErrorTexter is implemented by a [TypeHandler] whose types come with
// errors of their own kind, which it knows how to show: the protobuf
// adapter's handler shows a gRPC or Connect status such as NotFound to the
// model and masks Internal. mcptool asks the handler that owns a tool's
// argument type about every error the tool returns that is not meant for
// the model already (mcptool.UserError).
type ErrorTexter interface {
	// ErrorText returns the text the model reads for err and true, or
	// false when err is not one to show (mcptool then reports it as an
	// internal error, logged).
	ErrorText(err error) (string, bool)
}

// ErrorText is what the handler that owns the plan's type says of err
// (see [ErrorTexter]); false when no handler owns it or the handler does not
// know err.
func (p *Plan) ErrorText(err error) (string, bool) {
	if et, ok := p.handler.(ErrorTexter); ok && err != nil {
		return et.ErrorText(err)
	}
	return "", false
}

// handlerFor returns the handler among hs that owns t, with t's schema.
func handlerFor(hs []TypeHandler, t reflect.Type) (TypeHandler, *jsonschema.Schema, error) {
	for _, h := range hs {
		s, err := h.Schema(t)
		if err != nil {
			return nil, nil, &DefinitionError{Type: typeString(t), Msg: err.Error(), Err: err}
		}
		if s != nil {
			return h, s, nil
		}
	}
	return nil, nil, nil
}

// handlerPlan is the plan of an argument type a handler owns.
func handlerPlan(h TypeHandler, t reflect.Type, s *jsonschema.Schema, opts Options) (*Plan, error) {
	s = cloneSchema(s)
	if opts.DeclareDialect {
		s.Version = dialect
	}
	p := &Plan{Type: t, Schema: s, handler: h, ptrType: reflect.PointerTo(t)}
	var err error
	if p.SchemaJSON, err = marshalSchema(s); err != nil {
		return nil, fmt.Errorf("mcpreflect: marshal schema of %s: %w", t, err)
	}
	return p, nil
}

// handlerOutput is the output of a result type a handler owns.
func handlerOutput(h TypeHandler, t reflect.Type, s *jsonschema.Schema, opts Options) (*Output, error) {
	o := &Output{Type: t, handler: h, kind: outHandled, noSchema: opts.NoOutputSchema}
	if opts.NoOutputSchema {
		return o, nil
	}
	s = cloneSchema(s)
	if valueKind(s) != "object" {
		o.Wrapped = true
		w := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties(), Required: []string{"result"}, AdditionalProperties: jsonschema.FalseSchema}
		if s.Definitions != nil {
			w.Definitions, s.Definitions = s.Definitions, nil
		}
		w.Properties.Set("result", s)
		s = w
	}
	if opts.DeclareDialect {
		s.Version = dialect
	}
	o.Schema = s
	var err error
	if o.SchemaJSON, err = marshalSchema(s); err != nil {
		return nil, fmt.Errorf("mcpreflect: marshal output schema of %s: %w", t, err)
	}
	return o, nil
}

// decodeHandled is Plan.decode for a type a handler owns.
func (p *Plan) decodeHandled(data []byte, dst any, maxDepth int) error {
	if !json.Valid(data) {
		return &syntaxError{Msg: "malformed JSON"}
	}
	if v := depthViolation(data, maxDepth); v != nil {
		return &ArgumentsError{Violations: []Violation{*v}}
	}
	return p.handler.Decode(data, dst)
}

// depthViolation reports the first value of valid JSON data nested more
// than maxDepth levels deep, as the decoder of a tagged struct does.
func depthViolation(data []byte, maxDepth int) *Violation {
	type level struct {
		array bool
		index int
		key   string
	}
	var stack []level
	expectKey := false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			j := i + 1
			for ; j < len(data) && data[j] != '"'; j++ {
				if data[j] == '\\' {
					j++
				}
			}
			if expectKey && len(stack) > 0 {
				k, err := strconv.Unquote(string(data[i : j+1]))
				if err != nil {
					k = string(data[i+1 : j])
				}
				stack[len(stack)-1].key = k
				expectKey = false
			}
			i = j
		case '{', '[':
			if len(stack) >= maxDepth {
				var b strings.Builder
				for n, l := range stack {
					switch {
					case l.array:
						b.WriteString("[" + strconv.Itoa(l.index) + "]")
					default:
						if n > 0 {
							b.WriteByte('.')
						}
						b.WriteString(l.key)
					}
				}
				return &Violation{Path: b.String(), Rule: "maxDepth", Msg: "is nested more than " + strconv.Itoa(maxDepth) + " levels deep"}
			}
			stack = append(stack, level{array: c == '['})
			expectKey = c == '{'
		case '}', ']':
			stack = stack[:len(stack)-1]
		case ',':
			if len(stack) > 0 {
				if l := &stack[len(stack)-1]; l.array {
					l.index++
				} else {
					expectKey = true
				}
			}
		}
	}
	return nil
}

// foreignType reports a type another type system owns, which mcpgen's
// reflection would describe wrongly: a protobuf message (a type with a
// ProtoReflect method, its fields internal state) or connect-go's request
// and response envelopes. The error names the option that handles it.
func foreignType(t reflect.Type) error {
	base := t
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	proto := func(t reflect.Type) bool {
		_, ok := t.MethodByName("ProtoReflect")
		return ok
	}
	if proto(base) || proto(reflect.PointerTo(base)) ||
		(base.PkgPath() == "connectrpc.com/connect" && (strings.HasPrefix(base.Name(), "Request[") || strings.HasPrefix(base.Name(), "Response["))) {
		return &DefinitionError{Type: typeString(t), Msg: "a protobuf message: its JSON is protojson's, not its Go fields': " +
			"register it on a registry made with mcptool.NewRegistry(mcpproto.Types()) (package mcpproto, module github.com/mcpgen/mcpgen/adapters/protobuf)"}
	}
	return nil
}

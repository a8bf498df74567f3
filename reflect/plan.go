package mcpreflect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/invopop/jsonschema"
	"github.com/mcpgen/mcpgen/annotations"
)

// Plan is the compiled form of one argument type: its published input
// schema, the tool metadata of its `mcp` tag, and its decoder.
type Plan struct {
	// Type is the argument struct type.
	Type reflect.Type
	// Schema is the published input schema. Do not modify it.
	Schema *jsonschema.Schema
	// SchemaJSON is Schema, marshaled once.
	SchemaJSON json.RawMessage
	// Tool is what the type's `mcp` tag says: hints and policies.
	Tool annotations.Tool
	// Generated reports that the plan came from generated data (cmd/mcpgen)
	// rather than from reflection over the type's tags.
	Generated bool

	root    decoder
	ptrType reflect.Type // *Type, what Decode writes through
	handler TypeHandler  // owns Type, when one does (see typehandler.go)
}

// emptyArgs is the argument type of a function that takes none.
type emptyArgs struct{}

var emptyArgsType = reflect.TypeFor[emptyArgs]()

// buildPlan derives the plan of t by reflection over its tags, using the
// doc comments of generated data when the options supply none.
func buildPlan(t reflect.Type, opts Options) (*Plan, error) {
	if opts.comments == nil {
		opts.comments = generatedComments
	}
	return newBuilder(t, opts, false).plan(t)
}

// plan derives the schema of t and compiles its plan.
func (b *builder) plan(t reflect.Type) (*Plan, error) {
	if t.Kind() != reflect.Struct || isSpecialStruct(t) {
		return nil, &DefinitionError{Type: typeString(t), Msg: "the argument type must be a struct: a tool's arguments are a JSON object with named properties"}
	}
	b.uses = structUses(t)
	s, err := b.structSchema(t)
	if err != nil {
		if info := b.structs[t]; info != nil && info.meta != nil {
			meta := info.meta
			// Report a bad mcp tag together with the bad fields.
			if _, merr := parseMeta(t, meta.tag); merr != nil {
				err = errors.Join(merr, err)
			}
		}
		// And what the fields with good tags do wrong (their defaults).
		if derr := b.soundFieldErrors(t); derr != nil {
			err = errors.Join(err, derr)
		}
		return nil, err
	}
	s = b.finish(s)
	p, err := b.compilePlan(t, s)
	if err != nil {
		return nil, err
	}
	if p.SchemaJSON, err = marshalSchema(p.Schema); err != nil {
		return nil, fmt.Errorf("mcpreflect: marshal schema of %s: %w", t, err)
	}
	return p, nil
}

// compilePlan compiles the decoder of t from what the builder knows of its
// struct types (derived by reflection, or read from generated data) and the
// root schema s.
func (b *builder) compilePlan(t reflect.Type, s *jsonschema.Schema) (*Plan, error) {
	dec, err := b.structDecFor(t)
	if err != nil {
		return nil, err
	}
	p := &Plan{Type: t, root: dec, Schema: s, ptrType: reflect.PointerTo(t)}
	if meta := b.structs[t].meta; meta != nil {
		if p.Tool, err = parseMeta(t, meta.tag); err != nil {
			return nil, err
		}
	}
	if hasUncompiled(p.Schema) || b.uncompiledFor(t, p.Schema) {
		// Keywords on the root itself (allOf, if/then/else, minProperties,
		// ... from a JSONSchemaExtend method) are checked by the full
		// validator.
		gen, err := b.resolveGeneric(p.Schema)
		if err != nil {
			return nil, &DefinitionError{Type: typeString(t), Msg: "schema: " + err.Error(), Err: err}
		}
		p.root = &genericDec{inner: dec, gen: gen}
	}
	return p, nil
}

// finish attaches $defs and the dialect to a root schema.
func (b *builder) finish(s *jsonschema.Schema) *jsonschema.Schema {
	if len(b.defs) > 0 {
		defs := jsonschema.Definitions{}
		for k, v := range b.defs {
			if v == s {
				v = cloneSchema(v) // a recursive root: its own copy in $defs
			}
			defs[k] = v
		}
		s.Definitions = defs
	}
	tidy(s)
	if b.opts.DeclareDialect {
		s.Version = dialect
	}
	return s
}

// tidy makes a schema tree publishable: a struct without fields has no
// "properties", and an empty schema is written {} (invopop/jsonschema would
// write true, a boolean schema some clients reject). The tree has no cycles
// (recursion goes through "$ref" strings, and JSONSchema() results are deep
// copies), and tidying a node twice changes nothing.
func tidy(s *jsonschema.Schema) {
	if s == nil || s == jsonschema.TrueSchema || s == jsonschema.FalseSchema {
		return
	}
	if s.Properties != nil && s.Properties.Len() == 0 {
		s.Properties = nil
	}
	if s.Type == "" && s.Ref == "" && s.Properties == nil && s.Items == nil && s.Description == "" &&
		s.Extras == nil && reflect.DeepEqual(s, &emptySchema) {
		s.Extras = map[string]any{} // not DeepEqual to the empty schema: marshals as {}
	}
	children(s, func(_ edge, x *jsonschema.Schema) { tidy(x) })
}

// parseMeta reads the `mcp` tag of t's blank field, reporting every wrong
// item as a DefinitionError of its own.
func parseMeta(t reflect.Type, tag string) (annotations.Tool, error) {
	tl, err := annotations.Parse(tag)
	if err == nil {
		return tl, nil
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	for i, e := range errs {
		errs[i] = &DefinitionError{Type: typeString(t), Field: "_", Tag: fmt.Sprintf("mcp:%q", tag), Msg: e.Error(), Err: e}
	}
	return tl, joinErrors(errs)
}

var statePool = sync.Pool{New: func() any { return new(decodeState) }}

// Decode decodes and checks raw JSON arguments into dst, which must be a
// non-nil pointer to a value of p.Type. It reports every violation at once
// as a *ArgumentsError; any other error means the arguments are not
// well-formed JSON (a protocol error, not a tool result). Empty input or
// null means no arguments. Nesting deeper than maxDepth is a violation;
// maxDepth 0 means annotations.DefaultMaxDepth.
func (p *Plan) Decode(data []byte, dst any, maxDepth int) error {
	if reflect.TypeOf(dst) != p.ptrType {
		return fmt.Errorf("mcpreflect: Decode into %T, want %v", dst, p.ptrType)
	}
	if maxDepth <= 0 {
		maxDepth = annotations.DefaultMaxDepth
	}
	if p.handler != nil {
		if t := bytes.Trim(data, " \t\r\n"); len(t) == 0 || string(t) == "null" {
			data = []byte("{}")
		}
		return p.decodeHandled(data, dst, maxDepth)
	}
	return p.decode(data, reflect.ValueOf(dst).UnsafePointer(), maxDepth)
}

func (p *Plan) decode(data []byte, dst unsafe.Pointer, maxDepth int) (err error) {
	// JSON's whitespace only: bytes.TrimSpace would also take \f, \v and
	// Unicode spaces, and let "\fnull", which is no JSON, mean no arguments.
	if t := bytes.Trim(data, " \t\r\n"); len(t) == 0 || string(t) == "null" {
		data = []byte("{}")
	}
	d := statePool.Get().(*decodeState)
	d.reset(data, maxDepth)
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *syntaxError:
				err = e
			case errTooDeep:
				// Deeper than the limit: the rest was not read. Malformed
				// JSON is still a protocol error, not an argument one.
				if !json.Valid(data) {
					err = &syntaxError{Offset: d.pos, Msg: "malformed JSON (found past the nesting limit)"}
				} else {
					err = &ArgumentsError{Violations: d.sortedErrs()}
				}
			default:
				panic(r)
			}
		}
		d.data = nil
		statePool.Put(d)
	}()
	d.ws()
	p.root.decode(d, dst)
	d.ws()
	if d.pos != len(d.data) {
		d.syntax("unexpected data after the arguments object")
	}
	if len(d.errs) > 0 {
		return &ArgumentsError{Violations: d.sortedErrs()}
	}
	return nil
}

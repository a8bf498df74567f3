package mcpreflect

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/invopop/jsonschema"
	"github.com/mcpgen/mcpgen/annotations"
)

// DefaultMaxDepth is the JSON nesting depth a plan accepts unless told otherwise.
const DefaultMaxDepth = 64

// PolicyKeys are the `mcp` tag keys, besides the hints, that the layers above
// interpret. Any other key is a definition error.
var PolicyKeys = []string{}

// Plan is the compiled form of one argument type: its published input
// schema, the tool metadata of its `mcp` tag, and its decoder.
type Plan struct {
	// Type is the argument struct type.
	Type reflect.Type
	// Schema is the published input schema. Do not modify it.
	Schema *jsonschema.Schema
	// SchemaJSON is Schema, marshaled once.
	SchemaJSON json.RawMessage
	// Hints are the annotation hints of the type's `mcp` tag.
	Hints annotations.Hints
	// Policies are the non-hint items of the type's `mcp` tag, in order.
	Policies []annotations.Item

	root decoder
}

type planKey struct {
	t        reflect.Type
	keepDefs bool
	dialect  bool
}

var plans sync.Map // planKey → *Plan

// EmptyArgs is the argument type of a function that takes none.
type EmptyArgs struct{}

var emptyArgsType = reflect.TypeFor[EmptyArgs]()

// PlanFor returns the plan for argument type t (a struct, or a pointer to
// one), building and caching it on first use. A type described by doc
// comments (Options.Comments set) is not cached.
func PlanFor(t reflect.Type, opts Options) (*Plan, error) {
	if t == nil {
		t = emptyArgsType
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	key := planKey{t, opts.KeepDefs, opts.DeclareDialect}
	if opts.Comments == nil {
		if p, ok := plans.Load(key); ok {
			return p.(*Plan), nil
		}
	}
	p, err := buildPlan(t, opts)
	if err != nil {
		return nil, err
	}
	if opts.Comments == nil {
		actual, _ := plans.LoadOrStore(key, p)
		return actual.(*Plan), nil
	}
	return p, nil
}

func buildPlan(t reflect.Type, opts Options) (*Plan, error) {
	if t.Kind() != reflect.Struct || isSpecialStruct(t) {
		return nil, &DefinitionError{Type: typeString(t), Msg: "the argument type must be a struct: a tool's arguments are a JSON object with named properties"}
	}
	b := newBuilder(t, opts, false)
	s, err := b.structSchema(t)
	if err != nil {
		return nil, err
	}
	dec, err := b.structDecFor(t)
	if err != nil {
		return nil, err
	}
	p := &Plan{Type: t, root: dec}
	if meta := b.structs[t].meta; meta != nil {
		if err := p.parseMeta(meta.tag); err != nil {
			return nil, err
		}
	}
	p.Schema = b.finish(s)
	if p.SchemaJSON, err = json.Marshal(p.Schema); err != nil {
		return nil, fmt.Errorf("mcpreflect: marshal schema of %s: %w", t, err)
	}
	if hasUncompiled(p.Schema) {
		// Keywords on the root itself (allOf, if/then/else, ... from a
		// JSONSchemaExtend method) are checked by the full validator.
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
	if s.Properties != nil && s.Properties.Len() == 0 {
		s.Properties = nil
	}
	if len(b.defs) > 0 {
		s.Definitions = jsonschema.Definitions{}
		for k, v := range b.defs {
			if v.Properties != nil && v.Properties.Len() == 0 {
				v.Properties = nil
			}
			s.Definitions[k] = v
		}
	}
	if b.opts.DeclareDialect {
		s.Version = Dialect
	}
	return s
}

func (p *Plan) parseMeta(tag string) error {
	fail := func(msg string) error {
		return &DefinitionError{Type: typeString(p.Type), Field: "_", Tag: fmt.Sprintf("mcp:%q", tag), Msg: msg}
	}
	items, err := annotations.ParseTag(tag)
	if err != nil {
		return fail(err.Error())
	}
	known := append(append([]string(nil), annotations.HintKeys...), PolicyKeys...)
	for _, it := range items {
		switch {
		case annotations.IsHintKey(it.Key):
			if err := p.Hints.Set(it); err != nil {
				return fail(err.Error())
			}
		case contains(PolicyKeys, it.Key):
			p.Policies = append(p.Policies, it)
		default:
			msg := fmt.Sprintf("unknown key %q", it.Key)
			if s := suggest(it.Key, known); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return fail(msg)
		}
	}
	if err := p.Hints.Check(); err != nil {
		return fail(err.Error())
	}
	return nil
}

var statePool = sync.Pool{New: func() any { return new(decodeState) }}

// Decode decodes and checks raw JSON arguments into *dst, which must point at
// a value of p.Type. It returns a *ArgumentsError listing every violation, or
// a *SyntaxError for malformed JSON. Empty input means no arguments.
func (p *Plan) Decode(data []byte, dst unsafe.Pointer) error {
	return p.DecodeDepth(data, dst, DefaultMaxDepth)
}

// DecodeDepth is Decode with a nesting limit.
func (p *Plan) DecodeDepth(data []byte, dst unsafe.Pointer, maxDepth int) (err error) {
	if len(data) == 0 || string(data) == "null" {
		data = []byte("{}")
	}
	d := statePool.Get().(*decodeState)
	d.reset(data, maxDepth)
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case *SyntaxError:
				err = e
			case errTooDeep:
				err = &ArgumentsError{Violations: d.errs}
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
		return &ArgumentsError{Violations: d.errs}
	}
	return nil
}

// DecodeValue decodes raw arguments into a new value of p.Type and returns a
// pointer to it.
func (p *Plan) DecodeValue(data []byte) (reflect.Value, error) {
	v := reflect.New(p.Type)
	return v, p.Decode(data, v.UnsafePointer())
}

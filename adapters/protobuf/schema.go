package mcpproto

import (
	"encoding/json"
	"reflect"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"buf.build/go/protovalidate"
	"github.com/invopop/jsonschema"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// schemaBuilder derives the JSON Schema of a message from its descriptor,
// describing what protojson writes and what mcpgen reads: JSON names only
// (protojson reads the original field names too; Decode refuses them, so
// that every field has one spelling), null for any unset field, enums by name or number, 64-bit integers as numbers or
// strings, the well-known types in their JSON forms. A message that
// contains itself goes in "$defs", referred to by "$ref".
type schemaBuilder struct {
	docs      *docs
	validator protovalidate.Validator        // for the zero values the rules refuse
	output    bool                           // a result: JSON names only, no null (protojson writes neither)
	rules     bool                           // mirror protovalidate's standard rules
	recursive map[protoreflect.FullName]bool // messages reachable from themselves
	defs      jsonschema.Definitions
}

func newSchemaBuilder(md protoreflect.MessageDescriptor, d *docs, v protovalidate.Validator, output bool) *schemaBuilder {
	b := &schemaBuilder{docs: d, validator: v, output: output, rules: !output && v != nil, recursive: map[protoreflect.FullName]bool{}}
	b.findRecursive(md, nil)
	return b
}

// findRecursive marks every message on a cycle through path.
func (b *schemaBuilder) findRecursive(md protoreflect.MessageDescriptor, path []protoreflect.FullName) {
	if wellKnown(md) != nil {
		return
	}
	for i, n := range path {
		if n == md.FullName() {
			for _, m := range path[i:] {
				b.recursive[m] = true
			}
			return
		}
	}
	path = append(path, md.FullName())
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		if fd.IsMap() {
			fd = fd.MapValue()
		}
		if fd.Message() != nil {
			b.findRecursive(fd.Message(), path)
		}
	}
}

// root is the schema of a message as a tool's arguments or result.
func (b *schemaBuilder) root(md protoreflect.MessageDescriptor) *jsonschema.Schema {
	var s *jsonschema.Schema
	if w := wellKnown(md); w != nil {
		s = w(b.output)
	} else {
		s = b.object(md)
		if b.recursive[md.FullName()] {
			b.defs[defName(md)] = b.object(md)
		}
	}
	if len(b.defs) > 0 {
		s.Definitions = b.defs
	}
	return s
}

func defName(md protoreflect.MessageDescriptor) string { return string(md.FullName()) }

// message is the schema of a message-typed value: a well-known type's, a
// reference to a recursive message, or the message inline.
func (b *schemaBuilder) message(md protoreflect.MessageDescriptor) *jsonschema.Schema {
	if w := wellKnown(md); w != nil {
		return w(b.output)
	}
	if b.recursive[md.FullName()] {
		name := defName(md)
		if b.defs == nil {
			b.defs = jsonschema.Definitions{}
		}
		if _, ok := b.defs[name]; !ok {
			b.defs[name] = nil // being built: a reference to it stops here
			b.defs[name] = b.object(md)
		}
		return &jsonschema.Schema{Ref: "#/$defs/" + name}
	}
	return b.object(md)
}

// object is the schema of a message's JSON object.
func (b *schemaBuilder) object(md protoreflect.MessageDescriptor) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: jsonschema.NewProperties(), AdditionalProperties: jsonschema.FalseSchema,
		Description: b.docs.of(md)}
	fields := md.Fields()
	example, complete := map[string]any{}, true
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		fs := b.field(fd)
		s.Properties.Set(fd.JSONName(), fs)
		ex, ok := firstExample(fs)
		if ok {
			example[fd.JSONName()] = ex
		} else if b.rules && b.requiredField(fd) {
			complete = false
		}
		if b.rules && b.requiredField(fd) {
			s.Required = append(s.Required, fd.JSONName())
		}
	}
	// The fields' examples (protovalidate's example option) make one of the
	// object, when they cover every required field.
	if b.rules && complete && len(example) > 0 {
		s.Examples = []any{example}
	}
	// A oneof's members exclude each other, but null is no value.
	oneofs := md.Oneofs()
	for i := 0; i < oneofs.Len(); i++ {
		od := oneofs.Get(i)
		if od.IsSynthetic() {
			continue
		}
		var fds []protoreflect.FieldDescriptor
		for j := 0; j < od.Fields().Len(); j++ {
			fds = append(fds, od.Fields().Get(j))
		}
		b.exclusive(s, fds, b.rules && oneofRequired(od))
	}
	// So do the fields of protovalidate's message oneof rule.
	if b.rules {
		groups, required := messageOneofs(md)
		for i, fds := range groups {
			b.exclusive(s, fds, required[i])
		}
	}
	return s
}

// exclusive says in s, a message's schema, that at most one of fds is set
// (given and not null), exactly one when required, in one subschema of
// allOf: exactly one is oneOf the members set; at most one of two or
// three is no two set; at most one of more is oneOf the members set or
// none.
func (b *schemaBuilder) exclusive(s *jsonschema.Schema, fds []protoreflect.FieldDescriptor, required bool) {
	set := func(names ...string) *jsonschema.Schema {
		one := &jsonschema.Schema{Required: names, Properties: jsonschema.NewProperties()}
		for _, n := range names {
			one.Properties.Set(n, notNull())
		}
		return one
	}
	var each []*jsonschema.Schema
	for _, fd := range fds {
		each = append(each, set(fd.JSONName()))
	}
	var rule *jsonschema.Schema
	switch {
	case len(fds) < 2 && !required:
		return
	case required:
		rule = &jsonschema.Schema{OneOf: each}
	case len(fds) <= 3:
		var pairs []*jsonschema.Schema
		for x := 0; x < len(fds); x++ {
			for y := x + 1; y < len(fds); y++ {
				pairs = append(pairs, set(fds[x].JSONName(), fds[y].JSONName()))
			}
		}
		rule = &jsonschema.Schema{Not: pairs[0]}
		if len(pairs) > 1 {
			rule = &jsonschema.Schema{Not: &jsonschema.Schema{AnyOf: pairs}}
		}
	default:
		rule = &jsonschema.Schema{OneOf: append(each, &jsonschema.Schema{Not: &jsonschema.Schema{AnyOf: each}})}
	}
	s.AllOf = append(s.AllOf, rule)
}

func notNull() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{Type: "null"}} }

// field is the schema of one field's JSON value, null included (protojson
// reads null as the field unset).
func (b *schemaBuilder) field(fd protoreflect.FieldDescriptor) *jsonschema.Schema {
	var s *jsonschema.Schema
	var r *validate.FieldRules
	if b.rules {
		r = fieldRules(fd)
	}
	switch {
	case fd.IsMap():
		s = &jsonschema.Schema{Type: "object", AdditionalProperties: b.single(fd.MapValue(), typeRules(r.GetMap().GetValues()))}
		key := &jsonschema.Schema{}
		switch fd.MapKey().Kind() {
		case protoreflect.BoolKind:
			key.Enum = []any{"true", "false"}
		case protoreflect.StringKind:
			valueRules(protoreflect.StringKind, typeRules(r.GetMap().GetKeys()), key)
		case protoreflect.Uint32Kind, protoreflect.Fixed32Kind, protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
			key.Pattern = `^[0-9]+$` // strconv.ParseUint's, as protojson reads a key
		default:
			key.Pattern = `^[+-]?[0-9]+$` // strconv.ParseInt's
		}
		if !reflect.ValueOf(*key).IsZero() {
			s.PropertyNames = key
		}
		mapRules(r.GetMap(), s)
	case fd.IsList():
		s = &jsonschema.Schema{Type: "array", Items: b.single(fd, typeRules(r.GetRepeated().GetItems()))}
		repeatedRules(fd, r.GetRepeated(), s)
	default:
		s = b.single(fd, typeRules(r))
	}
	if d := b.docs.of(fd); d != "" {
		s.Description = d
	}
	if r.GetIgnore() == validate.Ignore_IGNORE_IF_ZERO_VALUE {
		s = orZero(fd, s) // the rules hold for any other value
	}
	if b.rules && b.requiredField(fd) {
		return requiredValue(fd, s) // present, not null, not the zero value
	}
	if b.output {
		return s
	}
	return nullable(s)
}

// single is the schema of one value of fd's type (an element of a list,
// the value of a map) under rules, the type's rules (StringRules, ...) of
// that value, nil for none.
func (b *schemaBuilder) single(fd protoreflect.FieldDescriptor, rules protoreflect.Message) *jsonschema.Schema {
	switch fd.Kind() {
	case protoreflect.MessageKind, protoreflect.GroupKind:
		s := b.message(fd.Message())
		anyRules(fd.Message(), rules, s)
		return s
	case protoreflect.EnumKind:
		s := enumSchema(fd.Enum())
		enumRules(fd.Enum(), rules, s)
		return s
	}
	s := scalarSchema(fd.Kind(), b.output)
	valueRules(fd.Kind(), rules, s)
	return s
}

const (
	// What protojson writes for a 64-bit integer.
	intPattern  = `^-?(0|[1-9][0-9]*)$`
	uintPattern = `^(0|[1-9][0-9]*)$`
	// What it reads as a number in a string: a JSON number ("14", "1e2",
	// "14.0": an integer takes any that is integral, which a pattern
	// cannot say), or for a float "NaN", "Infinity", "-Infinity".
	numberPattern = `^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`
	floatPattern  = `^(NaN|-?Infinity|-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)$`
)

// scalarSchema is the schema of a scalar kind as protojson reads it (an
// argument) or writes it (a result, output). protojson reads a number as
// a JSON number or a string ("5", "1.5", "NaN"): two anyOf branches, each
// of one type, the number first. It writes a 64-bit integer as a decimal
// string, a 32-bit one as a number, and a float as a number or "NaN",
// "Infinity", "-Infinity".
func scalarSchema(k protoreflect.Kind, output bool) *jsonschema.Schema {
	switch k {
	case protoreflect.BoolKind:
		return &jsonschema.Schema{Type: "boolean"}
	case protoreflect.StringKind:
		return &jsonschema.Schema{Type: "string"}
	case protoreflect.BytesKind:
		return &jsonschema.Schema{Type: "string", ContentEncoding: "base64"}
	case protoreflect.FloatKind, protoreflect.DoubleKind:
		str := &jsonschema.Schema{Type: "string", Pattern: floatPattern}
		if output {
			str = &jsonschema.Schema{Type: "string", Enum: []any{"NaN", "Infinity", "-Infinity"}}
		}
		return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "number"}, str}}
	}
	// Integers: a number within the kind's range, or a decimal string.
	var lo, hi string
	wide := false
	switch k {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		lo, hi = "-2147483648", "2147483647"
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		lo, hi = "0", "4294967295"
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		lo, hi, wide = "-9223372036854775808", "9223372036854775807", true
	default:
		lo, hi, wide = "0", "18446744073709551615", true
	}
	num := &jsonschema.Schema{Type: "integer", Minimum: json.Number(lo), Maximum: json.Number(hi)}
	switch {
	case output && wide && lo == "0":
		return &jsonschema.Schema{Type: "string", Pattern: uintPattern}
	case output && wide:
		return &jsonschema.Schema{Type: "string", Pattern: intPattern}
	case output:
		return &jsonschema.Schema{Type: "integer"} // the server writes it: its range only restates the type
	}
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{num, {Type: "string", Pattern: numberPattern}}}
}

// numberForms returns the number branch and the string branch of a
// number's schema (scalarSchema's), nil when s is not one.
func numberForms(s *jsonschema.Schema) (num, str *jsonschema.Schema) {
	if len(s.AnyOf) == 2 && (s.AnyOf[0].Type == "integer" || s.AnyOf[0].Type == "number") && s.AnyOf[1].Type == "string" {
		return s.AnyOf[0], s.AnyOf[1]
	}
	return nil, nil
}

// enumSchema is an enum's value names, or any number protojson takes for
// it (an open enum takes any int32; a closed one, its values).
func enumSchema(ed protoreflect.EnumDescriptor) *jsonschema.Schema {
	if ed.FullName() == "google.protobuf.NullValue" {
		return &jsonschema.Schema{Type: "null"}
	}
	vals := ed.Values()
	names := make([]any, 0, vals.Len())
	var nums []any
	for i := 0; i < vals.Len(); i++ {
		names = append(names, string(vals.Get(i).Name()))
		nums = append(nums, int64(vals.Get(i).Number()))
	}
	byName := &jsonschema.Schema{Type: "string", Enum: names}
	var byNumber *jsonschema.Schema
	if ed.IsClosed() {
		byNumber = &jsonschema.Schema{Type: "integer", Enum: nums}
	} else {
		byNumber = &jsonschema.Schema{Type: "integer", Minimum: "-2147483648", Maximum: "2147483647"}
	}
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{byName, byNumber}}
}

// nullable lets s be null too, as an anyOf branch of its own (a type array
// such as ["string","null"] is legal JSON Schema, but clients that map
// schemas onto one type per schema reject it; MCP Inspector --strict warns).
func nullable(s *jsonschema.Schema) *jsonschema.Schema {
	null := &jsonschema.Schema{Type: "null"}
	rest := *s
	rest.Description, rest.Examples, rest.AnyOf = "", nil, nil
	switch {
	case s.Type == "null":
		return s
	case len(s.AnyOf) > 0 && reflect.ValueOf(rest).IsZero():
		// Only branches: one more.
		c := *s
		c.AnyOf = append(s.AnyOf[:len(s.AnyOf):len(s.AnyOf)], null)
		return &c
	case len(s.Extras) == 0 && isAnything(rest):
		return s // any JSON already
	}
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{s, null}, Description: moveDescription(s)}
}

// isAnything reports a schema without keywords (Extras aside).
func isAnything(s jsonschema.Schema) bool {
	s.Extras = nil
	return reflect.ValueOf(s).IsZero()
}

func moveDescription(s *jsonschema.Schema) string {
	d := s.Description
	s.Description = ""
	return d
}

// firstExample finds the first example value of a field's schema, within
// the allOf/anyOf its rules and nullability wrap it in.
func firstExample(s *jsonschema.Schema) (any, bool) {
	if s == nil {
		return nil, false
	}
	if len(s.Examples) > 0 {
		return s.Examples[0], true
	}
	for _, sub := range append(append([]*jsonschema.Schema{}, s.AllOf...), s.AnyOf...) {
		if ex, ok := firstExample(sub); ok {
			return ex, true
		}
	}
	return nil, false
}

package mcpopenapi

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/invopop/jsonschema"
)

// direction says which side of a call a schema describes: the OpenAPI
// readOnly and writeOnly properties are required on one side only.
type direction int

const (
	toRequest direction = iota
	toResponse
)

// translator turns the OpenAPI schemas of one published JSON Schema
// document (a tool's input or output) into JSON Schema 2020-12, every
// referenced component once, under $defs.
type translator struct {
	v30   bool // OpenAPI 3.0's dialect: nullable, boolean exclusive bounds
	dir   direction
	names map[*openapi3.Schema]string // a component already under $defs
	defs  jsonschema.Definitions
	errs  []string // what cannot be said exactly, with the schema's place
}

func newTranslator(v30 bool, dir direction) *translator {
	return &translator{v30: v30, dir: dir, names: map[*openapi3.Schema]string{}, defs: jsonschema.Definitions{}}
}

func (t *translator) fail(at, format string, args ...any) {
	t.errs = append(t.errs, at+": "+fmt.Sprintf(format, args...))
}

// ref translates a schema or a reference to one: a component becomes a
// $ref to its translation under $defs (recursion terminates there).
func (t *translator) ref(sr *openapi3.SchemaRef, at string) *jsonschema.Schema {
	if sr == nil || sr.Value == nil {
		if sr != nil && sr.Ref != "" {
			t.fail(at, "$ref %q is not resolved", sr.Ref)
		}
		return &jsonschema.Schema{}
	}
	if sr.Ref == "" {
		return t.schema(sr.Value, at)
	}
	name, ok := t.names[sr.Value]
	if !ok {
		name = t.defName(sr.Ref)
		t.names[sr.Value] = name
		t.defs[name] = &jsonschema.Schema{} // a placeholder while its own refs are followed
		t.defs[name] = t.schema(sr.Value, sr.Ref)
	}
	return &jsonschema.Schema{Ref: "#/$defs/" + name}
}

// defName is a name under $defs for the component ref points to: its last
// segment, made unique.
func (t *translator) defName(ref string) string {
	base := ref[strings.LastIndexAny(ref, "/#")+1:]
	base = strings.Map(func(r rune) rune {
		if r == '~' || r == '%' || r == '/' {
			return '_'
		}
		return r
	}, base)
	if base == "" {
		base = "schema"
	}
	name := base
	for n := 2; t.defs[name] != nil; n++ {
		name = base + "_" + strconv.Itoa(n)
	}
	return name
}

// schema translates one schema object.
func (t *translator) schema(s *openapi3.Schema, at string) *jsonschema.Schema {
	if s.Always != nil {
		if *s.Always {
			return jsonschema.TrueSchema
		}
		return jsonschema.FalseSchema
	}
	out := &jsonschema.Schema{
		Title:       s.Title,
		Description: s.Description,
		Format:      s.Format,
		Pattern:     s.Pattern,
		UniqueItems: s.UniqueItems,
		Deprecated:  s.Deprecated,
		ReadOnly:    s.ReadOnly,
		WriteOnly:   s.WriteOnly,
		Default:     s.Default,
		Const:       s.Const,
		Comments:    s.Comment,

		MaxLength:        s.MaxLength,
		MaxItems:         s.MaxItems,
		MaxProperties:    s.MaxProps,
		MinContains:      s.MinContains,
		MaxContains:      s.MaxContains,
		ContentEncoding:  s.ContentEncoding,
		ContentMediaType: s.ContentMediaType,

		DependentRequired: s.DependentRequired,
	}
	if s.SchemaID != "" || s.Anchor != "" || s.DynamicRef != "" || s.DynamicAnchor != "" {
		t.fail(at, "$id, $anchor and $dynamicRef are not supported: the tool's schema is one document")
	}
	if s.Example != nil {
		out.Examples = []any{s.Example}
	}
	if len(s.Examples) > 0 {
		out.Examples = s.Examples
	}
	if s.MinLength > 0 {
		out.MinLength = ptr(s.MinLength)
	}
	if s.MinItems > 0 {
		out.MinItems = ptr(s.MinItems)
	}
	if s.MinProps > 0 {
		out.MinProperties = ptr(s.MinProps)
	}
	var types []string
	if s.Type != nil {
		types = append(types, s.Type.Slice()...)
	}
	if s.Nullable && t.v30 && len(types) > 0 && !contains(types, "null") {
		// OpenAPI 3.0: nullable adds null to the type (and to an enum).
		types = append(types, "null")
		if len(s.Enum) > 0 && !containsNil(s.Enum) {
			out.Enum = append([]any{}, s.Enum...)
			out.Enum = append(out.Enum, nil)
		}
	}
	if out.Enum == nil && len(s.Enum) > 0 {
		out.Enum = s.Enum
	}
	switch len(types) {
	case 0:
	case 1:
		out.Type = types[0]
	default:
		out.Extras = map[string]any{"type": types}
	}
	t.numbers(s, out, types, at)
	if s.Format == "byte" {
		// OpenAPI's byte: base64-encoded characters (RFC 4648).
		out.ContentEncoding = "base64"
		if out.Pattern == "" {
			out.Pattern = `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`
		}
	}
	for i, c := range s.AllOf {
		out.AllOf = append(out.AllOf, t.ref(c, at+"/allOf/"+strconv.Itoa(i)))
	}
	for i, c := range s.AnyOf {
		out.AnyOf = append(out.AnyOf, t.ref(c, at+"/anyOf/"+strconv.Itoa(i)))
	}
	for i, c := range s.OneOf {
		out.OneOf = append(out.OneOf, t.ref(c, at+"/oneOf/"+strconv.Itoa(i)))
	}
	if s.Not != nil {
		out.Not = t.ref(s.Not, at+"/not")
	}
	if s.If != nil {
		out.If = t.ref(s.If, at+"/if")
	}
	if s.Then != nil {
		out.Then = t.ref(s.Then, at+"/then")
	}
	if s.Else != nil {
		out.Else = t.ref(s.Else, at+"/else")
	}
	if s.Items != nil {
		out.Items = t.ref(s.Items, at+"/items")
	}
	for i, c := range s.PrefixItems {
		out.PrefixItems = append(out.PrefixItems, t.ref(c, at+"/prefixItems/"+strconv.Itoa(i)))
	}
	if s.Contains != nil {
		out.Contains = t.ref(s.Contains, at+"/contains")
	}
	if s.PropertyNames != nil {
		out.PropertyNames = t.ref(s.PropertyNames, at+"/propertyNames")
	}
	if s.ContentSchema != nil {
		out.ContentSchema = t.ref(s.ContentSchema, at+"/contentSchema")
	}
	if len(s.Properties) > 0 {
		out.Properties = jsonschema.NewProperties()
		for _, name := range sortedKeys(s.Properties) {
			out.Properties.Set(name, t.ref(s.Properties[name], at+"/properties/"+name))
		}
	}
	out.Required = t.required(s)
	for _, name := range sortedKeys(s.PatternProperties) {
		if out.PatternProperties == nil {
			out.PatternProperties = map[string]*jsonschema.Schema{}
		}
		out.PatternProperties[name] = t.ref(s.PatternProperties[name], at+"/patternProperties/"+name)
	}
	for _, name := range sortedKeys(s.DependentSchemas) {
		if out.DependentSchemas == nil {
			out.DependentSchemas = map[string]*jsonschema.Schema{}
		}
		out.DependentSchemas[name] = t.ref(s.DependentSchemas[name], at+"/dependentSchemas/"+name)
	}
	switch ap := s.AdditionalProperties; {
	case ap.Has != nil && !*ap.Has:
		out.AdditionalProperties = jsonschema.FalseSchema
	case ap.Schema != nil:
		out.AdditionalProperties = t.ref(ap.Schema, at+"/additionalProperties")
	}
	t.bools(s, out, at)
	if s.Discriminator != nil {
		t.discriminator(s, out, at)
	}
	return out
}

// required is s's required properties on this side of the call: OpenAPI's
// readOnly properties are sent in responses only, writeOnly ones in
// requests only, so each is required on its own side.
func (t *translator) required(s *openapi3.Schema) []string {
	var req []string
	for _, name := range s.Required {
		if p := s.Properties[name]; p != nil && p.Value != nil {
			if (t.dir == toRequest && p.Value.ReadOnly) || (t.dir == toResponse && p.Value.WriteOnly) {
				continue
			}
		}
		req = append(req, name)
	}
	return req
}

// unevaluatedProperties and unevaluatedItems, which invopop's schema has no
// field for.
func (t *translator) bools(s *openapi3.Schema, out *jsonschema.Schema, at string) {
	set := func(key string, b openapi3.BoolSchema) {
		var v any
		switch {
		case b.Has != nil:
			v = *b.Has
		case b.Schema != nil:
			v = t.ref(b.Schema, at+"/"+key)
		default:
			return
		}
		if out.Extras == nil {
			out.Extras = map[string]any{}
		}
		out.Extras[key] = v
	}
	set("unevaluatedProperties", s.UnevaluatedProperties)
	set("unevaluatedItems", s.UnevaluatedItems)
}

// numbers writes the numeric bounds: OpenAPI 3.0's boolean exclusive
// bounds become 2020-12's numeric ones, and the int32 and int64 formats
// their ranges.
func (t *translator) numbers(s *openapi3.Schema, out *jsonschema.Schema, types []string, at string) {
	if s.MultipleOf != nil {
		out.MultipleOf = number(*s.MultipleOf)
	}
	lo, hi := s.Min, s.Max
	exLo, exHi := s.ExclusiveMin.Value, s.ExclusiveMax.Value
	if s.ExclusiveMin.IsTrue() {
		if lo == nil {
			t.fail(at, "exclusiveMinimum: true without a minimum")
		}
		exLo, lo = lo, nil
	}
	if s.ExclusiveMax.IsTrue() {
		if hi == nil {
			t.fail(at, "exclusiveMaximum: true without a maximum")
		}
		exHi, hi = hi, nil
	}
	if contains(types, "integer") {
		var fmin, fmax json64
		switch s.Format {
		case "int32":
			fmin, fmax = json64{math.MinInt32, "-2147483648"}, json64{math.MaxInt32, "2147483647"}
		case "int64":
			fmin, fmax = json64{math.MinInt64, "-9223372036854775808"}, json64{math.MaxInt64, "9223372036854775807"}
		}
		if fmin.text != "" {
			if (lo == nil || *lo < fmin.f) && (exLo == nil || *exLo < fmin.f) {
				lo, exLo = nil, nil
				out.Minimum = json.Number(fmin.text)
			}
			if (hi == nil || *hi > fmax.f) && (exHi == nil || *exHi > fmax.f) {
				hi, exHi = nil, nil
				out.Maximum = json.Number(fmax.text)
			}
		}
	}
	if lo != nil {
		out.Minimum = number(*lo)
	}
	if hi != nil {
		out.Maximum = number(*hi)
	}
	if exLo != nil {
		out.ExclusiveMinimum = number(*exLo)
	}
	if exHi != nil {
		out.ExclusiveMaximum = number(*exHi)
	}
}

type json64 struct {
	f    float64
	text string
}

// discriminator says in JSON Schema what OpenAPI's discriminator asks of a
// oneOf or anyOf: the property is required, its value is one the mapping
// (or a component's name) names, and that value selects its schema.
func (t *translator) discriminator(s *openapi3.Schema, out *jsonschema.Schema, at string) {
	d := s.Discriminator
	prop := d.PropertyName
	if prop == "" {
		t.fail(at, "discriminator without a propertyName")
		return
	}
	if !contains(out.Required, prop) {
		out.Required = append(out.Required, prop)
	}
	alts := s.OneOf
	if len(alts) == 0 {
		alts = s.AnyOf
	}
	if len(alts) == 0 {
		// The allOf form: the value names a schema that includes this one;
		// which schemas those are the description does not say here.
		return
	}
	values := map[string]*jsonschema.Schema{}
	if len(d.Mapping) > 0 {
		for v, target := range d.Mapping {
			var found *openapi3.SchemaRef
			for _, a := range alts {
				if a.Ref == target.Ref || strings.HasSuffix(a.Ref, "/"+target.Ref) {
					found = a
				}
			}
			if found == nil {
				t.fail(at, "discriminator mapping %q: %s is none of the alternatives", v, target.Ref)
				continue
			}
			values[v] = t.ref(found, at+"/discriminator")
		}
	} else {
		for _, a := range alts {
			if a.Ref == "" {
				t.fail(at, "discriminator over an alternative that is not a $ref, without a mapping")
				return
			}
			values[a.Ref[strings.LastIndex(a.Ref, "/")+1:]] = t.ref(a, at+"/discriminator")
		}
	}
	keys := make([]string, 0, len(values))
	for v := range values {
		keys = append(keys, v)
	}
	sort.Strings(keys)
	enum := make([]any, len(keys))
	for i, v := range keys {
		enum[i] = v
		when := &jsonschema.Schema{Properties: jsonschema.NewProperties(), Required: []string{prop}}
		when.Properties.Set(prop, &jsonschema.Schema{Const: v})
		out.AllOf = append(out.AllOf, &jsonschema.Schema{If: when, Then: values[v]})
	}
	if out.Properties == nil {
		out.Properties = jsonschema.NewProperties()
	}
	if _, ok := out.Properties.Get(prop); !ok {
		out.Properties.Set(prop, &jsonschema.Schema{Enum: enum})
		return
	}
	// The schema describes the property already: the values apply beside it.
	only := jsonschema.NewProperties()
	only.Set(prop, &jsonschema.Schema{Enum: enum})
	out.AllOf = append(out.AllOf, &jsonschema.Schema{Properties: only})
}

// number writes f as a JSON number: integers without an exponent.
func number(f float64) json.Number {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

func ptr[T any](v T) *T { return &v }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsNil(list []any) bool {
	for _, x := range list {
		if x == nil {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

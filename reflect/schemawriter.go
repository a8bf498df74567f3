package mcpreflect

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"

	"github.com/invopop/jsonschema"
)

// marshalSchema writes s as JSON, byte for byte as json.Marshal(s) would
// through invopop/jsonschema's MarshalJSON, in one pass. invopop marshals
// every subschema on its own and encoding/json then re-compacts it at each
// level, which made writing the schema the largest cost of registration.
func marshalSchema(s *jsonschema.Schema) ([]byte, error) {
	var b bytes.Buffer
	if err := writeSchema(&b, s); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

var schemaBoolField = func() int {
	f, ok := reflect.TypeFor[jsonschema.Schema]().FieldByName("boolean")
	if !ok {
		return -1
	}
	return f.Index[0]
}()

// boolSchema reports whether s is a boolean schema, and which.
func boolSchema(s *jsonschema.Schema) (isBool, value bool) {
	if s == jsonschema.TrueSchema {
		return true, true
	}
	if s == jsonschema.FalseSchema {
		return true, false
	}
	if schemaBoolField < 0 {
		return false, false
	}
	f := reflect.ValueOf(s).Elem().Field(schemaBoolField)
	if f.IsNil() {
		return false, false
	}
	return true, f.Elem().Bool()
}

func writeSchema(b *bytes.Buffer, s *jsonschema.Schema) error {
	if s == nil {
		b.WriteString("null")
		return nil
	}
	if isBool, v := boolSchema(s); isBool {
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
		return nil
	}
	if s.Extras == nil && reflect.DeepEqual(s, &jsonschema.Schema{}) {
		b.WriteString("true")
		return nil
	}
	w := objWriter{b: b}
	b.WriteByte('{')
	w.str("$schema", s.Version)
	w.str("$id", string(s.ID))
	w.str("$anchor", s.Anchor)
	w.str("$ref", s.Ref)
	w.str("$dynamicRef", s.DynamicRef)
	w.dict("$defs", s.Definitions)
	w.str("$comment", s.Comments)
	w.list("allOf", s.AllOf)
	w.list("anyOf", s.AnyOf)
	w.list("oneOf", s.OneOf)
	w.sub("not", s.Not)
	w.sub("if", s.If)
	w.sub("then", s.Then)
	w.sub("else", s.Else)
	w.dict("dependentSchemas", s.DependentSchemas)
	w.list("prefixItems", s.PrefixItems)
	w.sub("items", s.Items)
	w.sub("contains", s.Contains)
	if s.Properties != nil && w.err == nil {
		w.key("properties")
		b.WriteByte('{')
		first := true
		for p := s.Properties.Oldest(); p != nil && w.err == nil; p = p.Next() {
			if !first {
				b.WriteByte(',')
			}
			first = false
			w.value(p.Key)
			b.WriteByte(':')
			w.err = writeSchema(b, p.Value)
		}
		b.WriteByte('}')
	}
	w.dict("patternProperties", s.PatternProperties)
	w.sub("additionalProperties", s.AdditionalProperties)
	w.sub("propertyNames", s.PropertyNames)
	w.str("type", s.Type)
	if len(s.Enum) > 0 {
		w.field("enum", s.Enum)
	}
	if s.Const != nil {
		w.field("const", s.Const)
	}
	w.num("multipleOf", s.MultipleOf)
	w.num("maximum", s.Maximum)
	w.num("exclusiveMaximum", s.ExclusiveMaximum)
	w.num("minimum", s.Minimum)
	w.num("exclusiveMinimum", s.ExclusiveMinimum)
	w.count("maxLength", s.MaxLength)
	w.count("minLength", s.MinLength)
	w.str("pattern", s.Pattern)
	w.count("maxItems", s.MaxItems)
	w.count("minItems", s.MinItems)
	w.flag("uniqueItems", s.UniqueItems)
	w.count("maxContains", s.MaxContains)
	w.count("minContains", s.MinContains)
	w.count("maxProperties", s.MaxProperties)
	w.count("minProperties", s.MinProperties)
	if len(s.Required) > 0 {
		w.field("required", s.Required)
	}
	if len(s.DependentRequired) > 0 {
		w.field("dependentRequired", s.DependentRequired)
	}
	w.str("format", s.Format)
	w.str("contentEncoding", s.ContentEncoding)
	w.str("contentMediaType", s.ContentMediaType)
	w.sub("contentSchema", s.ContentSchema)
	w.str("title", s.Title)
	w.str("description", s.Description)
	if s.Default != nil {
		w.field("default", s.Default)
	}
	w.flag("deprecated", s.Deprecated)
	w.flag("readOnly", s.ReadOnly)
	w.flag("writeOnly", s.WriteOnly)
	if len(s.Examples) > 0 {
		w.field("examples", s.Examples)
	}
	if len(s.Extras) > 0 && w.err == nil {
		keys := slices.Sorted(maps.Keys(s.Extras))
		for _, k := range keys {
			w.field(k, s.Extras[k])
		}
	}
	b.WriteByte('}')
	return w.err
}

// objWriter writes the members of one JSON object.
type objWriter struct {
	b       *bytes.Buffer
	started bool
	err     error
}

func (w *objWriter) key(k string) {
	if w.started {
		w.b.WriteByte(',')
	}
	w.started = true
	w.value(k)
	w.b.WriteByte(':')
}

// value writes v as encoding/json does (HTML-escaped strings included).
func (w *objWriter) value(v any) {
	if w.err != nil {
		return
	}
	raw, err := json.Marshal(v)
	if err != nil {
		w.err = err
		return
	}
	w.b.Write(raw)
}

func (w *objWriter) field(k string, v any) {
	if w.err != nil {
		return
	}
	w.key(k)
	w.value(v)
}

func (w *objWriter) str(k, v string) {
	if v != "" {
		w.field(k, v)
	}
}

func (w *objWriter) num(k string, v json.Number) {
	if v != "" {
		w.field(k, v)
	}
}

func (w *objWriter) count(k string, v *uint64) {
	if v != nil {
		w.field(k, *v)
	}
}

func (w *objWriter) flag(k string, v bool) {
	if v {
		w.field(k, true)
	}
}

func (w *objWriter) sub(k string, s *jsonschema.Schema) {
	if s == nil || w.err != nil {
		return
	}
	w.key(k)
	w.err = writeSchema(w.b, s)
}

func (w *objWriter) list(k string, l []*jsonschema.Schema) {
	if len(l) == 0 || w.err != nil {
		return
	}
	w.key(k)
	w.b.WriteByte('[')
	for i, s := range l {
		if i > 0 {
			w.b.WriteByte(',')
		}
		if w.err = writeSchema(w.b, s); w.err != nil {
			return
		}
	}
	w.b.WriteByte(']')
}

func (w *objWriter) dict(k string, m map[string]*jsonschema.Schema) {
	if len(m) == 0 || w.err != nil {
		return
	}
	keys := slices.Sorted(maps.Keys(m))
	w.key(k)
	w.b.WriteByte('{')
	for i, name := range keys {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.value(name)
		w.b.WriteByte(':')
		if w.err = writeSchema(w.b, m[name]); w.err != nil {
			return
		}
	}
	w.b.WriteByte('}')
}

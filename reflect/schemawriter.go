package mcpreflect

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"sync"

	"github.com/invopop/jsonschema"
)

// marshalSchema writes s as JSON, byte for byte as json.Marshal(s) would
// through invopop/jsonschema's MarshalJSON, in one pass. invopop marshals
// every subschema on its own and encoding/json then re-compacts it at each
// level, which made writing the schema the largest cost of registration.
func marshalSchema(s *jsonschema.Schema) ([]byte, error) {
	b := writeBuffers.Get().(*bytes.Buffer)
	defer func() {
		if b.Cap() <= 64<<10 {
			b.Reset()
			writeBuffers.Put(b)
		}
	}()
	if err := writeSchema(b, s); err != nil {
		return nil, err
	}
	// The schema is kept for the life of the plan: exactly its size, in
	// one allocation, instead of a buffer grown by doubling.
	return bytes.Clone(b.Bytes()), nil
}

// writeBuffers are marshalSchema's scratch buffers.
var writeBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

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
	start := b.Len()
	w := objWriter{b: b}
	b.WriteByte('{')
	w.str("$schema", s.Version)
	w.str("$id", string(s.ID))
	w.str("$anchor", s.Anchor)
	w.str("$ref", s.Ref)
	w.str("$dynamicRef", s.DynamicRef)
	w.children(s, kwDefs, kwDefs)
	w.str("$comment", s.Comments)
	w.children(s, kwAllOf, kwPropertyNames)
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
		w.strings("required", s.Required)
	}
	if len(s.DependentRequired) > 0 {
		w.field("dependentRequired", s.DependentRequired)
	}
	w.str("format", s.Format)
	w.str("contentEncoding", s.ContentEncoding)
	w.str("contentMediaType", s.ContentMediaType)
	w.children(s, kwContentSchema, kwContentSchema)
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
			if x, ok := s.Extras[k].(*jsonschema.Schema); ok && w.err == nil {
				w.key(k) // unevaluatedItems, unevaluatedProperties, ...
				w.err = writeSchema(b, x)
				continue
			}
			w.field(k, s.Extras[k])
		}
	}
	if !w.started && s.Extras == nil && w.err == nil && reflect.DeepEqual(s, &emptySchema) {
		// invopop writes the empty schema as true.
		b.Truncate(start)
		b.WriteString("true")
		return nil
	}
	b.WriteByte('}')
	return w.err
}

// emptySchema is the zero schema, compared against without allocating one
// per call.
var emptySchema jsonschema.Schema

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
	w.string(k)
	w.b.WriteByte(':')
}

// string writes v as a JSON string exactly as encoding/json does: the plain
// ASCII that schemas are mostly made of directly, anything else (escapes,
// HTML characters, non-ASCII) through encoding/json itself.
func (w *objWriter) string(v string) {
	for i := 0; i < len(v); i++ {
		if c := v[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			w.value(v)
			return
		}
	}
	w.b.WriteByte('"')
	w.b.WriteString(v)
	w.b.WriteByte('"')
}

// strings writes a member whose value is a list of strings.
func (w *objWriter) strings(k string, l []string) {
	if w.err != nil {
		return
	}
	w.key(k)
	w.b.WriteByte('[')
	for i, v := range l {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.string(v)
	}
	w.b.WriteByte(']')
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
	if v != "" && w.err == nil {
		w.key(k)
		w.string(v)
	}
}

func (w *objWriter) num(k string, v json.Number) {
	if v == "" || w.err != nil {
		return
	}
	if !isJSONNumber(string(v)) {
		w.field(k, v) // encoding/json's error
		return
	}
	w.key(k)
	w.b.WriteString(string(v))
}

func (w *objWriter) count(k string, v *uint64) {
	if v != nil && w.err == nil {
		w.key(k)
		w.b.Write(strconv.AppendUint(w.b.AvailableBuffer(), *v, 10))
	}
}

func (w *objWriter) flag(k string, v bool) {
	if v && w.err == nil {
		w.key(k)
		w.b.WriteString("true")
	}
}

// isJSONNumber reports whether s is a JSON number, the check encoding/json
// makes before writing a json.Number as it is.
func isJSONNumber(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
		if s == "" {
			return false
		}
	}
	switch {
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = s[1:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && '0' <= s[1] && s[1] <= '9' {
		s = s[2:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
			if s == "" {
				return false
			}
		}
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	return s == ""
}

// children writes the subschema keywords of s from from to to, in order:
// a list or a map only when it has members, properties whenever present.
func (w *objWriter) children(s *jsonschema.Schema, from, to keyword) {
	for kw := from; kw <= to && w.err == nil; kw++ {
		k := &keywords[kw]
		if k.kind == slotExtra {
			continue // written with the other Extras, in their order
		}
		open := false
		eachIn(s, kw, true, func(c edge, x *jsonschema.Schema) bool {
			switch {
			case !open:
				w.key(k.name)
				w.b.WriteString(opener[k.kind])
				open = true
			case k.kind != slotOne:
				w.b.WriteByte(',')
			}
			if k.kind == slotDict || k.kind == slotProps {
				w.string(c.key)
				w.b.WriteByte(':')
			}
			w.err = writeSchema(w.b, x)
			return w.err == nil
		})
		if !open && kw == kwProperties && s.Properties != nil {
			w.key(k.name)
			w.b.WriteString(opener[k.kind])
			open = true
		}
		if open {
			w.b.WriteString(closer[k.kind])
		}
	}
}

// opener and closer bracket a keyword's subschemas in JSON.
var (
	opener = [...]string{slotList: "[", slotDict: "{", slotProps: "{"}
	closer = [...]string{slotList: "]", slotDict: "}", slotProps: "}"}
)

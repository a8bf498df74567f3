package mcpproto

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strconv"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"buf.build/go/protovalidate"
	"github.com/invopop/jsonschema"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// protovalidate's standard rules, mirrored into the input schema where JSON
// Schema can say them. Every rule, these included, is also enforced on each
// call by protovalidate itself, so what is not mirrored is still checked:
//
//   - CEL expressions (message and field cel options) are not mirrored;
//   - numeric bounds and in/not_in apply to numbers, not to the string
//     form protojson also accepts for integers ("5");
//   - string formats (email, uri, uuid, hostname, ipv4, ipv6) become the
//     "format" keyword, whose checks differ from protovalidate's in corner
//     cases; the other well-known string rules are not mirrored;
//   - patterns are RE2 in protovalidate and ECMA-262 in JSON Schema: the
//     same for the common syntax;
//   - rules on Timestamp, Duration and Any values, and bytes rules, are
//     not mirrored.
//
// A rule's example values (the example option) become the schema's
// "examples".

// fieldRules returns the buf.validate.field option of fd, nil when none.
func fieldRules(fd protoreflect.FieldDescriptor) *validate.FieldRules {
	opts := fd.Options()
	if opts == nil || !proto.HasExtension(opts, validate.E_Field) {
		return nil
	}
	r, _ := proto.GetExtension(opts, validate.E_Field).(*validate.FieldRules)
	return r
}

// requiredField reports a field the arguments must give, not null: its
// rules say required, or its zero value breaks them (a field without
// presence is its zero value when absent, and protovalidate checks it).
func (b *schemaBuilder) requiredField(fd protoreflect.FieldDescriptor) bool {
	r := fieldRules(fd)
	if r == nil || r.GetIgnore() == validate.Ignore_IGNORE_ALWAYS {
		return false
	}
	if r.GetRequired() {
		return true
	}
	return !fd.HasPresence() && b.zeroFails(fd) // an empty list or map too
}

// zeroFails reports that protovalidate refuses fd's zero value.
func (b *schemaBuilder) zeroFails(fd protoreflect.FieldDescriptor) bool {
	m := dynamicpb.NewMessage(fd.ContainingMessage())
	err := b.validator.Validate(m)
	if err == nil {
		return false
	}
	for _, v := range asViolations(err) {
		els := v.GetField().GetElements()
		if len(els) == 1 && protoreflect.FieldNumber(els[0].GetFieldNumber()) == fd.Number() {
			return true
		}
	}
	return false
}

// asViolations returns the violations of a protovalidate error.
func asViolations(err error) []*validate.Violation {
	var ve *protovalidate.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	out := make([]*validate.Violation, 0, len(ve.Violations))
	for _, v := range ve.Violations {
		out = append(out, v.Proto)
	}
	return out
}

// requiredValue makes s the schema of a required field's value: not null,
// and for a field without presence, not its zero value either.
func requiredValue(fd protoreflect.FieldDescriptor, s *jsonschema.Schema) *jsonschema.Schema {
	if fd.HasPresence() || fd.IsList() || fd.IsMap() {
		return s
	}
	var zeros []any
	switch fd.Kind() {
	case protoreflect.StringKind, protoreflect.BytesKind:
		zeros = []any{""}
	case protoreflect.BoolKind:
		zeros = []any{false}
	case protoreflect.EnumKind:
		zeros = []any{0}
		if v := fd.Enum().Values().ByNumber(0); v != nil {
			zeros = append(zeros, string(v.Name()))
		}
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return s
	default:
		zeros = []any{0, "0"}
	}
	return &jsonschema.Schema{AllOf: []*jsonschema.Schema{s, {Not: &jsonschema.Schema{Enum: zeros}}}, Description: moveDescription(s)}
}

// oneofRequired reports a oneof whose buf.validate.oneof option says one
// member must be set.
func oneofRequired(od protoreflect.OneofDescriptor) bool {
	opts := od.Options()
	if opts == nil || !proto.HasExtension(opts, validate.E_Oneof) {
		return false
	}
	r, _ := proto.GetExtension(opts, validate.E_Oneof).(*validate.OneofRules)
	return r.GetRequired()
}

// typeRules returns the rules of fd's type (the set member of FieldRules'
// type oneof, e.g. StringRules), or of a list's or map's elements.
func typeRules(r *validate.FieldRules) protoreflect.Message {
	if r == nil {
		return nil
	}
	m := r.ProtoReflect()
	od := m.Descriptor().Oneofs().ByName("type")
	if od == nil {
		return nil
	}
	f := m.WhichOneof(od)
	if f == nil || f.Message() == nil {
		return nil
	}
	return m.Get(f).Message()
}

// scalarRules mirrors the rules of one scalar value into s.
func (b *schemaBuilder) scalarRules(fd protoreflect.FieldDescriptor, s *jsonschema.Schema) {
	b.valueRules(fd, elementRules(fd), s)
}

// elementRules is the rules of one value of fd: of its items for a list,
// of its values for a map, else its own.
func elementRules(fd protoreflect.FieldDescriptor) protoreflect.Message {
	r := fieldRules(fd)
	switch {
	case r == nil:
		return nil
	case fd.IsList():
		return typeRules(r.GetRepeated().GetItems())
	case fd.IsMap():
		return nil // keys and values: the map's own rules (mapRules)
	}
	return typeRules(r)
}

func (b *schemaBuilder) enumRules(fd protoreflect.FieldDescriptor, s *jsonschema.Schema) {
	rules := elementRules(fd)
	if rules == nil {
		return
	}
	vals := fd.Enum().Values()
	get := func(name string) protoreflect.Value {
		return rules.Get(rules.Descriptor().Fields().ByName(protoreflect.Name(name)))
	}
	has := func(name string) bool {
		f := rules.Descriptor().Fields().ByName(protoreflect.Name(name))
		return f != nil && rules.Has(f)
	}
	if !get("defined_only").Bool() && !has("in") && !has("not_in") && !has("const") {
		return
	}
	in, notIn := get("in").List(), get("not_in").List()
	allowed := func(n int32) bool {
		if has("const") && int32(get("const").Int()) != n {
			return false
		}
		if in.Len() > 0 {
			ok := false
			for i := 0; i < in.Len(); i++ {
				ok = ok || int32(in.Get(i).Int()) == n
			}
			if !ok {
				return false
			}
		}
		for i := 0; i < notIn.Len(); i++ {
			if int32(notIn.Get(i).Int()) == n {
				return false
			}
		}
		return true
	}
	// Only defined values can be listed; an undefined number is allowed
	// only when defined_only is off, and then the rules are not mirrored.
	if !get("defined_only").Bool() && !has("in") && !has("const") {
		return
	}
	var names, nums []any
	for i := 0; i < vals.Len(); i++ {
		v := vals.Get(i)
		if allowed(int32(v.Number())) {
			names = append(names, string(v.Name()))
			nums = append(nums, int64(v.Number()))
		}
	}
	*s = jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Type: "string", Enum: names}, {Type: "integer", Enum: nums}}}
}

// valueRules mirrors string, bytes and numeric rules.
func (b *schemaBuilder) valueRules(fd protoreflect.FieldDescriptor, rules protoreflect.Message, s *jsonschema.Schema) {
	if rules == nil {
		return
	}
	fields := rules.Descriptor().Fields()
	has := func(name string) bool {
		f := fields.ByName(protoreflect.Name(name))
		return f != nil && rules.Has(f)
	}
	get := func(name string) protoreflect.Value { return rules.Get(fields.ByName(protoreflect.Name(name))) }
	count := func(name string) *uint64 {
		n := get(name).Uint()
		return &n
	}
	// protovalidate's example values are the schema's examples.
	if f := fields.ByName("example"); f != nil && f.IsList() {
		ex := rules.Get(f).List()
		for i := 0; i < ex.Len(); i++ {
			switch v := ex.Get(i).Interface().(type) {
			case string, bool:
				s.Examples = append(s.Examples, v)
			case int32, int64, uint32, uint64, float32, float64:
				s.Examples = append(s.Examples, v)
			}
		}
	}
	switch fd.Kind() {
	case protoreflect.StringKind:
		if has("len") {
			s.MinLength, s.MaxLength = count("len"), count("len")
		}
		if has("min_len") {
			s.MinLength = count("min_len")
		}
		if has("max_len") {
			s.MaxLength = count("max_len")
		}
		var pats []string
		if has("pattern") {
			pats = append(pats, get("pattern").String())
		}
		if has("prefix") {
			pats = append(pats, "^"+regexp.QuoteMeta(get("prefix").String()))
		}
		if has("suffix") {
			pats = append(pats, regexp.QuoteMeta(get("suffix").String())+"$")
		}
		if has("contains") {
			pats = append(pats, regexp.QuoteMeta(get("contains").String()))
		}
		for i, p := range pats {
			if i == 0 {
				s.Pattern = p
			} else {
				s.AllOf = append(s.AllOf, &jsonschema.Schema{Pattern: p})
			}
		}
		for _, f := range []struct{ rule, format string }{{"email", "email"}, {"uri", "uri"}, {"uuid", "uuid"}, {"hostname", "hostname"}, {"ipv4", "ipv4"}, {"ipv6", "ipv6"}} {
			if has(f.rule) && get(f.rule).Bool() {
				s.Format = f.format
			}
		}
		if has("const") {
			s.Const = get("const").String()
		}
		listRules(get("in").List(), get("not_in").List(), func(v protoreflect.Value) any { return v.String() }, s)
	case protoreflect.BytesKind:
		// Lengths of the decoded bytes: base64 text is 4/3 as long, which
		// the schema cannot say exactly; not mirrored.
	case protoreflect.BoolKind:
		if has("const") {
			s.Const = get("const").Bool()
		}
	default:
		num := func(v protoreflect.Value) (json.Number, bool) {
			switch x := v.Interface().(type) {
			case int32:
				return json.Number(strconv.FormatInt(int64(x), 10)), true
			case int64:
				return json.Number(strconv.FormatInt(x, 10)), true
			case uint32:
				return json.Number(strconv.FormatUint(uint64(x), 10)), true
			case uint64:
				return json.Number(strconv.FormatUint(x, 10)), true
			case float32:
				return floatNumber(float64(x))
			case float64:
				return floatNumber(x)
			}
			return "", false
		}
		lower, upper := has("gt") || has("gte"), has("lt") || has("lte")
		if lower && upper {
			lo, hi := get("gt"), get("lt")
			if has("gte") {
				lo = get("gte")
			}
			if has("lte") {
				hi = get("lte")
			}
			if l, _ := num(lo); l != "" {
				if h, _ := num(hi); h != "" {
					lf, _ := l.Float64()
					hf, _ := h.Float64()
					if lf > hf {
						return // an exclusive range, outside [hi, lo]: protovalidate only
					}
				}
			}
		}
		set := func(name string, dst *json.Number) {
			if has(name) {
				if n, ok := num(get(name)); ok {
					*dst = n
				}
			}
		}
		set("gt", &s.ExclusiveMinimum)
		set("gte", &s.Minimum)
		set("lt", &s.ExclusiveMaximum)
		set("lte", &s.Maximum)
		// protojson takes an integer as a number or a decimal string: a
		// listed value in both forms.
		isInt := fd.Kind() != protoreflect.FloatKind && fd.Kind() != protoreflect.DoubleKind
		forms := func(vs protoreflect.List) []any {
			var out []any
			for i := 0; i < vs.Len(); i++ {
				if n, ok := num(vs.Get(i)); ok {
					out = append(out, n)
					if isInt {
						out = append(out, string(n))
					}
				}
			}
			return out
		}
		if has("const") {
			if n, ok := num(get("const")); ok {
				if isInt {
					s.AllOf = append(s.AllOf, &jsonschema.Schema{Enum: []any{n, string(n)}})
				} else {
					s.Const = n
				}
			}
		}
		if in := forms(get("in").List()); len(in) > 0 {
			s.AllOf = append(s.AllOf, &jsonschema.Schema{Enum: in})
		}
		if out := forms(get("not_in").List()); len(out) > 0 {
			s.AllOf = append(s.AllOf, &jsonschema.Schema{Not: &jsonschema.Schema{Enum: out}})
		}
	}
}

func floatNumber(f float64) (json.Number, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
}

// listRules mirrors in and not_in.
func listRules(in, notIn protoreflect.List, conv func(protoreflect.Value) any, s *jsonschema.Schema) {
	var vals []any
	for i := 0; i < in.Len(); i++ {
		vals = append(vals, conv(in.Get(i)))
	}
	if len(vals) > 0 {
		s.AllOf = append(s.AllOf, &jsonschema.Schema{Enum: vals})
	}
	vals = nil
	for i := 0; i < notIn.Len(); i++ {
		vals = append(vals, conv(notIn.Get(i)))
	}
	if len(vals) > 0 {
		s.AllOf = append(s.AllOf, &jsonschema.Schema{Not: &jsonschema.Schema{Enum: vals}})
	}
}

// repeatedRules mirrors min_items, max_items and unique.
func (b *schemaBuilder) repeatedRules(fd protoreflect.FieldDescriptor, s *jsonschema.Schema) {
	r := fieldRules(fd).GetRepeated()
	if r == nil {
		return
	}
	if r.HasMinItems() {
		n := r.GetMinItems()
		s.MinItems = &n
	}
	if r.HasMaxItems() {
		n := r.GetMaxItems()
		s.MaxItems = &n
	}
	// unique: protovalidate compares values; JSON Schema compares JSON,
	// which for scalars is the same but for 64-bit integers given as a
	// number and as a string is not: mirrored for strings, bools and enums.
	if r.GetUnique() && (fd.Kind() == protoreflect.StringKind || fd.Kind() == protoreflect.BoolKind) {
		s.UniqueItems = true
	}
}

// mapRules mirrors min_pairs and max_pairs.
func (b *schemaBuilder) mapRules(fd protoreflect.FieldDescriptor, s *jsonschema.Schema) {
	r := fieldRules(fd).GetMap()
	if r == nil {
		return
	}
	if r.HasMinPairs() {
		n := r.GetMinPairs()
		s.MinProperties = &n
	}
	if r.HasMaxPairs() {
		n := r.GetMaxPairs()
		s.MaxProperties = &n
	}
}

// fieldPath renders a protovalidate field path by JSON names:
// books[2].title, counts.abc.
func fieldPath(md protoreflect.MessageDescriptor, doc any, els []*validate.FieldPathElement) string {
	var b []byte
	for _, el := range els {
		var fd protoreflect.FieldDescriptor
		if md != nil {
			fd = md.Fields().ByNumber(protoreflect.FieldNumber(el.GetFieldNumber()))
		}
		name := el.GetFieldName()
		if fd != nil {
			name = fd.JSONName()
		}
		// The name the arguments used: protojson takes the original too.
		obj, _ := doc.(map[string]any)
		if _, ok := obj[name]; !ok && fd != nil {
			if _, ok := obj[string(fd.Name())]; ok {
				name = string(fd.Name())
			}
		}
		doc = obj[name]
		if len(b) > 0 {
			b = append(b, '.')
		}
		b = append(b, name...)
		switch sub := el.GetSubscript().(type) {
		case *validate.FieldPathElement_Index:
			b = append(b, '[')
			b = strconv.AppendUint(b, sub.Index, 10)
			b = append(b, ']')
			if arr, ok := doc.([]any); ok && sub.Index < uint64(len(arr)) {
				doc = arr[sub.Index]
			}
		case *validate.FieldPathElement_StringKey:
			b = append(b, '.')
			b = append(b, sub.StringKey...)
			doc = member(doc, sub.StringKey)
		case *validate.FieldPathElement_IntKey:
			b = append(b, '.')
			b = strconv.AppendInt(b, sub.IntKey, 10)
			doc = member(doc, strconv.FormatInt(sub.IntKey, 10))
		case *validate.FieldPathElement_UintKey:
			b = append(b, '.')
			b = strconv.AppendUint(b, sub.UintKey, 10)
			doc = member(doc, strconv.FormatUint(sub.UintKey, 10))
		case *validate.FieldPathElement_BoolKey:
			b = append(b, '.')
			b = strconv.AppendBool(b, sub.BoolKey)
			doc = member(doc, strconv.FormatBool(sub.BoolKey))
		}
		md = nil
		if fd != nil {
			switch {
			case fd.IsMap():
				md = fd.MapValue().Message()
			default:
				md = fd.Message()
			}
		}
	}
	return string(b)
}

// member is doc's member key, nil when doc is no object.
func member(doc any, key string) any {
	m, _ := doc.(map[string]any)
	return m[key]
}

package mcpproto

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"slices"
	"strconv"

	"buf.build/gen/go/bufbuild/protovalidate/protocolbuffers/go/buf/validate"
	"buf.build/go/protovalidate"
	"github.com/invopop/jsonschema"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// protovalidate's standard rules are mirrored into the input schema where
// JSON Schema 2020-12 can say them exactly; every rule, these included, is
// also enforced on each call by protovalidate itself, so what is not
// mirrored is still checked (and reported by field path). Mirrored:
//
//   - string: const, len, min_len, max_len, pattern, prefix, suffix,
//     contains, not_contains, in, not_in, and the well-known formats whose
//     protovalidate definition is a regular expression: email (the HTML
//     standard's), hostname, ipv4, uuid, tuuid, ulid, well_known_regex
//     (HTTP header name and value, strict or not) — as patterns, not the
//     "format" keyword, whose checks differ from protovalidate's;
//   - bool: const;
//   - every numeric kind (int32 ... sfixed64, float, double): const, lt,
//     lte, gt, gte, in, not_in, and finite, on the JSON number form;
//   - enum: const, in, not_in, defined_only;
//   - repeated: min_items, max_items, unique (but for floats), items;
//   - map: min_pairs, max_pairs, keys (string keys), values;
//   - required, ignore (IGNORE_IF_ZERO_VALUE: the zero value or the rules;
//     IGNORE_ALWAYS: nothing), the oneof option's required, the message
//     option's oneof rule over fields with presence;
//   - Any: in, not_in (on "@type").
//
// Left to protovalidate, each call:
//
//   - CEL: the cel and cel_expression options of fields and messages, and
//     predefined rules;
//   - a numeric rule on the string form protojson also accepts ("5", "5.0"
//     and "5e0" for 5; "NaN"): JSON Schema cannot compare a string as a
//     number (not_in and finite excepted);
//   - string: len_bytes, min_bytes, max_bytes (UTF-8 bytes, not
//     characters), uri, uri_ref, ip, ipv6, address, the ip prefix forms,
//     host_and_port, protobuf_fqn, protobuf_dot_fqn (parsers, not regular
//     expressions); patterns are RE2 in protovalidate and ECMA-262 in
//     JSON Schema, the same for the common syntax;
//   - bytes: every rule (the JSON is base64 text, in any of four
//     alphabets and paddings);
//   - map keys of an integer or bool kind;
//   - Timestamp, Duration and FieldMask rules (JSON Schema has no
//     comparison of date-times or durations);
//   - a numeric range whose gt/gte exceeds its lt/lte (an exclusive
//     range, "outside [lt, gt]");
//   - the message oneof rule over fields without presence (where set
//     means not the zero value).
//
// A rule's example values (the example option) become the schema's
// "examples".

// fieldRules returns the buf.validate.field option of fd, nil when none
// or when it says IGNORE_ALWAYS.
func fieldRules(fd protoreflect.FieldDescriptor) *validate.FieldRules {
	opts := fd.Options()
	if opts == nil || !proto.HasExtension(opts, validate.E_Field) {
		return nil
	}
	r, _ := proto.GetExtension(opts, validate.E_Field).(*validate.FieldRules)
	if r.GetIgnore() == validate.Ignore_IGNORE_ALWAYS {
		return nil
	}
	return r
}

// requiredField reports a field the arguments must give, not null: its
// rules say required, or its zero value breaks them (a field without
// presence is its zero value when absent, and protovalidate checks it).
func (b *schemaBuilder) requiredField(fd protoreflect.FieldDescriptor) bool {
	r := fieldRules(fd)
	if r == nil {
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

// zeros are the JSON forms protojson reads as fd's zero value, nil for a
// message.
func zeros(fd protoreflect.FieldDescriptor) []any {
	switch fd.Kind() {
	case protoreflect.StringKind, protoreflect.BytesKind:
		return []any{""}
	case protoreflect.BoolKind:
		return []any{false}
	case protoreflect.EnumKind:
		z := []any{0}
		if v := fd.Enum().Values().ByNumber(0); v != nil {
			z = append(z, string(v.Name()))
		}
		return z
	case protoreflect.MessageKind, protoreflect.GroupKind:
		return nil
	}
	return []any{0, "0", "-0"}
}

// requiredValue makes s the schema of a required field's value: not null,
// and for a field without presence, not its zero value either.
func requiredValue(fd protoreflect.FieldDescriptor, s *jsonschema.Schema) *jsonschema.Schema {
	if fd.HasPresence() || fd.IsList() || fd.IsMap() {
		return s
	}
	z := zeros(fd)
	if z == nil {
		return s
	}
	return &jsonschema.Schema{AllOf: []*jsonschema.Schema{s, {Not: &jsonschema.Schema{Enum: z}}}, Description: moveDescription(s)}
}

// orZero makes s the schema of a field whose rules (in s) do not apply to
// its zero value (IGNORE_IF_ZERO_VALUE).
func orZero(fd protoreflect.FieldDescriptor, s *jsonschema.Schema) *jsonschema.Schema {
	var zero *jsonschema.Schema
	switch {
	case fd.IsMap():
		n := uint64(0)
		zero = &jsonschema.Schema{Type: "object", MaxProperties: &n}
	case fd.IsList():
		n := uint64(0)
		zero = &jsonschema.Schema{Type: "array", MaxItems: &n}
	default:
		z := zeros(fd)
		if z == nil {
			return s // a message: unset is null
		}
		zero = &jsonschema.Schema{Enum: z}
	}
	return &jsonschema.Schema{AnyOf: []*jsonschema.Schema{zero, s}, Description: moveDescription(s)}
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

// messageOneofs returns the oneof rules of md's buf.validate.message option
// whose fields all have presence (set means given and not null), each as
// its fields.
func messageOneofs(md protoreflect.MessageDescriptor) (groups [][]protoreflect.FieldDescriptor, required []bool) {
	opts := md.Options()
	if opts == nil || !proto.HasExtension(opts, validate.E_Message) {
		return nil, nil
	}
	r, _ := proto.GetExtension(opts, validate.E_Message).(*validate.MessageRules)
	for _, o := range r.GetOneof() {
		var fds []protoreflect.FieldDescriptor
		for _, name := range o.GetFields() {
			fd := md.Fields().ByName(protoreflect.Name(name))
			if fd == nil || !fd.HasPresence() || fd.IsList() || fd.IsMap() {
				fds = nil
				break
			}
			fds = append(fds, fd)
		}
		if len(fds) > 0 {
			groups = append(groups, fds)
			required = append(required, o.GetRequired())
		}
	}
	return groups, required
}

// typeRules returns the rules of fd's type (the set member of FieldRules'
// type oneof, e.g. StringRules), nil when none.
func typeRules(r *validate.FieldRules) protoreflect.Message {
	if r == nil || r.GetIgnore() == validate.Ignore_IGNORE_ALWAYS {
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

// ruleSet reads the fields of one type's rules (StringRules, ...).
type ruleSet struct{ m protoreflect.Message }

func (r ruleSet) has(name string) bool {
	f := r.m.Descriptor().Fields().ByName(protoreflect.Name(name))
	return f != nil && r.m.Has(f)
}

func (r ruleSet) get(name string) protoreflect.Value {
	return r.m.Get(r.m.Descriptor().Fields().ByName(protoreflect.Name(name)))
}

func (r ruleSet) list(name string) protoreflect.List {
	if f := r.m.Descriptor().Fields().ByName(protoreflect.Name(name)); f != nil && f.IsList() {
		return r.m.Get(f).List()
	}
	return nil
}

// enumRules mirrors const, in, not_in and defined_only.
func enumRules(ed protoreflect.EnumDescriptor, rules protoreflect.Message, s *jsonschema.Schema) {
	if rules == nil || len(s.AnyOf) != 2 {
		return
	}
	r := ruleSet{rules}
	byName, byNumber := s.AnyOf[0], s.AnyOf[1]
	vals := ed.Values()
	var listed []int32 // const and in: the numbers allowed
	if r.has("const") {
		listed = []int32{int32(r.get("const").Int())}
	}
	if in := r.list("in"); in.Len() > 0 {
		var keep []int32
		for i := 0; i < in.Len(); i++ {
			n := in.Get(i).Int()
			if listed == nil || slices.Contains(listed, int32(n)) {
				keep = append(keep, int32(n))
			}
		}
		listed = keep
		if listed == nil {
			listed = []int32{}
		}
	}
	var excluded []int32
	for i, out := 0, r.list("not_in"); i < out.Len(); i++ {
		excluded = append(excluded, int32(out.Get(i).Int()))
	}
	definedOnly := r.get("defined_only").Bool()
	if listed == nil && !definedOnly && excluded == nil {
		return
	}
	allowed := func(n int32) bool {
		return (listed == nil || slices.Contains(listed, n)) && !slices.Contains(excluded, n)
	}
	var names, nums []any
	for i := 0; i < vals.Len(); i++ {
		if n := int32(vals.Get(i).Number()); allowed(n) {
			names = append(names, string(vals.Get(i).Name()))
			nums = append(nums, int64(n))
		}
	}
	byName.Enum = names
	switch {
	case definedOnly:
		byNumber.Enum, byNumber.Minimum, byNumber.Maximum = nums, "", ""
	case listed != nil:
		// Undefined numbers in the list are allowed too (an open enum).
		nums = nil
		for _, n := range listed {
			if allowed(n) {
				nums = append(nums, int64(n))
			}
		}
		byNumber.Enum, byNumber.Minimum, byNumber.Maximum = nums, "", ""
	default:
		var out []any
		for _, n := range excluded {
			out = append(out, int64(n))
		}
		byNumber.Not = &jsonschema.Schema{Enum: out}
	}
	if len(names) == 0 {
		s.AnyOf = []*jsonschema.Schema{byNumber} // no name is allowed
	}
}

// anyRules mirrors an Any's in and not_in on its "@type".
func anyRules(md protoreflect.MessageDescriptor, rules protoreflect.Message, s *jsonschema.Schema) {
	if rules == nil || md.FullName() != "google.protobuf.Any" || s.Properties == nil {
		return
	}
	r := ruleSet{rules}
	t, ok := s.Properties.Get("@type")
	if !ok {
		return
	}
	strs := func(l protoreflect.List) []any {
		var out []any
		for i := 0; l != nil && i < l.Len(); i++ {
			out = append(out, l.Get(i).String())
		}
		return out
	}
	if in := strs(r.list("in")); len(in) > 0 {
		t.Enum = in
	}
	if out := strs(r.list("not_in")); len(out) > 0 {
		t.Not = &jsonschema.Schema{Enum: out}
	}
}

// Patterns of protovalidate's well-known string rules, transcribed from
// its definitions (buf.build/go/protovalidate, internal/rules and
// native_string.go).
const (
	emailPattern       = "^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$"
	hostnamePattern    = `^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*\.?$`
	allDigitsLast      = `(^|\.)[0-9]+\.?$`
	octet              = `(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])`
	ipv4Pattern        = `^` + octet + `(\.` + octet + `){3}$`
	uuidPattern        = `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`
	tuuidPattern       = `^[0-9a-fA-F]{32}$`
	ulidPattern        = `^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$`
	headerNamePattern  = "^:?[0-9a-zA-Z!#$%&'*+.\\-^_|~`]+$"
	headerValuePattern = `^[^\x00-\x08\x0A-\x1F\x7F]*$`
	headerLoosePattern = `^[^\x00\x0A\x0D]+$`
)

// formatPatterns names the rule and protovalidate's message of each
// well-known pattern, for the violations the schema reports.
var formatPatterns = map[string]struct{ rule, msg string }{
	emailPattern:       {"string.email", "must be a valid email address"},
	hostnamePattern:    {"string.hostname", "must be a valid hostname"},
	ipv4Pattern:        {"string.ipv4", "must be a valid IPv4 address"},
	uuidPattern:        {"string.uuid", "must be a valid UUID"},
	tuuidPattern:       {"string.tuuid", "must be a valid trimmed UUID"},
	ulidPattern:        {"string.ulid", "must be a valid ULID"},
	headerNamePattern:  {"string.well_known_regex.header_name", "must be a valid HTTP header name"},
	headerValuePattern: {"string.well_known_regex.header_value", "must be a valid HTTP header value"},
}

// valueRules mirrors the rules of one scalar value of kind k into s, its
// schema (scalarSchema's).
func valueRules(k protoreflect.Kind, rules protoreflect.Message, s *jsonschema.Schema) {
	if rules == nil {
		return
	}
	r := ruleSet{rules}
	// protovalidate's example values are the schema's examples.
	if ex := r.list("example"); ex != nil {
		for i := 0; i < ex.Len(); i++ {
			switch v := ex.Get(i).Interface().(type) {
			case string, bool, int32, int64, uint32, uint64, float32, float64:
				s.Examples = append(s.Examples, v)
			}
		}
	}
	count := func(name string) *uint64 {
		n := r.get(name).Uint()
		return &n
	}
	switch k {
	case protoreflect.StringKind:
		if r.has("len") {
			s.MinLength, s.MaxLength = count("len"), count("len")
		}
		if r.has("min_len") {
			s.MinLength = count("min_len")
		}
		if r.has("max_len") {
			s.MaxLength = count("max_len")
		}
		var pats []string
		if r.has("pattern") {
			pats = append(pats, r.get("pattern").String())
		}
		if r.has("prefix") {
			pats = append(pats, "^"+regexp.QuoteMeta(r.get("prefix").String()))
		}
		if r.has("suffix") {
			pats = append(pats, regexp.QuoteMeta(r.get("suffix").String())+"$")
		}
		if r.has("contains") {
			pats = append(pats, regexp.QuoteMeta(r.get("contains").String()))
		}
		for _, f := range []struct{ rule, pattern string }{
			{"email", emailPattern}, {"hostname", hostnamePattern}, {"ipv4", ipv4Pattern},
			{"uuid", uuidPattern}, {"tuuid", tuuidPattern}, {"ulid", ulidPattern},
		} {
			if r.has(f.rule) && r.get(f.rule).Bool() {
				pats = append(pats, f.pattern)
				if f.rule == "hostname" {
					// At most 253 characters without the trailing dot, and
					// the last label is not all digits.
					s.AllOf = append(s.AllOf, &jsonschema.Schema{Not: &jsonschema.Schema{Pattern: allDigitsLast}},
						&jsonschema.Schema{AnyOf: []*jsonschema.Schema{{MaxLength: ptr(uint64(253))}, {MaxLength: ptr(uint64(254)), Pattern: `\.$`}}})
				}
			}
		}
		if r.has("well_known_regex") {
			strict := !r.has("strict") || r.get("strict").Bool()
			switch validate.KnownRegex(r.get("well_known_regex").Enum()) {
			case validate.KnownRegex_KNOWN_REGEX_HTTP_HEADER_NAME:
				pats = append(pats, map[bool]string{true: headerNamePattern, false: headerLoosePattern}[strict])
			case validate.KnownRegex_KNOWN_REGEX_HTTP_HEADER_VALUE:
				pats = append(pats, map[bool]string{true: headerValuePattern, false: headerLoosePattern}[strict])
			}
		}
		for i, p := range pats {
			if i == 0 {
				s.Pattern = p
			} else {
				s.AllOf = append(s.AllOf, &jsonschema.Schema{Pattern: p})
			}
		}
		if r.has("not_contains") {
			s.AllOf = append(s.AllOf, &jsonschema.Schema{Not: &jsonschema.Schema{Pattern: regexp.QuoteMeta(r.get("not_contains").String())}})
		}
		if r.has("const") {
			s.Const = r.get("const").String()
		}
		str := func(v protoreflect.Value) any { return v.String() }
		if in := values(r.list("in"), str); len(in) > 0 {
			s.AllOf = append(s.AllOf, &jsonschema.Schema{Enum: in})
		}
		if out := values(r.list("not_in"), str); len(out) > 0 {
			s.AllOf = append(s.AllOf, &jsonschema.Schema{Not: &jsonschema.Schema{Enum: out}})
		}
	case protoreflect.BytesKind:
		// base64 text: not mirrored (see above).
	case protoreflect.BoolKind:
		if r.has("const") {
			s.Const = r.get("const").Bool()
		}
	default:
		numberRules(k, r, s)
	}
}

func ptr[T any](v T) *T { return &v }

func values(l protoreflect.List, conv func(protoreflect.Value) any) []any {
	var out []any
	for i := 0; l != nil && i < l.Len(); i++ {
		out = append(out, conv(l.Get(i)))
	}
	return out
}

// numberRules mirrors a number's rules on its JSON number branch: bounds,
// const, in, not_in. Its string branch ("14", "14.0", "1.4e1" are one
// value to protojson) gets not_in, as the canonical strings of the values
// (the others pass, for protovalidate to refuse), and for a float, finite.
func numberRules(k protoreflect.Kind, r ruleSet, s *jsonschema.Schema) {
	num, str := numberForms(s)
	if num == nil {
		return
	}
	isInt := k != protoreflect.FloatKind && k != protoreflect.DoubleKind
	toNumber := func(v protoreflect.Value) (json.Number, bool) {
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
	// The JSON forms of listed values: numbers, and their canonical strings.
	forms := func(vs protoreflect.List) (nums, strs []any) {
		for i := 0; vs != nil && i < vs.Len(); i++ {
			if n, ok := toNumber(vs.Get(i)); ok {
				nums = append(nums, n)
				strs = append(strs, string(n))
				if n == "0" {
					strs = append(strs, "-0")
				}
			}
		}
		return nums, strs
	}
	if !isInt && r.has("finite") && r.get("finite").Bool() {
		str.Pattern = numberPattern
	}
	lower, upper := r.has("gt") || r.has("gte"), r.has("lt") || r.has("lte")
	exclusive := false // gt/gte above lt/lte: outside a range, not mirrored
	if lower && upper {
		lo, hi := r.get("gt"), r.get("lt")
		if r.has("gte") {
			lo = r.get("gte")
		}
		if r.has("lte") {
			hi = r.get("lte")
		}
		l, lok := toNumber(lo)
		h, hok := toNumber(hi)
		if lok && hok {
			lf, _ := l.Float64()
			hf, _ := h.Float64()
			exclusive = lf > hf
		}
	}
	if !exclusive {
		set := func(name string, dst *json.Number) {
			if r.has(name) {
				if n, ok := toNumber(r.get(name)); ok {
					*dst = n
				}
			}
		}
		set("gt", &num.ExclusiveMinimum)
		set("gte", &num.Minimum)
		set("lt", &num.ExclusiveMaximum)
		set("lte", &num.Maximum)
	}
	if r.has("const") {
		if n, ok := toNumber(r.get("const")); ok {
			num.Const = n
		}
	}
	if nums, _ := forms(r.list("in")); len(nums) > 0 {
		num.Enum = nums
	}
	if nums, strs := forms(r.list("not_in")); len(nums) > 0 {
		num.Not = &jsonschema.Schema{Enum: nums}
		str.Not = &jsonschema.Schema{Enum: strs}
	}
}

func floatNumber(f float64) (json.Number, bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
}

// repeatedRules mirrors min_items, max_items and unique.
func repeatedRules(fd protoreflect.FieldDescriptor, r *validate.RepeatedRules, s *jsonschema.Schema) {
	if r == nil {
		return
	}
	if r.HasMinItems() {
		s.MinItems = ptr(r.GetMinItems())
	}
	if r.HasMaxItems() {
		s.MaxItems = ptr(r.GetMaxItems())
	}
	// unique: JSON Schema compares JSON values; protovalidate, protobuf
	// values. Two equal JSON values are equal values, except for floats
	// ("NaN" twice is two values to protovalidate); two values equal to
	// protovalidate may differ as JSON (5 and "5"), which the schema lets
	// through and protovalidate refuses.
	if r.GetUnique() && fd.Kind() != protoreflect.FloatKind && fd.Kind() != protoreflect.DoubleKind &&
		fd.Kind() != protoreflect.MessageKind && fd.Kind() != protoreflect.GroupKind {
		s.UniqueItems = true
	}
}

// mapRules mirrors min_pairs and max_pairs.
func mapRules(r *validate.MapRules, s *jsonschema.Schema) {
	if r == nil {
		return
	}
	if r.HasMinPairs() {
		s.MinProperties = ptr(r.GetMinPairs())
	}
	if r.HasMaxPairs() {
		s.MaxProperties = ptr(r.GetMaxPairs())
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

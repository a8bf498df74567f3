package mcpreflect

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"
	"github.com/invopop/jsonschema"
)

// validate is the validator instance for rules JSON Schema cannot express.
// It reports struct fields by their JSON names.
var validate = sync.OnceValue(func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	return v
})

// Validator returns the go-playground validator mcpgen runs residual rules
// with. Register custom validations on it before registering tools that use
// them.
func Validator() *validator.Validate { return validate() }

// crossRules compare a field with a sibling field of the same struct.
var crossRules = map[string]bool{
	"eqfield": true, "nefield": true, "gtfield": true, "gtefield": true,
	"ltfield": true, "ltefield": true, "fieldcontains": true, "fieldexcludes": true,
}

// unsupportedRules depend on validator's zero-value notion of presence, which
// differs from JSON's (an explicit 0 is present), or on other structs.
var unsupportedRules = map[string]string{
	"required_if": "", "required_unless": "", "required_with": "", "required_with_all": "",
	"required_without": "", "required_without_all": "", "excluded_if": "", "excluded_unless": "",
	"excluded_with": "", "excluded_with_all": "", "excluded_without": "", "excluded_without_all": "",
	"eqcsfield": "", "necsfield": "", "gtcsfield": "", "gtecsfield": "", "ltcsfield": "", "ltecsfield": "",
	"isdefault": "", "structonly": "", "nostructlevel": "", "skip_unless": "",
}

// formatRules are validator rules that are JSON Schema formats.
var formatRules = map[string]string{
	"email": "email", "url": "uri", "uri": "uri", "uuid": "uuid", "hostname_rfc1123": "hostname",
	"ipv4": "ipv4", "ipv6": "ipv6",
}

// mirror writes the validate rules of field f into its schema wherever JSON
// Schema can say the same thing, and keeps the rest as a residual validator
// tag. setBy holds the keywords the jsonschema tag set; a rule that says
// something else about one of them is a contradiction.
func (b *builder) mirror(owner reflect.Type, f *fieldInfo, setBy map[string]bool) error {
	fail := func(msg string, args ...any) error {
		return &DefinitionError{Type: typeString(owner), Field: f.goName, Tag: fmt.Sprintf("validate:%q", f.tags.raw.Get("validate")), Msg: fmt.Sprintf(msg, args...)}
	}
	node := f.schema
	t := f.typ
	var residual []string
	nonEmpty := false
	for li, lv := range f.validate {
		if li > 0 {
			bt := baseType(t)
			switch {
			case bt == bytesType:
				return fail("dive on []byte, which is sent as one base64 string, not as an array")
			case (bt.Kind() == reflect.Slice || bt.Kind() == reflect.Array) && node.Items == nil:
				return fail("dive on %s, whose schema has no items", bt)
			case bt.Kind() == reflect.Map && node.AdditionalProperties == nil:
				return fail("dive on %s, whose schema has no additionalProperties", bt)
			case bt.Kind() == reflect.Slice || bt.Kind() == reflect.Array:
				node = node.Items
			case bt.Kind() == reflect.Map:
				if len(lv.keys) > 0 {
					if node.PropertyNames == nil {
						node.PropertyNames = &jsonschema.Schema{Type: "string"}
					}
					for _, r := range lv.keys {
						if !b.mirrorRule(node.PropertyNames, reflect.TypeFor[string](), r, nil) {
							return fail("keys rule %q has no JSON Schema equivalent; only string rules (min, max, len, oneof, formats) may check map keys", r.raw)
						}
					}
				}
				node = node.AdditionalProperties
			default:
				return fail("dive on %s, which is not a slice, array or map", bt)
			}
			t = bt.Elem()
			residual = append(residual, "dive")
		}
		omit := false
		for _, r := range lv.rules {
			switch r.name {
			case "omitempty", "omitnil", "omitzero":
				if li == 0 && f.required && !hasRule(lv.rules, "required") {
					return fail("%s contradicts the json tag, which makes %q required: add omitempty to the json tag, or drop %s", r.name, f.name, r.name)
				}
				if li > 0 {
					omit = true
				}
			}
		}
		for _, r := range lv.rules {
			if why, ok := unsupportedRules[r.name]; ok {
				_ = why
				return fail("rule %q is not supported: its meaning depends on validator's zero values, not on whether an argument was sent; check it in the tool body", r.name)
			}
			if r.name == "omitempty" || r.name == "omitnil" || r.name == "omitzero" {
				continue
			}
			if r.name == "required" && li == 0 {
				f.required, nonEmpty = true, true
				continue
			}
			if crossRules[r.name] && li == 0 {
				if _, ok := owner.FieldByName(r.param); !ok || r.param == "" {
					return fail("%s=%s: %s has no field %q", r.name, r.param, owner, r.param)
				}
				f.cross = append(f.cross, crossRule{rule: r.name, other: r.param, raw: r.raw})
				continue
			}
			if !omit {
				ok, err := b.mirrorRuleChecked(node, t, r, setBy, li == 0, fail)
				if err != nil {
					return err
				}
				if ok {
					continue
				}
			}
			if err := checkValidatorRule(t, r.raw); err != nil {
				return fail("%s", err)
			}
			residual = append(residual, r.raw)
		}
	}
	if nonEmpty {
		if err := b.requireValue(f, setBy, fail); err != nil {
			return err
		}
	}
	// Trim trailing dives that carry no rule.
	for len(residual) > 0 && residual[len(residual)-1] == "dive" {
		residual = residual[:len(residual)-1]
	}
	f.residual = strings.Join(residual, ",")
	return nil
}

// requireValue writes what validator's required adds to presence into the
// schema of field f, where JSON Schema can say it, so that the published
// schema and the call's check agree: a string (or a []byte, sent as
// base64) is not "", a slice not [] and a map not {}. A pointer or an
// interface is not nil, which a required property already means (null is
// not among its types). A number, a bool, a struct, an array or a time
// stays required only by presence: 0, false and their like are values a
// model sends on purpose, unlike Go's zero values validator guards against.
func (b *builder) requireValue(f *fieldInfo, setBy map[string]bool, fail func(string, ...any) error) error {
	t, node := f.typ, f.schema
	if node.Ref != "" || t == rawMessageType {
		return nil
	}
	if _, ok, _ := b.custom(t); ok {
		return nil // its schema is its own
	}
	var kw string
	var lo **uint64
	var hi *uint64
	switch {
	case (t == bytesType || t.Kind() == reflect.String) && node.Type == "string":
		kw, lo, hi = "minLength", &node.MinLength, node.MaxLength
	case t.Kind() == reflect.Slice && node.Type == "array":
		kw, lo, hi = "minItems", &node.MinItems, node.MaxItems
	case t.Kind() == reflect.Map && node.Type == "object" && node.Properties == nil:
		kw, lo, hi = "minProperties", &node.MinProperties, node.MaxProperties
	default:
		return nil
	}
	switch {
	case *lo != nil && **lo >= 1:
		return nil // already not empty
	case *lo != nil && setBy[kw]:
		return fail("rule \"required\" sets %s, which the jsonschema tag already sets to %d", kw, **lo)
	case hi != nil && *hi == 0:
		return fail("rule \"required\" refuses the empty value, the only one %s 0 allows", maxName[kw])
	}
	one := uint64(1)
	*lo = &one
	return nil
}

var maxName = map[string]string{"minLength": "maxLength", "minItems": "maxItems", "minProperties": "maxProperties"}

func hasRule(rules []vrule, name string) bool {
	for _, r := range rules {
		if r.name == name {
			return true
		}
	}
	return false
}

// mirrorRuleChecked mirrors r into node, failing when the jsonschema tag
// already set the same keyword to something else.
func (b *builder) mirrorRuleChecked(node *jsonschema.Schema, t reflect.Type, r vrule, setBy map[string]bool, top bool, fail func(string, ...any) error) (bool, error) {
	if !top || len(setBy) == 0 {
		// No jsonschema keyword to contradict: the common case needs no copy.
		return b.mirrorRule(node, t, r, nil), nil
	}
	before := cloneSchema(node)
	if !b.mirrorRule(node, t, r, nil) {
		return false, nil
	}
	for _, k := range changedKeywords(before, node) {
		if setBy[k] {
			return false, fail("rule %q sets %s, which the jsonschema tag already sets to %s", r.raw, k, keywordValue(before, k))
		}
	}
	return true, nil
}

// mirrorRule writes rule r, for a value of Go type t, into node. It reports
// false when JSON Schema cannot express the rule.
func (b *builder) mirrorRule(node *jsonschema.Schema, t reflect.Type, r vrule, _ map[string]bool) bool {
	bt := baseType(t)
	kind := valueKind(node)
	if bt == timeType {
		kind = "time"
	}
	if bt == bytesType {
		// validator measures a []byte in bytes, JSON Schema its base64 text
		// in characters: the rule runs after decoding instead.
		return false
	}
	param := r.param
	count := func() (uint64, bool) {
		n, err := strconv.ParseUint(param, 10, 64)
		return n, err == nil
	}
	num := func() (json.Number, bool) {
		n, err := parseNumber(param)
		if err != nil {
			return "", false
		}
		if kind == "integer" {
			if _, err := n.Int64(); err != nil {
				return "", false
			}
		}
		return n, true
	}
	switch kind {
	case "string":
		switch r.name {
		case "min", "gte", "max", "lte", "len", "gt", "lt":
			n, ok := count()
			if !ok {
				return false
			}
			return setLength(&node.MinLength, &node.MaxLength, r.name, n)
		case "eq":
			node.Const = param
			return true
		case "oneof":
			vals := splitOneOf(param)
			if len(vals) == 0 {
				return false
			}
			node.Enum = nil
			for _, v := range vals {
				node.Enum = append(node.Enum, v)
			}
			return true
		case "datetime":
			switch param {
			case "2006-01-02T15:04:05Z07:00":
				node.Format = "date-time"
			case "2006-01-02":
				node.Format = "date"
			default:
				return false
			}
			return true
		case "hostname":
			node.Format = "hostname"
			return true
		}
		if f, ok := formatRules[r.name]; ok {
			node.Format = f
			return true
		}
	case "integer", "number":
		switch r.name {
		case "min", "gte", "max", "lte", "gt", "lt", "eq", "len":
			n, ok := num()
			if !ok {
				return false
			}
			switch r.name {
			case "min", "gte":
				node.Minimum = n
			case "max", "lte":
				node.Maximum = n
			case "gt":
				node.ExclusiveMinimum = n
			case "lt":
				node.ExclusiveMaximum = n
			case "eq", "len":
				node.Const = jsonNumberValue(n, kind)
			}
			clampToType(node, bt)
			return true
		case "oneof":
			vals := splitOneOf(param)
			if len(vals) == 0 {
				return false
			}
			var enum []any
			for _, v := range vals {
				x, err := parseTyped(v, kind)
				if err != nil {
					return false
				}
				enum = append(enum, x)
			}
			node.Enum = enum
			return true
		}
	case "boolean":
		if r.name == "eq" && (param == "true" || param == "false") {
			node.Const = param == "true"
			return true
		}
	case "array":
		switch r.name {
		case "min", "gte", "max", "lte", "len", "gt", "lt":
			n, ok := count()
			if !ok {
				return false
			}
			return setLength(&node.MinItems, &node.MaxItems, r.name, n)
		case "unique":
			if param != "" {
				return false
			}
			node.UniqueItems = true
			return true
		}
	case "object":
		if node.Properties != nil || node.Ref != "" {
			return false
		}
		switch r.name {
		case "min", "gte", "max", "lte", "len", "gt", "lt":
			n, ok := count()
			if !ok {
				return false
			}
			return setLength(&node.MinProperties, &node.MaxProperties, r.name, n)
		}
	}
	return false
}

func jsonNumberValue(n json.Number, kind string) any {
	if kind == "integer" {
		i, _ := n.Int64()
		return i
	}
	f, _ := n.Float64()
	return f
}

// splitOneOf splits a oneof parameter the way validator does: on spaces,
// with 'single quoted' values kept whole.
func splitOneOf(p string) []string {
	var out []string
	for len(p) > 0 {
		p = strings.TrimLeft(p, " ")
		if p == "" {
			break
		}
		if p[0] == '\'' {
			end := strings.IndexByte(p[1:], '\'')
			if end < 0 {
				out = append(out, p[1:])
				break
			}
			out = append(out, p[1:end+1])
			p = p[end+2:]
			continue
		}
		end := strings.IndexByte(p, ' ')
		if end < 0 {
			out = append(out, p)
			break
		}
		out = append(out, p[:end])
		p = p[end:]
	}
	return out
}

// checkValidatorRule makes sure validator knows rule and accepts it for a
// value of type t, by running it once on the zero value.
func checkValidatorRule(t reflect.Type, rule string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("rule %q: %v", rule, r)
			msg := fmt.Sprint(r)
			if name, ok := strings.CutPrefix(msg, "Undefined validation function '"); ok {
				name, _, _ = strings.Cut(name, "'")
				err = fmt.Errorf("rule %q: validator has no rule %q", rule, name)
				if s := suggest(name, knownRules()); s != "" {
					err = fmt.Errorf("%w (did you mean %q?)", err, s)
				}
			}
		}
	}()
	_ = validate().Var(reflect.Zero(t).Interface(), rule)
	return nil
}

// knownRules are the validator rules a misspelt rule is compared with for
// a suggestion (validator does not list its rules): those this file names
// in its tables, and the most used others.
func knownRules() []string {
	rules := []string{
		"required", "omitempty", "omitnil", "omitzero", "dive", "keys", "endkeys",
		"min", "max", "len", "eq", "ne", "gt", "gte", "lt", "lte", "oneof", "unique", "datetime", "hostname",
		"ip", "cidr", "mac", "alpha", "alphanum", "alphaunicode", "numeric", "number", "boolean", "hexadecimal",
		"contains", "containsany", "excludes", "excludesall", "startswith", "endswith",
		"lowercase", "uppercase", "ascii", "printascii", "base64", "json", "jwt", "e164", "semver",
	}
	// A tie in distance goes to the earlier rule: the list above first, in
	// its order, then the tables' rules, sorted.
	var tables []string
	tables = slices.AppendSeq(tables, maps.Keys(crossRules))
	tables = slices.AppendSeq(tables, maps.Keys(formatRules))
	tables = slices.AppendSeq(tables, maps.Keys(unsupportedRules))
	slices.Sort(tables)
	return append(rules, tables...)
}

// changedKeywords lists the validation keywords that differ between a and b.
func changedKeywords(a, b *jsonschema.Schema) []string {
	var out []string
	ne := func(k string, x, y any) {
		if fmt.Sprint(x) != fmt.Sprint(y) {
			out = append(out, k)
		}
	}
	u := func(p *uint64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	ne("minLength", u(a.MinLength), u(b.MinLength))
	ne("maxLength", u(a.MaxLength), u(b.MaxLength))
	ne("minItems", u(a.MinItems), u(b.MinItems))
	ne("maxItems", u(a.MaxItems), u(b.MaxItems))
	ne("minProperties", u(a.MinProperties), u(b.MinProperties))
	ne("maxProperties", u(a.MaxProperties), u(b.MaxProperties))
	ne("minimum", a.Minimum, b.Minimum)
	ne("maximum", a.Maximum, b.Maximum)
	ne("exclusiveMinimum", a.ExclusiveMinimum, b.ExclusiveMinimum)
	ne("exclusiveMaximum", a.ExclusiveMaximum, b.ExclusiveMaximum)
	ne("enum", a.Enum, b.Enum)
	ne("const", a.Const, b.Const)
	ne("format", a.Format, b.Format)
	ne("uniqueItems", a.UniqueItems, b.UniqueItems)
	return out
}

func keywordValue(s *jsonschema.Schema, k string) string {
	m := map[string]any{}
	raw, _ := json.Marshal(s)
	_ = json.Unmarshal(raw, &m)
	v, ok := m[k]
	if !ok {
		return "nothing"
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// setLength writes a validator length rule (min, gte, gt, max, lte, lt, len)
// with count n as the bounds lo and hi it means, for strings, arrays and
// maps alike. It reports false for a rule JSON Schema cannot say (lt=0).
func setLength(lo, hi **uint64, rule string, n uint64) bool {
	switch rule {
	case "min", "gte":
		*lo = &n
	case "gt":
		m := n + 1
		*lo = &m
	case "max", "lte":
		*hi = &n
	case "lt":
		if n == 0 {
			return false
		}
		m := n - 1
		*hi = &m
	case "len":
		m := n
		*lo, *hi = &n, &m
	default:
		return false
	}
	return true
}

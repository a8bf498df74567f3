package mcpproto

import (
	"encoding/json"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"google.golang.org/protobuf/reflect/protoreflect"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// renderer turns a JSON Schema validator's verdict on arguments into
// violations that name each field and rule once: the anyOf branch the
// value's JSON type aims at (or one line naming the types wanted), a
// oneof's members by name, numbers exactly as sent and as published.
type renderer struct {
	in  *inputSchema
	doc any
	out []mcpreflect.Violation
}

func (r *renderer) add(loc []string, rule, msg string) {
	r.out = append(r.out, mcpreflect.Violation{Path: jsonPath(r.doc, loc), Rule: rule, Msg: msg})
}

// walk renders e and its causes; loc is the deepest instance location on
// the way down (a propertyNames error locates the name at its object).
func (r *renderer) walk(e *sjs.ValidationError, loc []string) {
	if len(e.InstanceLocation) >= len(loc) {
		loc = e.InstanceLocation
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf:
		r.anyOf(e, loc)
		return
	case *kind.OneOf:
		if r.oneof(loc, r.keyword(e, "oneOf"), len(k.Subschemas) > 1) {
			return
		}
	case *kind.Not:
		if r.not(loc, r.keyword(e, "not")) {
			return
		}
	case *kind.AdditionalProperties:
		props, _ := r.keyword(e, "properties").(map[string]any)
		for _, name := range k.Properties {
			msg := "unknown field"
			if alt := r.jsonNameOf(loc, name); alt != "" && props[alt] != nil {
				msg += "; this field is spelt " + alt // its .proto name: the schema has one spelling
			}
			r.add(append(slices.Clip(loc), name), "additionalProperties", msg)
		}
		return
	case *kind.Minimum, *kind.Maximum, *kind.ExclusiveMinimum, *kind.ExclusiveMaximum, *kind.MultipleOf:
		rule, words, want, got := numberRule(k)
		r.add(loc, rule, "must be "+words+" "+exact(want)+", got "+r.number(loc, got))
		return
	case *kind.Pattern:
		if f, ok := formatPatterns[k.Want]; ok {
			r.add(loc, f.rule, f.msg) // protovalidate's words, not the pattern
			return
		}
		if k.Want == numberPattern || k.Want == floatPattern {
			r.add(loc, "type", "must be a number, or a number in a string, got "+strconv.Quote(k.Got))
			return
		}
	}
	if len(e.Causes) == 0 {
		kw := e.ErrorKind.KeywordPath()
		rule := "schema"
		if len(kw) > 0 {
			rule = kw[len(kw)-1]
		}
		r.add(loc, rule, e.ErrorKind.LocalizedString(printer))
		return
	}
	for _, c := range e.Causes {
		r.walk(c, loc)
	}
}

// numberRule is the keyword of k, a numeric rule's failure, the words
// that say the rule, the bound and the number.
func numberRule(k sjs.ErrorKind) (rule, words string, want, got *big.Rat) {
	switch k := k.(type) {
	case *kind.Minimum:
		return "minimum", "at least", k.Want, k.Got
	case *kind.Maximum:
		return "maximum", "at most", k.Want, k.Got
	case *kind.ExclusiveMinimum:
		return "exclusiveMinimum", "greater than", k.Want, k.Got
	case *kind.ExclusiveMaximum:
		return "exclusiveMaximum", "less than", k.Want, k.Got
	case *kind.MultipleOf:
		return "multipleOf", "a multiple of", k.Want, k.Got
	}
	return "", "", nil, nil
}

// anyOf renders the branches of an anyOf the value's JSON type matches;
// when it matches none, one line naming the types the branches want.
func (r *renderer) anyOf(e *sjs.ValidationError, loc []string) {
	var aimed []*sjs.ValidationError
	var want []string
	got := ""
	for _, c := range e.Causes {
		if t, ok := c.ErrorKind.(*kind.Type); ok {
			got = t.Got
			for _, w := range t.Want {
				if !slices.Contains(want, w) {
					want = append(want, w)
				}
			}
			continue
		}
		aimed = append(aimed, c)
	}
	if len(aimed) == 0 {
		r.add(loc, "type", "got "+got+", want "+orList(want))
		return
	}
	for _, c := range aimed {
		r.walk(c, loc)
	}
}

// oneof renders a oneof's exclusion (schema.go's exclusive): a conflict
// names the members set, a missing member those it could be. It reports
// false when kw is not such a schema.
func (r *renderer) oneof(loc []string, kw any, conflict bool) bool {
	branches, _ := kw.([]any)
	var members []string
	for _, b := range branches {
		if name := setName(b); name != "" {
			members = append(members, name)
		}
	}
	if len(members) == 0 {
		return false
	}
	set := r.set(loc, members)
	if len(set) > 1 || conflict {
		r.conflict(loc, set)
		return true
	}
	msg := "exactly one of " + strings.Join(members, ", ") + " is required"
	if name := r.oneofName(loc, members); name != "" {
		msg = "oneof " + name + " requires exactly one of " + strings.Join(members, ", ")
	}
	r.add(loc, "required", msg)
	return true
}

// not renders the failures of the not keywords the schemas use: a zero
// value refused (requiredValue), two members of a oneof set (exclusive).
func (r *renderer) not(loc []string, kw any) bool {
	m, _ := kw.(map[string]any)
	if m == nil {
		return false
	}
	if _, ok := m["enum"]; ok {
		r.add(loc, "required", "value is required")
		return true
	}
	var members []string
	if req, ok := m["required"].([]any); ok { // one pair
		for _, n := range req {
			s, _ := n.(string)
			members = append(members, s)
		}
	}
	if alts, ok := m["anyOf"].([]any); ok { // pairs, or each member
		for _, p := range alts {
			req, _ := p.(map[string]any)["required"].([]any)
			for _, n := range req {
				if s, _ := n.(string); !slices.Contains(members, s) {
					members = append(members, s)
				}
			}
		}
	}
	if len(members) == 0 {
		return false
	}
	r.conflict(loc, r.set(loc, members))
	return true
}

func (r *renderer) conflict(loc []string, set []string) {
	msg := "only one of " + andList(set) + " may be set"
	if name := r.oneofName(loc, set); name != "" {
		msg = "oneof " + name + " is already set: " + andList(set) + " both given"
		if len(set) > 2 {
			msg = "oneof " + name + " is already set: " + andList(set) + " all given"
		}
	}
	r.add(loc, "oneof", msg)
}

// set returns the members given, and not null, in the object at loc.
func (r *renderer) set(loc []string, members []string) []string {
	obj, _ := r.at(loc).(map[string]any)
	var out []string
	for _, m := range members {
		if v, ok := obj[m]; ok && v != nil {
			out = append(out, m)
		}
	}
	return out
}

// messageAt is the descriptor of the message at loc, nil when loc is no
// message's (or the schema has no descriptor).
func (r *renderer) messageAt(loc []string) protoreflect.MessageDescriptor {
	md := r.in.md
	key := false // the next segment is an index or a map key
	for _, seg := range loc {
		if key {
			key = false
			continue
		}
		if md == nil {
			return nil
		}
		fd := md.Fields().ByJSONName(seg)
		if fd == nil {
			return nil
		}
		key = fd.IsList() || fd.IsMap()
		if fd.IsMap() {
			fd = fd.MapValue()
		}
		md = fd.Message()
	}
	return md
}

// jsonNameOf is the JSON name of the field of the message at loc whose
// .proto name is name, when the two differ; "" otherwise.
func (r *renderer) jsonNameOf(loc []string, name string) string {
	md := r.messageAt(loc)
	if md == nil {
		return ""
	}
	fd := md.Fields().ByName(protoreflect.Name(name))
	if fd == nil || fd.JSONName() == name {
		return ""
	}
	return fd.JSONName()
}

// oneofName is the name of the oneof of the message at loc whose fields
// members are, "" for protovalidate's message oneof rule.
func (r *renderer) oneofName(loc []string, members []string) string {
	md := r.messageAt(loc)
	if md == nil || len(members) == 0 {
		return ""
	}
	if f := md.Fields().ByJSONName(members[0]); f != nil && f.ContainingOneof() != nil && !f.ContainingOneof().IsSynthetic() {
		return string(f.ContainingOneof().Name())
	}
	return ""
}

// setName is the member a branch of exclusive's says is set, "" for none.
func setName(b any) string {
	m, _ := b.(map[string]any)
	req, _ := m["required"].([]any)
	if len(req) != 1 {
		return ""
	}
	s, _ := req[0].(string)
	return s
}

// keyword returns the value of keyword kw in the schema e's SchemaURL
// locates, nil when there is none.
func (r *renderer) keyword(e *sjs.ValidationError, kw string) any {
	_, frag, _ := strings.Cut(e.SchemaURL, "#")
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	node := r.in.tree
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if tok == "" {
			continue
		}
		node = child(node, strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~"))
	}
	// The keyword failed in the schema at SchemaURL, or SchemaURL is the
	// keyword's own location.
	if m, ok := node.(map[string]any); ok {
		if v, ok := m[kw]; ok {
			return v
		}
	}
	if strings.HasSuffix(frag, "/"+kw) {
		return node
	}
	return nil
}

// at is the value of the arguments at loc.
func (r *renderer) at(loc []string) any {
	v := r.doc
	for _, seg := range loc {
		v = child(v, seg)
	}
	return v
}

// child is the member seg of v, an object, or its element at index seg,
// an array; nil when v has none (or is neither).
func child(v any, seg string) any {
	switch x := v.(type) {
	case map[string]any:
		return x[seg]
	case []any:
		i, err := strconv.Atoi(seg)
		if err != nil || i < 0 || i >= len(x) {
			return nil
		}
		return x[i]
	}
	return nil
}

// number is the number at loc as sent, else got, exactly.
func (r *renderer) number(loc []string, got *big.Rat) string {
	if n, ok := r.at(loc).(json.Number); ok {
		return string(n)
	}
	if s, ok := r.at(loc).(string); ok {
		return strconv.Quote(s)
	}
	return exact(got)
}

// exact prints r as a decimal, exactly where it has a finite expansion
// (every bound a schema publishes has one).
func exact(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	if n, ok := r.FloatPrec(); ok {
		return r.FloatString(n)
	}
	return r.RatString()
}

func andList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

package mcpopenapi

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// quick is a schema of the shapes most descriptions are made of (objects
// of properties, primitives, arrays, enums, local $refs, allOf, anyOf,
// oneOf, not, integer bounds, lengths), compiled to check an instance
// without the general validator's bookkeeping. It only ever says "valid"
// when the validator would: an instance it cannot decide exactly (a number
// not written as an int64, a recursion too deep) is unknown, and anything
// but valid goes to the validator, which gives the verdict and the
// messages. A schema with any other keyword is not compiled at all
// (TestQuickAgreement holds it to the validator's verdicts).
type quick struct {
	always   verdict // for the boolean schemas true and false; else 0
	types    uint8   // bits of jsonType; 0: any
	ref      *quick
	props    map[string]*quick
	required []string
	addl     *quick // additionalProperties; nil: any
	items    *quick
	enum     []any
	hasEnum  bool
	not      *quick
	allOf    []*quick
	anyOf    []*quick
	oneOf    []*quick
	minLen   int // -1: none
	maxLen   int
	minItems int
	maxItems int
	minProps int
	maxProps int
	bounds   []bound
}

type verdict uint8

const (
	unknown verdict = iota
	valid
	invalid
)

type bound struct {
	n   int64
	cmp func(got, n int64) bool // true when got satisfies the bound
}

const (
	tNull uint8 = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tInteger
	tString
)

var typeBits = map[string]uint8{"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray, "number": tNumber, "integer": tInteger, "string": tString}

// ignored are the keywords the validator does not assert: annotations, and
// OpenAPI's own words it does not know. Formats it does not know are
// ignored too (quietFormats); those it knows are not compiled here.
var ignored = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true, "deprecated": true,
	"readOnly": true, "writeOnly": true, "$comment": true, "$defs": true,
	"example": true, "xml": true, "externalDocs": true, "discriminator": true,
}

var quietFormats = map[string]bool{"int32": true, "int64": true, "float": true, "double": true, "byte": true, "binary": true, "password": true}

// compileQuick compiles the schema doc (as sjs.UnmarshalJSON reads it), or
// returns nil when it has a keyword quick does not know.
func compileQuick(doc any) *quick {
	qc := quickCompiler{root: doc, refs: map[string]*quick{}}
	q := qc.node(doc)
	if qc.refused {
		return nil
	}
	return q
}

type quickCompiler struct {
	root    any
	refs    map[string]*quick
	refused bool
}

func (qc *quickCompiler) node(v any) *quick {
	q := &quick{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
	switch x := v.(type) {
	case bool:
		q.always = invalid
		if x {
			q.always = valid
		}
		return q
	case map[string]any:
		for k, val := range x {
			qc.keyword(q, k, val)
		}
	default:
		qc.refused = true
	}
	return q
}

func (qc *quickCompiler) list(v any) []*quick {
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		qc.refused = true
		return nil
	}
	out := make([]*quick, len(arr))
	for i, s := range arr {
		out[i] = qc.node(s)
	}
	return out
}

func (qc *quickCompiler) count(v any) int {
	n, ok := v.(json.Number)
	if !ok {
		qc.refused = true
		return -1
	}
	i, err := strconv.ParseInt(string(n), 10, 32)
	if err != nil || i < 0 {
		qc.refused = true
		return -1
	}
	return int(i)
}

func (qc *quickCompiler) bound(q *quick, v any, cmp func(got, n int64) bool) {
	n, ok := v.(json.Number)
	if !ok {
		qc.refused = true
		return
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		qc.refused = true
		return
	}
	q.bounds = append(q.bounds, bound{n: i, cmp: cmp})
}

func (qc *quickCompiler) keyword(q *quick, k string, v any) {
	switch {
	case ignored[k] || strings.HasPrefix(k, "x-"):
		return
	}
	switch k {
	case "type":
		switch t := v.(type) {
		case string:
			q.types = typeBits[t]
			if q.types == 0 {
				qc.refused = true
			}
		case []any:
			for _, e := range t {
				s, _ := e.(string)
				if typeBits[s] == 0 {
					qc.refused = true
				}
				q.types |= typeBits[s]
			}
			if len(t) == 0 {
				qc.refused = true
			}
		default:
			qc.refused = true
		}
	case "format":
		if s, ok := v.(string); !ok || !quietFormats[s] {
			qc.refused = true
		}
	case "$ref":
		s, _ := v.(string)
		q.ref = qc.resolve(s)
	case "properties":
		obj, ok := v.(map[string]any)
		if !ok {
			qc.refused = true
			return
		}
		q.props = make(map[string]*quick, len(obj))
		for name, s := range obj {
			q.props[name] = qc.node(s)
		}
	case "required":
		arr, ok := v.([]any)
		if !ok {
			qc.refused = true
			return
		}
		for _, e := range arr {
			s, ok := e.(string)
			if !ok {
				qc.refused = true
			}
			q.required = append(q.required, s)
		}
	case "additionalProperties":
		q.addl = qc.node(v)
	case "items":
		q.items = qc.node(v)
	case "enum":
		arr, ok := v.([]any)
		if !ok {
			qc.refused = true
			return
		}
		q.enum, q.hasEnum = arr, true
	case "const":
		q.enum, q.hasEnum = []any{v}, true
	case "not":
		q.not = qc.node(v)
	case "allOf":
		q.allOf = qc.list(v)
	case "anyOf":
		q.anyOf = qc.list(v)
	case "oneOf":
		q.oneOf = qc.list(v)
	case "minLength":
		q.minLen = qc.count(v)
	case "maxLength":
		q.maxLen = qc.count(v)
	case "minItems":
		q.minItems = qc.count(v)
	case "maxItems":
		q.maxItems = qc.count(v)
	case "minProperties":
		q.minProps = qc.count(v)
	case "maxProperties":
		q.maxProps = qc.count(v)
	case "minimum":
		qc.bound(q, v, func(got, n int64) bool { return got >= n })
	case "maximum":
		qc.bound(q, v, func(got, n int64) bool { return got <= n })
	case "exclusiveMinimum":
		qc.bound(q, v, func(got, n int64) bool { return got > n })
	case "exclusiveMaximum":
		qc.bound(q, v, func(got, n int64) bool { return got < n })
	default:
		qc.refused = true
	}
}

// resolve compiles a $ref to a schema of the same document: "#" or a JSON
// pointer below it, each once (a recursive schema refers to itself).
func (qc *quickCompiler) resolve(ref string) *quick {
	if q, ok := qc.refs[ref]; ok {
		return q
	}
	if ref != "#" && !strings.HasPrefix(ref, "#/") {
		qc.refused = true
		return nil
	}
	cur := qc.root
	for _, seg := range strings.Split(strings.TrimPrefix(ref[1:], "/"), "/") {
		if ref == "#" {
			break
		}
		if strings.Contains(seg, "%") {
			qc.refused = true
			return nil
		}
		seg = strings.NewReplacer("~1", "/", "~0", "~").Replace(seg)
		m, ok := cur.(map[string]any)
		if !ok {
			qc.refused = true
			return nil
		}
		if cur, ok = m[seg]; !ok {
			qc.refused = true
			return nil
		}
	}
	q := &quick{}
	qc.refs[ref] = q
	*q = *qc.node(cur)
	return q
}

// maxDepth bounds the schemas quick follows into for one instance; past
// it, the validator decides.
const maxDepth = 64

// check says whether inst is valid against q: valid only when it is.
func (q *quick) check(inst any, depth int) verdict {
	if q.always != unknown {
		return q.always
	}
	if depth > maxDepth {
		return unknown
	}
	out := valid
	and := func(v verdict) bool { // false: the verdict is invalid
		if v == invalid {
			out = invalid
			return false
		}
		if v == unknown {
			out = unknown
		}
		return true
	}
	if q.types != 0 && !and(q.typeOf(inst)) {
		return invalid
	}
	if q.hasEnum {
		in := invalid
		for _, e := range q.enum {
			switch equal(inst, e) {
			case valid:
				in = valid
			case unknown:
				if in == invalid {
					in = unknown
				}
			}
			if in == valid {
				break
			}
		}
		if !and(in) {
			return invalid
		}
	}
	switch x := inst.(type) {
	case string:
		if q.minLen >= 0 || q.maxLen >= 0 {
			n := utf8.RuneCountInString(x)
			if (q.minLen >= 0 && n < q.minLen) || (q.maxLen >= 0 && n > q.maxLen) {
				return invalid
			}
		}
	case json.Number:
		if len(q.bounds) > 0 {
			n, err := strconv.ParseInt(string(x), 10, 64)
			if err != nil {
				out = unknown
				break
			}
			for _, b := range q.bounds {
				if !b.cmp(n, b.n) {
					return invalid
				}
			}
		}
	case []any:
		if (q.minItems >= 0 && len(x) < q.minItems) || (q.maxItems >= 0 && len(x) > q.maxItems) {
			return invalid
		}
		if q.items != nil {
			for _, e := range x {
				if !and(q.items.check(e, depth+1)) {
					return invalid
				}
			}
		}
	case map[string]any:
		if (q.minProps >= 0 && len(x) < q.minProps) || (q.maxProps >= 0 && len(x) > q.maxProps) {
			return invalid
		}
		for _, r := range q.required {
			if _, ok := x[r]; !ok {
				return invalid
			}
		}
		for k, e := range x {
			s, ok := q.props[k]
			if !ok {
				s = q.addl
			}
			if s != nil && !and(s.check(e, depth+1)) {
				return invalid
			}
		}
	}
	if q.ref != nil && !and(q.ref.check(inst, depth+1)) {
		return invalid
	}
	for _, s := range q.allOf {
		if !and(s.check(inst, depth+1)) {
			return invalid
		}
	}
	if q.anyOf != nil {
		some := invalid
		for _, s := range q.anyOf {
			switch s.check(inst, depth+1) {
			case valid:
				some = valid
			case unknown:
				if some == invalid {
					some = unknown
				}
			}
			if some == valid {
				break
			}
		}
		if !and(some) {
			return invalid
		}
	}
	if q.oneOf != nil {
		n, undecided := 0, false
		for _, s := range q.oneOf {
			switch s.check(inst, depth+1) {
			case valid:
				n++
			case unknown:
				undecided = true
			}
		}
		switch {
		case n > 1:
			return invalid
		case undecided:
			out = unknown
		case n == 0:
			return invalid
		}
	}
	if q.not != nil {
		switch q.not.check(inst, depth+1) {
		case valid:
			return invalid
		case unknown:
			out = unknown
		}
	}
	return out
}

// typeOf says whether inst is of one of q's types.
func (q *quick) typeOf(inst any) verdict {
	var t uint8
	switch x := inst.(type) {
	case nil:
		t = tNull
	case bool:
		t = tBoolean
	case string:
		t = tString
	case []any:
		t = tArray
	case map[string]any:
		t = tObject
	case json.Number:
		if q.types&tNumber != 0 {
			return valid
		}
		if q.types&tInteger == 0 {
			return invalid
		}
		if _, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return valid
		}
		return unknown // 1.0, 1e3, 2^64: the validator knows
	default:
		return unknown
	}
	if q.types&t != 0 {
		return valid
	}
	return invalid
}

// equal says whether two JSON values are equal, as the validator compares
// them (numbers by value).
func equal(a, b any) verdict {
	switch x := a.(type) {
	case nil:
		if b == nil {
			return valid
		}
	case bool:
		if y, ok := b.(bool); ok && x == y {
			return valid
		}
	case string:
		if y, ok := b.(string); ok && x == y {
			return valid
		}
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return invalid
		}
		if x == y {
			return valid
		}
		i, err1 := strconv.ParseInt(string(x), 10, 64)
		j, err2 := strconv.ParseInt(string(y), 10, 64)
		if err1 != nil || err2 != nil {
			return unknown
		}
		if i == j {
			return valid
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return invalid
		}
		out := valid
		for i := range x {
			switch equal(x[i], y[i]) {
			case invalid:
				return invalid
			case unknown:
				out = unknown
			}
		}
		return out
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return invalid
		}
		out := valid
		for k, e := range x {
			f, ok := y[k]
			if !ok {
				return invalid
			}
			switch equal(e, f) {
			case invalid:
				return invalid
			case unknown:
				out = unknown
			}
		}
		return out
	default:
		return unknown
	}
	return invalid
}

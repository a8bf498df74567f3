package mcpreflect

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"sync"

	"github.com/invopop/jsonschema"
)

// An input schema states the range of each Go integer type and of float32,
// so a value the schema accepts always fits the field: int64 publishes -2^63
// and 2^63-1, uint8 0 and 255, float32 ±3.4028235e38 (the largest finite
// value, as Go prints it shortest: every number up to it rounds to a finite
// float32). A float64 field publishes no range: a JSON number beyond
// ±1.7976931348623157e308 is refused when decoded, as any JSON decoder into
// a float64 refuses it, with the rule "range" (the one divergence from the
// published schema, documented in docs/tags.md). A float field takes the
// nearest float to the number sent, so 0.1 is stored as the float nearest
// 0.1 and 1e-400 as 0; only the range is refused. An output schema states
// no range at all: the server writes the result, and its type already
// holds every value it can write.

// typeRange returns the smallest and largest values of the number kind k, as
// published.
func typeRange(k reflect.Kind) (lo, hi string) {
	switch k {
	case reflect.Float32:
		return "-3.4028235e38", "3.4028235e38"
	case reflect.Float64:
		return "-1.7976931348623157e308", "1.7976931348623157e308"
	case reflect.Int:
		return strconv.Itoa(math.MinInt), strconv.Itoa(math.MaxInt)
	case reflect.Int8:
		return "-128", "127"
	case reflect.Int16:
		return "-32768", "32767"
	case reflect.Int32:
		return "-2147483648", "2147483647"
	case reflect.Int64:
		return "-9223372036854775808", "9223372036854775807"
	case reflect.Uint:
		return "0", strconv.FormatUint(uint64(math.MaxUint), 10)
	case reflect.Uint8:
		return "0", "255"
	case reflect.Uint16:
		return "0", "65535"
	case reflect.Uint32:
		return "0", "4294967295"
	case reflect.Uint64:
		return "0", "18446744073709551615"
	case reflect.Uintptr:
		return "0", strconv.FormatUint(uint64(^uintptr(0)), 10)
	}
	return "", ""
}

// numberSchema is the schema of a Go number of kind k: an input's range
// (none for float64), no range for an output (see above).
func numberSchema(k reflect.Kind, output bool) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "integer"}
	if k == reflect.Float32 || k == reflect.Float64 {
		s.Type = "number"
	}
	if output || k == reflect.Float64 {
		return s
	}
	lo, hi := typeRange(k)
	s.Minimum, s.Maximum = json.Number(lo), json.Number(hi)
	return s
}

// clampToType merges the bounds of s with the range of number type t: a
// bound wider than the type (validate:"max=1000" on an int8, minimum=-5 on
// a uint) is narrowed to the type's range, and the type's own minimum or
// maximum is left out where an exclusive bound within the range makes it
// redundant (validate:"gt=0" publishes exclusiveMinimum 0 alone).
func clampToType(s *jsonschema.Schema, t reflect.Type) {
	lo, hi := typeRange(baseType(t).Kind())
	if lo == "" {
		return
	}
	cmp := func(a json.Number, b string) int { return cmpDec(parseDec([]byte(a)), parseDec([]byte(b))) }
	if s.Minimum != "" && validNumber(string(s.Minimum)) && cmp(s.Minimum, lo) < 0 {
		s.Minimum = json.Number(lo)
	}
	if s.Maximum != "" && validNumber(string(s.Maximum)) && cmp(s.Maximum, hi) > 0 {
		s.Maximum = json.Number(hi)
	}
	if s.Minimum == json.Number(lo) && s.ExclusiveMinimum != "" && validNumber(string(s.ExclusiveMinimum)) && cmp(s.ExclusiveMinimum, lo) >= 0 {
		s.Minimum = ""
	}
	if s.Maximum == json.Number(hi) && s.ExclusiveMaximum != "" && validNumber(string(s.ExclusiveMaximum)) && cmp(s.ExclusiveMaximum, hi) <= 0 {
		s.Maximum = ""
	}
}

// numRange is the range of a Go number kind, as the decoders check it: the
// same bounds, with the same messages, as the published minimum and maximum.
type numRange struct {
	lo, hi   numBound
	ilo      int64  // integers: the range as Go integers
	ihi      uint64 //
	unsigned bool
	float64  bool // the range is not published
}

// numRanges hold each numeric kind's range, built at the kind's first
// plan (not at start: a server whose tools take no integers builds no
// integer range).
var numRanges [reflect.Float64 + 1]struct {
	once sync.Once
	r    *numRange
}

// rangeOf is the range of the numeric kind k; nil for any other kind.
func rangeOf(k reflect.Kind) *numRange {
	if k >= reflect.Kind(len(numRanges)) {
		return nil
	}
	lo, hi := typeRange(k)
	if lo == "" {
		return nil
	}
	e := &numRanges[k]
	e.once.Do(func() {
		r := &numRange{unsigned: isUintKind(k), float64: k == reflect.Float64}
		r.lo, _ = newBound(lo)
		r.hi, _ = newBound(hi)
		if !r.unsigned {
			r.ilo, _ = strconv.ParseInt(lo, 10, 64)
		}
		r.ihi, _ = strconv.ParseUint(hi, 10, 64)
		e.r = r
	})
	return e.r
}

// check reports v outside the range as the published minimum or maximum
// would, unless chk checks a bound of its own on that side (a tighter one:
// clampToType keeps the tag's bounds within the range). It reports whether
// v is within the range.
func (r *numRange) check(d *decodeState, chk *numCheck, v *numVal, below, above bool) bool {
	if r.float64 && (below && (chk == nil || chk.min == nil && chk.exMin == nil) || above && (chk == nil || chk.max == nil && chk.exMax == nil)) {
		// Unpublished (see above): a rule of its own.
		d.violate("range", "must be within ±"+r.hi.text+" (a float64), got "+string(v.lit))
		return false
	}
	if below && (chk == nil || chk.min == nil && chk.exMin == nil) {
		d.violate("minimum", "must be at least "+r.lo.text+", got "+string(v.lit))
	}
	if above && (chk == nil || chk.max == nil && chk.exMax == nil) {
		d.violate("maximum", "must be at most "+r.hi.text+", got "+string(v.lit))
	}
	return !below && !above
}

// floatBounds reports whether v is below or above the float range: a cheap
// float comparison decides unless v is at its edge.
func (r *numRange) floatBounds(v *numVal) (below, above bool) {
	if v.f > -r.hi.f && v.f < r.hi.f {
		return false, false
	}
	return v.cmp(&r.lo) < 0, v.cmp(&r.hi) > 0
}

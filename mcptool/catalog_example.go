package mcptool

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/schemaref"
	"github.com/mcpgen/mcpgen/mcptool/internal/patgen"
)

// exampleValue is a value of schema s (property name, "" for the root) for
// the catalogue's example call: the schema's first example, its default,
// const or first enum value, else a value a person would write — a small
// round number inside the bounds rather than a bound, a string that reads
// as what it names ("example title") within minLength, maxLength and
// pattern.
func exampleValue(root, s map[string]any, name string, depth int) any {
	s = schemaref.Resolve(root, s)
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	if d, ok := s["default"]; ok {
		return d
	}
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	typ, _ := s["type"].(string)
	if types, ok := s["type"].([]any); ok {
		for _, t := range types {
			if t != "null" {
				typ, _ = t.(string)
				break
			}
		}
	}
	switch typ {
	case "object":
		out := map[string]any{}
		if depth > 8 {
			return out
		}
		props, _ := s["properties"].(map[string]any)
		rs, _ := s["required"].([]any)
		for _, r := range rs {
			if ps, ok := props[fmt.Sprint(r)].(map[string]any); ok {
				out[fmt.Sprint(r)] = exampleValue(root, ps, fmt.Sprint(r), depth+1)
			}
		}
		return out
	case "array":
		// One item shows the shape, unless the bounds ask for more or none.
		n := 1
		if m, ok := numberKeyword(s, "minItems"); ok {
			n = max(n, int(m))
		}
		if m, ok := numberKeyword(s, "maxItems"); ok {
			n = min(n, int(m))
		}
		items, _ := s["items"].(map[string]any)
		out := make([]any, 0, n)
		for i := 0; i < n; i++ {
			out = append(out, exampleValue(root, items, singular(name), depth+1))
		}
		return out
	case "integer", "number":
		return exampleNumber(s, typ == "integer")
	case "boolean":
		return true
	case "string":
		return exampleString(s, name)
	}
	return map[string]any{}
}

// numberKeyword is the numeric keyword key of s.
func numberKeyword(s map[string]any, key string) (float64, bool) {
	n, ok := s[key].(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

// exampleNumber is the first of 1, 2, 5, 10, 20, 50, … (and their
// negatives, and 0.5, 0.1, … for numbers) that the bounds and multipleOf
// allow; else the middle of the range; else a bound.
func exampleNumber(s map[string]any, integer bool) any {
	lo, hasLo := numberKeyword(s, "minimum")
	hi, hasHi := numberKeyword(s, "maximum")
	xlo, hasXlo := numberKeyword(s, "exclusiveMinimum")
	xhi, hasXhi := numberKeyword(s, "exclusiveMaximum")
	mult, hasMult := numberKeyword(s, "multipleOf")
	ok := func(v float64) bool {
		switch {
		case hasLo && v < lo, hasHi && v > hi, hasXlo && v <= xlo, hasXhi && v >= xhi:
			return false
		case integer && v != math.Trunc(v):
			return false
		case hasMult && mult > 0:
			q := v / mult
			return math.Abs(q-math.Round(q)) < 1e-9
		}
		return true
	}
	var cands []float64
	for p := 1.0; p <= 1e15; p *= 10 {
		cands = append(cands, p, 2*p, 5*p)
	}
	if hasMult && mult > 0 {
		cands = append([]float64{mult}, cands...)
	}
	if !integer {
		cands = append(cands, 0.5, 0.2, 0.1, 0.05, 0.01)
	}
	for _, c := range cands {
		if ok(c) {
			return jsonNumber(c)
		}
	}
	for _, c := range append([]float64{0}, cands...) {
		if ok(-c) {
			return jsonNumber(-c)
		}
	}
	if hasLo && hasHi {
		mid := lo + (hi-lo)/2
		if integer {
			mid = math.Floor(mid)
		}
		if ok(mid) {
			return jsonNumber(mid)
		}
	}
	for _, b := range []struct {
		v  float64
		ok bool
	}{{lo, hasLo}, {hi, hasHi}} {
		if b.ok {
			return jsonNumber(b.v)
		}
	}
	return 1
}

func jsonNumber(f float64) json.Number {
	return json.Number(fmt.Sprint(f))
}

// exampleFormats are samples of the formats a schema may name.
var exampleFormats = map[string]string{
	"date-time": "2026-01-02T15:04:05Z",
	"date":      "2026-01-02",
	"time":      "15:04:05Z",
	"duration":  "PT1H",
	"email":     "ada@example.com",
	"uri":       "https://example.com",
	"uuid":      "123e4567-e89b-12d3-a456-426614174000",
	"ipv4":      "192.0.2.1",
	"ipv6":      "2001:db8::1",
	"hostname":  "example.com",
}

// exampleString is a format's sample, a string matching the pattern, or
// "example <name>" fitted to the length bounds.
func exampleString(s map[string]any, name string) any {
	if f, ok := s["format"].(string); ok {
		if v, ok := exampleFormats[f]; ok {
			return v
		}
	}
	minLen, maxLen := 0, -1
	if m, ok := numberKeyword(s, "minLength"); ok {
		minLen = int(m)
	}
	if m, ok := numberKeyword(s, "maxLength"); ok {
		maxLen = int(m)
	}
	if p, ok := s["pattern"].(string); ok {
		if v, ok := fromPattern(p); ok {
			return v
		}
	}
	v := "example"
	if words := humanize(name); words != "" {
		v += " " + words
	}
	for utf8.RuneCountInString(v) < minLen {
		v += " text"
	}
	if maxLen >= 0 && utf8.RuneCountInString(v) > maxLen {
		v = string([]rune(v)[:maxLen])
		v = strings.TrimRight(v, " ")
		for utf8.RuneCountInString(v) < minLen {
			v += "x"
		}
	}
	return v
}

// humanize spells a property name as words: "file_path" and "filePath"
// are "file path".
func humanize(name string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			b.WriteByte(' ')
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
		prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// singular drops a plural "s" from an array property's name, for its items.
func singular(name string) string {
	if strings.HasSuffix(name, "ss") || len(name) < 3 {
		return name
	}
	return strings.TrimSuffix(name, "s")
}

// fromPattern is the shortest plain string the pattern matches, for the
// usual shapes of patterns (literals, classes, repeats, alternations); ok
// is false when it cannot follow the pattern or the result does not match.
func fromPattern(p string) (string, bool) {
	v, ok := patgen.String(p, plainChoices{})
	if !ok {
		return "", false
	}
	m, err := regexp.Compile(p)
	if err != nil || !m.MatchString(v) {
		return "", false
	}
	return v, true
}

// plainChoices are the choices a person would make in a pattern: the
// fewest repeats, the first alternative, a letter or digit of a class.
type plainChoices struct{}

// Class is "a", "A" or "0" when the class has one, else its first rune.
func (plainChoices) Class(ranges []rune) rune {
	for i := 0; i+1 < len(ranges); i += 2 {
		for _, r := range []rune{'a', 'A', '0'} {
			if ranges[i] <= r && r <= ranges[i+1] {
				return r
			}
		}
	}
	return ranges[0]
}

func (plainChoices) Repeat(lo, _ int) int { return lo }

func (plainChoices) Alternate(int) int { return 0 }

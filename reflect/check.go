package mcpreflect

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/invopop/jsonschema"
)

// formats are the JSON Schema formats mcpgen checks at call time.
var formats = map[string]func(string) bool{
	"date-time": func(s string) bool {
		_, err := parseDateTime(s)
		return err == nil
	},
	"date":          func(s string) bool { _, err := time.Parse(time.DateOnly, s); return err == nil },
	"time":          fullTimeRe.MatchString,
	"email":         func(s string) bool { return validate().Var(s, "email") == nil },
	"hostname":      func(s string) bool { return validate().Var(s, "hostname_rfc1123") == nil },
	"ipv4":          func(s string) bool { return validate().Var(s, "ipv4") == nil },
	"ipv6":          func(s string) bool { return validate().Var(s, "ipv6") == nil },
	"uuid":          func(s string) bool { return validate().Var(s, "uuid") == nil },
	"uri":           func(s string) bool { u, err := url.Parse(s); return err == nil && u.Scheme != "" },
	"uri-reference": func(s string) bool { _, err := url.Parse(s); return err == nil },
}

// fullTimeRe is RFC 3339's full-time: two-digit fields, an offset, no leap
// second (time.Time cannot hold one).
var fullTimeRe = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$`)

// parseDateTime parses an RFC 3339 date-time. time.Parse alone is too lax
// (it takes a one-digit hour and a +24:00 offset) and too strict (RFC 3339
// allows a lowercase "t" and "z").
func parseDateTime(s string) (time.Time, error) {
	if len(s) < 11 || (s[10] != 'T' && s[10] != 't') || !fullTimeRe.MatchString(s[11:]) {
		return time.Time{}, fmt.Errorf("not an RFC 3339 date-time")
	}
	return time.Parse(time.RFC3339Nano, s[:10]+"T"+strings.ToUpper(s[11:]))
}

func formatNames() []string {
	var out []string
	for k := range formats {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// strCheck holds the string keywords of one schema node.
type strCheck struct {
	minLen, maxLen int // -1 when absent
	re             *regexp.Regexp
	format         string
	formatFn       func(string) bool
	enum           map[string]struct{}
	enumText       string
	constv         *string
}

func compileStrCheck(s *jsonschema.Schema) (*strCheck, error) {
	if s == nil {
		return nil, nil
	}
	c := strCheck{minLen: -1, maxLen: -1} // on the stack until it is known to be needed
	used := false
	if s.MinLength != nil {
		c.minLen, used = int(*s.MinLength), true
	}
	if s.MaxLength != nil {
		c.maxLen, used = int(*s.MaxLength), true
	}
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", s.Pattern, err)
		}
		c.re, used = re, true
	}
	if s.Format != "" {
		fn, ok := formats[s.Format]
		if !ok {
			return nil, fmt.Errorf("unknown format %q", s.Format)
		}
		c.format, c.formatFn, used = s.Format, fn, true
	}
	if len(s.Enum) > 0 {
		c.enum = map[string]struct{}{}
		var parts []string
		for _, e := range s.Enum {
			str, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("enum value %v is not a string", e)
			}
			c.enum[str] = struct{}{}
			parts = append(parts, strconv.Quote(str))
		}
		c.enumText, used = strings.Join(parts, ", "), true
	}
	if s.Const != nil {
		str, ok := s.Const.(string)
		if !ok {
			return nil, fmt.Errorf("const %v is not a string", s.Const)
		}
		c.constv, used = &str, true
	}
	if !used {
		return nil, nil
	}
	out := c
	return &out, nil
}

func (c *strCheck) check(d *decodeState, s string) {
	if c == nil {
		return
	}
	if c.minLen >= 0 || c.maxLen >= 0 {
		n := utf8.RuneCountInString(s)
		if c.minLen >= 0 && n < c.minLen {
			d.violate("minLength", fmt.Sprintf("must be at least %d %s long, got %d", c.minLen, plural(c.minLen, "character", "characters"), n))
		}
		if c.maxLen >= 0 && n > c.maxLen {
			d.violate("maxLength", fmt.Sprintf("must be at most %d %s long, got %d", c.maxLen, plural(c.maxLen, "character", "characters"), n))
		}
	}
	if c.re != nil && !c.re.MatchString(s) {
		d.violate("pattern", fmt.Sprintf("must match the pattern %s", c.re.String()))
	}
	if c.formatFn != nil && !c.formatFn(s) {
		d.violate("format", fmt.Sprintf("must be a valid %s", c.format))
	}
	if c.enum != nil {
		if _, ok := c.enum[s]; !ok {
			d.violate("enum", fmt.Sprintf("must be one of %s, got %s", c.enumText, quoteShort(s)))
		}
	}
	if c.constv != nil && s != *c.constv {
		d.violate("const", fmt.Sprintf("must be %s", strconv.Quote(*c.constv)))
	}
}

func quoteShort(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return strconv.Quote(s)
}

// numCheck holds the numeric keywords of one schema node.
type numCheck struct {
	min, max, exMin, exMax *float64
	minT, maxT, exMinT     string
	exMaxT                 string
	multipleOf             float64
	multT                  string
	enum                   []float64
	enumText               string
	constv                 *float64
}

func compileNumCheck(s *jsonschema.Schema) (*numCheck, error) {
	if s == nil {
		return nil, nil
	}
	var c numCheck // on the stack until it is known to be needed
	used := false
	num := func(n json.Number) (*float64, error) {
		f, err := n.Float64()
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", n)
		}
		return &f, nil
	}
	var err error
	if s.Minimum != "" {
		if c.min, err = num(s.Minimum); err != nil {
			return nil, err
		}
		c.minT, used = string(s.Minimum), true
	}
	if s.Maximum != "" {
		if c.max, err = num(s.Maximum); err != nil {
			return nil, err
		}
		c.maxT, used = string(s.Maximum), true
	}
	if s.ExclusiveMinimum != "" {
		if c.exMin, err = num(s.ExclusiveMinimum); err != nil {
			return nil, err
		}
		c.exMinT, used = string(s.ExclusiveMinimum), true
	}
	if s.ExclusiveMaximum != "" {
		if c.exMax, err = num(s.ExclusiveMaximum); err != nil {
			return nil, err
		}
		c.exMaxT, used = string(s.ExclusiveMaximum), true
	}
	if s.MultipleOf != "" {
		m, err := num(s.MultipleOf)
		if err != nil {
			return nil, err
		}
		c.multipleOf, c.multT, used = *m, string(s.MultipleOf), true
	}
	if len(s.Enum) > 0 {
		var parts []string
		for _, e := range s.Enum {
			f, ok := toFloat(e)
			if !ok {
				return nil, fmt.Errorf("enum value %v is not a number", e)
			}
			c.enum = append(c.enum, f)
			parts = append(parts, fmt.Sprint(e))
		}
		c.enumText, used = strings.Join(parts, ", "), true
	}
	if s.Const != nil {
		f, ok := toFloat(s.Const)
		if !ok {
			return nil, fmt.Errorf("const %v is not a number", s.Const)
		}
		c.constv, used = &f, true
	}
	if !used {
		return nil, nil
	}
	out := c
	return &out, nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func (c *numCheck) check(d *decodeState, v float64, lit []byte) {
	if c == nil {
		return
	}
	if c.min != nil && v < *c.min {
		d.violate("minimum", fmt.Sprintf("must be at least %s, got %s", c.minT, lit))
	}
	if c.max != nil && v > *c.max {
		d.violate("maximum", fmt.Sprintf("must be at most %s, got %s", c.maxT, lit))
	}
	if c.exMin != nil && v <= *c.exMin {
		d.violate("exclusiveMinimum", fmt.Sprintf("must be greater than %s, got %s", c.exMinT, lit))
	}
	if c.exMax != nil && v >= *c.exMax {
		d.violate("exclusiveMaximum", fmt.Sprintf("must be less than %s, got %s", c.exMaxT, lit))
	}
	if c.multipleOf != 0 {
		q := v / c.multipleOf
		if math.IsInf(q, 0) || math.Abs(q-math.Round(q)) > 1e-9*math.Max(1, math.Abs(q)) {
			d.violate("multipleOf", fmt.Sprintf("must be a multiple of %s, got %s", c.multT, lit))
		}
	}
	if c.enum != nil && !slices.Contains(c.enum, v) {
		d.violate("enum", fmt.Sprintf("must be one of %s, got %s", c.enumText, lit))
	}
	if c.constv != nil && v != *c.constv {
		d.violate("const", fmt.Sprintf("must be %v, got %s", *c.constv, lit))
	}
}

// countCheck holds minItems/maxItems or minProperties/maxProperties.
type countCheck struct {
	min, max   int // -1 when absent
	unique     bool
	minK, maxK string
	unit       string
}

func compileCountCheck(minv, maxv *uint64, unique bool, items bool) *countCheck {
	if minv == nil && maxv == nil && !unique {
		return nil
	}
	c := &countCheck{min: -1, max: -1, unique: unique, minK: "minItems", maxK: "maxItems", unit: "items"}
	if !items {
		c.minK, c.maxK, c.unit = "minProperties", "maxProperties", "properties"
	}
	if minv != nil {
		c.min = int(*minv)
	}
	if maxv != nil {
		c.max = int(*maxv)
	}
	return c
}

func (c *countCheck) check(d *decodeState, n int) {
	if c == nil {
		return
	}
	if c.min >= 0 && n < c.min {
		d.violate(c.minK, fmt.Sprintf("must have at least %d %s, got %d", c.min, c.noun(c.min), n))
	}
	if c.max >= 0 && n > c.max {
		d.violate(c.maxK, fmt.Sprintf("must have at most %d %s, got %d", c.max, c.noun(c.max), n))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (c *countCheck) noun(n int) string {
	if n == 1 {
		return map[string]string{"items": "item", "properties": "property"}[c.unit]
	}
	return c.unit
}

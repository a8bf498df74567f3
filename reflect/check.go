package mcpreflect

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/invopop/jsonschema"
)

// formats are the JSON Schema formats mcpgen checks at call time.
var formats = map[string]func(string) bool{
	"date-time": func(s string) bool {
		_, err := parseDateTime(s)
		return err == nil || isLeapSecond(s)
	},
	"date":          func(s string) bool { _, err := time.Parse(time.DateOnly, s); return err == nil },
	"time":          func(s string) bool { return fullTimeRe().MatchString(s) || isLeapSecond("2016-12-31T"+s) },
	"email":         isEmail,
	"hostname":      func(s string) bool { return validate().Var(s, "hostname_rfc1123") == nil },
	"ipv4":          func(s string) bool { return validate().Var(s, "ipv4") == nil },
	"ipv6":          isIPv6,
	"uuid":          func(s string) bool { return validate().Var(s, "uuid") == nil },
	"uri":           func(s string) bool { u, ok := parseURI(s); return ok && u.Scheme != "" },
	"uri-reference": func(s string) bool { _, ok := parseURI(s); return ok && !strings.Contains(s, `\`) },
}

// isEmail reports whether s is an RFC 5321 mailbox, as JSON Schema's
// "email" means it: ASCII (a non-ASCII address is "idn-email"), in
// validator's email form.
func isEmail(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return validate().Var(s, "email") == nil
}

// isIPv6 reports whether s is an IPv6 address in RFC 4291's text form,
// IPv4-mapped ones included, without a zone.
func isIPv6(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && strings.Contains(s, ":") && a.Zone() == ""
}

// parseURI parses an RFC 3986 URI or relative reference. url.Parse alone
// takes a host like [1::2::3] or an unbracketed IPv6 address.
func parseURI(s string) (*url.URL, bool) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, false
	}
	if h := u.Hostname(); strings.Contains(h, ":") && (!strings.Contains(u.Host, "[") || !isIPv6(h)) {
		return nil, false
	}
	return u, true
}

// fullTimeRe is RFC 3339's full-time: two-digit fields, an offset, no leap
// second (time.Time cannot hold one).
// Compiled at its first use, not at package setup, like every regexp a
// server does not need until a schema asks for it.
var fullTimeRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$`)
})

// isLeapSecond reports whether s is a valid RFC 3339 date-time whose second
// is 60, at 23:59 UTC. A date-time string may hold one; a time.Time cannot,
// so a time.Time field refuses it.
func isLeapSecond(s string) bool {
	if len(s) < 20 || s[17:19] != "60" {
		return false
	}
	t, err := parseDateTime(s[:17] + "59" + s[19:])
	if err != nil {
		return false
	}
	u := t.UTC()
	return u.Hour() == 23 && u.Minute() == 59
}

// parseDateTime parses an RFC 3339 date-time. time.Parse alone is too lax
// (it takes a one-digit hour and a +24:00 offset) and too strict (RFC 3339
// allows a lowercase "t" and "z").
func parseDateTime(s string) (time.Time, error) {
	if len(s) < 11 || (s[10] != 'T' && s[10] != 't') || !fullTimeRe().MatchString(s[11:]) {
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

// numCheck holds the numeric keywords of one schema node, compared exactly
// (see number.go).
type numCheck struct {
	min, max, exMin, exMax *numBound
	multipleOf             *numBound
	enum                   []numBound
	enumText               string
	constv                 *numBound
}

// compileNumCheck compiles the numeric keywords of s, for a Go number of
// kind k. A minimum or maximum that is k's own range is left to the decoder,
// which checks it anyway (numRange): most numbers then need no numCheck.
func compileNumCheck(s *jsonschema.Schema, k reflect.Kind) (*numCheck, error) {
	if s == nil {
		return nil, nil
	}
	lo, hi := typeRange(k)
	var c numCheck // on the stack until it is known to be needed
	used := false
	bound := func(n json.Number) (*numBound, error) {
		b, ok := newBound(string(n))
		if !ok {
			return nil, fmt.Errorf("%q is not a number", n)
		}
		used = true
		return &b, nil
	}
	var err error
	if s.Minimum != "" && string(s.Minimum) != lo {
		if c.min, err = bound(s.Minimum); err != nil {
			return nil, err
		}
	}
	if s.Maximum != "" && string(s.Maximum) != hi {
		if c.max, err = bound(s.Maximum); err != nil {
			return nil, err
		}
	}
	if s.ExclusiveMinimum != "" {
		if c.exMin, err = bound(s.ExclusiveMinimum); err != nil {
			return nil, err
		}
	}
	if s.ExclusiveMaximum != "" {
		if c.exMax, err = bound(s.ExclusiveMaximum); err != nil {
			return nil, err
		}
	}
	if s.MultipleOf != "" {
		if c.multipleOf, err = bound(s.MultipleOf); err != nil {
			return nil, err
		}
		if c.multipleOf.dec.isZero() || c.multipleOf.dec.neg {
			return nil, fmt.Errorf("multipleOf %s is not greater than 0", s.MultipleOf)
		}
	}
	if len(s.Enum) > 0 {
		var parts []string
		for _, e := range s.Enum {
			b, ok := numValue(e)
			if !ok {
				return nil, fmt.Errorf("enum value %v is not a number", e)
			}
			c.enum = append(c.enum, b)
			parts = append(parts, b.text)
		}
		c.enumText, used = strings.Join(parts, ", "), true
	}
	if s.Const != nil {
		b, ok := numValue(s.Const)
		if !ok {
			return nil, fmt.Errorf("const %v is not a number", s.Const)
		}
		c.constv, used = &b, true
	}
	if !used {
		return nil, nil
	}
	out := c
	return &out, nil
}

// numValue reads a number of the schema (an enum value, a const) as it is
// published.
func numValue(v any) (numBound, bool) {
	switch v.(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, json.Number:
	default:
		return numBound{}, false
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return numBound{}, false
	}
	return newBound(string(raw))
}

// check reports the keywords v breaks. iv is v as an int64 when ivOK.
func (c *numCheck) check(d *decodeState, v *numVal, iv int64, ivOK bool) {
	if c == nil {
		return
	}
	if c.min != nil && v.cmp(c.min) < 0 {
		d.violate("minimum", "must be at least "+c.min.text+", got "+string(v.lit))
	}
	if c.max != nil && v.cmp(c.max) > 0 {
		d.violate("maximum", "must be at most "+c.max.text+", got "+string(v.lit))
	}
	if c.exMin != nil && v.cmp(c.exMin) <= 0 {
		d.violate("exclusiveMinimum", "must be greater than "+c.exMin.text+", got "+string(v.lit))
	}
	if c.exMax != nil && v.cmp(c.exMax) >= 0 {
		d.violate("exclusiveMaximum", "must be less than "+c.exMax.text+", got "+string(v.lit))
	}
	if c.multipleOf != nil && !v.multipleOf(c.multipleOf, iv, ivOK) {
		d.violate("multipleOf", "must be a multiple of "+c.multipleOf.text+", got "+string(v.lit))
	}
	if c.enum != nil {
		found := false
		for i := range c.enum {
			if v.cmp(&c.enum[i]) == 0 {
				found = true
				break
			}
		}
		if !found {
			d.violate("enum", "must be one of "+c.enumText+", got "+string(v.lit))
		}
	}
	if c.constv != nil && v.cmp(c.constv) != 0 {
		d.violate("const", "must be "+c.constv.text+", got "+string(v.lit))
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

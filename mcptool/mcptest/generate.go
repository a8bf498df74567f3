package mcptest

import (
	"encoding/json"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/internal/schemaref"
	"github.com/mcpgen/mcpgen/mcptool/internal/patgen"
)

// The generator derives argument documents from a published inputSchema:
// valid ones of three shapes (typical, smallest, largest) and random mixes
// of them, then boundary values and near misses at every location of a
// typical document. It is approximate on purpose: an independent validator
// decides which documents are valid (see fuzzer.judge), so a value meant to
// be valid that is not is still a useful test case.

// mode is the shape of a generated value.
type mode int

const (
	typical mode = iota // middle of the ranges, some optional properties
	low                 // minimum values and lengths, required properties only
	high                // maximum values and lengths, every property
	mixed               // a random mode at every node
)

// maxDepth bounds the nesting of generated values (recursive types).
const maxDepth = 6

type generator struct {
	root map[string]any
	rng  *rand.Rand
}

// deleted marks a property a near miss removes.
type deleted struct{}

// edit replaces the value at loc (property names and array indexes).
type edit struct {
	loc []any
	val any
}

// resolve follows $ref to the schema it names: "#", or a JSON pointer into
// the document ("#/$defs/Name").
func (g *generator) resolve(s map[string]any) map[string]any {
	for range 32 {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		next, ok := schemaref.Lookup(g.root, ref)
		if !ok {
			return map[string]any{}
		}
		s = next
	}
	return s
}

func schemaAt(s map[string]any, key string) map[string]any {
	m, _ := s[key].(map[string]any)
	return m
}

// types returns the schema's types, guessing from its keywords when it
// has no "type".
func types(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, x := range t {
			if str, ok := x.(string); ok {
				out = append(out, str)
			}
		}
		return out
	}
	switch {
	case s["properties"] != nil || s["additionalProperties"] != nil || s["required"] != nil:
		return []string{"object"}
	case s["items"] != nil || s["prefixItems"] != nil:
		return []string{"array"}
	}
	return nil
}

// mainType is the first type that is not null.
func mainType(s map[string]any) string {
	for _, t := range types(s) {
		if t != "null" {
			return t
		}
	}
	if ts := types(s); len(ts) > 0 {
		return ts[0]
	}
	return ""
}

func (g *generator) pick(m mode) mode {
	if m == mixed {
		return mode(g.rng.IntN(3))
	}
	return m
}

// value generates a value of schema s.
func (g *generator) value(s map[string]any, m mode, depth int) any {
	s = g.resolve(s)
	if depth > 2*maxDepth {
		return nil // a recursive type that requires itself: give up here
	}
	orig := m // mixed stays mixed for the children
	random := m == mixed && g.rng.IntN(2) == 0
	m = g.pick(m)
	if c, ok := s["const"]; ok {
		return c
	}
	if orig == mixed && slices.Contains(types(s), "null") && g.rng.IntN(4) == 0 {
		return nil
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		switch m {
		case low:
			return e[0]
		case high:
			return e[len(e)-1]
		}
		return e[g.rng.IntN(len(e))]
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if branches, ok := s[key].([]any); ok && len(branches) > 0 {
			b, _ := branches[g.rng.IntN(len(branches))].(map[string]any)
			return g.value(b, orig, depth)
		}
	}
	if all, ok := s["allOf"].([]any); ok && len(all) > 0 {
		b, _ := all[0].(map[string]any)
		return g.value(b, orig, depth)
	}
	switch mainType(s) {
	case "object":
		return g.object(s, orig, depth)
	case "array":
		return g.array(s, orig, depth)
	case "string":
		return g.str(s, m)
	case "integer":
		return g.num(numBounds(s, true), m, random)
	case "number":
		return g.num(numBounds(s, false), m, random)
	case "boolean":
		return m == high
	case "null":
		return nil
	}
	return "any value"
}

func required(s map[string]any) []string {
	var out []string
	r, _ := s["required"].([]any)
	for _, x := range r {
		if str, ok := x.(string); ok {
			out = append(out, str)
		}
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (g *generator) object(s map[string]any, m mode, depth int) any {
	local := g.pick(m)
	obj := map[string]any{}
	props := schemaAt(s, "properties")
	req := required(s)
	for _, name := range sortedKeys(props) {
		in := slices.Contains(req, name)
		if !in && depth < maxDepth {
			switch local {
			case high:
				in = true
			case typical:
				in = g.rng.IntN(2) == 0
			}
		}
		if in {
			ps, _ := props[name].(map[string]any)
			obj[name] = g.value(ps, m, depth+1)
		}
	}
	if extra := schemaAt(s, "additionalProperties"); extra != nil && props == nil {
		n := g.count(s, "minProperties", "maxProperties", local, depth)
		for i := 0; len(obj) < n && i < 3*n+3; i++ {
			obj[g.key(s, i)] = g.value(extra, m, depth+1)
		}
	}
	return obj
}

// key is a property name for a map-like object, matching propertyNames.
func (g *generator) key(s map[string]any, i int) string {
	if pn := g.resolve(schemaAt(s, "propertyNames")); pn != nil {
		if v, ok := g.str(pn, mixed).(string); ok && v != "" {
			return v
		}
	}
	return "key" + strconv.Itoa(i+1)
}

// count is a length between the schema's bounds for mode m.
func (g *generator) count(s map[string]any, minKey, maxKey string, m mode, depth int) int {
	lo, hi := intKeyword(s, minKey, 0), intKeyword(s, maxKey, -1)
	n := lo
	switch {
	case depth >= maxDepth || m == low:
	case m == high:
		n = lo + 3
	default:
		n = max(lo, 1+g.rng.IntN(2))
	}
	if hi >= 0 && n > hi {
		n = hi
	}
	return n
}

func intKeyword(s map[string]any, key string, def int) int {
	f, ok := toFloat(s[key])
	if !ok {
		return def
	}
	return int(min(f, 1<<20))
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	}
	return 0, false
}

func (g *generator) array(s map[string]any, m mode, depth int) any {
	prefix, _ := s["prefixItems"].([]any)
	items := schemaAt(s, "items")
	n := g.count(s, "minItems", "maxItems", g.pick(m), depth)
	if items == nil {
		n = min(max(n, 0), len(prefix))
	}
	arr := []any{}
	unique := s["uniqueItems"] == true
	seen := map[string]bool{}
	for try := 0; len(arr) < n && try < 5*n+5; try++ {
		var is map[string]any
		if i := len(arr); i < len(prefix) {
			is, _ = prefix[i].(map[string]any)
		} else {
			is = items
		}
		im := m
		if try > 0 && unique {
			im = mixed
		}
		v := g.value(is, im, depth+1)
		if unique {
			b, _ := json.Marshal(v)
			if seen[string(b)] {
				continue
			}
			seen[string(b)] = true
		}
		arr = append(arr, v)
	}
	return arr
}

// formats holds a valid and an invalid sample of each format mcpgen
// publishes.
var formats = map[string][2]string{
	"email":                 {"ada@example.com", "ada.example.com"},
	"idn-email":             {"ada@example.com", "ada.example.com"},
	"uri":                   {"https://example.com/a?b=c", "not a uri"},
	"iri":                   {"https://example.com/a", "not an iri"},
	"uri-reference":         {"/a/b?c", "\\\\bad ref"},
	"uuid":                  {"8e2b4c1e-6c1a-4f5e-9d3b-2a1f0e9c7b6d", "8e2b4c1e-6c1a-4f5e-9d3b"},
	"date-time":             {"2024-02-29T13:45:00Z", "2024-02-30T25:61:00Z"},
	"date":                  {"2024-02-29", "2023-02-29"},
	"time":                  {"13:45:00Z", "25:00:00Z"},
	"duration":              {"P1DT2H", "1 day"},
	"ipv4":                  {"192.0.2.1", "256.0.0.1"},
	"ipv6":                  {"2001:db8::1", "2001:db8:::1"},
	"hostname":              {"example.com", "-bad-.example"},
	"idn-hostname":          {"example.com", "-bad-.example"},
	"regex":                 {"^a+$", "(unclosed"},
	"json-pointer":          {"/a/0", "a/0"},
	"relative-json-pointer": {"1/a", "/a"},
}

func (g *generator) str(s map[string]any, m mode) any {
	if f, ok := s["format"].(string); ok {
		if sample, ok := formats[f]; ok {
			return sample[0]
		}
	}
	if s["contentEncoding"] == "base64" {
		return "aGVsbG8="
	}
	lo, hi := intKeyword(s, "minLength", 0), intKeyword(s, "maxLength", -1)
	if p, ok := s["pattern"].(string); ok {
		// Try a few matches for one within the length bounds.
		for try := range 16 {
			v, ok := g.fromPattern(p, m)
			if !ok {
				break
			}
			if n := utf8.RuneCountInString(v); n >= lo && (hi < 0 || n <= hi) || try == 15 {
				return v
			}
			m = mixed
		}
	}
	n := 4
	switch m {
	case low:
		n = lo
	case high:
		n = lo + 40
		if hi >= 0 {
			n = min(hi, 4096)
		}
	}
	n = max(n, lo)
	if hi >= 0 {
		n = min(n, hi)
	}
	return text(n, m == high)
}

// text is a string of n characters; wide uses two-byte characters, so a
// length counted in bytes instead of characters shows.
func text(n int, wide bool) string {
	if wide {
		return strings.Repeat("é", n)
	}
	return strings.Repeat("abcdefghij", n/10+1)[:n]
}

// fromPattern generates a string that matches the regular expression p,
// for the usual shapes of patterns (literals, classes, repeats,
// alternations); ok is false for what it cannot follow.
func (g *generator) fromPattern(p string, m mode) (string, bool) {
	return patgen.String(p, patternChoices{g, m})
}

// patternChoices are the generator's choices in a pattern for mode m: the
// first of everything and the fewest repeats when low, the most repeats
// when high, else random ones.
type patternChoices struct {
	g *generator
	m mode
}

func (c patternChoices) Class(ranges []rune) rune {
	i := 0
	if c.m != low {
		i = c.g.rng.IntN(len(ranges)/2) * 2
	}
	lo, hi := ranges[i], ranges[i+1]
	r := lo
	if c.m != low && hi > lo {
		r = lo + rune(c.g.rng.IntN(int(min(hi-lo, 25))+1))
	}
	return r
}

func (c patternChoices) Repeat(lo, hi int) int {
	if hi < 0 {
		hi = lo + 3
	}
	switch c.m {
	case low:
		return lo
	case high:
		return min(hi, lo+8)
	}
	return lo + c.g.rng.IntN(min(hi, lo+3)-lo+1)
}

func (c patternChoices) Alternate(n int) int {
	if c.m == low {
		return 0
	}
	return c.g.rng.IntN(n)
}

// bounds are a numeric schema's range, nil where open.
type bounds struct {
	lo, hi     *big.Rat
	exLo, exHi bool
	multipleOf *big.Rat
	integer    bool
}

func rat(v any) *big.Rat {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case float64:
		s = strconv.FormatFloat(x, 'g', -1, 64)
	default:
		return nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil
	}
	return r
}

func numBounds(s map[string]any, integer bool) bounds {
	b := bounds{integer: integer, multipleOf: rat(s["multipleOf"])}
	if r := rat(s["minimum"]); r != nil {
		b.lo = r
	}
	if r := rat(s["exclusiveMinimum"]); r != nil && (b.lo == nil || r.Cmp(b.lo) >= 0) {
		b.lo, b.exLo = r, true
	}
	if r := rat(s["maximum"]); r != nil {
		b.hi = r
	}
	if r := rat(s["exclusiveMaximum"]); r != nil && (b.hi == nil || r.Cmp(b.hi) <= 0) {
		b.hi, b.exHi = r, true
	}
	return b
}

// validLo and validHi are the smallest and largest values in range (before
// multipleOf), nil where the range is open.
func (b bounds) validLo() *big.Rat { return b.inside(b.lo, b.exLo, 1) }
func (b bounds) validHi() *big.Rat { return b.inside(b.hi, b.exHi, -1) }

func (b bounds) inside(r *big.Rat, exclusive bool, dir int64) *big.Rat {
	if r == nil {
		return nil
	}
	if b.integer {
		i := floorRat(r)
		if dir > 0 && (exclusive || !r.IsInt()) {
			i.Add(i, big.NewInt(1))
		}
		if dir < 0 && exclusive && r.IsInt() {
			i.Sub(i, big.NewInt(1))
		}
		return new(big.Rat).SetInt(i)
	}
	if !exclusive {
		return r
	}
	f, _ := r.Float64()
	next := math.Nextafter(f, math.Inf(int(dir)))
	if out := new(big.Rat).SetFloat64(next); out != nil {
		return out
	}
	return r
}

func floorRat(r *big.Rat) *big.Int {
	// DivMod is Euclidean division: it floors for a positive denominator.
	q, _ := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	return q
}

// fit moves v to a multiple of multipleOf, upwards.
func (b bounds) fit(v *big.Rat) *big.Rat {
	if b.multipleOf == nil || b.multipleOf.Sign() <= 0 {
		return v
	}
	q := new(big.Rat).Quo(v, b.multipleOf)
	n := floorRat(q)
	if !q.IsInt() {
		n.Add(n, big.NewInt(1))
	}
	return new(big.Rat).Mul(new(big.Rat).SetInt(n), b.multipleOf)
}

func number(r *big.Rat, integer bool) json.Number {
	if integer && r.IsInt() {
		return json.Number(r.Num().String())
	}
	f, _ := r.Float64()
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

// num is a number in b's range: the smallest, the largest, the middle or,
// when random, anywhere.
func (g *generator) num(b bounds, m mode, random bool) any {
	lo, hi := b.validLo(), b.validHi()
	var v *big.Rat
	switch {
	case random && lo != nil && hi != nil && lo.Cmp(hi) < 0:
		span := new(big.Rat).Sub(hi, lo)
		v = new(big.Rat).Add(lo, new(big.Rat).Mul(span, new(big.Rat).SetFloat64(g.rng.Float64())))
		if b.integer {
			v.SetInt(floorRat(v))
		}
	case m == low && lo != nil:
		v = lo
	case m == high && hi != nil:
		v = hi
	case lo != nil && hi != nil:
		v = new(big.Rat).Add(lo, hi)
		v.Quo(v, big.NewRat(2, 1))
		if b.integer {
			v.SetInt(floorRat(v))
		}
	case lo != nil:
		v = new(big.Rat).Add(lo, big.NewRat(7, 1))
	case hi != nil:
		v = new(big.Rat).Sub(hi, big.NewRat(7, 1))
	case b.integer:
		v = big.NewRat(7, 1)
	default:
		v = big.NewRat(5, 2)
	}
	return number(b.fit(v), b.integer)
}

// --- boundary values and near misses

// edits returns, for every location of doc (a value of s at loc), the
// values worth trying there: boundaries of its own keywords, valid or not,
// and near misses (a wrong type, null, a missing or unknown property).
func (g *generator) edits(s map[string]any, doc any, loc []any, depth int) []edit {
	s = g.resolve(s)
	var out []edit
	add := func(v any) { out = append(out, edit{loc: slices.Clone(loc), val: v}) }
	if depth > maxDepth {
		return nil
	}
	if !slices.Contains(types(s), "null") {
		add(nil)
	}
	if e, ok := s["enum"].([]any); ok {
		for _, v := range e {
			add(v)
		}
		add("not-in-enum")
		return out
	}
	if c, ok := s["const"]; ok {
		add(c)
		add("not-the-const")
		return out
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		if branches, ok := s[key].([]any); ok {
			for _, b := range branches {
				bs, _ := b.(map[string]any)
				for _, m := range []mode{typical, low, high} {
					add(g.value(bs, m, depth))
				}
			}
			add(wrongType(""))
			return out
		}
	}
	typ := mainType(s)
	add(wrongType(typ))
	switch typ {
	case "integer", "number":
		out = append(out, g.numEdits(numBounds(s, typ == "integer"), loc)...)
	case "string":
		lo, hi := intKeyword(s, "minLength", 0), intKeyword(s, "maxLength", -1)
		add(text(lo, true))
		if lo > 0 {
			add(text(lo-1, false))
		}
		if hi >= 0 {
			add(text(min(hi, 4096), true))
			add(text(hi+1, false))
		}
		add("")
		if f, ok := s["format"].(string); ok {
			if sample, ok := formats[f]; ok {
				add(sample[1])
			}
		}
		if _, ok := s["pattern"].(string); ok {
			add("!~ no match ~!")
			add(g.str(s, low))
			add(g.str(s, high))
		}
		if s["contentEncoding"] == "base64" {
			add("not base64!")
		}
	case "boolean":
		add(true)
		add(false)
		add("true")
	case "object":
		obj, _ := doc.(map[string]any)
		props := schemaAt(s, "properties")
		for _, name := range required(s) {
			if _, ok := obj[name]; ok {
				out = append(out, edit{loc: with(loc, name), val: deleted{}})
			}
		}
		out = append(out, edit{loc: with(loc, "mcptest_unknown"), val: 1})
		for _, name := range sortedKeys(props) {
			ps, _ := props[name].(map[string]any)
			v, ok := obj[name]
			if !ok {
				v = g.value(ps, typical, depth+1)
				out = append(out, edit{loc: with(loc, name), val: v})
			}
			out = append(out, g.edits(ps, v, with(loc, name), depth+1)...)
		}
		if extra := schemaAt(s, "additionalProperties"); extra != nil && props == nil {
			for _, k := range sortedKeys(obj) {
				out = append(out, g.edits(extra, obj[k], with(loc, k), depth+1)...)
			}
			out = append(out, edit{loc: with(loc, ""), val: g.value(extra, typical, depth+1)})
		}
	case "array":
		arr, _ := doc.([]any)
		lo, hi := intKeyword(s, "minItems", 0), intKeyword(s, "maxItems", -1)
		add([]any{})
		if len(arr) > 0 {
			add(arr[:len(arr)-1])
			add(append(slices.Clone(arr), arr[0]))
		}
		if lo > 0 && len(arr) >= lo {
			add(arr[:lo-1])
		}
		if hi >= 0 {
			add(g.array(s, high, depth))
			longer, _ := g.array(s, high, depth).([]any)
			if len(longer) > 0 {
				add(append(longer, longer[len(longer)-1]))
			}
		}
		prefix, _ := s["prefixItems"].([]any)
		if len(prefix) > 0 {
			// Every prefix item, then one more than the tuple holds.
			full := make([]any, 0, len(prefix)+1)
			for _, p := range prefix {
				ps, _ := p.(map[string]any)
				full = append(full, g.value(ps, typical, depth+1))
			}
			add(full)
			add(append(slices.Clone(full), "one more"))
		}
		for i, v := range arr {
			var is map[string]any
			if i < len(prefix) {
				is, _ = prefix[i].(map[string]any)
			} else {
				is = schemaAt(s, "items")
			}
			if is != nil && (i < len(prefix) || i == 0) {
				out = append(out, g.edits(is, v, with(loc, i), depth+1)...)
			}
		}
	}
	return out
}

func (g *generator) numEdits(b bounds, loc []any) []edit {
	var out []edit
	add := func(v any) { out = append(out, edit{loc: slices.Clone(loc), val: v}) }
	one := big.NewRat(1, 1)
	if !b.integer {
		one = big.NewRat(1, 1000)
	}
	if lo := b.validLo(); lo != nil {
		add(number(b.fit(lo), b.integer))
		add(number(lo, b.integer))
		add(number(new(big.Rat).Sub(lo, one), b.integer))
		add(number(b.lo, b.integer))
	}
	if hi := b.validHi(); hi != nil {
		add(number(hi, b.integer))
		add(number(new(big.Rat).Add(hi, one), b.integer))
		add(number(b.hi, b.integer))
	}
	for _, v := range []string{"0", "-1", "1"} {
		add(json.Number(v))
	}
	if b.integer {
		// The edges of the Go integer types: a schema without bounds
		// promises them all.
		for _, v := range []string{"127", "128", "255", "256", "32767", "32768", "65535", "65536",
			"2147483647", "2147483648", "4294967295", "4294967296", "9007199254740991",
			"9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551615"} {
			add(json.Number(v))
		}
		add(json.Number("1.5"))
		add(json.Number("2.0"))
	} else {
		for _, v := range []string{"0.1", "-0.0", "1e308", "-1e308", "5e-324", "1.7976931348623157e308"} {
			add(json.Number(v))
		}
	}
	if b.multipleOf != nil {
		base := b.validLo()
		if base == nil {
			base = new(big.Rat)
		}
		off := new(big.Rat).Add(b.fit(base), new(big.Rat).Quo(b.multipleOf, big.NewRat(2, 1)))
		add(number(off, false))
	}
	return out
}

// wrongType is a value of a type other than typ.
func wrongType(typ string) any {
	switch typ {
	case "string":
		return json.Number("7")
	case "object":
		return []any{}
	case "array", "integer", "number":
		return map[string]any{"a": "b"}
	case "boolean":
		return "yes"
	}
	return "wrong"
}

func with(loc []any, k any) []any { return append(slices.Clone(loc), k) }

// apply returns a copy of doc with e applied.
func apply(doc any, e edit) any {
	if len(e.loc) == 0 {
		if _, ok := e.val.(deleted); ok {
			return doc
		}
		return e.val
	}
	switch x := doc.(type) {
	case map[string]any:
		k, _ := e.loc[0].(string)
		out := make(map[string]any, len(x)+1)
		for kk, v := range x {
			out[kk] = v
		}
		if len(e.loc) == 1 {
			if _, ok := e.val.(deleted); ok {
				delete(out, k)
			} else {
				out[k] = e.val
			}
			return out
		}
		out[k] = apply(x[k], edit{loc: e.loc[1:], val: e.val})
		return out
	case []any:
		i, _ := e.loc[0].(int)
		out := slices.Clone(x)
		if i < len(out) {
			out[i] = apply(x[i], edit{loc: e.loc[1:], val: e.val})
		}
		return out
	}
	return doc
}

package mcpreflect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

// The schema/runtime agreement test: for every zoo argument type, Plan.Decode
// accepts a document exactly when an independent JSON Schema 2020-12
// validator (santhosh-tekuri/jsonschema, format assertion on) accepts it
// against the published SchemaJSON.
//
// Known, documented exceptions (see docs/tags.md):
//   - validator rules JSON Schema cannot say (startswith, eqfield, ...) run
//     after decoding: a document the schema accepts may still be rejected,
//     with only those rules (zooEntry.runtimeOnly);
//   - duplicate object keys are rejected by Decode; JSON Schema validators
//     see only the last value (rule uniqueKeys);
//   - a null or empty arguments document means "no arguments" ({}), so the
//     root null is not compared;
//   - base64 validity of []byte, the text form of a TextUnmarshaler and the
//     range of integer map keys are checked only by Decode;
//   - a float64 publishes no range (it would only restate the type): a
//     number beyond ±1.7976931348623157e308 is refused by Decode alone, with
//     the rule "range" (onlyRange).

// onlyRange reports whether err is Decode refusing a number beyond float64's
// range, and nothing else: the schema publishes no such bound.
func onlyRange(err error) bool {
	vs := violations(err)
	for _, v := range vs {
		if v.Rule != "range" {
			return false
		}
	}
	return len(vs) > 0
}

// compileSchema compiles raw with santhosh-tekuri/jsonschema, asserting
// formats. Compiling also validates raw against the 2020-12 meta-schema.
func compileSchema(t testing.TB, name string, raw []byte) *sjs.Schema {
	t.Helper()
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: unmarshal schema: %v", name, err)
	}
	c := sjs.NewCompiler()
	c.DefaultDraft(sjs.Draft2020)
	c.AssertFormat()
	url := "mem:///" + name + ".json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: add schema: %v", name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: compile schema: %v\n%s", name, err, raw)
	}
	return s
}

// verdict runs one document through both validators.
type verdict struct {
	schemaErr error
	decodeErr error
}

func judge(t testing.TB, p *Plan, s *sjs.Schema, doc []byte) verdict {
	t.Helper()
	var v verdict
	inst, err := sjs.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("test document is not JSON: %v\n%s", err, doc)
	}
	v.schemaErr = s.Validate(inst)
	_, v.decodeErr = p.DecodeValue(doc)
	if v.decodeErr != nil {
		var ae *ArgumentsError
		if !errors.As(v.decodeErr, &ae) {
			t.Fatalf("Decode(%s): want *ArgumentsError, got %T %v", doc, v.decodeErr, v.decodeErr)
		}
	}
	return v
}

func violations(err error) []Violation {
	var ae *ArgumentsError
	if errors.As(err, &ae) {
		return ae.Violations
	}
	return nil
}

// agree fails t unless both validators reach the same verdict, or Decode
// rejects only with runtime-only rules a schema cannot say.
func (e *zooEntry) agree(t *testing.T, what string, v verdict, doc []byte) {
	t.Helper()
	schemaOK, decodeOK := v.schemaErr == nil, v.decodeErr == nil
	if schemaOK == decodeOK {
		return
	}
	if schemaOK && !decodeOK {
		runtimeOnly := true
		for _, vi := range violations(v.decodeErr) {
			if !slices.Contains(e.runtimeOnly, vi.Rule) && vi.Rule != "range" {
				runtimeOnly = false
			}
		}
		if runtimeOnly {
			return
		}
		t.Errorf("%s: the schema accepts %s but Decode rejects it:\n%v", what, doc, v.decodeErr)
		return
	}
	t.Errorf("%s: Decode accepts %s but the schema rejects it:\n%v", what, doc, v.schemaErr)
}

// hasViolation reports whether err names path with rule. Below an opaque
// path the full validator reports the opaque value itself, with the keyword
// that failed somewhere inside it.
func (e *zooEntry) hasViolation(err error, path, rule string) bool {
	for _, v := range violations(err) {
		if v.Path == path && v.Rule == rule {
			return true
		}
		if e.isOpaque(v.Path) && under(path, v.Path) {
			return true
		}
	}
	return false
}

func (e *zooEntry) isOpaque(path string) bool {
	for _, o := range e.opaque {
		if o == "" && path == "" || o != "" && under(path, o) {
			return true
		}
	}
	return false
}

// under reports whether path is at or below prefix.
func under(path, prefix string) bool {
	if path == prefix || prefix == "" {
		return true
	}
	return strings.HasPrefix(path, prefix+".") || strings.HasPrefix(path, prefix+"[")
}

func TestZooAgreement(t *testing.T) {
	knownSeen := 0
	defer func() {
		if knownSeen == 0 {
			t.Error("no pinned difference of knownSweepDiffs was met: drop it from the list")
		}
	}()
	for _, e := range zoo {
		if e.in == nil {
			continue
		}
		t.Run(e.name, func(t *testing.T) {
			p, err := PlanFor(e.in, e.opts)
			if err != nil {
				t.Fatal(err)
			}
			s := compileSchema(t, e.name, p.SchemaJSON)
			if len(e.valid) == 0 {
				t.Fatal("no valid document")
			}
			for _, doc := range e.valid {
				v := judge(t, p, s, []byte(doc))
				if v.schemaErr != nil {
					t.Errorf("the schema rejects valid %s: %v", doc, v.schemaErr)
				}
				if v.decodeErr != nil {
					t.Errorf("Decode rejects valid %s: %v", doc, v.decodeErr)
				}
			}
			for _, c := range e.invalid {
				v := judge(t, p, s, []byte(c.doc))
				if v.decodeErr == nil {
					t.Errorf("Decode accepts invalid %s", c.doc)
					continue
				}
				if !e.hasViolation(v.decodeErr, c.path, c.rule) {
					t.Errorf("Decode(%s): want a violation at %q for %q, got:\n%v", c.doc, c.path, c.rule, v.decodeErr)
				}
				runtimeOnly := slices.Contains(e.runtimeOnly, c.rule)
				switch {
				case runtimeOnly && v.schemaErr != nil:
					t.Errorf("%s: rule %q is listed as runtime-only, but the schema rejects the document too: %v", c.doc, c.rule, v.schemaErr)
				case !runtimeOnly:
					e.agree(t, "invalid case", v, []byte(c.doc))
				}
			}
			schemaDoc := decodeDoc(t, string(p.SchemaJSON)) // numbers kept exact
			g := &mutator{root: schemaDoc.(map[string]any)}
			base := decodeDoc(t, e.valid[0])
			g.walk(g.root, base, nil)
			if len(g.out) == 0 {
				return
			}
			checked := 0
			for _, m := range g.out {
				doc := m.apply(base)
				if doc == nil {
					continue // root null means no arguments
				}
				raw, err := json.Marshal(doc)
				if err != nil {
					t.Fatal(err)
				}
				v := judge(t, p, s, raw)
				what := "mutation " + m.desc + " at " + strconv.Quote(m.path)
				if m.known != "" && v.schemaErr == nil && v.decodeErr != nil {
					if vs := violations(v.decodeErr); len(vs) == 1 && vs[0].Path == m.path && vs[0].Rule == m.known {
						knownSeen++
						checked++
						continue
					}
				}
				e.agree(t, what, v, raw)
				if v.decodeErr != nil && v.schemaErr != nil && m.rule != "" && !e.hasViolation(v.decodeErr, m.path, m.rule) {
					t.Errorf("%s: %s: want a violation at %q for %q, got:\n%v", what, raw, m.path, m.rule, v.decodeErr)
				}
				checked++
			}
			t.Logf("%d mutations checked", checked)
		})
	}
}

func decodeDoc(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// A mutation replaces (or drops) the value at one location of a document.
type mutation struct {
	desc string
	loc  []any // property names (string) and indexes (int)
	val  any
	drop bool
	path string // the argument path a violation should name
	rule string // the rule it should name; "" when the mutation may be valid
	// known names a pinned difference: Decode may reject the document the
	// schema accepts, with this rule at path only (see knownSweepDiffs).
	known string
}

func (m mutation) apply(doc any) any {
	c := deepCopy(doc)
	if len(m.loc) == 0 {
		return m.val
	}
	parent := c
	for _, k := range m.loc[:len(m.loc)-1] {
		parent = child(parent, k)
	}
	last := m.loc[len(m.loc)-1]
	switch p := parent.(type) {
	case map[string]any:
		if m.drop {
			delete(p, last.(string))
		} else {
			p[last.(string)] = m.val
		}
	case []any:
		p[last.(int)] = m.val
	}
	return c
}

func child(v any, k any) any {
	switch x := v.(type) {
	case map[string]any:
		return x[k.(string)]
	case []any:
		return x[k.(int)]
	}
	panic(fmt.Sprintf("no child %v in %T", k, v))
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = deepCopy(e)
		}
		return s
	}
	return v
}

func locPath(loc []any) string {
	var segs []pathSeg
	for _, k := range loc {
		switch x := k.(type) {
		case string:
			segs = append(segs, pathSeg{name: x, index: -1})
		case int:
			segs = append(segs, pathSeg{index: x})
		}
	}
	return renderPath(segs)
}

func with(loc []any, k any) []any {
	return append(append([]any(nil), loc...), k)
}

// mutator derives invalid (and borderline) documents from a valid one and
// the published schema: every keyword on the path of every value yields one
// document that breaks it.
type mutator struct {
	root map[string]any
	out  []mutation
}

func (g *mutator) emit(desc string, loc []any, val any, rule string) {
	g.out = append(g.out, mutation{desc: desc, loc: loc, val: val, path: locPath(loc), rule: rule})
}

func (g *mutator) resolve(s map[string]any) map[string]any {
	for {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		name := strings.TrimPrefix(ref, "#/$defs/")
		s = g.root["$defs"].(map[string]any)[name].(map[string]any)
	}
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func wrongType(typ string) any {
	switch typ {
	case "string":
		return json.Number("12")
	case "integer", "number":
		return "1"
	case "boolean":
		return "true"
	case "array":
		return map[string]any{}
	case "object":
		return []any{}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (g *mutator) walk(s map[string]any, v any, loc []any) {
	s = g.resolve(s)
	typ, _ := s["type"].(string)
	if len(loc) > 0 {
		g.emit("null", loc, nil, "type")
	}
	if typ != "" {
		g.emit("wrong type", loc, wrongType(typ), "type")
	}
	if e, ok := s["enum"].([]any); ok {
		g.emitNotIn(loc, typ, e, "enum")
	}
	if c, ok := s["const"]; ok {
		g.emitNotIn(loc, typ, []any{c}, "const")
	}
	if _, isEnum := s["enum"]; !isEnum && (typ == "" || typ == "object" && s["properties"] == nil && s["additionalProperties"] == nil) {
		// An untyped value takes any number, however large, at any depth.
		g.emit("numbers beyond float64 nested", loc, map[string]any{"n": []any{json.Number("1e400"), json.Number("-1e400"), json.Number("0.5")}}, "")
	}
	switch typ {
	case "object":
		obj, _ := v.(map[string]any)
		if props, ok := s["properties"].(map[string]any); ok || s["additionalProperties"] == false {
			g.walkStruct(s, props, obj, loc)
		} else {
			g.walkMap(s, obj, loc)
		}
	case "array":
		arr, _ := v.([]any)
		g.walkArray(s, arr, loc)
	case "string":
		if n, ok := num(s["minLength"]); ok && n > 0 {
			g.emit("too short", loc, strings.Repeat("a", int(n)-1), "minLength")
		}
		if n, ok := num(s["maxLength"]); ok {
			g.emit("too long", loc, strings.Repeat("a", int(n)+1), "maxLength")
		}
		if _, ok := s["pattern"]; ok {
			g.emit("pattern", loc, " !", "pattern")
		}
		if f, ok := s["format"].(string); ok {
			g.emit("format", loc, "%zz not valid", "format")
			g.formatEdges(f, loc)
		}
	case "integer", "number":
		g.walkNumber(s, typ, loc)
	}
}

// emitNotIn emits a value of kind typ that is none of vals.
func (g *mutator) emitNotIn(loc []any, typ string, vals []any, rule string) {
	var cand any
	switch typ {
	case "string":
		cand = "zz-none-of-these"
	case "integer", "number":
		hi := new(big.Rat)
		for _, x := range vals {
			if r, ok := rat(x); ok && r.Cmp(hi) > 0 {
				hi = r
			}
		}
		// The next integer above every value.
		next := new(big.Int).Quo(hi.Num(), hi.Denom())
		cand = json.Number(next.Add(next, big.NewInt(1)).String())
	case "boolean":
		cand = true
		for _, x := range vals {
			if x == true {
				cand = false
			}
		}
	default:
		return
	}
	g.emit("not in "+rule, loc, cand, rule)
}

func (g *mutator) walkStruct(s, props, obj map[string]any, loc []any) {
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			name := r.(string)
			if _, present := obj[name]; present {
				g.out = append(g.out, mutation{desc: "drop required", loc: with(loc, name), drop: true, path: locPath(with(loc, name)), rule: "required"})
			}
		}
	}
	if s["additionalProperties"] == false {
		g.emit("unknown property", with(loc, "zz_unknown"), json.Number("1"), "additionalProperties")
	}
	if n, ok := num(s["minProperties"]); ok && n > 0 {
		g.emit("too few properties", loc, map[string]any{}, "minProperties")
	}
	for _, k := range sortedKeys(obj) {
		if ps, ok := props[k].(map[string]any); ok {
			g.walk(ps, obj[k], with(loc, k))
		}
	}
	if obj == nil {
		return
	}
	// Scalar properties the base document leaves out are swept too, so
	// every number and format property of the zoo meets the edge cases.
	for _, k := range sortedKeys(props) {
		if _, present := obj[k]; present {
			continue
		}
		ps := g.resolve(props[k].(map[string]any))
		switch ps["type"] {
		case "integer", "number", "string":
			g.walk(ps, nil, with(loc, k))
		}
	}
}

func (g *mutator) walkMap(s, obj map[string]any, loc []any) {
	keys := sortedKeys(obj)
	var sample any
	if len(keys) > 0 {
		sample = obj[keys[0]]
	}
	withKey := func(k string) map[string]any {
		m := deepCopy(obj).(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		m[k] = deepCopy(sample)
		return m
	}
	if pn, ok := s["propertyNames"].(map[string]any); ok && sample != nil {
		bad := map[string]string{}
		if n, ok := num(pn["minLength"]); ok && n > 0 {
			bad["minLength"] = strings.Repeat("k", int(n)-1)
		}
		if n, ok := num(pn["maxLength"]); ok {
			bad["maxLength"] = strings.Repeat("k", int(n)+1)
		}
		if _, ok := pn["pattern"]; ok {
			bad["pattern"] = " !"
		}
		if _, ok := pn["format"]; ok {
			bad["format"] = "%zz not valid"
		}
		for _, rule := range sortedStrings(bad) {
			k := bad[rule]
			g.out = append(g.out, mutation{desc: "bad key", loc: loc, val: withKey(k), path: locPath(with(loc, k)), rule: rule})
		}
	}
	if n, ok := num(s["minProperties"]); ok && n > 0 && len(keys) >= int(n) {
		m := map[string]any{}
		for _, k := range keys[:int(n)-1] {
			m[k] = deepCopy(obj[k])
		}
		g.emit("too few properties", loc, m, "minProperties")
	}
	if n, ok := num(s["maxProperties"]); ok && sample != nil {
		m := deepCopy(obj).(map[string]any)
		for i := 0; len(m) <= int(n); i++ {
			m["extra"+strconv.Itoa(i)] = deepCopy(sample)
		}
		g.emit("too many properties", loc, m, "maxProperties")
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		for _, k := range keys {
			g.walk(ap, obj[k], with(loc, k))
		}
	}
}

func sortedStrings(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (g *mutator) walkArray(s map[string]any, arr []any, loc []any) {
	if n, ok := num(s["minItems"]); ok && n > 0 && len(arr) >= int(n) {
		g.emit("too few items", loc, deepCopy(arr[:int(n)-1]), "minItems")
	}
	if n, ok := num(s["maxItems"]); ok && len(arr) > 0 {
		a := deepCopy(arr).([]any)
		for len(a) <= int(n) {
			a = append(a, deepCopy(arr[len(arr)-1]))
		}
		g.emit("too many items", loc, a, "maxItems")
	}
	if s["uniqueItems"] == true && len(arr) > 0 {
		a := append(deepCopy(arr).([]any), deepCopy(arr[0]))
		g.emit("duplicate item", loc, a, "uniqueItems")
	}
	if items, ok := s["items"].(map[string]any); ok {
		for i, x := range arr {
			g.walk(items, x, with(loc, i))
		}
	}
}

// TestFormatsAgree compares mcpgen's format checks with the independent
// validator's on valid, invalid and edge-case strings. The known divergences
// are pinned: mcpgen's email and hostname checks are go-playground/
// validator's (an email ASCII, as JSON Schema's "email" is RFC 5321's
// mailbox), which a validate:"email" or "hostname_rfc1123" rule
// promises. (A time.Time field refuses a leap second, which it cannot hold;
// a string with format date-time takes it: see TestLeapSecond.)
func TestFormatsAgree(t *testing.T) {
	cases, known := formatCases, knownFormatDiffs
	seen := map[string]bool{}
	for _, f := range sortedKeysOf(cases) {
		s := compileSchema(t, "format-"+f, []byte(`{"type":"string","format":"`+f+`"}`))
		for _, x := range cases[f] {
			key := f + " " + x
			ours, theirs := formats[f](x), s.Validate(x) == nil
			if want, ok := known[key]; ok {
				seen[key] = true
				if ours != want || theirs == want {
					t.Errorf("format %s, %q: known divergence changed: mcpgen %v, reference %v", f, x, ours, theirs)
				}
				continue
			}
			if ours != theirs {
				t.Errorf("format %s, %q: mcpgen says %v, the reference validator %v", f, x, ours, theirs)
			}
		}
	}
	for k := range known {
		if !seen[k] {
			t.Errorf("known divergence %q is not tested", k)
		}
	}
	if len(formats) != len(cases) {
		t.Errorf("%d formats, %d tested", len(formats), len(cases))
	}
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// formatCases are valid, invalid and edge-case strings of each format.
var formatCases = map[string][]string{
	"email":         {"a@example.com", "a.b@example.com", "user+tag@example.co.uk", "no-at-sign", "a..b@example.com", ".a@example.com", "a@-example.com", "a@b", "a@example", "a@[127.0.0.1]", "日本@example.com"},
	"uri":           {"http://example.com", "urn:isbn:1", "mailto:a@b", "http://[::1]:80/", "x:", "http://exa mple.com", "1http://a", "http://a/%zz", "//example.com", "/relative", "no scheme", "http://[1::2::3]/", "http://1::2/", "http://a\\b", "http://[::ffff:192.0.2.1]/"},
	"uri-reference": {"../x", "#frag", "", "%zz", "http://a b", "\\x", "a\\b", "http://a/b\\c", "http://[::1]/x", "http://[1::2::3]/", "http://1::2/", "//[fe80::1%25eth0]/", "a b", "?q=1", "http://a/b c"},
	"uuid":          {"123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000", "00000000-0000-0000-0000-000000000000", "123e4567e89b12d3a456426614174000", "{123e4567-e89b-12d3-a456-426614174000}", "123e4567"},
	"hostname":      {"example.com", "a", "1abc", "a-b.c", "xn--bcher-kva.example", "localhost", "-a.com", "a-.com", "a_b.com", "example.com."},
	"ipv4":          {"192.0.2.1", "0.0.0.0", "255.255.255.255", "256.0.0.1", "01.2.3.4", "1.2.3", "1.2.3.4.5", " 1.2.3.4"},
	"ipv6":          {"::1", "::", "2001:db8::1", "1:2:3:4:5:6:7:8", "1::2::3", "192.0.2.1", "fe80::1%eth0", "::ffff:192.0.2.1"},
	"date-time":     {"2024-01-02T03:04:05Z", "2024-01-02t03:04:05z", "2024-01-02T03:04:05.123456789123-00:00", "2024-01-02T03:04:05", "2024-01-02 03:04:05Z", "2024-01-02T3:04:05Z", "2024-01-02T03:04:05+24:00", "2024-01-02T24:00:00Z", "2024-02-30T00:00:00Z", "2024-01-02T03:04:05+0100", "2016-12-31T23:59:60Z", "2016-12-31T23:58:60Z", "2016-12-31T15:59:60-08:00", "2016-12-31T23:59:61Z"},
	"date":          {"2024-01-02", "2024-02-29", "2023-02-29", "2024-1-2", "20240102", "2024-13-01"},
	"time":          {"03:04:05Z", "03:04:05z", "03:04:05.123+01:00", "03:04:05", "3:04:05Z", "24:00:00Z", "03:04:05+24:00", "23:59:60Z", "22:59:60Z", "15:59:60-08:00", "23:59:60+00:30"},
}

// knownFormatDiffs holds mcpgen's verdict where it differs from the reference validator.
var knownFormatDiffs = map[string]bool{
	"email a@b":             false,
	"email a@example":       false,
	"email a@[127.0.0.1]":   false,
	"hostname example.com.": false,
}

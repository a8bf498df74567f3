package mcpopenapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/big"
	"strconv"
	"strings"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// checker is an input schema compiled by a JSON Schema 2020-12 validator
// (santhosh-tekuri/jsonschema, as mcpgen's core uses for the keywords its
// typed decoders do not compile): every call is checked against exactly
// the schema the tool publishes.
type checker struct {
	s     *sjs.Schema
	tree  any    // the schema as JSON: what a violated "not" excluded
	quick *quick // nil: the schema has a keyword quick does not know
}

func compile(raw []byte) (*checker, error) {
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	c := sjs.NewCompiler()
	c.DefaultDraft(sjs.Draft2020)
	c.AssertFormat()
	c.AssertContent()
	const url = "mcpopenapi:///input.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), url, "schema"))
	}
	return &checker{s: s, tree: doc, quick: compileQuick(doc)}, nil
}

// check returns every way inst breaks the schema, each at its JSON path.
func (c *checker) check(inst any) []mcpreflect.Violation {
	if c.quick != nil && c.quick.check(inst, 0) == valid {
		return nil
	}
	err := c.s.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *sjs.ValidationError
	if !errors.As(err, &ve) {
		return []mcpreflect.Violation{{Rule: "schema", Msg: err.Error()}}
	}
	var out []mcpreflect.Violation
	c.report(&out, inst, ve)
	if len(out) == 0 {
		out = append(out, mcpreflect.Violation{Rule: "schema", Msg: "is invalid"})
	}
	return out
}

var printer = message.NewPrinter(language.English)

// report turns the validator's error tree into violations: the keyword that
// failed is the rule, the value it failed on the path.
func (c *checker) report(out *[]mcpreflect.Violation, root any, ve *sjs.ValidationError) {
	at := func(rule, msg string) {
		v := mcpreflect.Violation{Path: jsonPath(root, ve.InstanceLocation), Rule: rule, Msg: msg}
		for _, seen := range *out {
			if seen == v {
				return
			}
		}
		*out = append(*out, v)
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.Group, *kind.Schema, *kind.Reference, *kind.AllOf:
		for _, cause := range ve.Causes {
			c.report(out, root, cause)
		}
		return
	case *kind.Required:
		for _, p := range k.Missing {
			v := mcpreflect.Violation{Path: joinPath(jsonPath(root, ve.InstanceLocation), p), Rule: "required", Msg: "is required"}
			*out = append(*out, v)
		}
		return
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			v := mcpreflect.Violation{Path: joinPath(jsonPath(root, ve.InstanceLocation), p), Rule: "additionalProperties", Msg: "is not a known argument"}
			*out = append(*out, v)
		}
		return
	case *kind.Type:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = article(w)
		}
		at("type", "must be "+strings.Join(want, " or ")+", got "+k.Got)
		return
	case *kind.Minimum:
		at("minimum", "must be at least "+ratText(k.Want)+", got "+ratText(k.Got))
		return
	case *kind.Maximum:
		at("maximum", "must be at most "+ratText(k.Want)+", got "+ratText(k.Got))
		return
	case *kind.ExclusiveMinimum:
		at("exclusiveMinimum", "must be greater than "+ratText(k.Want)+", got "+ratText(k.Got))
		return
	case *kind.ExclusiveMaximum:
		at("exclusiveMaximum", "must be less than "+ratText(k.Want)+", got "+ratText(k.Got))
		return
	}
	if _, ok := ve.ErrorKind.(*kind.Not); ok {
		if msg := c.excluded(ve.SchemaURL); msg != "" {
			at("not", msg)
			return
		}
	}
	rule := "schema"
	switch ve.ErrorKind.(type) {
	case *kind.Not:
		rule = "not"
	case *kind.FalseSchema:
		rule = "false"
	default:
		if kp := ve.ErrorKind.KeywordPath(); len(kp) > 0 {
			rule = kp[0]
		}
	}
	at(rule, strings.TrimPrefix(ve.ErrorKind.LocalizedString(printer), rule+": "))
}

// jsonPath writes a JSON pointer's segments into root as mcpgen names
// argument paths: items[2].name.
func jsonPath(root any, loc []string) string {
	var b strings.Builder
	cur := root
	for _, seg := range loc {
		if arr, ok := cur.([]any); ok {
			if i, err := strconv.Atoi(seg); err == nil && i >= 0 && i < len(arr) {
				b.WriteString("[" + seg + "]")
				cur = arr[i]
				continue
			}
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
		if obj, ok := cur.(map[string]any); ok {
			cur = obj[seg]
		} else {
			cur = nil
		}
	}
	return b.String()
}

func joinPath(base, name string) string {
	if base == "" {
		return name
	}
	return base + "." + name
}

// article names a JSON type as mcpgen's decoders do: "an integer".
func article(jsonType string) string {
	switch jsonType {
	case "integer", "object", "array":
		return "an " + jsonType
	case "null":
		return jsonType
	}
	return "a " + jsonType
}

func ratText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	s := strings.TrimRight(r.FloatString(30), "0")
	if len(s) > 24 { // not a short decimal (1/3): the nearest float
		f, _ := r.Float64()
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return s
}

// excluded says what the "not" of the schema at url excludes, when it is
// an enum or a const: `must not be "", "." or ".."`.
func (c *checker) excluded(url string) string {
	_, frag, _ := strings.Cut(url, "#")
	cur := c.tree
	for _, seg := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if seg == "" {
			continue
		}
		seg = strings.NewReplacer("~1", "/", "~0", "~").Replace(seg)
		m, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = m[seg]
	}
	m, _ := cur.(map[string]any)
	not, _ := m["not"].(map[string]any)
	var values []any
	if e, ok := not["enum"].([]any); ok && len(not) == 1 {
		values = e
	} else if v, ok := not["const"]; ok && len(not) == 1 {
		values = []any{v}
	}
	if len(values) == 0 {
		return ""
	}
	parts := make([]string, len(values))
	for i, v := range values {
		b, _ := json.Marshal(v)
		parts[i] = string(b)
	}
	if len(parts) == 1 {
		return "must not be " + parts[0]
	}
	return "must not be " + strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}

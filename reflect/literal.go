package mcpreflect

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// Package aliases generated code uses.
const (
	litSchemaPkg = "mcpgen_jsonschema"
	litSelfPkg   = "mcpgen_mcpreflect"
	litJSONPkg   = "mcpgen_json"
)

// schemaLiteral renders s as a Go expression that builds it. Besides the
// packages above, the expression calls two helpers the generated file
// defines (cmd/mcpgen writes them):
//
//	mcpgen_props(s, "a", sa, "b", sb) // sets s's properties, in order
//	mcpgen_count(3)                   // a *uint64
func schemaLiteral(s *jsonschema.Schema) (string, error) {
	var b strings.Builder
	err := writeSchemaLiteral(&b, s)
	return b.String(), err
}

func writeSchemaLiteral(b *strings.Builder, s *jsonschema.Schema) error {
	if s == nil {
		b.WriteString("nil")
		return nil
	}
	if s == jsonschema.FalseSchema {
		b.WriteString(litSchemaPkg + ".FalseSchema")
		return nil
	}
	if s == jsonschema.TrueSchema {
		b.WriteString("&" + litSchemaPkg + ".Schema{}")
		return nil
	}
	if s.Properties != nil {
		b.WriteString("mcpgen_props(")
	}
	b.WriteString("&" + litSchemaPkg + ".Schema{")
	var err error
	str := func(name, v string) {
		if v != "" {
			fmt.Fprintf(b, "%s: %s, ", name, strconv.Quote(v))
		}
	}
	// children writes the subschema fields of keywords from to to, but
	// properties: mcpgen_props sets those.
	children := func(from, to keyword) {
		for kw := from; kw <= to && err == nil; kw++ {
			k := &keywords[kw]
			if kw == kwProperties || k.kind == slotExtra || !present(s, kw) {
				continue
			}
			b.WriteString(k.field + ": ")
			switch k.kind {
			case slotList:
				b.WriteString("[]*" + litSchemaPkg + ".Schema{")
			case slotDict:
				typ := "map[string]*" + litSchemaPkg + ".Schema"
				if kw == kwDefs {
					typ = litSchemaPkg + ".Definitions"
				}
				b.WriteString(typ + "{")
			}
			eachIn(s, kw, true, func(c edge, x *jsonschema.Schema) bool {
				if k.kind == slotDict {
					b.WriteString(strconv.Quote(c.key) + ": ")
				}
				if err = writeSchemaLiteral(b, x); err != nil {
					return false
				}
				if k.kind != slotOne {
					b.WriteString(", ")
				}
				return true
			})
			if k.kind != slotOne {
				b.WriteString("}")
			}
			b.WriteString(", ")
		}
	}
	count := func(name string, v *uint64) {
		if v != nil {
			fmt.Fprintf(b, "%s: mcpgen_count(%d), ", name, *v)
		}
	}
	value := func(name string, v any) {
		if v != nil && err == nil {
			var lit string
			if lit, err = valueLiteral(v); err == nil {
				fmt.Fprintf(b, "%s: %s, ", name, lit)
			}
		}
	}
	values := func(name string, vs []any) {
		if vs == nil || err != nil {
			return
		}
		var lit string
		if lit, err = valueLiteral(vs); err == nil {
			fmt.Fprintf(b, "%s: %s, ", name, lit)
		}
	}
	str("Version", s.Version)
	str("ID", string(s.ID))
	str("Anchor", s.Anchor)
	str("Ref", s.Ref)
	str("DynamicRef", s.DynamicRef)
	str("Comments", s.Comments)
	children(kwDefs, kwPropertyNames)
	str("Type", s.Type)
	values("Enum", s.Enum)
	value("Const", s.Const)
	str("MultipleOf", string(s.MultipleOf))
	str("Maximum", string(s.Maximum))
	str("ExclusiveMaximum", string(s.ExclusiveMaximum))
	str("Minimum", string(s.Minimum))
	str("ExclusiveMinimum", string(s.ExclusiveMinimum))
	count("MaxLength", s.MaxLength)
	count("MinLength", s.MinLength)
	str("Pattern", s.Pattern)
	count("MaxItems", s.MaxItems)
	count("MinItems", s.MinItems)
	if s.UniqueItems {
		b.WriteString("UniqueItems: true, ")
	}
	count("MaxContains", s.MaxContains)
	count("MinContains", s.MinContains)
	count("MaxProperties", s.MaxProperties)
	count("MinProperties", s.MinProperties)
	if s.Required != nil {
		fmt.Fprintf(b, "Required: %#v, ", s.Required)
	}
	if s.DependentRequired != nil {
		keys := slices.Sorted(maps.Keys(s.DependentRequired))
		b.WriteString("DependentRequired: map[string][]string{")
		for _, k := range keys {
			fmt.Fprintf(b, "%q: %#v, ", k, s.DependentRequired[k])
		}
		b.WriteString("}, ")
	}
	str("Format", s.Format)
	str("ContentEncoding", s.ContentEncoding)
	str("ContentMediaType", s.ContentMediaType)
	children(kwContentSchema, kwContentSchema)
	str("Title", s.Title)
	str("Description", s.Description)
	value("Default", s.Default)
	if s.Deprecated {
		b.WriteString("Deprecated: true, ")
	}
	if s.ReadOnly {
		b.WriteString("ReadOnly: true, ")
	}
	if s.WriteOnly {
		b.WriteString("WriteOnly: true, ")
	}
	values("Examples", s.Examples)
	if s.Extras != nil && err == nil {
		keys := slices.Sorted(maps.Keys(s.Extras))
		b.WriteString("Extras: map[string]any{")
		for _, k := range keys {
			var lit string
			if lit, err = valueLiteral(s.Extras[k]); err != nil {
				break
			}
			fmt.Fprintf(b, "%q: %s, ", k, lit)
		}
		b.WriteString("}, ")
	}
	b.WriteString("}")
	if s.Properties != nil && err == nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			b.WriteString(", " + strconv.Quote(p.Key) + ", ")
			if err = writeSchemaLiteral(b, p.Value); err != nil {
				break
			}
		}
		b.WriteString(")")
	}
	return err
}

// valueLiteral renders a JSON value held in a schema (enum, default, ...)
// as a Go expression of the same dynamic type.
func valueLiteral(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "nil", nil
	case string:
		return strconv.Quote(x), nil
	case bool:
		return strconv.FormatBool(x), nil
	case int:
		return fmt.Sprintf("int(%d)", x), nil
	case int64:
		return fmt.Sprintf("int64(%d)", x), nil
	case uint64:
		return fmt.Sprintf("uint64(%d)", x), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return "", fmt.Errorf("cannot render %v", x)
		}
		return "float64(" + strconv.FormatFloat(x, 'g', -1, 64) + ")", nil
	case json.Number:
		return litJSONPkg + ".Number(" + strconv.Quote(string(x)) + ")", nil
	case []string:
		return fmt.Sprintf("%#v", x), nil
	case []any:
		var b strings.Builder
		b.WriteString("[]any{")
		for _, e := range x {
			s, err := valueLiteral(e)
			if err != nil {
				return "", err
			}
			b.WriteString(s + ", ")
		}
		b.WriteString("}")
		return b.String(), nil
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		var b strings.Builder
		b.WriteString("map[string]any{")
		for _, k := range keys {
			s, err := valueLiteral(x[k])
			if err != nil {
				return "", err
			}
			fmt.Fprintf(&b, "%q: %s, ", k, s)
		}
		b.WriteString("}")
		return b.String(), nil
	case *jsonschema.Schema: // unevaluatedItems, unevaluatedProperties
		var b strings.Builder
		err := writeSchemaLiteral(&b, x)
		return b.String(), err
	}
	return "", fmt.Errorf("cannot render a %T in generated code", v)
}

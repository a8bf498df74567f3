package mcpopenapi

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/invopop/jsonschema"
)

// schemaOf reads back a translated schema from its JSON into invopop's
// type, as the registry wants it. invopop's own UnmarshalJSON drops the
// keywords it has no field for (a type array, unevaluatedProperties);
// they go to Extras here, so the published schema is the JSON itself.
func schemaOf(raw []byte) (*jsonschema.Schema, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return fromJSON(v)
}

func fromJSON(v any) (*jsonschema.Schema, error) {
	switch x := v.(type) {
	case bool:
		if x {
			return jsonschema.TrueSchema, nil
		}
		return jsonschema.FalseSchema, nil
	case map[string]any:
	default:
		return nil, fmt.Errorf("a schema must be an object or a boolean, not %T", v)
	}
	m := v.(map[string]any)
	s := &jsonschema.Schema{}
	var err error
	sub := func(v any) *jsonschema.Schema {
		c, e := fromJSON(v)
		if e != nil && err == nil {
			err = e
		}
		return c
	}
	list := func(v any) []*jsonschema.Schema {
		arr, _ := v.([]any)
		out := make([]*jsonschema.Schema, len(arr))
		for i, x := range arr {
			out[i] = sub(x)
		}
		return out
	}
	smap := func(v any) map[string]*jsonschema.Schema {
		obj, _ := v.(map[string]any)
		out := make(map[string]*jsonschema.Schema, len(obj))
		for k, x := range obj {
			out[k] = sub(x)
		}
		return out
	}
	str := func(v any) string { x, _ := v.(string); return x }
	num := func(v any) json.Number { x, _ := v.(json.Number); return x }
	count := func(v any) *uint64 {
		n, _ := v.(json.Number)
		i, e := n.Int64()
		if e != nil || i < 0 {
			return nil
		}
		u := uint64(i)
		return &u
	}
	strs := func(v any) []string {
		arr, _ := v.([]any)
		out := make([]string, 0, len(arr))
		for _, x := range arr {
			out = append(out, str(x))
		}
		return out
	}
	for k, x := range m {
		switch k {
		case "$schema":
			s.Version = str(x)
		case "$ref":
			s.Ref = str(x)
		case "$comment":
			s.Comments = str(x)
		case "$defs":
			s.Definitions = smap(x)
		case "allOf":
			s.AllOf = list(x)
		case "anyOf":
			s.AnyOf = list(x)
		case "oneOf":
			s.OneOf = list(x)
		case "not":
			s.Not = sub(x)
		case "if":
			s.If = sub(x)
		case "then":
			s.Then = sub(x)
		case "else":
			s.Else = sub(x)
		case "dependentSchemas":
			s.DependentSchemas = smap(x)
		case "prefixItems":
			s.PrefixItems = list(x)
		case "items":
			s.Items = sub(x)
		case "contains":
			s.Contains = sub(x)
		case "properties":
			// Keys in the order the JSON has them: sorted, as written.
			obj, _ := x.(map[string]any)
			s.Properties = jsonschema.NewProperties()
			for _, name := range sortedKeys(obj) {
				s.Properties.Set(name, sub(obj[name]))
			}
		case "patternProperties":
			s.PatternProperties = smap(x)
		case "additionalProperties":
			s.AdditionalProperties = sub(x)
		case "propertyNames":
			s.PropertyNames = sub(x)
		case "type":
			if t, ok := x.(string); ok {
				s.Type = t
			} else {
				extra(s, k, x)
			}
		case "enum":
			s.Enum, _ = x.([]any)
		case "const":
			s.Const = x
		case "multipleOf":
			s.MultipleOf = num(x)
		case "maximum":
			s.Maximum = num(x)
		case "exclusiveMaximum":
			s.ExclusiveMaximum = num(x)
		case "minimum":
			s.Minimum = num(x)
		case "exclusiveMinimum":
			s.ExclusiveMinimum = num(x)
		case "maxLength":
			s.MaxLength = count(x)
		case "minLength":
			s.MinLength = count(x)
		case "pattern":
			s.Pattern = str(x)
		case "maxItems":
			s.MaxItems = count(x)
		case "minItems":
			s.MinItems = count(x)
		case "uniqueItems":
			s.UniqueItems, _ = x.(bool)
		case "maxContains":
			s.MaxContains = count(x)
		case "minContains":
			s.MinContains = count(x)
		case "maxProperties":
			s.MaxProperties = count(x)
		case "minProperties":
			s.MinProperties = count(x)
		case "required":
			s.Required = strs(x)
		case "dependentRequired":
			obj, _ := x.(map[string]any)
			s.DependentRequired = map[string][]string{}
			for name, list := range obj {
				s.DependentRequired[name] = strs(list)
			}
		case "format":
			s.Format = str(x)
		case "contentEncoding":
			s.ContentEncoding = str(x)
		case "contentMediaType":
			s.ContentMediaType = str(x)
		case "contentSchema":
			s.ContentSchema = sub(x)
		case "title":
			s.Title = str(x)
		case "description":
			s.Description = str(x)
		case "default":
			s.Default = x
		case "deprecated":
			s.Deprecated, _ = x.(bool)
		case "readOnly":
			s.ReadOnly, _ = x.(bool)
		case "writeOnly":
			s.WriteOnly, _ = x.(bool)
		case "examples":
			s.Examples, _ = x.([]any)
		default:
			extra(s, k, x)
		}
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

func extra(s *jsonschema.Schema, k string, v any) {
	if s.Extras == nil {
		s.Extras = map[string]any{}
	}
	s.Extras[k] = v
}

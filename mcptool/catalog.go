package mcptool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/mcpgen/mcpgen/internal/schemaref"
	"github.com/mcpgen/mcpgen/mcptool/catalog"
)

// Catalog returns the registry's tools as a catalogue, sorted by name: each
// tool's effective hints and policies a client sees, its arguments and result
// fields as tables, its schemas, an example call the tool accepts and its
// fingerprint. Write it with [catalog.Catalog.Write] as Markdown, JSON or
// HTML; compare two with [catalog.Compare]. docs/catalog.md shows the whole
// workflow.
func (r *Registry) Catalog() (*catalog.Catalog, error) {
	c := &catalog.Catalog{Tools: []catalog.Tool{}}
	for _, t := range r.snapshot().sorted {
		ct := catalog.Tool{Name: t.name, Title: t.def.Title, Description: t.def.Description}
		a := t.def.Annotations
		ct.Hints = catalog.Hints{ReadOnly: a.ReadOnlyHint, Idempotent: a.IdempotentHint, OpenWorld: a.OpenWorldHint == nil || *a.OpenWorldHint, Confirm: t.pol.confirm}
		ct.Hints.Destructive = !a.ReadOnlyHint && (a.DestructiveHint == nil || *a.DestructiveHint)
		ct.Scopes = t.pol.scopes
		ct.Group, ct.Eager = t.group, t.eager
		switch t.task.mode {
		case taskOptional:
			ct.Hints.Task = "optional"
		case taskRequired:
			ct.Hints.Task = "required"
		}
		ct.InputSchema = t.plan.SchemaJSON
		in, err := schemaMap(t.plan.SchemaJSON)
		if err != nil {
			return nil, err
		}
		ct.Arguments = flatten(in, in, "", true, nil)
		if ct.Arguments == nil {
			ct.Arguments = []catalog.Argument{}
		}
		if raw, ok := t.def.OutputSchema.(json.RawMessage); ok && raw != nil {
			ct.OutputSchema = raw
			out, err := schemaMap(raw)
			if err != nil {
				return nil, err
			}
			ct.Result = flatten(out, out, "", true, nil)
		}
		ex, err := r.example(t, in)
		if err != nil {
			return nil, err
		}
		ct.Example = ex
		ct.View = catalogView(t)
		if ct.Fingerprint, err = catalog.Fingerprint(ct); err != nil {
			return nil, err
		}
		c.Tools = append(c.Tools, ct)
	}
	return c, nil
}

func schemaMap(raw []byte) (map[string]any, error) {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("mcptool: catalog: %w", err)
	}
	return m, nil
}

// flatten lists the properties of an object schema.
func flatten(root, s map[string]any, prefix string, parentRequired bool, seen map[string]bool) []catalog.Argument {
	s = schemaref.Resolve(root, s)
	props, _ := s["properties"].(map[string]any)
	if len(props) == 0 {
		return nil
	}
	required := map[string]bool{}
	if rs, ok := s["required"].([]any); ok {
		for _, r := range rs {
			required[fmt.Sprint(r)] = true
		}
	}
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []catalog.Argument
	for _, n := range names {
		ps, _ := props[n].(map[string]any)
		if ref, ok := ps["$ref"].(string); ok {
			if seen[ref] {
				out = append(out, catalog.Argument{Path: prefix + n, Type: "object (recursive)", Required: required[n] && parentRequired})
				continue
			}
			seen = copySeen(seen)
			seen[ref] = true
		}
		ps = schemaref.Resolve(root, ps)
		a := catalog.Argument{Path: prefix + n, Type: typeOf(root, ps), Required: required[n] && parentRequired, Default: ps["default"], Constraints: constraints(root, ps)}
		a.Description, _ = ps["description"].(string)
		out = append(out, a)
		switch {
		case ps["properties"] != nil:
			out = append(out, flatten(root, ps, a.Path+".", a.Required, seen)...)
		case ps["items"] != nil:
			items, _ := ps["items"].(map[string]any)
			items = schemaref.Resolve(root, items)
			if items["properties"] != nil {
				out = append(out, flatten(root, items, a.Path+"[].", a.Required, seen)...)
			}
		}
	}
	return out
}

func copySeen(m map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func typeOf(root, s map[string]any) string {
	s = schemaref.Resolve(root, s)
	switch t := s["type"].(type) {
	case string:
		switch t {
		case "array":
			if items, ok := s["items"].(map[string]any); ok {
				return "array of " + typeOf(root, items)
			}
		case "object":
			if ap, ok := s["additionalProperties"].(map[string]any); ok && s["properties"] == nil {
				return "map of " + typeOf(root, ap)
			}
		case "string":
			if f, ok := s["format"].(string); ok {
				return "string (" + f + ")"
			}
		}
		return t
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = fmt.Sprint(x)
		}
		return strings.Join(parts, " or ")
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if branches, ok := s[k].([]any); ok {
			return branchTypes(root, branches, " or ")
		}
	}
	if branches, ok := s["allOf"].([]any); ok {
		return branchTypes(root, branches, " and ")
	}
	if len(s) == 0 || (len(s) == 1 && s["description"] != nil) {
		return "any JSON"
	}
	return "see schema"
}

// branchTypes joins the types of the branches that have one, each once.
func branchTypes(root map[string]any, branches []any, sep string) string {
	var parts []string
	for _, b := range branches {
		bs, _ := b.(map[string]any)
		t := typeOf(root, bs)
		if t == "see schema" || t == "any JSON" || slices.Contains(parts, t) {
			continue
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "see schema"
	}
	return strings.Join(parts, sep)
}

// constraints lists s's keywords for a reader: its own, those of allOf
// branches, each anyOf/oneOf branch's under its type, and not's.
func constraints(root, s map[string]any) []string {
	var out []string
	add := func(key, label string) {
		if v, ok := s[key]; ok {
			out = append(out, label+" "+jsonText(v))
		}
	}
	if e, ok := s["enum"].([]any); ok {
		parts := make([]string, len(e))
		for i, v := range e {
			parts[i] = jsonText(v)
		}
		out = append(out, "one of "+strings.Join(parts, ", "))
	}
	if c, ok := s["const"]; ok {
		out = append(out, "equals "+jsonText(c))
	}
	add("minimum", "≥")
	add("exclusiveMinimum", ">")
	add("maximum", "≤")
	add("exclusiveMaximum", "<")
	add("multipleOf", "multiple of")
	add("minLength", "min length")
	add("maxLength", "max length")
	add("pattern", "pattern")
	add("minItems", "min items")
	add("maxItems", "max items")
	if s["uniqueItems"] == true {
		out = append(out, "unique items")
	}
	add("minProperties", "min properties")
	add("maxProperties", "max properties")
	if items, ok := s["items"].(map[string]any); ok {
		for _, c := range constraints(root, schemaref.Resolve(root, items)) {
			out = append(out, "each: "+c)
		}
	}
	if branches, ok := s["allOf"].([]any); ok {
		for _, b := range branches {
			bs, _ := b.(map[string]any)
			out = append(out, constraints(root, schemaref.Resolve(root, bs))...)
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		branches, _ := s[k].([]any)
		for _, b := range branches {
			bs, _ := b.(map[string]any)
			bs = schemaref.Resolve(root, bs)
			if cs := constraints(root, bs); len(cs) > 0 {
				out = append(out, "as "+typeOf(root, bs)+": "+strings.Join(cs, ", "))
			}
		}
	}
	if not, ok := s["not"].(map[string]any); ok {
		for _, c := range constraints(root, schemaref.Resolve(root, not)) {
			out = append(out, "not "+c)
		}
	}
	return out
}

// jsonText writes v as JSON for a reader: &, < and > as themselves.
func jsonText(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// example builds arguments the tool accepts: every required property, from
// its examples, default, const or enum, else a value a person would write
// (see exampleValue). It is checked against the tool's own plan.
func (r *Registry) example(t *tool, in map[string]any) (json.RawMessage, error) {
	v := exampleValue(in, in, "", 0)
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	if err := t.plan.Decode(raw, reflect.New(t.plan.Type).Interface(), 0); err != nil {
		// Not every schema has an obvious valid instance (cross-field
		// rules, patterns); say so rather than show a wrong example.
		return json.RawMessage(`null`), nil
	}
	return raw, nil
}

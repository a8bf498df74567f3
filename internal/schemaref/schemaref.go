// Package schemaref follows the local references ($ref) of JSON Schemas for
// every package of the module that follows one: reflect's walks over the
// typed schemas it derives, the audit log's redaction, and the catalogue
// and mcptest, which read published schemas as JSON documents.
package schemaref

import (
	"strings"

	"github.com/invopop/jsonschema"
)

// Typed returns the schema a local $ref of s names within root ("#", or
// "#/$defs/name", the only references mcpgen's schemas hold), s itself when
// it has no $ref, or nil when the reference leads nowhere.
func Typed(root, s *jsonschema.Schema) *jsonschema.Schema {
	const prefix = "#/$defs/"
	switch {
	case s == nil || s.Ref == "":
		return s
	case s.Ref == "#":
		return root
	case len(s.Ref) > len(prefix) && s.Ref[:len(prefix)] == prefix && root != nil:
		return root.Definitions[s.Ref[len(prefix):]]
	}
	return nil
}

// Lookup returns the schema that a local reference ("#", or a JSON pointer
// fragment such as "#/$defs/Name", with ~0 and ~1 escapes) names within
// doc; ok is false when it names no schema object.
func Lookup(doc map[string]any, ref string) (s map[string]any, ok bool) {
	rest, local := strings.CutPrefix(ref, "#")
	if !local {
		return nil, false
	}
	target := any(doc)
	if rest != "" {
		if !strings.HasPrefix(rest, "/") {
			return nil, false
		}
		for _, tok := range strings.Split(rest[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			m, isObj := target.(map[string]any)
			if !isObj {
				return nil, false
			}
			target = m[tok]
		}
	}
	s, ok = target.(map[string]any)
	return s, ok
}

// Resolve follows s's local $ref within root (through chains, at most 32
// deep), keeping the referring schema's sibling keywords over the target's;
// it returns s itself when s has no $ref or the reference leads nowhere.
func Resolve(root, s map[string]any) map[string]any {
	for range 32 {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		next, ok := Lookup(root, ref)
		if !ok {
			return s
		}
		merged := make(map[string]any, len(next)+len(s))
		for k, v := range next {
			merged[k] = v
		}
		for k, v := range s {
			if k != "$ref" {
				merged[k] = v
			}
		}
		s = merged
	}
	return s
}

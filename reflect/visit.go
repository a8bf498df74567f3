package mcpreflect

import (
	"maps"
	"slices"
	"strconv"

	"github.com/invopop/jsonschema"
)

// This file is the one walk over the schema tree: every keyword of JSON
// Schema 2020-12 whose value holds subschemas, in one table. tidy,
// cloneSchema, noBooleanSchemas, the JSON writer, the Go-literal emitter and
// the compile check all go through eachChild or mapChildren, so a keyword
// added here reaches every one of them.

// keyword is a JSON Schema keyword whose value holds subschemas.
type keyword uint8

// The keywords, in the order the JSON writer (and invopop/jsonschema) puts
// them.
const (
	kwDefs keyword = iota
	kwAllOf
	kwAnyOf
	kwOneOf
	kwNot
	kwIf
	kwThen
	kwElse
	kwDependentSchemas
	kwPrefixItems
	kwItems
	kwContains
	kwProperties
	kwPatternProperties
	kwAdditionalProperties
	kwPropertyNames
	kwContentSchema
	kwUnevaluatedItems
	kwUnevaluatedProperties
	numKeywords
)

// slotKind is how a keyword holds its subschemas.
type slotKind uint8

const (
	slotOne   slotKind = iota // one subschema
	slotList                  // a list, by index
	slotDict                  // a map, by name (visited in sorted order)
	slotProps                 // properties, in their order
	slotExtra                 // a keyword invopop/jsonschema has no field for: Extras[name]
)

// keywords describes each keyword: its JSON name, its invopop/jsonschema
// field, how it holds subschemas, and whether the typed decoders check it
// (the others need the full validator).
var keywords = [numKeywords]struct {
	name, field string
	kind        slotKind
	compiled    bool
	one         func(*jsonschema.Schema) **jsonschema.Schema
	list        func(*jsonschema.Schema) *[]*jsonschema.Schema
	dict        func(*jsonschema.Schema) *map[string]*jsonschema.Schema
}{
	kwDefs: {name: "$defs", field: "Definitions", kind: slotDict, compiled: true,
		dict: func(s *jsonschema.Schema) *map[string]*jsonschema.Schema {
			return (*map[string]*jsonschema.Schema)(&s.Definitions)
		}},
	kwAllOf:            {name: "allOf", field: "AllOf", kind: slotList, list: func(s *jsonschema.Schema) *[]*jsonschema.Schema { return &s.AllOf }},
	kwAnyOf:            {name: "anyOf", field: "AnyOf", kind: slotList, list: func(s *jsonschema.Schema) *[]*jsonschema.Schema { return &s.AnyOf }},
	kwOneOf:            {name: "oneOf", field: "OneOf", kind: slotList, list: func(s *jsonschema.Schema) *[]*jsonschema.Schema { return &s.OneOf }},
	kwNot:              {name: "not", field: "Not", one: func(s *jsonschema.Schema) **jsonschema.Schema { return &s.Not }},
	kwIf:               {name: "if", field: "If", one: func(s *jsonschema.Schema) **jsonschema.Schema { return &s.If }},
	kwThen:             {name: "then", field: "Then", one: func(s *jsonschema.Schema) **jsonschema.Schema { return &s.Then }},
	kwElse:             {name: "else", field: "Else", one: func(s *jsonschema.Schema) **jsonschema.Schema { return &s.Else }},
	kwDependentSchemas: {name: "dependentSchemas", field: "DependentSchemas", kind: slotDict, dict: func(s *jsonschema.Schema) *map[string]*jsonschema.Schema { return &s.DependentSchemas }},
	kwPrefixItems:      {name: "prefixItems", field: "PrefixItems", kind: slotList, list: func(s *jsonschema.Schema) *[]*jsonschema.Schema { return &s.PrefixItems }},
	kwItems:            {name: "items", field: "Items", compiled: true, one: func(s *jsonschema.Schema) **jsonschema.Schema { return &s.Items }},
	kwContains:         {name: "contains", field: "Contains", one: func(s *jsonschema.Schema) **jsonschema.Schema { return &s.Contains }},
	kwProperties:       {name: "properties", field: "Properties", kind: slotProps, compiled: true},
	kwPatternProperties: {name: "patternProperties", field: "PatternProperties", kind: slotDict,
		dict: func(s *jsonschema.Schema) *map[string]*jsonschema.Schema { return &s.PatternProperties }},
	kwAdditionalProperties: {name: "additionalProperties", field: "AdditionalProperties", compiled: true,
		one: func(s *jsonschema.Schema) **jsonschema.Schema { return &s.AdditionalProperties }},
	kwPropertyNames: {name: "propertyNames", field: "PropertyNames", compiled: true,
		one: func(s *jsonschema.Schema) **jsonschema.Schema { return &s.PropertyNames }},
	// contentSchema only annotates: nothing to check.
	kwContentSchema: {name: "contentSchema", field: "ContentSchema", compiled: true,
		one: func(s *jsonschema.Schema) **jsonschema.Schema { return &s.ContentSchema }},
	kwUnevaluatedItems:      {name: "unevaluatedItems", kind: slotExtra},
	kwUnevaluatedProperties: {name: "unevaluatedProperties", kind: slotExtra},
}

// edge says where a subschema sits below its parent.
type edge struct {
	kw    keyword
	key   string // the name in a dict or properties
	index int    // the position in a list
}

// path is the edge's JSON pointer below its parent's, e.g. "/properties/a".
func (c edge) path() string {
	k := keywords[c.kw]
	switch k.kind {
	case slotList:
		return "/" + k.name + "/" + strconv.Itoa(c.index)
	case slotDict, slotProps:
		return "/" + k.name + "/" + c.key
	}
	return "/" + k.name
}

// eachChild calls fn for every subschema directly below s whose keyword is
// in [from, to], keyword by keyword in the table's order, until fn returns
// false; it reports whether fn never did. Boolean schemas (true, false) are
// children too.
func eachChild(s *jsonschema.Schema, from, to keyword, fn func(c edge, sub *jsonschema.Schema) bool) bool {
	return walkChildren(s, from, to, true, fn)
}

// walkChildren is eachChild, with maps in sorted order or not.
func walkChildren(s *jsonschema.Schema, from, to keyword, sorted bool, fn func(c edge, sub *jsonschema.Schema) bool) bool {
	if s == nil || s == jsonschema.TrueSchema || s == jsonschema.FalseSchema {
		return true
	}
	for kw := from; kw <= to; kw++ {
		if !eachIn(s, kw, sorted, fn) {
			return false
		}
	}
	return true
}

// eachIn calls fn for every subschema of keyword kw of s, until fn returns
// false: a list by index, a dict in sorted order (if sorted), properties in
// theirs.
func eachIn(s *jsonschema.Schema, kw keyword, sorted bool, fn func(c edge, sub *jsonschema.Schema) bool) bool {
	k := &keywords[kw]
	switch k.kind {
	case slotOne:
		if x := *k.one(s); x != nil {
			return fn(edge{kw: kw}, x)
		}
	case slotList:
		for i, x := range *k.list(s) {
			if !fn(edge{kw: kw, index: i}, x) {
				return false
			}
		}
	case slotDict:
		m := *k.dict(s)
		if !sorted || len(m) < 2 {
			for name, x := range m {
				if !fn(edge{kw: kw, key: name}, x) {
					return false
				}
			}
			return true
		}
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if !fn(edge{kw: kw, key: name}, m[name]) {
				return false
			}
		}
	case slotProps:
		if s.Properties != nil {
			for p := s.Properties.Oldest(); p != nil; p = p.Next() {
				if !fn(edge{kw: kw, key: p.Key}, p.Value) {
					return false
				}
			}
		}
	case slotExtra:
		if x, ok := s.Extras[k.name].(*jsonschema.Schema); ok {
			return fn(edge{kw: kw}, x)
		}
	}
	return true
}

// present reports whether s has keyword kw at all: a nil list or map is
// absent, an empty one present.
func present(s *jsonschema.Schema, kw keyword) bool {
	k := &keywords[kw]
	switch k.kind {
	case slotOne:
		return *k.one(s) != nil
	case slotList:
		return *k.list(s) != nil
	case slotDict:
		return *k.dict(s) != nil
	case slotProps:
		return s.Properties != nil
	}
	_, ok := s.Extras[k.name].(*jsonschema.Schema)
	return ok
}

// children calls fn for every subschema directly below s, in no
// particular order.
func children(s *jsonschema.Schema, fn func(c edge, sub *jsonschema.Schema)) {
	walkChildren(s, 0, numKeywords-1, false, func(c edge, sub *jsonschema.Schema) bool { fn(c, sub); return true })
}

// mapChildren returns a shallow copy of s in which every subschema is f of
// the original, in containers of its own (lists, maps, properties and
// Extras are new; nil stays nil).
func mapChildren(s *jsonschema.Schema, f func(*jsonschema.Schema) *jsonschema.Schema) *jsonschema.Schema {
	c := *s
	if s.Extras != nil {
		c.Extras = maps.Clone(s.Extras)
	}
	for kw := range numKeywords {
		k := &keywords[kw]
		switch k.kind {
		case slotOne:
			if x := *k.one(s); x != nil {
				*k.one(&c) = f(x)
			}
		case slotList:
			if l := *k.list(s); l != nil {
				out := make([]*jsonschema.Schema, len(l))
				for i, x := range l {
					out[i] = f(x)
				}
				*k.list(&c) = out
			}
		case slotDict:
			if m := *k.dict(s); m != nil {
				out := make(map[string]*jsonschema.Schema, len(m))
				for name, x := range m {
					out[name] = f(x)
				}
				*k.dict(&c) = out
			}
		case slotProps:
			if s.Properties != nil {
				c.Properties = jsonschema.NewProperties()
				for p := s.Properties.Oldest(); p != nil; p = p.Next() {
					c.Properties.Set(p.Key, f(p.Value))
				}
			}
		case slotExtra:
			if x, ok := s.Extras[k.name].(*jsonschema.Schema); ok {
				c.Extras[k.name] = f(x)
			}
		}
	}
	return &c
}

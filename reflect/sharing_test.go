package mcpreflect

import (
	"reflect"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// noSharedNodes fails when a node of the published schema tree appears at
// two places: a struct type's template may be published as it is only when
// one place takes it.
func noSharedNodes(t *testing.T, name string, s *jsonschema.Schema) {
	t.Helper()
	seen := map[*jsonschema.Schema]string{}
	var walk func(s *jsonschema.Schema, path string)
	walk = func(s *jsonschema.Schema, path string) {
		if s == nil || s == jsonschema.TrueSchema || s == jsonschema.FalseSchema {
			return
		}
		if other, ok := seen[s]; ok {
			t.Errorf("%s: one schema node at %s and %s", name, other, path)
			return
		}
		seen[s] = path
		if s.Properties != nil {
			for p := s.Properties.Oldest(); p != nil; p = p.Next() {
				walk(p.Value, path+"/properties/"+p.Key)
			}
		}
		for k, d := range s.Definitions {
			walk(d, path+"/$defs/"+k)
		}
		walk(s.Items, path+"/items")
		walk(s.AdditionalProperties, path+"/additionalProperties")
		walk(s.PropertyNames, path+"/propertyNames")
		for i, l := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
			for j, x := range l {
				walk(x, path+"/"+[]string{"allOf", "anyOf", "oneOf", "prefixItems"}[i]+"/"+string(rune('0'+j)))
			}
		}
		walk(s.Not, path+"/not")
	}
	walk(s, "#")
}

type shareInner struct {
	V string `json:"v" validate:"required,max=3"`
}

// shareDeep is reached only through shareEmbedded, which two types embed:
// each takes the promoted field, so shareDeep is taken twice.
type shareDeep struct {
	V string `json:"v" validate:"required,max=3"`
}

type shareEmbedded struct {
	In shareDeep `json:"in"`
}

type shareA struct {
	shareEmbedded
	A int `json:"a"`
}

type shareB struct {
	shareEmbedded
	B int `json:"b"`
}

type shareTwice struct {
	One   shareInner   `json:"one" jsonschema:"description=the first"`
	Two   shareInner   `json:"two" jsonschema:"description=the second"`
	Solo  *shareA      `json:"solo,omitempty" jsonschema:"description=only once"`
	Other shareB       `json:"other"`
	List  []shareInner `json:"list,omitempty"`
}

func TestSchemaNodesNotShared(t *testing.T) {
	for _, e := range zoo {
		if e.in == nil {
			continue
		}
		p, err := buildPlan(e.in, e.opts)
		require.NoError(t, err, e.name)
		noSharedNodes(t, e.name, p.Schema)
	}
	p, err := buildPlan(reflect.TypeFor[shareTwice](), Options{})
	require.NoError(t, err)
	noSharedNodes(t, "shareTwice", p.Schema)
	// Each taker's own keywords stay its own.
	assert.JSONEq(t, `{
		"type":"object","additionalProperties":false,
		"required":["one","two","other"],
		"properties":{
			"one":{"type":"object","additionalProperties":false,"required":["v"],"description":"the first","properties":{"v":{"type":"string","minLength":1,"maxLength":3}}},
			"two":{"type":"object","additionalProperties":false,"required":["v"],"description":"the second","properties":{"v":{"type":"string","minLength":1,"maxLength":3}}},
			"solo":{"type":"object","additionalProperties":false,"required":["in","a"],"description":"only once","properties":{
				"in":{"type":"object","additionalProperties":false,"required":["v"],"properties":{"v":{"type":"string","minLength":1,"maxLength":3}}},"a":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}}},
			"other":{"type":"object","additionalProperties":false,"required":["in","b"],"properties":{
				"in":{"type":"object","additionalProperties":false,"required":["v"],"properties":{"v":{"type":"string","minLength":1,"maxLength":3}}},"b":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}}},
			"list":{"type":"array","items":{"type":"object","additionalProperties":false,"required":["v"],"properties":{"v":{"type":"string","minLength":1,"maxLength":3}}}}
		}}`, string(p.SchemaJSON))
	// And the decoder checks every place.
	_, err = p.DecodeValue([]byte(`{"one":{"v":"abcd"},"two":{"v":"a"},"other":{"in":{"v":"long!"},"b":1},"list":[{"v":"x"},{"v":"xxxx"}],"solo":{"in":{"v":"abcde"},"a":1}}`))
	var ae *ArgumentsError
	require.ErrorAs(t, err, &ae)
	var paths []string
	for _, v := range ae.Violations {
		paths = append(paths, v.Path)
	}
	assert.ElementsMatch(t, []string{"one.v", "other.in.v", "list[1].v", "solo.in.v"}, paths)
}

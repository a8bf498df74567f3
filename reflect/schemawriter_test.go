package mcpreflect

import (
	"encoding/json"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// marshalSchema writes exactly what json.Marshal does through invopop's
// MarshalJSON, for every schema of the zoo and a few hand-made ones.
func TestMarshalSchemaMatchesInvopop(t *testing.T) {
	var schemas []*jsonschema.Schema
	for _, e := range zoo {
		if e.in != nil {
			p, err := buildPlan(e.in, e.opts)
			require.NoError(t, err, e.name)
			schemas = append(schemas, p.Schema)
		}
		if e.out != nil {
			o, err := buildOutput(e.out, e.opts)
			require.NoError(t, err, e.name)
			if o.Schema != nil {
				schemas = append(schemas, o.Schema)
			}
		}
	}
	props := jsonschema.NewProperties()
	props.Set("a<b", &jsonschema.Schema{Type: "string", Description: "x & y <z>"})
	props.Set("empty", &jsonschema.Schema{})
	schemas = append(schemas,
		&jsonschema.Schema{},
		jsonschema.TrueSchema, jsonschema.FalseSchema,
		&jsonschema.Schema{Properties: props, Extras: map[string]any{"x-b": 1, "x-a": []string{"q"}}},
		&jsonschema.Schema{Extras: map[string]any{"x-only": true}},
		&jsonschema.Schema{Extras: map[string]any{}},
		&jsonschema.Schema{Const: false, Default: 0, Enum: []any{}, Examples: []any{nil}},
		&jsonschema.Schema{Definitions: jsonschema.Definitions{"b": {Type: "string"}, "a": jsonschema.FalseSchema},
			DependentRequired: map[string][]string{"z": {"a"}, "y": {}}, AllOf: []*jsonschema.Schema{{Not: &jsonschema.Schema{}}}},
	)
	var parsed jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(`false`), &parsed))
	schemas = append(schemas, &parsed) // a boolean schema that is not the package's
	require.Greater(t, len(schemas), 40)
	for _, s := range schemas {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		got, err := marshalSchema(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	}
}

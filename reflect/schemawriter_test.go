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
	seven := uint64(7)
	schemas = append(schemas,
		&jsonschema.Schema{Minimum: "-1.5e+3", Maximum: "0", MultipleOf: "0.25", ExclusiveMinimum: "1E-2", MaxLength: &seven, UniqueItems: true},
		&jsonschema.Schema{Description: "tab\there, \"quoted\" \\ é \u2028 \x01 \xff", Required: []string{"a&b", "ünï", ""}, Pattern: `^\d+$`},
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
	for _, bad := range []json.Number{"01", "1.", ".5", "1e", "-", "+1", "1e+", "0x10", "NaN"} {
		_, wantErr := json.Marshal(&jsonschema.Schema{Minimum: bad})
		_, err := marshalSchema(&jsonschema.Schema{Minimum: bad})
		assert.Error(t, wantErr, bad)
		assert.Error(t, err, bad)
	}
	for _, good := range []string{"0", "-0", "12", "1.25", "1e9", "-2.5E-3", "0.0e+0"} {
		assert.True(t, isJSONNumber(good), good)
	}
}

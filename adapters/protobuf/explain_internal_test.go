package mcpproto

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Each numeric rule's violation names its bound, exactly, and the number
// as sent.
func TestExplainNumberRules(t *testing.T) {
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal([]byte(`{"type":"object","properties":{
		"min":{"type":"number","minimum":0.5},
		"max":{"type":"integer","maximum":10},
		"xmin":{"type":"number","exclusiveMinimum":-1.25},
		"xmax":{"type":"number","exclusiveMaximum":1e3},
		"mult":{"type":"number","multipleOf":0.25}}}`), &s))
	in, err := newInputSchema(nil, &s)
	require.NoError(t, err)
	err = in.violations([]byte(`{"min":0.1,"max":11,"xmin":-1.25,"xmax":1000.0,"mult":1.3}`), errors.New("refused"))
	var ae *mcpreflect.ArgumentsError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, []mcpreflect.Violation{
		{Path: "max", Rule: "maximum", Msg: "must be at most 10, got 11"},
		{Path: "min", Rule: "minimum", Msg: "must be at least 0.5, got 0.1"},
		{Path: "mult", Rule: "multipleOf", Msg: "must be a multiple of 0.25, got 1.3"},
		{Path: "xmax", Rule: "exclusiveMaximum", Msg: "must be less than 1000, got 1000.0"},
		{Path: "xmin", Rule: "exclusiveMinimum", Msg: "must be greater than -1.25, got -1.25"},
	}, ae.Violations)
}

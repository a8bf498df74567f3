package mcpproto

import (
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"

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

// A field given by its .proto name is told its JSON name, json_name
// options included: the descriptor says it, not a guess from the name.
func TestExplainProtoNameSpelling(t *testing.T) {
	var fdp descriptorpb.FileDescriptorProto
	require.NoError(t, prototext.Unmarshal([]byte(`
		name: "spelling.proto" package: "spelling" syntax: "proto3"
		message_type {
			name: "Req"
			field { name: "order_id" number: 1 type: TYPE_STRING label: LABEL_OPTIONAL json_name: "orderId" }
			field { name: "ship_to" number: 2 type: TYPE_STRING label: LABEL_OPTIONAL json_name: "destination" }
			field { name: "items" number: 3 type: TYPE_MESSAGE label: LABEL_REPEATED type_name: ".spelling.Item" json_name: "items" }
		}
		message_type {
			name: "Item"
			field { name: "unit_sku" number: 1 type: TYPE_STRING label: LABEL_OPTIONAL json_name: "sku" }
		}`), &fdp))
	fd, err := protodesc.NewFile(&fdp, nil)
	require.NoError(t, err)
	md := fd.Messages().ByName("Req")
	in, err := newInputSchema(md, newSchemaBuilder(md, nil, nil, false).root(md))
	require.NoError(t, err)
	err = in.violations([]byte(`{"order_id":"o","ship_to":"x","items":[{"unit_sku":"a"}]}`), errors.New("refused"))
	var ae *mcpreflect.ArgumentsError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, []mcpreflect.Violation{
		{Path: "items[0].unit_sku", Rule: "additionalProperties", Msg: "unknown field; this field is spelt sku"},
		{Path: "order_id", Rule: "additionalProperties", Msg: "unknown field; this field is spelt orderId"},
		{Path: "ship_to", Rule: "additionalProperties", Msg: "unknown field; this field is spelt destination"},
	}, ae.Violations)
}

// exact prints a bound as a decimal when it has a finite expansion, with
// no trailing zeros, else as a fraction.
func TestExact(t *testing.T) {
	for in, want := range map[string]string{
		"3": "3", "-5/4": "-1.25", "1/1024": "0.0009765625", "1/3": "1/3", "7/6": "7/6", "1/20": "0.05", "-1/1000": "-0.001",
	} {
		r, ok := new(big.Rat).SetString(in)
		require.True(t, ok, in)
		assert.Equal(t, want, exact(r), in)
	}
	assert.Equal(t, "?", exact(nil))
}

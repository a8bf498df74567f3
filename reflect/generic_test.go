package mcpreflect

import (
	"testing"

	"github.com/invopop/jsonschema"
)

// genericEmail is checked by the full validator only: its schema comes from
// JSONSchema().
type genericEmail string

func (genericEmail) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Format: "email"}
}

type genericOneOf struct {
	N int `json:"n,omitempty"`
	S int `json:"s,omitempty"`
}

func (genericOneOf) JSONSchemaExtend(s *jsonschema.Schema) {
	s.OneOf = []*jsonschema.Schema{{Required: []string{"n"}}, {Required: []string{"s"}}}
}

type genericArgs struct {
	Range ZooRange     `json:"range,omitempty"`
	Mail  genericEmail `json:"mail,omitempty"`
	Pick  genericOneOf `json:"pick,omitempty"`
}

// The full validator's errors read like the typed decoders' violations: the
// keyword that failed is the rule, the value it failed on is the path, and
// every failure is named.
func TestGenericViolations(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want []Violation
	}{
		{`{"range":[1,"x"]}`, []Violation{{Path: "range[1]", Rule: "type", Msg: "must be an integer, got string"}}},
		{`{"range":[1.5,"x"]}`, []Violation{
			{Path: "range[0]", Rule: "type", Msg: "must be an integer, got number"},
			{Path: "range[1]", Rule: "type", Msg: "must be an integer, got string"}}},
		{`{"range":[1]}`, []Violation{{Path: "range", Rule: "minItems", Msg: "got 1, want 2"}}},
		{`{"range":[1,9223372036854775808]}`, []Violation{{Path: "range[1]", Rule: "maximum", Msg: "must be at most 9223372036854775807, got 9223372036854775808"}}},
		// Formats are asserted with mcpgen's own checks: validator's email.
		{`{"mail":"a@b"}`, []Violation{{Path: "mail", Rule: "format", Msg: "'a@b' is not valid email: must be a valid email"}}},
		{`{"pick":{"n":1,"s":2}}`, []Violation{{Path: "pick", Rule: "oneOf", Msg: "'oneOf' failed, subschemas 0, 1 matched"}}},
	} {
		_, err := decodeInto[genericArgs](t, c.doc)
		wantViolations(t, err, c.want...)
	}
	if _, err := decodeInto[genericArgs](t, `{"range":[1,2e0],"mail":"a@example.com","pick":{"s":1}}`); err != nil {
		t.Error(err)
	}
}

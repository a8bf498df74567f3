package mcpreflect

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The full validator's errors read like the typed decoders' violations: the
// keyword that failed is the rule, the schema locations are dropped.
func TestGenericViolation(t *testing.T) {
	for _, c := range []struct{ in, rule, msg string }{
		{`validating root: enum: false does not equal any of: [true]`, "enum", "false does not equal any of: [true]"},
		{`validating root: validating /properties/a: validating /items: minimum: 0 is less than 1`, "minimum", "0 is less than 1"},
		{`validating root: $ref: cannot resolve`, "$ref", "cannot resolve"},
		{`validating root: anyOf: did not validate against any of [...]`, "anyOf", "did not validate against any of [...]"},
		{`something else entirely`, "schema", "something else entirely"},
		{`validating root: not a keyword: detail`, "schema", "not a keyword: detail"},
		{`validating root: pattern: `, "schema", "pattern: "},
		{`validating root`, "schema", "validating root"},
	} {
		rule, msg := genericViolation(errors.New(c.in))
		assert.Equal(t, c.rule, rule, c.in)
		assert.Equal(t, c.msg, msg, c.in)
	}
}

package mcpreflect

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzDecodeZoo decodes arbitrary bytes with the plan of every zoo argument
// type. Decoding never panics, fails only with the two documented error
// types, calls malformed JSON a syntax error, and never calls well-formed
// JSON malformed. Blank input means no arguments.
func FuzzDecodeZoo(f *testing.F) {
	for _, e := range zoo {
		for _, v := range e.valid {
			f.Add([]byte(v))
		}
		for _, c := range e.invalid {
			f.Add([]byte(c.doc))
		}
	}
	for _, s := range []string{``, `null`, `{`, `{"a":`, `[]`, `"x"`, `{"a":1}x`, `{"\ud800":1}`, "{\"q\":\"\xff\"}",
		`{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
		`{"n":1e400}`, `{"n":-0}`, `{"n":9223372036854775808}`, `{"__proto__":{"x":1}}`} {
		f.Add([]byte(s))
	}
	var plans []*Plan
	for _, e := range zoo {
		if e.in == nil {
			continue
		}
		p, err := buildPlan(e.in, e.opts)
		if err != nil {
			f.Fatal(err)
		}
		plans = append(plans, p)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := len(bytes.Trim(data, " \t\r\n")) == 0 || json.Valid(data) // empty or JSON whitespace: no arguments
		for _, p := range plans {
			_, err := p.DecodeValue(data)
			var se *syntaxError
			var ae *ArgumentsError
			switch {
			case err == nil:
				if !valid {
					t.Fatalf("%s accepted malformed JSON %q", p.Type, data)
				}
			case errors.As(err, &se):
				if valid {
					t.Fatalf("%s called well-formed JSON %q malformed: %v", p.Type, data, err)
				}
			case errors.As(err, &ae):
				if len(ae.Violations) == 0 {
					t.Fatalf("%s: an ArgumentsError without violations for %q", p.Type, data)
				}
				if !valid && ae.Violations[len(ae.Violations)-1].Rule != "maxDepth" {
					t.Fatalf("%s: malformed JSON %q reported as %v", p.Type, data, err)
				}
			default:
				t.Fatalf("%s: unexpected error type %T: %v", p.Type, err, err)
			}
		}
	})
}

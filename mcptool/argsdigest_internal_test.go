package mcptool

import (
	"bytes"
	"testing"
)

// TestArgsDigest: arguments share a digest only when no tool can tell
// them apart; whitespace and the spelling of a string's code points are
// all they may differ in.
func TestArgsDigest(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		// The same value.
		{`{"id":1}`, `{"id":1}`, true},
		{`{"id":1}`, " {\n\t\"id\" : 1\r\n} ", true},
		{`{"s":"A\u00e9\ud83d\ude00"}`, `{"s":"\u0041é😀"}`, true},
		{`{"s":"a/b"}`, `{"s":"a\/b"}`, true},
		{`{"s":"\n"}`, `{"s":"\u000a"}`, true},
		{`{"\u0069d":7}`, `{"id":7}`, true},
		{`{"s":"\ud800"}`, `{"s":"\ufffd"}`, true}, // a lone surrogate is U+FFFD to every decoder
		{`[1,[2,{}]]`, `[ 1 , [ 2 , { } ] ]`, true},

		// Numbers by their exact text.
		{`{"id":9007199254740992}`, `{"id":9007199254740993}`, false},
		{`{"id":-9223372036854775808}`, `{"id":-9223372036854775807}`, false},
		{`{"id":18446744073709551615}`, `{"id":18446744073709551614}`, false},
		{`{"x":0.1}`, `{"x":0.1000000000000000055511151231257827}`, false},
		{`{"x":1e400}`, `{"x":1e401}`, false},
		{`{"x":123456789.123456789123456789}`, `{"x":123456789.123456789123456788}`, false},
		{`{"x":0}`, `{"x":-0}`, false},
		{`{"x":1}`, `{"x":1.0}`, false}, // a json.RawMessage or an interface field holds the text
		{`{"x":1}`, `{"x":1e0}`, false},
		{`{"x":1}`, `{"x":"1"}`, false},

		// Strings by their code points.
		{`{"s":"a"}`, `{"s":"A"}`, false},
		{`{"s":"é"}`, `{"s":"e\u0301"}`, false}, // no Unicode normalization: the tool sees other bytes
		{`{"s":"a\u0000"}`, `{"s":"a"}`, false},
		{`{"s":""}`, `{"s":null}`, false},

		// Structure: member order and duplicates count, as decoders that
		// take the last of two names or fold case read them.
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, false},
		{`{"a":1,"a":2}`, `{"a":2}`, false},
		{`{"a":1,"a":2}`, `{"a":2,"a":1}`, false},
		{`{"id":1,"ID":2}`, `{"ID":2,"id":1}`, false},
		{`{"a":[1,2]}`, `{"a":[2,1]}`, false},
		{`{"a":["x","y"]}`, `{"a":["xy"]}`, false},
		{`{"a":{"b":1}}`, `{"a":{},"b":1}`, false},
		{`{"a":true}`, `{"a":false}`, false},
		{`{"a":null}`, `{}`, false},
		{`{}`, `[]`, false},

		// Not one JSON value: the bytes themselves.
		{`{"id":1} {"id":2}`, `{"id":1} {"id":3}`, false},
		{`{"id":1}x`, `{"id":1}`, false},
		{``, `{}`, false},
	} {
		got := bytes.Equal(argsDigest([]byte(c.a)), argsDigest([]byte(c.b)))
		if got != c.same {
			t.Errorf("argsDigest(%s) == argsDigest(%s): %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

package mcpopenapi

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

// decodeJSON reads one JSON document as the validator reads it
// (sjs.UnmarshalJSON: objects as map[string]any, numbers as json.Number as
// written), without a json.Decoder's buffers. Anything it does not read
// plainly (an error, a nesting past 1000) is read again by
// sjs.UnmarshalJSON, which gives the value or the error
// (TestDecodeAgreement).
func decodeJSON(b []byte) (any, error) {
	d := jsonReader{b: b}
	v, ok := d.value(0)
	if ok {
		d.space()
		if d.i == len(d.b) {
			return v, nil
		}
	}
	return sjs.UnmarshalJSON(bytes.NewReader(b))
}

type jsonReader struct {
	b []byte
	i int
}

func (d *jsonReader) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *jsonReader) literal(s string) bool {
	if len(d.b)-d.i >= len(s) && string(d.b[d.i:d.i+len(s)]) == s {
		d.i += len(s)
		return true
	}
	return false
}

// value reads one value; false: not plainly read.
func (d *jsonReader) value(depth int) (any, bool) {
	d.space()
	if d.i >= len(d.b) || depth > 1000 {
		return nil, false
	}
	switch c := d.b[d.i]; {
	case c == '{':
		d.i++
		obj := map[string]any{}
		d.space()
		if d.i < len(d.b) && d.b[d.i] == '}' {
			d.i++
			return obj, true
		}
		for {
			d.space()
			k, ok := d.str()
			if !ok {
				return nil, false
			}
			d.space()
			if d.i >= len(d.b) || d.b[d.i] != ':' {
				return nil, false
			}
			d.i++
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			obj[k] = v
			d.space()
			if d.i >= len(d.b) {
				return nil, false
			}
			switch d.b[d.i] {
			case ',':
				d.i++
			case '}':
				d.i++
				return obj, true
			default:
				return nil, false
			}
		}
	case c == '[':
		d.i++
		arr := []any{}
		d.space()
		if d.i < len(d.b) && d.b[d.i] == ']' {
			d.i++
			return arr, true
		}
		for {
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			arr = append(arr, v)
			d.space()
			if d.i >= len(d.b) {
				return nil, false
			}
			switch d.b[d.i] {
			case ',':
				d.i++
			case ']':
				d.i++
				return arr, true
			default:
				return nil, false
			}
		}
	case c == '"':
		return d.str()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	return nil, false
}

// str reads a string: as it is when it has no escape and is valid UTF-8,
// else by encoding/json.
func (d *jsonReader) str() (string, bool) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return "", false
	}
	start := d.i
	plain := true
	for j := start + 1; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			d.i = j + 1
			if plain {
				return string(d.b[start+1 : j]), true
			}
			var s string
			if json.Unmarshal(d.b[start:d.i], &s) != nil {
				return "", false
			}
			return s, true
		case c == '\\':
			plain = false
			j++ // the escaped byte, which may be a quote
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	return "", false
}

// number reads a number as JSON's grammar writes it.
func (d *jsonReader) number() (json.Number, bool) {
	b, i := d.b, d.i
	digits := func() bool {
		n := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i > n
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return "", false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return "", false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return "", false
		}
	}
	n := json.Number(b[d.i:i])
	d.i = i
	return n, true
}

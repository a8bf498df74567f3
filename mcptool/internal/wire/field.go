package wire

import (
	"encoding/json"
	"errors"
)

// errStop ends a reading early: what it looked for was found.
var errStop = errors.New("wire: stop")

// Field returns the value, as it is in obj, of the member of obj (a JSON
// object) at path: path[0] a key of obj, path[1] a key of that member's
// object, and so on. It reads obj only as far as it must, checking the
// objects' keys and separators but not the values it passes over (what
// decodes obj later checks them), and allocates nothing for keys without
// escapes. The
// first member with a key is taken, where encoding/json takes the last: a
// caller that must agree with a decoder decodes what Field found (as
// sdkpatch.LiftParam does), Field only spares it the decoding of the
// messages that lack the member.
func Field(obj []byte, path ...string) (json.RawMessage, bool) {
	s := scanner{b: obj}
	for _, key := range path {
		if !s.atObject() {
			return nil, false
		}
		found := false
		err := s.object(0, func(k []byte, plain bool) error {
			if plain && string(k) == key || !plain && decodeString(k) == key {
				found = true
				return errStop // at the member's value
			}
			return s.skip()
		})
		if !found || err != errStop {
			return nil, false
		}
	}
	start := s.i
	if s.skip() != nil {
		return nil, false
	}
	return s.b[start:s.i], true
}

// Members calls fn with each member of obj, a JSON object, in order: its
// key, decoded (a sub-slice of obj when it has no escapes, so a caller
// that keeps it copies it), and its value as it is in obj (not checked, as
// in Field), until fn returns false. It reports whether obj is an object,
// its keys and separators JSON as far as read.
func Members(obj []byte, fn func(key []byte, value json.RawMessage) bool) bool {
	s := scanner{b: obj}
	if !s.atObject() {
		return false
	}
	err := s.object(0, func(k []byte, plain bool) error {
		if !plain {
			k = []byte(decodeString(k))
		}
		start := s.i
		if err := s.skip(); err != nil {
			return err
		}
		if !fn(k, s.b[start:s.i]) {
			return errStop
		}
		return nil
	})
	return err == nil || err == errStop
}

// atObject skips space and reports whether an object opens there.
func (s *scanner) atObject() bool {
	s.space()
	return s.i < len(s.b) && s.b[s.i] == '{'
}

// skip moves s.i past the value at s.i, following its strings and nesting
// only: a string ends at its first unescaped quote, a scalar at the first
// byte that may follow a value. Field and Members pass over values so, at
// the speed of a search for bytes; Scan checks every value.
func (s *scanner) skip() error {
	b, i, depth := s.b, s.i, 0
	for i < len(b) {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++ // the escaped byte cannot end the string
				}
			}
			if i >= len(b) {
				s.i = len(b)
				return s.errf("unexpected end of input")
			}
			i++
		case '{', '[':
			depth++
			i++
			continue
		case '}', ']':
			if depth == 0 {
				s.i = i
				return s.errf("invalid character %s looking for beginning of value", quoteChar(b[i]))
			}
			depth--
			i++
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				s.i = i
				return s.errf("invalid character %s looking for beginning of value", quoteChar(b[i]))
			}
			i++
			continue
		default:
			for i < len(b) && !endsScalar(b[i]) {
				i++
			}
		}
		if depth == 0 {
			s.i = i
			return nil
		}
	}
	s.i = i
	return s.errf("unexpected end of input")
}

// endsScalar reports whether c may follow a number or literal.
func endsScalar(c byte) bool {
	switch c {
	case ',', ':', '}', ']', ' ', '\t', '\n', '\r':
		return true
	}
	return false
}

// Text returns the text of v, a JSON string as Field or Members return it,
// decoded as encoding/json decodes it ("" when it is not valid); ok is
// false when v is not a string.
func Text(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	in := v[1 : len(v)-1]
	for _, c := range in {
		if c == '\\' || c >= 0x80 {
			return decodeString(in), true
		}
	}
	return string(in), true
}

package wire

import (
	"encoding/json"
	"strconv"
)

// DecodeAny returns the value of v, JSON that [Scan] has validated (a
// sub-slice it captured), as encoding/json decodes it into an any: objects
// as map[string]any (the last of repeated keys winning), arrays as []any,
// numbers as float64. ok is false when encoding/json would fail (a number
// out of float64's range) or v is not a value Scan validated.
func DecodeAny(v []byte) (any, bool) {
	d := decoder{b: v}
	x, ok := d.value()
	if !ok {
		return nil, false
	}
	d.space()
	return x, d.i == len(d.b)
}

// Decoded returns the message's id and params' _meta as encoding/json
// decodes them into an any and a map[string]any, each value decoded once:
// the _meta from the members Scan captured when params has one _meta
// object (nil for none or null; repeated, each decoded into the same map,
// as encoding/json does). ok is false when either does not decode.
func (m *Message) Decoded() (id any, meta map[string]any, ok bool) {
	if id, ok = DecodeAny(m.ID); !ok {
		var v any // here: its address would move every id to the heap
		if json.Unmarshal(m.ID, &v) != nil {
			return nil, nil, false
		}
		id = v
	}
	n := 0
	var raw json.RawMessage
	for _, p := range m.Params {
		if p.Key == "_meta" {
			n++
			raw = p.Value
		}
	}
	switch {
	case n == 0 || (n == 1 && string(raw) == "null"):
		return id, nil, true
	case n == 1 && raw[0] == '{':
		meta = make(map[string]any, len(m.Meta))
		for _, mb := range m.Meta {
			v, ok := DecodeAny(mb.Value)
			if !ok {
				return nil, nil, false
			}
			meta[mb.Key] = v
		}
		return id, meta, true
	}
	var all map[string]any
	for _, p := range m.Params {
		if p.Key == "_meta" && json.Unmarshal(p.Value, &all) != nil {
			return nil, nil, false
		}
	}
	return id, all, true
}

type decoder struct {
	b []byte
	i int
}

func (d *decoder) space() { d.i = skipSpace(d.b, d.i) }

func (d *decoder) value() (any, bool) {
	d.space()
	if d.i >= len(d.b) {
		return nil, false
	}
	switch c := d.b[d.i]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		s, ok := d.str()
		return s, ok
	case c == 't':
		return true, d.lit("true")
	case c == 'f':
		return false, d.lit("false")
	case c == 'n':
		return nil, d.lit("null")
	}
	start := d.i
	for d.i < len(d.b) {
		c := d.b[d.i]
		if c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E' && !isDigit(c) {
			break
		}
		d.i++
	}
	f, err := strconv.ParseFloat(string(d.b[start:d.i]), 64)
	return f, err == nil && d.i > start
}

func (d *decoder) lit(s string) bool {
	if len(d.b)-d.i < len(s) || string(d.b[d.i:d.i+len(s)]) != s {
		return false
	}
	d.i += len(s)
	return true
}

// str decodes the string at d.i, as encoding/json does.
func (d *decoder) str() (string, bool) {
	start := d.i + 1
	plain := true
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '\\':
			plain = false
			j++ // the escaped byte cannot end the string
		case c >= 0x80:
			plain = false
		case c == '"':
			d.i = j + 1
			if plain {
				return string(d.b[start:j]), true
			}
			return decodeString(d.b[start:j]), true
		}
	}
	return "", false
}

func (d *decoder) object() (any, bool) {
	m := map[string]any{}
	for more := d.open('}'); more; {
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.space()
		if d.i >= len(d.b) || d.b[d.i] != ':' {
			return nil, false
		}
		d.i++
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		m[k] = v
		if more, ok = d.next('}'); !ok {
			return nil, false
		}
	}
	return m, true
}

func (d *decoder) array() (any, bool) {
	a := []any{}
	for more := d.open(']'); more; {
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		a = append(a, v)
		if more, ok = d.next(']'); !ok {
			return nil, false
		}
	}
	return a, true
}

// open reads the opening byte of the object or array at d.i, and reports
// whether a member or element follows, false when its closing byte end
// does (read too).
func (d *decoder) open(end byte) bool {
	d.i++ // { or [
	d.space()
	if d.i < len(d.b) && d.b[d.i] == end {
		d.i++
		return false
	}
	return true
}

// next reads what follows a member or element: a comma (more) or the
// container's closing byte end; ok is false for anything else.
func (d *decoder) next(end byte) (more, ok bool) {
	var c byte
	d.i, c = afterValue(d.b, d.i, end)
	return c == ',', c != 0
}

// skipSpace is the offset of the first byte of b from i on that is not
// JSON white space, len(b) when there is none. It and afterValue serve
// the scanner (scan.go) too.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// afterValue reads what follows a member or element, from b[i] on: space,
// then a comma or the container's closing byte end. It returns the offset
// past them and the byte read, or, when neither follows, the offset of
// what does (len(b) at the end of input) and 0.
func afterValue(b []byte, i int, end byte) (int, byte) {
	i = skipSpace(b, i)
	if i < len(b) && (b[i] == ',' || b[i] == end) {
		return i + 1, b[i]
	}
	return i, 0
}

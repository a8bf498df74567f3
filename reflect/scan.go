package mcpreflect

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeState is one decoding of one arguments object. It is pooled.
type decodeState struct {
	data     []byte
	pos      int
	depth    int
	maxDepth int
	path     []pathSeg
	errs     []Violation
	keys     [][]int // each violation's path as schema positions (see sortedErrs)
}

type pathSeg struct {
	name  string
	index int // -1 when the segment is a property name
	order int // the segment's place in the schema: a property's position, an element's index
}

// maxViolations bounds the violations one call reports.
const maxViolations = 64

// errTooDeep aborts a decoding nested deeper than its limit.
type errTooDeep struct{}

func (d *decodeState) reset(data []byte, maxDepth int) {
	d.data, d.pos, d.depth, d.maxDepth = data, 0, 0, maxDepth
	d.path = d.path[:0]
	d.errs = nil
	d.keys = d.keys[:0]
}

// pushName enters property n, at position order of its object's schema
// (map members and unknown properties share a position: they keep the order
// they came in).
func (d *decodeState) pushName(n string, order int) {
	d.path = append(d.path, pathSeg{name: n, index: -1, order: order})
}
func (d *decodeState) pushIndex(i int) { d.path = append(d.path, pathSeg{index: i, order: i}) }
func (d *decodeState) pop()            { d.path = d.path[:len(d.path)-1] }

func (d *decodeState) enter() {
	d.depth++
	if d.depth > d.maxDepth {
		d.violate("maxDepth", "is nested more than "+strconv.Itoa(d.maxDepth)+" levels deep")
		panic(errTooDeep{})
	}
}

func (d *decodeState) leave() { d.depth-- }

// pathString renders the current path as json names: filters[2].from.
func (d *decodeState) pathString() string {
	return renderPath(d.path)
}

func renderPath(path []pathSeg) string {
	var b strings.Builder
	for _, s := range path {
		if s.index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		if isPlainName(s.name) {
			b.WriteString(s.name)
		} else {
			b.WriteString(strconv.Quote(s.name))
		}
	}
	return b.String()
}

func isPlainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (d *decodeState) violate(rule, msg string) {
	if len(d.errs) >= maxViolations {
		return
	}
	d.errs = append(d.errs, Violation{Path: d.pathString(), Rule: rule, Msg: msg})
	key := make([]int, len(d.path))
	for i, s := range d.path {
		key[i] = s.order
	}
	d.keys = append(d.keys, key)
}

// violateChild records a violation of the property name (at position order)
// below the current path.
func (d *decodeState) violateChild(name string, order int, rule, msg string) {
	d.pushName(name, order)
	d.violate(rule, msg)
	d.pop()
}

// sortedErrs returns the violations in schema order: by property position
// in each object, element index in each array, a value's own violations
// before those of what it contains; violations at one place keep the order
// they were found in. So the same arguments get the same list, whatever
// order their keys were sent in.
func (d *decodeState) sortedErrs() []Violation {
	if len(d.errs) < 2 || len(d.keys) != len(d.errs) {
		return d.errs
	}
	idx := make([]int, len(d.errs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return slices.Compare(d.keys[a], d.keys[b]) })
	out := make([]Violation, len(idx))
	for i, j := range idx {
		out[i] = d.errs[j]
	}
	return out
}

func (d *decodeState) syntax(msg string) {
	panic(&syntaxError{Offset: d.pos, Msg: msg})
}

func (d *decodeState) ws() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decodeState) peek() byte {
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of input")
	}
	return d.data[d.pos]
}

func (d *decodeState) expect(c byte) {
	if d.peek() != c {
		d.syntax("expected " + strconv.QuoteRune(rune(c)) + ", found " + strconv.QuoteRune(rune(d.data[d.pos])))
	}
	d.pos++
}

// jsonKind names the kind of JSON value starting with c, for messages.
func jsonKind(c byte) string {
	switch c {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// typeMismatch records that the value at the cursor is not of kind want, and
// skips it.
func (d *decodeState) typeMismatch(want string) {
	d.violate("type", "must be "+want+", got "+jsonKind(d.peek()))
	d.skipValue()
}

// stringBytes reads a JSON string at the cursor and returns its raw content
// (between the quotes), and whether it contains escapes.
func (d *decodeState) stringBytes() ([]byte, bool) {
	d.expect('"')
	start := d.pos
	esc := false
	for {
		if d.pos >= len(d.data) {
			d.syntax("unterminated string")
		}
		c := d.data[d.pos]
		switch {
		case c == '"':
			raw := d.data[start:d.pos]
			d.pos++
			return raw, esc
		case c == '\\':
			esc = true
			d.pos++
			if d.pos >= len(d.data) {
				d.syntax("unterminated string")
			}
			switch d.data[d.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.pos++
			case 'u':
				if d.pos+5 > len(d.data) {
					d.syntax("short \\u escape")
				}
				for _, h := range d.data[d.pos+1 : d.pos+5] {
					if !isHex(h) {
						d.syntax("invalid \\u escape")
					}
				}
				d.pos += 5
			default:
				d.syntax("invalid escape \\" + string(rune(d.data[d.pos])))
			}
		case c < 0x20:
			d.syntax("control character in string")
		default:
			d.pos++
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// readString reads a JSON string value. Invalid UTF-8 is a violation.
func (d *decodeState) readString() string {
	raw, esc := d.stringBytes()
	if !esc {
		if !utf8.Valid(raw) {
			d.violate("type", "must be valid UTF-8 text")
		}
		return string(raw)
	}
	s, ok := unescape(raw)
	if !ok {
		d.violate("type", "must be valid UTF-8 text")
	}
	return s
}

// unescape decodes the content of a JSON string with escapes. A lone
// surrogate becomes U+FFFD, as encoding/json does.
func unescape(raw []byte) (string, bool) {
	out := make([]byte, 0, len(raw))
	valid := true
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			if c < utf8.RuneSelf {
				out = append(out, c)
				i++
				continue
			}
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				valid = false
			}
			out = append(out, raw[i:i+size]...)
			i += size
			continue
		}
		i++
		switch raw[i] {
		case '"', '\\', '/':
			out = append(out, raw[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(raw[i+1 : i+5])
			i += 4
			if utf16.IsSurrogate(r) {
				if i+6 < len(raw)+1 && i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' && i+7 <= len(raw) {
					r2 := hex4(raw[i+3 : i+7])
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						out = utf8.AppendRune(out, dec)
						i += 7
						continue
					}
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
		}
		i++
	}
	return string(out), valid
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// number reads a JSON number and returns its literal, and whether it has a
// fraction or exponent.
func (d *decodeState) number() ([]byte, bool) {
	start := d.pos
	frac := false
	if d.pos < len(d.data) && d.data[d.pos] == '-' {
		d.pos++
	}
	switch {
	case d.pos < len(d.data) && d.data[d.pos] == '0':
		d.pos++
	case d.pos < len(d.data) && d.data[d.pos] >= '1' && d.data[d.pos] <= '9':
		for d.pos < len(d.data) && isDigit(d.data[d.pos]) {
			d.pos++
		}
	default:
		d.syntax("invalid number")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		frac = true
		d.pos++
		if d.pos >= len(d.data) || !isDigit(d.data[d.pos]) {
			d.syntax("invalid number")
		}
		for d.pos < len(d.data) && isDigit(d.data[d.pos]) {
			d.pos++
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		frac = true
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if d.pos >= len(d.data) || !isDigit(d.data[d.pos]) {
			d.syntax("invalid number")
		}
		for d.pos < len(d.data) && isDigit(d.data[d.pos]) {
			d.pos++
		}
	}
	return d.data[start:d.pos], frac
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (d *decodeState) literal(lit string) {
	if len(d.data)-d.pos < len(lit) || string(d.data[d.pos:d.pos+len(lit)]) != lit {
		d.syntax("invalid literal")
	}
	d.pos += len(lit)
}

// skipValue checks and skips the JSON value at the cursor.
func (d *decodeState) skipValue() {
	d.ws()
	switch c := d.peek(); {
	case c == '"':
		d.stringBytes()
	case c == '{':
		d.enter()
		d.pos++
		d.ws()
		if d.peek() == '}' {
			d.pos++
			d.leave()
			return
		}
		for {
			d.ws()
			d.stringBytes()
			d.ws()
			d.expect(':')
			d.skipValue()
			d.ws()
			if d.peek() == ',' {
				d.pos++
				continue
			}
			d.expect('}')
			d.leave()
			return
		}
	case c == '[':
		d.enter()
		d.pos++
		d.ws()
		if d.peek() == ']' {
			d.pos++
			d.leave()
			return
		}
		for {
			d.skipValue()
			d.ws()
			if d.peek() == ',' {
				d.pos++
				continue
			}
			d.expect(']')
			d.leave()
			return
		}
	case c == 't':
		d.literal("true")
	case c == 'f':
		d.literal("false")
	case c == 'n':
		d.literal("null")
	case c == '-' || isDigit(c):
		d.number()
	default:
		d.syntax("unexpected " + strconv.QuoteRune(rune(c)))
	}
}

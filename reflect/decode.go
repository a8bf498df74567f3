package mcpreflect

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"

	gjs "github.com/google/jsonschema-go/jsonschema"
)

// decoder decodes the JSON value at the cursor into the Go value at p.
type decoder interface {
	decode(d *decodeState, p unsafe.Pointer)
}

type stringDec struct{ chk *strCheck }

func (x *stringDec) decode(d *decodeState, p unsafe.Pointer) {
	if d.peek() != '"' {
		d.typeMismatch("a string")
		return
	}
	s := d.readString()
	x.chk.check(d, s)
	*(*string)(p) = s
}

type boolDec struct{ constv *bool }

func (x *boolDec) decode(d *decodeState, p unsafe.Pointer) {
	var v bool
	switch d.peek() {
	case 't':
		d.literal("true")
		v = true
	case 'f':
		d.literal("false")
	default:
		d.typeMismatch("a boolean")
		return
	}
	if x.constv != nil && v != *x.constv {
		d.violate("const", fmt.Sprintf("must be %v", *x.constv))
	}
	*(*bool)(p) = v
}

type intDec struct {
	kind reflect.Kind
	chk  *numCheck
}

func (x *intDec) decode(d *decodeState, p unsafe.Pointer) {
	c := d.peek()
	if c != '-' && !isDigit(c) {
		d.typeMismatch("an integer")
		return
	}
	lit, frac := d.number()
	var f float64
	var i int64
	var u uint64
	unsigned := isUintKind(x.kind)
	ok := false
	if !frac {
		if unsigned {
			var err error
			u, err = strconv.ParseUint(string(lit), 10, 64)
			ok = err == nil
			f = float64(u)
			if !ok && len(lit) > 0 && lit[0] == '-' {
				ok, f = true, -1 // negative: reported by the minimum check below
				u = 0
			}
		} else {
			var err error
			i, err = strconv.ParseInt(string(lit), 10, 64)
			ok = err == nil
			f = float64(i)
		}
		if !ok {
			d.violate("maximum", "is out of range for a 64-bit integer, got "+string(lit))
			return
		}
	} else {
		var err error
		f, err = strconv.ParseFloat(string(lit), 64)
		if err != nil || f != math.Trunc(f) {
			d.violate("type", "must be an integer, got "+string(lit))
			return
		}
		if unsigned {
			if f >= 0 && f < 1<<64 {
				u = uint64(f)
			}
		} else {
			if f < -(1<<63) || f >= 1<<63 {
				d.violate("maximum", "is out of range for a 64-bit integer, got "+string(lit))
				return
			}
			i = int64(f)
		}
	}
	before := len(d.errs)
	x.chk.check(d, f, lit)
	if unsigned && f < 0 && len(d.errs) == before {
		d.violate("minimum", "must be at least 0, got "+string(lit))
	}
	switch x.kind {
	case reflect.Int:
		*(*int)(p) = int(i)
	case reflect.Int8:
		*(*int8)(p) = int8(i)
	case reflect.Int16:
		*(*int16)(p) = int16(i)
	case reflect.Int32:
		*(*int32)(p) = int32(i)
	case reflect.Int64:
		*(*int64)(p) = i
	case reflect.Uint:
		*(*uint)(p) = uint(u)
	case reflect.Uint8:
		*(*uint8)(p) = uint8(u)
	case reflect.Uint16:
		*(*uint16)(p) = uint16(u)
	case reflect.Uint32:
		*(*uint32)(p) = uint32(u)
	case reflect.Uint64:
		*(*uint64)(p) = u
	case reflect.Uintptr:
		*(*uintptr)(p) = uintptr(u)
	}
}

type floatDec struct {
	bits int
	chk  *numCheck
}

func (x *floatDec) decode(d *decodeState, p unsafe.Pointer) {
	c := d.peek()
	if c != '-' && !isDigit(c) {
		d.typeMismatch("a number")
		return
	}
	lit, _ := d.number()
	f, err := strconv.ParseFloat(string(lit), x.bits)
	if err != nil {
		d.violate("maximum", "is out of range for a "+strconv.Itoa(x.bits)+"-bit number, got "+string(lit))
		return
	}
	x.chk.check(d, f, lit)
	if x.bits == 32 {
		*(*float32)(p) = float32(f)
	} else {
		*(*float64)(p) = f
	}
}

type ptrDec struct {
	elemType reflect.Type
	elem     decoder
}

func (x *ptrDec) decode(d *decodeState, p unsafe.Pointer) {
	if d.peek() == 'n' {
		d.typeMismatch(describeDec(x.elem))
		return
	}
	pp := (*unsafe.Pointer)(p)
	if *pp == nil {
		*pp = reflect.New(x.elemType).UnsafePointer()
	}
	x.elem.decode(d, *pp)
}

// describeDec names what a decoder expects, for type mismatch messages.
func describeDec(dec decoder) string {
	switch x := dec.(type) {
	case *stringDec, *timeDec, *textDec, *bytesDec:
		return "a string"
	case *boolDec:
		return "a boolean"
	case *intDec:
		return "an integer"
	case *floatDec:
		return "a number"
	case *structDec, *mapDec:
		return "an object"
	case *sliceDec:
		return "an array"
	case *ptrDec:
		return describeDec(x.elem)
	case *genericDec:
		return describeDec(x.inner)
	}
	return "a JSON value"
}

type timeDec struct{ chk *strCheck }

func (x *timeDec) decode(d *decodeState, p unsafe.Pointer) {
	if d.peek() != '"' {
		d.typeMismatch("a string")
		return
	}
	s := d.readString()
	before := len(d.errs)
	x.chk.check(d, s)
	t, err := parseDateTime(s)
	if err != nil {
		if len(d.errs) == before {
			d.violate("format", "must be a valid date-time")
		}
		return
	}
	*(*time.Time)(p) = t
}

type textDec struct {
	t   reflect.Type
	chk *strCheck
}

func (x *textDec) decode(d *decodeState, p unsafe.Pointer) {
	if d.peek() != '"' {
		d.typeMismatch("a string")
		return
	}
	s := d.readString()
	x.chk.check(d, s)
	tu := reflect.NewAt(x.t, p).Interface().(encoding.TextUnmarshaler)
	if err := tu.UnmarshalText([]byte(s)); err != nil {
		d.violate("format", "is not a valid "+x.t.Name()+": "+err.Error())
	}
}

type bytesDec struct{ chk *strCheck }

func (x *bytesDec) decode(d *decodeState, p unsafe.Pointer) {
	if d.peek() != '"' {
		d.typeMismatch("a base64 string")
		return
	}
	s := d.readString()
	x.chk.check(d, s)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		d.violate("contentEncoding", "must be standard base64")
		return
	}
	*(*[]byte)(p) = b
}

// rawDec keeps the JSON value as it is (json.RawMessage).
type rawDec struct{}

func (rawDec) decode(d *decodeState, p unsafe.Pointer) {
	start := d.pos
	d.skipValue()
	*(*json.RawMessage)(p) = append(json.RawMessage(nil), d.data[start:d.pos]...)
}

// opaqueDec decodes a type mcpgen cannot see into (a JSONSchema() type, an
// interface) with encoding/json, after checking the value against its schema.
type opaqueDec struct {
	t   reflect.Type
	gen *gjs.Resolved
}

func (x *opaqueDec) decode(d *decodeState, p unsafe.Pointer) {
	start := d.pos
	d.skipValue()
	raw := d.data[start:d.pos]
	if x.gen != nil && !genericCheck(d, x.gen, raw) {
		return
	}
	if err := json.Unmarshal(raw, reflect.NewAt(x.t, p).Interface()); err != nil {
		d.violate("type", "is not a valid "+typeNameForMsg(x.t)+": "+unmarshalMsg(err))
	}
}

func typeNameForMsg(t reflect.Type) string {
	if t.Name() != "" {
		return t.Name()
	}
	return "value"
}

func unmarshalMsg(err error) string {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		return "unexpected " + te.Value
	}
	return err.Error()
}

// genericDec checks keywords the typed decoders do not compile (anyOf, not,
// ...) with a full JSON Schema validator.
type genericDec struct {
	inner decoder
	gen   *gjs.Resolved
}

func (x *genericDec) decode(d *decodeState, p unsafe.Pointer) {
	start, before := d.pos, len(d.errs)
	x.inner.decode(d, p)
	if len(d.errs) == before {
		genericCheck(d, x.gen, d.data[start:d.pos])
	}
}

func genericCheck(d *decodeState, gen *gjs.Resolved, raw []byte) bool {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		d.violate("type", "is not valid JSON")
		return false
	}
	if err := gen.Validate(v); err != nil {
		d.violate(genericViolation(err))
		return false
	}
	return true
}

// genericViolation turns an error of the full validator into a rule and a
// message like the typed decoders': "validating root: validating
// /properties/x: pattern: \"red\" does not match ..." becomes the rule
// "pattern" and the message after it. An error of another form keeps the
// rule "schema" and its text.
func genericViolation(err error) (rule, msg string) {
	s := err.Error()
	for strings.HasPrefix(s, "validating ") {
		_, rest, ok := strings.Cut(s, ": ")
		if !ok {
			break
		}
		s = rest
	}
	if kw, detail, ok := strings.Cut(s, ": "); ok && isKeyword(kw) && detail != "" {
		return kw, detail
	}
	return "schema", s
}

// isKeyword reports whether s looks like a JSON Schema keyword: a short
// identifier, letters only (plus a leading $).
func isKeyword(s string) bool {
	s = strings.TrimPrefix(s, "$")
	if s == "" || len(s) > 32 {
		return false
	}
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

type sliceDec struct {
	t        reflect.Type // the slice or array type
	elemType reflect.Type
	elem     decoder
	size     uintptr
	arrayLen int // -1 for a slice
	count    *countCheck
}

func (x *sliceDec) decode(d *decodeState, p unsafe.Pointer) {
	if d.peek() != '[' {
		d.typeMismatch("an array")
		return
	}
	d.enter()
	d.pos++
	d.ws()
	var v reflect.Value
	var base unsafe.Pointer
	n := 0
	if x.arrayLen >= 0 {
		base = p
	}
	if d.peek() == ']' {
		d.pos++
	} else {
		for {
			d.ws()
			switch {
			case x.arrayLen >= 0:
				if n < x.arrayLen {
					d.pushIndex(n)
					x.elem.decode(d, unsafe.Add(base, uintptr(n)*x.size))
					d.pop()
				} else {
					d.skipValue()
				}
			default:
				if n == 0 || n == v.Len() {
					nv := reflect.MakeSlice(x.t, max(4, 2*n), max(4, 2*n))
					if n > 0 {
						reflect.Copy(nv, v)
					}
					v, base = nv, nv.UnsafePointer()
				}
				d.pushIndex(n)
				x.elem.decode(d, unsafe.Add(base, uintptr(n)*x.size))
				d.pop()
			}
			n++
			d.ws()
			if d.peek() == ',' {
				d.pos++
				continue
			}
			d.expect(']')
			break
		}
	}
	d.leave()
	if x.arrayLen >= 0 {
		switch {
		case n < x.arrayLen:
			d.violate("minItems", fmt.Sprintf("must have exactly %d items, got %d", x.arrayLen, n))
		case n > x.arrayLen:
			d.violate("maxItems", fmt.Sprintf("must have exactly %d items, got %d", x.arrayLen, n))
		}
		return
	}
	if n == 0 {
		v = reflect.MakeSlice(x.t, 0, 0)
	} else {
		v = v.Slice(0, n)
	}
	x.count.check(d, n)
	if x.count != nil && x.count.unique {
		checkUnique(d, v)
	}
	reflect.NewAt(x.t, p).Elem().Set(v)
}

// checkUnique reports the first two equal items of v, compared as JSON.
func checkUnique(d *decodeState, v reflect.Value) {
	seen := make(map[string]int, v.Len())
	for i := 0; i < v.Len(); i++ {
		b, err := json.Marshal(v.Index(i).Interface())
		if err != nil {
			continue
		}
		if j, ok := seen[string(b)]; ok {
			d.violate("uniqueItems", fmt.Sprintf("items must be unique, but items %d and %d are equal", j, i))
			return
		}
		seen[string(b)] = i
	}
}

type mapDec struct {
	t        reflect.Type
	keyType  reflect.Type
	elemType reflect.Type
	elem     decoder
	keyChk   *strCheck
	count    *countCheck
}

func (x *mapDec) decode(d *decodeState, p unsafe.Pointer) {
	if d.peek() != '{' {
		d.typeMismatch("an object")
		return
	}
	d.enter()
	d.pos++
	m := reflect.MakeMap(x.t)
	seen := map[string]bool{}
	d.ws()
	if d.peek() == '}' {
		d.pos++
	} else {
		for {
			d.ws()
			key := d.readString()
			d.ws()
			d.expect(':')
			d.ws()
			if seen[key] {
				d.violateChild(key, 0, "uniqueKeys", "is given more than once")
				d.skipValue()
			} else {
				seen[key] = true
				d.pushName(key, 0)
				before := len(d.errs)
				x.keyChk.check(d, key)
				kv, ok := x.key(key)
				if !ok {
					d.violate("propertyNames", "is not a valid key: must be an integer")
				}
				ev := reflect.New(x.elemType)
				x.elem.decode(d, ev.UnsafePointer())
				d.pop()
				if ok && len(d.errs) == before {
					m.SetMapIndex(kv, ev.Elem())
				}
			}
			d.ws()
			if d.peek() == ',' {
				d.pos++
				continue
			}
			d.expect('}')
			break
		}
	}
	d.leave()
	x.count.check(d, len(seen))
	reflect.NewAt(x.t, p).Elem().Set(m)
}

func (x *mapDec) key(s string) (reflect.Value, bool) {
	switch k := x.keyType.Kind(); {
	case k == reflect.String:
		return reflect.ValueOf(s).Convert(x.keyType), true
	case isIntKind(k):
		n, err := strconv.ParseInt(s, 10, x.keyType.Bits())
		if err != nil {
			return reflect.Value{}, false
		}
		return reflect.ValueOf(n).Convert(x.keyType), true
	default:
		n, err := strconv.ParseUint(s, 10, x.keyType.Bits())
		if err != nil {
			return reflect.Value{}, false
		}
		return reflect.ValueOf(n).Convert(x.keyType), true
	}
}

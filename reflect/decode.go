package mcpreflect

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"
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
	rng  *numRange
}

func (x *intDec) decode(d *decodeState, p unsafe.Pointer) {
	c := d.peek()
	if c != '-' && !isDigit(c) {
		d.typeMismatch("an integer")
		return
	}
	lit, frac := d.number()
	v := numVal{lit: lit}
	var i int64
	var u uint64
	var iok, uok bool
	if !frac && len(lit) <= 18 {
		// The common case: a plain integer that fits an int64 and whose
		// float64 may be exact.
		i, iok = smallInt(lit), true
		u, uok = uint64(i), i >= 0
		v.f, v.exact = float64(i), -1<<53 <= i && i <= 1<<53
	} else {
		dec := v.decimal()
		if !dec.isInt() {
			d.violate("type", "must be an integer, got "+string(lit))
			return
		}
		i, iok = dec.int64Value()
		u, uok = dec.uint64Value()
		uok = uok && (!dec.neg || u == 0)
		if iok {
			v.f, v.exact = float64(i), -1<<53 <= i && i <= 1<<53
		} else {
			v.f, _ = strconv.ParseFloat(string(lit), 64)
		}
	}
	neg := lit[0] == '-'
	var below, above bool
	if x.rng.unsigned {
		below, above = neg && !uok, !neg && (!uok || u > x.rng.ihi)
	} else {
		below, above = neg && (!iok || i < x.rng.ilo), !neg && (!iok || i > int64(x.rng.ihi))
	}
	before := len(d.errs)
	inRange := x.rng.check(d, x.chk, &v, below, above)
	x.chk.check(d, &v, i, iok)
	if !inRange || len(d.errs) != before {
		return
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

// smallInt reads a plain integer literal of at most 18 characters.
func smallInt(lit []byte) int64 {
	neg := lit[0] == '-'
	if neg {
		lit = lit[1:]
	}
	var n int64
	for _, c := range lit {
		n = n*10 + int64(c-'0')
	}
	if neg {
		return -n
	}
	return n
}

type floatDec struct {
	bits int
	chk  *numCheck
	rng  *numRange
}

func (x *floatDec) decode(d *decodeState, p unsafe.Pointer) {
	c := d.peek()
	if c != '-' && !isDigit(c) {
		d.typeMismatch("a number")
		return
	}
	lit, frac := d.number()
	v := numVal{lit: lit}
	var iv int64
	ivOK := false
	if !frac && len(lit) <= 16 {
		// A plain integer of at most 15 digits: its float64 is exact.
		iv, ivOK = smallInt(lit), true
		v.f, v.exact = float64(iv), true
		if iv == 0 && lit[0] == '-' {
			v.f = math.Copysign(0, -1)
		}
	} else {
		v.f, _ = strconv.ParseFloat(string(lit), 64)
	}
	before := len(d.errs)
	below, above := x.rng.floatBounds(&v)
	inRange := x.rng.check(d, x.chk, &v, below, above)
	x.chk.check(d, &v, iv, ivOK)
	if !inRange || len(d.errs) != before {
		return
	}
	f := v.f
	if x.bits == 32 && !ivOK {
		f, _ = strconv.ParseFloat(string(lit), 32) // finite: within the range
	}
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
	gen *genericSchema
}

func (x *opaqueDec) decode(d *decodeState, p unsafe.Pointer) {
	start := d.pos
	d.skipValue()
	raw := d.data[start:d.pos]
	if x.gen != nil && !genericCheck(d, x.gen, raw) {
		return
	}
	if err := json.Unmarshal(raw, reflect.NewAt(x.t, p).Interface()); err != nil {
		if v, ok := untypedExact(x.t, raw, err); ok {
			reflect.NewAt(x.t, p).Elem().Set(reflect.ValueOf(v))
			return
		}
		d.violate("type", "is not a valid "+typeNameForMsg(x.t)+": "+unmarshalMsg(err))
	}
}

// untypedExact decodes a value for an empty interface that holds a number
// beyond float64's range, which encoding/json refuses though the schema
// ({} or an untyped object) takes it: every number that fits is a float64,
// as encoding/json gives it, and one that does not is kept as sent, a
// json.Number. ok is false for any other error.
func untypedExact(t reflect.Type, raw []byte, err error) (v any, ok bool) {
	var te *json.UnmarshalTypeError
	if t.Kind() != reflect.Interface || t.NumMethod() != 0 || !errors.As(err, &te) || !strings.HasPrefix(te.Value, "number") {
		return nil, false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil, false
	}
	return floatsWhereTheyFit(v), true
}

func floatsWhereTheyFit(v any) any {
	switch x := v.(type) {
	case json.Number:
		if f, err := strconv.ParseFloat(string(x), 64); err == nil {
			return f
		}
	case map[string]any:
		for k, e := range x {
			x[k] = floatsWhereTheyFit(e)
		}
	case []any:
		for i, e := range x {
			x[i] = floatsWhereTheyFit(e)
		}
	}
	return v
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
	gen   *genericSchema
}

func (x *genericDec) decode(d *decodeState, p unsafe.Pointer) {
	start, before := d.pos, len(d.errs)
	x.inner.decode(d, p)
	// The full validator runs even when the typed decoder found violations,
	// so each keyword's are named; those it finds again are dropped.
	mark := len(d.errs)
	genericCheck(d, x.gen, d.data[start:d.pos])
	d.dropRepeats(before, mark)
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
	unique := x.count != nil && x.count.unique && x.arrayLen < 0
	var items []uniqueItem
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
					// An item past the array's length is checked too (into
					// a scratch value), so each of its violations is named.
					d.pushIndex(n)
					x.elem.decode(d, reflect.New(x.elemType).UnsafePointer())
					d.pop()
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
				start, before := d.pos, len(d.errs)
				x.elem.decode(d, unsafe.Add(base, uintptr(n)*x.size))
				if unique && !d.typeViolated(before) {
					items = append(items, uniqueItem{index: n, raw: d.data[start:d.pos]})
				}
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
	if unique {
		checkUnique(d, items)
	}
	reflect.NewAt(x.t, p).Elem().Set(v)
}

// uniqueItem is an array item of the right type, as sent.
type uniqueItem struct {
	index int
	raw   []byte
}

// checkUnique reports the first two items that are equal JSON values: 1 and
// 1.0 are equal, 1 and 1.0000000000000000001 are not (even where a float64
// cannot tell them apart), nor are objects with different members. Items of
// the wrong type are already violations and are not compared.
func checkUnique(d *decodeState, items []uniqueItem) {
	if len(items) < 2 {
		return
	}
	seen := make(map[string]int, len(items))
	for _, it := range items {
		key, ok := canonicalJSON(it.raw)
		if !ok {
			continue
		}
		if j, ok := seen[key]; ok {
			d.violate("uniqueItems", fmt.Sprintf("items must be unique, but items %d and %d are equal", j, it.index))
			return
		}
		seen[key] = it.index
	}
}

// typeViolated reports whether a type violation at the current path was
// recorded since the first before violations.
func (d *decodeState) typeViolated(before int) bool {
	if len(d.errs) == before {
		return false
	}
	here := d.pathString()
	for _, v := range d.errs[before:] {
		if v.Rule == "type" && v.Path == here {
			return true
		}
	}
	return false
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

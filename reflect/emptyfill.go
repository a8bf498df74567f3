package mcpreflect

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unsafe"
)

// An emptier makes the nil slices and maps encoding/json would encode
// below a value of one type (null) empty ([] and {}, or "" for a []byte),
// copying what it changes and never writing to the value itself: it
// compiles, once per type, where such a slice or map can be. A type with
// none has no emptier (nil), and its values are marshaled as they are.
//
// It follows encoding/json's rules for what is encoded: the exported
// fields (and those of embedded structs) but a "-" one; nothing below a
// value encoding/json hands to a MarshalJSON or MarshalText method (a
// method with a pointer receiver only where the value is addressable:
// behind a pointer, in a slice, in an addressable struct or array); an
// omitempty field that is empty or an omitzero field that is zero stays
// as it is, since it is not encoded. An interface's dynamic type is looked
// up per value.
type emptier struct {
	kind   reflect.Kind
	typ    reflect.Type
	elem   *emptier      // a slice's, array's, pointer's or map's elements; nil when none is ever changed
	empty  reflect.Value // an empty slice or map of typ, shared: nothing writes to it
	fields []emptyField  // a struct's fields that can be changed
}

type emptyField struct {
	index     int
	e         *emptier
	omitEmpty bool
	isZero    func(reflect.Value) bool // omitzero: whether the field is zero, as encoding/json decides it
}

type emptierKey struct {
	t    reflect.Type
	addr bool // values of t are addressable (pointer-receiver methods are called)
}

var (
	emptiers  sync.Map   // emptierKey -> *emptier (nil: nothing to change)
	emptierMu sync.Mutex // serializes compiles, so a recursive type's half-built emptier is never seen
)

// emptierFor returns the emptier of t's values, nil when nothing below
// one is ever changed.
func emptierFor(t reflect.Type, addr bool) *emptier {
	k := emptierKey{t, addr}
	if e, ok := emptiers.Load(k); ok {
		return e.(*emptier)
	}
	emptierMu.Lock()
	defer emptierMu.Unlock()
	if e, ok := emptiers.Load(k); ok {
		return e.(*emptier)
	}
	c := emptyCompiler{built: map[emptierKey]*emptier{}, dirty: map[emptierKey]bool{}}
	e := c.compile(k)
	for k, e := range c.built {
		emptiers.Store(k, e)
	}
	return e
}

type emptyCompiler struct {
	built map[emptierKey]*emptier
	dirty map[emptierKey]bool
}

func (c *emptyCompiler) compile(k emptierKey) *emptier {
	if e, ok := c.built[k]; ok {
		return e
	}
	if e, ok := emptiers.Load(k); ok {
		return e.(*emptier)
	}
	if !c.changes(k, map[emptierKey]bool{}) {
		c.built[k] = nil
		return nil
	}
	t := k.t
	e := &emptier{kind: t.Kind(), typ: t}
	c.built[k] = e // before the elements, for recursive types
	switch t.Kind() {
	case reflect.Slice:
		e.elem = c.compile(emptierKey{t.Elem(), true})
		e.empty = reflect.MakeSlice(t, 0, 0)
	case reflect.Array:
		e.elem = c.compile(emptierKey{t.Elem(), k.addr})
	case reflect.Pointer:
		e.elem = c.compile(emptierKey{t.Elem(), true})
	case reflect.Map:
		e.elem = c.compile(emptierKey{t.Elem(), false})
		e.empty = reflect.MakeMap(t)
	case reflect.Struct:
		for i := range t.NumField() {
			sf := t.Field(i)
			tag, ok := encodedField(sf)
			if !ok {
				continue
			}
			fe := c.compile(emptierKey{sf.Type, k.addr})
			if fe == nil {
				continue
			}
			f := emptyField{index: i, e: fe}
			name, opts, _ := strings.Cut(tag, ",")
			if ft := sf.Type; sf.Anonymous && name == "" && (ft.Kind() == reflect.Struct || ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct) {
				opts = "" // an embedded struct's fields are the struct's: its options are not read
			}
			for opt := range strings.SplitSeq(opts, ",") {
				switch opt {
				case "omitempty":
					f.omitEmpty = true
				case "omitzero":
					f.isZero = isZeroFunc(sf.Type)
				}
			}
			e.fields = append(e.fields, f)
		}
	}
	return e
}

// changes reports whether anything below a value of k.t can be changed:
// whether a slice, map or interface is encoded there.
func (c *emptyCompiler) changes(k emptierKey, seen map[emptierKey]bool) bool {
	if d, ok := c.dirty[k]; ok {
		return d
	}
	if e, ok := emptiers.Load(k); ok {
		return e.(*emptier) != nil
	}
	if seen[k] {
		return false // on a cycle of types: whatever changes is found on another path
	}
	seen[k] = true
	t := k.t
	d := false
	switch {
	case marshalsJSON(t, k.addr):
	case t.Kind() == reflect.Slice, t.Kind() == reflect.Map, t.Kind() == reflect.Interface:
		d = true
	case t.Kind() == reflect.Pointer:
		d = c.changes(emptierKey{t.Elem(), true}, seen)
	case t.Kind() == reflect.Array:
		d = t.Len() > 0 && c.changes(emptierKey{t.Elem(), k.addr}, seen)
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			sf := t.Field(i)
			if _, ok := encodedField(sf); ok && c.changes(emptierKey{sf.Type, k.addr}, seen) {
				d = true
				break
			}
		}
	}
	if len(seen) == 1 {
		c.dirty[k] = d // a root's answer is final; one found inside a cycle may not be
	}
	delete(seen, k)
	return d
}

// marshalsJSON reports whether encoding/json hands a value of t to its
// MarshalJSON or MarshalText method.
func marshalsJSON(t reflect.Type, addr bool) bool {
	if t.Implements(jsonMarshalerType) || t.Implements(textMarshalerType) {
		return true
	}
	if t.Kind() != reflect.Pointer && addr {
		p := reflect.PointerTo(t)
		return p.Implements(jsonMarshalerType) || p.Implements(textMarshalerType)
	}
	return false
}

// encodedField reports whether encoding/json can encode struct field sf
// (or fields of it, when it is embedded) and returns its json tag.
func encodedField(sf reflect.StructField) (string, bool) {
	if sf.Anonymous {
		t := sf.Type
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if !sf.IsExported() && t.Kind() != reflect.Struct {
			return "", false
		}
	} else if !sf.IsExported() {
		return "", false
	}
	tag := sf.Tag.Get("json")
	return tag, tag != "-"
}

type isZeroer interface{ IsZero() bool }

var isZeroerType = reflect.TypeFor[isZeroer]()

// isZeroFunc is encoding/json's test of an omitzero field of type t.
func isZeroFunc(t reflect.Type) func(reflect.Value) bool {
	switch {
	case t.Kind() == reflect.Interface && t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			return v.IsNil() || (v.Elem().Kind() == reflect.Pointer && v.Elem().IsNil()) || v.Interface().(isZeroer).IsZero()
		}
	case t.Kind() == reflect.Pointer && t.Implements(isZeroerType):
		return func(v reflect.Value) bool { return v.IsNil() || v.Interface().(isZeroer).IsZero() }
	case t.Implements(isZeroerType):
		return func(v reflect.Value) bool { return v.Interface().(isZeroer).IsZero() }
	case reflect.PointerTo(t).Implements(isZeroerType):
		return func(v reflect.Value) bool {
			if !v.CanAddr() {
				v2 := reflect.New(v.Type()).Elem()
				v2.Set(v)
				v = v2
			}
			return v.Addr().Interface().(isZeroer).IsZero()
		}
	}
	return reflect.Value.IsZero
}

// omitted reports whether encoding/json leaves field f's value v out.
func (f *emptyField) omitted(v reflect.Value) bool {
	if f.omitEmpty {
		switch v.Kind() {
		case reflect.Slice, reflect.Map:
			if v.Len() == 0 {
				return true
			}
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return true
			}
		case reflect.Array:
			if v.Len() == 0 {
				return true
			}
		}
	}
	return f.isZero != nil && f.isZero(v)
}

// An emptyWalk is one value's walk. Past cycleDepth levels of pointers,
// slices, maps and interfaces it keeps the containers on its path, as
// encoding/json does, and gives up on a cycle (which encoding/json then
// reports).
type emptyWalk struct {
	depth int
	seen  map[any]struct{}
	cycle bool
}

const cycleDepth = 1000

// enter is called on a way down through container v; leave on the way up.
func (w *emptyWalk) enter(v reflect.Value) bool {
	if w.cycle {
		return false
	}
	if w.depth++; w.depth <= cycleDepth {
		return true
	}
	k := containerID(v)
	if _, ok := w.seen[k]; ok {
		w.cycle = true
		return false
	}
	if w.seen == nil {
		w.seen = map[any]struct{}{}
	}
	w.seen[k] = struct{}{}
	return true
}

func (w *emptyWalk) leave(v reflect.Value) {
	if w.depth--; w.depth >= cycleDepth && !w.cycle {
		delete(w.seen, containerID(v))
	}
}

func containerID(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Slice:
		return struct {
			p unsafe.Pointer
			n int
		}{v.UnsafePointer(), v.Len()}
	}
	return v.UnsafePointer()
}

// needs reports whether something below v (of e's type) is changed.
func (e *emptier) needs(v reflect.Value, w *emptyWalk) bool {
	switch e.kind {
	case reflect.Slice:
		if v.IsNil() {
			return true
		}
		if e.elem == nil || v.Len() == 0 || !w.enter(v) {
			return false
		}
		defer w.leave(v)
		for i := range v.Len() {
			if e.elem.needs(v.Index(i), w) {
				return true
			}
		}
	case reflect.Map:
		if v.IsNil() {
			return true
		}
		if e.elem == nil || v.Len() == 0 || !w.enter(v) {
			return false
		}
		defer w.leave(v)
		x := reflect.New(e.typ.Elem()).Elem()
		var it reflect.MapIter
		for it.Reset(v); it.Next(); {
			x.SetIterValue(&it)
			if e.elem.needs(x, w) {
				return true
			}
		}
	case reflect.Pointer:
		if v.IsNil() || !w.enter(v) {
			return false
		}
		defer w.leave(v)
		return e.elem.needs(v.Elem(), w)
	case reflect.Interface:
		if v.IsNil() {
			return false
		}
		x := v.Elem()
		d := emptierFor(x.Type(), false)
		return d != nil && d.needs(x, w)
	case reflect.Array:
		for i := range v.Len() {
			if e.elem.needs(v.Index(i), w) {
				return true
			}
		}
	case reflect.Struct:
		for i := range e.fields {
			f := &e.fields[i]
			fv := v.Field(f.index)
			if !f.omitted(fv) && f.e.needs(fv, w) {
				return true
			}
		}
	}
	return false
}

// entered reports whether v, a slice or map of e's type, is to be copied
// and filled, and if so enters it in w (the caller leaves it); a nil one is
// made empty here.
func (e *emptier) entered(v reflect.Value, w *emptyWalk) bool {
	if v.IsNil() {
		v.Set(e.empty)
		return false
	}
	return e.needs(v, w) && w.enter(v)
}

// fill makes v (of e's type) what encoding/json is to encode: v is
// addressable memory of the caller's own (a copy); what v shares (through
// a pointer, slice, map or interface) is copied before it is changed.
func (e *emptier) fill(v reflect.Value, w *emptyWalk) {
	switch e.kind {
	case reflect.Slice:
		if !e.entered(v, w) {
			return
		}
		defer w.leave(v)
		s := reflect.MakeSlice(e.typ, v.Len(), v.Len())
		reflect.Copy(s, v)
		for i := range s.Len() {
			e.elem.fill(s.Index(i), w)
		}
		v.Set(s)
	case reflect.Map:
		if !e.entered(v, w) {
			return
		}
		defer w.leave(v)
		m := reflect.MakeMapWithSize(e.typ, v.Len())
		k, x := reflect.New(e.typ.Key()).Elem(), reflect.New(e.typ.Elem()).Elem()
		var it reflect.MapIter
		for it.Reset(v); it.Next(); {
			k.SetIterKey(&it)
			x.SetIterValue(&it)
			e.elem.fill(x, w) // x is the map's copy to make: SetMapIndex copies it
			m.SetMapIndex(k, x)
		}
		v.Set(m)
	case reflect.Pointer:
		if v.IsNil() || !e.elem.needs(v.Elem(), w) || !w.enter(v) {
			return
		}
		defer w.leave(v)
		p := reflect.New(e.typ.Elem())
		p.Elem().Set(v.Elem())
		e.elem.fill(p.Elem(), w)
		v.Set(p)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		x := v.Elem()
		d := emptierFor(x.Type(), false)
		if d == nil || !d.needs(x, w) {
			return
		}
		c := reflect.New(x.Type()).Elem()
		c.Set(x)
		d.fill(c, w)
		v.Set(c)
	case reflect.Array:
		for i := range v.Len() {
			e.elem.fill(v.Index(i), w)
		}
	case reflect.Struct:
		for i := range e.fields {
			f := &e.fields[i]
			fv := v.Field(f.index)
			if !fv.CanSet() {
				// An embedded struct of an unexported type: its exported
				// fields are encoded.
				fv = reflect.NewAt(fv.Type(), unsafe.Pointer(fv.UnsafeAddr())).Elem()
			}
			if !f.omitted(fv) {
				f.e.fill(fv, w)
			}
		}
	}
}

// marshalEmpty is encoding/json's encoding of v with the nil slices and
// maps below it (those e finds) encoded as empty.
func marshalEmpty(e *emptier, v any) ([]byte, error) {
	rv := reflect.ValueOf(v)
	var w emptyWalk
	if e == nil || !e.needs(rv, &w) || w.cycle {
		return json.Marshal(v)
	}
	c := reflect.New(rv.Type()).Elem()
	c.Set(rv)
	e.fill(c, &w)
	if w.cycle {
		return json.Marshal(v)
	}
	return json.Marshal(c.Interface())
}
